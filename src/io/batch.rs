//! Judge-format batch input to judge-format output: many boards, one answer line each.

use crate::bits::Bits;
use crate::error::{Diagnostic, Error, Result};
use crate::io::board::{read_row, tokens};
use crate::program::{Goal, Program};
use crate::puzzle::Puzzle;
use crate::solve::search::MAX_SEARCH_CELLS;
use crate::solve::table::{AnswerTable, MAX_TABLE_CELLS};
use crate::solve::{Limits, Outcome, solve};
use crate::spec::Header;

/// The output of a batch run.
#[derive(Debug)]
pub struct BatchOutput {
    /// Exactly what the judge expects: one answer per line, each ending in `\n`.
    pub text: Vec<u8>,
    /// What was accepted but dropped on the way, in input order.
    pub warnings: Vec<Diagnostic>,
}

/// Reads the boards of `input` in the puzzle's batch format and answers each:
/// the fewest moves (or the puzzle's `impossible` word), or for the
/// fewest-pieces objective the fewest pieces that can remain.
///
/// Many boards of a small puzzle are answered from an [`AnswerTable`]; others
/// by a search each.
///
/// ```
/// let puzzle = pegflip::Puzzle::from_file("puzzles/pebble12.toml").unwrap();
/// let out = pegflip::batch(&puzzle, &puzzle.compile(), b"2\n---oo-------\noooooooooooo\n", "<stdin>",
///     &Default::default()).unwrap();
/// assert_eq!(out.text, b"1\n12\n");
/// ```
pub fn batch(
    puzzle: &Puzzle,
    program: &Program,
    input: &[u8],
    file: &str,
    limits: &Limits,
) -> Result<BatchOutput> {
    let source = std::str::from_utf8(input).map_err(|e| {
        let text = String::from_utf8_lossy(input);
        Error::input(file, &text, e.valid_up_to(), "input is not valid UTF-8")
    })?;
    if program.cells() > MAX_SEARCH_CELLS {
        // The search solvers say why, with the limit.
        crate::solve::search::Masks::new(program)?;
    }
    let (boards, warnings) = read_boards(puzzle, source, file)?;
    let objective = matches!(program.goal(), Goal::FewestPieces);
    let impossible = puzzle.batch.impossible.as_bytes();
    let mut text = Vec::with_capacity(boards.len() * 3);
    if use_table(program.cells(), boards.len()) {
        let table = AnswerTable::build(program)?;
        let numbers: Vec<String> = (0..256).map(|n| n.to_string()).collect();
        for &b in &boards {
            match table.answer(b) {
                Some(v) => text.extend_from_slice(numbers[v as usize].as_bytes()),
                None => text.extend_from_slice(impossible),
            }
            text.push(b'\n');
        }
    } else {
        for &b in &boards {
            let start = Bits::from_u64(program.cells(), b);
            match solve(program, &start, limits)? {
                Outcome::Solved(s) if objective => {
                    text.extend_from_slice(s.end.count_ones().to_string().as_bytes())
                }
                Outcome::Solved(s) => text.extend_from_slice(s.moves.len().to_string().as_bytes()),
                Outcome::Unsolvable(_) => text.extend_from_slice(impossible),
            }
            text.push(b'\n');
        }
    }
    Ok(BatchOutput { text, warnings })
}

/// Whether an answer table (2^cells states) is cheaper than a search per board.
fn use_table(cells: usize, boards: usize) -> bool {
    cells <= MAX_TABLE_CELLS && (cells <= 20 || (boards as u64) << 12 >= 1u64 << cells)
}

/// Reads every board of the input as a one-word state.
fn read_boards(puzzle: &Puzzle, source: &str, file: &str) -> Result<(Vec<u64>, Vec<Diagnostic>)> {
    let board = &puzzle.board;
    let (rows, cols) = (board.rows(), board.cols());
    let fast_rows = board.is_rectangular() && board.cells() <= 64;
    let mut warnings = Vec::new();
    let mut toks = tokens(source);
    let expected = match puzzle.batch.header {
        Header::None => None,
        Header::Count => {
            let Some((at, tok)) = toks.next() else {
                return Err(Error::input(
                    file,
                    source,
                    source.len(),
                    "empty input: expected the number of boards",
                ));
            };
            let n: usize = tok.parse().map_err(|_| {
                Error::input(
                    file,
                    source,
                    at,
                    format!("expected the number of boards, found '{tok}'"),
                )
            })?;
            Some(n)
        }
    };
    let mut boards = Vec::with_capacity(
        expected
            .unwrap_or(source.len() / (board.cells() + 1))
            .min(1 << 24),
    );
    loop {
        if expected == Some(boards.len()) {
            if let Some((at, _)) = toks.next() {
                warnings.push(Diagnostic::warning(
                    file,
                    source,
                    at,
                    format!(
                        "ignored input after the last of the {} boards",
                        boards.len()
                    ),
                ));
            }
            break;
        }
        let mut state = 0u64;
        for r in 0..rows {
            let Some((at, tok)) = toks.next() else {
                if r == 0 && expected.is_none() {
                    return Ok((boards, warnings));
                }
                let k = boards.len() + 1;
                let message = match expected {
                    Some(n) if r == 0 => {
                        let boards = if k == 2 { "board" } else { "boards" };
                        format!(
                            "board {k} of {n} is missing: the input ends after {} {boards}",
                            k - 1
                        )
                    }
                    _ => format!(
                        "board {k} is incomplete: found {r} of its {rows} rows, then the end of input"
                    ),
                };
                // Point just past the last token, on the line where input stopped.
                return Err(Error::input(file, source, source.trim_end().len(), message));
            };
            // Fast path: a full-width row of a rectangular board, on and off symbols only.
            if fast_rows
                && tok.len() == cols
                && let Some(mask) = puzzle.symbols.row_mask(tok.as_bytes())
            {
                state |= mask << (r * cols);
                continue;
            }
            match read_row(tok, r, board, &puzzle.symbols, |c| state |= 1 << c) {
                Ok(None) => {}
                Ok(Some(w)) => {
                    warnings.push(Diagnostic::warning(file, source, at + w.at, w.message))
                }
                Err(e) => return Err(Error::input(file, source, at + e.at, e.message)),
            }
        }
        boards.push(state);
    }
    Ok((boards, warnings))
}
