//! Checks for puzzles of k colours: press counts replayed, weighted certificates, written answers.

use super::CheckError;
use crate::answer::Answer;
use crate::outcome::{ColourCertificate, ColourOutcome};
use crate::program::colours::{ColourProgram, mul};

/// Checks a certificate modulo k: no press changes the weighted sum of the
/// cells, and the start's sum differs from its target's.
pub fn check_colour_certificate(
    program: &ColourProgram,
    start: &[u64],
    certificate: &ColourCertificate,
) -> Result<(), CheckError> {
    let k = program.modulus();
    let target = &program
        .targets()
        .get(certificate.target)
        .ok_or(CheckError::Uncovered(certificate.target + 1))?
        .1;
    let what = format!("certificate for {}", program.board_text(target));
    if certificate.weights.len() != program.cells() || certificate.weights.iter().any(|&w| w >= k) {
        return Err(CheckError::Weights {
            what,
            reason: format!("expected one weight in 0..{k} per cell"),
        });
    }
    let weights = &certificate.weights;
    if let Some((index, &by)) = program
        .weigh_presses(weights)
        .iter()
        .enumerate()
        .find(|&(_, &s)| s != 0)
    {
        return Err(CheckError::WeightedMove { what, index, by, k });
    }
    let sum = |board: &[u64]| {
        board
            .iter()
            .zip(weights)
            .fold(0, |s, (&v, &w)| (s + mul(v % k, w, k)) % k)
    };
    if sum(start) == sum(target) {
        return Err(CheckError::WeightedSum { what, k });
    }
    Ok(())
}

/// Checks an outcome of a puzzle of k colours independently of the engine:
/// the presses are replayed and must reach the target named, or every
/// target has a certificate that holds.
pub fn check_colour_outcome(
    program: &ColourProgram,
    start: &[u64],
    outcome: &ColourOutcome,
) -> Result<(), CheckError> {
    let k = program.modulus();
    match outcome {
        ColourOutcome::Solved(solution) => {
            let mut counts = vec![0u64; program.move_count()];
            for (step, &(index, times)) in solution.presses.iter().enumerate() {
                if !(1..k).contains(&times) {
                    return Err(CheckError::Times {
                        step: step + 1,
                        times,
                        most: k - 1,
                    });
                }
                let slot = counts
                    .get_mut(index)
                    .ok_or_else(|| CheckError::NoSuchMove {
                        step: step + 1,
                        reason: format!("there is no press {index}"),
                    })?;
                *slot = (*slot + times) % k;
            }
            let end = program.apply(start, &counts);
            if end != solution.end {
                return Err(CheckError::Final {
                    actual: program.board_text(&end),
                });
            }
            match program.targets().get(solution.target) {
                Some((_, target)) if *target == end => Ok(()),
                _ => Err(CheckError::NotTarget(program.board_text(&end))),
            }
        }
        ColourOutcome::Unsolvable(certificates) => {
            for t in 0..program.targets().len() {
                let certificate = certificates
                    .iter()
                    .find(|c| c.target == t)
                    .ok_or(CheckError::Uncovered(t + 1))?;
                check_colour_certificate(program, start, certificate)?;
            }
            Ok(())
        }
    }
}

/// Checks a written answer (`solve --json`) of a puzzle of k colours: the
/// presses replayed (a step's `times`, default 1), the length, the final
/// board and the target; or a weighted certificate for every target.
pub fn verify_colours(program: &ColourProgram, answer: &Answer) -> Result<String, CheckError> {
    let k = program.modulus();
    let puzzle = program.puzzle();
    if answer.modulus.unwrap_or(2) != k {
        return Err(CheckError::Modulus {
            claimed: answer
                .modulus
                .map_or_else(|| "not given".into(), |m| m.to_string()),
            actual: k,
        });
    }
    let start = puzzle
        .read_colours(&answer.start, "start")
        .map(|r| r.digits)
        .map_err(|e| CheckError::Board {
            what: "start".into(),
            reason: e.to_string(),
        })?;
    if !answer.solvable {
        let list = answer
            .certificate
            .as_ref()
            .ok_or(CheckError::NoCertificate)?;
        for (t, (_, target)) in program.targets().iter().enumerate() {
            let target_text = program.board_text(target);
            let entry = list
                .iter()
                .find(|c| c.target == target_text)
                .ok_or(CheckError::Uncovered(t + 1))?;
            let what = format!("certificate for {target_text}");
            let weights_given = entry
                .weights
                .clone()
                .unwrap_or_else(|| vec![1; entry.cells.len()]);
            if weights_given.len() != entry.cells.len() {
                return Err(CheckError::Weights {
                    what,
                    reason: format!(
                        "{} weights for {} cells",
                        weights_given.len(),
                        entry.cells.len()
                    ),
                });
            }
            let mut weights = vec![0u64; program.cells()];
            for (&[r, c], &w) in entry.cells.iter().zip(&weights_given) {
                let cell = super::cell_named(&puzzle.board, &what, r, c)?;
                weights[cell.0] = w;
            }
            check_colour_certificate(program, &start, &ColourCertificate { target: t, weights })?;
        }
        return Ok(format!(
            "{} certificate(s) hold: no press counts reach the goal",
            program.targets().len()
        ));
    }
    let steps = answer
        .moves
        .as_ref()
        .ok_or(CheckError::Missing("\"moves\""))?;
    let mut by_cell: Vec<Option<usize>> = vec![None; program.cells()];
    for i in (0..program.move_count()).rev() {
        if let Some(cell) = program.pressed_cell(i) {
            by_cell[cell.0] = Some(i);
        }
    }
    let mut counts = vec![0u64; program.move_count()];
    let mut length = 0u64;
    for (i, step) in steps.iter().enumerate() {
        let no_such = |reason: String| CheckError::NoSuchMove {
            step: i + 1,
            reason,
        };
        if step.kind != "toggle" {
            return Err(no_such(format!(
                "a puzzle of {k} colours has presses (kind \"toggle\"), not \"{}\"",
                step.kind
            )));
        }
        let &[[r, c]] = step.cells.as_slice() else {
            return Err(no_such("a press names one cell, [row, col]".into()));
        };
        let index = puzzle
            .board
            .cell_at(r, c)
            .and_then(|cell| by_cell[cell.0])
            .ok_or_else(|| no_such(format!("no press is at [{r}, {c}]")))?;
        let times = step.times.unwrap_or(1);
        if !(1..k).contains(&times) {
            return Err(CheckError::Times {
                step: i + 1,
                times,
                most: k - 1,
            });
        }
        counts[index] = (counts[index] + times) % k;
        length += times;
    }
    if answer.length.map(|l| l as u64) != Some(length) {
        return Err(CheckError::Length {
            claimed: answer
                .length
                .map_or_else(|| "missing".into(), |l| l.to_string()),
            actual: length as usize,
        });
    }
    let end = program.apply(&start, &counts);
    let end_text = program.board_text(&end);
    if let Some(claimed) = &answer.final_board
        && *claimed != end_text
    {
        return Err(CheckError::Final { actual: end_text });
    }
    if !program.targets().iter().any(|(_, t)| *t == end) {
        return Err(CheckError::NotTarget(end_text));
    }
    Ok(format!("{length} presses reach the target {end_text}"))
}
