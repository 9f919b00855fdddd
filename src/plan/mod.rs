//! The planner: the one place that decides which engine answers a query, and what it will cost.
//!
//! Every command asks the planner before it does any work. The planner looks
//! at the compiled [`Program`] and the query, picks the cheapest engine that
//! answers it exactly, asks that engine's cost function for its peak memory
//! and work (no engine runs at plan time), and refuses up front (with an error
//! naming the limit, the estimate and what to change) what cannot fit.
//! `check`, `list` and `--explain` print the same [`Plan`], so what is
//! described is what runs.
//!
//! Each kind of query has its own plan type, whose engine names only the
//! engines that answer it: [`solve_plan`] gives a [`Plan<Solver>`],
//! [`batch_plan`] a [`Plan<Batcher>`], [`states_plan`] a [`Plan<Counter>`],
//! [`analyze_plan`] a [`Plan<Eliminator>`], [`graph_plan`] a
//! [`Plan<GraphSearch>`] and [`generate_plan`] a [`Plan<Generator>`]. The runner takes only these, so a plan that cannot
//! run cannot be written. [`plan`] gives any of them as a [`Plan<Method>`],
//! for describing. [`Method::ALL`] lists every engine.

use crate::engines::{
    bfs, chase, dfs, graph, layers, linear, move_levels, pegs, table, zk_chase, zk_dense,
};
use crate::error::{Error, Result};
use crate::limits::{Limits, PROCESS_BYTES, TABLE_CELLS, human_bytes};
use crate::program::colours::ColourProgram;
use crate::program::{Goal, Program};
use crate::puzzle::Metric;
use crate::query::{Output, Preference, Query, StatesQuery};

mod method;

pub use method::{
    Batcher, ColourSolver, Counter, Eliminator, Generator, GraphSearch, Method, Solver,
};

/// How a query will be answered: the engine and its estimated cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<E = Method> {
    /// The engine that runs.
    pub engine: E,
    /// Estimated peak memory, in bytes, the process's own included.
    pub memory: u128,
    /// Estimated work, in 64-bit word operations (or states, for searches).
    pub work: u128,
    /// The budget the engine enforces as it runs, in bytes (`max-memory`).
    pub budget: u64,
}

impl<E: Copy + Into<Method>> Plan<E> {
    /// The engine, by name.
    pub fn method(&self) -> Method {
        self.engine.into()
    }

    /// The engine's name.
    pub fn name(&self) -> &'static str {
        self.method().name()
    }

    /// The same plan, its engine named by [`Method`]: for describing.
    pub fn erase(&self) -> Plan<Method> {
        Plan {
            engine: self.method(),
            memory: self.memory,
            work: self.work,
            budget: self.budget,
        }
    }

    /// The plan in words: engine, what it does, and its estimates.
    pub fn describe(&self) -> String {
        format!(
            "{}: {}; estimated peak memory {} of max-memory {}; estimated work {} word \
             operations",
            self.name(),
            self.method().about(),
            human_bytes(self.memory),
            human_bytes(u128::from(self.budget)),
            approx(self.work),
        )
    }

    fn with<F>(self, engine: F) -> Plan<F> {
        Plan {
            engine,
            memory: self.memory,
            work: self.work,
            budget: self.budget,
        }
    }
}

