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
    if puzzle.colours() > 2 {
        return crate::colours::check(&puzzle, &args.puzzle.puzzle, args.json);
    }
    let program = puzzle.compile()?;
    let board = &puzzle.board;
    let count = |kind| program.moves().iter().filter(|m| m.kind == kind).count();
    // A stencil presses each cell once: no need to list its moves to count them.
    let (toggles, jumps) = if program.stencil().is_some() {
        (program.move_count(), 0)
    } else {
        (count(MoveKind::Toggle), count(MoveKind::Jump))
    };
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
            "moves": program.move_count(),
            "toggles": toggles,
            "jumps": jumps,
            "goal": goal,
            "linear": program.is_linear(),
            "solver": engine_name(&program),
            "plan": solver_summary(&program),
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
        program.move_count()
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

/// The planner's answer for solving one board: the engine and its estimates,
/// or why no engine fits.
fn solver_summary(program: &pegflip::Program) -> String {
    let limits = &program.puzzle().limits;
    match pegflip::plan(program, &pegflip::Query::Solve, Default::default(), limits) {
        Ok(plan) => plan.describe(),
        Err(e) => format!("none: {e}"),
    }
}

/// The engine's short name, or `none`.
pub fn engine_name(program: &pegflip::Program) -> &'static str {
    let limits = &program.puzzle().limits;
    pegflip::plan(program, &pegflip::Query::Solve, Default::default(), limits)
        .map_or("none", |plan| plan.name())
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
