//! `pegflip graph`: the state graph reachable from a board, as Graphviz DOT (through petgraph).

use std::io::Write;

use clap::Parser;
use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};

/// Print the graph of states reachable from a board as Graphviz DOT.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip graph puzzles/pebble12.toml --from -- -o--o-oo----
  pegflip graph puzzles/flip4x4.toml --from bwwb/bbwb/bwwb/bwww | dot -Tsvg > states.svg

Nodes are boards (targets drawn doubled); edges are moves. Past 10,000 states
(the limit graph-states; --set limits.graph-states=N) it refuses.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// The board to start from (`start`: the puzzle's declared start).
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    from: String,
    /// Print the plan (engine, estimated memory and work) to stderr first.
    #[arg(long)]
    explain: bool,
    /// Print one JSON object instead of DOT: `nodes` (board, target) and
    /// `edges` (from, to, move), nodes numbered from 0 (the start).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    if puzzle.colours() > 2 {
        return colours(args, &puzzle);
    }
    let program = puzzle.compile()?;
    let start = if args.from == "start" {
        puzzle.start.clone().ok_or_else(|| {
            pegflip::Error::Usage(format!("{} declares no start position", args.puzzle.puzzle))
        })?
    } else {
        let read = puzzle.read_board(&args.from, "--from").map_err(|err| {
            crate::option_as_board(&args.from, "graph", Some("--from")).unwrap_or(err.into())
        })?;
        crate::warn(&read.warnings);
        read.state
    };
    if args.explain {
        let plan = pegflip::plan(
            &program,
            &pegflip::Query::Graph,
            Default::default(),
            &puzzle.limits,
        )?;
        crate::common::explain(&plan);
    }
    let states = pegflip::state_graph(&program, &start, &puzzle.limits)?;
    let graph = states.map(
        |_, s| puzzle.board_text(s),
        |_, &m| pegflip::render::describe_move(&program, m),
    );
    let targets: Vec<NodeIndex> = states
        .node_indices()
        .filter(|&n| program.is_target(&states[n]))
        .collect();
    write(args, &graph, &targets)
}

/// `graph` on a puzzle of k colours: the boards reachable from `--from` by
/// presses, each adding its amounts modulo k.
fn colours(args: &Args, puzzle: &pegflip::Puzzle) -> anyhow::Result<u8> {
    use pegflip::program::colours::ColourProgram;
    let program = ColourProgram::compile(puzzle, &puzzle.limits)?;
    let start = if args.from == "start" {
        puzzle.start_colours.clone().ok_or_else(|| {
            pegflip::Error::Usage(format!("{} declares no start position", args.puzzle.puzzle))
        })?
    } else {
        let read = puzzle.read_colours(&args.from, "--from")?;
        crate::warn(&read.warnings);
        read.digits
    };
    if args.explain {
        let plan = pegflip::plan::colour_plan(&program, &puzzle.limits)?;
        crate::common::explain(&plan.erase());
    }
    let boards = pegflip::colour_state_graph(&program, &start, &puzzle.limits)?;
    let graph = boards.map(
        |_, b| program.board_text(b),
        |_, &m| pegflip::answer::describe_press(&program, m, 1),
    );
    let targets: Vec<NodeIndex> = boards
        .node_indices()
        .filter(|&n| program.targets().iter().any(|(_, t)| *t == boards[n]))
        .collect();
    write(args, &graph, &targets)
}

/// Writes the graph as DOT (targets drawn doubled) or, with `--json`, as
/// nodes and edges.
fn write(
    args: &Args,
    graph: &DiGraph<String, String>,
    targets: &[NodeIndex],
) -> anyhow::Result<u8> {
    if args.json {
        let nodes: Vec<_> = graph
            .node_indices()
            .map(|n| serde_json::json!({ "board": graph[n], "target": targets.contains(&n) }))
            .collect();
        let edges: Vec<_> = graph
            .edge_indices()
            .filter_map(|e| {
                let (a, b) = graph.edge_endpoints(e)?;
                Some(serde_json::json!({ "from": a.index(), "to": b.index(), "move": graph[e] }))
            })
            .collect();
        let value = serde_json::json!({ "nodes": nodes, "edges": edges });
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        out.flush()?;
        return Ok(crate::OK);
    }
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
        graph,
        &[Config::EdgeNoLabel, Config::NodeNoLabel],
        &edge_attr,
        &node_attr,
    );
    let mut out = std::io::stdout().lock();
    writeln!(out, "{dot:?}")?;
    out.flush()?;
    Ok(crate::OK)
}
