//! Layered breadth-first enumeration over states of at most 64 cells.
//!
//! Each layer is a sorted vector of states. The next layer is made in chunks:
//! every chunk's successors are generated and sorted on rayon's threads,
//! deduplicated, then all chunks are merged, and states seen in earlier
//! layers are dropped (by a visited bitmap swept in sorted order, or by the
//! earlier layers themselves when moves can never return to them). Dropping
//! seen states and deduplicating run on one thread.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::Result;
use crate::program::Program;
use crate::program::masks::Masks;
use crate::stateset::StateSet;
use crate::symmetry::Canon;

/// Which way the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From a start, along the moves.
    Forward,
    /// From the targets, along reversed moves: the states that reach them.
    Backward,
}

/// The most cells for which the visited set is a bitmap: 2^34 bits, 2 GiB.
pub const BITMAP_CELLS: usize = 34;

/// The bytes one state costs in the layers held at once (the current layer,
/// the next one as it is built, and its sorting slack).
const LAYER_BYTES: u128 = 32;

/// The bytes a layered run holds whatever it visits: the visited bitmap
/// (moves that can return to a state, up to [`BITMAP_CELLS`] cells) or the
/// next-layer bitmap (moves that change the piece count, without symmetry),
/// as [`run`] allocates them.
pub fn fixed_bytes(program: &Program, symmetry: bool) -> u128 {
    let Ok(masks) = Masks::new(program) else {
        return 0;
    };
    let cells = program.cells();
    if cells > BITMAP_CELLS {
        return 0;
    }
    let bitmap = (1u128 << cells) / 8;
    match (monotone(&masks), symmetry) {
        (false, _) | (true, false) => bitmap,
        (true, true) => 0,
    }
}

/// Estimated peak memory of enumerating at most `states` states of `program`.
pub fn estimate(program: &Program, states: u128, symmetry: bool) -> u128 {
    let seen = if program.cells() <= BITMAP_CELLS {
        0
    } else {
        states * crate::stateset::HASHED_BYTES
    };
    fixed_bytes(program, symmetry) + seen + states * LAYER_BYTES
}

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
    // Bytes held across layers: bitmaps and the seen set.
    let mut held = 0u64;
    // The states of earlier layers; none when moves can never return to them
    // (every move removes a piece, or every move adds one).
    let mut seen = if monotone {
        None
    } else {
        if cells <= BITMAP_CELLS {
            held = (1u64 << cells) / 8;
            check_memory("the visited bitmap", held, max_memory)?;
        }
        Some(StateSet::new(cells, BITMAP_CELLS))
    };
    // Monotone moves without symmetry: the next layer goes into a bitmap,
    // filled block by block of the sorted layer, so that bits are set in
    // narrow, nearly ascending stretches.
    let mut next_bits = if monotone && canon.is_identity() && cells <= BITMAP_CELLS {
        held += (1u64 << cells) / 8;
        check_memory("the next-layer bitmap", held, max_memory)?;
        Some(NextBitmap::new(cells))
    } else {
        None
    };
    let mut current = sources;
    mark(&mut seen, &mut current, held, max_memory)?;
    let mut depth = 0;
    while !current.is_empty() {
        if !layer(depth, &current) {
            return Ok(());
        }
        let hashed = seen
            .as_ref()
            .filter(|s| matches!(s, StateSet::Hashed(_)))
            .map_or(0, |s| s.bytes() as u64);
        let held_now = held + hashed;
        let next = match &mut next_bits {
            Some(bitmap) => bitmap.expand(&masks, direction, &current, keep),
            None => expand(
                &masks, direction, &current, canon, held_now, max_memory, keep,
            )?,
        };
        current = next;
        mark(&mut seen, &mut current, held, max_memory)?;
        depth += 1;
    }
    Ok(())
}

/// A bitmap over all states for the next layer, with a map of the 4 KiB
/// blocks that were written, so that reading it back out (in order, which
/// sorts the layer) and clearing it touch only those.
struct NextBitmap {
    words: Vec<AtomicU64>,
    dirty: Vec<AtomicU64>,
}

