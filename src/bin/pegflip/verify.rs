//! `pegflip verify`: check an answer written by `solve --json`, independently of the solvers.

use std::io::{BufRead, Read, Write};

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
    if puzzle.colours() > 2 {
        return crate::colours::verify(&puzzle, &args.answer, args.json);
    }
    let program = puzzle.compile()?;
    let (input, name) = crate::open_input(Some(&args.answer))?;
    let mut input = std::io::BufReader::with_capacity(1 << 16, input);
    let (json, head) = looks_like_json(&mut input, &name)?;
    let verdict = if json {
        // Checked as it is read: a million moves take the memory of one.
        pegflip::check::verify_from(&program, std::io::Cursor::new(head).chain(input), &name)?
    } else {
        let start = match &args.from {
            Some(board) => {
                puzzle
                    .read_board(board, "<--from>")
                    .map_err(|err| {
                        crate::option_as_board(board, "verify", Some("--from"))
                            .unwrap_or(err.into())
                    })?
                    .state
            }
            None => puzzle.start.clone().ok_or_else(|| {
                pegflip::Error::Usage(format!(
                    "typed moves need a start: give --from BOARD, since {} declares none",
                    args.puzzle.puzzle
                ))
            })?,
        };
        let input = std::io::Cursor::new(head).chain(input);
        pegflip::check::verify_moves_from(&program, &start, input, &name)?
    };
    let verdict = verdict.map_err(|e| e.to_string());
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

/// Whether the input is JSON (its first character, past whitespace and a
/// byte-order mark, is `{`), and the bytes read to tell: the whitespace,
/// kept so that typed moves keep their line numbers.
fn looks_like_json(input: &mut impl BufRead, name: &str) -> anyhow::Result<(bool, Vec<u8>)> {
    let io = |source| pegflip::Error::Io {
        path: name.to_string(),
        source,
    };
    let mut head = Vec::new();
    let mut first = true;
    loop {
        let buf = input.fill_buf().map_err(io)?;
        if buf.is_empty() {
            return Ok((false, head));
        }
        let mut skip = 0;
        if first && buf.starts_with(pegflip::io::BOM.as_bytes()) {
            skip = pegflip::io::BOM.len();
        }
        first = false;
        let spaces = buf[skip..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        let next = buf.get(skip + spaces).copied();
        head.extend_from_slice(&buf[skip..skip + spaces]);
        input.consume(skip + spaces);
        if let Some(b) = next {
            return Ok((b == b'{', head));
        }
    }
}
