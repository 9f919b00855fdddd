//! Layered peg enumeration as a timely dataflow: each layer hash-partitioned across worker threads and processes.
//!
//! Every worker runs the same loop, one timely round per layer:
//! - it expands the positions of the layer it owns with the grid-word engine
//!   ([`crate::engines::bitboard`]), canonical up to the symmetries that fix
//!   the start, into buffers by partition (a hash of the position) of the
//!   keys its sets hold: grid words, or where the engine files them by
//!   compact keys, the low 32 bits of the mix of their cells, whose top
//!   bits are the partition;
//! - it inserts the buffers of the partitions it owns into a hash set each,
//!   its part of the next layer (`spill.rs`, on disk with a spill
//!   directory); hands those of another worker of its process over as a
//!   batch each (`Handoff`); and inserts the rest into its outbox
//!   (`outbox.rs`), so a position it reaches many times crosses the network once;
//! - each outbox set goes in batches of its keys ([`batch`](crate::engines::parts::batch))
//!   to the worker that owns its partition, each batch routed whole
//!   ([`WholeBatches`]), at the end of the round or
//!   once the outbox passes its room; what arrives is inserted as it arrives;
//! - its counts for the layer (positions, and positions weighted by orbit
//!   size) are broadcast, so every worker knows the totals, when the layers
//!   end, and whether any worker passed its memory budget.
//!
//! Before the first round, process 0 draws the sample that estimates the
//! layers and sends the estimate to the others; each process sizes its
//! buffers and checks its own memory share against it, and all start, or
//! all stop with the first refusal.
//!
//! Only the layer being expanded and the one being built are kept. The
//! workers are threads of one process ([`Cluster::local`]) or of several
//! processes that connect over TCP ([`Cluster`] with addresses): every
//! process runs the same command with its own index, and all of them end
//! with the same [`Summary`].

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use timely::communication::Push;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::Message;
use timely::dataflow::channels::pact::DistributorPact;
use timely::dataflow::channels::pushers::exchange::Distributor;
use timely::dataflow::operators::core;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::vec::{Broadcast, Input};
use timely::dataflow::operators::{Inspect, Probe};
use timely::dataflow::{InputHandle, InputHandleVec, ProbeHandle};
use timely::progress::Stamp;

mod net;
mod outbox;
mod spill;
mod words;

pub use net::{is_lost_connection, tell_refusal};
pub use spill::remove_all as remove_spill_files;

use crate::bits::Bits;
use crate::engines::bitboard::{Filed, GridJumps};
use crate::engines::parts::{Filing, Key, PARTS};
use crate::engines::pegs::DATAFLOW_CHUNK;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::Summary;
use crate::program::Program;
use crate::query::Output;
use crate::query::{Cluster, Event, Listing, Observer, Request};
use net::{Agreement, Peers, allocators, lost_peer};
use outbox::{Handoff, Outbox};
use spill::{Building, Held, Spill};
use words::Words;

/// Bytes a position of the layer being built is estimated at in its
/// partition's hash set: about 11 at the set's load, 21 in a set that grew
/// past its guess, and the sets keep their tables from round to round.
const SET_BYTES: u64 = 32;

/// A worker's buffers of successors take at most this fraction of its share.
const BUFFER_SHARE: u64 = 16;

/// The successors a worker buffers before it inserts them into its sets:
/// enough that a partition's set takes a long run of inserts at once, each
/// run reading the set into the cache once (512 MB of compact keys, 1 GB of
/// grid words).
const MOST_BUFFERED: u64 = 1 << 27;

/// With a spill, a worker keeps its layer and its sets to this fraction of its share.
const SPILL_SHARE: u64 = 4;

/// What one worker reports for one layer: its index, its positions, the
/// positions they stand for, and how it stands ([`GOING`], [`OVER`] or
/// [`FAILED`]). Each worker judges its own memory against its own share:
/// processes may be given different `--max-memory`.
type Report = (u64, u64, u128, u8);

