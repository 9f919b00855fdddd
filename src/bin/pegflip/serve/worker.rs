//! One request of `pegflip serve`'s page, answered by the library in a child process the server can stop.
//!
//! The server runs `pegflip serve-worker`, writes one [`Request`] as JSON to
//! its standard input and reads one [`Reply`] from its standard output. Every
//! piece of work on a puzzle the page sends (checking the file, solving a
//! board, exploring) runs here, under the planner's limits; the server kills
//! the process when the request's time budget runs out, so no file or board
//! can stall the server.

use std::io::{Read, Write};

use pegflip::Output;
use pegflip::board::Lattice;
use pegflip::{Bits, Goal, Outcome, Program, Puzzle, render};
use pegflip::{Request as States, enumerate};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The most quiet patterns an exploration draws.
const QUIET_PATTERNS: usize = 32;

/// The most work, in the planner's estimate (word operations), that a
/// histogram may take for the page: about a second here. Past it
/// the page says the puzzle is too large to explore there.
pub const EXPLORE_WORK: u128 = 1 << 27;

/// One piece of work on the puzzle in `toml`.
#[derive(Deserialize)]
pub struct Request {
    /// The puzzle file's text.
    pub toml: String,
    /// The name error messages give the file.
    pub file: String,
    /// The most memory the work may plan to use.
    pub max_memory: u64,
    /// What to do with it.
    #[serde(flatten)]
    pub op: Op,
}

/// What a request asks.
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Op {
    /// Check the file; on success, everything the page needs to draw and play it.
    Load,
    /// Solve one board, given as one `0` or `1` per cell in cell order.
    Solve {
        /// The board.
        state: String,
    },
    /// Rank, nullity and quiet patterns (linear puzzles), and the histogram of distances.
    Explore,
    /// A random board at `distance` from the goal, drawn as `pegflip generate` draws it.
    Pick {
        /// The distance.
        distance: u32,
        /// The seed of the draw.
        seed: u64,
    },
}

/// The answer: an HTTP status and a JSON body.
#[derive(Serialize)]
pub struct Reply {
    /// The status the server sends.
    pub status: u16,
    /// The body it sends.
    pub body: Value,
}

/// `pegflip serve-worker`: reads one request from stdin, writes one reply to stdout.
pub fn run() -> anyhow::Result<u8> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let reply = match serde_json::from_str::<Request>(&input) {
        Ok(request) => {
            pegflip::memory::bound(request.max_memory, over_memory);
            answer(&request)
        }
        Err(e) => {
            // The position is in the worker's own request, not in what the page sent.
            let e = e.to_string();
            let what = e.split(" at line ").next().unwrap_or(&e);
            failure(400, format!("a request this API cannot read: {what}"))
        }
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", serde_json::to_string(&reply)?)?;
    out.flush()?;
    Ok(crate::OK)
}

/// The reply to one request.
pub fn answer(request: &Request) -> Reply {
    match work(request) {
        Ok(body) => Reply { status: 200, body },
        Err(pegflip::Error::Input(d)) => Reply {
            status: 422,
            body: json!({
                "error": d.to_string(),
                "line": d.line,
                "col": d.col,
                "message": d.message,
            }),
        },
        Err(e @ pegflip::Error::Internal(_)) => failure(500, e.to_string()),
        Err(e) => failure(422, e.to_string()),
    }
}

/// When an allocation would pass the request's max-memory: the reply is the
/// limit error, and the worker ends.
fn over_memory(over: pegflip::memory::Over) -> ! {
    let reply = failure(422, over.error().to_string());
    if let Ok(text) = serde_json::to_string(&reply) {
        let _ = writeln!(std::io::stdout(), "{text}");
    }
    std::process::exit(crate::OK.into())
}

fn failure(status: u16, message: String) -> Reply {
    Reply {
        status,
        body: json!({ "error": message }),
    }
}

