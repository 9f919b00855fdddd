//! The one checker: replays solutions and checks certificates and written answers, using no solver.
//!
//! Every answer the engines produce passes [`check_outcome`] before it is
//! returned, and `pegflip verify` runs [`verify`] on a written [`Answer`].
//! Both replay moves through [`Program::replay`] and check certificates with
//! [`check_certificate`]; a failure is a [`CheckError`] naming the step.

use rustc_hash::FxHashMap;

use crate::answer::{Answer, STEP_BOARDS_LIMIT, Step, kind_name};
use crate::bits::Bits;
use crate::board::CellId;
use crate::outcome::{Certificate, Outcome, PlayedMoves, Proof};
use crate::program::{Goal, MoveKind, Program, ReplayError};

/// Why an answer does not hold: the first failing step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// A field the answer needs is missing or of the wrong kind.
    #[error("the answer has no {0}")]
    Missing(&'static str),
    /// A board of the answer does not read on the puzzle.
    #[error("the {what} board does not read: {reason}")]
    Board {
        /// Which board.
        what: String,
        /// What the reader said.
        reason: String,
    },
    /// A move names cells that are not a move of the puzzle.
    #[error("move {step}: {reason}")]
    NoSuchMove {
        /// 1-based step.
        step: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A move is not legal on the board before it.
    #[error("move {step} is not legal on the board before it")]
    Illegal {
        /// 1-based step.
        step: usize,
    },
    /// A move's stated kind is not the kind of the move its cells name.
    #[error("move {step} is a {actual}, not a {claimed}")]
    Kind {
        /// 1-based step.
        step: usize,
        /// The kind of the move the cells name.
        actual: &'static str,
        /// The kind the answer gives.
        claimed: String,
    },
    /// The board written after a move is not the board the move leaves.
    #[error("move {step}: the board after it is {actual}, not {claimed}")]
    StepBoard {
        /// 1-based step.
        step: usize,
        /// The board the move leaves.
        actual: String,
        /// The board the answer gives.
        claimed: String,
    },
    /// The answer counts moves in a way the checker does not know.
    #[error("unknown metric \"{0}\": expected \"jumps\" or \"moves\"")]
    Metric(String),
    /// A move of the moves metric is not a chain of jumps by one piece.
    #[error("move {step} is not a chain of jumps by one piece: {reason}")]
    NotAChain {
        /// 1-based move.
        step: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The length is not the number of moves.
    #[error("the claimed length is {claimed}, but there are {actual} moves")]
    Length {
        /// The length the answer gives (or `missing`).
        claimed: String,
        /// The number of moves.
        actual: usize,
    },
    /// The moves end elsewhere than the answer says.
    #[error("the moves end on {actual}, not on the claimed final board")]
    Final {
        /// The board the moves end on.
        actual: String,
    },
    /// The moves do not reach a target.
    #[error("the moves end on {0}, which is not a target")]
    NotTarget(String),
    /// The pieces left are not those claimed.
    #[error("the moves leave {actual} pieces, but the answer claims {claimed}")]
    Pieces {
        /// The pieces the moves leave.
        actual: usize,
        /// The pieces the answer gives (or `none`).
        claimed: String,
    },
    /// A solution claimed optimal that provably is not.
    #[error("the answer claims to be optimal, but {0}")]
    NotOptimal(String),
    /// No certificate, where one is needed.
    #[error(
        "the answer claims no solution but gives no \"certificate\" to check (an exhaustive \
         search is not checkable from its output)"
    )]
    NoCertificate,
    /// A fewest-pieces puzzle claimed impossible.
    #[error("a fewest-pieces puzzle always has an answer; none is impossible")]
    ObjectiveImpossible,
    /// A target without a certificate that rules it out.
    #[error("no certificate rules out target {0}")]
    Uncovered(usize),
    /// A certificate cell outside the board.
    #[error("{what}: [{row}, {col}] is not a cell of the board")]
    NotACell {
        /// Where the cell was named.
        what: String,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
    },
    /// A move flips an odd number of a certificate's cells.
    #[error("{what}: move {index} flips an odd number of its cells")]
    CertificateMove {
        /// Which certificate.
        what: String,
        /// The move.
        index: usize,
    },
    /// The start and the target differ on an even number of a certificate's cells.
    #[error("{what}: the start and the target differ on {differ} of its cells, an even number")]
    CertificateParity {
        /// Which certificate.
        what: String,
        /// How many cells differ.
        differ: usize,
    },
}