/// Counts the positions reachable from `request.from` (a count or a
/// histogram, with `--reachable`) on a peg program the peg orbits engine
/// serves, as a timely dataflow on `cluster`; a listing goes to one file per
/// worker ([`Listing`]). Every process returns the same summary.
/// `limits.max_memory` is each process's: its worker threads share it.
pub fn count(
    program: &Program,
    request: &Request,
    limits: &Limits,
    cluster: &Cluster,
) -> Result<Summary> {
    // What this process refuses before connecting, the others learn at once.
    let refuse = |e: Error| {
        net::tell_refusal(cluster, &e.to_string());
        e
    };
    let not_planned = || {
        refuse(Error::Internal(
            "the dataflow engine was planned for a query it does not serve".into(),
        ))
    };
    let start = request
        .from
        .as_ref()
        .and_then(|s| s.to_u64())
        .ok_or_else(not_planned)?;
    if !request.reachable || (request.output == Output::List) != request.listing.is_some() {
        return Err(not_planned());
    }
    // A listing without symmetry lists every position, so every position is held.
    let explicit = request.explicit || (request.listing.is_some() && !request.symmetry);
    let request = &Request {
        explicit,
        ..request.clone()
    };
    let perms =
        crate::engines::pegs::start_group(program, start, request, limits).map_err(refuse)?;
    // Built once here to refuse early; each worker builds its own copy.
    let engine = GridJumps::new(program, &perms).ok_or_else(not_planned)?;
    let order = engine.order();
    let source = engine.canon(engine.to_grid(start));
    let symmetry = request.symmetry;
    // Each worker's share of the process's memory.
    let budget = limits.max_memory / cluster.threads.max(1) as u64;
    // Every process gets the same estimate: process 0 draws the sample, on
    // all its cores, while the others wait for it.
    let mut peers = Peers::connect(
        cluster,
        &Agreement::of(program, request, cluster, engine.filing()),
    )?;
    let draw = || estimate(program, start, order, cluster.workers());
    let estimate = match &mut peers {
        Some(peers) => peers.worked_out_by_first(|| draw().into())?.into(),
        None => draw(),
    };
    let sizes = sizes(program, request, cluster, budget, estimate);
    // This process's own refusal first, then another's.
    let started = match &mut peers {
        Some(peers) => peers.start_together(sizes.as_ref().err().map(|e| e.to_string()).as_deref()),
        None => Ok(()),
    };
    let (outbox, buffered, buffers) = sizes?;
    started?;
    let shared = Arc::new(Shared {
        program: program.clone(),
        perms,
        listing: request.listing.clone(),
        observer: request.observer.clone(),
        spill: request.spill.clone(),
        threads: cluster.threads,
        handoff: Handoff::new(cluster.threads, buffers),
    });
    let (builders, comms) = allocators(cluster, peers)?;
    // The first worker failure, in words: a panic's message is lost in timely's join.
    let failure: Arc<Mutex<Option<String>>> = Arc::default();
    let failed = failure.clone();
    let work = move |worker: &mut timely::worker::Worker| {
        let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
            layers(
                worker,
                &shared,
                source,
                order,
                symmetry,
                (budget, outbox, buffered),
            )
        }));
        run.unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a worker panicked".into());
            if let Ok(mut first) = failed.lock() {
                first.get_or_insert(message);
            }
            Err(Stop::Failed)
        })
    };
    let guards =
        timely::execute::execute_from(builders, comms, timely::WorkerConfig::default(), work)
            .map_err(|e| Error::Usage(format!("the dataflow could not start: {e}")))?;
    // After a lost connection timely's own threads panic as they are joined too.
    let results = std::panic::catch_unwind(AssertUnwindSafe(|| guards.join()));
    // Done, failed or stopped, the spill is scratch: nothing of it is kept.
    spill::remove_all(request.spill.as_deref());
    let lost = || {
        let message = failure.lock().ok().and_then(|f| f.clone());
        Error::Usage(format!(
            "the dataflow stopped: {}",
            lost_peer(message.as_deref().unwrap_or("a worker panicked"))
        ))
    };
    let mut answer = None;
    let mut peer = false;
    for result in results.map_err(|_| lost())? {
        match result {
            Ok(Ok(summary)) => answer = answer.or(Some(summary)),
            Ok(Err(Stop::Memory(depth, bytes, budget))) => {
                return Err(crate::limits::Limits::exceeded_bound(
                    "max-memory",
                    format!(
                        "the memory one worker needs for layer {depth} (its share of the \
                         process's max-memory over {} threads, the process as the system \
                         counts it)",
                        cluster.threads
                    ),
                    u128::from(bytes),
                    u128::from(budget),
                    if request.spill.is_some() {
                        "raise --max-memory, or add processes"
                    } else {
                        "raise --max-memory, add processes, or give --spill-dir"
                    },
                ));
            }
            Ok(Err(Stop::Io(path, source))) => {
                return Err(Error::Write {
                    path: path.display().to_string(),
                    source,
                });
            }
            Ok(Err(Stop::Peer)) => peer = true,
            Ok(Err(Stop::Failed)) | Err(_) => return Err(lost()),
        }
    }
    if peer {
        return Err(Error::Usage(
            "the dataflow stopped: a worker of another process could not go on (it could not \
             write or read a file, or its process passed max-memory); that process says which"
                .into(),
        ));
    }
    answer.ok_or_else(|| Error::Internal("no worker returned a summary".into()))
}

