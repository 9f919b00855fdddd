//! The answer to one board as a serde type: written by `solve --json`, read back by `verify`.

use serde::{Deserialize, Serialize};

use crate::bits::Bits;
use crate::board::CellId;
use crate::error::{Error, Result};
use crate::outcome::{ColourOutcome, Outcome, Proof};
use crate::program::colours::ColourProgram;
use crate::program::notation::describe_move;
use crate::program::{Goal, MoveKind, Program};

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
    /// The number of colours, on a puzzle of more than two: presses add
    /// modulo it. Absent on two colours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modulus: Option<u64>,
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// How moves are counted: `moves` when each move is a chain of jumps by
    /// one piece (then each move lists its `jumps`); absent for one move a step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
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
    /// With the moves metric: the positions per level searched both ways, up
    /// to symmetry, which prove `length` the fewest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<LevelSizes>,
    /// One parity certificate per target (`proof` is `parity`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Vec<CertificateCells>>,
}

/// One move of an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// `toggle`, `jump`, or `chain` (a move of the moves metric).
    pub kind: String,
    /// The pressed cell; or from, over, to; or for a chain the cells its
    /// piece stands on, from the first to the last; as `[row, col]`.
    pub cells: Vec<[usize; 2]>,
    /// A chain's jumps, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jumps: Option<Vec<Step>>,
    /// How many times the button is pressed, on a puzzle of k colours,
    /// when more than once (a press counts `times` towards `length`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times: Option<u64>,
    /// The move as `solve` prints it.
    #[serde(default)]
    pub text: String,
    /// The board after the move, on small answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
}

/// How a fewest-moves answer was proved, as written: the lower bound (Merson
/// regions, peg types), and the bounded search that found nothing shorter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelSizes {
    /// The disjoint Merson regions packed once for the board; the bound on a
    /// position counts these or a packing of its own, whichever counts more.
    #[serde(default)]
    pub regions: usize,
    /// The lower bound on the start (regions, and peg types when they
    /// count): every solution has at least this many moves.
    #[serde(default)]
    pub lower_bound: u32,
    /// Whether the peg types' demands counted in the bound.
    #[serde(default)]
    pub types: bool,
    /// The pagoda functions found by linear programming (the most on one
    /// side), when pagoda functions cut positions off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagodas: Option<usize>,
    /// Whether the sides of the last search that found nothing were also
    /// bounded toward each other's last level (the bound `frontier`).
    /// Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub frontier: bool,
    /// Whether that search, with the bound `frontier`, searched the targets
    /// one at a time, each with forward levels of its own, summed in
    /// `forward`. Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub apart: bool,
    /// The bound of the last search that found no solution: none has this
    /// many moves or fewer. Absent when the lower bound on the start alone
    /// proves the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub none_within: Option<u32>,
    /// Positions kept per level forward in that search, `n` = 0, 1, ...:
    /// those reached in `n` moves whose moves so far and the lower bound on
    /// the moves left come to at most `none_within`, and that no pagoda
    /// function cut off.
    pub forward: Vec<u64>,
    /// Positions kept per level backward in that search, summed over the
    /// targets searched back from.
    pub backward: Vec<u64>,
    /// The targets searched back from, one per orbit under the symmetries
    /// that fix the start.
    #[serde(default)]
    pub targets: usize,
    /// The number of symmetries forward positions are taken up to.
    pub forward_symmetries: usize,
    /// The number of symmetries backward positions are taken up to (with
    /// several targets, the fewest any of them has).
    pub backward_symmetries: usize,
    /// Whether a side's last level was too large to hold and was checked for
    /// meetings in parts as it grew: its entry in `forward` or `backward`
    /// then counts a position once in each part that found it. Absent when
    /// false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_parts: bool,
    /// Why the levels did not prove the solution the fewest (a solution
    /// found by the beam, `"optimal": false`): the error of the limit that
    /// stopped them. Absent when they proved it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

/// A parity certificate as written: the target it rules out and its cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertificateCells {
    /// The target, as board text.
    pub target: String,
    /// The cells of the certificate, as `[row, col]`.
    pub cells: Vec<[usize; 2]>,
    /// On a puzzle of k colours, each cell's weight in `1..k`, in the
    /// order of `cells`; absent on two colours, where every weight is 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<u64>>,
}

