//! The planner: the one place that decides which engine answers a query, and what it will cost.
//!
//! Every command asks [`plan`] before it does any work. The planner looks at
//! the compiled [`Program`] and the [`Query`], picks the cheapest engine that
//! answers it exactly, estimates that engine's peak memory and work, and
//! refuses up front (with an error naming the limit, the estimate and what to
//! change) what cannot fit. `check`, `list` and `--explain` print the same
//! [`Plan`], so what is described is what runs.
//!
//! | engine | answers | when |
//! |---|---|---|
//! | [`Engine::Chase`] | one board, analysis | toggles only, one stencil on a full rectangle reaching one row back (any size) |
//! | [`Engine::DenseGf2`] | one board, analysis | toggles only, otherwise |
//! | [`Engine::AnswerTable`] | many boards | at most 26 cells, when a table of 2^cells bytes is cheaper than a search per board |
//! | [`Engine::PegDfs`] | one board | every move removes one piece (peg solitaire): all solutions have one length |
//! | [`Engine::Bfs`] | one board, the state graph | everything else of at most 64 cells; the state graph of any puzzle, up to `graph-states` states |
//! | [`Engine::LinearSpan`] | count, list | toggles only, no start, no distances: `cosets x 2^rank` states, listed through a basis |
//! | [`Engine::Layered`] | count, list, histogram | at most 64 cells, layer by layer |

use crate::error::{Error, Result};
use crate::limits::{Limits, TABLE_CELLS, human_bytes};
use crate::program::{Goal, Program};

/// What is asked of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Solve one board.
    Solve,
    /// Answer this many boards of judge input.
    Batch {
        /// How many boards.
        boards: usize,
    },
    /// Count, list or histogram states.
    States(StatesQuery),
    /// Rank, nullity and quiet patterns.
    Analyze,
    /// Draw the state graph from a start.
    Graph,
}

/// A `states` query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatesQuery {
    /// What is printed.
    pub output: Output,
    /// Whether states are restricted to those reachable from a start.
    pub from: bool,
    /// Whether every reachable state is wanted, goal or not.
    pub reachable: bool,
    /// Whether states are taken up to symmetry.
    pub symmetry: bool,
    /// The dataflow workers asked for, in all processes (1: none asked).
    pub workers: usize,
}

/// What `states` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// Every state, one per line.
    #[default]
    List,
    /// Their number.
    Count,
    /// Their number per distance.
    Histogram,
}

/// Which engine the user asked for (`--solver`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Preference {
    /// The planner's choice.
    #[default]
    Auto,
    /// A search (BFS or DFS); at most 64 cells.
    Search,
    /// GF(2) elimination; toggle-only puzzles with targets.
    Gf2,
}

/// An engine: one way of answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Light chasing a toggle stencil row by row, then a small GF(2) system.
    Chase,
    /// Gaussian elimination of the whole move matrix over GF(2).
    DenseGf2,
    /// One backward search over every state, then one lookup per board.
    AnswerTable,
    /// Depth-first search for peg solitaire, with parity proofs first.
    PegDfs,
    /// Breadth-first search from the board, with parity proofs first.
    Bfs,
    /// The solvable set of a linear puzzle from a basis of its span.
    LinearSpan,
    /// Layered breadth-first enumeration.
    Layered,
    /// Fewest moves, a chain of jumps by one piece counting once: levels by
    /// moves from both ends until they meet (for a histogram, one way to the
    /// end).
    MoveLevels,
    /// Peg positions counted layer by layer up to symmetry on a grid word,
    /// weighted by orbit size; winning lines by the complement duality.
    PegOrbits,
    /// The peg orbits' layers as a timely dataflow, hash-partitioned across
    /// worker threads and processes.
    Dataflow,
}

