//! Judge-format batch input to judge-format output: many cases, one answer each, in the puzzle's `[batch]` format.

mod cases;
mod write;

use crate::bits::Bits;
use crate::error::{Diagnostic, Error, Result};
use crate::io::board::{read_row, tokens};
use crate::limits::Limits;
use crate::outcome::Outcome;
use crate::plan::batch_plan;
use crate::program::{Goal, Program};
use crate::puzzle::Puzzle;
use crate::query::Preference;
use crate::run::BatchEngine;
use crate::spec::Header;

/// The output of a batch run.
#[derive(Debug)]
pub struct BatchOutput {
    /// Exactly what the judge expects, each line ending in `\n`.
    pub text: Vec<u8>,
    /// What was accepted but dropped on the way, in input order.
    pub warnings: Vec<Diagnostic>,
    /// How the boards were answered (with a size or shape per case: how the
    /// first case was; each size and shape is planned on its own).
    pub plan: crate::plan::Plan,
}

/// Reads the cases of `input` in the puzzle's batch format
/// ([`BatchFormat`](crate::puzzle::BatchFormat)) and answers each: by default
/// the fewest moves (or the puzzle's `impossible` word), or for the
/// fewest-pieces objective the fewest pieces that can remain; or a press
/// matrix, or a move list, as the format says.
///
/// The [planner](mod@crate::plan) picks the engine once for all the boards: an
/// [`AnswerTable`](crate::AnswerTable) when it pays for itself, elimination (done once) for a
/// linear puzzle, otherwise a search per board. Cases of their own size or
/// shape are planned per variant. `prefer` is `--solver`.
///
/// ```
/// let puzzle = pegflip::Puzzle::from_file("puzzles/pebble12.toml").unwrap();
/// let input = b"2\n---oo-------\noooooooooooo\n";
/// let out = pegflip::batch(&puzzle.compile().unwrap(), input, "<stdin>",
///     &Default::default(), Default::default()).unwrap();
/// assert_eq!(out.text, b"1\n12\n");
/// ```
pub fn batch(
    program: &Program,
    input: &[u8],
    file: &str,
    limits: &Limits,
    prefer: Preference,
) -> Result<BatchOutput> {
    let puzzle = program.puzzle();
    let source = std::str::from_utf8(input).map_err(|e| {
        let text = String::from_utf8_lossy(input);
        Error::input(file, &text, e.valid_up_to(), "input is not valid UTF-8")
    })?;
    let source = source.strip_prefix(crate::io::BOM).unwrap_or(source);
    if !puzzle.batch.is_plain() {
        return cases::batch_cases(program, source, file, limits, prefer);
    }
    let (boards, warnings) = read_boards(puzzle, source, file)?;
    let cells = program.cells();
    let words = cells.div_ceil(64).max(1);
    let count = boards.len() / words;
    let plan = batch_plan(program, count, prefer, limits)?;
    let impossible = puzzle.batch.impossible.as_bytes();
    let numbers: Vec<String> = (0..256).map(|n| n.to_string()).collect();
    let mut text = Vec::with_capacity(count * 3);
    let mut answer = |v: Option<usize>| {
        match v {
            Some(v) if v < numbers.len() => text.extend_from_slice(numbers[v].as_bytes()),
            Some(v) => text.extend_from_slice(v.to_string().as_bytes()),
            None => text.extend_from_slice(impossible),
        }
        text.push(b'\n');
    };
    let objective = matches!(program.goal(), Goal::FewestPieces);
    match BatchEngine::new(program, &plan, limits)? {
        BatchEngine::Table(table) => {
            for &b in &boards {
                answer(table.answer(b).map(|v| v as usize));
            }
        }
        BatchEngine::EachBoard(prepared) => {
            for b in boards.chunks(words) {
                let start = Bits::from_words(cells, b);
                answer(match prepared.solve(program, &start, limits)? {
                    Outcome::Solved(s) if objective => Some(s.end.count_ones()),
                    Outcome::Solved(s) => Some(s.length()),
                    Outcome::Unsolvable(_) => None,
                });
            }
        }
    }
    Ok(BatchOutput {
        text,
        warnings,
        plan: plan.erase(),
    })
}

/// Reads every board of the input: `cells.div_ceil(64)` words per board, one after another.
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
    let words = board.cells().div_ceil(64);
    let mut state = vec![0u64; words];
    let mut count = 0;
    let mut boards = Vec::with_capacity(
        (expected.unwrap_or(source.len() / (board.cells() + 1)) * words).min(1 << 24),
    );
    loop {
        if expected == Some(count) {
            if let Some((at, _)) = toks.next() {
                warnings.push(Diagnostic::warning(
                    file,
                    source,
                    at,
                    format!("ignored input after the last of the {count} boards"),
                ));
            }
            break;
        }
        state.fill(0);
        for r in 0..rows {
            let Some((at, tok)) = toks.next() else {
                if r == 0 && expected.is_none() {
                    return Ok((boards, warnings));
                }
                let k = count + 1;
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
                state[0] |= mask << (r * cols);
                continue;
            }
            match read_row(tok, r, board, &puzzle.symbols, |c| {
                state[c / 64] |= 1 << (c % 64)
            }) {
                Ok(None) => {}
                Ok(Some(w)) => {
                    warnings.push(Diagnostic::warning(file, source, at + w.at, w.message))
                }
                Err(e) => return Err(Error::input(file, source, at + e.at, e.message)),
            }
        }
        boards.extend_from_slice(&state);
        count += 1;
    }
    Ok((boards, warnings))
}
