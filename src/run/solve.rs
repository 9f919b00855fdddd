//! Solving one board: the planned solver built once and run, its outcome checked.

use super::analyze::eliminate;
use crate::bits::Bits;
use crate::engines::linear::{self, Linear};
use crate::engines::table::AnswerTable;
use crate::engines::{bfs, dfs, move_levels};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::{Certificate, Chains, Outcome, PlayedMoves, Proof, Solution};
use crate::plan::{Batcher, Plan, Solver, solve_plan};
use crate::program::{Goal, Program};
use crate::query::{Observer, Preference};
use crate::word::Word;

/// Finds the fewest moves from `start` to the goal (or, for the fewest-pieces
/// objective, the best end with the fewest moves), by the engine the
/// [planner](mod@crate::plan) picks. The answer is checked on the program before
/// it is returned.
///
/// ```
/// let puzzle = pegflip::Puzzle::parse(r#"
/// name = "Pebbles"
/// [board]
/// cols = 5
/// rows = 1
/// [[moves]]
/// jump = "orthogonal"
/// [goal]
/// fewest = "pieces"
/// "#, "pebbles.toml").unwrap();
/// let program = puzzle.compile().unwrap();
/// let board = puzzle.read_board("oo-o-", "<board>").unwrap().state;
/// let pegflip::Outcome::Solved(s) = pegflip::solve(&program, &board, &Default::default()).unwrap()
/// else { panic!("fewest pieces always has an answer") };
/// assert_eq!((s.moves.len(), s.end.count_ones()), (2, 1));
/// ```
pub fn solve(program: &Program, start: &Bits, limits: &Limits) -> Result<Outcome> {
    solve_with(program, start, limits, Preference::Auto)
}

/// [`solve()`] with a preferred engine: `Gf2` refuses a puzzle with guarded
/// moves or an objective; `Search` refuses one of more than 64 cells.
pub fn solve_with(
    program: &Program,
    start: &Bits,
    limits: &Limits,
    prefer: Preference,
) -> Result<Outcome> {
    let plan = solve_plan(program, prefer, limits)?;
    run_solve(program, &plan, start, limits, None)
}

/// Solves one board with the solver `plan` names, and checks the answer.
/// The `observer`, if any, is told of each level of the move levels
/// ([`Event::MoveLevel`](crate::Event::MoveLevel)) and of each shorter
/// solution their beam finds; the other engines tell it nothing.
pub fn run_solve(
    program: &Program,
    plan: &Plan<Solver>,
    start: &Bits,
    limits: &Limits,
    observer: Option<&Observer>,
) -> Result<Outcome> {
    match plan.engine {
        Solver::Chase | Solver::DenseGf2 => {
            Prepared::new(program, plan.clone(), limits)?.solve(program, start, limits)
        }
        Solver::PegDfs | Solver::Bfs => solve_search(program, plan.engine, start, limits),
        Solver::MoveLevels => solve_moves(program, start, limits, observer),
    }
}

/// The fewest moves, a chain of jumps by one piece counting once: a jump
/// search first settles whether the goal can be reached (with a parity
/// certificate or an exhaustive search when it cannot), then the levels by
/// moves find the fewest and prove it, ended early by the jump search's
/// solution. A jump search that passes `max-states` settles nothing: the
/// levels then search every bound up to the start's pieces, and show
/// that no sequence of moves reaches the goal when none meets. With the
/// limit `beam`, a beam's solution may end them sooner, and a limit that
/// stops them gives the shortest solution found, marked not optimal.
fn solve_moves(
    program: &Program,
    start: &Bits,
    limits: &Limits,
    observer: Option<&Observer>,
) -> Result<Outcome> {
    let reachable = match solve_search(program, Solver::PegDfs, start, limits) {
        Err(Error::Limit {
            name: "max-states", ..
        }) => None,
        found => Some(found?),
    };
    let known = match reachable {
        Some(Outcome::Solved(known)) => Some(known.moves.to_vec()),
        Some(unsolvable) => return Ok(unsolvable),
        None => None,
    };
    let known = known.as_deref();
    // Boards past 64 cells take 128-bit positions.
    let found = match program.cells() {
        0..=64 => move_levels::fewest_moves(program, word::<u64>(start)?, known, limits, observer)?,
        _ => move_levels::fewest_moves(program, word::<u128>(start)?, known, limits, observer)?,
    };
    let (found, stopped) = match found {
        move_levels::MoveOutcome::Solved(found) => (found, None),
        move_levels::MoveOutcome::Unproved(found, stopped) => (found, Some(stopped)),
        move_levels::MoveOutcome::Unsolvable(_) if known.is_none() => {
            let pieces = start.count_ones() as u32;
            let outcome = Outcome::Unsolvable(Proof::MoveLevels(pieces));
            check(program, start, &outcome)?;
            return Ok(outcome);
        }
        move_levels::MoveOutcome::Unsolvable(_) => {
            return Err(Error::Internal(
                "the jump search reached the goal, but the move levels did not".into(),
            ));
        }
    };
    let jumps: Vec<usize> = found.moves.iter().flatten().copied().collect();
    let list = PlayedMoves::List(jumps);
    let end = program
        .replay(start, &list)
        .map_err(|e| Error::Internal(format!("a fewest-moves solution does not replay: {e}")))?;
    let outcome = Outcome::Solved(Solution {
        moves: list,
        end,
        optimal: stopped.is_none(),
        chains: Some(Chains {
            lengths: found.moves.iter().map(Vec::len).collect(),
            levels: found.levels,
            stopped,
        }),
    });
    check(program, start, &outcome)?;
    Ok(outcome)
}

