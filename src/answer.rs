//! The answer to one board as a serde type: written by `solve --json`, read back by `verify`.

use serde::{Deserialize, Serialize};

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::program::{Goal, MoveKind, Program};
use crate::render::describe_move;
use crate::solve::{Outcome, Proof};

/// Past this many cells times moves, the moves of an answer carry no boards.
pub const STEP_BOARDS_LIMIT: usize = 200_000;

/// The bytes one move of an answer takes while it is built and written as JSON.
pub const BYTES_PER_STEP: u128 = 400;

/// One board's answer, as `solve --json` writes it (docs/json.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The puzzle's name.
    pub puzzle: String,
    /// The board solved, as board text.
    pub start: String,
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// The number of moves (solvable only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    /// Whether no shorter solution exists (solvable only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimal: Option<bool>,
    /// The moves in order (solvable only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<Step>>,
    /// The board the moves end on (solvable only).
    #[serde(rename = "final", default, skip_serializing_if = "Option::is_none")]
    pub final_board: Option<String>,
    /// The pieces left (fewest-pieces puzzles only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<usize>,
    /// How impossibility was shown: `search`, `parity` or `rank` (not solvable only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// One parity certificate per target (`proof` is `parity`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Vec<CertificateCells>>,
}

/// One move of an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// `toggle` or `jump`.
    pub kind: String,
    /// The pressed cell, or from, over, to, as `[row, col]`.
    pub cells: Vec<[usize; 2]>,
    /// The move as `solve` prints it.
    #[serde(default)]
    pub text: String,
    /// The board after the move, on small answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
}

/// A parity certificate as written: the target it rules out and its cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertificateCells {
    /// The target, as board text.
    pub target: String,
    /// The cells of the certificate, as `[row, col]`.
    pub cells: Vec<[usize; 2]>,
}

/// The name of a move kind in an answer.
pub fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Toggle => "toggle",
        MoveKind::Jump => "jump",
    }
}

impl Answer {
    /// The answer for `outcome`, checked as written by the same checker as
    /// `pegflip verify` ([`crate::check::verify`]) when it carries what that
    /// checker reads (moves or certificates) and the board has at most
    /// [`STEP_BOARDS_LIMIT`] cells; a failure is a bug ([`Error::Internal`]).
    ///
    /// Refused, before it is built, when its moves would pass `max-memory`
    /// (about [`BYTES_PER_STEP`] bytes each while built and written).
    pub fn checked(
        program: &Program,
        start: &Bits,
        outcome: &Outcome,
        limits: &crate::limits::Limits,
    ) -> Result<Answer> {
        if let Outcome::Solved(solution) = outcome {
            limits.check(
                "max-memory",
                format!(
                    "the memory to write {} moves as JSON (estimated)",
                    solution.moves.len()
                ),
                solution.moves.len() as u128 * BYTES_PER_STEP
                    + crate::plan::PROCESS_BYTES
                    + 8 * program.cells() as u128,
                "the text answer needs no per-move objects: drop --json, or raise --max-memory",
            )?;
        }
        let answer = Answer::new(program, start, outcome);
        let checkable = !matches!(outcome, Outcome::Unsolvable(Proof::Search | Proof::Rank))
            && program.cells() <= STEP_BOARDS_LIMIT;
        if checkable && let Err(reason) = crate::check::verify(program, &answer) {
            return Err(Error::Internal(format!(
                "the answer fails verification: {reason}"
            )));
        }
        Ok(answer)
    }

    /// The answer for `outcome` from `start`.
    pub fn new(program: &Program, start: &Bits, outcome: &Outcome) -> Answer {
        let puzzle = program.puzzle();
        let coord = |c: usize| puzzle.board.coord(crate::CellId(c));
        let mut answer = Answer {
            puzzle: puzzle.name.clone(),
            start: puzzle.board_text(start),
            solvable: matches!(outcome, Outcome::Solved(_)),
            length: None,
            optimal: None,
            moves: None,
            final_board: None,
            pieces: None,
            proof: None,
            certificate: None,
        };
        match outcome {
            Outcome::Solved(solution) => {
                let small =
                    solution.moves.len().saturating_mul(program.cells()) <= STEP_BOARDS_LIMIT;
                let states = if small {
                    program.trace(start, &solution.moves).unwrap_or_default()
                } else {
                    Vec::new()
                };
                let steps = solution
                    .moves
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let (kind, moved) = program
                            .move_cells(m)
                            .unwrap_or((MoveKind::Toggle, Vec::new()));
                        Step {
                            kind: kind_name(kind).into(),
                            cells: moved.iter().map(|c| coord(c.0)).collect(),
                            text: describe_move(program, m),
                            board: states.get(i + 1).map(|s| puzzle.board_text(s)),
                        }
                    })
                    .collect();
                answer.length = Some(solution.moves.len());
                answer.optimal = Some(solution.optimal);
                answer.moves = Some(steps);
                answer.final_board = Some(puzzle.board_text(&solution.end));
                if matches!(program.goal(), Goal::FewestPieces) {
                    answer.pieces = Some(solution.end.count_ones());
                }
            }
            Outcome::Unsolvable(proof) => {
                answer.proof = Some(
                    match proof {
                        Proof::Search => "search",
                        Proof::Parity(_) => "parity",
                        Proof::Rank => "rank",
                    }
                    .into(),
                );
                if let Proof::Parity(certificates) = proof {
                    answer.certificate = Some(
                        certificates
                            .iter()
                            .map(|c| CertificateCells {
                                target: puzzle.board_text(&c.target),
                                cells: c.cells.ones_iter().map(coord).collect(),
                            })
                            .collect(),
                    );
                }
            }
        }
        answer
    }
}