impl From<ReplayError> for CheckError {
    fn from(e: ReplayError) -> CheckError {
        match e {
            ReplayError::NoSuchMove { step, index } => CheckError::NoSuchMove {
                step,
                reason: format!("there is no move {index}"),
            },
            ReplayError::Illegal { step, .. } => CheckError::Illegal { step },
        }
    }
}

/// Checks a certificate against its definition: every move flips an even
/// number of its cells, and `start` differs from its target on an odd number.
pub fn check_certificate(
    program: &Program,
    start: &Bits,
    certificate: &Certificate,
) -> Result<(), CheckError> {
    let what = format!(
        "certificate for {}",
        program.puzzle().board_text(&certificate.target)
    );
    if let Some(stencil) = program.stencil() {
        // Press p flips the cells p + o; the negated stencil, applied to Q,
        // counts at p the parity of the cells of Q that pressing p flips.
        let mut hits = Bits::zeros(program.cells());
        stencil.negated().apply(&mut hits, &certificate.cells);
        if let Some(index) = hits.ones_iter().next() {
            return Err(CheckError::CertificateMove { what, index });
        }
    } else {
        for (index, m) in program.moves().iter().enumerate() {
            let hits = m.flip.iter().filter(|c| certificate.cells.get(c.0)).count();
            if hits % 2 == 1 {
                return Err(CheckError::CertificateMove { what, index });
            }
        }
    }
    let mut diff = start.clone();
    diff.xor_assign(&certificate.target);
    let differ = diff
        .ones_iter()
        .filter(|&c| certificate.cells.get(c))
        .count();
    if differ % 2 == 0 {
        return Err(CheckError::CertificateParity { what, differ });
    }
    Ok(())
}

/// Checks an outcome independently of the engine that produced it: a
/// solution is replayed (every move legal, the end state as claimed, for
/// targets a target, and not claimed optimal when it visits a state twice);
/// a parity certificate is checked against its definition. A search proof
/// is the exhaustive search itself, and a rank proof the elimination.
pub fn check_outcome(program: &Program, start: &Bits, outcome: &Outcome) -> Result<(), CheckError> {
    let solution = match outcome {
        Outcome::Solved(solution) => solution,
        Outcome::Unsolvable(Proof::Parity(certificates)) => {
            if let Goal::Targets(targets) = program.goal()
                && let Some(t) = targets
                    .iter()
                    .position(|t| !certificates.iter().any(|c| c.target == *t))
            {
                return Err(CheckError::Uncovered(t + 1));
            }
            for c in certificates {
                check_certificate(program, start, c)?;
            }
            return Ok(());
        }
        Outcome::Unsolvable(_) => return Ok(()),
    };
    let end = program.replay(start, &solution.moves)?;
    let board = |s: &Bits| program.puzzle().board_text(s);
    if end != solution.end {
        return Err(CheckError::Final {
            actual: board(&end),
        });
    }
    if matches!(program.goal(), Goal::Targets(_)) && !program.is_target(&end) {
        return Err(CheckError::NotTarget(board(&end)));
    }
    if let Some(chains) = &solution.chains {
        let PlayedMoves::List(jumps) = &solution.moves else {
            return Err(CheckError::NotAChain {
                step: 1,
                reason: "the moves are a set of presses, not jumps in order".into(),
            });
        };
        check_chains(program, jumps, &chains.lengths)?;
    }
    if solution.optimal {
        check_not_longer(program, start, &solution.moves)?;
    }
    Ok(())
}

