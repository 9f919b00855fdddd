//! An answer as text: the answer line, the start, and each move with the board after it.

use std::io::Write;

use super::{MARK, answer_line, describe_move, pressed_cells};
use crate::answer::STEP_BOARDS_LIMIT;
use crate::bits::Bits;
use crate::outcome::{Outcome, PlayedMoves, Proof};
use crate::program::{Goal, Program};

/// The full text answer: the answer line, then the start board, then each
/// move with the board after it. Boards are written one row per line.
pub fn text(program: &Program, start: &Bits, outcome: &Outcome) -> String {
    let mut out = Vec::new();
    write_text(&mut out, program, start, outcome).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the text answer is UTF-8")
}

/// [`text()`], written to `out` as it is made: a board of 10^8 cells goes
/// out row by row, never held as one string.
pub fn write_text(
    out: &mut dyn Write,
    program: &Program,
    start: &Bits,
    outcome: &Outcome,
) -> std::io::Result<()> {
    let puzzle = program.puzzle();
    let symbols = &puzzle.symbols;
    writeln!(out, "{}", answer_line(program, outcome))?;
    let board = |out: &mut dyn Write, state: &Bits| {
        picture(out, state, program, symbols.on(), symbols.off())
    };
    match outcome {
        Outcome::Unsolvable(proof) => {
            writeln!(out, "no sequence of moves reaches the goal from")?;
            board(out, start)?;
            match proof {
                Proof::Search => {
                    writeln!(
                        out,
                        "proof: an exhaustive search visited every reachable state"
                    )?;
                }
                Proof::MoveLevels(most) => writeln!(
                    out,
                    "proof: the levels by moves, searched both ways with every bound up to \
                     {most} moves, meet nowhere, and no solution could have more (each move \
                     removes a piece)"
                )?,
                Proof::Rank => writeln!(
                    out,
                    "proof: elimination over GF(2) shows the board is outside the span of the \
                     moves (the puzzle is too large to print a certificate)"
                )?,
                Proof::Parity(certificates) => {
                    for c in certificates {
                        writeln!(
                            out,
                            "\ncertificate for target {}:",
                            puzzle.board_text(&c.target)
                        )?;
                        picture(out, &c.cells, program, MARK, symbols.off())?;
                        let mut diff = start.clone();
                        diff.xor_assign(&c.target);
                        let odd = diff.ones_iter().filter(|&i| c.cells.get(i)).count();
                        writeln!(
                            out,
                            "every move flips an even number of the {} cells marked {MARK}, so \
                             the parity of the pieces on them never changes; the board and the \
                             target differ on {odd} of them, an odd number",
                            c.cells.count_ones()
                        )?;
                    }
                }
            }
        }
        Outcome::Solved(solution) => {
            if matches!(program.goal(), Goal::FewestPieces) {
                let pieces = solution.end.count_ones();
                writeln!(
                    out,
                    "{pieces} {} left after {} {}",
                    plural(pieces, "piece"),
                    solution.moves.len(),
                    plural(solution.moves.len(), "move")
                )?;
            }
            if !solution.optimal && solution.chains.is_none() {
                writeln!(
                    out,
                    "not proven optimal: the solution coset was too large to walk in full \
                     (raise --coset-work to search further)"
                )?;
            }
            if let (Some(chains), PlayedMoves::List(jumps)) = (&solution.chains, &solution.moves) {
                return write_chains(out, program, start, jumps, chains);
            }
            writeln!(out, "start")?;
            board(out, start)?;
            if solution.moves.len().saturating_mul(program.cells()) > STEP_BOARDS_LIMIT {
                // Presses commute: past the limit a linear answer is its picture.
                if program.is_linear() {
                    writeln!(out, "pressed cells, marked {MARK}")?;
                    let pressed = match &solution.moves {
                        PlayedMoves::Presses(set) if program.stencil().is_some() => set.clone(),
                        moves => pressed_cells(program, moves),
                    };
                    picture(out, &pressed, program, MARK, symbols.off())?;
                } else {
                    for (i, m) in solution.moves.iter().enumerate() {
                        writeln!(out, "{}. {}", i + 1, describe_move(program, m))?;
                    }
                }
                writeln!(out, "final")?;
                board(out, &solution.end)?;
            } else {
                let states = program.trace(start, &solution.moves).unwrap_or_default();
                for (i, (m, state)) in solution.moves.iter().zip(states.iter().skip(1)).enumerate()
                {
                    writeln!(out, "{}. {}", i + 1, describe_move(program, m))?;
                    board(out, state)?;
                }
            }
        }
    }
    Ok(())
}

