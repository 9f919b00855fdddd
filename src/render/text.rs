//! An answer as text: the answer line, the start, and each move with the board after it.

use super::{MARK, answer_line, describe_move, marked_picture, pressed_cells};
use crate::answer::STEP_BOARDS_LIMIT;
use crate::bits::Bits;
use crate::program::{Goal, Program};
use crate::solve::{Outcome, Proof};

/// The full text answer: the answer line, then the start board, then each
/// move with the board after it. Boards are written one row per line.
pub fn text(program: &Program, start: &Bits, outcome: &Outcome) -> String {
    let puzzle = program.puzzle();
    let mut out = answer_line(program, outcome);
    out.push('\n');
    // Room for the three pictures of a large answer at once, so the text never regrows.
    let picture = puzzle.board.rows() * (puzzle.board.cols() + 1);
    out.reserve(3 * picture + 4096);
    let board = |state: &Bits| {
        crate::io::board::write_board(state, &puzzle.board, &puzzle.symbols, "\n") + "\n"
    };
    match outcome {
        Outcome::Unsolvable(proof) => {
            out.push_str("no sequence of moves reaches the goal from\n");
            out.push_str(&board(start));
            match proof {
                Proof::Search => {
                    out.push_str("proof: an exhaustive search visited every reachable state\n");
                }
                Proof::Rank => out.push_str(
                    "proof: elimination over GF(2) shows the board is outside the span of the \
                     moves (the puzzle is too large to print a certificate)\n",
                ),
                Proof::Parity(certificates) => {
                    for c in certificates {
                        out.push_str(&format!(
                            "\ncertificate for target {}:\n",
                            puzzle.board_text(&c.target)
                        ));
                        out.push_str(&marked_picture(puzzle, &c.cells));
                        let mut diff = start.clone();
                        diff.xor_assign(&c.target);
                        let odd = diff.ones_iter().filter(|&i| c.cells.get(i)).count();
                        out.push_str(&format!(
                            "every move flips an even number of the {} cells marked {MARK}, so \
                             the parity of the pieces on them never changes; the board and the \
                             target differ on {odd} of them, an odd number\n",
                            c.cells.count_ones()
                        ));
                    }
                }
            }
        }
        Outcome::Solved(solution) => {
            if matches!(program.goal(), Goal::FewestPieces) {
                let pieces = solution.end.count_ones();
                out.push_str(&format!(
                    "{pieces} {} left after {} {}\n",
                    plural(pieces, "piece"),
                    solution.moves.len(),
                    plural(solution.moves.len(), "move")
                ));
            }
            if !solution.optimal {
                out.push_str(
                    "not proven optimal: the solution coset was too large to walk in full \
                     (raise --coset-work to search further)\n",
                );
            }
            out.push_str("start\n");
            out.push_str(&board(start));
            if solution.moves.len().saturating_mul(program.cells()) > STEP_BOARDS_LIMIT {
                // Presses commute: past the limit a linear answer is its picture.
                let linear = program.is_linear();
                if !linear {
                    for (i, &m) in solution.moves.iter().enumerate() {
                        out.push_str(&format!("{}. {}\n", i + 1, describe_move(program, m)));
                    }
                }
                if linear {
                    out.push_str(&format!("pressed cells, marked {MARK}\n"));
                    out.push_str(&marked_picture(
                        puzzle,
                        &pressed_cells(program, &solution.moves),
                    ));
                }
                out.push_str("final\n");
                out.push_str(&board(&solution.end));
            } else {
                let states = program.trace(start, &solution.moves).unwrap_or_default();
                for (i, (&m, state)) in solution.moves.iter().zip(states.iter().skip(1)).enumerate()
                {
                    out.push_str(&format!("{}. {}\n", i + 1, describe_move(program, m)));
                    out.push_str(&board(state));
                }
            }
        }
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}
