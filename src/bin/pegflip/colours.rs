//! The commands on a puzzle of more than two colours: solve, analyze, states, verify and check, each through the library's k-colour runner.

use std::io::Write;

use pegflip::program::colours::ColourProgram;
use pegflip::{ColourOutcome, Eliminated, Puzzle, render};
use serde_json::json;

/// The puzzle compiled modulo its colours, its plan printed with `--explain`.
fn eliminate(puzzle: &Puzzle, explain: bool) -> anyhow::Result<Eliminated> {
    let program = ColourProgram::compile(puzzle, &puzzle.limits)?;
    let plan = pegflip::plan::colour_plan(&program, &puzzle.limits)?;
    if explain {
        crate::common::explain(&plan.erase());
    }
    Ok(Eliminated::new(&program, &plan)?)
}

/// A board of the puzzle's colours: the text given, `-` for rows on
/// standard input, or the declared start.
fn read_board(puzzle: &Puzzle, board: Option<&str>, what: &str) -> anyhow::Result<Vec<u64>> {
    Ok(match board {
        Some("-") => {
            let (bytes, name) = crate::read_input(None)?;
            let read = puzzle.read_colours_lines(&String::from_utf8_lossy(&bytes), &name)?;
            crate::warn(&read.warnings);
            read.digits
        }
        Some(text) => {
            let read = puzzle
                .read_colours(text, "<board>")
                .map_err(|err| crate::option_as_board(text, "solve", None).unwrap_or(err.into()))?;
            crate::warn(&read.warnings);
            read.digits
        }
        None => puzzle.start_colours.clone().ok_or_else(|| {
            pegflip::Error::Usage(format!(
                "no BOARD given, and {what} declares no start position"
            ))
        })?,
    })
}

