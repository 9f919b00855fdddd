//! `pegflip list`: the shipped puzzles, one line each: name, cells, moves and solver.

use std::io::Write;

use clap::Parser;
use pegflip::Puzzle;

/// List the shipped puzzles: name, cells, moves, solver and title.
#[derive(Parser)]
#[command(after_help = "\
A shipped puzzle can be named instead of a file: `pegflip solve merlin`.

Example:
  pegflip list")]
pub struct Args {
    /// Print a JSON array instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let mut rows = Vec::new();
    for entry in pegflip::catalogue::PUZZLES {
        let puzzle = Puzzle::parse(entry.text, entry.name)?;
        let program = puzzle.compile()?;
        rows.push((entry.name, puzzle, program));
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .map(|(name, puzzle, program)| {
                serde_json::json!({
                    "name": name,
                    "title": puzzle.name,
                    "cells": program.cells(),
                    "moves": program.moves().len(),
                    "solver": solver(program),
                    "board": crate::check::describe_board(&puzzle.board),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&list)?)?;
        return Ok(crate::OK);
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    writeln!(
        out,
        "{:width$}  {:>5}  {:>5}  {:10}  title",
        "name", "cells", "moves", "solver"
    )?;
    for (name, puzzle, program) in &rows {
        writeln!(
            out,
            "{name:width$}  {:>5}  {:>5}  {:10}  {}",
            program.cells(),
            program.moves().len(),
            solver(program),
            puzzle.name
        )?;
    }
    Ok(crate::OK)
}

/// The engine `solve` runs, as the planner names it.
fn solver(program: &pegflip::Program) -> &'static str {
    crate::check::engine_name(program)
}
