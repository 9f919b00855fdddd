//! Peg solitaire counted through its symmetries and its complement duality: orbit sizes give plain counts, and one forward enumeration gives the winning lines.
//!
//! Two facts of jump moves make the counts of peg boards cheap:
//! - A jump from `s` to `s'` is legal exactly when the jump from `~s'` to
//!   `~s` is (the complement swaps pegs and holes, and a jump needs two pegs
//!   and a hole before, two holes and a peg after). So the positions that can
//!   reach a target `t` are the complements of the positions reachable from
//!   `~t`, and the positions on a winning line are the reachable ones whose
//!   complement is reachable from a complemented target. On the English
//!   board the complemented goal is the start itself: one enumeration does.
//! - Enumerating up to symmetry and weighting each canonical position by its
//!   orbit size (the group's order over its stabilizer's) counts every
//!   position, while holding one in eight.
//!
//! The layers come from the grid-word engine ([`crate::engines::bitboard`]); a layer
//! of winning lines is the intersection, partition by partition, of a
//! forward layer's complements with the matching dual layer.

use rayon::prelude::*;

use crate::bits::Bits;
use crate::engines::bitboard::{GridJumps, Layer};
use crate::engines::parts::Filing;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::Summary;
use crate::program::{Goal, MoveKind, Program};
use crate::query::Request;
use crate::symmetry::Symmetries;

/// Whether [`count`] answers counts and histograms from a start on
/// `program`: every move a jump, a board whose jumps fit the grid-word
/// engine, and unless `any_goal` serves (a count of the positions reachable
/// from the start, which the goal does not change), a goal of targets with
/// one piece count.
pub fn applies(program: &Program, any_goal: bool) -> bool {
    let one_count = match program.goal() {
        Goal::Targets(targets) => {
            let pegs = targets.first().map(Bits::count_ones);
            pegs.is_some() && targets.iter().all(|t| Some(t.count_ones()) == pegs)
        }
        _ => false,
    };
    (any_goal || one_count)
        && all_jumps(program)
        && GridJumps::new(program, &[(0..program.cells()).collect()]).is_some()
}

/// The count or histogram of `request` (from a start, not a listing) by
/// orbits and duality, on a program that [`applies`]. The symmetries are
/// those that fix the start; a start that none fixes is counted with the
/// identity alone.
pub(crate) fn count(program: &Program, request: &Request, limits: &Limits) -> Result<Summary> {
    let not_planned =
        || Error::Internal("peg orbits planned for a program they do not serve".into());
    let start = request
        .from
        .as_ref()
        .and_then(Bits::to_u64)
        .ok_or_else(not_planned)?;
    let perms = start_group(program, start, request, limits)?;
    let engine = GridJumps::new(program, &perms).ok_or_else(not_planned)?;
    let order = engine.order();
    // A canonical position stands for its orbit, unless orbits are what is counted.
    let weight = |s: u64| -> u128 {
        if request.symmetry {
            1
        } else {
            // Divided as machine words: a division of 128 bits is a call.
            (order / engine.stabilizer(s)) as u128
        }
    };
    let mut summary = Summary {
        symmetries: if request.symmetry { engine.order() } else { 1 },
        ..Summary::default()
    };
    let max_memory = limits.max_memory;
    refuse_what_cannot_fit(program, &engine, start, request.reachable, max_memory)?;
    let source = engine.canon(engine.to_grid(start));
    if request.reachable {
        let weigh = !request.symmetry;
        engine.run(&[source], max_memory, false, weigh, 0, |depth, _, n| {
            summary.count.add(n);
            *summary.histogram.entry(depth as u32).or_default() += n;
            true
        })?;
        return Ok(summary);
    }
    // On a winning line: the goal's targets, all of one piece count.
    let Goal::Targets(targets) = program.goal() else {
        return Err(not_planned());
    };
    let targets = targets
        .iter()
        .map(Bits::to_u64)
        .collect::<Option<Vec<u64>>>()
        .ok_or_else(not_planned)?;
    let target_pegs = targets.first().ok_or_else(not_planned)?.count_ones();
    let forward = collect(&engine, &[source], max_memory, 0)?;
    let mut sources: Vec<u64> = targets
        .iter()
        .map(|&t| engine.canon(engine.complement(engine.to_grid(t))))
        .collect();
    sources.sort_unstable();
    sources.dedup();
    let held = forward.iter().map(Layer::bytes).sum();
    let dual_storage;
    // When the complemented targets are the start, the dual enumeration is
    // the forward one, and complementing pairs the winning positions of the
    // layer `depth` jumps deep with those `distance` deep, one orbit to one
    // orbit of the same size: one sum serves both.
    let mirrored = sources == [source];
    let dual: &[Layer] = if mirrored {
        &forward
    } else {
        dual_storage = collect(&engine, &sources, max_memory, held)?;
        &dual_storage
    };
    let start_pegs = start.count_ones();
    for (depth, layer) in forward.iter().enumerate() {
        // A position with k pegs can reach a target when its complement is in
        // the dual layer of cells - k pegs, which is k - target_pegs jumps deep.
        let pegs = start_pegs - depth as u32;
        let Some(distance) = pegs.checked_sub(target_pegs) else {
            continue;
        };
        let Some(dual_layer) = dual.get(distance as usize) else {
            continue;
        };
        if mirrored && (distance as usize) < depth {
            continue;
        }
        // The complements' orbits, one per position's orbit, and of the same
        // size: a symmetry fixes a position exactly when it fixes its complement.
        let complements = Layer::from_keys(
            layer
                .par_states()
                .map(|s| engine.canon(engine.complement(s)))
                .collect(),
            engine.filing(),
        );
        let n = complements.common_sum(dual_layer, weight);
        if n > 0 {
            summary.count.add(n);
            *summary.histogram.entry(distance).or_default() += n;
            if mirrored && distance as usize != depth {
                summary.count.add(n);
                *summary.histogram.entry(depth as u32).or_default() += n;
            }
        }
    }
    Ok(summary)
}

