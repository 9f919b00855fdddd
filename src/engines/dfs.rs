//! Depth-first search with a table of dead ends, for puzzles where every move removes exactly one piece.
//!
//! In such a puzzle (peg solitaire) every path from a board to a target with
//! `p` pieces has the same length: the pieces removed. So the first solution
//! found is also a shortest one, and a depth-first search, which needs memory
//! only for the states it proves dead, replaces breadth-first search.
//!
//! The search meets a backward search in the middle: the states a few moves
//! before a target are listed first (by undoing moves from the targets), so
//! the forward search stops at that depth with one lookup instead of
//! exploring every dead subtree below it.

use rustc_hash::FxHashSet;

use crate::engines::bfs::{self, Found};
use crate::error::Result;
use crate::limits::Limits;
use crate::program::masks::Masks;
use crate::program::{Goal, Program};
use crate::word::Word;

/// Whether every move removes exactly one piece whatever the board (its flip
/// lies within its guard, with one more cell required on than off), and every
/// target has the same number of pieces: then depth-first search finds
/// shortest solutions. Its states are one word of up to 128 bits.
pub fn applies(program: &Program) -> bool {
    program.cells() <= crate::limits::WIDE_SEARCH_CELLS && removes_one_piece(program)
}

/// Whether the puzzle is peg solitaire as [`applies`] asks, whatever its size.
pub fn removes_one_piece(program: &Program) -> bool {
    let Goal::Targets(targets) = program.goal() else {
        return false;
    };
    let pieces = targets.first().map(|t| t.count_ones());
    targets.iter().all(|t| Some(t.count_ones()) == pieces)
        && !program.moves().is_empty()
        && program.moves().iter().all(|m| {
            let on = m.flip.iter().filter(|c| m.need_on.contains(c)).count();
            let off = m.flip.iter().filter(|c| m.need_off.contains(c)).count();
            on + off == m.flip.len() && on == off + 1
        })
}

/// The most states the backward layers around the targets may hold.
const MAX_NEAR_STATES: usize = 1 << 16;

/// Layer `i` holds the states from which `i` moves reach one of `targets`
/// (each with the targets' piece count plus `i`). Grows layers while they
/// fit in [`MAX_NEAR_STATES`], up to half the way to `start_pieces`: the
/// search forwards meets them there, so a board of a few pieces pays for a
/// few layers, not for the whole budget.
fn near_targets<W: Word>(masks: &Masks<W>, targets: &[W], start_pieces: u32) -> Vec<FxHashSet<W>> {
    let mut layers: Vec<FxHashSet<W>> = vec![targets.iter().copied().collect()];
    let goal_pieces = targets.first().map_or(0, |t| t.count_ones());
    let half_way = start_pieces.saturating_sub(goal_pieces).div_ceil(2);
    let mut total = layers[0].len();
    while (layers.len() as u32) <= half_way {
        let mut next: FxHashSet<W> = FxHashSet::default();
        for &s in layers.last().expect("layer 0 exists") {
            for m in 0..masks.len() {
                // `s` came from `pre` by move m when m was legal in `pre`.
                let pre = s ^ masks.flip[m];
                if masks.legal(pre, m) {
                    next.insert(pre);
                    if total + next.len() > MAX_NEAR_STATES {
                        return layers;
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        total += next.len();
        layers.push(next);
    }
    layers
}

/// Searches from `start` for one of `targets` (all with the same number of
/// pieces). `None` when the whole tree was searched.
pub(crate) fn dfs<W: Word>(
    program: &Program,
    start: W,
    targets: &[W],
    limits: &Limits,
) -> Result<Option<Found<W>>> {
    let masks: Masks<W> = Masks::wide(program)?;
    let goal_pieces = targets.first().map_or(0, |t| t.count_ones());
    if targets.is_empty() || start.count_ones() < goal_pieces {
        return Ok(None);
    }
    let near = near_targets(&masks, targets, start.count_ones());
    let depth = near.len() - 1;
    let cap = bfs::state_cap(program.cells(), limits);
    let mut dead: FxHashSet<W> = FxHashSet::default();
    // The path so far: (state, next move to try).
    let mut stack: Vec<(W, usize)> = vec![(start, 0)];
    let mut moves: Vec<usize> = Vec::new();
    while let Some(&mut (s, ref mut next)) = stack.last_mut() {
        if s.count_ones() == goal_pieces + depth as u32 {
            if near[depth].contains(&s) {
                // Walk down the backward layers to a target.
                let mut cur = s;
                for layer in near[..depth].iter().rev() {
                    let m = (0..masks.len())
                        .find(|&m| masks.legal(cur, m) && layer.contains(&(cur ^ masks.flip[m])))
                        .expect("a state of layer i has a move into layer i - 1");
                    moves.push(m);
                    cur ^= masks.flip[m];
                }
                return Ok(Some(Found { moves, end: cur }));
            }
            stack.pop();
            moves.pop();
            continue;
        }
        let mut advanced = false;
        while *next < masks.len() {
            // Moves are tried last-compiled first: on french37 from c1 this
            // search proves half as many dead ends as the other order.
            let m = masks.len() - 1 - *next;
            *next += 1;
            if masks.legal(s, m) {
                let t = s ^ masks.flip[m];
                if !dead.contains(&t) {
                    stack.push((t, 0));
                    moves.push(m);
                    advanced = true;
                    break;
                }
            }
        }
        if !advanced {
            dead.insert(s);
            stack.pop();
            moves.pop();
            if dead.len() as u64 > cap {
                return Err(bfs::too_many_states(
                    program.cells(),
                    dead.len() as u64,
                    limits,
                ));
            }
        }
    }
    Ok(None)
}
