//! Listing and counting states at scale: every solvable state, or every state reachable from a start.
//!
//! The [planner](mod@crate::plan) picks one of four engines:
//! - [`Engine::LinearSpan`]: a linear puzzle's solvable states are the cosets
//!   `target + span(moves)`, `2^rank` states each: counted exactly at any
//!   size, and listed by a Gray-code walk over a basis of the span (one XOR
//!   per state, streamed, so `| head` works on 2^1000 states);
//! - [`Engine::PegOrbits`]: counts and histograms from a start on a peg
//!   board (every move a jump, a goal of one piece count) whose jumps fit a
//!   grid word ([`bitboard`]): layers up to the symmetries that fix the
//!   start, each position weighted by its orbit's size, and the winning lines
//!   by the complement duality of jumps (`pegs.rs`);
//! - [`Engine::Layered`]: layered breadth-first search ([`layers`]) backwards
//!   from the targets, or forwards from a start, generating and sorting on rayon's threads;
//! - [`Engine::AnswerTable`]: for fewest-pieces puzzles every state has an answer.
//!
//! With `--symmetry`, states are counted and listed up to the puzzle's
//! symmetries ([`symmetry::Symmetries`]): one representative per orbit.

pub mod bitboard;
#[cfg(feature = "dataflow")]
pub mod dataflow;
pub mod graph;
pub mod layers;
pub(crate) mod pegs;
pub mod sample;
#[cfg(feature = "dataflow")]
mod spill;
pub mod symmetry;

use std::collections::BTreeMap;

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::plan::{Engine, Output, Preference, Query, StatesQuery, plan};
use crate::program::{Goal, Program};
use crate::solve::{AnswerTable, Linear, linear};
use crate::stateset::StateSet;
use layers::{Canon, Direction, Identity};
use symmetry::Symmetries;

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
        Query::States(StatesQuery {
            output: self.output,
            from: self.from.is_some(),
            reachable: self.reachable,
            symmetry: self.symmetry,
            workers: self.cluster.as_ref().map_or(1, Cluster::workers),
        })
    }
}

/// The most parents a dataflow worker expands between two exchanges: it
/// bounds the successors in flight.
pub const DATAFLOW_CHUNK: usize = 1 << 13;

/// The bytes a dataflow's `workers` hold in flight at most: each expands
/// [`DATAFLOW_CHUNK`] parents into at most `moves` successors of a word,
/// buffered on both sides of the exchange.
pub fn dataflow_round_bytes(workers: usize, moves: usize) -> u128 {
    workers as u128 * DATAFLOW_CHUNK as u128 * moves as u128 * 16
}

/// What a dataflow run reports as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Before the first layer: the estimated peak of one worker, from a
    /// sample of each layer ([`sample`]), against its share of max-memory.
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
}

/// A callback for [`Event`]s, shared by the workers of a process.
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
}

/// What an enumeration found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// How many states (or orbits, with symmetry): exact, whatever its size.
    pub count: Count,
    /// States per distance (or per answer, for fewest pieces), when known.
    pub histogram: BTreeMap<u32, u128>,
    /// The number of symmetries used (1 without).
    pub symmetries: usize,
}

/// An exact count: `mult x 2^shift`, written in decimal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// The odd (or small) factor.
    pub mult: u128,
    /// The power of two.
    pub shift: u32,
}

impl Count {
    /// A plain number.
    pub fn new(n: u128) -> Count {
        Count { mult: n, shift: 0 }
    }

    /// The count as a `u128`, when it fits.
    pub fn to_u128(self) -> Option<u128> {
        self.mult
            .checked_shl(self.shift)
            .filter(|v| v >> self.shift == self.mult)
    }

    pub(crate) fn add(&mut self, n: u128) {
        let v = self.to_u128().unwrap_or(u128::MAX);
        *self = Count::new(v.saturating_add(n));
    }
}

/// Past this power of two a count is written as `2^N` (or `M x 2^N`), still
/// exact: its decimal digits would take quadratic time to write.
pub const DECIMAL_SHIFT_LIMIT: u32 = 1 << 16;

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.shift > DECIMAL_SHIFT_LIMIT, self.mult) {
            (true, 1) => write!(f, "2^{}", self.shift),
            (true, m) => write!(f, "{m} x 2^{}", self.shift),
            (false, m) => f.write_str(&times_power_of_two(m, self.shift as usize)),
        }
    }
}

