//! The page's work on a puzzle of more than two colours: its view, a board solved, the algebra explored, a board picked.
//!
//! A board travels as one character a cell, the colour's place in the
//! cycle: `0`-`9`, then `a`-`z`, so the page plays up to 36 colours.

use pegflip::program::colours::ColourProgram;
use pegflip::{ColourOutcome, Eliminated, Puzzle, render};
use serde_json::{Value, json};

use super::worker::{EXPLORE_WORK, Op, geometry};

/// The digits of a board's text, one per colour in cycle order.
const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// The most quiet patterns an exploration draws.
const QUIET_PATTERNS: usize = 32;

/// One request on a puzzle of more than two colours.
pub(super) fn work(puzzle: &Puzzle, op: &Op) -> pegflip::Result<Value> {
    let k = puzzle.colours();
    if k > DIGITS.len() {
        return Err(pegflip::Error::Usage(format!(
            "the page plays puzzles of at most {} colours, and this one has {k}; `pegflip solve` \
             takes any number",
            DIGITS.len()
        )));
    }
    let program = ColourProgram::compile(puzzle, &puzzle.limits)?;
    match op {
        Op::Load => view(&program),
        Op::Solve { state } => solve(&program, state),
        Op::Explore => explore(&program),
        Op::Pick { distance, seed } => pick(&program, *distance, *seed),
    }
}

/// A board as one digit a cell.
fn digits_text(board: &[u64]) -> String {
    board
        .iter()
        .map(|&v| char::from(DIGITS[v as usize]))
        .collect()
}

fn parse_digits(program: &ColourProgram, text: &str) -> pegflip::Result<Vec<u64>> {
    let (cells, k) = (program.cells(), program.modulus() as usize);
    let expected = format!(
        "a board of this puzzle is {cells} characters, one per cell, each a colour from 0 to {}",
        char::from(DIGITS[k - 1])
    );
    let board: Vec<u64> = text
        .chars()
        .enumerate()
        .map(
            |(i, c)| match DIGITS[..k].iter().position(|&d| char::from(d) == c) {
                Some(v) => Ok(v as u64),
                None => Err(pegflip::Error::Usage(format!(
                    "{expected}; character {} is {c:?}",
                    i + 1
                ))),
            },
        )
        .collect::<pegflip::Result<_>>()?;
    if board.len() != cells {
        return Err(pegflip::Error::Usage(format!(
            "{expected}; got {} characters",
            board.len()
        )));
    }
    Ok(board)
}

/// The puzzle eliminated by its planned engine.
fn eliminate(program: &ColourProgram) -> pegflip::Result<(Eliminated, String)> {
    let limits = &program.puzzle().limits;
    let plan = pegflip::plan::colour_plan(program, limits)?;
    Ok((Eliminated::new(program, &plan)?, plan.erase().describe()))
}

/// Everything the page needs to draw and play the puzzle: the geometry,
/// the colours (symbols and palette), each press with what it adds.
fn view(program: &ColourProgram) -> pegflip::Result<Value> {
    let puzzle = program.puzzle();
    let mut view = geometry(puzzle)?;
    if let Some(reason) = program.moves_refusal(&puzzle.limits) {
        return Err(pegflip::Error::Usage(format!(
            "the page cannot play this puzzle: {reason}"
        )));
    }
    let moves: Vec<Value> = program
        .moves()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            json!({
                "kind": "toggle",
                "cells": [m.cell.0],
                "adds": m.adds.iter().map(|&(c, a)| [c.0 as u64, a]).collect::<Vec<_>>(),
                "flip": m.adds.iter().map(|&(c, _)| c.0).collect::<Vec<_>>(),
                "need_on": [],
                "need_off": [],
                "text": pegflip::answer::describe_press(program, i, 1),
            })
        })
        .collect();
    let (start, start_note) = match &puzzle.start_colours {
        Some(s) => (s.clone(), None),
        None => (
            made_up_start(program),
            Some(
                "the file declares no start, so this board is made up: random presses from the \
                 first target, so it can be solved",
            ),
        ),
    };
    let targets = program.targets();
    let k = program.modulus();
    view["pegs"] = json!(false);
    view["linear"] = json!(true);
    view["colours"] = json!(k);
    view["states"] = json!(
        puzzle
            .symbols
            .states()
            .iter()
            .map(char::to_string)
            .collect::<Vec<_>>()
    );
    view["palette"] = json!(render::palette(k));
    view["moves"] = json!(moves);
    view["start"] = json!(digits_text(&start));
    view["start_note"] = json!(start_note);
    view["goal"] = json!({
        "fewest_pieces": false,
        "targets": targets.len(),
        "shown": targets.iter().take(8).map(|(_, t)| program.board_text(t)).collect::<Vec<_>>(),
    });
    Ok(view)
}

/// A board for a file without a start, the same each time for the same
/// puzzle name: random presses from the first target.
fn made_up_start(program: &ColourProgram) -> Vec<u64> {
    let mut next = splitmix(
        program
            .puzzle()
            .name
            .bytes()
            .fold(0x9e37_79b9_7f4a_7c15_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            }),
    );
    let k = program.modulus();
    let presses: Vec<u64> = (0..program.move_count()).map(|_| next() % k).collect();
    let target = program
        .targets()
        .first()
        .map_or_else(|| vec![0; program.cells()], |(_, t)| t.clone());
    program.apply(&target, &presses)
}