/// The least `--max-memory` at which a count is estimated before it starts:
/// below it, a run that cannot fit fills the limit and stops within seconds,
/// about the sample's own time.
const SAMPLED_FROM: u64 = 1 << 30;

/// Refuses, before the first layer, a count whose layers cannot fit in
/// `max_memory`. Counting the reachable positions holds a layer (8 bytes a
/// position) while the sets build the next (about 11 bytes a position, 5.5
/// with compact keys); a winning line keeps every forward layer. Where even
/// every position with each layer's number of pegs, up to the engine's
/// symmetries, would fit, or where `max_memory` is below [`SAMPLED_FROM`],
/// nothing is estimated; otherwise each layer is estimated from the sample
/// of `sample.rs` (0.2 to 0.3 s), and the run is refused when the estimate
/// of its peak passes `max_memory`. The layers' own check still stops a
/// run that outgrows its estimate (the sample counts the positions its
/// tests could not settle as not reached, so it tends to count low). A
/// `max_memory` past the machine's memory is held to the machine's: an
/// estimate past that is refused whatever the limit.
fn refuse_what_cannot_fit(
    program: &Program,
    engine: &GridJumps,
    start: u64,
    reachable: bool,
    max_memory: u64,
) -> Result<()> {
    let building = match engine.filing() {
        Filing::Words => 11.0,
        Filing::Compact { .. } => 5.5,
    };
    let round = crate::engines::bitboard::round_bytes(program.moves().len() as u128) as f64;
    let order = engine.order() as f64;
    let peak = |sizes: &[f64]| -> f64 {
        let most = if reachable {
            (0..sizes.len())
                .map(|d| sizes[d] * 8.0 + sizes.get(d + 1).copied().unwrap_or(0.0) * building)
                .fold(0.0, f64::max)
        } else {
            sizes.iter().sum::<f64>() * 8.0 + sizes.iter().copied().fold(0.0, f64::max) * building
        };
        most / order + round
    };
    let cells = program.cells() as u32;
    let pegs = start.count_ones();
    let spaces: Vec<f64> = (0..pegs)
        .map(|d| crate::engines::sample::binomial(cells, pegs - d) as f64)
        .collect();
    // A limit past the machine's memory cannot be held to: the machine is the limit then.
    let machine = crate::limits::machine_memory().unwrap_or(u64::MAX);
    let room = max_memory.min(machine);
    if max_memory < SAMPLED_FROM || peak(&spaces) <= room as f64 {
        return Ok(());
    }
    let Some(layers) = crate::engines::sample::layers(program, start, Default::default()) else {
        return Ok(());
    };
    let sizes: Vec<f64> = layers.iter().map(|l| l.estimate()).collect();
    let need = peak(&sizes);
    if need > machine as f64 && machine < max_memory {
        return Err(Error::Usage(format!(
            "the layers are estimated to need {} at their peak (from at most {} positions \
             drawn per layer), more than this machine's {} of memory, whatever --max-memory \
             allows: let the count spill to disk (--workers 2 --spill-dir DIR), or run it on \
             more processes",
            crate::limits::human_bytes(need as u128),
            crate::engines::sample::Sampling::default().draws,
            crate::limits::human_bytes(u128::from(machine)),
        )));
    }
    if need > max_memory as f64 {
        return Err(Limits::exceeded_bound(
            "max-memory",
            format!(
                "the memory the layers are estimated to need at their peak (from at most {} \
                 positions drawn per layer)",
                crate::engines::sample::Sampling::default().draws
            ),
            need as u128,
            u128::from(max_memory),
            "raise --max-memory if the machine has room, or let the count spill to disk \
             (--workers 2 --spill-dir DIR)",
        ));
    }
    Ok(())
}