/// Checks that `jumps`, cut into moves of `lengths` jumps, are chains: every
/// jump of a move leaves the cell where the jump before it landed.
pub fn check_chains(
    program: &Program,
    jumps: &[usize],
    lengths: &[usize],
) -> Result<(), CheckError> {
    let total: usize = lengths.iter().sum();
    if total != jumps.len() {
        return Err(CheckError::NotAChain {
            step: lengths.len(),
            reason: format!(
                "the moves hold {total} jumps, but there are {}",
                jumps.len()
            ),
        });
    }
    let mut at = 0;
    for (i, &n) in lengths.iter().enumerate() {
        if n == 0 {
            return Err(CheckError::NotAChain {
                step: i + 1,
                reason: "it has no jump".into(),
            });
        }
        for pair in jumps[at..at + n].windows(2) {
            let cells = |j: usize| program.move_cells(j).map(|(_, c)| c);
            let (Some(a), Some(b)) = (cells(pair[0]), cells(pair[1])) else {
                return Err(CheckError::NotAChain {
                    step: i + 1,
                    reason: "it names a jump the puzzle does not have".into(),
                });
            };
            if a.last() != b.first() {
                let board = program.board();
                return Err(CheckError::NotAChain {
                    step: i + 1,
                    reason: format!(
                        "a jump from {} follows one that lands on {}, so two pieces move",
                        b.first().map_or("?".into(), |&c| board.label(c)),
                        a.last().map_or("?".into(), |&c| board.label(c)),
                    ),
                });
            }
        }
        at += n;
    }
    Ok(())
}

/// A solution of the moves metric claimed the fewest moves is refuted when
/// one move starts where the move before it landed: the same piece goes on,
/// so the two are one move, and the solution has one move too many.
fn check_unsplit(program: &Program, jumps: &[usize], lengths: &[usize]) -> Result<(), CheckError> {
    let cells = |j: usize| program.move_cells(j).map(|(_, c)| c);
    let mut at = 0;
    for (i, pair) in lengths.windows(2).enumerate() {
        let last = jumps.get(at + pair[0] - 1).copied().and_then(cells);
        let next = jumps.get(at + pair[0]).copied().and_then(cells);
        if let (Some(last), Some(next)) = (last, next)
            && last.last() == next.first()
        {
            let board = program.board();
            return Err(CheckError::NotOptimal(format!(
                "move {} goes on with the piece move {} left on {}: they are one move",
                i + 2,
                i + 1,
                last.last().map_or("?".into(), |&c| board.label(c))
            )));
        }
        at += pair[0];
    }
    Ok(())
}

/// What can be shown of a solution claimed optimal without solving: it
/// presses no toggle twice (presses of a linear puzzle cancel in pairs), and
/// it never comes back to a board it has left (the loop could be cut out).
fn check_not_longer(
    program: &Program,
    start: &Bits,
    moves: &PlayedMoves,
) -> Result<(), CheckError> {
    if program.is_linear() {
        // A set presses no move twice.
        let PlayedMoves::List(moves) = moves else {
            return Ok(());
        };
        let mut pressed = Bits::zeros(program.move_count());
        let mut again = |m: usize| {
            let twice = m < pressed.len() && pressed.get(m);
            if m < pressed.len() {
                pressed.set(m, true);
            }
            twice
        };
        if let Some(m) = moves.iter().copied().find(|&m| again(m)) {
            return Err(CheckError::NotOptimal(format!(
                "it makes move {m} twice, and presses cancel in pairs"
            )));
        }
        return Ok(());
    }
    if moves.len().saturating_mul(program.cells()) > STEP_BOARDS_LIMIT * 64 {
        return Ok(());
    }
    let states = program.trace(start, moves)?;
    let mut seen = rustc_hash::FxHashSet::default();
    if let Some(i) = states.iter().position(|s| !seen.insert(s)) {
        return Err(CheckError::NotOptimal(format!(
            "it comes back after move {i} to a board it had left"
        )));
    }
    Ok(())
}

