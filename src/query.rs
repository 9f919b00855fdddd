//! The queries: what is asked of a compiled program (solve, batch, states, analyze, graph, generate) and with what settings.
//!
//! A query is plain data. The planner ([`crate::plan`](mod@crate::plan)) reads it to choose an
//! engine; the engines read the settings they run with (a states request's
//! start, symmetry, cluster and listing) from the same types.

use crate::bits::Bits;

/// What is asked of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Solve one board.
    Solve,
    /// Answer this many boards of judge input.
    Batch {
        /// How many boards.
        boards: usize,
    },
    /// Count, list or histogram states.
    States(StatesQuery),
    /// Rank, nullity and quiet patterns.
    Analyze,
    /// Draw the state graph from a start.
    Graph,
    /// Generate boards at a distance from the goal.
    Generate {
        /// The distance; `None` for the greatest any board has.
        distance: Option<u32>,
        /// How many boards.
        boards: usize,
    },
}

/// What `generate` is asked for: boards at a distance from the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    /// The distance from the goal in the puzzle's metric: the fewest moves to
    /// a target or, for a fewest-pieces goal, the fewest pieces a board can
    /// be left with (what `solve` prints first). `None` asks for the greatest
    /// any board has.
    pub distance: Option<u32>,
    /// How many boards, each drawn on its own (two may be the same).
    pub boards: usize,
    /// The seed of the draws: the same seed gives the same boards.
    pub seed: u64,
}

impl Order {
    /// The planner's query for this order.
    pub fn query(&self) -> Query {
        Query::Generate {
            distance: self.distance,
            boards: self.boards,
        }
    }
}

/// A `states` query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatesQuery {
    /// What is printed.
    pub output: Output,
    /// Whether states are restricted to those reachable from a start.
    pub from: bool,
    /// Whether every reachable state is wanted, goal or not.
    pub reachable: bool,
    /// Whether states are taken up to symmetry.
    pub symmetry: bool,
    /// The dataflow workers asked for, in all processes (1: none asked).
    pub workers: usize,
    /// The dataflow's worker threads in this process (1: none asked).
    pub threads: usize,
}

/// What `states` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// Every state, one per line.
    #[default]
    List,
    /// Their number.
    Count,
    /// Their number per distance.
    Histogram,
}

/// Which engine the user asked for (`--solver`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Preference {
    /// The planner's choice.
    #[default]
    Auto,
    /// A search (BFS or DFS); at most 64 cells.
    Search,
    /// GF(2) elimination; toggle-only puzzles with targets.
    Gf2,
}

/// What to enumerate.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Keep only states reachable from this board.
    pub from: Option<Bits>,
    /// Every state reachable from `from` (which must be set), whether or not
    /// it can reach the goal; distances count from `from`.
    pub reachable: bool,
    /// Count and list states up to the puzzle's symmetries.
    pub symmetry: bool,
    /// Hold every position itself: the peg engines then neither reduce by
    /// the start's symmetries nor weight by orbit size (slower and bigger;
    /// an independent check of the orbit counts). Other engines hold every
    /// position already.
    pub explicit: bool,
    /// What is wanted: every state, their number, or their number per distance.
    pub output: Output,
    /// Run as a timely dataflow on these workers (`states --workers`,
    /// `--processes`); `None` runs on this process's threads alone.
    pub cluster: Option<Cluster>,
    /// Told what a dataflow run estimates before it starts and counts after
    /// each layer (called on worker threads).
    pub observer: Option<Observer>,
    /// Where a dataflow run lists the states: one file per worker.
    pub listing: Option<Listing>,
    /// Where a dataflow run's workers may spill their layers to disk, as
    /// sorted runs, instead of holding them in memory.
    pub spill: Option<std::path::PathBuf>,
    /// Give each listed state its distance even where the listing does not
    /// find it on the way: a linear puzzle's states are listed by algebra, and
    /// each distance is then a walk of the null space (left out, as `None`,
    /// when that walk is past the limit `coset-work`).
    pub distances: bool,
}