/// The symmetries that fix `start`, as cell permutations. Without
/// `--symmetry` the group only shares out the work: past its limit, or for
/// an explicit request, the identity alone.
pub(crate) fn start_group(
    program: &Program,
    start: u64,
    request: &Request,
    limits: &Limits,
) -> Result<Vec<Vec<usize>>> {
    let identity = || vec![(0..program.cells()).collect()];
    if request.explicit && !request.symmetry {
        return Ok(identity());
    }
    match Symmetries::of(program, &[start], limits) {
        Ok(group) => Ok(group.perms().to_vec()),
        Err(e) if request.symmetry => Err(e),
        Err(_) => Ok(identity()),
    }
}

/// Whether every move is a jump: two pegs and a hole before, flipped.
fn all_jumps(program: &Program) -> bool {
    program.moves().iter().all(|m| {
        m.kind == MoveKind::Jump
            && m.need_on.len() == 2
            && m.need_off.len() == 1
            && m.flip.len() == 3
            && m.flip
                .iter()
                .all(|c| m.need_on.contains(c) || m.need_off.contains(c))
    })
}

/// Every layer of the forward enumeration from `sources` (canonical grid
/// words), kept: refused past `max_memory`, counting the `held` bytes
/// already kept.
fn collect(engine: &GridJumps, sources: &[u64], max_memory: u64, held: u64) -> Result<Vec<Layer>> {
    let mut bytes = held;
    let kept = engine.run(sources, max_memory, true, false, held, |_, layer, _| {
        bytes += layer.bytes();
        bytes <= max_memory
    })?;
    if bytes > max_memory {
        return Err(crate::limits::Limits::exceeded_bound(
            "max-memory",
            "the memory to keep every layer of the enumeration (so far)",
            u128::from(bytes),
            u128::from(max_memory),
            "raise --max-memory if the machine has room",
        ));
    }
    Ok(kept)
}

/// The parents a dataflow worker expands at a time before it looks whether
/// its buffers of successors are full.
pub const DATAFLOW_CHUNK: usize = 1 << 13;

/// The least a dataflow's `workers` hold besides their layers, which the
/// planner asks for up front: each expands [`DATAFLOW_CHUNK`] parents into
/// at most `moves` successors of a word, and buffers at least as many.
pub fn dataflow_round_bytes(workers: usize, moves: usize) -> u128 {
    workers as u128 * DATAFLOW_CHUNK as u128 * moves as u128 * 16
}

/// The cost of counting by orbits: the layers are not known before the run,
/// which stops with the limit error when what it holds would pass the budget;
/// up front, one round of buffered successors.
pub(crate) fn cost(program: &Program) -> (u128, u128) {
    let moves = program.moves().len() as u128;
    (
        crate::engines::bitboard::round_bytes(moves),
        (1u128 << program.cells()) * moves,
    )
}

/// The cost of the same count as a dataflow of `workers`: up front, the
/// successors in flight. The run samples the layers before it starts and
/// refuses what its estimate shows cannot fit, and each worker stops the run
/// with the limit error when its layers pass its share.
pub(crate) fn dataflow_cost(program: &Program, workers: usize) -> (u128, u128) {
    let moves = program.moves().len();
    (
        dataflow_round_bytes(workers, moves),
        (1u128 << program.cells()) * moves as u128,
    )
}
