//! Depth-first search with a table of dead ends, for puzzles where every move removes exactly one piece.
//!
//! In such a puzzle (peg solitaire) every path from a board to a target with
//! `p` pieces has the same length: the pieces removed. So the first solution
//! found is also a shortest one, and a depth-first search, which needs memory
//! only for the states it proves dead, replaces breadth-first search.

use rustc_hash::FxHashSet;

use crate::error::{Error, Result};
use crate::program::{Goal, Program};
use crate::solve::Limits;
use crate::solve::search::{Found, Masks};

/// Whether every move removes exactly one piece whatever the board (its flip
/// lies within its guard, with one more cell required on than off), and every
/// target has the same number of pieces: then depth-first search finds
/// shortest solutions.
pub fn applies(program: &Program) -> bool {
    let Goal::Targets(targets) = program.goal() else {
        return false;
    };
    let pieces = targets.first().map(|t| t.count_ones());
    targets.iter().all(|t| Some(t.count_ones()) == pieces)
        && program.cells() <= super::search::MAX_SEARCH_CELLS
        && !program.moves().is_empty()
        && program.moves().iter().all(|m| {
            let on = m.flip.iter().filter(|c| m.need_on.contains(c)).count();
            let off = m.flip.iter().filter(|c| m.need_off.contains(c)).count();
            on + off == m.flip.len() && on == off + 1
        })
}

/// Searches from `start` for a target. `None` when the whole tree was searched.
pub(crate) fn dfs(program: &Program, start: u64, limits: &Limits) -> Result<Option<Found>> {
    let masks = Masks::new(program)?;
    let Goal::Targets(targets) = program.goal() else {
        return Ok(None);
    };
    let targets: Vec<u64> = targets.iter().filter_map(|t| t.to_u64()).collect();
    let goal_pieces = targets.first().map_or(0, |t| t.count_ones());
    let mut dead: FxHashSet<u64> = FxHashSet::default();
    // The path so far: (state, next move to try).
    let mut stack: Vec<(u64, usize)> = vec![(start, 0)];
    let mut moves: Vec<usize> = Vec::new();
    while let Some(&mut (s, ref mut next)) = stack.last_mut() {
        if s.count_ones() == goal_pieces {
            if targets.contains(&s) {
                return Ok(Some(Found { moves, end: s }));
            }
            dead.insert(s);
            stack.pop();
            moves.pop();
            continue;
        }
        let mut advanced = false;
        while *next < masks.len() {
            let m = *next;
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
            if dead.len() > limits.max_states {
                return Err(Error::Limit {
                    what: "the number of dead ends recorded".into(),
                    name: "max-states",
                    value: dead.len() as u128,
                    limit: limits.max_states as u128,
                    hint: "the search tree from this board is too large".into(),
                });
            }
        }
    }
    Ok(None)
}
