//! The engines: each one way of answering a query, with what it costs, run under a budget.
//!
//! An engine knows the program, the query's settings and the limits; it never
//! imports the planner, the runner or the checker. Each says whether it
//! applies (a constructor that returns `None`, or an `applies` function), what
//! it will cost (a cost function the planner calls), and stops with the limit
//! error when what it holds would pass its budget. The planner's table of
//! engines is [`crate::plan::Method`].

pub(crate) mod bfs;
pub(crate) mod bitboard;
pub(crate) mod chase;
#[cfg(feature = "dataflow")]
pub(crate) mod dataflow;
pub(crate) mod dfs;
pub(crate) mod draw;
pub(crate) mod graph;
pub(crate) mod layered;
pub(crate) mod layers;
pub(crate) mod linear;
pub(crate) mod merson;
pub(crate) mod move_levels;
pub(crate) mod pagoda;
pub(crate) mod parts;
pub(crate) mod peg_types;
pub(crate) mod pegs;
pub(crate) mod sample;
pub(crate) mod span;
pub(crate) mod table;
pub(crate) mod zk_chase;
pub(crate) mod zk_dense;
pub(crate) mod zk_layers;