/// `m x 2^n` in decimal, exactly.
///
/// ```
/// assert_eq!(pegflip::enumerate::times_power_of_two(3, 100), "3802951800684688204490109616128");
/// ```
pub fn times_power_of_two(m: u128, n: usize) -> String {
    // m < 2^128 may not fit a limb's shift: add it in 64-bit halves.
    let mut number = crate::bits::Decimal::new(m >> 64);
    number.shift_add(32, 0);
    number.shift_add(32, m & u128::from(u64::MAX));
    let mut left = n;
    while left > 0 {
        let step = left.min(59);
        left -= step;
        number.shift_add(step as u32, 0);
    }
    number.to_string()
}

/// One state as it is visited: the state (one word up to 64 cells, bits
/// past that) and its distance (to the goal, or from the start with
/// `reachable`; the answer, for fewest pieces; for linear puzzles listed
/// without distances, `None`).
pub type Visit<'a> = &'a mut dyn FnMut(&Bits, Option<u32>) -> bool;

/// Enumerates states with the engine the planner picks, calling `visit` for
/// each one (stop by returning false); with `visit` absent, only the summary
/// is built.
pub fn enumerate(
    program: &Program,
    request: &Request,
    limits: &Limits,
    visit: Option<Visit>,
) -> Result<Summary> {
    let plan = plan(program, &request.query(), Preference::Auto, limits)?;
    let want_distances = request.output == Output::Histogram;
    if plan.engine == Engine::LinearSpan {
        let Goal::Targets(targets) = program.goal() else {
            return Err(Error::Internal("a span enumeration without targets".into()));
        };
        let mut visit = visit;
        let mut each = |s: &Bits, d: Option<u32>| visit.as_mut().is_none_or(|v| v(s, d));
        let count = linear_states(
            program,
            targets,
            limits,
            request.output == Output::List,
            request.distances,
            &mut each,
        )?;
        return Ok(Summary {
            count,
            histogram: BTreeMap::new(),
            symmetries: 1,
        });
    }
    if plan.engine == Engine::MoveLevels {
        let from = match &request.from {
            Some(b) => Some(b.to_u64().ok_or_else(|| {
                Error::Internal("levels by moves on a board of more than 64 cells".into())
            })?),
            None => None,
        };
        return crate::solve::moves::histogram(program, from, request.symmetry, limits);
    }
    #[cfg(feature = "dataflow")]
    if plan.engine == Engine::Dataflow {
        let cluster = request
            .cluster
            .as_ref()
            .ok_or_else(|| Error::Internal("a dataflow planned without workers".into()))?;
        return dataflow::count(program, request, limits, cluster);
    }
    // A visitor wants the states themselves, which only the layered search yields.
    if plan.engine == Engine::PegOrbits && visit.is_none() {
        return pegs::count(program, request, limits);
    }
    let cells = program.cells();
    let fixed: Vec<u64> = request.from.iter().filter_map(Bits::to_u64).collect();
    let symmetries = if request.symmetry {
        Some(Symmetries::of(program, &fixed, limits)?)
    } else {
        None
    };
    let canon: &dyn Canon = match &symmetries {
        Some(s) => s,
        None => &Identity,
    };
    let mut summary = Summary {
        symmetries: symmetries.as_ref().map_or(1, Symmetries::len),
        ..Summary::default()
    };
    let mut visit = visit;
    let listing = visit.is_some();
    let mut record = |s: u64, d: Option<u32>, summary: &mut Summary| -> bool {
        summary.count.add(1);
        if let Some(d) = d {
            *summary.histogram.entry(d).or_default() += 1;
        }
        visit
            .as_mut()
            .is_none_or(|v| v(&Bits::from_u64(cells, s), d))
    };
    let max_memory = limits.max_memory;
    match program.goal() {
        Goal::FewestPieces => {
            let table = AnswerTable::build(program)?;
            let answer = |s: u64| table.answer(s);
            match &request.from {
                Some(from) => {
                    let start = canon.canon(from.to_u64().unwrap_or(0));
                    layers::run(
                        program,
                        Direction::Forward,
                        vec![start],
                        canon,
                        max_memory,
                        |_, layer| layer.iter().all(|&s| record(s, answer(s), &mut summary)),
                    )?;
                }
                None => {
                    for s in 0..1u64 << cells {
                        if canon.canon(s) == s && !record(s, answer(s), &mut summary) {
                            break;
                        }
                    }
                }
            }
        }
        Goal::Targets(targets) => {
            let _ = want_distances;
            let sources: Vec<u64> = {
                let mut t: Vec<u64> = targets
                    .iter()
                    .filter_map(|t| t.to_u64())
                    .map(|t| canon.canon(t))
                    .collect();
                t.sort_unstable();
                t.dedup();
                t
            };
            // A layer at distance d: counted at once when nothing is listed.
            let mut on_layer = |d: usize, layer: &[u64]| {
                if !listing {
                    summary.count.add(layer.len() as u128);
                    *summary.histogram.entry(d as u32).or_default() += layer.len() as u128;
                    return true;
                }
                layer
                    .iter()
                    .all(|&s| record(s, Some(d as u32), &mut summary))
            };
            match (&request.from, request.reachable) {
                (None, _) => {
                    layers::run(
                        program,
                        Direction::Backward,
                        sources,
                        canon,
                        max_memory,
                        &mut on_layer,
                    )?;
                }
                (Some(from), true) => {
                    let start = canon.canon(from.to_u64().unwrap_or(0));
                    layers::run(
                        program,
                        Direction::Forward,
                        vec![start],
                        canon,
                        max_memory,
                        &mut on_layer,
                    )?;
                }
                (Some(from), false) => {
                    // The states reachable from the start, then backwards from the
                    // targets through those states only.
                    let start = canon.canon(from.to_u64().unwrap_or(0));
                    let reached = reached(program, start, canon, max_memory)?;
                    let sources: Vec<u64> = sources
                        .into_iter()
                        .filter(|&t| reached.contains(t))
                        .collect();
                    layers::run_within(
                        program,
                        sources,
                        canon,
                        max_memory,
                        &|s| reached.contains(s),
                        &mut on_layer,
                    )?;
                }
            }
        }
    }
    Ok(summary)
}

