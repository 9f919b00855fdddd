//! pegflip solves lights-out style toggle puzzles and peg-solitaire style jump
//! puzzles, each defined in a TOML file.
//!
//! # The pipeline
//!
//! ```text
//! puzzle.toml --parse--> Spec --validate--> Puzzle --compile--> Program --plan--> Plan --run--> Outcome
//! ```
//!
//! - [`plan`](mod@plan): the one place that decides how a query is answered. It picks
//!   the engine (light chasing, dense GF(2), answer table, peg DFS, BFS,
//!   linear span, layered enumeration), estimates its memory and work, and
//!   refuses up front what cannot fit the [`Limits`].
//!
//! - [`spec`]: the TOML as written, with spans for error messages.
//! - [`Puzzle`]: the validated model: a [`Board`] graph (petgraph), symbols,
//!   move rules and a goal. Every error in a file is reported here with
//!   `FILE:LINE:COL`.
//! - [`Program`]: every move compiled to a *guarded XOR*
//!   `{need_on, need_off, flip}` over a bitset state. A toggle has no guard;
//!   a jump from A over B into C needs A and B set and C clear, and flips all three.
//! - Solvers: [`solve()`] answers one board with the planned engine (fewest
//!   moves, or for the fewest-pieces objective the best end in the fewest
//!   moves); [`AnswerTable`] answers every state of a puzzle of at most 26
//!   cells from one backward search, and [`batch()`] uses it for judge input
//!   when the planner finds it pays. Every solution is replayed on the
//!   [`Program`] before it is returned.
//! - Linear puzzles (toggles only): [`gf2`] holds packed GF(2) matrices and
//!   Four Russians elimination; [`solve::linear`] gives the fewest presses or
//!   a parity certificate, by light chasing ([`solve::grid`]) where it
//!   applies and dense elimination otherwise.
//! - [`enumerate`] lists and counts solvable or reachable states, up to
//!   symmetry.
//! - [`check`]: the one checker. Every answer is replayed (or its certificate
//!   checked) before it is returned, and [`check::verify`] checks a written
//!   [`Answer`] without any solver.
//! - [`catalogue`] holds the shipped puzzles, built in.
//!
//! # Example
//!
//! ```
//! use pegflip::{Outcome, Puzzle, solve};
//!
//! let puzzle = Puzzle::from_file("puzzles/flip4x4.toml")?;
//! let program = puzzle.compile()?;
//! let board = puzzle.read_board("bwwb/bbwb/bwwb/bwww", "<board>")?.state;
//! match solve(&program, &board, &Default::default())? {
//!     Outcome::Solved(s) => assert_eq!(s.moves.len(), 4),
//!     Outcome::Unsolvable(_) => unreachable!("POJ 1753's sample is solvable"),
//! }
//! # Ok::<(), pegflip::Error>(())
//! ```

#![deny(missing_docs)]

pub mod answer;
pub mod batch;
pub mod bits;
pub mod board;
pub mod catalogue;
pub mod check;
pub mod compile;
pub mod enumerate;
pub mod error;
pub mod gf2;
pub mod io;
pub mod limits;
pub mod overrides;
pub mod plan;
pub mod program;
pub mod puzzle;
pub mod render;
pub mod solve;
pub mod spec;
pub mod stateset;
pub mod symbols;

pub use answer::{Answer, write_json};
pub use batch::{BatchOutput, batch};
pub use bits::Bits;
pub use board::{Board, CellId};
pub use error::{Diagnostic, Error, Result};
pub use limits::Limits;
pub use overrides::Override;
pub use plan::{Engine, Plan, Preference, Query, plan};
pub use program::{Goal, Move, MoveKind, Program};
pub use puzzle::{Metric, Puzzle};
pub use solve::{
    AnswerTable, Certificate, Linear, Moves, Outcome, Proof, Solution, solve, solve_with,
};
