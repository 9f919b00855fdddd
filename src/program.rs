//! The compiled puzzle: guarded XOR moves and a goal over a bitset state.
//!
//! A move is legal in state `s` when `s ⊇ need_on` and `s ∩ need_off = ∅`;
//! applying it is `s ^= flip`. This is the one code path that applies moves:
//! solvers, replay checks and the CLI all go through [`Program::apply`].

use std::sync::Arc;

use crate::bits::Bits;
use crate::board::CellId;

/// What kind of rule a move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A press: `cells` is the pressed cell.
    Toggle,
    /// A jump: `cells` are from, over, to.
    Jump,
}

/// One compiled move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Toggle or jump.
    pub kind: MoveKind,
    /// The cells it involves, in order: the pressed cell; or from, over, to.
    pub cells: Vec<CellId>,
    /// Cells that must be set for the move to be legal.
    pub need_on: Bits,
    /// Cells that must be clear for the move to be legal.
    pub need_off: Bits,
    /// Cells the move flips.
    pub flip: Bits,
}

impl Move {
    /// Whether the move has no guard (a plain toggle).
    pub fn is_unguarded(&self) -> bool {
        self.need_on.count_ones() == 0 && self.need_off.count_ones() == 0
    }
}

/// What counts as solved, as masks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Reach any of these states.
    Targets(Vec<Bits>),
    /// Leave as few set cells as possible.
    FewestPieces,
}

/// Why a replayed move sequence failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A move index that the program does not have.
    #[error("step {step}: there is no move {index}")]
    NoSuchMove {
        /// 1-based step.
        step: usize,
        /// The move index given.
        index: usize,
    },
    /// A move whose guard does not hold.
    #[error("step {step}: move {index} is not legal here")]
    Illegal {
        /// 1-based step.
        step: usize,
        /// The move index given.
        index: usize,
    },
}

#[derive(Debug)]
struct Inner {
    cells: usize,
    moves: Vec<Move>,
    goal: Goal,
}

/// A compiled puzzle: immutable and cheap to clone.
#[derive(Clone, Debug)]
pub struct Program {
    inner: Arc<Inner>,
}

impl Program {
    /// A program over `cells` cells. Moves with an empty flip are dropped, and
    /// so are exact repeats of an earlier move.
    pub fn new(cells: usize, moves: Vec<Move>, goal: Goal) -> Program {
        let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
        for m in moves {
            let repeat = kept
                .iter()
                .any(|k| k.flip == m.flip && k.need_on == m.need_on && k.need_off == m.need_off);
            if m.flip.count_ones() > 0 && !repeat {
                kept.push(m);
            }
        }
        Program {
            inner: Arc::new(Inner {
                cells,
                moves: kept,
                goal,
            }),
        }
    }

    /// The number of cells (bits of a state).
    pub fn cells(&self) -> usize {
        self.inner.cells
    }

    /// The moves, indexed as solutions refer to them.
    pub fn moves(&self) -> &[Move] {
        &self.inner.moves
    }

    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.inner.goal
    }

    /// Whether every move is an unconditional toggle, so that the puzzle is
    /// linear over GF(2).
    pub fn is_linear(&self) -> bool {
        self.moves().iter().all(Move::is_unguarded)
    }

    /// Whether move `index` is legal in `state`.
    pub fn is_legal(&self, state: &Bits, index: usize) -> bool {
        let m = &self.moves()[index];
        m.need_on.is_subset(state) && m.need_off.is_disjoint(state)
    }

    /// Applies move `index` to `state`, or says why it cannot be applied.
    pub fn apply(&self, state: &Bits, index: usize) -> Result<Bits, ReplayError> {
        self.apply_step(state, index, 1)
    }

    /// Applies `moves` in order from `start`, returning the final state.
    pub fn replay(&self, start: &Bits, moves: &[usize]) -> Result<Bits, ReplayError> {
        let mut state = start.clone();
        for (i, &index) in moves.iter().enumerate() {
            state = self.apply_step(&state, index, i + 1)?;
        }
        Ok(state)
    }

    /// Whether `state` is one of the goal's targets (always false for an objective).
    pub fn is_target(&self, state: &Bits) -> bool {
        match self.goal() {
            Goal::Targets(targets) => targets.contains(state),
            Goal::FewestPieces => false,
        }
    }

    fn apply_step(&self, state: &Bits, index: usize, step: usize) -> Result<Bits, ReplayError> {
        if index >= self.moves().len() {
            return Err(ReplayError::NoSuchMove { step, index });
        }
        if !self.is_legal(state, index) {
            return Err(ReplayError::Illegal { step, index });
        }
        let mut next = state.clone();
        next.xor_assign(&self.moves()[index].flip);
        Ok(next)
    }
}