fn work(request: &Request) -> pegflip::Result<Value> {
    // A file sent to the server may lower its limits, never raise them.
    let ceiling = pegflip::Limits {
        max_memory: request.max_memory,
        ..Default::default()
    };
    let puzzle = Puzzle::parse_within(&request.toml, &request.file, &ceiling)?;
    if puzzle.colours() > 2 {
        return super::colours::work(&puzzle, &request.op);
    }
    let program = puzzle.compile()?;
    match &request.op {
        Op::Load => view(&program),
        Op::Solve { state } => solve(&program, state),
        Op::Explore => explore(&program),
        Op::Pick { distance, seed } => pick(&program, *distance, *seed),
    }
}

/// A state as one `0` or `1` per cell.
fn bits_text(state: &Bits) -> String {
    (0..state.len())
        .map(|i| if state.get(i) { '1' } else { '0' })
        .collect()
}

fn parse_state(program: &Program, text: &str) -> pegflip::Result<Bits> {
    let cells = program.cells();
    if let Some((i, c)) = text
        .chars()
        .enumerate()
        .find(|&(_, c)| c != '0' && c != '1')
    {
        return Err(pegflip::Error::Usage(format!(
            "a board of this puzzle is {cells} characters, each 0 or 1, one per cell; character \
             {} is {c:?}",
            i + 1
        )));
    }
    if text.len() != cells {
        return Err(pegflip::Error::Usage(format!(
            "a board of this puzzle is {cells} characters, each 0 or 1, one per cell; got {} \
             characters",
            text.len()
        )));
    }
    let mut state = Bits::zeros(cells);
    for (i, b) in text.bytes().enumerate() {
        state.set(i, b == b'1');
    }
    Ok(state)
}

/// Everything the page needs to draw and play the puzzle.
fn view(program: &Program) -> pegflip::Result<Value> {
    let puzzle = program.puzzle();
    if let Some(reason) = program.unlisted_reason() {
        return Err(pegflip::Error::Usage(format!(
            "the page cannot play this puzzle: {reason}"
        )));
    }
    let ids = |cells: &[pegflip::CellId]| cells.iter().map(|c| c.0).collect::<Vec<_>>();
    let moves: Vec<Value> = program
        .moves()
        .iter()
        .map(|m| {
            json!({
                "kind": pegflip::answer::kind_name(m.kind),
                "cells": ids(&m.cells),
                "need_on": ids(&m.need_on),
                "need_off": ids(&m.need_off),
                "flip": ids(&m.flip),
                "text": "",
            })
        })
        .collect();
    let moves: Vec<Value> = moves
        .into_iter()
        .enumerate()
        .map(|(i, mut m)| {
            m["text"] = json!(render::describe_move(program, i));
            m
        })
        .collect();
    let (start, start_note) = match &puzzle.start {
        Some(s) => (s.clone(), None),
        None => (
            made_up_start(program),
            Some(
                "the file declares no start, so this board is made up: Explore picks solvable \
                 boards at any distance",
            ),
        ),
    };
    let goal = match program.goal() {
        Goal::FewestPieces => json!({ "fewest_pieces": true }),
        Goal::Targets(targets) => json!({
            "fewest_pieces": false,
            "targets": targets.len(),
            "shown": targets.iter().take(8).map(|t| puzzle.board_text(t)).collect::<Vec<_>>(),
        }),
    };
    let mut view = geometry(puzzle)?;
    view["pegs"] =
        // Drawn as holes and pegs when the file declares jumps, even where none fits the board.
        json!(puzzle.rules.iter().any(|r| matches!(r, pegflip::puzzle::MoveRule::Jump(_))));
    view["linear"] = json!(program.is_linear());
    view["moves"] = json!(moves);
    view["start"] = json!(bits_text(&start));
    view["start_note"] = json!(start_note);
    view["goal"] = goal;
    view["on"] = json!(puzzle.symbols.on());
    view["off"] = json!(puzzle.symbols.off());
    Ok(view)
}

