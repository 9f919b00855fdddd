//! `pegflip analyze`: rank, nullity, solvable states and quiet patterns of a linear puzzle.

use std::io::Write;

use clap::Parser;
use pegflip::{Bits, Linear, render};
use serde_json::json;

/// Past this many cells times patterns, text output lists quiet patterns
/// without drawing them.
const PICTURE_LIMIT: usize = 100_000;

/// Analyse a puzzle: its size, whether it is linear, and for a linear puzzle
/// the rank, nullity, number of solvable states and quiet patterns.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip analyze puzzles/lights-out.toml
  pegflip analyze puzzles/lights-out.toml --set board.rows=9 --set board.cols=9 --json

Quiet patterns are press sets that change nothing (a basis of the null space);
pressed cells are marked #. The solvable states are those from which the goal
can be reached: 2^rank of them for each target.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Print the plan (engine, estimated memory and work) to stderr first.
    #[arg(long)]
    explain: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    if puzzle.colours() > 2 {
        return crate::colours::analyze(&puzzle, args.json, args.explain);
    }
    let program = puzzle.compile()?;
    let limits = &puzzle.limits;
    let linear = if program.is_linear() {
        if args.explain {
            crate::common::explain(&pegflip::plan::analyze_plan(&program, limits)?.erase());
        }
        Some(pegflip::analyze(&program, limits)?)
    } else {
        None
    };
    let mut out = std::io::stdout().lock();
    let quiet: Vec<Bits> = linear
        .as_ref()
        .map(|l| {
            l.null_space()
                .iter()
                .map(|q| render::pressed_cells(&program, q.ones_iter()))
                .collect()
        })
        .unwrap_or_default();
    if args.json {
        let mut v = json!({
            "puzzle": puzzle.name,
            "cells": program.cells(),
            "moves": program.move_count(),
            "linear": linear.is_some(),
        });
        if let Some(l) = &linear {
            v["method"] = json!(format!("{:?}", l.method()).to_lowercase());
            v["rank"] = json!(l.rank());
            v["nullity"] = json!(l.nullity());
            let (nothing, repeats) = idle(&program);
            v["null_moves"] = json!(nothing);
            v["repeated_moves"] = json!(repeats);
            v["solvable_states"] = json!(power_of_two(l.rank()));
            let patterns: Vec<_> = quiet
                .iter()
                .map(|q| {
                    let cells: Vec<[usize; 2]> = q
                        .ones_iter()
                        .map(|c| puzzle.board.coord(pegflip::CellId(c)))
                        .collect();
                    json!({ "cells": cells })
                })
                .collect();
            v["quiet_patterns"] = json!(patterns);
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(crate::OK);
    }
    writeln!(out, "puzzle:          {}", puzzle.name)?;
    writeln!(out, "cells:           {}", program.cells())?;
    writeln!(out, "moves:           {}", program.move_count())?;
    let Some(l) = linear else {
        writeln!(
            out,
            "linear:          no (guarded moves: jumps or guarded toggles)"
        )?;
        return Ok(crate::OK);
    };
    writeln!(out, "linear:          yes ({})", describe_method(&l))?;
    writeln!(out, "rank:            {}", l.rank())?;
    writeln!(out, "nullity:         {}", l.nullity())?;
    let (null, repeats) = idle(&program);
    if !null.is_empty() {
        let list: Vec<String> = null
            .iter()
            .map(|&m| render::describe_move(&program, m))
            .collect();
        writeln!(
            out,
            "idle moves:      {} flip nothing ({}); each adds 1 to the nullity",
            null.len(),
            list.join(", ")
        )?;
    }
    if !repeats.is_empty() {
        let list: Vec<String> = repeats
            .iter()
            .map(|&(m, first)| {
                format!(
                    "{} = {}",
                    render::describe_move(&program, m),
                    render::describe_move(&program, first)
                )
            })
            .collect();
        writeln!(
            out,
            "repeated moves:  {} repeat an earlier move ({}); each adds 1 to the nullity",
            repeats.len(),
            list.join(", ")
        )?;
    }
    writeln!(
        out,
        "solvable states: {} (2^{} of 2^{} boards, for each target)",
        power_of_two(l.rank()),
        l.rank(),
        program.cells()
    )?;
    let nonzero = if l.nullity() < 64 {
        ((1u128 << l.nullity()) - 1).to_string()
    } else {
        format!("2^{} - 1", l.nullity())
    };
    if l.nullity() == 0 {
        writeln!(
            out,
            "quiet patterns:  none (only pressing nothing leaves every board as it is)"
        )?;
        return Ok(crate::OK);
    }
    writeln!(
        out,
        "quiet patterns:  {nonzero} non-zero, spanned by the {} below",
        l.nullity()
    )?;
    if quiet.len().saturating_mul(program.cells()) <= PICTURE_LIMIT {
        for (i, q) in quiet.iter().enumerate() {
            writeln!(
                out,
                "\nquiet pattern {} ({} presses, marked #):",
                i + 1,
                q.count_ones()
            )?;
            write!(out, "{}", render::marked_picture(&puzzle, q))?;
        }
    } else {
        writeln!(out, "(too large to draw: use --json for their cells)")?;
    }
    Ok(crate::OK)
}

/// Moves that flip nothing, and moves that repeat an earlier one. A stencil's
/// moves are not listed to look (on a large board that would cost more than
/// the analysis), so it reports none.
fn idle(program: &pegflip::Program) -> (Vec<usize>, Vec<(usize, usize)>) {
    if program.stencil().is_some() {
        return (Vec::new(), Vec::new());
    }
    program.idle_moves()
}

fn describe_method(l: &Linear) -> &'static str {
    match l.method() {
        pegflip::Elimination::Chase => "solved by light chasing",
        pegflip::Elimination::Dense => "solved by dense elimination",
    }
}

/// 2^n in decimal, exactly, up to a rank of 2^16; past that, `2^n`.
pub fn power_of_two(n: usize) -> String {
    let shift = u32::try_from(n).unwrap_or(u32::MAX);
    pegflip::Count { mult: 1, shift }.to_string()
}
#[cfg(test)]
mod tests {
    use super::power_of_two;

    #[test]
    fn powers_of_two_in_decimal() {
        assert_eq!(power_of_two(0), "1");
        assert_eq!(power_of_two(23), "8388608");
        assert_eq!(power_of_two(64), "18446744073709551616");
        assert_eq!(power_of_two(100), "1267650600228229401496703205376");
    }
}
