//! The one checker: replays solutions and checks certificates and written answers, using no solver.
//!
//! Every answer the engines produce passes [`check_outcome`] before it is
//! returned, which replays its moves through [`Program::replay`]. `pegflip
//! verify` runs [`verify`] on a written [`Answer`], or [`verify_from`] and
//! [`verify_moves_from`] on one as it is read: those replay each written move
//! as it comes, one at a time, keeping no list of them. All check
//! certificates with [`check_certificate`]; a failure is a [`CheckError`]
//! naming the step.

use rustc_hash::FxHashMap;

use crate::answer::{Answer, STEP_BOARDS_LIMIT, Step, kind_name};
use crate::bits::Bits;
use crate::board::CellId;
use crate::outcome::{Certificate, Outcome, PlayedMoves, Proof};
use crate::program::{Goal, MoveKind, Program, ReplayError};

mod colours;
mod stream;
pub use colours::{check_colour_certificate, check_colour_outcome, verify_colours};
pub use stream::{MAX_MOVES_LINE, verify_from, verify_moves_from};

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
    /// A press of a puzzle of k colours given a count outside `1..k`.
    #[error("move {step}: pressed {times} times; a press is made 1 to {most} times")]
    Times {
        /// 1-based step.
        step: usize,
        /// The count given.
        times: u64,
        /// k - 1.
        most: u64,
    },
    /// An answer for a different number of colours.
    #[error("the answer is modulo {claimed}, but the puzzle has {actual} colours")]
    Modulus {
        /// The modulus the answer gives (or `none`).
        claimed: String,
        /// The puzzle's colours.
        actual: u64,
    },
    /// A certificate's weights are not one per listed cell, or not below k.
    #[error("{what}: {reason}")]
    Weights {
        /// Which certificate.
        what: String,
        /// What is wrong.
        reason: String,
    },
    /// A press changes a certificate's weighted sum.
    #[error("{what}: press {index} changes the weighted sum by {by} (mod {k})")]
    WeightedMove {
        /// Which certificate.
        what: String,
        /// The press.
        index: usize,
        /// By how much, mod k.
        by: u64,
        /// The modulus.
        k: u64,
    },
    /// The start and the target have the same weighted sum.
    #[error("{what}: the start and the target have the same weighted sum (mod {k})")]
    WeightedSum {
        /// Which certificate.
        what: String,
        /// The modulus.
        k: u64,
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
    let start = read_start(program, &answer.start)?;
    if !answer.solvable {
        return verify_certificates(program, answer, &start);
    }
    let steps = answer
        .moves
        .as_ref()
        .ok_or(CheckError::Missing("\"moves\""))?;
    let mut replay = Replay::new(program, &start, answer.metric.as_deref())?;
    for step in steps {
        replay.step(step);
    }
    replay.finish(answer, &start)
}

/// An answer's start, read on the puzzle.
fn read_start(program: &Program, text: &str) -> Result<Bits, CheckError> {
    program
        .puzzle()
        .read_board(text, "start")
        .map(|r| r.state)
        .map_err(|e| CheckError::Board {
            what: "start".into(),
            reason: e.to_string(),
        })
}

/// The moves of a written answer, replayed one at a time as they are read,
/// keeping what the checks after the last move need and no more: the board,
/// the counts, the first failure, and (claims of the fewest moves) the
/// presses made or, on small answers of a puzzle that is not linear, the
/// moves to look for a board visited twice.
pub(crate) struct Replay<'p> {
    program: &'p Program,
    /// The move each (kind, cells) names: a stencil's press i is move i.
    by_cells: FxHashMap<(MoveKind, &'p [CellId]), usize>,
    /// Whether each step is a chain of jumps (the moves metric).
    chained: bool,
    state: Bits,
    steps: usize,
    jumps: usize,
    failed: Option<CheckError>,
    /// The last jump of the move before, whose landing the next move must not start from.
    last_jump: Option<usize>,
    /// Where the moves refute a claim of the fewest: the first such place.
    refuted: Option<CheckError>,
    /// The moves pressed so far, on a linear puzzle.
    pressed: Option<Bits>,
    /// The moves so far, while moves times cells stay small enough to trace.
    played: Option<Vec<u32>>,
}

