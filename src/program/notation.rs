//! Move notation: how a compiled move is written for people (`press b3`, `d2-d4`, a chain's path).

use crate::program::{MoveKind, Program};

/// A move in words: `press [1, 2]`, or `jump [0, 3] over [0, 4] to [0, 5]`.
/// On a board with cell names: `press b3`, and jumps in peg-solitaire
/// notation, from and to: `d2-d4`.
pub fn describe_move(program: &Program, index: usize) -> String {
    let Some((kind, cells)) = program.move_cells(index) else {
        return format!("move {index} (no such move)");
    };
    let board = program.board();
    let at = |i: usize| board.label(cells[i]);
    match kind {
        MoveKind::Toggle => format!("press {}", at(0)),
        MoveKind::Jump if board.has_names() => format!("{}-{}", at(0), at(2)),
        MoveKind::Jump => format!("jump {} over {} to {}", at(0), at(1), at(2)),
    }
}

/// A move of the moves metric, a chain of jumps by one piece, as its
/// piece's path: the cell it leaves, then each cell it lands on
/// (`c2-c4-c6`).
pub fn chain_path(program: &Program, chain: &[usize]) -> String {
    let board = program.board();
    let mut path: Vec<String> = Vec::new();
    for &j in chain {
        if let Some((_, cells)) = program.move_cells(j) {
            if path.is_empty() {
                path.push(board.label(cells[0]));
            }
            path.push(board.label(cells[cells.len() - 1]));
        }
    }
    path.join("-")
}

/// The name of a move kind in an answer.
pub fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Toggle => "toggle",
        MoveKind::Jump => "jump",
    }
}
