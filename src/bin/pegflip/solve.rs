//! `pegflip solve`: one board, its fewest moves and the boards along the way.

use std::io::Write;

use clap::Parser;
use pegflip::{Outcome, render};

/// Solve one board: the fewest moves (or Impossible), then each move and the board after it.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip solve puzzles/flip4x4.toml bwwb/bbwb/bwwb/bwww
  pegflip solve puzzles/pebble12.toml -- -o--o-oo----
  printf 'bwwb\\nbbwb\\nbwwb\\nbwww\\n' | pegflip solve puzzles/flip4x4.toml - --json

The first line is what `batch` would print for the board. Coordinates are
0-based [row, col]. Exit status 1 means the board is proven impossible.")]
pub struct Args {
    /// The puzzle file.
    puzzle: String,
    /// The board: rows joined by `/`, or `-` to read one row per line from
    /// stdin. Absent: the puzzle's declared start.
    board: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = pegflip::Puzzle::from_file(&args.puzzle)?;
    let program = puzzle.compile();
    let start = match args.board.as_deref() {
        Some("-") => {
            let (bytes, name) = crate::read_input(None)?;
            let text = String::from_utf8_lossy(&bytes);
            let read = puzzle.read_board_lines(&text, &name)?;
            crate::warn(&read.warnings);
            read.state
        }
        Some(text) => {
            let read = puzzle.read_board(text, "<board>")?;
            crate::warn(&read.warnings);
            read.state
        }
        None => puzzle.start.clone().ok_or_else(|| {
            pegflip::Error::Usage(format!(
                "no BOARD given, and {} declares no start position",
                args.puzzle
            ))
        })?,
    };
    let outcome = pegflip::solve(&program, &start, &Default::default())?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        let value = render::json(&puzzle, &program, &start, &outcome);
        writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        write!(
            stdout,
            "{}",
            render::text(&puzzle, &program, &start, &outcome)
        )?;
    }
    stdout.flush()?;
    Ok(match outcome {
        Outcome::Solved(_) => crate::OK,
        Outcome::Unsolvable(_) => crate::IMPOSSIBLE,
    })
}