/// splitmix64 from `seed`: a fixed pseudo-random sequence.
fn splitmix(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The fewest presses for one board (each press of a button pressed t
/// times listed t times, for the page to play one at a time), or each
/// certificate's weights; with `solve --json`'s answer and `solve`'s text.
fn solve(program: &ColourProgram, state: &str) -> pegflip::Result<Value> {
    let start = parse_digits(program, state)?;
    let (eliminated, plan) = eliminate(program)?;
    let outcome = eliminated.solve(&start, &program.puzzle().limits)?;
    let answer = pegflip::Answer::from_colours(program, &start, &outcome);
    pegflip::check::verify_colours(program, &answer).map_err(|e| {
        pegflip::Error::Internal(format!("an answer failed its check when read back: {e}"))
    })?;
    let (moves, certificates) = match &outcome {
        ColourOutcome::Solved(s) => (
            s.presses
                .iter()
                .flat_map(|&(index, times)| (0..times).map(move |_| index))
                .collect(),
            Vec::new(),
        ),
        ColourOutcome::Unsolvable(certificates) => (
            Vec::new(),
            certificates
                .iter()
                .map(|c| {
                    c.weights
                        .iter()
                        .enumerate()
                        .filter(|&(_, &w)| w != 0)
                        .map(|(i, &w)| [i as u64, w])
                        .collect::<Vec<_>>()
                })
                .collect(),
        ),
    };
    let text = render::colour_text(program, &start, &outcome);
    let sentences: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("every press"))
        .collect();
    Ok(json!({
        "answer": answer,
        "moves": moves,
        "length": answer.length,
        "certificates": certificates,
        "proof": sentences,
        "plan": plan,
        "text": text,
    }))
}

/// The modulus, rank and nullity (prime k), the solvable boards and the
/// first quiet patterns; and for a puzzle small enough the number of
/// solvable boards per distance.
fn explore(program: &ColourProgram) -> pegflip::Result<Value> {
    let (eliminated, _) = eliminate(program)?;
    let facts = eliminated.facts()?;
    let k = facts.modulus;
    let quiet: Vec<String> = facts
        .quiet_patterns
        .iter()
        .take(QUIET_PATTERNS)
        .map(|(g, _)| {
            let mut cells = vec![0u64; program.cells()];
            for (i, &t) in g.iter().enumerate() {
                if let Some(cell) = program.pressed_cell(i) {
                    cells[cell.0] = (cells[cell.0] + t) % k;
                }
            }
            digits_text(&cells)
        })
        .collect();
    let counted = layers(program, &eliminated, |_, _| Ok(()));
    let (histogram, refused) = match counted {
        Ok(counts) => (
            Some(
                counts
                    .iter()
                    .enumerate()
                    .map(|(d, n)| json!({ "distance": d, "count": n.to_string() }))
                    .collect::<Vec<_>>(),
            ),
            None,
        ),
        Err(pegflip::Error::Internal(m)) => return Err(pegflip::Error::Internal(m)),
        Err(e) => (None, Some(e.to_string())),
    };
    let prime = facts.rank.is_some();
    Ok(json!({
        "linear": null,
        "colours": {
            "modulus": k,
            "ring": if prime { format!("GF({k})") } else { format!("Z/{k}Z") },
            "rank": facts.rank,
            "nullity": facts.nullity,
            "solvable_states": eliminated.solvable_boards()?.to_string(),
            "per_target": facts.solvable.to_string(),
            "quiet_count": facts.quiet.to_string(),
            "targets": program.targets().len(),
            "quiet": quiet,
            "quiet_shown": quiet.len(),
            "generators": facts.quiet_patterns.len(),
        },
        "objective": false,
        "histogram": histogram,
        "histogram_refused": refused,
    }))
}

/// The boards at each distance, each visited, by the library's search back
/// from the targets; refused past [`EXPLORE_WORK`] (boards times presses).
fn layers(
    program: &ColourProgram,
    eliminated: &Eliminated,
    mut visit: impl FnMut(u32, &[u64]) -> pegflip::Result<()>,
) -> pegflip::Result<Vec<u128>> {
    let boards = eliminated.solvable_boards()?;
    let work = boards
        .to_u128()
        .unwrap_or(u128::MAX)
        .saturating_mul(program.move_count() as u128);
    if work > EXPLORE_WORK {
        return Err(pegflip::Error::Usage(format!(
            "too large to explore on the page: {boards} boards can reach the goal, a search of \
             about {:.1e} press operations, and the page explores up to {:.1e}; `pegflip states \
             FILE --count` counts them",
            work as f64, EXPLORE_WORK as f64
        )));
    }
    let mut counts: Vec<u128> = Vec::new();
    pegflip::colour_layers(program, &program.puzzle().limits, |d, board| {
        let d = d as usize;
        if counts.len() <= d {
            counts.resize(d + 1, 0);
        }
        counts[d] += 1;
        visit(d as u32, board)
    })?;
    Ok(counts)
}

/// A board drawn uniformly among those at `distance` from the goal, by the
/// search the histogram comes from.
fn pick(program: &ColourProgram, distance: u32, seed: u64) -> pegflip::Result<Value> {
    let (eliminated, _) = eliminate(program)?;
    let mut next = splitmix(seed);
    let (mut seen, mut chosen) = (0u64, None);
    layers(program, &eliminated, |d, board| {
        if d == distance {
            // Reservoir sampling: the n-th board replaces the choice with chance 1/n.
            seen += 1;
            if next().is_multiple_of(seen) {
                chosen = Some(board.to_vec());
            }
        }
        Ok(())
    })?;
    let board = chosen
        .ok_or_else(|| pegflip::Error::Usage(format!("no board is at distance {distance}")))?;
    Ok(json!({
        "state": digits_text(&board),
        "distance": distance,
        "uniform": true,
        "method": "uniform among the boards at that distance, from the search that counts them",
    }))
}
