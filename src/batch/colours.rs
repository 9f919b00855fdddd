//! Judge-format input for a puzzle of k colours: boards one after another (or a count first), one answer line each.

use std::io::Write;

use crate::error::{Diagnostic, Error, Result};
use crate::io::board::{read_colour_rows, tokens};
use crate::limits::Limits;
use crate::plan::colour_plan;
use crate::program::colours::ColourProgram;
use crate::puzzle::{AnswerKind, Size, TieBreak};
use crate::render::colour_answer_line;
use crate::run::Eliminated;
use crate::spec::Header;

/// Answers every board of `input` (named `file` in errors) on a puzzle of
/// k colours, one line each: the fewest presses or the puzzle's impossible
/// word. The input is the plain format: an optional count (`header =
/// "count"`), then each board as its rows, separated by any whitespace.
/// Other `[batch]` formats are refused by name. Returns the warnings: surplus
/// clear cells past the end of a row, dropped.
///
/// ```
/// let puzzle = pegflip::Puzzle::from_file("puzzles/lights-out-2000.toml")?;
/// let program = pegflip::program::colours::ColourProgram::compile(&puzzle, &puzzle.limits)?;
/// let input = "rr--- r---- ----- ----- -----\nr---- ----- ----- ----- -----\n";
/// let mut out = Vec::new();
/// pegflip::batch::batch_colours(&program, input, "<stdin>", &puzzle.limits, &mut out)?;
/// assert_eq!(String::from_utf8(out).unwrap(), "2\nImpossible\n");
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn batch_colours(
    program: &ColourProgram,
    input: &str,
    file: &str,
    limits: &Limits,
    out: &mut dyn Write,
) -> Result<Vec<Diagnostic>> {
    let puzzle = program.puzzle();
    let format = &puzzle.batch;
    let plain = format.size == Size::Fixed
        && !format.separated
        && !format.shape_per_case
        && format.marks == (None, None)
        && format.answer == AnswerKind::Count
        && format.title.is_none()
        && format.between.is_none()
        && format.tie_break == TieBreak::Any;
    if !plain {
        return Err(Error::Usage(format!(
            "{} has {} colours: `batch` on it reads the plain format (an optional count, then \
             each board as its rows) and answers with counts; its [batch] asks for more",
            puzzle.name,
            program.modulus()
        )));
    }
    let plan = colour_plan(program, limits)?;
    let engine = Eliminated::new(program, &plan)?;
    let mut words = tokens(input).peekable();
    let mut wanted = None;
    if format.header == Header::Count {
        let Some((at, word)) = words.next() else {
            return Err(Error::input(
                file,
                input,
                input.len(),
                "expected the number of boards",
            ));
        };
        wanted = Some(word.parse::<usize>().map_err(|_| {
            Error::input(
                file,
                input,
                at,
                format!("expected the number of boards, found '{word}'"),
            )
        })?);
    }
    let rows = puzzle.board.rows();
    let write = |out: &mut dyn Write, line: String| {
        writeln!(out, "{line}").map_err(|source| Error::Write {
            path: "<stdout>".into(),
            source,
        })
    };
    let (mut count, mut warnings) = (0, Vec::new());
    while wanted.is_none_or(|n| count < n) {
        if words.peek().is_none() {
            if let Some(n) = wanted {
                return Err(Error::input(
                    file,
                    input,
                    input.len(),
                    format!("expected {n} boards, found {count}"),
                ));
            }
            break;
        }
        let case: Vec<(usize, &str)> = words.by_ref().take(rows).collect();
        let read = read_colour_rows(
            case,
            input.len(),
            &puzzle.board,
            &puzzle.symbols,
            file,
            input,
        )?;
        warnings.extend(read.warnings);
        let outcome = engine.solve(&read.digits, limits)?;
        write(out, colour_answer_line(program, &outcome))?;
        count += 1;
    }
    if let Some((at, word)) = words.next() {
        return Err(Error::input(
            file,
            input,
            at,
            format!("'{word}' follows the last of the {count} boards the count gives"),
        ));
    }
    Ok(warnings)
}