/// What each worker of a process with a share of `budget` may buffer, from
/// the layers' `estimate`: the bytes of its outbox, the successors it
/// buffers, and the room of its buffers in all; or why the run cannot fit.
fn sizes(
    program: &Program,
    request: &Request,
    cluster: &Cluster,
    budget: u64,
    estimate: (u64, u64, u64, u64),
) -> Result<(u64, u64, u64)> {
    // What a worker holds besides its layers and its outbox: its buffers of
    // successors, and those of the chunk of parents that fills them; with
    // other workers in its process, the buffers in flight to it and the
    // emptied ones kept.
    let buffered = buffered(budget, estimate.3);
    let buffers = (room(buffered) * PARTS) as u64;
    let handoff = if cluster.threads > 1 {
        Handoff::bytes(buffers)
    } else {
        0
    };
    let flight = (buffers * 8).saturating_add(handoff).saturating_add(
        (crate::engines::pegs::DATAFLOW_CHUNK as u64)
            .saturating_mul(program.moves().len() as u64 * 8),
    );
    // With a spill, a worker holds at most a quarter of its share in memory and the rest on disk.
    let disk = match &request.spill {
        None => None,
        Some(dir) => {
            let free = fs4::available_space(dir).map_err(|source| Error::Io {
                path: dir.display().to_string(),
                source,
            })?;
            Some((estimate.2, free))
        }
    };
    let held = if disk.is_some() {
        estimate.0.min(budget / SPILL_SHARE)
    } else {
        estimate.0
    }
    .saturating_add(flight);
    if let Some(observer) = &request.observer {
        (observer.0)(&Event::Estimate {
            bytes: held,
            high: estimate.1.saturating_add(flight),
            budget,
            disk,
        });
    }
    if let Some((bytes, free)) = disk {
        let need = bytes.saturating_mul(cluster.threads as u64);
        if need > free {
            return Err(Error::Usage(format!(
                "the spill is estimated to need {} on {} ({} for each of {} workers), but {} is \
                 free there: spill to a bigger disk, or add processes",
                crate::limits::human_bytes(u128::from(need)),
                request
                    .spill
                    .as_ref()
                    .map(|d| d.display().to_string())
                    .unwrap_or_default(),
                crate::limits::human_bytes(u128::from(bytes)),
                cluster.threads,
                crate::limits::human_bytes(u128::from(free)),
            )));
        }
    }
    if held > budget {
        return Err(crate::limits::Limits::exceeded_bound(
            "max-memory",
            format!(
                "the memory one worker is estimated to need at its peak (from at most {} \
                 positions drawn per layer; its share of max-memory over {} threads)",
                crate::engines::sample::Sampling::default().draws,
                cluster.threads
            ),
            u128::from(held),
            u128::from(budget),
            "raise --max-memory, add processes, or give --spill-dir",
        ));
    }
    // The outbox takes a quarter of what the estimate leaves of the share:
    // what is in flight to a worker, the others' outboxes, takes about as much.
    Ok((budget.saturating_sub(held) / 4, buffered, buffers))
}

