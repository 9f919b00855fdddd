//! The compiled puzzle: guarded XOR moves and a goal over a bitset state.
//!
//! A move is legal in state `s` when every cell of `need_on` is set and every
//! cell of `need_off` is clear; applying it toggles the cells of `flip`. Moves
//! are kept as short cell lists, so a program's size grows with its number of
//! moves, not with the square of its cells. Replay checks and the CLI apply
//! moves through [`Program::apply`]; the search engines apply the same masks
//! in their own word-wide form (one 64-bit word per state).

pub mod colours;
pub(crate) mod compile;
pub(crate) mod masks;
pub mod notation;
pub mod stencil;

use std::sync::{Arc, OnceLock};

use crate::bits::Bits;
use crate::board::{Board, CellId};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::puzzle::{GoalRule, Puzzle};
use stencil::GridStencil;

/// What kind of rule a move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    puzzle: Puzzle,
    cells: usize,
    linear: bool,
    stencil: Option<GridStencil>,
    /// `Err` when the moves are too many to list (the limit error to report).
    listable: std::result::Result<(), String>,
    moves: OnceLock<Vec<Move>>,
    goal: Goal,
}

/// A compiled puzzle: the puzzle it came from (board, symbols, rules) and
/// its moves as guarded XORs. Immutable and cheap to clone.
///
/// Moves are listed the first time they are asked for, so that an engine
/// that needs no move lists (light chasing reads the stencil) never pays for
/// them. A puzzle whose move lists would pass the `move-entries` limit still
/// compiles when it has a stencil; [`Program::moves`] is then empty and
/// [`Program::is_listed`] false, and the planner only picks engines that
/// need no lists.
#[derive(Clone, Debug)]
pub struct Program {
    inner: Arc<Inner>,
}

impl Program {
    /// Compiles `puzzle` under `limits`: the goal's masks, the light-chasing
    /// stencil when there is one, and (on first use) the move lists. Refused
    /// when the moves would pass `move-entries` and no stencil stands in for them.
    pub fn compile(puzzle: &Puzzle, limits: &Limits) -> Result<Program> {
        if puzzle.colours() > 2 {
            return Err(Error::Usage(format!(
                "{} has {} colours: this works on puzzles of two colours; {}",
                puzzle.name,
                puzzle.colours(),
                crate::program::colours::WHERE_COLOURS_WORK
            )));
        }
        let cells = puzzle.board.cells();
        let stencil = GridStencil::from_puzzle(puzzle);
        let entries: u128 = puzzle
            .rules
            .iter()
            .map(|r| compile::entries(r, &puzzle.board))
            .sum();
        let listable = limits
            .check(
                "move-entries",
                "an upper bound on the listed moves' size (the cells each move flips, summed)",
                entries,
                "use a smaller board, or toggles that flip fewer cells",
            )
            .map_err(|e| e.to_string());
        if let (Err(e), None) = (&listable, &stencil) {
            return Err(Error::Usage(e.clone()));
        }
        let goal = match &puzzle.goal {
            GoalRule::Targets(targets) => {
                Goal::Targets(targets.iter().map(|t| t.1.clone()).collect())
            }
            GoalRule::FewestPieces => Goal::FewestPieces,
            GoalRule::Colours(_) => unreachable!("refused above: more than two colours"),
        };
        Ok(Program {
            inner: Arc::new(Inner {
                puzzle: puzzle.clone(),
                cells,
                linear: compile::is_linear(&puzzle.rules),
                stencil,
                listable,
                moves: OnceLock::new(),
                goal,
            }),
        })
    }

    /// The same program with every move's guard dropped: the *relaxation*,
    /// whose parity certificates hold for the program itself.
    pub fn relaxed(&self) -> Program {
        let moves: Vec<Move> = self
            .moves()
            .iter()
            .map(|m| Move {
                need_on: Vec::new(),
                need_off: Vec::new(),
                ..m.clone()
            })
            .collect();
        let inner = &self.inner;
        Program {
            inner: Arc::new(Inner {
                puzzle: inner.puzzle.clone(),
                cells: inner.cells,
                linear: true,
                stencil: None,
                listable: Ok(()),
                moves: OnceLock::from(moves),
                goal: inner.goal.clone(),
            }),
        }
    }

    /// The puzzle this program was compiled from: board, symbols, rules,
    /// start and batch format.
    pub fn puzzle(&self) -> &Puzzle {
        &self.inner.puzzle
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.inner.puzzle.board
    }

    /// The light-chasing stencil: one unguarded toggle rule on a full,
    /// non-wrapping rectangle that chasing applies to.
    pub fn stencil(&self) -> Option<&GridStencil> {
        self.inner.stencil.as_ref()
    }

    /// Whether the moves can be listed (within `move-entries`).
    pub fn is_listed(&self) -> bool {
        self.inner.listable.is_ok()
    }

    /// Why the moves cannot be listed, when they cannot.
    pub fn unlisted_reason(&self) -> Option<&str> {
        self.inner.listable.as_ref().err().map(String::as_str)
    }