/// `solve` on a puzzle of k colours.
pub fn solve(
    puzzle: &Puzzle,
    board: Option<&str>,
    what: &str,
    json: bool,
    svg: Option<&str>,
    explain: bool,
) -> anyhow::Result<u8> {
    let start = read_board(puzzle, board, what)?;
    let eliminated = eliminate(puzzle, explain)?;
    let outcome = eliminated.solve(&start, &puzzle.limits)?;
    let program = eliminated.program();
    if let Some(path) = svg {
        let picture = render::colour_svg(program, &start, &outcome);
        std::fs::write(path, picture).map_err(|source| pegflip::Error::Write {
            path: path.to_string(),
            source,
        })?;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if json {
        let answer = pegflip::Answer::from_colours(program, &start, &outcome);
        writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    } else {
        render::write_colour_text(&mut out, program, &start, &outcome)?;
    }
    out.flush()?;
    Ok(match outcome {
        ColourOutcome::Solved(_) => crate::OK,
        ColourOutcome::Unsolvable(_) => crate::IMPOSSIBLE,
    })
}

/// `analyze` on a puzzle of k colours: modulus, rank and nullity (prime
/// k), the exact number of solvable boards, and the quiet patterns.
pub fn analyze(puzzle: &Puzzle, json: bool, explain: bool) -> anyhow::Result<u8> {
    let eliminated = eliminate(puzzle, explain)?;
    let facts = eliminated.facts()?;
    let program = eliminated.program();
    let board = &puzzle.board;
    let pattern = |counts: &[u64]| -> Vec<u64> {
        let mut cells = vec![0u64; program.cells()];
        for (i, &t) in counts.iter().enumerate() {
            if let Some(cell) = program.pressed_cell(i) {
                cells[cell.0] = (cells[cell.0] + t) % facts.modulus;
            }
        }
        cells
    };
    let mut out = std::io::stdout().lock();
    if json {
        let patterns: Vec<_> = facts
            .quiet_patterns
            .iter()
            .map(|(g, order)| {
                let presses: Vec<_> = g
                    .iter()
                    .enumerate()
                    .filter(|&(_, &t)| t != 0)
                    .map(|(i, &t)| {
                        let cell = program.pressed_cell(i).unwrap_or(pegflip::CellId(0));
                        json!({ "cell": board.coord(cell), "times": t })
                    })
                    .collect();
                json!({ "order": order, "presses": presses })
            })
            .collect();
        let v = json!({
            "puzzle": puzzle.name,
            "cells": program.cells(),
            "moves": facts.presses,
            "linear": true,
            "modulus": facts.modulus,
            "rank": facts.rank,
            "nullity": facts.nullity,
            "solvable_states": facts.solvable.to_string(),
            "quiet_count": facts.quiet.to_string(),
            "quiet_patterns": patterns,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(crate::OK);
    }
    writeln!(out, "puzzle:          {}", puzzle.name)?;
    writeln!(out, "cells:           {}", program.cells())?;
    writeln!(out, "moves:           {}", facts.presses)?;
    writeln!(
        out,
        "linear:          yes, modulo {} ({} colours)",
        facts.modulus, facts.modulus
    )?;
    match (facts.rank, facts.nullity) {
        (Some(rank), Some(nullity)) => {
            writeln!(out, "rank:            {rank} over GF({})", facts.modulus)?;
            writeln!(out, "nullity:         {nullity}")?;
        }
        _ => writeln!(
            out,
            "rank:            none: Z_{} is not a field ({} is not prime)",
            facts.modulus, facts.modulus
        )?,
    }
    writeln!(out, "solvable states: {} for each target", facts.solvable)?;
    writeln!(
        out,
        "quiet patterns:  {} press counts change nothing",
        facts.quiet
    )?;
    for (i, (g, order)) in facts.quiet_patterns.iter().enumerate() {
        writeln!(
            out,
            "\nquiet pattern {} (order {order}): times each cell is pressed",
            i + 1
        )?;
        let cells = pattern(g);
        for r in 0..board.rows() {
            let row: Vec<String> = (0..board.cols())
                .map(|c| match board.cell_at(r, c) {
                    Some(cell) => cells[cell.0].to_string(),
                    None => ".".into(),
                })
                .collect();
            writeln!(out, "{}", row.join(" "))?;
        }
    }
    Ok(crate::OK)
}

/// `states` on a puzzle of k colours: the number of boards that can reach
/// a target (by the algebra, any size), or every one of them listed by
/// distance, or the histogram of distances (fewest presses), by a
/// breadth-first search from the targets within `max-states`.
pub fn states(
    puzzle: &Puzzle,
    count: bool,
    histogram: bool,
    json: bool,
    explain: bool,
) -> anyhow::Result<u8> {
    let eliminated = eliminate(puzzle, explain)?;
    let total = eliminated.solvable_boards()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if count {
        if json {
            writeln!(out, "{}", json!({ "count": total.to_string() }))?;
        } else {
            writeln!(out, "{total}")?;
        }
        out.flush()?;
        return Ok(crate::OK);
    }
    let program = eliminated.program();
    let write_error = |source| pegflip::Error::Write {
        path: "<stdout>".into(),
        source,
    };
    if !histogram {
        // Streamed from a basis of the image, one board held at a time.
        if json {
            write!(out, "{{\"states\": [")?;
        }
        let mut first = true;
        eliminated.list_boards(|board| {
            let text = program.board_text(board);
            let line = if json {
                let comma = if first { "" } else { ", " };
                write!(out, "{comma}{}", json!(text))
            } else {
                writeln!(out, "{text}")
            };
            first = false;
            line.map_err(write_error)
        })?;
        if json {
            writeln!(out, "]}}")?;
        }
        out.flush()?;
        return Ok(crate::OK);
    }
    // The histogram, by the search from the targets.
    let mut layers: Vec<u128> = Vec::new();
    pegflip::colour_layers(program, &puzzle.limits, |distance, _| {
        if layers.len() <= distance as usize {
            layers.resize(distance as usize + 1, 0);
        }
        layers[distance as usize] += 1;
        Ok(())
    })?;
    if json {
        let rows: Vec<_> = layers
            .iter()
            .enumerate()
            .map(|(d, n)| json!({ "distance": d, "count": n.to_string() }))
            .collect();
        writeln!(out, "{}", json!({ "histogram": rows }))?;
    } else {
        for (d, n) in layers.iter().enumerate() {
            writeln!(out, "{d} {n}")?;
        }
    }
    out.flush()?;
    Ok(crate::OK)
}

/// `verify` on a puzzle of k colours: the whole answer read, then checked.
pub fn verify(puzzle: &Puzzle, answer: &str, json_out: bool) -> anyhow::Result<u8> {
    let program = ColourProgram::compile(puzzle, &puzzle.limits)?;
    let (bytes, name) = crate::read_input(Some(answer))?;
    let answer: pegflip::Answer = serde_json::from_slice(&bytes).map_err(|e| {
        pegflip::Error::Usage(format!(
            "{name}:{}:{}: not an answer of `solve --json`: {e}",
            e.line(),
            e.column()
        ))
    })?;
    let verdict = pegflip::check::verify_colours(&program, &answer).map_err(|e| e.to_string());
    let mut out = std::io::stdout().lock();
    if json_out {
        let (holds, reason) = match &verdict {
            Ok(summary) => (true, summary),
            Err(reason) => (false, reason),
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json!({ "holds": holds, "reason": reason }))?
        )?;
    } else {
        match &verdict {
            Ok(summary) => writeln!(out, "holds: {summary}")?,
            Err(reason) => writeln!(out, "does not hold: {reason}")?,
        }
    }
    Ok(if verdict.is_ok() {
        crate::OK
    } else {
        crate::IMPOSSIBLE
    })
}

/// The planner's engine for a puzzle of k colours, with its estimates, or why none fits.
pub fn solver_summary(puzzle: &Puzzle) -> (&'static str, String) {
    let plan = ColourProgram::compile(puzzle, &puzzle.limits)
        .and_then(|p| pegflip::plan::colour_plan(&p, &puzzle.limits));
    match plan {
        Ok(plan) => (plan.name(), plan.describe()),
        Err(e) => ("none", format!("none: {e}")),
    }
}

/// `check` on a puzzle of k colours.
pub fn check(puzzle: &Puzzle, file: &str, json_out: bool) -> anyhow::Result<u8> {
    let program = ColourProgram::compile(puzzle, &puzzle.limits)?;
    let board = &puzzle.board;
    let (engine, summary) = solver_summary(puzzle);
    let targets: Vec<String> = program
        .targets()
        .iter()
        .map(|(_, t)| program.board_text(t))
        .collect();
    let start = puzzle.start_colours.as_ref().map(|s| program.board_text(s));
    let mut out = std::io::stdout().lock();
    if json_out {
        let v = json!({
            "file": file,
            "ok": true,
            "name": puzzle.name,
            "cells": board.cells(),
            "rows": board.rows(),
            "cols": board.cols(),
            "shaped": board.has_gaps(),
            "wrap": board.wraps(),
            "lattice": crate::check::lattice_name(board),
            "colours": puzzle.symbols.states().iter().map(char::to_string).collect::<Vec<_>>(),
            "modulus": program.modulus(),
            "moves": program.move_count(),
            "toggles": program.move_count(),
            "jumps": 0,
            "goal": { "targets": targets },
            "linear": true,
            "solver": engine,
            "plan": summary,
            "start": start,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(crate::OK);
    }
    writeln!(out, "{file}: ok")?;
    writeln!(out, "name:   {}", puzzle.name)?;
    writeln!(
        out,
        "cells:  {} ({})",
        board.cells(),
        crate::check::describe_board(board)
    )?;
    let states: Vec<String> = puzzle
        .symbols
        .states()
        .iter()
        .map(char::to_string)
        .collect();
    writeln!(
        out,
        "states: {} colours ({}), a press adds modulo {}",
        states.len(),
        states.join(" "),
        states.len()
    )?;
    writeln!(out, "moves:  {} toggles", program.move_count())?;
    writeln!(out, "goal:   {} target(s)", targets.len())?;
    writeln!(out, "linear: yes, modulo {}", program.modulus())?;
    writeln!(out, "solver: {summary}")?;
    if let Some(start) = start {
        writeln!(out, "start:  {start}")?;
    }
    Ok(crate::OK)
}

/// `batch` on a puzzle of k colours: the plain format, one answer line a board.
pub fn batch(
    puzzle: &Puzzle,
    input: Option<&str>,
    json_out: bool,
    explain: bool,
) -> anyhow::Result<u8> {
    let program = ColourProgram::compile(puzzle, &puzzle.limits)?;
    let plan = pegflip::plan::colour_plan(&program, &puzzle.limits)?;
    if explain {
        crate::common::explain(&plan.erase());
    }
    let (bytes, name) = crate::read_input(input)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut answers = Vec::new();
    let warnings =
        pegflip::batch::batch_colours(&program, &text, &name, &puzzle.limits, &mut answers)?;
    let mut out = std::io::stdout().lock();
    if json_out {
        let lines: Vec<&str> = std::str::from_utf8(&answers)?.lines().collect();
        let warnings: Vec<_> = warnings
            .iter()
            .map(|w| json!({ "file": w.file, "line": w.line, "col": w.col, "message": w.message }))
            .collect();
        let v = json!({ "answers": lines, "warnings": warnings });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        crate::warn(&warnings);
        out.write_all(&answers)?;
    }
    out.flush()?;
    Ok(crate::OK)
}
