//! The state graph reachable from a board: every state and every legal move between them, bounded by `graph-states`.
//!
//! Two colours by the program's moves (guarded or not); k colours by the
//! presses, each adding its amounts modulo k.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

use crate::bits::Bits;
use crate::error::Result;
use crate::limits::Limits;
use crate::program::Program;
use crate::program::colours::ColourProgram;

/// The cost of a state graph of at most `graph-states` states: each state's
/// words, its index entry and its node.
pub(crate) fn cost(program: &Program, limits: &Limits) -> (u128, u128) {
    let states = u128::from(limits.graph_states);
    let words = program.cells().div_ceil(64) as u128;
    let per_state = words * 8 * 3 + 64;
    (
        states * per_state,
        states * program.moves().len() as u128 * words,
    )
}

/// The states reachable from `start` (nodes, the start first) joined by the
/// moves between them (edges, weighted by move index), found breadth-first;
/// refused, with the `graph-states` limit, past that many states.
pub(crate) fn state_graph(
    program: &Program,
    start: &Bits,
    limits: &Limits,
) -> Result<DiGraph<Bits, usize>> {
    let mut graph: DiGraph<Bits, usize> = DiGraph::new();
    let mut index: FxHashMap<Bits, NodeIndex> = FxHashMap::default();
    let mut queue = VecDeque::new();
    index.insert(start.clone(), graph.add_node(start.clone()));
    queue.push_back(start.clone());
    while let Some(s) = queue.pop_front() {
        let from = index[&s];
        for m in 0..program.moves().len() {
            let Ok(t) = program.apply(&s, m) else {
                continue;
            };
            let to = match index.get(&t) {
                Some(&n) => n,
                None => {
                    if index.len() as u64 >= limits.graph_states {
                        return Err(limits.exceeded(
                            "graph-states",
                            "the number of reachable states",
                            index.len() as u128 + 1,
                            "a drawing of more states would not be readable; `pegflip states \
                             --from BOARD --reachable --count` counts them",
                        ));
                    }
                    let n = graph.add_node(t.clone());
                    index.insert(t.clone(), n);
                    queue.push_back(t);
                    n
                }
            };
            graph.add_edge(from, to, m);
        }
    }
    Ok(graph)
}

/// The boards of k colours reachable from `start` (nodes, the start first)
/// joined by the presses between them (edges, weighted by press index),
/// found breadth-first. The caller has checked their number, known from the
/// algebra, against `graph-states`.
pub(crate) fn colour_graph(program: &ColourProgram, start: &[u64]) -> DiGraph<Vec<u64>, usize> {
    let k = program.modulus();
    let mut graph: DiGraph<Vec<u64>, usize> = DiGraph::new();
    let mut index: FxHashMap<Vec<u64>, NodeIndex> = FxHashMap::default();
    let mut queue = VecDeque::new();
    let start: Vec<u64> = start.iter().map(|&v| v % k).collect();
    index.insert(start.clone(), graph.add_node(start.clone()));
    queue.push_back(start);
    while let Some(board) = queue.pop_front() {
        let from = index[&board];
        for (m, press) in program.moves().iter().enumerate() {
            let mut after = board.clone();
            for &(cell, a) in &press.adds {
                after[cell.0] = (after[cell.0] + a) % k;
            }
            let to = *index.entry(after.clone()).or_insert_with(|| {
                queue.push_back(after.clone());
                graph.add_node(after)
            });
            graph.add_edge(from, to, m);
        }
    }
    graph
}