    /// The number of moves: one per cell for a stencil, without listing them.
    pub fn move_count(&self) -> usize {
        match &self.inner.stencil {
            Some(_) => self.cells(),
            None => self.moves().len(),
        }
    }

    /// The number of cells (bits of a state).
    pub fn cells(&self) -> usize {
        self.inner.cells
    }

    /// The moves, indexed as solutions refer to them, in rule order: a
    /// toggle rule gives one move per cell (move `i` of a stencil presses
    /// cell `i`), even a move that flips nothing. Empty when the moves are
    /// too many to list ([`Program::is_listed`]).
    pub fn moves(&self) -> &[Move] {
        self.inner.moves.get_or_init(|| {
            if self.is_listed() {
                compile::list_moves(&self.inner.puzzle)
            } else {
                Vec::new()
            }
        })
    }

    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.inner.goal
    }

    /// Whether every rule is an unconditional toggle, so that the puzzle is
    /// linear over GF(2).
    pub fn is_linear(&self) -> bool {
        self.inner.linear
    }

    /// The kind of move `index` and its cells (the pressed cell; or from,
    /// over, to), whether or not the moves are listed. `None` past the last move.
    pub fn move_cells(&self, index: usize) -> Option<(MoveKind, Vec<CellId>)> {
        // A stencil's move i presses cell i: no need to list the moves.
        if self.stencil().is_some() {
            return (index < self.cells()).then(|| (MoveKind::Toggle, vec![CellId(index)]));
        }
        let m = self.moves().get(index)?;
        Some((m.kind, m.cells.clone()))
    }

    /// The moves that flip nothing, and each move that repeats an earlier
    /// one (with the earlier one's index): they count as columns of the move
    /// matrix, so they add to its nullity, but no one would press them.
    pub fn idle_moves(&self) -> (Vec<usize>, Vec<(usize, usize)>) {
        let mut first = rustc_hash::FxHashMap::default();
        let (mut null, mut repeats) = (Vec::new(), Vec::new());
        for (i, m) in self.moves().iter().enumerate() {
            if m.flip.is_empty() {
                null.push(i);
            } else if let Some(&j) = first.get(&(&m.flip, &m.need_on, &m.need_off)) {
                repeats.push((i, j));
            } else {
                first.insert((&m.flip, &m.need_on, &m.need_off), i);
            }
        }
        (null, repeats)
    }

    /// Whether move `index` is legal in `state`.
    pub fn is_legal(&self, state: &Bits, index: usize) -> bool {
        self.moves()[index].is_legal(state)
    }

    /// Applies move `index` to `state`, or says why it cannot be applied.
    pub fn apply(&self, state: &Bits, index: usize) -> std::result::Result<Bits, ReplayError> {
        self.apply_step(state, index, 1)
    }

    /// Applies move `index` to `state` in place, or says why it cannot be
    /// applied (leaving `state` unchanged).
    pub fn apply_mut(
        &self,
        state: &mut Bits,
        index: usize,
    ) -> std::result::Result<(), ReplayError> {
        self.apply_in_place(state, index, 1)
    }

    /// Applies `moves` in order from `start`, returning the final state. A
    /// stencil's presses are unguarded and commute, so they are applied as
    /// one press set, row by row ([`GridStencil::apply`]).
    pub fn replay<I>(&self, start: &Bits, moves: I) -> std::result::Result<Bits, ReplayError>
    where
        I: IntoIterator,
        I::Item: std::borrow::Borrow<usize>,
    {
        let moves = moves
            .into_iter()
            .map(|m| *std::borrow::Borrow::<usize>::borrow(&m));
        if let Some(stencil) = self.stencil() {
            let mut presses = Bits::zeros(self.cells());
            for (i, index) in moves.enumerate() {
                if index >= self.cells() {
                    return Err(ReplayError::NoSuchMove { step: i + 1, index });
                }
                presses.toggle(index);
            }
            let mut state = start.clone();
            stencil.apply(&mut state, &presses);
            return Ok(state);
        }
        let mut state = start.clone();
        for (i, index) in moves.enumerate() {
            self.apply_in_place(&mut state, index, i + 1)?;
        }
        Ok(state)
    }

    /// Every state along `moves` from `start`: the start first, then one per move.
    pub fn trace<I>(&self, start: &Bits, moves: I) -> std::result::Result<Vec<Bits>, ReplayError>
    where
        I: IntoIterator,
        I::Item: std::borrow::Borrow<usize>,
    {
        let mut states = vec![start.clone()];
        for (i, index) in moves
            .into_iter()
            .map(|m| *std::borrow::Borrow::<usize>::borrow(&m))
            .enumerate()
        {
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

    fn apply_step(
        &self,
        state: &Bits,
        index: usize,
        step: usize,
    ) -> std::result::Result<Bits, ReplayError> {
        let mut next = state.clone();
        self.apply_in_place(&mut next, index, step)?;
        Ok(next)
    }

    fn apply_in_place(
        &self,
        state: &mut Bits,
        index: usize,
        step: usize,
    ) -> std::result::Result<(), ReplayError> {
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