/// The states reachable from `start`: a bitmap up to
/// [`layers::BITMAP_CELLS`] cells, a sorted list past that.
fn reached(program: &Program, start: u64, canon: &dyn Canon, max_memory: u64) -> Result<StateSet> {
    let cells = program.cells();
    let mut bitmap = (cells <= layers::BITMAP_CELLS).then(|| StateSet::new(cells, cells));
    let mut list = Vec::new();
    layers::run(
        program,
        Direction::Forward,
        vec![start],
        canon,
        max_memory,
        |_, layer| {
            match &mut bitmap {
                Some(set) => layer.iter().for_each(|&s| {
                    set.insert(s);
                }),
                None => list.extend_from_slice(layer),
            }
            true
        },
    )?;
    Ok(bitmap.unwrap_or_else(|| StateSet::sorted(list)))
}

/// The solvable states of a linear puzzle without search: each target's coset
/// `target + span(moves)`, walked in Gray-code order over a basis of the
/// span, one XOR per state, when `list`. Cosets shared by two targets are
/// walked once. Returns the count, exact whatever its size.
fn linear_states(
    program: &Program,
    targets: &[Bits],
    limits: &Limits,
    list: bool,
    distances: bool,
    visit: &mut dyn FnMut(&Bits, Option<u32>) -> bool,
) -> Result<Count> {
    let linear = Linear::new(program, limits)?;
    let rank = linear.rank();
    // Distinct cosets: a target whose difference from an earlier one lies in
    // the span shares its coset. Each coset keeps its targets, each with a
    // press set that turns the coset's first target into it.
    let mut cosets: Vec<(&Bits, Vec<Bits>)> = Vec::new();
    for t in targets {
        let shared = cosets.iter_mut().find_map(|(c, presses)| {
            let mut d = (*c).clone();
            d.xor_assign(t);
            linear.solve(program, &d).ok().map(|y| (presses, y))
        });
        match shared {
            Some((presses, y)) => presses.push(y),
            None => cosets.push((t, vec![Bits::zeros(program.move_count())])),
        }
    }
    let count = Count {
        mult: cosets.len() as u128,
        shift: rank as u32,
    };
    if !list {
        return Ok(count);
    }
    // A distance is the fewest presses in a coset of the null space: exact
    // only when the whole null space can be walked.
    let null = linear.null_space();
    let words = program.move_count().div_ceil(64).max(1) as u128;
    let walkable = null.len() == linear.nullity()
        && null.len() < 64
        && (1u128 << null.len()) * words * targets.len() as u128 <= u128::from(limits.coset_work);
    let distances = distances && walkable;
    let distance = |x: &Bits, presses: &[Bits]| -> Option<u32> {
        if !distances {
            return None;
        }
        presses
            .iter()
            .map(|y| {
                let mut z = x.clone();
                z.xor_assign(y);
                let (best, _) = linear::fewest_presses(&z, null, null.len(), u64::MAX);
                best.count_ones() as u32
            })
            .min()
    };
    let mut basis = LazyBasis::new(program, rank);
    for (coset, presses) in cosets {
        let mut s = coset.clone();
        // The presses that take `s` back to the coset's first target.
        let mut x = Bits::zeros(program.move_count());
        if !visit(&s, distance(&x, &presses)) {
            return Ok(count);
        }
        // A u128 counter: past 2^128 states the walk could not finish anyway.
        let end = 1u128.checked_shl(rank as u32).unwrap_or(u128::MAX);
        for i in 1..end {
            let (flip, m) = basis.get(i.trailing_zeros() as usize)?;
            s.xor_assign(flip);
            if distances {
                x.toggle(m);
            }
            if !visit(&s, distance(&x, &presses)) {
                return Ok(count);
            }
        }
    }
    Ok(count)
}