/// What the page draws any puzzle with: name, cells (position, label,
/// row and column), size, a graph's edges, the lattice and the metric.
/// Refused past `svg-cells`.
pub(super) fn geometry(puzzle: &Puzzle) -> pegflip::Result<Value> {
    let board = &puzzle.board;
    if board.cells() > render::SVG_CELLS {
        return Err(pegflip::Limits::exceeded_bound(
            "svg-cells",
            "the number of cells to draw",
            board.cells() as u128,
            render::SVG_CELLS as u128,
            "the page draws boards of at most 10,000 cells; `pegflip solve` takes larger ones",
        ));
    }
    let (centres, width, height) = render::layout(board);
    let cells: Vec<Value> = centres
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            let cell = pegflip::CellId(i);
            let [row, col] = board.coord(cell);
            json!({ "x": x, "y": y, "label": board.label(cell), "row": row, "col": col })
        })
        .collect();
    let edges: Vec<[usize; 2]> = match board.lattice() {
        Lattice::Graph(links) => links
            .iter()
            .enumerate()
            .flat_map(|(a, l)| l.iter().filter(move |b| b.0 > a).map(move |b| [a, b.0]))
            .collect(),
        _ => Vec::new(),
    };
    Ok(json!({
        "name": puzzle.name,
        "about": puzzle.about,
        "cells": cells,
        "width": width,
        "height": height,
        "edges": edges,
        "lattice": match board.lattice() {
            Lattice::Square => "square",
            Lattice::Triangular => "triangular",
            Lattice::Graph(_) => "graph",
        },
        "metric": puzzle.metric.name(),
    }))
}

