//! Counting and listing states: the planned counter built once and run, and the state graph.
//!
//! The planner picks one of the counters ([`crate::plan::Counter`]): the
//! linear span, layered search, an answer table, peg orbits, levels by moves
//! or the timely dataflow. With `--symmetry`, states are counted and listed
//! up to the puzzle's symmetries ([`crate::symmetry::Symmetries`]): one
//! representative per orbit.

use std::collections::BTreeMap;

use petgraph::graph::DiGraph;

use super::analyze::eliminate;
use crate::bits::Bits;
use crate::engines::sample::{self, LayerEstimate, Sampling};
use crate::engines::{graph, layered, move_levels, pegs, span};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::Summary;
use crate::plan::{Counter, graph_plan, states_plan};
use crate::program::{Goal, Program};
use crate::query::{Output, Request, Visit};
use crate::word::Word;

/// Enumerates states with the engine the planner picks, calling `visit` for
/// each one (stop by returning false); with `visit` absent, only the summary
/// is built.
///
/// ```
/// let program = pegflip::Puzzle::from_file("puzzles/flip4x4.toml")?.compile()?;
/// let request = pegflip::Request { output: pegflip::Output::Count, ..Default::default() };
/// let summary = pegflip::enumerate(&program, &request, &Default::default(), None)?;
/// assert_eq!(summary.count.to_string(), "4096");
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn enumerate(
    program: &Program,
    request: &Request,
    limits: &Limits,
    visit: Option<Visit>,
) -> Result<Summary> {
    let plan = match states_plan(program, &request.states_query(), limits) {
        Ok(plan) => plan,
        Err(e) => {
            // The other processes of a dataflow learn of a refusal at once.
            #[cfg(feature = "dataflow")]
            if let Some(cluster) = &request.cluster {
                crate::engines::dataflow::tell_refusal(cluster, &e.to_string());
            }
            return Err(e);
        }
    };
    match plan.engine {
        Counter::LinearSpan(eliminator) => {
            let Goal::Targets(targets) = program.goal() else {
                return Err(Error::Internal("a span enumeration without targets".into()));
            };
            let linear = eliminate(program, eliminator, limits)?;
            let mut visit = visit;
            let mut each = |s: &Bits, d: Option<u32>| visit.as_mut().is_none_or(|v| v(s, d));
            let count = span::states(
                program,
                &linear,
                targets,
                limits,
                request.output == Output::List,
                request.distances,
                &mut each,
            )?;
            Ok(Summary {
                count,
                histogram: BTreeMap::new(),
                symmetries: 1,
            })
        }
        // Boards past 64 cells take 128-bit positions.
        Counter::MoveLevels if program.cells() <= 64 => move_levels::histogram(
            program,
            word::<u64>(&request.from)?,
            request.symmetry,
            limits,
        ),
        Counter::MoveLevels => move_levels::histogram(
            program,
            word::<u128>(&request.from)?,
            request.symmetry,
            limits,
        ),
        Counter::Dataflow => dataflow(program, request, limits),
        // A visitor wants the states themselves, which only the layered search yields.
        Counter::PegOrbits if visit.is_none() => pegs::count(program, request, limits),
        Counter::PegOrbits | Counter::Layered | Counter::AnswerTable => {
            layered::run(program, request, limits, visit)
        }
    }
}

#[cfg(feature = "dataflow")]
fn dataflow(program: &Program, request: &Request, limits: &Limits) -> Result<Summary> {
    let cluster = request
        .cluster
        .as_ref()
        .ok_or_else(|| Error::Internal("a dataflow planned without workers".into()))?;
    crate::engines::dataflow::count(program, request, limits, cluster)
}

#[cfg(not(feature = "dataflow"))]
fn dataflow(_: &Program, _: &Request, _: &Limits) -> Result<Summary> {
    Err(Error::Internal(
        "a dataflow planned in a build without it".into(),
    ))
}

/// The graph of states reachable from `start` (nodes, the start first)
/// joined by the moves between them (edges, weighted by move index), found
/// breadth-first. Refused, with the `graph-states` limit, past that many
/// states.
///
/// ```
/// let program = pegflip::Puzzle::from_file("puzzles/pebble12.toml")?.compile()?;
/// let start = program.puzzle().read_board("-oo---------", "<board>")?.state;
/// let graph = pegflip::state_graph(&program, &start, &Default::default())?;
/// assert_eq!((graph.node_count(), graph.edge_count()), (3, 2));
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn state_graph(
    program: &Program,
    start: &Bits,
    limits: &Limits,
) -> Result<DiGraph<Bits, usize>> {
    let plan = graph_plan(program, limits)?;
    let crate::plan::GraphSearch = plan.engine;
    graph::state_graph(program, start, limits)
}

/// Each layer's size from a start on a peg board, estimated from a sample
/// (the dataflow's estimate before it starts, and `states --estimate`):
/// `None` when the board is not a peg board of at most 64 cells.
pub fn estimate_layers(
    program: &Program,
    start: &Bits,
    sampling: Sampling,
) -> Option<Vec<LayerEstimate>> {
    sample::layers(program, start.to_u64()?, sampling)
}

/// The start of levels by moves as one word, if there is one.
fn word<W: Word>(from: &Option<Bits>) -> Result<Option<W>> {
    from.as_ref()
        .map(|b| {
            W::from_bits(b).ok_or_else(|| {
                Error::Internal(format!("levels by moves on a board of {} cells", b.len()))
            })
        })
        .transpose()
}
