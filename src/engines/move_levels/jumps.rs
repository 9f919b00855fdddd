//! The jumps of a program by the cells a peg leaves and lands on, and the chains of jumps by one peg that make a move.

use crate::error::{Error, Result};
use crate::program::masks::Masks;
use crate::program::{MoveKind, Program};

/// The jumps of a program, by the cell a peg leaves and the cell it lands on.
pub(super) struct Jumps {
    pub(super) masks: Masks,
    /// Per jump: the cell it leaves and the cell it lands on.
    pub(super) from: Vec<usize>,
    pub(super) to: Vec<usize>,
    /// Per jump: the cell it leaves, the cell it jumps over and the cell it lands on.
    pub(super) lines: Vec<[usize; 3]>,
    /// Per cell: the jumps leaving it, with their landing cell.
    pub(super) leaving: Vec<Vec<(usize, usize)>>,
    /// Per cell: the jumps landing on it, with the cell they leave.
    pub(super) landing: Vec<Vec<(usize, usize)>>,
}

impl Jumps {
    pub(super) fn new(program: &Program) -> Result<Jumps> {
        let masks = Masks::new(program)?;
        let cells = program.cells();
        let mut leaving = vec![Vec::new(); cells];
        let mut landing = vec![Vec::new(); cells];
        let (mut from_cells, mut to_cells, mut lines) = (Vec::new(), Vec::new(), Vec::new());
        for (j, m) in program.moves().iter().enumerate() {
            let from_over_to = m.kind == MoveKind::Jump && m.cells.len() == 3;
            if !from_over_to {
                return Err(Error::Usage(
                    "the moves metric counts chains of jumps by one piece; this puzzle has \
                     moves that are not jumps"
                        .into(),
                ));
            }
            let (from, to) = (m.cells[0].0, m.cells[2].0);
            lines.push([from, m.cells[1].0, to]);
            leaving[from].push((j, to));
            landing[to].push((j, from));
            from_cells.push(from);
            to_cells.push(to);
        }
        Ok(Jumps {
            masks,
            from: from_cells,
            to: to_cells,
            lines,
            leaving,
            landing,
        })
    }

    /// A solution in jumps from `start` cut into moves (each run of jumps by
    /// one peg), with the position it ends on.
    pub(super) fn chains(&self, start: u64, solution: &[usize]) -> (Vec<Vec<usize>>, u64) {
        let mut moves: Vec<Vec<usize>> = Vec::new();
        let mut at = None;
        let mut state = start;
        for &j in solution {
            let from = self.from[j];
            match moves.last_mut() {
                Some(chain) if at == Some(from) => chain.push(j),
                _ => moves.push(vec![j]),
            }
            at = Some(self.to[j]);
            state ^= self.masks.flip[j];
        }
        (moves, state)
    }

    /// Calls `found(position, chain)` for every position one move after
    /// `state` (every chain of jumps by one peg, and every prefix of one),
    /// until `found` returns false.
    pub(super) fn forward(&self, state: u64, found: &mut dyn FnMut(u64, &[usize]) -> bool) -> bool {
        let mut chain = Vec::new();
        let mut pegs = state;
        while pegs != 0 {
            let cell = pegs.trailing_zeros() as usize;
            pegs &= pegs - 1;
            if !self.chain_from(state, cell, &mut chain, found) {
                return false;
            }
        }
        true
    }

    pub(super) fn chain_from(
        &self,
        state: u64,
        cell: usize,
        chain: &mut Vec<usize>,
        found: &mut dyn FnMut(u64, &[usize]) -> bool,
    ) -> bool {
        for &(j, to) in &self.leaving[cell] {
            if self.masks.legal(state, j) {
                let next = state ^ self.masks.flip[j];
                chain.push(j);
                let go_on = found(next, chain) && self.chain_from(next, to, chain, found);
                chain.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    /// Calls `found(position, chain)` for every position one move before
    /// `state`, with the chain that leads from it to `state` given last
    /// jump first (reverse it for the order played), until `found` returns
    /// false.
    pub(super) fn backward(
        &self,
        state: u64,
        found: &mut dyn FnMut(u64, &[usize]) -> bool,
    ) -> bool {
        let mut chain = Vec::new();
        let mut pegs = state;
        while pegs != 0 {
            let cell = pegs.trailing_zeros() as usize;
            pegs &= pegs - 1;
            if !self.chain_into(state, cell, &mut chain, found) {
                return false;
            }
        }
        true
    }

    /// Reversed jumps by the peg on `cell`; `chain` holds the jumps found so
    /// far, last played first.
    pub(super) fn chain_into(
        &self,
        state: u64,
        cell: usize,
        chain: &mut Vec<usize>,
        found: &mut dyn FnMut(u64, &[usize]) -> bool,
    ) -> bool {
        for &(j, from) in &self.landing[cell] {
            let before = state ^ self.masks.flip[j];
            if self.masks.legal(before, j) {
                chain.push(j);
                let go_on = found(before, chain) && self.chain_into(before, from, chain, found);
                chain.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}