/// A board for a file without a start, the same each time for the same
/// puzzle name: for a toggle puzzle with targets, random presses from its
/// first target (so it can be solved); otherwise cells on at random, about
/// two in three.
fn made_up_start(program: &Program) -> Bits {
    let puzzle = program.puzzle();
    let cells = program.cells();
    // splitmix64, seeded by the name: a fixed pseudo-random sequence.
    let mut seed = puzzle.name.bytes().fold(0x9e37_79b9_7f4a_7c15_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut next = move || {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    match program.goal() {
        Goal::Targets(targets) if program.is_linear() && !targets.is_empty() => {
            let mut state = targets[0].clone();
            for m in program.moves() {
                if next() % 2 == 1 {
                    for c in &m.flip {
                        state.toggle(c.0);
                    }
                }
            }
            state
        }
        _ => {
            let mut state = Bits::zeros(cells);
            for i in 0..cells {
                state.set(i, next() % 3 != 0);
            }
            state
        }
    }
}

/// The planned engine's answer for one board, as `solve --json` writes it,
/// with the move indices, the chains and `solve`'s text beside it.
fn solve(program: &Program, state: &str) -> pegflip::Result<Value> {
    let start = parse_state(program, state)?;
    let limits = &program.puzzle().limits;
    let plan = pegflip::plan::solve_plan(program, Default::default(), limits)?;
    let outcome = pegflip::run_solve(program, &plan, &start, limits, None)?;
    let answer = render::checked_answer(program, &start, &outcome, limits)?;
    let (moves, chains, certificates) = match &outcome {
        Outcome::Solved(s) => (
            s.moves.to_vec(),
            s.chains.as_ref().map(|c| c.lengths.clone()),
            Vec::new(),
        ),
        Outcome::Unsolvable(pegflip::Proof::Parity(certs)) => (
            Vec::new(),
            None,
            certs
                .iter()
                .map(|c| c.cells.ones_iter().collect::<Vec<_>>())
                .collect(),
        ),
        Outcome::Unsolvable(_) => (Vec::new(), None, Vec::new()),
    };
    let text = render::text(program, &start, &outcome);
    let sentences: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("every move flips") || l.starts_with("proof:"))
        .collect();
    Ok(json!({
        "answer": answer,
        "moves": moves,
        "chains": chains,
        "length": answer.length,
        "certificates": certificates,
        "proof": sentences,
        "plan": plan.describe(),
        "text": text,
    }))
}

/// Rank, nullity, solvable states and quiet patterns for a linear puzzle,
/// and for a puzzle small enough the number of solvable states per distance.
fn explore(program: &Program) -> pegflip::Result<Value> {
    let limits = &program.puzzle().limits;
    let (linear, linear_refused) = if program.is_linear() {
        match linear_facts(program, limits) {
            Ok(facts) => (Some(facts), None),
            Err(pegflip::Error::Internal(m)) => return Err(pegflip::Error::Internal(m)),
            Err(e) => (None, Some(e.to_string())),
        }
    } else {
        (None, None)
    };
    let request = States {
        output: Output::Histogram,
        ..Default::default()
    };
    let counted = small_enough(program, &request, limits)
        .and_then(|()| enumerate(program, &request, limits, None));
    let (histogram, refused) = match counted {
        Ok(summary) => (
            Some(
                summary
                    .histogram
                    .iter()
                    .map(|(d, n)| json!({ "distance": d, "count": n.to_string() }))
                    .collect::<Vec<_>>(),
            ),
            None,
        ),
        Err(pegflip::Error::Internal(m)) => return Err(pegflip::Error::Internal(m)),
        Err(e) => (None, Some(e.to_string())),
    };
    Ok(json!({
        "linear": linear,
        "linear_refused": linear_refused,
        "objective": matches!(program.goal(), Goal::FewestPieces),
        "histogram": histogram,
        "histogram_refused": refused,
    }))
}

/// Refuses an enumeration the planner estimates past [`EXPLORE_WORK`].
fn small_enough(
    program: &Program,
    request: &States,
    limits: &pegflip::Limits,
) -> pegflip::Result<()> {
    let plan = pegflip::plan(program, &request.query(), Default::default(), limits)?;
    if plan.work > EXPLORE_WORK {
        return Err(pegflip::Error::Usage(format!(
            "too large to explore on the page: {} is estimated at {:.1e} word operations, and \
             the page explores up to {:.1e}; `pegflip states FILE --histogram` has no such limit",
            plan.name(),
            plan.work as f64,
            EXPLORE_WORK as f64
        )));
    }
    Ok(())
}

/// A random board at `distance` from the goal, by the library's generator.
fn pick(program: &Program, distance: u32, seed: u64) -> pegflip::Result<Value> {
    let order = pegflip::Order {
        distance: Some(distance),
        boards: 1,
        seed,
    };
    let generated = pegflip::generate(program, &order, &program.puzzle().limits)?;
    let state = generated
        .boards
        .first()
        .ok_or_else(|| pegflip::Error::Internal("a generator gave no board".into()))?;
    Ok(json!({
        "state": bits_text(state),
        "distance": generated.distance,
        "uniform": generated.drawn.uniform(),
        "method": generated.drawn.describe(),
    }))
}

/// Rank, nullity, the number of boards that reach each target, and the first quiet patterns.
fn linear_facts(program: &Program, limits: &pegflip::Limits) -> pegflip::Result<Value> {
    let l = pegflip::analyze(program, limits)?;
    let quiet: Vec<String> = l
        .null_space()
        .iter()
        .take(QUIET_PATTERNS)
        .map(|q| bits_text(&render::pressed_cells(program, q.ones_iter())))
        .collect();
    let shift = u32::try_from(l.rank()).unwrap_or(u32::MAX);
    Ok(json!({
        "rank": l.rank(),
        "nullity": l.nullity(),
        "solvable_states": pegflip::Count { mult: 1, shift }.to_string(),
        "targets": match program.goal() {
            Goal::Targets(t) => t.len(),
            Goal::FewestPieces => 0,
        },
        "quiet": quiet,
        "quiet_shown": quiet.len(),
    }))
}
