//! `pegflip analyze`: rank, nullity, solvable states and quiet patterns of a linear puzzle.

use std::io::Write;

use clap::Parser;
use pegflip::{Bits, Limits, Linear, render};
use serde_json::json;

/// Past this many cells times patterns, text output lists quiet patterns
/// without drawing them.
const PICTURE_LIMIT: usize = 100_000;

/// Past this rank, the count of solvable states is written as a power of two.
const DECIMAL_RANK_LIMIT: usize = 1 << 16;

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
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    if puzzle.board.cells() > pegflip::puzzle::MAX_LISTED {
        return analyze_huge(args, &puzzle);
    }
    let program = puzzle.compile()?;
    let linear = if program.is_linear() {
        Some(Linear::new(&program, &Limits::default())?)
    } else {
        None
    };
    let mut out = std::io::stdout().lock();
    let quiet: Vec<Bits> = linear
        .as_ref()
        .map(|l| {
            l.null_space()
                .iter()
                .map(|q| render::pressed_cells(&program, &q.ones_iter().collect::<Vec<_>>()))
                .collect()
        })
        .unwrap_or_default();
    if args.json {
        let mut v = json!({
            "puzzle": puzzle.name,
            "cells": program.cells(),
            "moves": program.moves().len(),
            "linear": linear.is_some(),
        });
        if let Some(l) = &linear {
            v["method"] = json!(format!("{:?}", l.method()).to_lowercase());
            v["rank"] = json!(l.rank());
            v["nullity"] = json!(l.nullity());
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
    writeln!(out, "moves:           {}", program.moves().len())?;
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

/// A board too large to list its moves: light chasing gives rank and nullity.
fn analyze_huge(args: &Args, puzzle: &pegflip::Puzzle) -> anyhow::Result<u8> {
    let cells = puzzle.board.cells();
    let stencil = pegflip::solve::grid::GridStencil::from_puzzle(puzzle).ok_or_else(|| {
        pegflip::Error::Usage(format!(
            "this board has {cells} cells, too many to list its moves, and light chasing does \
             not apply to it"
        ))
    })?;
    let grid = stencil.eliminate();
    let mut out = std::io::stdout().lock();
    if args.json {
        let v = json!({
            "puzzle": puzzle.name,
            "cells": cells,
            "moves": cells,
            "linear": true,
            "method": "chase",
            "rank": grid.rank(),
            "nullity": grid.nullity(),
            "solvable_states": power_of_two(grid.rank()),
            "quiet_patterns": [],
            "omitted": "quiet patterns are not listed for boards this large",
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        writeln!(out, "puzzle:          {}", puzzle.name)?;
        writeln!(out, "cells:           {cells}")?;
        writeln!(
            out,
            "moves:           {cells} (one toggle per cell, not listed)"
        )?;
        writeln!(out, "linear:          yes (solved by light chasing)")?;
        writeln!(out, "rank:            {}", grid.rank())?;
        writeln!(out, "nullity:         {}", grid.nullity())?;
        writeln!(out, "solvable states: {}", power_of_two(grid.rank()))?;
        writeln!(
            out,
            "quiet patterns:  spanned by {} (too large to draw)",
            grid.nullity()
        )?;
    }
    Ok(crate::OK)
}

fn describe_method(l: &Linear) -> &'static str {
    match l.method() {
        pegflip::solve::linear::Method::Chase => "solved by light chasing",
        pegflip::solve::linear::Method::Dense => "solved by dense elimination",
    }
}

/// 2^n in decimal, exactly, up to a rank of 2^16; past that, `2^n`.
pub fn power_of_two(n: usize) -> String {
    if n > DECIMAL_RANK_LIMIT {
        return format!("2^{n}");
    }
    // Little-endian limbs of 10^18.
    const BASE: u64 = 1_000_000_000_000_000_000;
    let mut limbs = vec![1u64];
    let mut left = n;
    while left > 0 {
        let step = left.min(59) as u32;
        left -= step as usize;
        let mut carry = 0u128;
        for limb in &mut limbs {
            let v = ((*limb as u128) << step) + carry;
            *limb = (v % BASE as u128) as u64;
            carry = v / BASE as u128;
        }
        while carry > 0 {
            limbs.push((carry % BASE as u128) as u64);
            carry /= BASE as u128;
        }
    }
    let mut text = limbs.last().unwrap().to_string();
    for limb in limbs.iter().rev().skip(1) {
        text.push_str(&format!("{limb:018}"));
    }
    text
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