/// Solves one board of a linear puzzle already eliminated: the fewest
/// presses over every target, or one certificate per target.
pub fn solve_linear(
    program: &Program,
    linear: &Linear,
    start: &Bits,
    limits: &Limits,
) -> Result<Outcome> {
    let Goal::Targets(targets) = program.goal() else {
        return Err(Error::Usage(
            "the gf2 solver answers target goals; fewest pieces needs --solver bfs".into(),
        ));
    };
    let mut best: Option<(Bits, bool)> = None;
    let mut all_optimal = true;
    let mut certificates = Vec::new();
    let mut proved = true;
    for target in targets {
        let mut b = start.clone();
        b.xor_assign(target);
        match linear.solve(program, &b) {
            Ok(x) => {
                let (x, optimal) = linear::fewest_presses(
                    &x,
                    linear.null_space(),
                    linear.nullity(),
                    limits.coset_work,
                );
                all_optimal &= optimal;
                if best
                    .as_ref()
                    .is_none_or(|(b, _)| x.count_ones() < b.count_ones())
                {
                    best = Some((x, optimal));
                }
            }
            Err(Some(cells)) => certificates.push(Certificate {
                target: target.clone(),
                cells,
            }),
            Err(None) => proved = false,
        }
    }
    match best {
        Some((x, _)) => pressed(program, start, x, all_optimal),
        None => {
            let outcome = Outcome::Unsolvable(if proved {
                Proof::Parity(certificates)
            } else {
                Proof::Rank
            });
            check(program, start, &outcome)?;
            Ok(outcome)
        }
    }
}

/// The solution that presses the moves of `x` from `start`, checked.
pub(crate) fn pressed(program: &Program, start: &Bits, x: Bits, optimal: bool) -> Result<Outcome> {
    let moves = PlayedMoves::Presses(x);
    let end = program
        .replay(start, &moves)
        .map_err(|e| Error::Internal(format!("a gf2 press set does not replay: {e}")))?;
    let outcome = Outcome::Solved(Solution {
        moves,
        end,
        optimal,
        chains: None,
    });
    check(program, start, &outcome)?;
    Ok(outcome)
}

fn solve_search(
    program: &Program,
    engine: Solver,
    start: &Bits,
    limits: &Limits,
) -> Result<Outcome> {
    let (certificates, open) = relaxation(program, start, limits);
    if let Some(certificates) = certificates {
        let outcome = Outcome::Unsolvable(Proof::Parity(certificates));
        check(program, start, &outcome)?;
        return Ok(outcome);
    }
    // Only the targets that parity does not rule out are searched for.
    let open_targets: Vec<&Bits> = match program.goal() {
        Goal::Targets(t) => t
            .iter()
            .enumerate()
            .filter(|(i, _)| open.as_ref().is_none_or(|o| o.contains(i)))
            .map(|(_, t)| t)
            .collect(),
        Goal::FewestPieces => Vec::new(),
    };
    let found: Option<(Vec<usize>, Bits)> = match (engine, program.cells()) {
        (Solver::PegDfs, 0..=64) => jump_search::<u64>(program, start, &open_targets, limits)?,
        // Boards past 64 cells take 128-bit states.
        (Solver::PegDfs, _) => jump_search::<u128>(program, start, &open_targets, limits)?,
        _ => bfs::bfs(program, word::<u64>(start)?, limits)?
            .map(|f| (f.moves, Bits::from_u64(program.cells(), f.end))),
    };
    let outcome = match found {
        None => Outcome::Unsolvable(Proof::Search),
        Some((moves, end)) => Outcome::Solved(Solution {
            moves: PlayedMoves::List(moves),
            end,
            optimal: true,
            chains: None,
        }),
    };
    check(program, start, &outcome)?;
    Ok(outcome)
}

