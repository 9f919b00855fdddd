//! Judge-format batch input to judge-format output: many cases, one answer each, in the puzzle's `[batch]` format.

mod cases;
mod colours;
mod write;

use std::io::{Read, Write};

pub use colours::batch_colours;

use crate::bits::Bits;
use crate::error::{Diagnostic, Error, Result};
use crate::io::board::read_row;
use crate::io::stream::Words;
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
    let mut text = Vec::new();
    let mut warnings = Vec::new();
    let plan = batch_to(program, input, file, limits, prefer, &mut text, &mut |w| {
        warnings.push(w)
    })?;
    Ok(BatchOutput {
        text,
        warnings,
        plan,
    })
}

/// [`batch()`] as a stream: reads the cases from `input` as they come and
/// writes each answer to `out` as soon as it is found, so that an input of
/// any length takes the memory of one case (and of the first
/// [`PLAN_AHEAD`] boards, read before planning). Warnings go to `warn` once
/// the line they are about has been read. Returns how the boards were
/// answered. After an error, the answers before it have been written.
///
/// ```
/// let program = pegflip::Puzzle::from_file("puzzles/pebble12.toml")?.compile()?;
/// let mut out = Vec::new();
/// let input = &b"2\n---oo-------\noooooooooooo\n"[..];
/// pegflip::batch_to(&program, input, "<stdin>", &Default::default(), Default::default(),
///     &mut out, &mut |w| eprintln!("{w}"))?;
/// assert_eq!(out, b"1\n12\n");
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn batch_to(
    program: &Program,
    input: impl Read,
    file: &str,
    limits: &Limits,
    prefer: Preference,
    out: &mut dyn Write,
    warn: &mut dyn FnMut(Diagnostic),
) -> Result<crate::plan::Plan> {
    let words = Words::new(input, file);
    if !program.puzzle().batch.is_plain() {
        return cases::batch_cases(program, words, limits, prefer, out, warn);
    }
    let mut reader = BoardReader::new(program.puzzle(), words)?;
    let cells = program.cells();
    let words = cells.div_ceil(64).max(1);
    // The first boards (at most 1 MiB of them) are read before planning, so
    // that the plan knows how many there are when the input is short.
    let ahead_boards = PLAN_AHEAD.min((1 << 17) / words).max(1);
    let mut ahead: Vec<u64> = Vec::new();
    let mut state = vec![0u64; words];
    let mut ended = false;
    while ahead.len() < ahead_boards * words {
        if !reader.next_board(&mut state)? {
            ended = true;
            break;
        }
        ahead.extend_from_slice(&state);
    }
    let read = ahead.len() / words;
    let count = match (reader.expected, ended) {
        (Some(n), _) => n,
        (None, true) => read,
        // More boards follow: at least this many, and likely more.
        (None, false) => read.saturating_mul(16),
    };
    let plan = batch_plan(program, count, prefer, limits)?;
    let impossible = program.puzzle().batch.impossible.as_bytes();
    let numbers: Vec<String> = (0..256).map(|n| n.to_string()).collect();
    let mut text = Vec::with_capacity(1 << 16);
    let objective = matches!(program.goal(), Goal::FewestPieces);
    let engine = BatchEngine::new(program, &plan, limits)?;
    let answer = |board: &[u64], text: &mut Vec<u8>| -> Result<()> {
        let v = match &engine {
            BatchEngine::Table(table) => table.answer(board[0]).map(|v| v as usize),
            BatchEngine::EachBoard(prepared) => {
                let start = Bits::from_words(cells, board);
                match prepared.solve(program, &start, limits)? {
                    Outcome::Solved(s) if objective => Some(s.end.count_ones()),
                    Outcome::Solved(s) => Some(s.length()),
                    Outcome::Unsolvable(_) => None,
                }
            }
        };
        match v {
            Some(v) if v < numbers.len() => text.extend_from_slice(numbers[v].as_bytes()),
            Some(v) => text.extend_from_slice(v.to_string().as_bytes()),
            None => text.extend_from_slice(impossible),
        }
        text.push(b'\n');
        Ok(())
    };
    for board in ahead.chunks(words) {
        answer(board, &mut text)?;
    }
    drop(ahead);
    for w in reader.words.take_warnings() {
        warn(w);
    }
    if !ended {
        while reader.next_board(&mut state)? {
            answer(&state, &mut text)?;
            if text.len() >= 1 << 16 {
                emit(out, &text)?;
                text.clear();
                for w in reader.words.take_warnings() {
                    warn(w);
                }
            }
        }
    }
    emit(out, &text)?;
    for w in reader.words.finish() {
        warn(w);
    }
    Ok(plan.erase())
}

