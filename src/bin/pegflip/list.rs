//! `pegflip list`: the shipped puzzles, one line each: name, cells, moves and solver.

use std::io::Write;

use clap::Parser;
use pegflip::Puzzle;
use pegflip::program::colours::ColourProgram;

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
        let (cells, moves, solver) = if puzzle.colours() > 2 {
            let program = ColourProgram::compile(&puzzle, &puzzle.limits)?;
            let (engine, _) = crate::colours::solver_summary(&puzzle);
            (program.cells(), program.move_count(), engine)
        } else {
            let program = puzzle.compile()?;
            (program.cells(), program.moves().len(), solver(&program))
        };
        rows.push((entry.name, puzzle, cells, moves, solver));
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .map(|(name, puzzle, cells, moves, solver)| {
                serde_json::json!({
                    "name": name,
                    "title": puzzle.name,
                    "cells": cells,
                    "moves": moves,
                    "solver": solver,
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
    for (name, puzzle, cells, moves, solver) in &rows {
        writeln!(
            out,
            "{name:width$}  {cells:>5}  {moves:>5}  {solver:10}  {}",
            puzzle.name
        )?;
    }
    Ok(crate::OK)
}

/// The engine `solve` runs, as the planner names it.
fn solver(program: &pegflip::Program) -> &'static str {
    crate::check::engine_name(program)
}