/// A basis of the span of the moves' flips, found as the Gray-code walk
/// needs it: vector `k` is first used after `2^k` states, so a listing cut
/// short (`| head`) finds only the first few.
struct LazyBasis<'a> {
    flips: std::iter::Enumerate<Box<dyn Iterator<Item = Bits> + 'a>>,
    /// The basis so far in echelon form, by ascending lowest cell.
    echelon: Vec<(usize, Bits)>,
    /// Each basis vector: a move's flip, and the move.
    basis: Vec<(Bits, usize)>,
    rank: usize,
}

impl<'a> LazyBasis<'a> {
    fn new(program: &'a Program, rank: usize) -> LazyBasis<'a> {
        let cells = program.cells();
        let flips: Box<dyn Iterator<Item = Bits> + 'a> = match program.stencil() {
            Some(stencil) => Box::new((0..cells).map(move |c| {
                let mut one = Bits::zeros(cells);
                one.set(c, true);
                let mut image = Bits::zeros(cells);
                stencil.apply(&mut image, &one);
                image
            })),
            None => Box::new(program.moves().iter().map(move |m| {
                let mut v = Bits::zeros(cells);
                for c in &m.flip {
                    v.toggle(c.0);
                }
                v
            })),
        };
        LazyBasis {
            flips: flips.enumerate(),
            echelon: Vec::new(),
            basis: Vec::new(),
            rank,
        }
    }

    /// Basis vector `k`, and the move whose flip it is.
    fn get(&mut self, k: usize) -> Result<(&Bits, usize)> {
        while self.basis.len() <= k {
            let Some((m, flip)) = self.flips.next() else {
                return Err(Error::Internal(format!(
                    "the moves span {} dimensions, but elimination says rank {}",
                    self.basis.len(),
                    self.rank
                )));
            };
            let mut v = flip.clone();
            // Each echelon vector's cells all lie at or past its lowest one.
            for (lead, b) in &self.echelon {
                if v.get(*lead) {
                    v.xor_assign(b);
                }
            }
            let lead = v.ones_iter().next();
            if let Some(lead) = lead {
                let at = self.echelon.partition_point(|(l, _)| *l < lead);
                self.echelon.insert(at, (lead, v));
                self.basis.push((flip, m));
            }
        }
        let (flip, m) = &self.basis[k];
        Ok((flip, *m))
    }
}
