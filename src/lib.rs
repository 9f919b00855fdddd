//! pegflip solves lights-out style toggle puzzles and peg-solitaire style jump
//! puzzles, each defined in a TOML file.
//!
//! # The pipeline
//!
//! ```text
//! puzzle.toml --parse--> Spec --validate--> Puzzle --compile--> Program --plan--> Plan --run--> Outcome --check--> print
//! ```
//!
//! The modules follow the pipeline, and each uses only the ones before it:
//!
//! - the model: [`error`], [`limits`], [`memory`], [`bits`], [`gf2`] (packed GF(2)
//!   matrices), [`zk`] (linear algebra modulo any k), [`board`] (the board
//!   graph, on petgraph), [`symbols`], [`io`], [`spec`] (the TOML as written, with spans), [`overrides`]
//!   (`--set`), [`puzzle`] (the validated model; every error in a file is
//!   reported with `FILE:LINE:COL`) and [`catalogue`] (the shipped puzzles);
//! - [`program`]: every move compiled to a *guarded XOR* `{need_on,
//!   need_off, flip}` over a bitset state, with grid stencils and move
//!   notation; [`symmetry`], the program's symmetries;
//! - [`query`]: what is asked (solve, batch, states, analyze, graph);
//! - [`outcome`]: what an engine returns ([`Outcome`], [`Proof`],
//!   [`Solution`], [`Certificate`], [`Summary`]);
//! - [`answer`]: the serde format of an outcome (`solve --json`);
//! - [`check`]: the one checker, which replays solutions and checks
//!   certificates without any engine, also on an answer as it is read
//!   ([`check::verify_from`]);
//! - the engines (private): light chasing, dense elimination, answer
//!   tables, BFS, peg DFS, move levels, the linear span, layered
//!   enumeration, peg orbits and the timely dataflow;
//! - [`plan`](mod@plan): the one place that picks an engine for a query, estimates its
//!   cost and refuses up front what cannot fit the [`Limits`];
//! - the runner: [`solve()`], [`enumerate()`], [`analyze()`],
//!   [`state_graph()`] and [`generate()`] (boards at a distance from the
//!   goal) build the planned engine, run it and check its outcome;
//! - [`batch()`] for judge input ([`batch_to`] as a stream), and [`render`]
//!   for text, SVG and JSON.
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

// The model.
pub mod bits;
pub mod board;
pub mod catalogue;
pub mod error;
pub mod gf2;
pub mod io;
pub mod limits;
pub mod memory;
pub mod overrides;
pub mod puzzle;
pub mod spec;
pub(crate) mod stateset;
pub mod symbols;
pub mod word;
pub mod zk;
// The compiled program, and its symmetries.
pub mod program;
pub mod symmetry;
// What is asked, and what comes back.
pub mod answer;
pub mod check;
pub mod outcome;
pub mod query;
// How it is answered.
pub(crate) mod engines;
pub mod plan;
pub(crate) mod run;
// What uses the answers.
pub mod batch;
pub mod render;

pub use answer::Answer;
pub use batch::{BatchOutput, batch, batch_to};
pub use bits::Bits;
pub use board::{Board, CellId};
#[cfg(feature = "dataflow")]
pub use engines::dataflow::{is_lost_connection, remove_spill_files, tell_refusal};
pub use engines::linear::{Elimination, Linear};
pub use engines::table::AnswerTable;
pub use error::{Diagnostic, Error, Result};
pub use limits::Limits;
pub use outcome::{
    Certificate, Chains, ColourCertificate, ColourOutcome, ColourSolution, Count, Drawn, Generated,
    Levels, Outcome, PlayedMoves, Proof, Solution, Summary,
};
pub use overrides::Override;
pub use plan::{Method, Plan, plan};
pub use program::{Goal, Move, MoveKind, Program};
pub use puzzle::{Bounds, Metric, Puzzle};
pub use query::{
    Cluster, Event, Listing, Observer, Order, Output, Preference, Query, Request, StatesQuery,
};
pub use render::write_json;
pub use run::{
    ColourFacts, Eliminated, LayerEstimate, Sampling, analyze, colour_layers, colour_state_graph,
    enumerate, estimate_layers, generate, run_solve, solve, solve_colours, solve_linear,
    solve_with, state_graph,
};

/// The examples of README.md, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
