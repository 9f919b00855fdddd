//! Compiles a validated puzzle into a [`Program`]: move rules read off the board graph as masks.

use crate::board::{Board, CellId, Dir};
use crate::program::{Goal, Move, MoveKind, Program};
use crate::puzzle::{GoalRule, Guard, MoveRule, Puzzle};

/// Compiles `puzzle`. Toggles become masks, unguarded unless declared with
/// `when` (on a small torus, an offset that lands on a cell already in the
/// neighbourhood adds nothing: a neighbourhood is a set). Jumps follow two
/// graph edges with the same direction label, from A over B into C, and need
/// three distinct cells.
pub fn compile(puzzle: &Puzzle) -> Program {
    let board = &puzzle.board;
    let n = board.cells();
    let mut moves = Vec::new();
    for rule in &puzzle.rules {
        match rule {
            MoveRule::Toggle { offsets, guard } => {
                for cell in (0..n).map(CellId) {
                    let flip = offsets
                        .iter()
                        .filter_map(|&d| board.offset(cell, d))
                        .collect();
                    moves.push(toggle(cell, flip, *guard));
                }
            }
            MoveRule::Adjacent { closed, guard } => {
                for cell in (0..n).map(CellId) {
                    let mut flip = board.adjacent(cell);
                    if *closed {
                        flip.push(cell);
                    }
                    moves.push(toggle(cell, flip, *guard));
                }
            }
            MoveRule::Press { cell, flips, guard } => {
                moves.push(toggle(*cell, flips.clone(), *guard));
            }
            MoveRule::Jump(dirs) => {
                for cell in (0..n).map(CellId) {
                    moves.extend(dirs.iter().filter_map(|&d| jump(board, cell, d)));
                }
            }
        }
    }
    let goal = match &puzzle.goal {
        GoalRule::Targets(targets) => Goal::Targets(targets.iter().map(|t| t.1.clone()).collect()),
        GoalRule::FewestPieces => Goal::FewestPieces,
    };
    let grid = (board.is_rectangular() && *board.lattice() == crate::board::Lattice::Square)
        .then(|| [board.rows(), board.cols()]);
    Program::new(n, moves, goal, grid)
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