impl Request {
    /// The planner's query for this request.
    pub fn query(&self) -> Query {
        Query::States(self.states_query())
    }

    /// The planner's `states` query for this request.
    pub fn states_query(&self) -> StatesQuery {
        StatesQuery {
            output: self.output,
            from: self.from.is_some(),
            reachable: self.reachable,
            symmetry: self.symmetry,
            workers: self.cluster.as_ref().map_or(1, Cluster::workers),
            threads: self.cluster.as_ref().map_or(1, |c| c.threads),
        }
    }
}

/// What a run reports as it goes: a dataflow's estimate and layers, and the
/// move levels' levels and the solutions their beam finds.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Before the first layer: the estimated peak of one worker, from a
    /// sample of each layer (`estimate_layers`), against its share of max-memory.
    Estimate {
        /// Bytes one worker is estimated to hold at its peak.
        bytes: u64,
        /// The same at the 95% upper bound of the sample.
        high: u64,
        /// The worker's share of max-memory.
        budget: u64,
        /// With a spill directory, the disk one worker is estimated to use
        /// at its peak, and the space free there.
        disk: Option<(u64, u64)>,
    },
    /// A layer is counted: its depth, and the positions each worker holds of
    /// it, by worker index.
    Layer {
        /// Jumps from the start.
        depth: u32,
        /// Positions of the layer held by each worker.
        positions: Vec<u64>,
    },
    /// A level by moves is complete (`solve` with the moves metric).
    MoveLevel {
        /// The bound on moves of the search it belongs to; `None` for the
        /// beam's levels and the targets' first levels grown for it.
        bound: Option<u32>,
        /// `None` forward from the start; `Some(i)` backward from the
        /// search's target `i` (from 0, one per orbit of the start's symmetries).
        target: Option<usize>,
        /// For a forward level, `Some(i)` when it is searched toward target
        /// `i` alone (the bound `frontier` searches the targets one at a
        /// time); `None` when it serves every target.
        toward: Option<usize>,
        /// Moves from its end.
        depth: u32,
        /// Its positions, up to symmetry (a level checked in parts: the
        /// sum of its parts', at most that many).
        positions: u64,
        /// The bytes the process's heap holds, where its allocator counts them.
        held: Option<u64>,
    },
    /// The beam found a solution shorter than any before it (`solve` with
    /// the moves metric and `--beam`): its moves, not proved fewest.
    BeamSolution {
        /// Its moves.
        moves: u32,
    },
}

/// A callback for [`Event`]s, shared by the threads of a process.
#[derive(Clone)]
pub struct Observer(pub std::sync::Arc<dyn Fn(&Event) + Send + Sync>);

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

/// How a dataflow run lists its states: every worker writes the states it
/// owns, layer by layer (within a layer, partition by partition), to its own file
/// [`Listing::file`] in `dir`, through `write` (a state and its depth).
#[derive(Clone)]
pub struct Listing {
    /// The directory of the files.
    pub dir: std::path::PathBuf,
    /// Writes one state, with its depth, as a line.
    #[allow(clippy::type_complexity)]
    pub write: std::sync::Arc<
        dyn Fn(&Bits, u32, &mut dyn std::io::Write) -> std::io::Result<()> + Send + Sync,
    >,
}

impl Listing {
    /// The file of worker `index` of `workers`: `states-` and the index,
    /// zero-padded so that the names sort in worker order.
    pub fn file(&self, index: usize, workers: usize) -> std::path::PathBuf {
        let width = (workers.max(2) - 1).to_string().len();
        self.dir.join(format!("states-{index:0width$}.txt"))
    }
}

impl std::fmt::Debug for Listing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Listing({})", self.dir.display())
    }
}

/// Where a dataflow enumeration's workers run: `threads` per process, and
/// the address of every process (none for one process).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads in each process.
    pub threads: usize,
    /// This process's index into `addresses`.
    pub process: usize,
    /// `host:port` of every process, in order; empty for one process.
    pub addresses: Vec<String>,
}

