//! `pegflip verify`: check an answer written by `solve --json`, independently of the solvers.

use std::io::Write;

use clap::Parser;

/// Check an answer written by `solve --json`, or moves typed as text: its
/// moves are legal, reach the goal, and number as claimed; or its
/// certificates hold.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip solve puzzles/lights-out.toml --json > answer.json
  pegflip verify puzzles/lights-out.toml answer.json
  echo '46-44, 65-45, 57-55' | pegflip verify english33 --metric moves -

Typed moves are separated by commas or line breaks; each is the cells its
piece stands on joined by '-' (f4-d4-d6, or 46-44 by row and column from 1),
played from --from BOARD or the puzzle's start, and counted in the metric.

Exit status 0 when the answer holds; 1 with the reason when it does not.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// The answer, as written by `solve --json`, or moves typed as text;
    /// `-` for standard input.
    answer: String,
    /// The board typed moves start from (default: the puzzle's start).
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    from: Option<String>,
    /// Print one JSON object: {"holds": bool, "reason": text}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    let program = puzzle.compile()?;
    let (bytes, name) = crate::read_input(Some(&args.answer))?;
    let text = String::from_utf8_lossy(&bytes);
    let answer = if text.trim_start().starts_with('{') {
        read_json(&bytes, &name)?
    } else {
        let start = match &args.from {
            Some(board) => puzzle.read_board(board, "<--from>")?.state,
            None => puzzle.start.clone().ok_or_else(|| {
                pegflip::Error::Usage(format!(
                    "typed moves need a start: give --from BOARD, since {} declares none",
                    args.puzzle.puzzle
                ))
            })?,
        };
        pegflip::answer::read_moves(&program, &start, &text, &name)?
    };
    let verdict = pegflip::check::verify(&program, &answer).map_err(|e| e.to_string());
    let mut out = std::io::stdout().lock();
    if args.json {
        let (holds, reason) = match &verdict {
            Ok(summary) => (true, summary),
            Err(reason) => (false, reason),
        };
        let v = serde_json::json!({ "holds": holds, "reason": reason });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        match &verdict {
            Ok(summary) => writeln!(out, "holds: {summary}")?,
            Err(reason) => writeln!(out, "does not hold: {reason}")?,
        }
    }
    out.flush()?;
    Ok(if verdict.is_ok() {
        crate::OK
    } else {
        crate::IMPOSSIBLE
    })
}

/// An answer written by `solve --json`; a parse error points at its line and column.
fn read_json(bytes: &[u8], name: &str) -> anyhow::Result<pegflip::Answer> {
    Ok(serde_json::from_slice(bytes).map_err(|e| {
        let text = String::from_utf8_lossy(bytes);
        let line_start: usize = text
            .split_inclusive('\n')
            .take(e.line().saturating_sub(1))
            .map(str::len)
            .sum();
        pegflip::Error::input(
            name,
            &text,
            line_start + e.column().saturating_sub(1),
            if e.is_syntax() || e.is_eof() {
                format!("not JSON: {e}")
            } else {
                format!("not an answer of `solve --json`: {e}")
            },
        )
    })?)
}
