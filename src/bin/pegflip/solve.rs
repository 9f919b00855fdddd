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
  pegflip solve puzzles/lights-out.toml --svg lights-out.svg

The first line is what `batch` would print for the board. Coordinates are
0-based [row, col]. Exit status 1 means the board is proven impossible.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// The board: rows joined by `/`; `all-on`, `all-off`, `full but CELL, ...`
    /// or `empty but CELL, ...` (named cells); or `-` to read one row per line
    /// from stdin. Absent: the puzzle's declared start.
    board: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw the start and every step in one SVG picture, written to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Which solver answers.
    #[arg(long, value_enum, default_value_t)]
    solver: crate::common::SolverArg,
    /// Word operations allowed for walking the solution coset (gf2's fewest
    /// presses); past it the answer is the best found, marked not optimal.
    #[arg(long, value_name = "N", default_value_t = 1 << 32)]
    coset_work: u64,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
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
                args.puzzle.puzzle
            ))
        })?,
    };
    let limits = pegflip::Limits {
        coset_work: args.coset_work,
        ..Default::default()
    };
    if puzzle.board.cells() > pegflip::puzzle::MAX_LISTED {
        return solve_huge(args, &puzzle, &start, &limits);
    }
    let program = puzzle.compile()?;
    let spinner = indicatif::ProgressBar::hidden();
    crate::common::spin_after_a_second(&spinner, "solving");
    let outcome = pegflip::solve_with(&program, &start, &limits, args.solver.into());
    spinner.finish_and_clear();
    let outcome = outcome?;
    // The answer passes the same independent check as `pegflip verify` before it is printed.
    let value = render::json(&puzzle, &program, &start, &outcome);
    // An impossibility shown by exhaustive search (or by rank alone) carries no
    // certificate: the search itself is the proof, and there is nothing to re-check.
    let checkable = !matches!(
        outcome,
        Outcome::Unsolvable(pegflip::Proof::Search | pegflip::Proof::Rank)
    );
    if let Some(Err(reason)) = checkable.then(|| pegflip::verify::verify(&puzzle, &program, &value))
    {
        return Err(
            pegflip::Error::Internal(format!("the answer fails verification: {reason}")).into(),
        );
    }
    if let Some(path) = &args.svg {
        let picture = render::svg(&puzzle, &program, &start, &outcome)?;
        std::fs::write(path, picture).map_err(|source| pegflip::Error::Io {
            path: path.clone(),
            source,
        })?;
    }
    let mut stdout = std::io::stdout().lock();
    if args.json {
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

/// A board too large to list its moves: light chasing, and a summary instead
/// of boards (which would run to hundreds of megabytes).
fn solve_huge(
    args: &Args,
    puzzle: &pegflip::Puzzle,
    start: &pegflip::Bits,
    limits: &pegflip::Limits,
) -> anyhow::Result<u8> {
    if matches!(args.solver, crate::common::SolverArg::Bfs) {
        return Err(pegflip::Error::Usage(format!(
            "bfs handles at most 64 cells; this board has {}",
            puzzle.board.cells()
        ))
        .into());
    }
    let outcome = pegflip::solve::solve_grid(puzzle, start, limits)?;
    let cells = puzzle.board.cells();
    let omitted = format!(
        "the board has {cells} cells: its boards and moves are not printed past {} cells",
        pegflip::puzzle::MAX_LISTED
    );
    let mut stdout = std::io::stdout().lock();
    match &outcome {
        Outcome::Solved(s) if args.json => {
            let v = serde_json::json!({
                "puzzle": puzzle.name,
                "solvable": true,
                "length": s.moves.len(),
                "optimal": s.optimal,
                "method": "chase",
                "omitted": omitted,
            });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        Outcome::Solved(s) => {
            writeln!(stdout, "{}", s.moves.len())?;
            let optimal = if s.optimal {
                "the fewest"
            } else {
                "not proven the fewest"
            };
            writeln!(
                stdout,
                "{} presses, {optimal}, found by light chasing and replayed",
                s.moves.len()
            )?;
            writeln!(stdout, "({omitted})")?;
        }
        Outcome::Unsolvable(proof) => {
            let certificates: Vec<serde_json::Value> = match proof {
                pegflip::Proof::Parity(cs) => cs
                    .iter()
                    .map(|c| serde_json::json!({ "cells_in_q": c.cells.count_ones() }))
                    .collect(),
                _ => Vec::new(),
            };
            if args.json {
                let v = serde_json::json!({
                    "puzzle": puzzle.name,
                    "solvable": false,
                    "proof": if certificates.is_empty() { "rank" } else { "parity" },
                    "certificate": certificates,
                    "omitted": omitted,
                });
                writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
            } else {
                writeln!(stdout, "{}", puzzle.batch.impossible)?;
                writeln!(
                    stdout,
                    "proved by elimination over GF(2){}",
                    if certificates.is_empty() {
                        ""
                    } else {
                        ", with a parity certificate per target (checked)"
                    }
                )?;
                writeln!(stdout, "({omitted})")?;
            }
        }
    }
    stdout.flush()?;
    Ok(match outcome {
        Outcome::Solved(_) => crate::OK,
        Outcome::Unsolvable(_) => crate::IMPOSSIBLE,
    })
}