impl Engine {
    /// The engine's short name, as `check`, `list` and `--explain` print it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Chase => "gf2 chase",
            Engine::DenseGf2 => "gf2 dense",
            Engine::AnswerTable => "table",
            Engine::PegDfs => "dfs",
            Engine::Bfs => "bfs",
            Engine::LinearSpan => "span",
            Engine::Layered => "layered",
            Engine::PegOrbits => "peg orbits",
            Engine::MoveLevels => "move levels",
            Engine::Dataflow => "dataflow",
        }
    }

    /// What the engine does, in one sentence.
    pub fn about(self) -> &'static str {
        match self {
            Engine::Chase => {
                "light chasing: each row's presses are forced by the row before, so only a \
                 system in the first row's presses is eliminated"
            }
            Engine::DenseGf2 => "Gaussian elimination of the move matrix over GF(2)",
            Engine::AnswerTable => {
                "one backward search gives every state its answer; each board is a lookup"
            }
            Engine::PegDfs => {
                "depth-first search: every move removes one piece, so the first solution found \
                 is a shortest one; parity proofs are tried first"
            }
            Engine::Bfs => {
                "breadth-first search from the board: the first target reached is the nearest; \
                 parity proofs are tried first"
            }
            Engine::LinearSpan => {
                "algebra: the solvable states are cosets of the span of the moves, 2^rank each, \
                 listed through a basis"
            }
            Engine::Layered => {
                "layered breadth-first enumeration, successors generated and sorted in parallel"
            }
            Engine::MoveLevels => {
                "fewest moves, a chain of jumps by one piece counting once: breadth-first \
                 levels by moves forward from the start and backward from the targets, up to \
                 symmetry, bounded by Merson regions and deepened one bound at a time until \
                 they meet; a jump search (with parity proofs) first says whether the goal can \
                 be reached at all (a histogram: one way, to the end, unbounded)"
            }
            Engine::PegOrbits => {
                "layers of peg positions up to symmetry: jumps found bit-parallel on a grid word, \
                 positions counted by orbit size, winning lines by the complement duality"
            }
            Engine::Dataflow => {
                "the peg orbits' layers as a timely dataflow: each layer hash-partitioned across \
                 the workers, successors exchanged to their owners, counts broadcast"
            }
        }
    }
}

/// How a query will be answered: the engine and its estimated cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The engine that runs.
    pub engine: Engine,
    /// Estimated peak memory, in bytes.
    pub memory: u128,
    /// Estimated work, in 64-bit word operations (or states, for searches).
    pub work: u128,
    /// The budget the engine enforces as it runs, in bytes (`max-memory`).
    pub budget: u64,
}

impl Plan {
    /// The engine's name.
    pub fn name(&self) -> &'static str {
        self.engine.name()
    }

    /// The plan in words: engine, what it does, and its estimates.
    pub fn describe(&self) -> String {
        format!(
            "{}: {}; estimated peak memory {} of max-memory {}; estimated work {} word \
             operations",
            self.name(),
            self.engine.about(),
            human_bytes(self.memory),
            human_bytes(u128::from(self.budget)),
            approx(self.work),
        )
    }
}

/// A number to two significant figures: `3.2e9`, or exact below 10,000.
fn approx(n: u128) -> String {
    if n < 10_000 {
        return n.to_string();
    }
    let digits = n.ilog10();
    let lead = n as f64 / 10f64.powi(digits as i32);
    format!("{lead:.1}e{digits}")
}

/// Plans `query` on `program`: the engine that answers it and its cost.
/// Refuses, with [`Error::Limit`] or [`Error::Usage`], what no engine can
/// answer within `limits`.
pub fn plan(program: &Program, query: &Query, prefer: Preference, limits: &Limits) -> Result<Plan> {
    let plan = match query {
        Query::Solve => solve_plan(program, prefer, limits)?,
        Query::Batch { boards } => batch_plan(program, *boards, prefer, limits)?,
        Query::States(q) => states_plan(program, q, limits)?,
        Query::Analyze => linear_plan(program, limits)?,
        Query::Graph => graph_plan(program, limits)?,
    };
    let mut plan = plan;
    plan.memory += PROCESS_BYTES;
    limits.check(
        "max-memory",
        format!("the memory {} needs (estimated)", plan.name()),
        plan.memory,
        "raise --max-memory if the machine has room, or ask a smaller question",
    )?;
    Ok(plan)
}

/// The bytes of the running program itself, before any engine allocates.
pub const PROCESS_BYTES: u128 = 5 << 20;

/// The bytes of one answer as it is written: a few boards of text, one byte
/// a cell, and their growth.
fn answer_bytes(program: &Program) -> u128 {
    8 * program.cells() as u128
}

