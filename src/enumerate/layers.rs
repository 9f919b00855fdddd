//! Layered breadth-first enumeration over states of at most 64 cells, on both cores.
//!
//! Each layer is a sorted vector of states. The next layer is made in chunks:
//! every chunk's successors are generated in parallel, sorted and deduplicated,
//! then all chunks are merged, and states seen in earlier layers are dropped
//! (by a visited bitmap swept in sorted order, or by the earlier layers
//! themselves when moves can never return to them).

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::program::Program;
use crate::solve::search::Masks;

/// Which way the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From a start, along the moves.
    Forward,
    /// From the targets, along reversed moves: the states that reach them.
    Backward,
}

/// A canonical form for states (the least image under a group of symmetries),
/// or the identity.
pub trait Canon: Sync {
    /// The canonical representative of `state`.
    fn canon(&self, state: u64) -> u64;
}

/// No symmetry: every state is its own representative.
pub struct Identity;

impl Canon for Identity {
    #[inline]
    fn canon(&self, state: u64) -> u64 {
        state
    }
}

/// How layers are deduplicated against earlier ones.
enum Seen {
    /// Moves never revisit a state of an earlier layer (every move removes a
    /// piece, or adds one): nothing to remember.
    Monotone,
    /// A bitmap over all 2^cells states.
    Bitmap(Vec<u64>),
    /// A hash set of the states seen.
    Hashed(rustc_hash::FxHashSet<u64>),
}

/// The most cells for which the visited set is a bitmap: 2^34 bits, 2 GiB.
pub const BITMAP_CELLS: usize = 34;

/// Runs layered breadth-first search from `sources` (sorted, deduplicated,
/// canonical), calling `layer(depth, states)` for each layer in turn;
/// `layer` returns false to stop. Memory past `max_memory` bytes is refused
/// before it is taken.
pub fn run(
    program: &Program,
    direction: Direction,
    sources: Vec<u64>,
    canon: &dyn Canon,
    max_memory: u64,
    layer: impl FnMut(usize, &[u64]) -> bool,
) -> Result<()> {
    run_filtered(
        program,
        direction,
        sources,
        canon,
        max_memory,
        &|_| true,
        layer,
    )
}

/// Backward layered search that keeps only the states `within` accepts: the
/// states of a given set that can reach the sources.
pub fn run_within(
    program: &Program,
    sources: Vec<u64>,
    canon: &dyn Canon,
    max_memory: u64,
    within: &(dyn Fn(u64) -> bool + Sync),
    layer: impl FnMut(usize, &[u64]) -> bool,
) -> Result<()> {
    run_filtered(
        program,
        Direction::Backward,
        sources,
        canon,
        max_memory,
        within,
        layer,
    )
}

fn run_filtered(
    program: &Program,
    direction: Direction,
    sources: Vec<u64>,
    canon: &dyn Canon,
    max_memory: u64,
    keep: &(dyn Fn(u64) -> bool + Sync),
    mut layer: impl FnMut(usize, &[u64]) -> bool,
) -> Result<()> {
    let masks = Masks::new(program)?;
    let cells = program.cells();
    let monotone = monotone(&masks);
    let mut seen = if monotone {
        Seen::Monotone
    } else if cells <= BITMAP_CELLS {
        let bytes = (1u64 << cells) / 8;
        check_memory("the visited bitmap", bytes, max_memory)?;
        Seen::Bitmap(vec![0u64; ((1u128 << cells) / 64).max(1) as usize])
    } else {
        Seen::Hashed(Default::default())
    };
    let mut current = sources;
    mark(&mut seen, &mut current);
    let mut depth = 0;
    while !current.is_empty() {
        if !layer(depth, &current) {
            return Ok(());
        }
        let next = expand(&masks, direction, &current, canon, max_memory, keep)?;
        current = next;
        mark(&mut seen, &mut current);
        depth += 1;
    }
    Ok(())
}

/// Whether every move changes the piece count by the same nonzero amount
/// whatever the board, so no state can appear in two layers.
fn monotone(masks: &Masks) -> bool {
    let delta = |m: usize| {
        let flip = masks.flip[m];
        let on = (flip & masks.need_on[m]).count_ones() as i64;
        let off = (flip & masks.need_off[m]).count_ones() as i64;
        let known = flip & (masks.need_on[m] | masks.need_off[m]) == flip;
        known.then_some(off - on)
    };
    let first = (0..masks.len()).next().and_then(delta);
    first.is_some_and(|d| d != 0) && (0..masks.len()).all(|m| delta(m) == first)
}

fn check_memory(what: &str, bytes: u64, max_memory: u64) -> Result<()> {
    if bytes > max_memory {
        return Err(Error::Limit {
            what: format!("the memory for {what} (estimated)"),
            name: "max-memory",
            value: bytes as u128,
            limit: max_memory as u128,
            hint: "raise --max-memory if the machine has room, or enumerate from a start".into(),
        });
    }
    Ok(())
}

/// Drops from `layer` the states seen before, and marks the rest seen.
fn mark(seen: &mut Seen, layer: &mut Vec<u64>) {
    match seen {
        Seen::Monotone => {}
        Seen::Bitmap(bits) => layer.retain(|&s| {
            let (w, b) = ((s / 64) as usize, s % 64);
            let fresh = bits[w] >> b & 1 == 0;
            bits[w] |= 1 << b;
            fresh
        }),
        Seen::Hashed(set) => layer.retain(|&s| set.insert(s)),
    }
}

/// The next layer: every move (or reversed move) from every state of
/// `layer`, canonical, sorted and deduplicated.
fn expand(
    masks: &Masks,
    direction: Direction,
    layer: &[u64],
    canon: &dyn Canon,
    max_memory: u64,
    keep: &(dyn Fn(u64) -> bool + Sync),
) -> Result<Vec<u64>> {
    const CHUNK: usize = 1 << 20;
    let mut parts: Vec<Vec<u64>> = Vec::new();
    let mut held = 0u64;
    for chunk in layer.chunks(CHUNK) {
        let mut out: Vec<u64> = chunk
            .par_chunks(4096)
            .flat_map_iter(|part| {
                let mut local = Vec::with_capacity(part.len() * 4);
                for &s in part {
                    for m in 0..masks.len() {
                        let t = s ^ masks.flip[m];
                        let from = match direction {
                            Direction::Forward => s,
                            Direction::Backward => t,
                        };
                        if masks.legal(from, m) {
                            let c = canon.canon(t);
                            if keep(c) {
                                local.push(c);
                            }
                        }
                    }
                }
                local
            })
            .collect();
        out.par_sort_unstable();
        out.dedup();
        out.shrink_to_fit();
        held += out.len() as u64 * 8;
        check_memory("the next layer", held + layer.len() as u64 * 8, max_memory)?;
        parts.push(out);
    }
    let mut next: Vec<u64> = if parts.len() == 1 {
        parts.pop().unwrap_or_default()
    } else {
        let mut all: Vec<u64> = parts.concat();
        drop(parts);
        all.par_sort_unstable();
        all.dedup();
        all
    };
    next.shrink_to_fit();
    Ok(next)
}