/// The estimated peak bytes of one of `workers` workers, the same at the
/// sample's 95% bound, the disk it would spill to at its peak, with a
/// quarter more for the sample's error, and the most successors it expands
/// in a layer, with a quarter more (`u64::MAX` without a sample). In memory
/// it holds the largest layer as lists while it builds its part of the next
/// in hash sets (its outbox is bounded apart); on disk, a layer's file while
/// it writes the next one's runs and merges them.
/// Layers are counted in positions; held up to `order` symmetries, a worker
/// holds about one in `order` of them. Without a sample (a board past 64
/// cells), nothing is estimated.
fn estimate(program: &Program, start: u64, order: usize, workers: usize) -> (u64, u64, u64, u64) {
    use crate::engines::sample::LayerEstimate;
    let layers =
        crate::engines::sample::layers(program, start, Default::default()).unwrap_or_default();
    let share = (order * workers.max(1)) as f64;
    let peak = |size: &dyn Fn(&LayerEstimate) -> f64, held: f64, next: f64| -> u64 {
        let sizes: Vec<f64> = layers.iter().map(size).collect();
        let most = sizes
            .iter()
            .enumerate()
            .map(|(d, &h)| h * held + sizes.get(d + 1).copied().unwrap_or(0.0) * next)
            .fold(0f64, f64::max);
        (most / share).ceil() as u64
    };
    let building = SET_BYTES as f64;
    // On disk at the end of a round: the layer's file, the runs of the
    // round's arrivals (at worst every successor, since each run is
    // deduplicated only within itself), and the merged file of the next layer.
    let successors = |layer: &LayerEstimate| {
        layer.estimate() * layer.jumps as f64 / f64::from(layer.hits.max(1))
    };
    let disk = layers
        .iter()
        .enumerate()
        .map(|(d, layer)| {
            let next = layers.get(d + 1).map_or(0.0, LayerEstimate::estimate);
            8.0 * (layer.estimate() + successors(layer) + next)
        })
        .fold(0f64, f64::max);
    let expanded = match layers.iter().map(successors).reduce(f64::max) {
        Some(most) => (most * 1.25 / share).ceil() as u64,
        None => u64::MAX,
    };
    (
        peak(&LayerEstimate::estimate, 8.0, building),
        peak(&LayerEstimate::high, 8.0, building),
        (disk * 1.25 / share).ceil() as u64,
        expanded,
    )
}

/// What every worker of a process shares.
struct Shared {
    program: Program,
    perms: Vec<Vec<usize>>,
    listing: Option<Listing>,
    observer: Option<Observer>,
    spill: Option<std::path::PathBuf>,
    /// Workers per process.
    threads: usize,
    /// The buffers the process's workers hand to each other.
    handoff: Handoff,
}

/// Why a worker stopped before the last layer.
enum Stop {
    /// A layer needed more than the worker's share of max-memory: at which
    /// layer, the bytes, and the share.
    Memory(u32, u64, u64),
    /// Its listing file or its spill could not be written or read.
    Io(std::path::PathBuf, std::io::Error),
    /// A worker of another process failed, and said why in its own process.
    Peer,
    /// A worker panicked (its message is kept aside).
    Failed,
}

/// A worker that goes on.
const GOING: u8 = 0;
/// A worker that held more than its share of its process's max-memory: all stop.
const OVER: u8 = 1;
/// A worker that failed (a file it could not write or read): all stop.
const FAILED: u8 = 2;

