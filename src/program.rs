//! The compiled puzzle: guarded XOR moves and a goal over a bitset state.
//!
//! A move is legal in state `s` when every cell of `need_on` is set and every
//! cell of `need_off` is clear; applying it toggles the cells of `flip`. Moves
//! are kept as short cell lists, so a program's size grows with its number of
//! moves, not with the square of its cells. This is the one code path that applies moves:
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
    /// Cells that must be set for the move to be legal, ascending.
    pub need_on: Vec<CellId>,
    /// Cells that must be clear for the move to be legal, ascending.
    pub need_off: Vec<CellId>,
    /// Cells the move toggles, ascending and distinct.
    pub flip: Vec<CellId>,
}

impl Move {
    /// Whether the move has no guard (a plain toggle).
    pub fn is_unguarded(&self) -> bool {
        self.need_on.is_empty() && self.need_off.is_empty()
    }

    /// Whether the move is legal in `state`.
    pub fn is_legal(&self, state: &Bits) -> bool {
        self.need_on.iter().all(|c| state.get(c.0)) && !self.need_off.iter().any(|c| state.get(c.0))
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
    grid: Option<[usize; 2]>,
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
    /// so are exact repeats of an earlier move. `grid` is `[rows, cols]` when
    /// the cells are a full rectangle numbered `row * cols + col`.
    pub fn new(cells: usize, moves: Vec<Move>, goal: Goal, grid: Option<[usize; 2]>) -> Program {
        let keep: Vec<bool> = {
            let mut seen = rustc_hash::FxHashSet::default();
            seen.reserve(moves.len());
            moves
                .iter()
                .map(|m| {
                    !m.flip.is_empty()
                        && seen.insert((&m.flip[..], &m.need_on[..], &m.need_off[..]))
                })
                .collect()
        };
        let kept: Vec<Move> = moves
            .into_iter()
            .zip(keep)
            .filter_map(|(m, k)| k.then_some(m))
            .collect();
        Program {
            inner: Arc::new(Inner {
                cells,
                grid,
                moves: kept,
                goal,
            }),
        }
    }

    /// The number of cells (bits of a state).
    pub fn cells(&self) -> usize {
        self.inner.cells
    }

    /// `[rows, cols]` when the cells are a full rectangle numbered `row * cols + col`.
    pub fn grid(&self) -> Option<[usize; 2]> {
        self.inner.grid
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
        self.moves()[index].is_legal(state)
    }

    /// Applies move `index` to `state`, or says why it cannot be applied.
    pub fn apply(&self, state: &Bits, index: usize) -> Result<Bits, ReplayError> {
        self.apply_step(state, index, 1)
    }

    /// Applies move `index` to `state` in place, or says why it cannot be
    /// applied (leaving `state` unchanged).
    pub fn apply_mut(&self, state: &mut Bits, index: usize) -> Result<(), ReplayError> {
        self.apply_in_place(state, index, 1)
    }

    /// Applies `moves` in order from `start`, returning the final state.
    pub fn replay(&self, start: &Bits, moves: &[usize]) -> Result<Bits, ReplayError> {
        let mut state = start.clone();
        for (i, &index) in moves.iter().enumerate() {
            self.apply_in_place(&mut state, index, i + 1)?;
        }
        Ok(state)
    }

    /// Every state along `moves` from `start`: the start first, then one per move.
    pub fn trace(&self, start: &Bits, moves: &[usize]) -> Result<Vec<Bits>, ReplayError> {
        let mut states = vec![start.clone()];
        for (i, &index) in moves.iter().enumerate() {
            let next = self.apply_step(&states[i], index, i + 1)?;
            states.push(next);
        }
        Ok(states)
    }

    /// Whether `state` is one of the goal's targets (always false for an objective).
    pub fn is_target(&self, state: &Bits) -> bool {
        match self.goal() {
            Goal::Targets(targets) => targets.contains(state),
            Goal::FewestPieces => false,
        }
    }

    fn apply_step(&self, state: &Bits, index: usize, step: usize) -> Result<Bits, ReplayError> {
        let mut next = state.clone();
        self.apply_in_place(&mut next, index, step)?;
        Ok(next)
    }

    fn apply_in_place(
        &self,
        state: &mut Bits,
        index: usize,
        step: usize,
    ) -> Result<(), ReplayError> {
        if index >= self.moves().len() {
            return Err(ReplayError::NoSuchMove { step, index });
        }
        if !self.is_legal(state, index) {
            return Err(ReplayError::Illegal { step, index });
        }
        for c in &self.moves()[index].flip {
            state.toggle(c.0);
        }
        Ok(())
    }
}