impl Cluster {
    /// `threads` workers in this process alone.
    pub fn local(threads: usize) -> Cluster {
        Cluster {
            threads,
            process: 0,
            addresses: Vec::new(),
        }
    }

    /// The number of processes.
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
    }

    /// The number of workers in all.
    pub fn workers(&self) -> usize {
        self.threads * self.processes()
    }

    /// The cluster of a hostfile's text (`file` names it in errors): one
    /// `host:port` line per process, in process order; blank lines and lines
    /// starting with `#` are skipped. Every line is checked before any
    /// process connects: a port from 1 to 65535, a host that resolves, no
    /// address twice; then that there are `processes` lines and `process` is
    /// one of them. An error points at the line.
    ///
    /// ```
    /// let hosts = "127.0.0.1:27101\n127.0.0.1:27101\n";
    /// let err = pegflip::Cluster::from_hostfile(hosts, "hosts.txt", 2, 0, 1).unwrap_err();
    /// assert!(err.to_string().starts_with("hosts.txt:2:1: error: 127.0.0.1:27101 is listed twice"));
    /// ```
    pub fn from_hostfile(
        text: &str,
        file: &str,
        processes: usize,
        process: usize,
        threads: usize,
    ) -> crate::Result<Cluster> {
        use std::net::ToSocketAddrs;
        let text = text.strip_prefix(crate::io::BOM).unwrap_or(text);
        let mut addresses: Vec<String> = Vec::new();
        let mut resolved: Vec<(Vec<std::net::SocketAddr>, usize)> = Vec::new();
        let mut offset = 0;
        for (n, raw) in text.split_inclusive('\n').enumerate() {
            let at = offset + (raw.len() - raw.trim_start().len());
            offset += raw.len();
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| crate::Error::input(file, text, at, message);
            // The line as messages quote it: a long one is cut (the caret line shows where).
            let shown: String = match line.chars().count() > 60 {
                true => line.chars().take(60).chain("…".chars()).collect(),
                false => line.to_string(),
            };
            let Some((host, port)) = line.rsplit_once(':') else {
                return Err(err(format!("expected `host:port`, found `{shown}`")));
            };
            let port_ok = port.parse::<u16>().is_ok_and(|p| p > 0);
            if host.is_empty() || !port_ok {
                return Err(err(format!(
                    "expected `host:port` with a port from 1 to 65535, found `{shown}`"
                )));
            }
            let addrs: Vec<std::net::SocketAddr> = line
                .to_socket_addrs()
                .map_err(|e| err(format!("{shown} does not resolve to an address: {e}")))?
                .collect();
            if addrs.is_empty() {
                return Err(err(format!("{shown} does not resolve to an address")));
            }
            let same = |(earlier, _): &&(Vec<std::net::SocketAddr>, usize)| {
                earlier.iter().any(|a| addrs.contains(a))
            };
            if let Some((_, first)) = resolved.iter().find(same) {
                return Err(err(format!(
                    "{shown} is listed twice (line {first} is the same address): each process \
                     needs its own"
                )));
            }
            resolved.push((addrs, n + 1));
            addresses.push(line.to_string());
        }
        if addresses.len() < processes {
            return Err(crate::Error::Usage(format!(
                "{file} lists {} addresses, but --processes is {processes}: one `host:port` line \
                 per process",
                addresses.len()
            )));
        }
        if process >= processes {
            return Err(crate::Error::Usage(format!(
                "--process is {process}, but the processes are numbered 0 to {}",
                processes - 1
            )));
        }
        addresses.truncate(processes);
        Ok(Cluster {
            threads,
            process,
            addresses,
        })
    }
}

/// One state as it is visited: the state (one word up to 64 cells, bits
/// past that) and its distance (to the goal, or from the start with
/// `reachable`; the answer, for fewest pieces; for linear puzzles listed
/// without distances, `None`).
pub type Visit<'a> = &'a mut dyn FnMut(&Bits, Option<u32>) -> bool;