/// The successors a worker with a share of `budget` buffers before it
/// inserts them: a [`BUFFER_SHARE`] of the share, at most [`MOST_BUFFERED`],
/// and no more than the `expanded` it is estimated to make in a layer.
fn buffered(budget: u64, expanded: u64) -> u64 {
    (budget / BUFFER_SHARE / 8)
        .min(expanded)
        .clamp(1 << 12, MOST_BUFFERED)
}

/// The room of each partition's buffer of a worker that buffers `buffered`
/// successors: a quarter more than its share, so that the chunk of parents
/// that passes the share does not make it grow.
fn room(buffered: u64) -> usize {
    usize::try_from((buffered + buffered / 4) / PARTS as u64).unwrap_or(usize::MAX)
}

/// An input of batches of positions.
type Batches = InputHandle<u32, CapacityContainerBuilder<Words>>;

/// Routes each batch whole to the worker that owns its partition, which
/// its last word names ([`batch`](crate::engines::parts::batch)).
struct WholeBatches {
    peers: u64,
}

impl Distributor<Words> for WholeBatches {
    fn partition<T: Clone, P: Push<Message<T, Words>>>(
        &mut self,
        batch: &mut Words,
        stamp: &Stamp<T>,
        pushers: &mut [P],
    ) {
        let owner = batch.last().map_or(0, |&part| part % self.peers);
        Message::push_at(batch, stamp.clone(), &mut pushers[owner as usize]);
    }

    fn flush<T: Clone, P: Push<Message<T, Words>>>(&mut self, _: &Stamp<T>, _: &mut [P]) {}
}

/// One worker's rounds, one per layer, until a layer is empty everywhere.
/// `budget` is its share of the process's memory, `outbox_bytes` the part
/// of it its outbox may take, and `buffered` the successors it expands
/// before it inserts them. The sets hold compact keys of 32 bits where the
/// engine files its positions so, else whole grid words.
fn layers(
    worker: &mut timely::worker::Worker,
    shared: &Arc<Shared>,
    source: u64,
    order: usize,
    symmetry: bool,
    sizes: (u64, u64, u64),
) -> std::result::Result<Summary, Stop> {
    let engine =
        GridJumps::new(&shared.program, &shared.perms).expect("checked before the workers start");
    match engine.filing() {
        Filing::Words => {
            layers_filed::<u64>(worker, shared, &engine, source, order, symmetry, sizes)
        }
        Filing::Compact { .. } => {
            layers_filed::<u32>(worker, shared, &engine, source, order, symmetry, sizes)
        }
    }
}

