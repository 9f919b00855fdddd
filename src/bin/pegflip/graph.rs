//! `pegflip graph`: the state graph reachable from a board, as Graphviz DOT (through petgraph).

use std::collections::VecDeque;
use std::io::Write;

use clap::Parser;
use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

/// The most states `graph` draws (`graph-states`).
pub const GRAPH_STATES: usize = 10_000;

/// Print the graph of states reachable from a board as Graphviz DOT.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip graph puzzles/pebble12.toml --from -- -o--o-oo----
  pegflip graph puzzles/flip4x4.toml --from bwwb/bbwb/bwwb/bwww | dot -Tsvg > states.svg

Nodes are boards (targets drawn doubled); edges are moves. Past 10,000 states
(the limit graph-states) it refuses.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// The board to start from (`start`: the puzzle's declared start).
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    from: String,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    let program = puzzle.compile()?;
    let start = if args.from == "start" {
        puzzle.start.clone().ok_or_else(|| {
            pegflip::Error::Usage(format!("{} declares no start position", args.puzzle.puzzle))
        })?
    } else {
        let read = puzzle.read_board(&args.from, "--from")?;
        crate::warn(&read.warnings);
        read.state
    };
    let mut graph: DiGraph<String, String> = DiGraph::new();
    let mut index: FxHashMap<pegflip::Bits, NodeIndex> = FxHashMap::default();
    let mut queue = VecDeque::new();
    let label = |s: &pegflip::Bits| puzzle.board_text(s);
    index.insert(start.clone(), graph.add_node(label(&start)));
    queue.push_back(start);
    while let Some(s) = queue.pop_front() {
        let from = index[&s];
        for m in 0..program.moves().len() {
            let Ok(t) = program.apply(&s, m) else {
                continue;
            };
            let to = match index.get(&t) {
                Some(&n) => n,
                None => {
                    if index.len() >= GRAPH_STATES {
                        return Err(pegflip::Error::Limit {
                            what: "the number of reachable states".into(),
                            name: "graph-states",
                            value: index.len() as u128 + 1,
                            limit: GRAPH_STATES as u128,
                            hint: "a drawing of more states would not be readable; \
                                   `pegflip states --from BOARD --reachable --count` counts them"
                                .into(),
                        }
                        .into());
                    }
                    let n = graph.add_node(label(&t));
                    index.insert(t.clone(), n);
                    queue.push_back(t);
                    n
                }
            };
            graph.add_edge(
                from,
                to,
                pegflip::render::describe_move(&puzzle, &program, m),
            );
        }
    }
    let targets: Vec<NodeIndex> = index
        .iter()
        .filter(|(s, _)| program.is_target(s))
        .map(|(_, &n)| n)
        .collect();
    let edge_attr = |g: &DiGraph<String, String>, e: petgraph::graph::EdgeReference<String>| {
        format!("label = {:?}", g[petgraph::visit::EdgeRef::id(&e)])
    };
    let node_attr = |g: &DiGraph<String, String>, (n, _): (NodeIndex, &String)| {
        let shape = if targets.contains(&n) {
            ", peripheries = 2"
        } else {
            ""
        };
        format!("label = {:?}{shape}", g[n])
    };
    let dot = Dot::with_attr_getters(
        &graph,
        &[Config::EdgeNoLabel, Config::NodeNoLabel],
        &edge_attr,
        &node_attr,
    );
    let mut out = std::io::stdout().lock();
    writeln!(out, "{dot:?}")?;
    out.flush()?;
    Ok(crate::OK)
}
