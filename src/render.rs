//! Solutions as text for people and as JSON for programs.

use serde_json::{Value, json};

use crate::bits::Bits;
use crate::program::{Goal, MoveKind, Program};
use crate::puzzle::Puzzle;
use crate::solve::Outcome;

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
        (Outcome::Unsolvable, _) => puzzle.batch.impossible.clone(),
        (Outcome::Solved(s), Goal::FewestPieces) => s.end.count_ones().to_string(),
        (Outcome::Solved(s), Goal::Targets(_)) => s.moves.len().to_string(),
    }
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
        Outcome::Unsolvable => {
            out.push_str("no sequence of moves reaches the goal from\n");
            out.push_str(&board(start));
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
            out.push_str("start\n");
            out.push_str(&board(start));
            let states = program.trace(start, &solution.moves).unwrap_or_default();
            for (i, (&m, state)) in solution.moves.iter().zip(states.iter().skip(1)).enumerate() {
                let step = describe_move(puzzle, program, m);
                out.push_str(&format!("{}. {step}\n", i + 1));
                out.push_str(&board(state));
            }
        }
    }
    out
}

/// The JSON answer: `solvable`, `length`, `optimal`, `moves` (each with
/// `kind`, `cells` and the `board` after it), `final`, and `pieces` for the
/// fewest-pieces objective.
pub fn json(puzzle: &Puzzle, program: &Program, start: &Bits, outcome: &Outcome) -> Value {
    let mut v = json!({
        "puzzle": puzzle.name,
        "start": puzzle.board_text(start),
        "solvable": matches!(outcome, Outcome::Solved(_)),
    });
    if let Outcome::Solved(solution) = outcome {
        let states = program.trace(start, &solution.moves).unwrap_or_default();
        let moves: Vec<Value> = solution
            .moves
            .iter()
            .zip(states.iter().skip(1))
            .map(|(&m, state)| {
                let mv = &program.moves()[m];
                let cells: Vec<[usize; 2]> =
                    mv.cells.iter().map(|&c| puzzle.board.coord(c)).collect();
                json!({
                    "kind": match mv.kind { MoveKind::Toggle => "toggle", MoveKind::Jump => "jump" },
                    "cells": cells,
                    "board": puzzle.board_text(state),
                })
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
    v
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}