/// Words per dirty block: 512 words, 4 KiB.
const BLOCK_WORDS: usize = 512;

impl NextBitmap {
    fn new(cells: usize) -> NextBitmap {
        let words = ((1u128 << cells) / 64).max(1) as usize;
        let blocks = words.div_ceil(BLOCK_WORDS);
        NextBitmap {
            words: std::iter::repeat_with(|| AtomicU64::new(0))
                .take(words)
                .collect(),
            dirty: std::iter::repeat_with(|| AtomicU64::new(0))
                .take(blocks.div_ceil(64))
                .collect(),
        }
    }

    /// The next layer from `layer` (sorted), block by block on rayon's threads.
    fn expand(
        &mut self,
        masks: &Masks,
        direction: Direction,
        layer: &[u64],
        keep: &(dyn Fn(u64) -> bool + Sync),
    ) -> Vec<u64> {
        let (words, dirty) = (&self.words, &self.dirty);
        // Blocks of the sorted layer small enough for the cache, each run through
        // every move: the layer is read from memory once, and a block's successors
        // under one move fall in a narrow, ascending stretch of the bitmap.
        layer.par_chunks(1 << 14).for_each(|block| {
            let mut found = vec![0u64; block.len()];
            for m in 0..masks.len() {
                let (flip, on) = (masks.flip[m], masks.need_on[m]);
                // Legal when the guard cells read exactly `on`.
                let guard = on | masks.need_off[m];
                // Branch-free: every state writes its successor, and only legal ones advance.
                let mut n = 0;
                if direction == Direction::Forward {
                    for &s in block {
                        found[n] = s ^ flip;
                        n += usize::from(s & guard == on);
                    }
                } else {
                    for &s in block {
                        let t = s ^ flip;
                        found[n] = t;
                        n += usize::from(t & guard == on);
                    }
                }
                for &t in &found[..n] {
                    let (w, bit) = ((t / 64) as usize, 1u64 << (t % 64));
                    // Most successors are found several times: a plain load skips the
                    // atomic (a locked instruction) when the bit is already set.
                    if words[w].load(Ordering::Relaxed) & bit != 0 {
                        continue;
                    }
                    let old = words[w].fetch_or(bit, Ordering::Relaxed);
                    if old == 0 {
                        let block = w / BLOCK_WORDS;
                        dirty[block / 64].fetch_or(1 << (block % 64), Ordering::Relaxed);
                    }
                }
            }
        });
        // Read the written blocks back in order, clearing them.
        let blocks: Vec<usize> = dirty
            .iter()
            .enumerate()
            .flat_map(|(i, d)| {
                let mut bits = d.swap(0, Ordering::Relaxed);
                std::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Some(i * 64 + b)
                })
            })
            .collect();
        let parts: Vec<Vec<u64>> = blocks
            .par_chunks(64)
            .map(|chunk| {
                let mut out = Vec::new();
                for &block in chunk {
                    let end = ((block + 1) * BLOCK_WORDS).min(words.len());
                    for (w, word) in words.iter().enumerate().take(end).skip(block * BLOCK_WORDS) {
                        // A plain load: an atomic swap on every word is a full barrier each.
                        let mut bits = word.load(Ordering::Relaxed);
                        if bits != 0 {
                            word.store(0, Ordering::Relaxed);
                        }
                        while bits != 0 {
                            let t = (w as u64) * 64 + bits.trailing_zeros() as u64;
                            bits &= bits - 1;
                            if keep(t) {
                                out.push(t);
                            }
                        }
                    }
                }
                out
            })
            .collect();
        parts.concat()
    }
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
        return Err(crate::limits::Limits::exceeded_bound(
            "max-memory",
            format!("the memory for {what} (estimated)"),
            bytes as u128,
            max_memory as u128,
            "raise --max-memory if the machine has room, or enumerate from a start",
        ));
    }
    Ok(())
}