/// [`layers`] with sets of keys `K`.
fn layers_filed<K: Key + Filed>(
    worker: &mut timely::worker::Worker,
    shared: &Arc<Shared>,
    engine: &GridJumps,
    source: u64,
    order: usize,
    symmetry: bool,
    (budget, outbox_bytes, buffered): (u64, u64, u64),
) -> std::result::Result<Summary, Stop> {
    let filing = engine.filing();
    let cells = shared.program.cells();
    let me = worker.index();
    let peers = worker.peers();
    // An I/O failure is reported to every worker at the next round, and all stop
    // together: a worker that stopped alone would leave the others counting without it.
    let mut failure: Option<Stop> = None;
    let mut listing = match &shared.listing {
        None => None,
        Some(l) => {
            let path = l.file(me, peers);
            match std::fs::File::create(&path) {
                Ok(file) => Some((l, path, std::io::BufWriter::with_capacity(1 << 16, file))),
                Err(e) => {
                    failure = Some(Stop::Io(path, e));
                    None
                }
            }
        }
    };
    // Batches from another process's outbox, and buffers handed over whole
    // by a worker of this process.
    let mut children: Batches = InputHandle::new();
    let mut handed: Batches = InputHandle::new();
    let mut reports: InputHandleVec<u32, Report> = InputHandleVec::new();
    // A batch that arrives goes into the next layer as it arrives, by round: a fast
    // worker's next round may arrive before this worker has taken the current one.
    // A spill's runs and a listing take the layers sorted.
    let sorted = shared.spill.is_some() || shared.listing.is_some();
    let building = Rc::new(RefCell::new(Building::<K>::new(me, peers, sorted, filing)));
    let totals: Rc<RefCell<BTreeMap<u32, Vec<Report>>>> = Rc::default();
    let probe = ProbeHandle::new();
    worker.dataflow::<u32, _, _>(|scope| {
        let route = || {
            DistributorPact(move |peers: usize| WholeBatches {
                peers: peers as u64,
            })
        };
        core::Input::input_from(&scope, &mut children)
            .unary::<CapacityContainerBuilder<Vec<u64>>, _, _, _>(route(), "Receive", |_, _| {
                let building = building.clone();
                move |input, _| {
                    input.for_each(|time, batch| {
                        let round = time.least().copied().unwrap_or_default();
                        building.borrow_mut().receive(round, batch);
                    });
                }
            })
            .probe_with(&probe);
        core::Input::input_from(&scope, &mut handed)
            .unary::<CapacityContainerBuilder<Vec<u64>>, _, _, _>(route(), "Take", |_, _| {
                let building = building.clone();
                let shared = shared.clone();
                move |input, _| {
                    input.for_each(|time, batch| {
                        let round = time.least().copied().unwrap_or_default();
                        building.borrow_mut().receive(round, batch);
                        shared
                            .handoff
                            .taken(me % shared.threads, batch.take_owned());
                    });
                }
            })
            .probe_with(&probe);
        scope
            .input_from(&mut reports)
            .broadcast()
            .inspect_core(by_round(totals.clone()))
            .probe_with(&probe);
    });
    let owns = |p: usize| p % peers == me;
    // A partition's owner, by its index among this process's workers when it is one of them.
    let threads = shared.threads.max(1);
    let local = |p: usize| (p % peers / threads == me / threads).then_some(p % peers % threads);
    // Layers, buffers and batches hold positions packed.
    let source = filing.pack(source);
    let mut layer = Held::Memory(if owns(filing.part_packed(source)) {
        vec![vec![source]]
    } else {
        Vec::new()
    });
    // A spill keeps what this worker counts (its layer and sets) to a quarter of its
    // share: the rest is for what it does not count, the messages in flight to it above all.
    let mut spill = shared
        .spill
        .as_ref()
        .map(|dir| Spill::new(dir, me, budget / SPILL_SHARE, filing));
    let spill_error = |e: std::io::Error| Stop::Io(shared.spill.clone().unwrap_or_default(), e);
    let io = |path: &std::path::Path, e| Stop::Io(path.to_path_buf(), e);
    let mut summary = Summary {
        symmetries: if symmetry { order } else { 1 },
        ..Summary::default()
    };
    // The successors of the parents expanded since the last inserts, by partition.
    let room = room(buffered);
    let buffered = usize::try_from(buffered).unwrap_or(usize::MAX);
    let mut parts: Vec<Vec<K>> = (0..PARTS).map(|_| Vec::with_capacity(room)).collect();
    let mut outbox = Outbox::<K>::new(outbox_bytes);
    // The grid words of a chunk of the layer's packed positions.
    let mut parents = Vec::with_capacity(DATAFLOW_CHUNK);
    // The bytes held at the end of the last round: its layer, the sets of
    // the next, the outbox and the buffers.
    let mut built = 0u64;
    // The growth of the last layer, to size the sets for the next.
    let (mut growth, mut last) = (2.0f64, 1u64);
    let mut depth: u32 = 0;
    loop {
        // A worker past its share, or failed, reports so and expands nothing,
        // so that every worker sees it at the end of the round and all stop together.
        let mut held = built.max(layer.memory());
        if let Some(Stop::Memory(_, bytes, _)) = &failure {
            held = held.max(*bytes);
        }
        if held > budget || failure.is_some() {
            std::mem::replace(&mut layer, Held::empty()).discard();
        }
        let mut weighted: u128 = 0;
        let pass = layer.chunks(DATAFLOW_CHUNK, io, |chunk| {
            if let Some((l, path, out)) = &mut listing {
                for &w in chunk {
                    let state = engine.to_state(filing.unpack(w));
                    (l.write)(&Bits::from_u64(cells, state), depth, out)
                        .map_err(|e| Stop::Io(path.clone(), e))?;
                }
            }
            weighted += if symmetry {
                chunk.len() as u128
            } else {
                chunk
                    .iter()
                    .map(|&s| (order / engine.stabilizer(filing.unpack(s))) as u128)
                    .sum::<u128>()
            };
            Ok(())
        });
        if let Err(stop) = pass {
            failure.get_or_insert(stop);
        }
        let standing = if failure
            .as_ref()
            .is_some_and(|f| !matches!(f, Stop::Memory(..)))
        {
            FAILED
        } else if held > budget {
            OVER
        } else {
            GOING
        };
        reports.send((me as u64, layer.len(), weighted, standing));
        // Sets are first sized for the next layer as the last one grew, or
        // for what a spill lets them hold.
        let next = (layer.len() as f64 * growth.clamp(0.5, 4.0)) as u64;
        building
            .borrow_mut()
            .expect(next.min(spill.as_ref().map_or(u64::MAX, |s| s.bytes / SET_BYTES)));
        outbox.expect(next.saturating_mul(peers as u64));
        if failure.is_none() {
            let layer_bytes = layer.memory();
            // Inserts the buffered successors: this worker's own partitions
            // into its sets; hands those a worker of this process owns over,
            // a batch each; inserts the others' into its outbox, which is sent once
            // it passes its room or the round ends (`end`), each batch sent
            // as what arrives is taken in. Then the spill and the memory are checked.
            let mut insert = |parts: &mut [Vec<K>],
                              worker: &mut timely::worker::Worker,
                              (children, handed): (&mut Batches, &mut Batches),
                              end: bool|
             -> std::result::Result<(), Stop> {
                let mut building = building.borrow_mut();
                for (p, part) in parts.iter_mut().enumerate() {
                    if owns(p) {
                        building.receive_keys(depth, p, part);
                    } else if let Some(to) = local(p) {
                        if !part.is_empty() {
                            let words = K::hand_over(part, p, |n| shared.handoff.buffer(n));
                            shared.handoff.sent(to, words.capacity());
                            handed.send_batch(&mut Words::Owned(words));
                        }
                    } else {
                        outbox.insert_keys(p, part);
                    }
                    part.clear();
                }
                if let Some(spill) = &mut spill {
                    building.inserted();
                    spill
                        .spill_full(&mut building, layer_bytes)
                        .map_err(spill_error)?;
                }
                drop(building);
                // What has arrived is taken in once a pass, and more while a
                // worker of this process has too much in flight to it.
                worker.step();
                while shared.handoff.crowded(me % threads) {
                    std::thread::yield_now();
                    worker.step();
                }
                if end || outbox.full() {
                    outbox.send(|batch| {
                        children.send_batch(&mut Words::Owned(batch));
                        worker.step();
                    });
                }
                match past_memory(budget, shared.threads) {
                    Some(share) => Err(Stop::Memory(depth + 1, share, budget)),
                    None => Ok(()),
                }
            };
            let pass = layer.chunks(DATAFLOW_CHUNK, io, |chunk| {
                filing.unpack_all(chunk, &mut parents);
                engine.expand_keys(&parents, &mut parts);
                if parts.iter().map(Vec::len).sum::<usize>() >= buffered {
                    insert(&mut parts, worker, (&mut children, &mut handed), false)?;
                }
                Ok(())
            });
            let pass =
                pass.and_then(|()| insert(&mut parts, worker, (&mut children, &mut handed), true));
            if let Err(stop) = pass {
                failure.get_or_insert(stop);
            }
        }
        depth += 1;
        children.advance_to(depth);
        handed.advance_to(depth);
        reports.advance_to(depth);
        while probe.less_than(children.time()) {
            worker.step_or_park(Some(std::time::Duration::from_millis(1)));
            if building.borrow_mut().inserted() && failure.is_none() {
                if let Some(spill) = &mut spill
                    && let Err(e) = spill.spill_full(&mut building.borrow_mut(), layer.memory())
                {
                    failure = Some(spill_error(e));
                }
                if let Some(share) = past_memory(budget, shared.threads) {
                    failure.get_or_insert(Stop::Memory(depth, share, budget));
                }
            }
        }
        let round = depth - 1;
        let mut reported: Vec<Report> = totals.borrow_mut().remove(&round).unwrap_or_default();
        reported.sort_unstable();
        let states: u64 = reported.iter().map(|r| r.1).sum();
        let weight: u128 = reported.iter().map(|r| r.2).sum();
        // Every worker reads the same reports, so all stop together. A
        // report missing is a worker gone: what the others count is then not the whole.
        let worst = reported.iter().map(|r| r.3).max().unwrap_or(GOING);
        if worst == FAILED || reported.len() != peers {
            return Err(failure.unwrap_or(Stop::Peer));
        }
        if worst == OVER {
            return Err(match failure {
                _ if held > budget => Stop::Memory(round, held, budget),
                Some(stop) => stop,
                None => Stop::Peer,
            });
        }
        if states == 0 {
            break;
        }
        growth = states as f64 / last as f64;
        last = states;
        if let Some(observer) = shared
            .observer
            .as_ref()
            .filter(|_| me.is_multiple_of(shared.threads))
        {
            (observer.0)(&Event::Layer {
                depth: round,
                positions: reported.iter().map(|r| r.1).collect(),
            });
        }
        summary.count.add(weight);
        *summary.histogram.entry(round).or_default() += weight;
        let taken = {
            let mut building = building.borrow_mut();
            built = building.bytes()
                + layer.memory()
                + outbox.bytes()
                + parts
                    .iter()
                    .map(|p| (p.capacity() * std::mem::size_of::<K>()) as u64)
                    .sum::<u64>();
            // The layer expanded is done with: its vectors take the next one.
            building.take(
                round,
                std::mem::replace(&mut layer, Held::empty()).recycle(),
            )
        };
        layer = match &mut spill {
            Some(spill) => spill.finish(round, taken).unwrap_or_else(|e| {
                failure.get_or_insert(spill_error(e));
                Held::empty()
            }),
            None => Held::Memory(taken),
        };
    }
    if let Some((_, path, out)) = &mut listing {
        out.flush().map_err(|e| Stop::Io(path.clone(), e))?;
    }
    Ok(summary)
}