impl<'p> Replay<'p> {
    /// A replay from `start`, counting in `metric` (absent: one move a step).
    pub(crate) fn new(
        program: &'p Program,
        start: &Bits,
        metric: Option<&str>,
    ) -> Result<Replay<'p>, CheckError> {
        let chained = match metric {
            None | Some("jumps") => false,
            Some("moves") => true,
            Some(other) => return Err(CheckError::Metric(other.to_string())),
        };
        let by_cells = if program.stencil().is_some() {
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
        let linear = program.is_linear();
        Ok(Replay {
            program,
            by_cells,
            chained,
            state: start.clone(),
            steps: 0,
            jumps: 0,
            failed: None,
            last_jump: None,
            refuted: None,
            pressed: linear.then(|| Bits::zeros(program.move_count())),
            played: (!linear).then(Vec::new),
        })
    }

    /// The steps replayed so far, and the board they reach (as far as
    /// they are legal).
    pub(crate) fn played(&self) -> (usize, &Bits) {
        (self.steps, &self.state)
    }

    /// Replays the next step; after a failure the steps are only counted.
    pub(crate) fn step(&mut self, step: &Step) {
        let i = self.steps;
        self.steps += 1;
        if self.failed.is_none()
            && let Err(e) = self.play(i, step)
        {
            self.failed = Some(e);
        }
    }

    fn play(&mut self, i: usize, step: &Step) -> Result<(), CheckError> {
        if !self.chained {
            let index = self.flat(i, step, None)?;
            self.record(index);
            return Ok(());
        }
        let jumps = match &step.jumps {
            Some(jumps) if step.kind == "chain" => jumps,
            _ => {
                return Err(CheckError::NotAChain {
                    step: i + 1,
                    reason: "a move of the moves metric is a step of kind \"chain\" with its \
                             \"jumps\""
                        .into(),
                });
            }
        };
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
        if jumps.is_empty() {
            return Err(CheckError::NotAChain {
                step: i + 1,
                reason: "it has no jump".into(),
            });
        }
        let program = self.program;
        let cells = |j: usize| program.move_cells(j).map(|(_, c)| c);
        let first = |j: usize| cells(j).and_then(|c| c.first().copied());
        let landing = |j: usize| cells(j).and_then(|c| c.last().copied());
        let mut before: Option<usize> = None;
        for (n, jump) in jumps.iter().enumerate() {
            let last = n + 1 == jumps.len();
            let index = self.flat(i, jump, last.then_some(step.board.as_ref()).flatten())?;
            let board = program.board();
            let label = |c: Option<CellId>| c.map_or("?".into(), |c| board.label(c));
            match before {
                // Each jump leaves the cell where the one before it landed.
                Some(b) if landing(b) != first(index) => {
                    return Err(CheckError::NotAChain {
                        step: i + 1,
                        reason: format!(
                            "a jump from {} follows one that lands on {}, so two pieces move",
                            label(first(index)),
                            label(landing(b)),
                        ),
                    });
                }
                Some(_) => {}
                // A move that starts where the one before landed goes on with its piece.
                None => {
                    if let Some(prev) = self.last_jump
                        && self.refuted.is_none()
                        && landing(prev).is_some()
                        && landing(prev) == first(index)
                    {
                        self.refuted = Some(CheckError::NotOptimal(format!(
                            "move {} goes on with the piece move {} left on {}: they are one move",
                            i + 1,
                            i,
                            label(landing(prev))
                        )));
                    }
                }
            }
            before = Some(index);
            self.record(index);
        }
        self.last_jump = before;
        Ok(())
    }

