//! Analysing a linear puzzle: the planned elimination, built once.

use crate::engines::linear::Linear;
use crate::error::Result;
use crate::limits::Limits;
use crate::plan::{Eliminator, analyze_plan};
use crate::program::Program;

/// The move matrix of a linear puzzle, eliminated by the engine the planner
/// picks (light chasing where a stencil allows it, dense elimination
/// otherwise): its rank, nullity and quiet patterns, and a solver for any
/// board. Refused, with [`crate::Error::Usage`], for a puzzle with guarded
/// moves, and with the limit error past its limits.
///
/// ```
/// let program = pegflip::Puzzle::from_file("puzzles/lights-out.toml")?.compile()?;
/// let linear = pegflip::analyze(&program, &Default::default())?;
/// assert_eq!((linear.rank(), linear.nullity()), (23, 2));
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn analyze(program: &Program, limits: &Limits) -> Result<Linear> {
    eliminate(program, analyze_plan(program, limits)?.engine, limits)
}

/// The program eliminated by `eliminator`: the one place a planned
/// elimination is built.
pub(crate) fn eliminate(
    program: &Program,
    eliminator: Eliminator,
    limits: &Limits,
) -> Result<Linear> {
    match eliminator {
        Eliminator::Chase => Linear::chase(program, limits),
        Eliminator::DenseGf2 => Linear::dense(program, limits),
    }
}