fn solve_plan(program: &Program, prefer: Preference, limits: &Limits) -> Result<Plan> {
    let targets = matches!(program.goal(), Goal::Targets(_));
    if program.puzzle().metric == crate::Metric::Moves {
        if !targets {
            return Err(Error::Usage(
                "the moves metric counts the moves to a target board; a fewest-pieces goal \
                 is counted in jumps (drop metric = \"moves\")"
                    .into(),
            ));
        }
        require_search_cells(program)?;
        return Ok(Plan {
            engine: Engine::MoveLevels,
            // The levels are not known before the run, which stops with the limit error
            // when what it holds would pass the budget.
            memory: 0,
            work: (1u128 << program.cells()) * program.moves().len() as u128,
            budget: limits.max_memory,
        });
    }
    match prefer {
        Preference::Gf2 if !program.is_linear() => Err(Error::Usage(
            "the gf2 solver needs every move to be an unconditional toggle, but this puzzle \
             has jumps or guarded toggles: use --solver auto or bfs"
                .into(),
        )),
        Preference::Gf2 if !targets => Err(Error::Usage(
            "the gf2 solver answers target goals; fewest pieces needs --solver auto or bfs".into(),
        )),
        Preference::Gf2 => linear_solve_plan(program, limits),
        Preference::Search => search_engine(program, limits),
        Preference::Auto if program.is_linear() && targets => linear_solve_plan(program, limits),
        Preference::Auto => search_engine(program, limits),
    }
}

fn linear_solve_plan(program: &Program, limits: &Limits) -> Result<Plan> {
    let mut plan = linear_plan(program, limits)?;
    plan.memory += answer_bytes(program);
    Ok(plan)
}

/// The elimination engine for a linear program: chasing where a stencil
/// allows it, whatever the size; dense elimination otherwise.
fn linear_plan(program: &Program, limits: &Limits) -> Result<Plan> {
    if !program.is_linear() {
        return Err(Error::Usage(
            "elimination over GF(2) needs every move to be an unconditional toggle; this \
             puzzle has jumps or guarded toggles"
                .into(),
        ));
    }
    if let Some(stencil) = program.stencil() {
        let (memory, work) = stencil.estimate();
        return Ok(Plan {
            engine: Engine::Chase,
            memory,
            work,
            budget: limits.max_memory,
        });
    }
    require_listed(program)?;
    let (n, m) = (program.cells(), program.moves().len());
    let (memory, work) = crate::solve::linear::check_dense(n, m, limits)?;
    let memory = memory + listed_bytes(program);
    Ok(Plan {
        engine: Engine::DenseGf2,
        memory,
        work,
        budget: limits.max_memory,
    })
}

/// The search for one board: DFS for peg solitaire, BFS otherwise.
fn search_engine(program: &Program, limits: &Limits) -> Result<Plan> {
    require_search_cells(program)?;
    let engine = if crate::solve::dfs::applies(program) {
        Engine::PegDfs
    } else {
        Engine::Bfs
    };
    let states = (1u128 << program.cells()).min(u128::from(limits.max_states));
    search_plan(program, engine, states, answer_bytes(program), limits)
}

/// A search visiting at most `states` states, with `extra` bytes besides
/// (its answer): what it must allocate must fit, and the search stops at
/// `max-states` or when the states it holds would fill the rest of the budget.
fn search_plan(
    program: &Program,
    engine: Engine,
    states: u128,
    extra: u128,
    limits: &Limits,
) -> Result<Plan> {
    require_search_cells(program)?;
    let fixed = crate::solve::search::fixed_bytes(program.cells()) + listed_bytes(program) + extra;
    let room = u128::from(limits.max_memory).saturating_sub(fixed + PROCESS_BYTES);
    let held = (states * crate::solve::search::BYTES_PER_STATE).min(room);
    Ok(Plan {
        engine,
        memory: fixed + held,
        work: states * program.moves().len() as u128,
        budget: limits.max_memory,
    })
}

/// The state graph: breadth-first over whole states (any number of cells),
/// at most `graph-states` of them.
fn graph_plan(program: &Program, limits: &Limits) -> Result<Plan> {
    require_listed(program)?;
    let states = u128::from(limits.graph_states);
    let per_state = program.cells().div_ceil(64) as u128 * 8 * 3 + 64;
    Ok(Plan {
        engine: Engine::Bfs,
        memory: states * per_state + listed_bytes(program),
        work: states * program.moves().len() as u128 * program.cells().div_ceil(64) as u128,
        budget: limits.max_memory,
    })
}

