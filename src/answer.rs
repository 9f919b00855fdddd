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

/// Writes the answer for `outcome` as JSON, the same document
/// [`Answer::checked`] gives. A large solution (more than
/// [`STEP_BOARDS_LIMIT`] cells times moves, whose moves carry no boards) is
/// streamed a move a line, with no object per move: half a million presses
/// in a few hundredths of a second. Smaller answers are built, checked by the
/// checker of `verify`, and pretty-printed.
pub fn write_json(
    out: &mut dyn std::io::Write,
    program: &Program,
    start: &Bits,
    outcome: &Outcome,
    limits: &crate::limits::Limits,
) -> Result<()> {
    let io = |e: std::io::Error| Error::Io {
        path: "<stdout>".into(),
        source: e,
    };
    let Outcome::Solved(solution) = outcome else {
        let answer = Answer::checked(program, start, outcome, limits)?;
        return writeln!(out, "{}", to_pretty(&answer)?).map_err(io);
    };
    if solution.moves.len().saturating_mul(program.cells()) <= STEP_BOARDS_LIMIT {
        let answer = Answer::checked(program, start, outcome, limits)?;
        return writeln!(out, "{}", to_pretty(&answer)?).map_err(io);
    }
    let puzzle = program.puzzle();
    let board = &puzzle.board;
    let json = |s: &str| serde_json::to_string(s).expect("a string is JSON");
    let mut line = Vec::with_capacity(128);
    write!(
        out,
        "{{\n  \"puzzle\": {},\n  \"start\": {},\n  \"solvable\": true,\n  \"length\": {},\n  \
         \"optimal\": {},\n  \"moves\": [",
        json(&puzzle.name),
        json(&puzzle.board_text(start)),
        solution.moves.len(),
        solution.optimal
    )
    .map_err(io)?;
    for (i, m) in solution.moves.iter().enumerate() {
        line.clear();
        line.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
        let (kind, cells) = program
            .move_cells(m)
            .unwrap_or((MoveKind::Toggle, Vec::new()));
        line.extend_from_slice(b"{\"kind\": \"");
        line.extend_from_slice(kind_name(kind).as_bytes());
        line.extend_from_slice(b"\", \"cells\": [");
        for (k, c) in cells.iter().enumerate() {
            let [r, col] = board.coord(*c);
            if k > 0 {
                line.extend_from_slice(b", ");
            }
            line.push(b'[');
            push_number(&mut line, r);
            line.extend_from_slice(b", ");
            push_number(&mut line, col);
            line.push(b']');
        }
        line.extend_from_slice(b"], \"text\": ");
        match (kind, cells.as_slice()) {
            // The text of a press on an unnamed grid, without formatting machinery.
            (MoveKind::Toggle, [c]) if !board.has_names() && !board.is_graph() => {
                let [r, col] = board.coord(*c);
                line.extend_from_slice(b"\"press [");
                push_number(&mut line, r);
                line.extend_from_slice(b", ");
                push_number(&mut line, col);
                line.extend_from_slice(b"]\"");
            }
            _ => line.extend_from_slice(json(&describe_move(program, m)).as_bytes()),
        }
        line.push(b'}');
        out.write_all(&line).map_err(io)?;
    }
    write!(
        out,
        "\n  ],\n  \"final\": {}",
        json(&puzzle.board_text(&solution.end))
    )
    .map_err(io)?;
    if matches!(program.goal(), Goal::FewestPieces) {
        write!(out, ",\n  \"pieces\": {}", solution.end.count_ones()).map_err(io)?;
    }
    writeln!(out, "\n}}").map_err(io)
}

fn to_pretty(answer: &Answer) -> Result<String> {
    serde_json::to_string_pretty(answer).map_err(|e| Error::Internal(format!("JSON: {e}")))
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
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
