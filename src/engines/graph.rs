//! The state graph reachable from a board: every state and every legal move between them, bounded by `graph-states`.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

use crate::bits::Bits;
use crate::error::Result;
use crate::limits::Limits;
use crate::program::Program;

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