fn batch_plan(
    program: &Program,
    boards: usize,
    prefer: Preference,
    limits: &Limits,
) -> Result<Plan> {
    if program.puzzle().metric == crate::Metric::Moves {
        // Each case is a fewest-moves search of its own.
        let mut plan = solve_plan(program, prefer, limits)?;
        plan.work = plan.work.saturating_mul(boards.max(1) as u128);
        return Ok(plan);
    }
    let cells = program.cells();
    let table_fits = cells <= TABLE_CELLS
        && prefer != Preference::Gf2
        && table_bytes(cells) + listed_bytes(program) + PROCESS_BYTES
            <= u128::from(limits.max_memory);
    // A table costs 2^cells states once; a search per board costs up to 2^cells each.
    let table_pays = cells <= 20 || (boards as u128) << 12 >= 1u128 << cells;
    if table_fits && table_pays && (prefer == Preference::Search || !program.is_linear()) {
        return Ok(Plan {
            engine: Engine::AnswerTable,
            memory: table_bytes(cells) + listed_bytes(program),
            work: (1u128 << cells) * program.moves().len() as u128,
            budget: limits.max_memory,
        });
    }
    if table_fits && table_pays && cells <= 20 {
        // Small linear puzzles: a lookup beats even elimination per board.
        return Ok(Plan {
            engine: Engine::AnswerTable,
            memory: table_bytes(cells) + listed_bytes(program),
            work: (1u128 << cells) * program.moves().len() as u128,
            budget: limits.max_memory,
        });
    }
    let mut plan = solve_plan(program, prefer, limits)?;
    plan.work = plan.work.saturating_mul(boards.max(1) as u128);
    Ok(plan)
}

/// A histogram by moves: levels forward from a start (`--from S --reachable`), or
/// backward from the goal's targets (no `--from`), each to the end.
fn move_levels_plan(program: &Program, q: &StatesQuery, limits: &Limits) -> Result<Plan> {
    if q.from && !q.reachable {
        return Err(Error::Usage(
            "with --metric moves, --histogram counts levels forward from a start (add \
             --reachable) or backward from the goal (drop --from)"
                .into(),
        ));
    }
    if !q.from && !matches!(program.goal(), Goal::Targets(_)) {
        return Err(Error::Usage(
            "levels by moves back from the goal need target boards, not fewest pieces; \
             give --from BOARD --reachable"
                .into(),
        ));
    }
    require_search_cells(program)?;
    // The levels are not known before the run, which stops with the limit error when what
    // it holds would pass the budget.
    let cells = program.cells();
    Ok(Plan {
        engine: Engine::MoveLevels,
        memory: 5 << 20,
        work: (1u128 << cells.min(127)) * program.moves().len() as u128,
        budget: limits.max_memory,
    })
}

