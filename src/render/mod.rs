//! Solutions and proofs for people: moves in words, board pictures, whole answers as text and SVG.
//!
//! The answer for programs is [`crate::Answer`], written as JSON.

mod svg;
mod text;

pub use svg::{CELL, SVG_CELLS, SVG_PANELS, layout, svg};
pub use text::{text, write_text};

use crate::bits::Bits;
use crate::program::{Goal, MoveKind, Program};
use crate::puzzle::Puzzle;
use crate::solve::Outcome;

// Past this many cells times moves, text output shows the pressed cells and
// the final board instead of every intermediate board.
pub use crate::answer::STEP_BOARDS_LIMIT;

/// The character marking a cell of a certificate or a pressed cell in pictures.
pub(crate) const MARK: char = '#';

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

/// The answer line that `batch` prints for this outcome: the number of moves,
/// the puzzle's impossible word, or for fewest pieces the pieces left.
pub fn answer_line(program: &Program, outcome: &Outcome) -> String {
    let puzzle = program.puzzle();
    match (outcome, program.goal()) {
        (Outcome::Unsolvable(_), _) => puzzle.batch.impossible.clone(),
        (Outcome::Solved(s), Goal::FewestPieces) => s.end.count_ones().to_string(),
        (Outcome::Solved(s), Goal::Targets(_)) => match &s.chains {
            Some(chains) => chains.lengths.len().to_string(),
            None => s.moves.len().to_string(),
        },
    }
}

/// A picture of the board with the cells of `marked` drawn as `#`.
pub fn marked_picture(puzzle: &Puzzle, marked: &Bits) -> String {
    let s = &puzzle.symbols;
    let mut out = crate::io::board::picture(marked, &puzzle.board, MARK, s.off(), s.gap(), "\n");
    out.push('\n');
    out
}

/// The cells pressed or moved from by a list of moves, as a set (a cell pressed
/// twice cancels out).
pub fn pressed_cells<I>(program: &Program, moves: I) -> Bits
where
    I: IntoIterator,
    I::Item: std::borrow::Borrow<usize>,
{
    let mut cells = Bits::zeros(program.cells());
    let moves = moves
        .into_iter()
        .map(|m| *std::borrow::Borrow::<usize>::borrow(&m));
    if program.stencil().is_some() {
        // A stencil's move i presses cell i.
        for m in moves {
            cells.toggle(m);
        }
        return cells;
    }
    for m in moves {
        if let Some((_, moved)) = program.move_cells(m) {
            let c = moved[0].0;
            cells.set(c, !cells.get(c));
        }
    }
    cells
}
