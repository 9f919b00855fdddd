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

use rayon::prelude::*;

use super::layers::{self, Canon, Direction};
use super::symmetry::Symmetries;
use super::{Request, Summary};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::plan::Output;
use crate::program::{Goal, MoveKind, Program};

/// The count or histogram of `request` by orbits and duality, or `None` when
/// they do not apply: a listing, a goal that is not a set of targets with one
/// piece count, moves that are not all jumps, or a board without symmetry.
pub(super) fn count(
    program: &Program,
    request: &Request,
    limits: &Limits,
) -> Result<Option<Summary>> {
    let cells = program.cells();
    let (Goal::Targets(targets), Some(from)) = (program.goal(), &request.from) else {
        return Ok(None);
    };
    if request.output == Output::List || cells > 64 || !all_jumps(program) {
        return Ok(None);
    }
    let (Some(start), Some(targets)) = (
        from.to_u64(),
        targets
            .iter()
            .map(|t| t.to_u64())
            .collect::<Option<Vec<u64>>>(),
    ) else {
        return Ok(None);
    };
    let target_pegs = match targets.first() {
        Some(t) if targets.iter().all(|u| u.count_ones() == t.count_ones()) => t.count_ones(),
        _ => return Ok(None),
    };
    let Ok(group) = Symmetries::of(program, &[start], limits) else {
        return Ok(None);
    };
    if group.is_empty() {
        return Ok(None);
    }
    let order = group.len() as u128;
    // A canonical position stands for its orbit, unless orbits are what is counted.
    let weight = |s: u64| -> u128 {
        if request.symmetry {
            1
        } else {
            order / group.stabilizer(s) as u128
        }
    };
    let mut summary = Summary {
        symmetries: if request.symmetry { group.len() } else { 1 },
        ..Summary::default()
    };
    let max_memory = limits.max_memory;
    let source = group.canon(start);
    if request.reachable {
        layers::run(
            program,
            Direction::Forward,
            vec![source],
            &group,
            max_memory,
            |depth, layer| {
                let n: u128 = layer.par_iter().map(|&s| weight(s)).sum();
                summary.count.add(n);
                *summary.histogram.entry(depth as u32).or_default() += n;
                true
            },
        )?;
        return Ok(Some(summary));
    }
    let forward = collect(program, vec![source], &group, max_memory, 0)?;
    let mask = if cells == 64 { !0 } else { (1u64 << cells) - 1 };
    let mut sources: Vec<u64> = targets.iter().map(|&t| group.canon(!t & mask)).collect();
    sources.sort_unstable();
    sources.dedup();
    let held = forward.iter().map(|l| l.len() as u64 * 8).sum();
    let dual_storage;
    let dual: &[Vec<u64>] = if sources == [source] {
        &forward
    } else {
        dual_storage = collect(program, sources, &group, max_memory, held)?;
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
        let n: u128 = layer
            .par_iter()
            .filter(|&&s| dual_layer.binary_search(&group.canon(!s & mask)).is_ok())
            .map(|&s| weight(s))
            .sum();
        if n > 0 {
            summary.count.add(n);
            *summary.histogram.entry(distance).or_default() += n;
        }
    }
    Ok(Some(summary))
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

/// Every layer of the forward enumeration from `sources` (canonical), kept:
/// refused past `max_memory`, counting the `held` bytes already kept.
fn collect(
    program: &Program,
    sources: Vec<u64>,
    canon: &dyn Canon,
    max_memory: u64,
    held: u64,
) -> Result<Vec<Vec<u64>>> {
    let mut layers_kept: Vec<Vec<u64>> = Vec::new();
    let mut bytes = held;
    let mut refused = None;
    layers::run(
        program,
        Direction::Forward,
        sources,
        canon,
        max_memory.saturating_sub(held),
        |_, layer| {
            bytes += layer.len() as u64 * 8;
            if bytes > max_memory {
                refused = Some(bytes);
                return false;
            }
            layers_kept.push(layer.to_vec());
            true
        },
    )?;
    if let Some(bytes) = refused {
        return Err(Error::Limit {
            what: "the memory to keep every layer of the enumeration (so far)".into(),
            name: "max-memory",
            value: u128::from(bytes),
            limit: u128::from(max_memory),
            hint: "raise --max-memory if the machine has room".into(),
        });
    }
    Ok(layers_kept)
}
