//! Solvers: search for one board, answer tables for many, GF(2) for linear puzzles, and the check every answer passes.

pub mod dfs;
pub mod grid;
pub mod linear;
mod merson;
pub mod moves;
pub mod search;
pub mod table;

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::plan::{Engine, Plan, Preference, Query, plan};
use crate::program::{Goal, Program};

pub use linear::{Certificate, Linear};
pub use table::AnswerTable;

/// Why no solution exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// An exhaustive search visited every reachable state.
    Search,
    /// One parity certificate per target.
    Parity(Vec<Certificate>),
    /// Elimination showed the board is outside the moves' span, but the move
    /// matrix is too large to produce a certificate.
    Rank,
}

/// The moves of a solution, in the order they are played: a list, or for a
/// linear puzzle the set of moves pressed (presses commute), played in
/// ascending order. A set of 10^8 presses takes 12.5 MB, not 800.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moves {
    /// Indices into [`Program::moves`], in order.
    List(Vec<usize>),
    /// The moves pressed, as a set over the move indices.
    Presses(Bits),
}

impl Moves {
    /// The number of moves.
    pub fn len(&self) -> usize {
        match self {
            Moves::List(list) => list.len(),
            Moves::Presses(set) => set.count_ones(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The move indices in the order played.
    pub fn iter(&self) -> Box<dyn Iterator<Item = usize> + '_> {
        match self {
            Moves::List(list) => Box::new(list.iter().copied()),
            Moves::Presses(set) => Box::new(set.ones_iter()),
        }
    }

    /// The move indices in the order played, as a list.
    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }
}

impl<'a> IntoIterator for &'a Moves {
    type Item = usize;
    type IntoIter = Box<dyn Iterator<Item = usize> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl From<Vec<usize>> for Moves {
    fn from(list: Vec<usize>) -> Moves {
        Moves::List(list)
    }
}

/// A checked answer for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The moves, in the order played.
    pub moves: Moves,
    /// The state the moves reach.
    pub end: Bits,
    /// Whether no shorter sequence (or, for fewest pieces, no better end) exists.
    pub optimal: bool,
    /// With the moves metric: how the jumps group into moves, and how the
    /// count was proved the fewest.
    pub chains: Option<Chains>,
}

impl Solution {
    /// The solution's length in the puzzle's metric: its moves (chains of
    /// jumps by one piece) when it has chains, else its moves as played.
    pub fn length(&self) -> usize {
        match &self.chains {
            Some(chains) => chains.lengths.len(),
            None => self.moves.len(),
        }
    }
}

/// The moves of a solution counted as players count them: each a chain of
/// consecutive jumps by one piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chains {
    /// The number of jumps in each move, in order; they add up to the
    /// solution's jumps.
    pub lengths: Vec<usize>,
    /// The levels searched both ways, which prove the count the fewest.
    pub levels: moves::Levels,
}

impl Chains {
    /// The solution's jumps (`jumps`, in order) grouped into moves.
    pub fn group<'a>(&'a self, jumps: &'a [usize]) -> impl Iterator<Item = &'a [usize]> + 'a {
        let mut at = 0;
        self.lengths.iter().map(move |&n| {
            let chain = &jumps[at.min(jumps.len())..(at + n).min(jumps.len())];
            at += n;
            chain
        })
    }
}

/// The result of solving one board. Impossibility is an answer, not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The goal can be reached (for fewest pieces: always, possibly with no move).
    Solved(Solution),
    /// No sequence of moves reaches a target, with the proof.
    Unsolvable(Proof),
}

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
    let plan = plan(program, &Query::Solve, prefer, limits)?;
    run(program, &plan, start, limits)
}

/// Solves one board with the engine `plan` names.
pub fn run(program: &Program, plan: &Plan, start: &Bits, limits: &Limits) -> Result<Outcome> {
    match plan.engine {
        Engine::Chase | Engine::DenseGf2 => {
            let linear = match plan.engine {
                Engine::Chase => Linear::chase(program, limits)?,
                _ => Linear::dense(program, limits)?,
            };
            solve_linear(program, &linear, start, limits)
        }
        Engine::PegDfs | Engine::Bfs => solve_search(program, plan.engine, start, limits),
        Engine::MoveLevels => solve_moves(program, start, limits),
        other => Err(Error::Internal(format!(
            "the {} engine does not solve single boards",
            other.name()
        ))),
    }
}

/// The fewest moves, a chain of jumps by one piece counting once: a jump
/// search first settles whether the goal can be reached (with a parity
/// certificate or an exhaustive search when it cannot), then the levels by
/// moves find the fewest and prove it.
fn solve_moves(program: &Program, start: &Bits, limits: &Limits) -> Result<Outcome> {
    let reachable = solve_search(program, Engine::PegDfs, start, limits)?;
    if let Outcome::Unsolvable(_) = reachable {
        return Ok(reachable);
    }
    let word = start
        .to_u64()
        .ok_or_else(|| Error::Internal("a searched board of more than 64 cells".into()))?;
    let Outcome::Solved(known) = &reachable else {
        return Err(Error::Internal(
            "a search outcome neither solved nor not".into(),
        ));
    };
    let known = known.moves.to_vec();
    let found = match moves::fewest_moves(program, word, Some(&known), limits)? {
        moves::MoveOutcome::Solved(found) => found,
        moves::MoveOutcome::Unsolvable(_) => {
            return Err(Error::Internal(
                "the jump search reached the goal, but the move levels did not".into(),
            ));
        }
    };
    let jumps: Vec<usize> = found.moves.iter().flatten().copied().collect();
    let list = Moves::List(jumps);
    let end = program
        .replay(start, &list)
        .map_err(|e| Error::Internal(format!("a fewest-moves solution does not replay: {e}")))?;
    let outcome = Outcome::Solved(Solution {
        moves: list,
        end,
        optimal: true,
        chains: Some(Chains {
            lengths: found.moves.iter().map(Vec::len).collect(),
            levels: found.levels,
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
    let moves = Moves::Presses(x);
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
    engine: Engine,
    start: &Bits,
    limits: &Limits,
) -> Result<Outcome> {
    let (certificates, open) = relaxation(program, start, limits);
    if let Some(certificates) = certificates {
        let outcome = Outcome::Unsolvable(Proof::Parity(certificates));
        check(program, start, &outcome)?;
        return Ok(outcome);
    }
    let word = start.to_u64().unwrap_or(0);
    let found = if engine == Engine::PegDfs {
        // Only the targets that parity does not rule out are searched for.
        let targets: Vec<u64> = match program.goal() {
            Goal::Targets(t) => t
                .iter()
                .enumerate()
                .filter(|(i, _)| open.as_ref().is_none_or(|o| o.contains(i)))
                .filter_map(|(_, t)| t.to_u64())
                .collect(),
            Goal::FewestPieces => Vec::new(),
        };
        dfs::dfs(program, word, &targets, limits)?
    } else {
        search::bfs(program, word, limits)?
    };
    let outcome = match found {
        None => Outcome::Unsolvable(Proof::Search),
        Some(found) => Outcome::Solved(Solution {
            moves: Moves::List(found.moves),
            end: Bits::from_u64(program.cells(), found.end),
            optimal: true,
            chains: None,
        }),
    };
    check(program, start, &outcome)?;
    Ok(outcome)
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
