//! Solvers: search for one board, answer tables for many, and the replay check every answer passes.

pub mod search;
pub mod table;

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::program::{Goal, Program};

pub use table::AnswerTable;

/// Limits on the solvers' work, each with a documented default.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The most states one search may visit (`max-states`); default 2^25.
    pub max_states: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: 1 << 25,
        }
    }
}

/// A checked answer for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Indices into [`Program::moves`], in the order played.
    pub moves: Vec<usize>,
    /// The state the moves reach.
    pub end: Bits,
    /// Whether no shorter sequence (or, for fewest pieces, no better end) exists.
    pub optimal: bool,
}

/// The result of solving one board. Impossibility is an answer, not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The goal can be reached (for fewest pieces: always, possibly with no move).
    Solved(Solution),
    /// No sequence of moves reaches a target; shown by exhaustive search.
    Unsolvable,
}

/// Finds the fewest moves from `start` to the goal (or, for the fewest-pieces
/// objective, the best end with the fewest moves), by breadth-first search.
/// The answer is replayed on the program before it is returned.
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
/// let program = puzzle.compile();
/// let board = puzzle.read_board("oo-o-", "<board>").unwrap().state;
/// let pegflip::Outcome::Solved(s) = pegflip::solve(&program, &board, &Default::default()).unwrap()
/// else { panic!("fewest pieces always has an answer") };
/// assert_eq!((s.moves.len(), s.end.count_ones()), (2, 1));
/// ```
pub fn solve(program: &Program, start: &Bits, limits: &Limits) -> Result<Outcome> {
    let word = start.to_u64().unwrap_or(0);
    let outcome = match search::bfs(program, word, limits)? {
        None => Outcome::Unsolvable,
        Some(found) => Outcome::Solved(Solution {
            moves: found.moves,
            end: Bits::from_u64(program.cells(), found.end),
            optimal: true,
        }),
    };
    check(program, start, &outcome)?;
    Ok(outcome)
}

/// Replays a solution on the program: every move legal, the end state as
/// claimed, and for targets the end is a target. An `Unsolvable` outcome
/// passes trivially here; its proof is the exhaustive search that produced it.
pub fn check(program: &Program, start: &Bits, outcome: &Outcome) -> Result<()> {
    let Outcome::Solved(solution) = outcome else {
        return Ok(());
    };
    let end = program
        .replay(start, &solution.moves)
        .map_err(|e| Error::Internal(format!("the solution does not replay: {e}")))?;
    if end != solution.end {
        return Err(Error::Internal(
            "the solution replays to another state than claimed".into(),
        ));
    }
    if matches!(program.goal(), Goal::Targets(_)) && !program.is_target(&end) {
        return Err(Error::Internal(
            "the solution does not reach a target".into(),
        ));
    }
    Ok(())
}
