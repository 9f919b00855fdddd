//! `pegflip check`: validate a puzzle file and summarise what it compiles to.

use std::io::Write;

use clap::Parser;
use pegflip::board::Lattice;
use pegflip::{Goal, MoveKind};

/// Validate a puzzle file; print its cells, moves, goal and solver.
#[derive(Parser)]
#[command(after_help = "\
Example:
  pegflip check puzzles/flip4x4.toml")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    let program = puzzle.compile()?;
    let board = &puzzle.board;
    let count = |kind| program.moves().iter().filter(|m| m.kind == kind).count();
    let (toggles, jumps) = (count(MoveKind::Toggle), count(MoveKind::Jump));
    let mut out = std::io::stdout().lock();
    if args.json {
        let goal = match program.goal() {
            Goal::FewestPieces => serde_json::json!({ "fewest": "pieces" }),
            Goal::Targets(t) => serde_json::json!({
                "targets": t.iter().map(|b| puzzle.board_text(b)).collect::<Vec<_>>()
            }),
        };
        let v = serde_json::json!({
            "file": args.puzzle.puzzle,
            "ok": true,
            "name": puzzle.name,
            "cells": board.cells(),
            "rows": board.rows(),
            "cols": board.cols(),
            "shaped": board.has_gaps(),
            "wrap": board.wraps(),
            "lattice": lattice_name(board),
            "moves": program.moves().len(),
            "toggles": toggles,
            "jumps": jumps,
            "goal": goal,
            "linear": program.is_linear(),
            "solver": solver_summary(&program),
            "start": puzzle.start.as_ref().map(|s| puzzle.board_text(s)),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(crate::OK);
    }
    writeln!(out, "{}: ok", args.puzzle.puzzle)?;
    writeln!(out, "name:   {}", puzzle.name)?;
    writeln!(out, "cells:  {} ({})", board.cells(), describe_board(board))?;
    writeln!(
        out,
        "moves:  {} ({toggles} toggles, {jumps} jumps)",
        program.moves().len()
    )?;
    let goal = match program.goal() {
        Goal::FewestPieces => "fewest pieces".to_string(),
        Goal::Targets(t) => format!("{} target(s)", t.len()),
    };
    writeln!(out, "goal:   {goal}")?;
    let linear = if program.is_linear() {
        "yes"
    } else {
        "no (guarded moves)"
    };
    writeln!(out, "linear: {linear}")?;
    writeln!(out, "solver: {}", solver_summary(&program))?;
    if let Some(start) = &puzzle.start {
        let text = puzzle.board_text(start);
        if text.len() <= 200 {
            writeln!(out, "start:  {text}")?;
        } else {
            writeln!(out, "start:  declared ({} pieces)", start.count_ones())?;
        }
    }
    Ok(crate::OK)
}

fn solver_summary(program: &pegflip::Program) -> String {
    use pegflip::solve::{linear, search::MAX_SEARCH_CELLS, table::MAX_TABLE_CELLS};
    let cells = program.cells();
    if program.is_linear() && matches!(program.goal(), Goal::Targets(_)) {
        let how = if linear::chase_applies(program) {
            "light chasing"
        } else {
            "dense elimination"
        };
        format!("gf2 ({how}); bfs also works up to {MAX_SEARCH_CELLS} cells")
    } else if cells > MAX_SEARCH_CELLS {
        format!("none: search handles at most {MAX_SEARCH_CELLS} cells")
    } else if pegflip::solve::dfs::applies(program) {
        "dfs: every jump removes a piece, so the first solution found is a shortest one; \
         parity proofs are tried first"
            .to_string()
    } else if cells <= MAX_TABLE_CELLS {
        format!("bfs; batch answers from a table of 2^{cells} states")
    } else {
        "bfs, one search per board".to_string()
    }
}

/// `square`, `triangular` or `graph`.
pub fn lattice_name(board: &pegflip::Board) -> &'static str {
    match board.lattice() {
        Lattice::Square => "square",
        Lattice::Triangular => "triangular",
        Lattice::Graph(_) => "graph",
    }
}

/// The board in words: `4 x 4 grid, wrapping`, `graph, 15 edges`.
pub fn describe_board(board: &pegflip::Board) -> String {
    if let Lattice::Graph(links) = board.lattice() {
        let edges: usize = links.iter().map(Vec::len).sum::<usize>() / 2;
        return format!("graph, {edges} edges");
    }
    let shape = if board.has_gaps() { ", shaped" } else { "" };
    let wrap = if board.wraps() { ", wrapping" } else { "" };
    let lattice = match board.lattice() {
        Lattice::Triangular => "triangular ",
        _ => "",
    };
    format!(
        "{} x {} {lattice}grid{shape}{wrap}",
        board.rows(),
        board.cols()
    )
}