/// A solution counted in moves: the proof line, then each move as the path
/// of its piece (`f4-d4-d6`) and the board after it.
fn write_chains(
    out: &mut dyn Write,
    program: &Program,
    start: &Bits,
    jumps: &[usize],
    chains: &crate::outcome::Chains,
) -> std::io::Result<()> {
    let symbols = &program.puzzle().symbols;
    let levels = &chains.levels;
    let sizes = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let (back_to, per_target) = match levels.targets {
        0 | 1 => (String::new(), String::new()),
        n if levels.apart => (
            " at most".to_string(),
            format!(" from each of {n} targets (one per orbit, one at a time)"),
        ),
        n => (
            " at most".to_string(),
            format!(" from each of {n} targets (one per orbit)"),
        ),
    };
    let fore_to = if levels.apart { " at most" } else { "" };
    let mut from = Vec::new();
    if levels.regions > 0 {
        from.push(format!(
            "Merson regions (the board's {} disjoint ones or its own packing)",
            levels.regions
        ));
    }
    if levels.types {
        from.push("peg types".to_string());
    }
    let proof = match levels.none_within {
        Some(bound) => {
            let kept = match from.is_empty() {
                true => format!("a position is kept only if its level is at most {bound}"),
                false => format!(
                    "a position is kept only if its level plus a lower bound on the moves left, \
                     from {}, is at most {bound}",
                    from.join(" and ")
                ),
            };
            // The bound `frontier`: toward the other side's last level.
            let toward = match (levels.frontier, from.is_empty()) {
                (false, _) => String::new(),
                (true, true) => format!(
                    ", and its level plus the depth of the other side's last level is at most \
                     {bound} too"
                ),
                (true, false) => format!(
                    ", and its level plus the depth of the other side's last level plus a lower \
                     bound on the moves to that level's positions, from the same, is at most \
                     {bound} too"
                ),
            };
            let cut = match (levels.pagoda, levels.pagodas) {
                (false, _) => String::new(),
                (true, 1) => ", and no pagoda function (1 found by linear programming) cuts it \
                              off from the other end"
                    .to_string(),
                (true, n) => format!(
                    ", and no pagoda function ({n} found by linear programming) cuts it off \
                     from the other end"
                ),
            };
            format!(
                "no solution has {bound} moves or fewer: levels by moves bounded by {bound} \
                 ({kept}{toward}{cut}) searched forward to{fore_to} {} and backward to{back_to} {}{per_target}, \
                 and no meeting has {bound} moves or fewer",
                levels.forward.len().saturating_sub(1),
                levels.backward.len().saturating_sub(1),
            )
        }
        None if chains.stopped.is_some() => format!(
            "every solution has at least {} {}, by the bounds on the start",
            levels.lower,
            plural(levels.lower as usize, "move")
        ),
        None => match (levels.lower, levels.types) {
            (0, _) => "the start is a target".to_string(),
            (1, false) => "no solution has fewer: 1 Merson region is full at the start and not \
                           at the end, and it needs a move of its own"
                .to_string(),
            (n, false) => format!(
                "no solution has fewer: {n} Merson regions are full at the start and not at \
                 the end, and each needs a move of its own"
            ),
            (n, true) => format!(
                "no solution has fewer: {} give the start a lower bound of {n} {}",
                from.join(" and "),
                plural(n as usize, "move"),
            ),
        },
    };
    let (moves, jumps_played) = (
        format!(
            "{} {}",
            chains.lengths.len(),
            plural(chains.lengths.len(), "move")
        ),
        format!("{} {}", jumps.len(), plural(jumps.len(), "jump")),
    );
    match &chains.stopped {
        None => writeln!(
            out,
            "fewest moves, proved: {moves} ({jumps_played}); {proof}"
        )?,
        Some(stopped) => writeln!(
            out,
            "shortest found, not proved fewest: {moves} ({jumps_played}); proved: {proof}; \
             the levels then stopped: {stopped}"
        )?,
    }
    let up_to = |n: usize| match n {
        1 => "without symmetry".to_string(),
        n => format!("up to {n} symmetries"),
    };
    if levels.none_within.is_some() {
        match levels.apart {
            false => writeln!(
                out,
                "positions per level forward, {}: {}",
                up_to(levels.forward_symmetries),
                sizes(&levels.forward),
            )?,
            true => writeln!(
                out,
                "positions per level forward, summed over the {} targets, each searched toward \
                 on its own (the shared levels did not fit), {}: {}",
                levels.targets,
                up_to(levels.forward_symmetries),
                sizes(&levels.forward),
            )?,
        }
        match levels.targets {
            0 | 1 => writeln!(
                out,
                "positions per level backward, {}: {}",
                up_to(levels.backward_symmetries),
                sizes(&levels.backward),
            )?,
            n => writeln!(
                out,
                "positions per level backward, summed over the {n} targets, each up to its own \
                 symmetries: {}",
                sizes(&levels.backward),
            )?,
        }
        if levels.in_parts {
            writeln!(
                out,
                "(a side's last level was too large to hold: it was checked for meetings in \
                 parts as it grew, and counts a position once in each part that found it)"
            )?;
        }
    }
    writeln!(out, "start")?;
    picture(out, start, program, symbols.on(), symbols.off())?;
    let mut state = start.clone();
    for (i, chain) in chains.group(jumps).enumerate() {
        state = program
            .replay(&state, chain)
            .map_err(std::io::Error::other)?;
        writeln!(out, "{}. {}", i + 1, super::chain_path(program, chain))?;
        picture(out, &state, program, symbols.on(), symbols.off())?;
    }
    Ok(())
}