    /// Plays one move (a step, or a jump of a chain): its cells name a move
    /// of the puzzle of the kind it says, legal on the board, leaving the
    /// boards it gives (`chain_board`: the chain's, after its last jump).
    fn flat(
        &mut self,
        i: usize,
        step: &Step,
        chain_board: Option<&String>,
    ) -> Result<usize, CheckError> {
        let program = self.program;
        let puzzle = program.puzzle();
        let what = format!("move {}", i + 1);
        let cells = step
            .cells
            .iter()
            .map(|&[r, c]| cell_named(&puzzle.board, &what, r, c))
            .collect::<Result<Vec<_>, _>>()?;
        let found = [MoveKind::Toggle, MoveKind::Jump]
            .into_iter()
            .find_map(|kind| {
                if program.stencil().is_some() {
                    (kind == MoveKind::Toggle && cells.len() == 1).then(|| (kind, cells[0].0))
                } else {
                    self.by_cells
                        .get(&(kind, cells.as_slice()))
                        .map(|&m| (kind, m))
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
            .apply_mut(&mut self.state, index)
            .map_err(|_| CheckError::Illegal { step: i + 1 })?;
        for claimed in step.board.iter().chain(chain_board) {
            let actual = puzzle.board_text(&self.state);
            if *claimed != actual {
                return Err(CheckError::StepBoard {
                    step: i + 1,
                    actual,
                    claimed: claimed.clone(),
                });
            }
        }
        Ok(index)
    }

    /// Keeps what the claim of the fewest moves is checked with.
    fn record(&mut self, index: usize) {
        self.jumps += 1;
        if let Some(pressed) = &mut self.pressed
            && index < pressed.len()
        {
            if pressed.get(index) && self.refuted.is_none() {
                // A set presses no move twice: presses cancel in pairs.
                self.refuted = Some(CheckError::NotOptimal(format!(
                    "it makes move {index} twice, and presses cancel in pairs"
                )));
            }
            pressed.set(index, true);
        }
        if let Some(played) = &mut self.played {
            if self.jumps.saturating_mul(self.program.cells()) > STEP_BOARDS_LIMIT * 64 {
                // Too long to trace: the claim is left unrefuted.
                self.played = None;
            } else {
                played.push(index as u32);
            }
        }
    }

    /// The checks after the last move: the length, the final board, the
    /// goal, and the claim of the fewest moves.
    pub(crate) fn finish(self, answer: &Answer, start: &Bits) -> Result<String, CheckError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let program = self.program;
        let puzzle = program.puzzle();
        let (steps, jumps, state) = (self.steps, self.jumps, &self.state);
        if answer.length != Some(steps) {
            return Err(CheckError::Length {
                claimed: answer
                    .length
                    .map_or("missing".to_string(), |l| l.to_string()),
                actual: steps,
            });
        }
        let end = puzzle.board_text(state);
        if answer.final_board.as_deref() != Some(end.as_str()) {
            return Err(CheckError::Final { actual: end });
        }
        let summary = match program.goal() {
            Goal::Targets(_) if !program.is_target(state) => {
                return Err(CheckError::NotTarget(end));
            }
            Goal::Targets(_) if self.chained => {
                let s = |n: usize| if n == 1 { "" } else { "s" };
                format!(
                    "{steps} legal move{} ({jumps} jump{}), each a chain of jumps by one piece, reach{} a target",
                    s(steps),
                    s(jumps),
                    if steps == 1 { "es" } else { "" }
                )
            }
            Goal::Targets(_) => format!("{steps} legal moves reach a target"),
            Goal::FewestPieces => {
                let pieces = state.count_ones();
                if answer.pieces != Some(pieces) {
                    return Err(CheckError::Pieces {
                        actual: pieces,
                        claimed: answer.pieces.map_or("none".into(), |p| p.to_string()),
                    });
                }
                format!("{steps} legal moves leave {pieces} pieces, as claimed")
            }
        };
        if answer.optimal == Some(true) {
            if let Some(e) = self.refuted {
                return Err(e);
            }
            if let Some(played) = self.played {
                let moves: Vec<usize> = played.into_iter().map(|m| m as usize).collect();
                check_not_longer(program, start, &PlayedMoves::List(moves))?;
            }
        }
        Ok(summary)
    }
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
            let cell = cell_named(&puzzle.board, &what, r, c)?;
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

/// The cell at `[r, c]` of an answer, or where the answer (`what`) names a
/// cell the board does not have.
pub(crate) fn cell_named(
    board: &crate::board::Board,
    what: &str,
    r: usize,
    c: usize,
) -> Result<crate::board::CellId, CheckError> {
    board.cell_at(r, c).ok_or_else(|| CheckError::NotACell {
        what: what.to_string(),
        row: r,
        col: c,
    })
}