/// The most boards read before a plain batch is planned (fewer when they
/// would take more than 1 MiB).
pub const PLAN_AHEAD: usize = 1 << 16;

/// Writes answers to the output.
pub(crate) fn emit(out: &mut dyn Write, text: &[u8]) -> Result<()> {
    out.write_all(text).map_err(|source| Error::Write {
        path: "the output".into(),
        source,
    })
}

/// The boards of a plain batch input, one at a time: `cells.div_ceil(64)`
/// words each.
struct BoardReader<'p, R> {
    puzzle: &'p Puzzle,
    words: Words<R>,
    /// The number of boards the input says it has.
    expected: Option<usize>,
    count: usize,
    tok: String,
}

impl<'p, R: Read> BoardReader<'p, R> {
    fn new(puzzle: &'p Puzzle, mut words: Words<R>) -> Result<Self> {
        let mut tok = String::new();
        let expected = match puzzle.batch.header {
            Header::None => None,
            Header::Count => {
                let Some(at) = words.next_word(&mut tok)? else {
                    let end = words.end();
                    return Err(words.error(end, "empty input: expected the number of boards"));
                };
                let n: usize = tok.parse().map_err(|_| {
                    let message = format!("expected the number of boards, found '{tok}'");
                    words.error(at, message)
                })?;
                Some(n)
            }
        };
        Ok(BoardReader {
            puzzle,
            words,
            expected,
            count: 0,
            tok,
        })
    }

    /// Reads the next board into `state`; false when there is none.
    fn next_board(&mut self, state: &mut [u64]) -> Result<bool> {
        let board = &self.puzzle.board;
        let symbols = &self.puzzle.symbols;
        let (rows, cols) = (board.rows(), board.cols());
        let fast_rows = board.is_rectangular() && board.cells() <= 64;
        let count = self.count;
        if self.expected == Some(count) {
            if let Some(at) = self.words.next_pos()? {
                self.words.warn(
                    at,
                    format!("ignored input after the last of the {count} boards"),
                );
            }
            return Ok(false);
        }
        state.fill(0);
        for r in 0..rows {
            let Some(at) = self.words.next_word(&mut self.tok)? else {
                if r == 0 && self.expected.is_none() {
                    return Ok(false);
                }
                let k = count + 1;
                let message = match self.expected {
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
                // Just past the last word, on the line where input stopped.
                let end = self.words.end();
                return Err(self.words.error(end, message));
            };
            let tok = &self.tok;
            // Fast path: a full-width row of a rectangular board, on and off symbols only.
            if fast_rows
                && tok.len() == cols
                && let Some(mask) = symbols.row_mask(tok.as_bytes())
            {
                state[0] |= mask << (r * cols);
                continue;
            }
            match read_row(tok, r, board, symbols, |c| state[c / 64] |= 1 << (c % 64)) {
                Ok(None) => {}
                Ok(Some(w)) => {
                    let place = at.within(tok, w.at);
                    self.words.warn(place, w.message);
                }
                Err(e) => {
                    let place = at.within(tok, e.at);
                    return Err(self.words.error(place, e.message));
                }
            }
        }
        self.count += 1;
        Ok(true)
    }
}