impl Plan<Batcher> {
    /// The solver's plan, when each board is solved on its own.
    pub fn each_board(&self) -> Option<Plan<Solver>> {
        match self.engine {
            Batcher::AnswerTable => None,
            Batcher::EachBoard(solver) => Some(self.clone().with(solver)),
        }
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

/// Plans any `query` on `program`, for describing it (`--explain`, `check`).
/// Refuses, with [`Error::Limit`] or [`Error::Usage`], what no engine can
/// answer within `limits`.
pub fn plan(program: &Program, query: &Query, prefer: Preference, limits: &Limits) -> Result<Plan> {
    Ok(match query {
        Query::Solve => solve_plan(program, prefer, limits)?.erase(),
        Query::Batch { boards } => batch_plan(program, *boards, prefer, limits)?.erase(),
        Query::States(q) => states_plan(program, q, limits)?.erase(),
        Query::Analyze => analyze_plan(program, limits)?.erase(),
        Query::Graph => graph_plan(program, limits)?.erase(),
        Query::Generate { distance, boards } => {
            generate_plan(program, *distance, *boards, limits)?.erase()
        }
    })
}

/// A plan before the process's own bytes are added and `max-memory` is checked.
fn draft<E>(engine: E, memory: u128, work: u128, limits: &Limits) -> Plan<E> {
    Plan {
        engine,
        memory,
        work,
        budget: limits.max_memory,
    }
}

/// Adds the process's own bytes and refuses a plan past `max-memory`.
fn finish<E: Copy + Into<Method>>(mut plan: Plan<E>, limits: &Limits) -> Result<Plan<E>> {
    plan.memory += PROCESS_BYTES;
    limits.check(
        "max-memory",
        format!("the memory {} needs (estimated)", plan.name()),
        plan.memory,
        "raise --max-memory if the machine has room, or ask a smaller question",
    )?;
    Ok(plan)
}

/// The bytes of one answer as it is written: a few boards of text, one byte
/// a cell, and their growth.
fn answer_bytes(program: &Program) -> u128 {
    8 * program.cells() as u128
}

/// Plans solving one board.
pub fn solve_plan(program: &Program, prefer: Preference, limits: &Limits) -> Result<Plan<Solver>> {
    finish(solver(program, prefer, limits)?, limits)
}

fn solver(program: &Program, prefer: Preference, limits: &Limits) -> Result<Plan<Solver>> {
    let targets = matches!(program.goal(), Goal::Targets(_));
    if program.puzzle().metric == Metric::Moves {
        if !targets {
            return Err(Error::Usage(
                "the moves metric counts the moves to a target board; a fewest-pieces goal \
                 is counted in jumps (drop metric = \"moves\")"
                    .into(),
            ));
        }
        require_wide_search_cells(program)?;
        let (memory, work) = move_levels::cost(program);
        return Ok(draft(Solver::MoveLevels, memory, work, limits));
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
        Preference::Gf2 => linear_solver(program, limits),
        Preference::Search => search_solver(program, limits),
        Preference::Auto if program.is_linear() && targets => linear_solver(program, limits),
        Preference::Auto => search_solver(program, limits),
    }
}

fn linear_solver(program: &Program, limits: &Limits) -> Result<Plan<Solver>> {
    let mut plan = eliminator(program, limits)?;
    plan.memory += answer_bytes(program);
    let engine = plan.engine.into();
    Ok(plan.with(engine))
}

/// Plans `analyze`: the elimination of a linear program.
pub fn analyze_plan(program: &Program, limits: &Limits) -> Result<Plan<Eliminator>> {
    finish(eliminator(program, limits)?, limits)
}

/// The elimination engine for a linear program: chasing where a stencil
/// allows it, whatever the size; dense elimination otherwise.
fn eliminator(program: &Program, limits: &Limits) -> Result<Plan<Eliminator>> {
    if !program.is_linear() {
        return Err(Error::Usage(
            "elimination over GF(2) needs every move to be an unconditional toggle; this \
             puzzle has jumps or guarded toggles"
                .into(),
        ));
    }
    if let Some(stencil) = program.stencil() {
        let (memory, work) = chase::cost(stencil);
        return Ok(draft(Eliminator::Chase, memory, work, limits));
    }
    require_listed(program)?;
    let (n, m) = (program.cells(), program.moves().len());
    let (memory, work) = linear::dense_cost(n, m, limits)?;
    let memory = memory + listed_bytes(program);
    Ok(draft(Eliminator::DenseGf2, memory, work, limits))
}

/// The search for one board: DFS for peg solitaire, BFS otherwise.
fn search_solver(program: &Program, limits: &Limits) -> Result<Plan<Solver>> {
    // The jump search takes boards of up to 128 cells; breadth-first search, 64.
    let engine = if dfs::removes_one_piece(program) {
        require_wide_search_cells(program)?;
        Solver::PegDfs
    } else {
        require_search_cells(program)?;
        Solver::Bfs
    };
    let states = 1u128
        .checked_shl(program.cells() as u32)
        .unwrap_or(u128::MAX)
        .min(u128::from(limits.max_states));
    let fixed = listed_bytes(program) + answer_bytes(program);
    let (memory, work) = bfs::cost(program, states, fixed, limits);
    Ok(draft(engine, memory, work, limits))
}

/// Plans the state graph: breadth-first over whole states (any number of
/// cells), at most `graph-states` of them.
pub fn graph_plan(program: &Program, limits: &Limits) -> Result<Plan<GraphSearch>> {
    require_listed(program)?;
    let (memory, work) = graph::cost(program, limits);
    let plan = draft(GraphSearch, memory + listed_bytes(program), work, limits);
    finish(plan, limits)
}

/// Plans answering `boards` boards of judge input.
pub fn batch_plan(
    program: &Program,
    boards: usize,
    prefer: Preference,
    limits: &Limits,
) -> Result<Plan<Batcher>> {
    let each = |limits: &Limits| -> Result<Plan<Batcher>> {
        let mut plan = solver(program, prefer, limits)?;
        plan.work = plan.work.saturating_mul(boards.max(1) as u128);
        let engine = Batcher::EachBoard(plan.engine);
        Ok(plan.with(engine))
    };
    if program.puzzle().metric == Metric::Moves {
        // Each case is a fewest-moves search of its own.
        return finish(each(limits)?, limits);
    }
    let cells = program.cells();
    let table_fits = cells <= TABLE_CELLS
        && prefer != Preference::Gf2
        && table::bytes(cells) + listed_bytes(program) + PROCESS_BYTES
            <= u128::from(limits.max_memory);
    // A table costs 2^cells states once; a search per board costs up to 2^cells each.
    let table_pays = cells <= 20
        || (boards as u128) << 12 >= 1u128.checked_shl(cells as u32).unwrap_or(u128::MAX);
    // Small linear puzzles too: a lookup beats even elimination per board.
    let table_wins = prefer == Preference::Search || !program.is_linear() || cells <= 20;
    if table_fits && table_pays && table_wins {
        let (memory, work) = table::cost(program);
        let plan = draft(
            Batcher::AnswerTable,
            memory + listed_bytes(program),
            work,
            limits,
        );
        return finish(plan, limits);
    }
    finish(each(limits)?, limits)
}

/// Plans counting, listing or a histogram of states.
pub fn states_plan(program: &Program, q: &StatesQuery, limits: &Limits) -> Result<Plan<Counter>> {
    finish(counter(program, q, limits)?, limits)
}

/// A histogram by moves: levels forward from a start (`--from S --reachable`), or
/// backward from the goal's targets (no `--from`), each to the end.
fn move_levels_counter(
    program: &Program,
    q: &StatesQuery,
    limits: &Limits,
) -> Result<Plan<Counter>> {
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
    require_wide_search_cells(program)?;
    let (memory, work) = move_levels::cost(program);
    Ok(draft(Counter::MoveLevels, memory, work, limits))
}

fn counter(program: &Program, q: &StatesQuery, limits: &Limits) -> Result<Plan<Counter>> {
    if q.workers > 1 {
        return dataflow_counter(program, q, limits);
    }
    if program.puzzle().metric == Metric::Moves && q.output == Output::Histogram {
        return move_levels_counter(program, q, limits);
    }
    if q.reachable && !q.from {
        return Err(Error::Usage(
            "--reachable needs a start: give --from BOARD or --from start".into(),
        ));
    }
    let targets = matches!(program.goal(), Goal::Targets(_));
    if program.is_linear() && targets && !q.from && !q.symmetry && q.output != Output::Histogram {
        let elimination = eliminator(program, limits)?;
        let engine = Counter::LinearSpan(elimination.engine);
        return Ok(elimination.with(engine));
    }
    require_search_cells(program)?;
    let cells = program.cells();
    if !targets && !q.from {
        // Every state has an answer: the table, then a scan of every state.
        require_table_cells(program)?;
        let (memory, work) = table::cost(program);
        return Ok(draft(
            Counter::AnswerTable,
            memory + listed_bytes(program),
            work,
            limits,
        ));
    }
    // For a fewest-pieces goal a histogram is by answer, which the peg engine does not give.
    let any_goal = q.reachable && q.output == Output::Count;
    if q.from && q.output != Output::List && pegs::applies(program, any_goal) {
        let (memory, work) = pegs::cost(program);
        return Ok(draft(Counter::PegOrbits, memory, work, limits));
    }
    let layers = layers::fixed_bytes(program, q.symmetry);
    // States reachable from a start, then searched back within: one more bitmap.
    let within = if q.from && !q.reachable { layers } else { 0 };
    let mut states = 1u128 << cells;
    let mut memory = layers + within;
    if let (true, Goal::Targets(t), false) = (program.is_linear(), program.goal(), q.from) {
        // A linear puzzle's solvable states are at most targets x 2^rank, and
        // the rank is at most the number of moves.
        let rank = cells.min(program.move_count()).min(127);
        states = states.min((t.len() as u128) << rank);
        memory = layers::estimate(program, states, q.symmetry) + within;
    }
    // Otherwise the states are not known before the run: the bitmaps must fit, and the
    // run stops with the same limit error when what it holds would pass the budget.
    limits.check(
        "max-memory",
        format!("the memory to enumerate up to {states} states layer by layer (estimated)"),
        memory,
        "raise --max-memory if the machine has room, or enumerate from a start",
    )?;
    let memory = memory.min(u128::from(limits.max_memory));
    let work = states * program.moves().len() as u128;
    Ok(draft(Counter::Layered, memory, work, limits))
}

/// Below this much work (the planner's estimate), a linear puzzle's boards
/// are drawn from its counted layers rather than by rejection: counting is
/// then cheaper than the draws, and a distance no board has is known.
const SMALL_LAYERS: u128 = 1 << 24;

/// Plans `generate`: `boards` boards at `distance` from the goal (`None`:
/// the greatest distance any board has). Exact where it can be: from the
/// layers when counting every state fits the limit `generate-work`; for a
/// linear puzzle otherwise by rejection over its solvable boards. A peg
/// puzzle past that is played backwards from its targets (not uniform).
/// Anything else past `generate-work` is refused.
pub fn generate_plan(
    program: &Program,
    distance: Option<u32>,
    boards: usize,
    limits: &Limits,
) -> Result<Plan<Generator>> {
    let histogram = StatesQuery {
        output: Output::Histogram,
        ..Default::default()
    };
    // The boards are held beside the engine: the engine is planned within what they leave.
    let held = boards as u128 * (program.cells().div_ceil(8) as u128 + 48);
    limits.check(
        "max-memory",
        format!("the memory to hold {boards} boards beside the program (estimated)"),
        held + PROCESS_BYTES,
        "ask for fewer boards at a time",
    )?;
    let inner = Limits {
        max_memory: limits.max_memory - held as u64,
        ..limits.clone()
    };
    // Levels by moves count boards but list none, so by moves there are no layers to draw from.
    let layers = match program.puzzle().metric {
        Metric::Moves => Err(Error::Usage(
            "levels by moves count the boards at each distance but do not list them".into(),
        )),
        Metric::Jumps => counter(program, &histogram, &inner),
    };
    let budget = u128::from(limits.generate_work);
    let targets = matches!(program.goal(), Goal::Targets(_));
    let linear = program.is_linear() && targets;
    let small = if linear {
        SMALL_LAYERS.min(budget)
    } else {
        budget
    };
    let plan = match (&layers, distance) {
        (Ok(p), _) if p.work <= small => {
            let mut plan = p.clone().with(Generator::Layers(p.engine));
            plan.memory += held;
            plan
        }
        (_, Some(_)) if linear || (targets && dfs::applies(program)) => {
            let mut plan = solver(program, Preference::Auto, &inner)?;
            let engine = match linear {
                true => Generator::Coset(plan.engine),
                false => Generator::Backward(plan.engine),
            };
            plan.memory += held;
            plan.work = budget;
            plan.with(engine)
        }
        (Err(e), _) => {
            return Err(Error::Usage(format!(
                "{}: counting its states, which exact draws need, is refused: {e}",
                cannot_generate(distance)
            )));
        }
        (Ok(p), _) => {
            return Err(limits.exceeded(
                "generate-work",
                format!(
                    "{}: the work of counting every state, which exact draws need (estimated \
                     word operations)",
                    cannot_generate(distance)
                ),
                p.work,
                "raise it with --set limits.generate-work=N if the wait is worth it",
            ));
        }
    };
    finish(plan, limits)
}

/// Why `generate` needs the layers: the first half of its refusal.
fn cannot_generate(distance: Option<u32>) -> &'static str {
    match distance {
        None => "the greatest distance is known only from every board's distance",
        Some(_) => {
            "this puzzle is neither linear nor a peg puzzle with targets, so no board can be \
             drawn by algebra or by backward play"
        }
    }
}

/// The most dataflow worker threads a process runs for each core of its
/// machine: more wait for each other and cannot pay off.
pub const THREADS_PER_CORE: usize = 4;

/// The dataflow engine, for what it serves: counts, histograms and listings
/// of the positions reachable from a start on a peg board whose jumps fit a
/// grid word.
fn dataflow_counter(program: &Program, q: &StatesQuery, limits: &Limits) -> Result<Plan<Counter>> {
    if !cfg!(feature = "dataflow") {
        return Err(Error::Usage(
            "this build has no dataflow engine: build with the `dataflow` feature for --workers \
             and --processes"
                .into(),
        ));
    }
    if !(q.from && q.reachable) || program.puzzle().metric == Metric::Moves {
        return Err(Error::Usage(
            "--workers and --processes count or list the positions reachable from a start: give \
             --from BOARD --reachable (jumps metric)"
                .into(),
        ));
    }
    // For a fewest-pieces goal a histogram or a listing is by answer, which they do not give.
    if !pegs::applies(program, q.output == Output::Count) {
        return Err(Error::Usage(
            "--workers and --processes need a peg board: every move a jump, at most 63 cells, \
             and for a histogram or a listing a goal of one piece count"
                .into(),
        ));
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let most = cores * THREADS_PER_CORE;
    if q.threads > most {
        return Err(Error::Usage(format!(
            "--workers {} runs {} threads in this process, but this machine runs {cores} at \
             once: past {most} ({THREADS_PER_CORE} a core) more workers cannot make the run \
             faster, while every one adds to the progress messages all workers exchange each \
             round, so the run only grows slower; give \
             --workers {most} or fewer, or spread the workers over processes on more machines",
            q.threads, q.threads
        )));
    }
    let (memory, work) = pegs::dataflow_cost(program, q.workers);
    Ok(draft(Counter::Dataflow, memory, work, limits))
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
    crate::program::masks::require_cells(program.cells())?;
    require_listed(program)
}

/// The bound of the engines that take 128-bit states: fewest moves and the jump search.
fn require_wide_search_cells(program: &Program) -> Result<()> {
    crate::program::masks::require_wide_cells(program.cells())?;
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

/// Plans a puzzle of k colours (or any puzzle of unguarded toggles read
/// modulo its colours): solving, batches, `analyze` and `states` all run
/// one elimination. Light chasing where the stencil allows it modulo k (a
/// unit amount on the cell below, and the same for the transposed matrix,
/// which gives the certificates) and it is cheaper; dense elimination of
/// the listed moves otherwise. Refused, with the estimate, past `zk-work`
/// or `max-memory`.
pub fn colour_plan(program: &ColourProgram, limits: &Limits) -> Result<Plan<ColourSolver>> {
    let k = program.modulus();
    let dense = program.is_listed().then(|| {
        let (rows, cols) = (program.cells(), program.move_count());
        let entries = program.entries();
        (
            zk_dense::Dense::memory(k, rows, cols) + entries * 16,
            zk_dense::Dense::work(k, rows, cols),
        )
    });
    let chase = program
        .stencil()
        .and_then(|s| zk_chase::ChaseSolver::plan(s, k))
        .filter(|&(_, dual)| dual)
        .map(|(c, _)| (c.memory(), c.work()));
    let plan = match (chase, dense) {
        (Some((memory, work)), Some((_, dense_work))) if work <= dense_work => {
            draft(ColourSolver::Chase, memory, work, limits)
        }
        (Some((memory, work)), None) => draft(ColourSolver::Chase, memory, work, limits),
        (_, Some((memory, work))) => draft(ColourSolver::Dense, memory, work, limits),
        (None, None) => {
            return Err(Error::Usage(format!(
                "{}; and light chasing modulo {k} does not apply: it needs one toggle rule on a \
                 full rectangle that does not wrap, whose press reaches the cell above it by an \
                 amount prime to {k}",
                program
                    .moves_refusal(limits)
                    .unwrap_or_else(|| "the moves are not listed".into())
            )));
        }
    };
    limits.check(
        "zk-work",
        format!(
            "the residue operations {} needs (estimated)",
            Method::from(plan.engine).name()
        ),
        plan.work,
        "use a smaller board, or raise the limit with --set limits.zk-work=N",
    )?;
    let answer = 16 * program.cells() as u128;
    let plan = Plan {
        memory: plan.memory + answer,
        ..plan
    };
    finish(plan, limits)
}