/// A worker's share of its process's memory when the process holds more
/// than `threads` shares of `budget`; `None` while it fits, or where it
/// cannot be read. The process's memory is its heap as the
/// [`Meter`](crate::memory::Meter) counts it, buffers and all, with
/// [`PROCESS_BYTES`](crate::limits::PROCESS_BYTES); without the meter, its
/// resident set, which the system's allocator makes vary from run to run.
fn past_memory(budget: u64, threads: usize) -> Option<u64> {
    let threads = threads.max(1) as u64;
    let held = crate::memory::process_bytes().or_else(crate::limits::resident_bytes)?;
    (held > budget.saturating_mul(threads)).then_some(held / threads)
}

/// What `inspect_core` sees: a batch of records under its stamp, or a new frontier.
type Inspected<'s, 'd, 'f, D> = std::result::Result<(&'s Stamp<u32>, &'d Vec<D>), &'f [u32]>;

/// An inspection that files each batch of records under its round in `into`.
fn by_round<D: Copy, C: Default + Extend<D>>(
    into: Rc<RefCell<BTreeMap<u32, C>>>,
) -> impl FnMut(Inspected<'_, '_, '_, D>) {
    move |event| {
        if let Ok((stamp, data)) = event {
            let round = stamp.least().copied().unwrap_or_default();
            into.borrow_mut()
                .entry(round)
                .or_default()
                .extend(data.iter().copied());
        }
    }
}
