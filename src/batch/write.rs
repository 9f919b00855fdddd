//! Writing a case's answer in the judge's format: a count, a press matrix, or a move list filled from templates.

use crate::bits::Bits;
use crate::board::CellId;
use crate::error::{Error, Result};
use crate::outcome::Outcome;
use crate::program::{Goal, MoveKind, Program};
use crate::puzzle::{AnswerKind, BatchFormat, Field, Piece, Template};

/// Writes one answer, each line ending in `\n`.
pub(super) fn write_answer(
    out: &mut Vec<u8>,
    program: &Program,
    outcome: &Outcome,
    format: &BatchFormat,
) -> Result<()> {
    let solution = match outcome {
        Outcome::Unsolvable(_) => {
            out.extend_from_slice(format.impossible.as_bytes());
            out.push(b'\n');
            return Ok(());
        }
        Outcome::Solved(s) => s,
    };
    match format.answer {
        AnswerKind::Count => {
            let n = match program.goal() {
                Goal::FewestPieces => solution.end.count_ones(),
                Goal::Targets(_) => solution.length(),
            };
            out.extend_from_slice(n.to_string().as_bytes());
            out.push(b'\n');
        }
        AnswerKind::Presses => {
            let board = program.board();
            let symbols = &program.puzzle().symbols;
            let mut pressed = Bits::zeros(board.cells());
            for m in &solution.moves {
                let Some((MoveKind::Toggle, cells)) = program.move_cells(m) else {
                    return Err(Error::Usage(
                        "a press matrix needs toggle moves: use answer = \"moves\"".into(),
                    ));
                };
                if pressed.get(cells[0].0) {
                    return Err(Error::Usage(format!(
                        "two moves of the answer press {}: a press matrix cannot show them \
                         (use answer = \"moves\")",
                        board.label(cells[0])
                    )));
                }
                pressed.set(cells[0].0, true);
            }
            let mut line = String::new();
            for r in 0..board.rows() {
                line.clear();
                for c in 0..board.cols() {
                    if c > 0 && format.separated {
                        line.push(' ');
                    }
                    line.push(match board.cell_at(r, c) {
                        Some(cell) if pressed.get(cell.0) => symbols.on(),
                        Some(_) => symbols.off(),
                        None => symbols.gap(),
                    });
                }
                out.extend_from_slice(line.as_bytes());
                out.push(b'\n');
            }
        }
        AnswerKind::Moves if solution.chains.is_some() => {
            // The moves metric: one line per move, its piece's path.
            if format.move_line.is_some() {
                return Err(Error::Usage(
                    "a move template names the cells of one jump, but with the moves metric \
                     a move is a chain of jumps: drop `move`, or use answer = \"count\""
                        .into(),
                ));
            }
            let jumps = solution.moves.to_vec();
            for chain in solution.chains.iter().flat_map(|c| c.group(&jumps)) {
                out.extend_from_slice(crate::render::chain_path(program, chain).as_bytes());
                out.push(b'\n');
            }
        }
        AnswerKind::Moves => {
            for (step, m) in solution.moves.iter().enumerate() {
                let line = match &format.move_line {
                    Some(t) => fill(t, 0, step + 1, Some(m), program),
                    None => crate::program::notation::describe_move(program, m),
                };
                out.extend_from_slice(line.as_bytes());
                out.push(b'\n');
            }
        }
    }
    Ok(())
}

/// A template filled in for case `case`, step `step` and move `m`.
pub(super) fn fill(
    t: &Template,
    case: usize,
    step: usize,
    m: Option<usize>,
    program: &Program,
) -> String {
    let board = program.board();
    let cells: Vec<CellId> = m
        .and_then(|m| program.move_cells(m))
        .map(|(_, c)| c)
        .unwrap_or_default();
    let mut s = String::new();
    for piece in &t.0 {
        match piece {
            Piece::Text(text) => s.push_str(text),
            Piece::Field(Field::Case) => s.push_str(&case.to_string()),
            Piece::Field(Field::Step) => s.push_str(&step.to_string()),
            Piece::Field(Field::Name(i)) => {
                if let Some(&cell) = cells.get(*i) {
                    s.push_str(&board.label(cell));
                }
            }
            Piece::Field(Field::Row(i)) => {
                if let Some(&cell) = cells.get(*i) {
                    s.push_str(&(board.coord(cell)[0] + 1).to_string());
                }
            }
            Piece::Field(Field::Col(i)) => {
                if let Some(&cell) = cells.get(*i) {
                    s.push_str(&(board.coord(cell)[1] + 1).to_string());
                }
            }
        }
    }
    s
}
