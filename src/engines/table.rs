//! An answer for every state at once, from one backward search over the whole state space.
//!
//! For targets: breadth-first search backwards from the target set gives each
//! state its distance. For fewest pieces: each state's value is the fewest
//! pieces of any state it can reach, spread backwards from the states in order
//! of piece count. Either way, answering a board afterwards is one lookup.

use crate::error::Result;
use crate::program::masks::Masks;
use crate::program::{Goal, Program};

use crate::limits::TABLE_CELLS as MAX_TABLE_CELLS;

const UNSEEN: u8 = u8::MAX;

/// One answer per state of a puzzle of at most [`MAX_TABLE_CELLS`] cells.
#[derive(Clone, Debug)]
pub struct AnswerTable {
    objective: bool,
    /// Distance to the target set (or `UNSEEN`), or the fewest reachable pieces.
    value: Vec<u8>,
}

impl AnswerTable {
    /// Builds the table for `program`: memory is 2^cells bytes.
    pub fn build(program: &Program) -> Result<AnswerTable> {
        let masks = Masks::new(program)?;
        let cells = program.cells();
        crate::limits::require_cells(
            "table-cells",
            MAX_TABLE_CELLS,
            cells,
            format!("an answer table needs 2^{cells} bytes; for fewest pieces, give a start"),
        )?;
        let value = match program.goal() {
            Goal::Targets(targets) => {
                let targets: Vec<u64> = targets.iter().filter_map(|t| t.to_u64()).collect();
                distances(&masks, cells, &targets)?
            }
            Goal::FewestPieces => fewest_pieces(&masks, cells),
        };
        Ok(AnswerTable {
            objective: matches!(program.goal(), Goal::FewestPieces),
            value,
        })
    }

    /// The answer for `state`: fewest moves to a target (`None` when no
    /// target can be reached), or the fewest pieces that can remain.
    #[inline]
    pub fn answer(&self, state: u64) -> Option<u32> {
        match self.value[state as usize] {
            UNSEEN if !self.objective => None,
            v => Some(v as u32),
        }
    }
}

/// Backward breadth-first search from the targets: `p` precedes `t` by move
/// `m` when `p = t ^ flip[m]` and `m` is legal in `p`.
fn distances(masks: &Masks, cells: usize, targets: &[u64]) -> Result<Vec<u8>> {
    let mut dist = vec![UNSEEN; 1usize << cells];
    let mut frontier: Vec<u32> = Vec::new();
    for &t in targets {
        if dist[t as usize] == UNSEEN {
            dist[t as usize] = 0;
            frontier.push(t as u32);
        }
    }
    let mut depth: u8 = 0;
    while !frontier.is_empty() {
        if depth == UNSEEN - 1 {
            return Err(crate::limits::Limits::exceeded_bound(
                "table distance",
                "a distance",
                depth as u128 + 1,
                (UNSEEN - 1) as u128,
                "the table stores distances in one byte",
            ));
        }
        depth += 1;
        let mut next = Vec::new();
        for &t in &frontier {
            for m in 0..masks.len() {
                let p = t as u64 ^ masks.flip[m];
                if dist[p as usize] == UNSEEN && masks.legal(p, m) {
                    dist[p as usize] = depth;
                    next.push(p as u32);
                }
            }
        }
        frontier = next;
    }
    Ok(dist)
}

/// For every state, the fewest pieces among the states it can reach. States
/// are settled in increasing order of value: a state of piece count `v` starts
/// with value `v`, and settling a state with value `v` offers `v` to each of
/// its predecessors. Each state is settled once, at its final value.
fn fewest_pieces(masks: &Masks, cells: usize) -> Vec<u8> {
    let size = 1usize << cells;
    let mut value: Vec<u8> = (0..size).map(|s| s.count_ones() as u8).collect();
    let mut settled = vec![false; size];
    let mut stack: Vec<u32> = Vec::new();
    for v in 0..=cells as u32 {
        for s in same_weight(cells, v) {
            if settled[s as usize] || value[s as usize] as u32 != v {
                continue;
            }
            stack.push(s as u32);
            while let Some(t) = stack.pop() {
                if settled[t as usize] {
                    continue;
                }
                settled[t as usize] = true;
                for m in 0..masks.len() {
                    let p = t as u64 ^ masks.flip[m];
                    if !settled[p as usize] && masks.legal(p, m) && value[p as usize] as u32 > v {
                        value[p as usize] = v as u8;
                        stack.push(p as u32);
                    }
                }
            }
        }
    }
    value
}

/// Every `cells`-bit number with `weight` bits set, ascending (Gosper's hack).
fn same_weight(cells: usize, weight: u32) -> impl Iterator<Item = u64> {
    let limit = 1u64 << cells;
    let first = if weight == 0 { 0 } else { (1u64 << weight) - 1 };
    let mut next = Some(first).filter(|&f| f < limit);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current == 0 {
            None
        } else {
            let low = current & current.wrapping_neg();
            let ripple = current + low;
            let ones = ((current ^ ripple) >> 2) / low;
            Some(ripple | ones).filter(|&n| n < limit)
        };
        Some(current)
    })
}

/// The bytes an answer table takes while it is built: a byte a state for the
/// answers, and as much again for the states settled and the frontier.
pub(crate) fn bytes(cells: usize) -> u128 {
    3 << cells
}

/// The cost of building the table: its bytes, and one look at every move of
/// every state.
pub(crate) fn cost(program: &Program) -> (u128, u128) {
    let cells = program.cells();
    (
        bytes(cells),
        (1u128 << cells) * program.moves().len() as u128,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_weight_lists_every_combination() {
        assert_eq!(same_weight(4, 2).count(), 6);
        assert_eq!(same_weight(4, 0).collect::<Vec<_>>(), vec![0]);
        assert_eq!(same_weight(4, 4).collect::<Vec<_>>(), vec![15]);
        assert!(same_weight(5, 3).all(|s| s.count_ones() == 3 && s < 32));
    }
}