pub use crate::program::notation::kind_name;

/// One move of the moves metric: the path of its piece, and its jumps.
pub(crate) fn chain_step(program: &Program, jumps: Vec<Step>) -> Step {
    let mut cells: Vec<[usize; 2]> = Vec::new();
    for jump in &jumps {
        if cells.is_empty()
            && let Some(&from) = jump.cells.first()
        {
            cells.push(from);
        }
        if let Some(&to) = jump.cells.last() {
            cells.push(to);
        }
    }
    let board = &program.puzzle().board;
    let text = cells
        .iter()
        .map(|&[r, c]| {
            board
                .cell_at(r, c)
                .map_or(format!("[{r}, {c}]"), |cell| board.label(cell))
        })
        .collect::<Vec<_>>()
        .join("-");
    Step {
        times: None,
        kind: "chain".into(),
        board: jumps.last().and_then(|j| j.board.clone()),
        cells,
        jumps: Some(jumps),
        text,
    }
}

impl Answer {
    /// An answer with only its puzzle, start and verdict; the rest absent.
    fn bare(puzzle: &str, start: String, solvable: bool) -> Answer {
        Answer {
            puzzle: puzzle.to_string(),
            start,
            modulus: None,
            solvable,
            metric: None,
            length: None,
            optimal: None,
            moves: None,
            final_board: None,
            pieces: None,
            proof: None,
            levels: None,
            certificate: None,
        }
    }

