//! Solutions and proofs as text for people and as JSON for programs.

use serde_json::{Value, json};

use crate::bits::Bits;
use crate::program::{Goal, MoveKind, Program};
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, Proof};

/// Past this many cells times moves, text output shows the pressed cells and
/// the final board instead of every intermediate board.
const STEP_BOARDS_LIMIT: usize = 200_000;

/// The character marking a cell of a certificate or a pressed cell in pictures.
const MARK: char = '#';

/// A move in words: `press [1, 2]`, or `jump [0, 3] over [0, 4] to [0, 5]`.
pub fn describe_move(puzzle: &Puzzle, program: &Program, index: usize) -> String {
    let m = &program.moves()[index];
    let at = |i: usize| {
        let [r, c] = puzzle.board.coord(m.cells[i]);
        format!("[{r}, {c}]")
    };
    match m.kind {
        MoveKind::Toggle => format!("press {}", at(0)),
        MoveKind::Jump => format!("jump {} over {} to {}", at(0), at(1), at(2)),
    }
}

/// The answer line that `batch` prints for this outcome: the number of moves,
/// the puzzle's impossible word, or for fewest pieces the pieces left.
pub fn answer_line(puzzle: &Puzzle, program: &Program, outcome: &Outcome) -> String {
    match (outcome, program.goal()) {
        (Outcome::Unsolvable(_), _) => puzzle.batch.impossible.clone(),
        (Outcome::Solved(s), Goal::FewestPieces) => s.end.count_ones().to_string(),
        (Outcome::Solved(s), Goal::Targets(_)) => s.moves.len().to_string(),
    }
}

/// A picture of the board with the cells of `marked` drawn as `#`.
pub fn marked_picture(puzzle: &Puzzle, marked: &Bits) -> String {
    let board = &puzzle.board;
    let mut out = String::new();
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            out.push(match board.cell_at(r, c) {
                Some(cell) if marked.get(cell.0) => MARK,
                Some(_) => puzzle.symbols.off(),
                None => puzzle.symbols.gap(),
            });
        }
        out.push('\n');
    }
    out
}

/// The cells pressed or moved from by a list of moves, as a set.
fn pressed_cells(program: &Program, moves: &[usize]) -> Bits {
    let mut cells = Bits::zeros(program.cells());
    for &m in moves {
        let c = program.moves()[m].cells[0].0;
        cells.set(c, !cells.get(c));
    }
    cells
}

/// The full text answer: the answer line, then the start board, then each
/// move with the board after it. Boards are written one row per line.
pub fn text(puzzle: &Puzzle, program: &Program, start: &Bits, outcome: &Outcome) -> String {
    let mut out = answer_line(puzzle, program, outcome);
    out.push('\n');
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
                let linear = program.is_linear();
                for (i, &m) in solution.moves.iter().enumerate() {
                    out.push_str(&format!(
                        "{}. {}\n",
                        i + 1,
                        describe_move(puzzle, program, m)
                    ));
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
                    out.push_str(&format!(
                        "{}. {}\n",
                        i + 1,
                        describe_move(puzzle, program, m)
                    ));
                    out.push_str(&board(state));
                }
            }
        }
    }
    out
}

/// The JSON answer: `solvable`; when solvable `length`, `optimal`, `moves`
/// (each with `kind`, `cells`, and on small boards the `board` after it),
/// `final`, and `pieces` for the fewest-pieces objective; when a parity proof
/// exists, `certificate`: one `{target, cells}` per target.
pub fn json(puzzle: &Puzzle, program: &Program, start: &Bits, outcome: &Outcome) -> Value {
    let mut v = json!({
        "puzzle": puzzle.name,
        "start": puzzle.board_text(start),
        "solvable": matches!(outcome, Outcome::Solved(_)),
    });
    let coords = |cells: &mut dyn Iterator<Item = usize>| -> Vec<[usize; 2]> {
        cells
            .map(|c| puzzle.board.coord(crate::CellId(c)))
            .collect()
    };
    match outcome {
        Outcome::Solved(solution) => {
            let small = solution.moves.len().saturating_mul(program.cells()) <= STEP_BOARDS_LIMIT;
            let states = if small {
                program.trace(start, &solution.moves).unwrap_or_default()
            } else {
                Vec::new()
            };
            let moves: Vec<Value> = solution
                .moves
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    let mv = &program.moves()[m];
                    let kind = match mv.kind {
                        MoveKind::Toggle => "toggle",
                        MoveKind::Jump => "jump",
                    };
                    let cells = coords(&mut mv.cells.iter().map(|c| c.0));
                    let mut step = json!({ "kind": kind, "cells": cells });
                    if let Some(state) = states.get(i + 1) {
                        step["board"] = json!(puzzle.board_text(state));
                    }
                    step
                })
                .collect();
            v["length"] = json!(solution.moves.len());
            v["optimal"] = json!(solution.optimal);
            v["moves"] = json!(moves);
            v["final"] = json!(puzzle.board_text(&solution.end));
            if matches!(program.goal(), Goal::FewestPieces) {
                v["pieces"] = json!(solution.end.count_ones());
            }
        }
        Outcome::Unsolvable(proof) => {
            v["proof"] = json!(match proof {
                Proof::Search => "search",
                Proof::Parity(_) => "parity",
                Proof::Rank => "rank",
            });
            if let Proof::Parity(certificates) = proof {
                let list: Vec<Value> = certificates
                    .iter()
                    .map(|c| {
                        json!({
                            "target": puzzle.board_text(&c.target),
                            "cells": coords(&mut c.cells.ones_iter()),
                        })
                    })
                    .collect();
                v["certificate"] = json!(list);
            }
        }
    }
    v
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}