/// The jump search (every move removes a piece) in words of `W`: the moves
/// and the board they reach, or `None` when no target is reachable.
fn jump_search<W: Word>(
    program: &Program,
    start: &Bits,
    targets: &[&Bits],
    limits: &Limits,
) -> Result<Option<(Vec<usize>, Bits)>> {
    let targets: Vec<W> = targets.iter().filter_map(|t| W::from_bits(t)).collect();
    let found = dfs::dfs(program, word::<W>(start)?, &targets, limits)?;
    Ok(found.map(|f| (f.moves, f.end.to_bits(program.cells()))))
}

/// A searched board as one word: the planner keeps boards that do not fit
/// from the search engines, so one here is a defect.
fn word<W: Word>(board: &Bits) -> Result<W> {
    W::from_bits(board).ok_or_else(|| {
        Error::Internal(format!(
            "a searched board of {} cells in a {}-bit word",
            board.len(),
            W::BITS
        ))
    })
}

/// A proof of impossibility without search, for puzzles with guarded moves:
/// a move flips the same cells whatever its guard, so a parity certificate of
/// the *relaxation* (every move as a plain toggle of its flip) holds for the
/// puzzle itself. This is the classical colouring argument of peg solitaire,
/// found by elimination for any board. `None` when some target is not ruled
/// out this way (or the puzzle is already linear, or has an objective).
/// Also returns the indices of the targets not ruled out, when elimination ran.
fn relaxation(
    program: &Program,
    start: &Bits,
    limits: &Limits,
) -> (Option<Vec<Certificate>>, Option<Vec<usize>>) {
    let Goal::Targets(targets) = program.goal() else {
        return (None, None);
    };
    if program.is_linear() {
        return (None, None);
    }
    let relaxed = program.relaxed();
    let Ok(linear) = Linear::dense(&relaxed, limits) else {
        return (None, None);
    };
    let mut certificates = Vec::new();
    let mut open = Vec::new();
    for (i, target) in targets.iter().enumerate() {
        let mut b = start.clone();
        b.xor_assign(target);
        match linear.solve(&relaxed, &b) {
            Err(Some(cells)) => certificates.push(Certificate {
                target: target.clone(),
                cells,
            }),
            _ => open.push(i),
        }
    }
    (open.is_empty().then_some(certificates), Some(open))
}

/// Checks an outcome with the one checker ([`crate::check::check_outcome`]);
/// a failure is a bug, reported as [`Error::Internal`].
pub fn check(program: &Program, start: &Bits, outcome: &Outcome) -> Result<()> {
    crate::check::check_outcome(program, start, outcome)
        .map_err(|e| Error::Internal(format!("the answer fails its own check: {e}")))
}

/// A planned solver built once, for board after board (`batch`): the
/// elimination of a linear puzzle is done here once, not per board.
pub(crate) struct Prepared {
    plan: Plan<Solver>,
    linear: Option<Linear>,
}

impl Prepared {
    /// Builds the solver `plan` names.
    pub(crate) fn new(program: &Program, plan: Plan<Solver>, limits: &Limits) -> Result<Prepared> {
        let linear = match plan.engine.eliminator() {
            Some(eliminator) => Some(eliminate(program, eliminator, limits)?),
            None => None,
        };
        Ok(Prepared { plan, linear })
    }

    /// The plan it was built from.
    pub(crate) fn plan(&self) -> &Plan<Solver> {
        &self.plan
    }

    /// The eliminated puzzle, for a linear solver.
    pub(crate) fn linear(&self) -> Option<&Linear> {
        self.linear.as_ref()
    }

    /// Solves one board of `program` (the program it was built for), checked.
    pub(crate) fn solve(
        &self,
        program: &Program,
        start: &Bits,
        limits: &Limits,
    ) -> Result<Outcome> {
        match &self.linear {
            Some(linear) => solve_linear(program, linear, start, limits),
            None => run_solve(program, &self.plan, start, limits, None),
        }
    }
}

/// The engine a batch runs, built once for all its boards.
pub(crate) enum BatchEngine {
    /// Every state's answer, looked up per board.
    Table(AnswerTable),
    /// Each board solved by the planned solver.
    EachBoard(Prepared),
}

impl BatchEngine {
    /// Builds the engine `plan` names.
    pub(crate) fn new(program: &Program, plan: &Plan<Batcher>, limits: &Limits) -> Result<Self> {
        Ok(match plan.each_board() {
            None => BatchEngine::Table(AnswerTable::build(program)?),
            Some(solver) => BatchEngine::EachBoard(Prepared::new(program, solver, limits)?),
        })
    }
}