    /// The answer for `outcome` from `start`.
    pub fn new(program: &Program, start: &Bits, outcome: &Outcome) -> Answer {
        let puzzle = program.puzzle();
        let coord = |c: usize| puzzle.board.coord(crate::CellId(c));
        let mut answer = Answer::bare(
            &puzzle.name,
            puzzle.board_text(start),
            matches!(outcome, Outcome::Solved(_)),
        );
        match outcome {
            Outcome::Solved(solution) => {
                let small =
                    solution.moves.len().saturating_mul(program.cells()) <= STEP_BOARDS_LIMIT;
                let states = if small {
                    program.trace(start, &solution.moves).unwrap_or_default()
                } else {
                    Vec::new()
                };
                let steps: Vec<Step> = solution
                    .moves
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let (kind, moved) = program
                            .move_cells(m)
                            .unwrap_or((MoveKind::Toggle, Vec::new()));
                        Step {
                            times: None,
                            kind: kind_name(kind).into(),
                            cells: moved.iter().map(|c| coord(c.0)).collect(),
                            jumps: None,
                            text: describe_move(program, m),
                            board: states.get(i + 1).map(|s| puzzle.board_text(s)),
                        }
                    })
                    .collect();
                answer.length = Some(solution.moves.len());
                if let Some(chains) = &solution.chains {
                    let mut jumps = steps.into_iter();
                    let moves: Vec<Step> = chains
                        .lengths
                        .iter()
                        .map(|&n| chain_step(program, jumps.by_ref().take(n).collect()))
                        .collect();
                    answer.metric = Some(crate::Metric::Moves.name().into());
                    answer.levels = Some(LevelSizes {
                        regions: chains.levels.regions,
                        lower_bound: chains.levels.lower,
                        types: chains.levels.types,
                        pagodas: chains.levels.pagoda.then_some(chains.levels.pagodas),
                        frontier: chains.levels.frontier,
                        apart: chains.levels.apart,
                        none_within: chains.levels.none_within,
                        forward: chains.levels.forward.clone(),
                        backward: chains.levels.backward.clone(),
                        targets: chains.levels.targets,
                        forward_symmetries: chains.levels.forward_symmetries,
                        backward_symmetries: chains.levels.backward_symmetries,
                        in_parts: chains.levels.in_parts,
                        stopped: chains.stopped.clone(),
                    });
                    answer.length = Some(moves.len());
                    answer.moves = Some(moves);
                } else {
                    answer.moves = Some(steps);
                }
                answer.optimal = Some(solution.optimal);
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
                        Proof::MoveLevels(_) => "levels",
                    }
                    .into(),
                );
                if let Proof::Parity(certificates) = proof {
                    answer.certificate = Some(
                        certificates
                            .iter()
                            .map(|c| CertificateCells {
                                weights: None,
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

/// Reads moves typed as text into an answer from `start`, for `verify`:
/// moves separated by commas, semicolons or line breaks, each the cells its
/// piece stands on joined by `-` (`f4-d4`, or `46-44` by row and column from
/// 1 on boards of at most 9 rows and columns). Counted in the puzzle's
/// metric: with `moves` each is one move, a chain of jumps by one piece;
/// with `jumps` each jump of it is one move. `file` names the text in errors,
/// which point at the cell that does not read or the jump the puzzle lacks.
///
/// ```
/// let puzzle = pegflip::Puzzle::from_file("puzzles/english33.toml")?;
/// let program = puzzle.compile()?;
/// let start = puzzle.start.clone().unwrap();
/// let answer = pegflip::answer::read_moves(&program, &start, "46-44, 65-45", "<moves>")?;
/// assert_eq!(answer.length, Some(2));
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn read_moves(program: &Program, start: &Bits, text: &str, file: &str) -> Result<Answer> {
    let text = text.strip_prefix(crate::io::BOM).unwrap_or(text);
    let puzzle = program.puzzle();
    let coord = |c: crate::CellId| puzzle.board.coord(c);
    let mut moves: Vec<Vec<Step>> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        read_moves_line(program, line, |jumps| moves.push(jumps))
            .map_err(|(at, message)| Error::input(file, text, offset + at, message))?;
        offset += line.len();
    }
    // The board the moves end on, as far as they are legal: the checker then
    // names the first illegal move.
    let mut end = start.clone();
    let by_cells = |step: &Step| {
        program.moves().iter().position(|m| {
            m.cells
                .iter()
                .map(|&c| coord(c))
                .eq(step.cells.iter().copied())
        })
    };
    'replay: for jump in moves.iter().flatten() {
        match by_cells(jump) {
            Some(index) if program.apply_mut(&mut end, index).is_ok() => {}
            _ => break 'replay,
        }
    }
    let chained = puzzle.metric == crate::Metric::Moves;
    let steps: Vec<Step> = if chained {
        moves
            .into_iter()
            .map(|jumps| chain_step(program, jumps))
            .collect()
    } else {
        moves.into_iter().flatten().collect()
    };
    Ok(Answer {
        modulus: None,
        puzzle: puzzle.name.clone(),
        start: puzzle.board_text(start),
        solvable: true,
        metric: chained.then(|| crate::Metric::Moves.name().into()),
        length: Some(steps.len()),
        optimal: None,
        moves: Some(steps),
        pieces: matches!(program.goal(), Goal::FewestPieces).then(|| end.count_ones()),
        final_board: Some(puzzle.board_text(&end)),
        proof: None,
        levels: None,
        certificate: None,
    })
}

/// Reads the typed moves of one line (see [`read_moves`]), passing each
/// move's jumps to `each`; an error is the byte in the line it is at, and
/// what is wrong there.
pub(crate) fn read_moves_line(
    program: &Program,
    line: &str,
    mut each: impl FnMut(Vec<Step>),
) -> std::result::Result<(), (usize, String)> {
    let board = &program.puzzle().board;
    let coord = |c: crate::CellId| board.coord(c);
    let small = board.rows() <= 9 && board.cols() <= 9 && !board.is_graph();
    let cell = |token: &str, at: usize| -> std::result::Result<crate::CellId, (usize, String)> {
        if let Some(c) = board.find(token) {
            return Ok(c);
        }
        let digits: Vec<u32> = token.chars().filter_map(|ch| ch.to_digit(10)).collect();
        if small
            && token.len() == 2
            && digits.len() == 2
            && let Some(c) = board.cell_at(
                digits[0].wrapping_sub(1) as usize,
                digits[1].wrapping_sub(1) as usize,
            )
        {
            return Ok(c);
        }
        let how = if small {
            "a cell's name, or its row and column from 1 (as 46)"
        } else {
            "a cell's name"
        };
        Err((at, format!("no cell \"{token}\": expected {how}")))
    };
    let mut offset = 0;
    for piece in line.split_inclusive([',', ';', '\n']) {
        let body = piece.trim_end_matches([',', ';', '\n']);
        let lead = body.len() - body.trim_start().len();
        let body_at = offset + lead;
        offset += piece.len();
        let body = body.trim();
        if body.is_empty() {
            continue;
        }
        let mut cells = Vec::new();
        let mut at = body_at;
        for token in body.split('-') {
            let trimmed = token.trim();
            let token_at = at + (token.len() - token.trim_start().len());
            cells.push((cell(trimmed, token_at)?, token_at));
            at += token.len() + 1;
        }
        if cells.len() < 2 {
            return Err((
                body_at,
                "a move is two or more cells joined by '-': where the piece starts, and where \
                 each jump lands"
                    .into(),
            ));
        }
        let mut jumps = Vec::new();
        for pair in cells.windows(2) {
            let ((from, _), (to, to_at)) = (pair[0], pair[1]);
            let index = program
                .moves()
                .iter()
                .position(|m| {
                    m.kind == MoveKind::Jump
                        && m.cells.first() == Some(&from)
                        && m.cells.last() == Some(&to)
                })
                .ok_or_else(|| {
                    (
                        to_at,
                        format!(
                            "the puzzle has no jump from {} to {}",
                            board.label(from),
                            board.label(to)
                        ),
                    )
                })?;
            let m = &program.moves()[index];
            jumps.push(Step {
                times: None,
                kind: kind_name(m.kind).into(),
                cells: m.cells.iter().map(|&c| coord(c)).collect(),
                jumps: None,
                text: describe_move(program, index),
                board: None,
            });
        }
        each(jumps);
    }
    Ok(())
}

/// A press of a puzzle of k colours in words: `press [0, 1]`, and how many
/// times when more than once.
pub fn describe_press(program: &ColourProgram, index: usize, times: u64) -> String {
    let label = program
        .pressed_cell(index)
        .map_or_else(|| format!("press {index}"), |c| program.board().label(c));
    match times {
        1 => format!("press {label}"),
        t => format!("press {label} {t} times"),
    }
}

impl Answer {
    /// The answer for one board of a puzzle of k colours: each button
    /// pressed once in `moves`, with `times` when pressed more than once,
    /// in ascending order of the presses (they commute), with the board
    /// after each on small answers; or a weighted certificate per target.
    pub fn from_colours(program: &ColourProgram, start: &[u64], outcome: &ColourOutcome) -> Answer {
        let puzzle = program.puzzle();
        let board = &puzzle.board;
        let mut answer = Answer::bare(
            &puzzle.name,
            program.board_text(start),
            matches!(outcome, ColourOutcome::Solved(_)),
        );
        answer.modulus = Some(program.modulus());
        match outcome {
            ColourOutcome::Solved(s) => {
                answer.length = Some(s.length() as usize);
                answer.optimal = Some(s.optimal);
                let with_boards =
                    s.presses.len().saturating_mul(program.cells()) <= STEP_BOARDS_LIMIT;
                let mut counts = vec![0u64; program.move_count()];
                let mut now = start.to_vec();
                answer.moves = Some(
                    s.presses
                        .iter()
                        .map(|&(index, times)| {
                            let cell = program.pressed_cell(index).unwrap_or(CellId(0));
                            let board_after = with_boards.then(|| {
                                counts[index] = times;
                                now = program.apply(start, &counts);
                                program.board_text(&now)
                            });
                            Step {
                                kind: "toggle".into(),
                                cells: vec![board.coord(cell)],
                                jumps: None,
                                times: (times > 1).then_some(times),
                                text: describe_press(program, index, times),
                                board: board_after,
                            }
                        })
                        .collect(),
                );
                answer.final_board = Some(program.board_text(&s.end));
            }
            ColourOutcome::Unsolvable(certificates) => {
                answer.proof = Some("weights".into());
                answer.certificate = Some(
                    certificates
                        .iter()
                        .map(|c| {
                            let (cells, weights) = c
                                .weights
                                .iter()
                                .enumerate()
                                .filter(|&(_, &w)| w != 0)
                                .map(|(i, &w)| (board.coord(CellId(i)), w))
                                .unzip();
                            CertificateCells {
                                target: program.board_text(&program.targets()[c.target].1),
                                cells,
                                weights: Some(weights),
                            }
                        })
                        .collect(),
                );
            }
        }
        answer
    }
}