fn states_plan(program: &Program, q: &StatesQuery, limits: &Limits) -> Result<Plan> {
    if q.workers > 1 {
        return dataflow_plan(program, q, limits);
    }
    if program.puzzle().metric == crate::Metric::Moves && q.output == Output::Histogram {
        return move_levels_plan(program, q, limits);
    }
    if q.reachable && !q.from {
        return Err(Error::Usage(
            "--reachable needs a start: give --from BOARD or --from start".into(),
        ));
    }
    let targets = matches!(program.goal(), Goal::Targets(_));
    if program.is_linear() && targets && !q.from && !q.symmetry && q.output != Output::Histogram {
        let elimination = linear_plan(program, limits)?;
        return Ok(Plan {
            engine: Engine::LinearSpan,
            memory: elimination.memory,
            work: elimination.work,
            budget: limits.max_memory,
        });
    }
    require_search_cells(program)?;
    let cells = program.cells();
    if !targets && !q.from {
        // Every state has an answer: the table, then a scan of every state.
        require_table_cells(program)?;
        return Ok(Plan {
            engine: Engine::AnswerTable,
            memory: table_bytes(cells) + listed_bytes(program),
            work: (1u128 << cells) * program.moves().len() as u128,
            budget: limits.max_memory,
        });
    }
    if q.from && q.output != Output::List && crate::enumerate::pegs::applies(program) {
        // The layers are not known before the run, which stops with the limit error when
        // what it holds would pass the budget; up front, one round of buffered successors.
        let moves = program.moves().len() as u128;
        return Ok(Plan {
            engine: Engine::PegOrbits,
            memory: crate::enumerate::bitboard::round_bytes(moves),
            work: (1u128 << cells) * moves,
            budget: limits.max_memory,
        });
    }
    let layers = crate::enumerate::layers::fixed_bytes(program, q.symmetry);
    // States reachable from a start, then searched back within: one more bitmap.
    let within = if q.from && !q.reachable { layers } else { 0 };
    let fixed = layers + within;
    let mut states = 1u128 << cells;
    let mut memory = fixed;
    if let (true, Goal::Targets(t), false) = (program.is_linear(), program.goal(), q.from) {
        // A linear puzzle's solvable states are known in number: targets x 2^rank at most.
        let rank = crate::solve::Linear::new(program, limits)?.rank();
        states = states.min((t.len() as u128) << rank);
        memory = crate::enumerate::layers::estimate(program, states, q.symmetry) + within;
    }
    // Otherwise the states are not known before the run: the bitmaps must fit, and the
    // run stops with the same limit error when what it holds would pass the budget.
    limits.check(
        "max-memory",
        format!("the memory to enumerate up to {states} states layer by layer (estimated)"),
        memory,
        "raise --max-memory if the machine has room, or enumerate from a start",
    )?;
    Ok(Plan {
        engine: Engine::Layered,
        memory: memory.min(u128::from(limits.max_memory)),
        work: states * program.moves().len() as u128,
        budget: limits.max_memory,
    })
}

/// The dataflow engine, for what it serves: counts, histograms and listings
/// of the positions reachable from a start on a peg board whose jumps fit a
/// grid word.
fn dataflow_plan(program: &Program, q: &StatesQuery, limits: &Limits) -> Result<Plan> {
    if !cfg!(feature = "dataflow") {
        return Err(Error::Usage(
            "this build has no dataflow engine: build with the `dataflow` feature for --workers \
             and --processes"
                .into(),
        ));
    }
    if !(q.from && q.reachable) || program.puzzle().metric == crate::Metric::Moves {
        return Err(Error::Usage(
            "--workers and --processes count or list the positions reachable from a start: give \
             --from BOARD --reachable (jumps metric)"
                .into(),
        ));
    }
    if !crate::enumerate::pegs::applies(program) {
        return Err(Error::Usage(
            "--workers and --processes need a peg board: every move a jump, a goal of one piece \
             count, and at most 63 cells"
                .into(),
        ));
    }
    // The layers are not known before the run: it estimates them from a sample before it
    // starts, and each worker stops the run with the limit error when its layers pass its
    // share. Here, the successors in flight.
    let moves = program.moves().len() as u128;
    Ok(Plan {
        engine: Engine::Dataflow,
        memory: crate::enumerate::dataflow_round_bytes(q.workers, program.moves().len()),
        work: (1u128 << program.cells()) * moves,
        budget: limits.max_memory,
    })
}

/// The bytes an answer table takes while it is built: a byte a state for the
/// answers, and as much again for the states settled and the frontier.
fn table_bytes(cells: usize) -> u128 {
    3 << cells
}

/// The bytes the listed moves take (a few words per move and entry).
fn listed_bytes(program: &Program) -> u128 {
    if !program.is_listed() {
        return 0;
    }
    let moves = program.move_count() as u128;
    moves * 160
}

fn require_listed(program: &Program) -> Result<()> {
    match program.unlisted_reason() {
        Some(reason) => Err(Error::Usage(format!(
            "{reason} (light chasing needs no move lists, but does not apply to this puzzle)"
        ))),
        None => Ok(()),
    }
}

fn require_search_cells(program: &Program) -> Result<()> {
    crate::solve::search::require_cells(program.cells())?;
    require_listed(program)
}

fn require_table_cells(program: &Program) -> Result<()> {
    let cells = program.cells();
    crate::limits::require_cells(
        "table-cells",
        TABLE_CELLS,
        cells,
        format!(
            "every state of a fewest-pieces puzzle has an answer, and a table of them needs \
             2^{cells} bytes: give a start with --from"
        ),
    )
}
