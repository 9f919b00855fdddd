//! Lowers a validated puzzle's move rules to guarded XOR moves, read off the board graph.

use crate::board::{Board, CellId, Dir, Lattice};
use crate::error::Result;
use crate::program::{Move, MoveKind, Program};
use crate::puzzle::{Guard, MoveRule, Puzzle};

impl Puzzle {
    /// Compiles the puzzle under its own limits (its `[limits]` table and
    /// `--set` overrides): see [`Program::compile`].
    pub fn compile(&self) -> Result<Program> {
        Program::compile(self, &self.limits)
    }
}

/// Whether every rule is an unconditional toggle (the puzzle is linear over GF(2)).
pub fn is_linear(rules: &[MoveRule]) -> bool {
    rules.iter().all(|r| match r {
        MoveRule::Toggle { guard, .. }
        | MoveRule::Adjacent { guard, .. }
        | MoveRule::Press { guard, .. } => *guard == Guard::Always,
        MoveRule::Jump(_) => false,
    })
}

/// An upper bound on the cell entries a rule's listed moves hold.
pub fn entries(rule: &MoveRule, board: &Board) -> u128 {
    let cells = board.cells() as u128;
    match rule {
        MoveRule::Toggle { offsets, .. } => cells * offsets.len() as u128,
        MoveRule::Adjacent { .. } => match board.lattice() {
            Lattice::Graph(links) => links.iter().map(|l| l.len() as u128 + 1).sum(),
            _ => cells * 7,
        },
        MoveRule::Press { flips, .. } => flips.len() as u128,
        MoveRule::Jump(dirs) => cells * dirs.len() as u128 * 3,
    }
}

/// Lists every move of `puzzle`, in rule order. Toggles become masks,
/// unguarded unless declared with `when` (on a small torus, an offset that
/// lands on a cell already in the neighbourhood adds nothing: a neighbourhood
/// is a set). Jumps follow two graph edges with the same direction label,
/// from A over B into C, and need three distinct cells.
pub fn list_moves(puzzle: &Puzzle) -> Vec<Move> {
    let board = &puzzle.board;
    let n = board.cells();
    let mut moves = Vec::new();
    for rule in &puzzle.rules {
        match rule {
            MoveRule::Toggle { offsets, guard, .. } => {
                for cell in (0..n).map(CellId) {
                    let flip = offsets
                        .iter()
                        .filter_map(|&d| board.offset(cell, d))
                        .collect();
                    moves.push(toggle(cell, flip, *guard));
                }
            }
            MoveRule::Adjacent { closed, guard, .. } => {
                for cell in (0..n).map(CellId) {
                    let mut flip = board.adjacent(cell);
                    if *closed {
                        flip.push(cell);
                    }
                    moves.push(toggle(cell, flip, *guard));
                }
            }
            MoveRule::Press {
                cell, flips, guard, ..
            } => {
                moves.push(toggle(*cell, flips.clone(), *guard));
            }
            MoveRule::Jump(dirs) => {
                for cell in (0..n).map(CellId) {
                    moves.extend(dirs.iter().filter_map(|&d| jump(board, cell, d)));
                }
            }
        }
    }
    moves
}

fn toggle(cell: CellId, mut flip: Vec<CellId>, guard: Guard) -> Move {
    flip.sort_unstable();
    flip.dedup();
    let (need_on, need_off) = match guard {
        Guard::Always => (Vec::new(), Vec::new()),
        Guard::On => (vec![cell], Vec::new()),
        Guard::Off => (Vec::new(), vec![cell]),
    };
    Move {
        kind: MoveKind::Toggle,
        cells: vec![cell],
        need_on,
        need_off,
        flip,
    }
}

fn jump(board: &Board, from: CellId, dir: Dir) -> Option<Move> {
    let over = board.neighbour(from, dir)?;
    let to = board.neighbour(over, dir)?;
    if to == from {
        return None;
    }
    let sorted = |mut cells: Vec<CellId>| {
        cells.sort_unstable();
        cells
    };
    Some(Move {
        kind: MoveKind::Jump,
        cells: vec![from, over, to],
        need_on: sorted(vec![from, over]),
        need_off: vec![to],
        flip: sorted(vec![from, over, to]),
    })
}
