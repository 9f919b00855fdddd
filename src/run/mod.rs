//! The runner: the one place where a plan becomes a running engine, and its outcome is checked.
//!
//! Each kind of query has its own plan type ([`crate::plan`]), and each has
//! one place here with an exhaustive match over that plan's engines: it
//! builds the engine once and runs it. Every solution and every proof of
//! impossibility is checked by the one checker ([`crate::check`]) before it
//! is handed on.

mod analyze;
mod colours;
mod generate;
mod solve;
mod states;

pub use crate::engines::sample::{LayerEstimate, Sampling};
pub use analyze::analyze;
pub use colours::{ColourFacts, Eliminated, colour_layers, colour_state_graph, solve_colours};
pub use generate::generate;
pub(crate) use solve::{BatchEngine, Prepared, pressed};
pub use solve::{run_solve, solve, solve_linear, solve_with};
pub use states::{enumerate, estimate_layers, state_graph};