/// Writes `state` one row per line: `on` where a cell is set, `off` where it
/// is clear, the gap symbol where the grid has no cell.
fn picture(
    out: &mut dyn Write,
    state: &Bits,
    program: &Program,
    on: char,
    off: char,
) -> std::io::Result<()> {
    let board = program.board();
    let gap = program.puzzle().symbols.gap();
    if !board.is_rectangular() || board.cells() < 1 << 16 {
        let text = crate::io::board::picture(state, board, on, off, gap, "\n");
        return writeln!(out, "{text}");
    }
    // A large rectangle: a row at a time, through one buffer.
    let (rows, cols) = (board.rows(), board.cols());
    let (mut on_bytes, mut off_bytes) = ([0u8; 4], [0u8; 4]);
    let symbol = [
        off.encode_utf8(&mut off_bytes).as_bytes(),
        on.encode_utf8(&mut on_bytes).as_bytes(),
    ];
    let words = state.words();
    let mut buffer = Vec::with_capacity(cols * 4 + 1);
    for r in 0..rows {
        buffer.clear();
        for i in r * cols..(r + 1) * cols {
            buffer.extend_from_slice(symbol[(words[i / 64] >> (i % 64) & 1) as usize]);
        }
        buffer.push(b'\n');
        out.write_all(&buffer)?;
    }
    Ok(())
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

#[cfg(test)]
mod tests {
    use crate::limits::Limits;
    use crate::outcome::Outcome;

    /// A proof whose last level was checked in parts says so, in the text
    /// and in JSON; one that held its levels says nothing of parts.
    #[test]
    fn a_last_level_checked_in_parts_is_said_so() {
        let text = "name = \"t5\"\nmetric = \"moves\"\n[board]\nlattice = \"triangular\"\n\
                    shape = [\"o....\", \"oo...\", \"ooo..\", \"oooo.\", \"ooooo\"]\n\
                    names = \"numbers\"\n[[moves]]\njump = \"triangular\"\n[goal]\n\
                    one-piece = \"anywhere\"\n";
        let puzzle = crate::Puzzle::parse(text, "t5.toml").unwrap();
        let program = puzzle.compile().unwrap();
        let start = puzzle.read_board("full but 4", "<board>").unwrap().state;
        let limits = Limits::default();
        let mut outcome = crate::solve(&program, &start, &limits).unwrap();
        let line = "checked for meetings in parts as it grew";
        for in_parts in [false, true] {
            if let Outcome::Solved(solution) = &mut outcome {
                solution.chains.as_mut().unwrap().levels.in_parts = in_parts;
            }
            let text = super::text(&program, &start, &outcome);
            assert_eq!(text.contains(line), in_parts, "{text}");
            let answer =
                crate::render::json::checked_answer(&program, &start, &outcome, &limits).unwrap();
            let json = serde_json::to_value(&answer).unwrap();
            assert_eq!(json["levels"].get("in_parts").is_some(), in_parts, "{json}");
        }
    }
}
