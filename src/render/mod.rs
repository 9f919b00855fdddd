//! Answers written out: moves in words, board pictures, whole answers as text, SVG and JSON.
//!
//! The answer for programs is [`crate::Answer`], which [`write_json`] writes after
//! the checker of `verify` has read it back.

mod colours;
mod json;
mod svg;
mod text;

pub use colours::{colour_answer_line, colour_svg, colour_text, palette, write_colour_text};
pub use json::{checked_answer, write_json};
pub use svg::{CELL, SVG_CELLS, SVG_PANELS, layout, svg};
pub use text::{text, write_text};

use crate::bits::Bits;
use crate::outcome::Outcome;
use crate::program::{Goal, Program};
use crate::puzzle::Puzzle;

// Past this many cells times moves, text output shows the pressed cells and
// the final board instead of every intermediate board.
pub use crate::answer::STEP_BOARDS_LIMIT;

/// The character marking a cell of a certificate or a pressed cell in pictures.
pub(crate) const MARK: char = '#';

pub use crate::program::notation::{chain_path, describe_move};

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
