//! An answer of a puzzle of k colours as text: the fewest presses and the boards along the way, or the weighted certificates.

use std::io::Write;

use crate::answer::{Answer, STEP_BOARDS_LIMIT};
use crate::outcome::ColourOutcome;
use crate::program::colours::ColourProgram;

/// The answer line `batch` prints: the number of presses (a button pressed
/// t times counting t), or the puzzle's impossible word.
pub fn colour_answer_line(program: &ColourProgram, outcome: &ColourOutcome) -> String {
    match outcome {
        ColourOutcome::Solved(s) => s.length().to_string(),
        ColourOutcome::Unsolvable(_) => program.puzzle().batch.impossible.clone(),
    }
}

/// The text answer: the answer line, the start, then each press with the
/// board after it (past [`STEP_BOARDS_LIMIT`] cells times presses, the
/// presses and the final board); or each target's certificate, its
/// weights drawn as digits on the board.
pub fn write_colour_text(
    out: &mut dyn Write,
    program: &ColourProgram,
    start: &[u64],
    outcome: &ColourOutcome,
) -> std::io::Result<()> {
    let k = program.modulus();
    writeln!(out, "{}", colour_answer_line(program, outcome))?;
    let board = |out: &mut dyn Write, digits: &[u64]| {
        writeln!(out, "{}", program.board_text(digits).replace('/', "\n"))
    };
    match outcome {
        ColourOutcome::Unsolvable(certificates) => {
            writeln!(out, "no press counts reach the goal from")?;
            board(out, start)?;
            for c in certificates {
                let target = &program.targets()[c.target].1;
                writeln!(
                    out,
                    "\ncertificate for target {}: weights",
                    program.board_text(target)
                )?;
                let width = (k - 1).to_string().len();
                let board_ = program.board();
                for r in 0..board_.rows() {
                    let row: Vec<String> = (0..board_.cols())
                        .map(|col| match board_.cell_at(r, col) {
                            Some(cell) => format!("{:>width$}", c.weights[cell.0]),
                            None => format!("{:>width$}", "."),
                        })
                        .collect();
                    writeln!(out, "{}", row.join(" "))?;
                }
                let sum = |b: &[u64]| {
                    b.iter().zip(&c.weights).fold(0u128, |s, (&v, &w)| {
                        (s + u128::from(v) * u128::from(w)) % u128::from(k)
                    })
                };
                writeln!(
                    out,
                    "every press adds a multiple of {k} to the sum of each cell's colour times \
                     its weight, so that sum never changes mod {k}; it is {} on the board and {} \
                     on the target",
                    sum(start),
                    sum(target)
                )?;
            }
        }
        ColourOutcome::Solved(s) => {
            if !s.optimal {
                writeln!(
                    out,
                    "not proven optimal: the solution coset was too large to walk in full \
                     (raise --coset-work to search further)"
                )?;
            }
            writeln!(out, "start")?;
            board(out, start)?;
            if s.presses.len().saturating_mul(program.cells()) > STEP_BOARDS_LIMIT {
                // Presses commute: past the limit the answer is how often each cell is pressed.
                writeln!(out, "times each cell is pressed")?;
                let mut counts = vec![0u64; program.cells()];
                for &(index, times) in &s.presses {
                    if let Some(cell) = program.pressed_cell(index) {
                        counts[cell.0] = (counts[cell.0] + times) % k;
                    }
                }
                let b = program.board();
                let digit = |t: u64| char::from_digit(t as u32, 36).unwrap_or('?');
                let mut line = String::with_capacity(b.cols());
                for r in 0..b.rows() {
                    line.clear();
                    for c in 0..b.cols() {
                        line.push(match b.cell_at(r, c) {
                            Some(cell) if k <= 36 => digit(counts[cell.0]),
                            Some(cell) => {
                                char::from_digit(counts[cell.0].min(35) as u32, 36).unwrap_or('?')
                            }
                            None => program.puzzle().symbols.gap(),
                        });
                    }
                    writeln!(out, "{line}")?;
                }
                writeln!(out, "final")?;
                board(out, &s.end)?;
            } else {
                let answer = Answer::from_colours(program, start, outcome);
                for (i, step) in answer.moves.unwrap_or_default().iter().enumerate() {
                    writeln!(out, "{}. {}", i + 1, step.text)?;
                    if let Some(b) = &step.board {
                        writeln!(out, "{}", b.replace('/', "\n"))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// [`write_colour_text`] into a string.
pub fn colour_text(program: &ColourProgram, start: &[u64], outcome: &ColourOutcome) -> String {
    let mut out = Vec::new();
    write_colour_text(&mut out, program, start, outcome).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the text answer is UTF-8")
}

/// The palette of a puzzle's colours, in cycle order: the first (clear)
/// colour pale, then distinct hues; past ten colours, hues around the wheel.
pub fn palette(k: u64) -> Vec<String> {
    const FIXED: [&str; 10] = [
        "#f1efe8", "#d62728", "#2ca02c", "#1f77b4", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
        "#bcbd22", "#17becf",
    ];
    (0..k)
        .map(|i| match FIXED.get(i as usize) {
            Some(c) if k <= 10 => (*c).to_string(),
            _ if i == 0 => FIXED[0].to_string(),
            _ => format!("hsl({}, 65%, 50%)", (i - 1) * 360 / (k - 1)),
        })
        .collect()
}

/// The start and the board after each press as one SVG picture, each cell
/// drawn in its colour ([`palette`]) with the pressed cell ringed and the
/// count written; an impossible board with each certificate's weights.
/// Boards past `svg-cells` or answers past `svg-panels` are drawn as their
/// start and end only.
pub fn colour_svg(program: &ColourProgram, start: &[u64], outcome: &ColourOutcome) -> String {
    use super::svg::{Sheet, escape};
    use super::{CELL, SVG_CELLS, SVG_PANELS, layout};
    let board = program.board();
    let colours = palette(program.modulus());
    // Each panel: caption, board, pressed cell, weights to write.
    type Panel<'a> = (String, Vec<u64>, Option<usize>, Option<&'a [u64]>);
    let mut panels: Vec<Panel> = vec![("start".into(), start.to_vec(), None, None)];
    match outcome {
        ColourOutcome::Solved(s) => {
            let answer = Answer::from_colours(program, start, outcome);
            let steps = answer.moves.unwrap_or_default();
            let mut counts = vec![0u64; program.move_count()];
            if s.presses.len() < SVG_PANELS && board.cells() <= SVG_CELLS {
                for (step, &(index, times)) in steps.iter().zip(&s.presses) {
                    counts[index] = times;
                    let cell = program.pressed_cell(index).map(|c| c.0);
                    panels.push((step.text.clone(), program.apply(start, &counts), cell, None));
                }
            } else {
                panels.push(("final".into(), s.end.clone(), None, None));
            }
        }
        ColourOutcome::Unsolvable(certificates) => {
            panels[0].0 = "impossible".into();
            for c in certificates {
                let target = program.board_text(&program.targets()[c.target].1);
                panels.push((
                    format!("weights vs {target}"),
                    start.to_vec(),
                    None,
                    Some(&c.weights),
                ));
            }
        }
    }
    let (spots, bw, bh) = layout(board);
    let sheet = Sheet::new(bw, bh, panels.iter().map(|p| p.0.as_str()));
    let mut out = sheet.header();
    for (p, (caption, digits, pressed, weights)) in panels.iter().enumerate() {
        let (x0, y0) = sheet.corner(p);
        let caption = escape(caption);
        out.push_str(&format!(
            "<text x=\"{x0}\" y=\"{}\">{caption}</text>\n",
            y0 - 8
        ));
        if board.cells() > SVG_CELLS {
            continue;
        }
        for (cell, &(x, y)) in spots.iter().enumerate() {
            let (cx, cy) = (x0 + x, y0 + y);
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" \
                 stroke=\"#999\"/>\n",
                cx - CELL / 2 + 1,
                cy - CELL / 2 + 1,
                CELL - 2,
                CELL - 2,
                colours[digits[cell] as usize]
            ));
            if *pressed == Some(cell) {
                out.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"#000\" \
                     stroke-width=\"3\"/>\n",
                    CELL / 2 - 3
                ));
            }
            if let Some(w) = weights.map(|w| w[cell]).filter(|&w| w != 0) {
                out.push_str(&format!(
                    "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\" \
                     font-weight=\"bold\" fill=\"#000\">{w}</text>\n",
                    cy + 5
                ));
            }
        }
    }
    out.push_str("</svg>\n");
    out
}