/// Checks a written answer against the puzzle, without any solver. `Ok`
/// carries a one-line summary of what was checked.
pub fn verify(program: &Program, answer: &Answer) -> Result<String, CheckError> {
    let puzzle = program.puzzle();
    let read = |text: &str, what: &str| {
        puzzle
            .read_board(text, what)
            .map(|r| r.state)
            .map_err(|e| CheckError::Board {
                what: what.into(),
                reason: e.to_string(),
            })
    };
    let start = read(&answer.start, "start")?;
    if !answer.solvable {
        return verify_certificates(program, answer, &start);
    }
    let steps = answer
        .moves
        .as_ref()
        .ok_or(CheckError::Missing("\"moves\""))?;
    let cell = |[r, c]: [usize; 2], what: &str| {
        puzzle.board.cell_at(r, c).ok_or(CheckError::NotACell {
            what: what.into(),
            row: r,
            col: c,
        })
    };
    // The move each (kind, cells) names: a stencil's press i is move i.
    let by_cells: FxHashMap<(MoveKind, &[CellId]), usize> = if program.stencil().is_some() {
        FxHashMap::default()
    } else {
        program
            .moves()
            .iter()
            .enumerate()
            .rev()
            .map(|(i, m)| ((m.kind, m.cells.as_slice()), i))
            .collect()
    };
    // With the moves metric each step is a chain: its jumps are checked one
    // by one, and errors name the move they belong to.
    let chained = match answer.metric.as_deref() {
        None | Some("jumps") => false,
        Some("moves") => true,
        Some(other) => return Err(CheckError::Metric(other.to_string())),
    };
    let mut flat: Vec<(usize, &Step)> = Vec::with_capacity(steps.len());
    let mut lengths = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        match (&step.jumps, chained) {
            (Some(jumps), true) if step.kind == "chain" => {
                // A chain's cells are its piece's path: where it starts, then each landing.
                let path: Vec<[usize; 2]> = jumps
                    .first()
                    .and_then(|j| j.cells.first().copied())
                    .into_iter()
                    .chain(jumps.iter().filter_map(|j| j.cells.last().copied()))
                    .collect();
                if step.cells != path {
                    return Err(CheckError::NotAChain {
                        step: i + 1,
                        reason: format!(
                            "its cells {:?} are not the path of its jumps, {path:?}",
                            step.cells
                        ),
                    });
                }
                flat.extend(jumps.iter().map(|j| (i, j)));
                lengths.push(jumps.len());
            }
            (_, true) => {
                return Err(CheckError::NotAChain {
                    step: i + 1,
                    reason: "a move of the moves metric is a step of kind \"chain\" with its \
                             \"jumps\""
                        .into(),
                });
            }
            (_, false) => {
                flat.push((i, step));
                lengths.push(1);
            }
        }
    }
    let mut indices = Vec::with_capacity(flat.len());
    let mut state = start.clone();
    for (n, &(i, step)) in flat.iter().enumerate() {
        let last_of_move = flat.get(n + 1).is_none_or(|&(next, _)| next != i);
        let what = format!("move {}", i + 1);
        let cells = step
            .cells
            .iter()
            .map(|&rc| cell(rc, &what))
            .collect::<Result<Vec<_>, _>>()?;
        let found = [MoveKind::Toggle, MoveKind::Jump]
            .into_iter()
            .find_map(|kind| {
                if program.stencil().is_some() {
                    (kind == MoveKind::Toggle && cells.len() == 1).then(|| (kind, cells[0].0))
                } else {
                    by_cells.get(&(kind, cells.as_slice())).map(|&m| (kind, m))
                }
            });
        let Some((kind, index)) = found else {
            return Err(CheckError::NoSuchMove {
                step: i + 1,
                reason: format!("the puzzle has no move with cells {:?}", step.cells),
            });
        };
        if step.kind != kind_name(kind) {
            return Err(CheckError::Kind {
                step: i + 1,
                actual: kind_name(kind),
                claimed: step.kind.clone(),
            });
        }
        program
            .apply_mut(&mut state, index)
            .map_err(|_| CheckError::Illegal { step: i + 1 })?;
        let chain_board = if chained && last_of_move {
            steps[i].board.as_ref()
        } else {
            None
        };
        for claimed in step.board.iter().chain(chain_board) {
            if *claimed != puzzle.board_text(&state) {
                return Err(CheckError::StepBoard {
                    step: i + 1,
                    actual: puzzle.board_text(&state),
                    claimed: claimed.clone(),
                });
            }
        }
        indices.push(index);
    }
    if chained {
        check_chains(program, &indices, &lengths)?;
    }
    if answer.length != Some(steps.len()) {
        return Err(CheckError::Length {
            claimed: answer
                .length
                .map_or("missing".to_string(), |l| l.to_string()),
            actual: steps.len(),
        });
    }
    let end = puzzle.board_text(&state);
    if answer.final_board.as_deref() != Some(end.as_str()) {
        return Err(CheckError::Final { actual: end });
    }
    let summary = match program.goal() {
        Goal::Targets(_) if !program.is_target(&state) => {
            return Err(CheckError::NotTarget(end));
        }
        Goal::Targets(_) if chained => {
            let s = |n: usize| if n == 1 { "" } else { "s" };
            format!(
                "{} legal move{} ({} jump{}), each a chain of jumps by one piece, reach{} a target",
                steps.len(),
                s(steps.len()),
                indices.len(),
                s(indices.len()),
                if steps.len() == 1 { "es" } else { "" }
            )
        }
        Goal::Targets(_) => format!("{} legal moves reach a target", steps.len()),
        Goal::FewestPieces => {
            let pieces = state.count_ones();
            if answer.pieces != Some(pieces) {
                return Err(CheckError::Pieces {
                    actual: pieces,
                    claimed: answer.pieces.map_or("none".into(), |p| p.to_string()),
                });
            }
            format!(
                "{} legal moves leave {pieces} pieces, as claimed",
                steps.len()
            )
        }
    };
    if answer.optimal == Some(true) {
        if chained {
            check_unsplit(program, &indices, &lengths)?;
        }
        check_not_longer(program, &start, &PlayedMoves::List(indices))?;
    }
    Ok(summary)
}

fn verify_certificates(
    program: &Program,
    answer: &Answer,
    start: &Bits,
) -> Result<String, CheckError> {
    let puzzle = program.puzzle();
    let Goal::Targets(targets) = program.goal() else {
        return Err(CheckError::ObjectiveImpossible);
    };
    let list = answer
        .certificate
        .as_ref()
        .ok_or(CheckError::NoCertificate)?;
    for (t, target) in targets.iter().enumerate() {
        let target_text = puzzle.board_text(target);
        let entry = list
            .iter()
            .find(|c| c.target == target_text)
            .ok_or(CheckError::Uncovered(t + 1))?;
        let what = format!("certificate for {target_text}");
        let mut cells = Bits::zeros(program.cells());
        for &[r, c] in &entry.cells {
            let cell = puzzle.board.cell_at(r, c).ok_or(CheckError::NotACell {
                what: what.clone(),
                row: r,
                col: c,
            })?;
            cells.set(cell.0, true);
        }
        let certificate = Certificate {
            target: target.clone(),
            cells,
        };
        check_certificate(program, start, &certificate)?;
    }
    Ok(format!(
        "{} certificate(s) hold: no sequence of moves reaches the goal",
        targets.len()
    ))
}