/// Drops from `layer` the states seen before, and marks the rest seen;
/// refused when the seen set would outgrow the budget.
fn mark(
    seen: &mut Option<StateSet>,
    layer: &mut Vec<u64>,
    held: u64,
    max_memory: u64,
) -> Result<()> {
    let Some(set) = seen else {
        return Ok(());
    };
    if let StateSet::Hashed(_) = set {
        let total = set.bytes_with(layer.len()) + u128::from(held) + layer.len() as u128 * 8;
        if total > u128::from(max_memory) {
            check_memory("the set of states seen so far", total as u64, max_memory)?;
        }
    }
    layer.retain(|&s| set.insert(s));
    Ok(())
}

/// The next layer: every move (or reversed move) from every state of
/// `layer`, canonical, sorted and deduplicated.
fn expand(
    masks: &Masks,
    direction: Direction,
    layer: &[u64],
    canon: &dyn Canon,
    held: u64,
    max_memory: u64,
    keep: &(dyn Fn(u64) -> bool + Sync),
) -> Result<Vec<u64>> {
    let index = hole_index(masks);
    // Each state of a chunk may add one successor per move, collected with
    // doubling slack: size chunks so that this fits beside what is held.
    let per_state = (masks.len().max(1) * 16) as u64;
    let base = held + layer.len() as u64 * 8;
    let room = max_memory.saturating_sub(base);
    let chunk_len = ((room / 2) / per_state).min(1 << 22) as usize;
    if chunk_len < 1024.min(layer.len()).max(1) {
        check_memory("the next layer", base + per_state * 1024, max_memory)?;
    }
    let mut parts: Vec<u64> = Vec::new();
    for chunk in layer.chunks(chunk_len.max(1)) {
        let mut out: Vec<u64> = chunk
            .par_chunks(4096)
            .flat_map_iter(|part| {
                let mut local = Vec::with_capacity(part.len() * 8);
                for &s in part {
                    let mut push = |m: usize| {
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
                    };
                    match &index {
                        // Only moves whose key cell is clear (forwards) or set (backwards) can apply.
                        Some(by_cell) => {
                            let mut keys = match direction {
                                Direction::Forward => !s & index_mask(by_cell.len()),
                                Direction::Backward => s,
                            };
                            while keys != 0 {
                                let c = keys.trailing_zeros() as usize;
                                keys &= keys - 1;
                                for &m in &by_cell[c] {
                                    push(m as usize);
                                }
                            }
                        }
                        None => (0..masks.len()).for_each(&mut push),
                    }
                }
                local
            })
            .collect();
        sort_dedup(&mut out);
        out.shrink_to_fit();
        check_memory(
            "the next layer",
            base + (parts.len() + out.len()) as u64 * 16,
            max_memory,
        )?;
        if parts.is_empty() {
            // The first (often the only) chunk: no copy.
            parts = out;
        } else {
            parts.extend_from_slice(&out);
        }
    }
    if layer.len() > chunk_len {
        sort_dedup(&mut parts);
    }
    parts.shrink_to_fit();
    Ok(parts)
}

/// Moves grouped by a cell that must be clear before them (for jumps: the
/// landing hole), when every move has one inside its flip. A state then only
/// tries the moves of its clear cells (forwards) or set cells (backwards).
type HoleIndex = Option<Vec<Vec<u32>>>;

fn hole_index(masks: &Masks) -> HoleIndex {
    let cells = 64 - masks.flip.iter().fold(0u64, |a, &f| a | f).leading_zeros() as usize;
    let mut by_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
    for m in 0..masks.len() {
        let key = masks.need_off[m] & masks.flip[m];
        if key == 0 {
            return None;
        }
        by_cell[key.trailing_zeros() as usize].push(m as u32);
    }
    Some(by_cell)
}

fn index_mask(cells: usize) -> u64 {
    if cells >= 64 { !0 } else { (1u64 << cells) - 1 }
}

/// Sorts (on rayon's threads) and deduplicates states.
fn sort_dedup(v: &mut Vec<u64>) {
    v.par_sort_unstable();
    v.dedup();
}
