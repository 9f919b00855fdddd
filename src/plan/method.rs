//! The engines by name: every [`Method`], and the engines each kind of query can plan.

/// An engine: one way of answering, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
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
    /// Boards of a linear puzzle drawn at random and kept by rejection, so
    /// that every board at the distance asked for is as likely.
    CosetDraw,
    /// Boards of a peg puzzle played backwards from a target, each solved.
    BackwardPlay,
    /// Light chasing modulo k, for a puzzle of k colours.
    ChaseZk,
    /// Elimination of the whole move matrix modulo k, for a puzzle of k colours.
    DenseZk,
}

impl Method {
    /// Every engine, in the order the docs list them.
    pub const ALL: [Method; 14] = [
        Method::Chase,
        Method::DenseGf2,
        Method::AnswerTable,
        Method::PegDfs,
        Method::Bfs,
        Method::LinearSpan,
        Method::Layered,
        Method::MoveLevels,
        Method::PegOrbits,
        Method::Dataflow,
        Method::CosetDraw,
        Method::BackwardPlay,
        Method::ChaseZk,
        Method::DenseZk,
    ];

    /// The engine's short name, as `check`, `list` and `--explain` print it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Chase => "gf2 chase",
            Method::DenseGf2 => "gf2 dense",
            Method::AnswerTable => "table",
            Method::PegDfs => "dfs",
            Method::Bfs => "bfs",
            Method::LinearSpan => "span",
            Method::Layered => "layered",
            Method::PegOrbits => "peg orbits",
            Method::MoveLevels => "move levels",
            Method::Dataflow => "dataflow",
            Method::CosetDraw => "coset draw",
            Method::BackwardPlay => "backward play",
            Method::ChaseZk => "zk chase",
            Method::DenseZk => "zk dense",
        }
    }

    /// The queries the engine answers, in words.
    pub fn answers(self) -> &'static str {
        match self {
            Method::Chase | Method::DenseGf2 => "solve, batch, analyze",
            Method::AnswerTable => "batch, states, generate",
            Method::PegDfs => "solve, batch",
            Method::Bfs => "solve, batch, graph",
            Method::LinearSpan => "states",
            Method::Layered => "states, generate",
            Method::MoveLevels => "solve, batch, states",
            Method::PegOrbits => "states",
            Method::Dataflow => "states",
            Method::CosetDraw | Method::BackwardPlay => "generate",
            Method::ChaseZk | Method::DenseZk => "solve, batch, analyze, states",
        }
    }

    /// What the engine does, in one sentence.
    pub fn about(self) -> &'static str {
        match self {
            Method::Chase => {
                "light chasing: each row's presses are forced by the row before, so only a \
                 system in the first row's presses is eliminated"
            }
            Method::DenseGf2 => "Gaussian elimination of the move matrix over GF(2)",
            Method::AnswerTable => {
                "one backward search gives every state its answer; each board is a lookup"
            }
            Method::PegDfs => {
                "depth-first search: every move removes one piece, so the first solution found \
                 is a shortest one; parity proofs are tried first"
            }
            Method::Bfs => {
                "breadth-first search from the board: the first target reached is the nearest; \
                 parity proofs are tried first"
            }
            Method::LinearSpan => {
                "algebra: the solvable states are cosets of the span of the moves, 2^rank each, \
                 listed through a basis"
            }
            Method::Layered => {
                "layered breadth-first enumeration, successors generated and sorted in parallel"
            }
            Method::MoveLevels => {
                "fewest moves, a chain of jumps by one piece counting once: breadth-first \
                 levels by moves forward from the start and backward from the targets, up to \
                 symmetry, bounded by the puzzle's bounds (Merson regions, peg types, pagoda \
                 functions) and deepened one bound at a time until they meet; a jump search \
                 (with parity proofs) first says whether the goal can be reached at all, and \
                 past max-states the levels say it themselves (a histogram: one way, to the \
                 end, unbounded)"
            }
            Method::PegOrbits => {
                "layers of peg positions up to symmetry: jumps found bit-parallel on a grid word, \
                 positions counted by orbit size, winning lines by the complement duality"
            }
            Method::Dataflow => {
                "the peg orbits' layers as a timely dataflow: each layer hash-partitioned across \
                 the workers, successors exchanged to their owners, counts broadcast"
            }
            Method::CosetDraw => {
                "boards drawn uniformly (a random press set, or one of as many presses as the \
                 distance) and kept when the walk of their solution coset gives that distance, \
                 with the odds that make every board at the distance as likely"
            }
            Method::BackwardPlay => {
                "boards played backwards from a target, one random move at a time (a choice \
                 that leads nowhere taken back), as many as the distance (by moves, as many \
                 jumps as solving shows are needed), each kept when solving it gives that \
                 distance; not uniform"
            }
            Method::ChaseZk => {
                "light chasing modulo k: each row's press counts are forced by the row before, \
                 carried as forms in the first row's, one residue a byte; the system left is \
                 eliminated, and the fewest presses found by walking the solution coset"
            }
            Method::DenseZk => {
                "elimination of the move matrix modulo k: over GF(p) one residue a byte for a \
                 prime k, one prime power at a time (Smith form, joined by the Chinese \
                 remainder theorem) otherwise; the fewest presses by walking the solution coset"
            }
        }
    }
}

/// The engines that solve one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Light chasing ([`Method::Chase`]).
    Chase,
    /// Dense elimination ([`Method::DenseGf2`]).
    DenseGf2,
    /// Peg depth-first search ([`Method::PegDfs`]).
    PegDfs,
    /// Breadth-first search ([`Method::Bfs`]).
    Bfs,
    /// Fewest moves by levels ([`Method::MoveLevels`]).
    MoveLevels,
}

/// The engines that eliminate a linear program: `analyze`, and the linear
/// solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eliminator {
    /// Light chasing ([`Method::Chase`]).
    Chase,
    /// Dense elimination ([`Method::DenseGf2`]).
    DenseGf2,
}

/// How a batch of boards is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batcher {
    /// One answer table, then a lookup per board ([`Method::AnswerTable`]).
    AnswerTable,
    /// Each board by the solver.
    EachBoard(Solver),
}

/// The engines that count, list or histogram states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// The linear span ([`Method::LinearSpan`]), through the elimination named.
    LinearSpan(Eliminator),
    /// Layered breadth-first enumeration ([`Method::Layered`]).
    Layered,
    /// Every state's answer from a table ([`Method::AnswerTable`]).
    AnswerTable,
    /// Peg orbits on a grid word ([`Method::PegOrbits`]).
    PegOrbits,
    /// Levels by moves ([`Method::MoveLevels`]).
    MoveLevels,
    /// The timely dataflow ([`Method::Dataflow`]).
    Dataflow,
}

/// How `generate` finds its boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// Every state counted by distance with the counter named, then boards
    /// drawn uniformly from the layer asked for (exact: a distance no board
    /// has is known).
    Layers(Counter),
    /// Candidates drawn over a linear puzzle and kept by rejection
    /// ([`Method::CosetDraw`]): uniform, each solved by the solver named.
    Coset(Solver),
    /// Boards played backwards from a target ([`Method::BackwardPlay`]),
    /// each solved by the solver named: not uniform.
    Backward(Solver),
}

impl From<Generator> for Method {
    fn from(g: Generator) -> Method {
        match g {
            Generator::Layers(c) => c.into(),
            Generator::Coset(_) => Method::CosetDraw,
            Generator::Backward(_) => Method::BackwardPlay,
        }
    }
}

/// The engines that answer a puzzle of k colours: solve, batch, analyze, states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourSolver {
    /// Light chasing modulo k ([`Method::ChaseZk`]).
    Chase,
    /// Dense elimination modulo k ([`Method::DenseZk`]).
    Dense,
}

impl From<ColourSolver> for Method {
    fn from(s: ColourSolver) -> Method {
        match s {
            ColourSolver::Chase => Method::ChaseZk,
            ColourSolver::Dense => Method::DenseZk,
        }
    }
}

/// The state graph: breadth-first over whole states ([`Method::Bfs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphSearch;

impl From<Solver> for Method {
    fn from(s: Solver) -> Method {
        match s {
            Solver::Chase => Method::Chase,
            Solver::DenseGf2 => Method::DenseGf2,
            Solver::PegDfs => Method::PegDfs,
            Solver::Bfs => Method::Bfs,
            Solver::MoveLevels => Method::MoveLevels,
        }
    }
}

impl From<Eliminator> for Method {
    fn from(e: Eliminator) -> Method {
        match e {
            Eliminator::Chase => Method::Chase,
            Eliminator::DenseGf2 => Method::DenseGf2,
        }
    }
}

impl Solver {
    /// The elimination a linear solver runs; `None` for a search.
    pub fn eliminator(self) -> Option<Eliminator> {
        match self {
            Solver::Chase => Some(Eliminator::Chase),
            Solver::DenseGf2 => Some(Eliminator::DenseGf2),
            Solver::PegDfs | Solver::Bfs | Solver::MoveLevels => None,
        }
    }
}

impl From<Eliminator> for Solver {
    fn from(e: Eliminator) -> Solver {
        match e {
            Eliminator::Chase => Solver::Chase,
            Eliminator::DenseGf2 => Solver::DenseGf2,
        }
    }
}

impl From<Batcher> for Method {
    fn from(b: Batcher) -> Method {
        match b {
            Batcher::AnswerTable => Method::AnswerTable,
            Batcher::EachBoard(s) => s.into(),
        }
    }
}

impl From<Counter> for Method {
    fn from(c: Counter) -> Method {
        match c {
            Counter::LinearSpan(_) => Method::LinearSpan,
            Counter::Layered => Method::Layered,
            Counter::AnswerTable => Method::AnswerTable,
            Counter::PegOrbits => Method::PegOrbits,
            Counter::MoveLevels => Method::MoveLevels,
            Counter::Dataflow => Method::Dataflow,
        }
    }
}

impl From<GraphSearch> for Method {
    fn from(_: GraphSearch) -> Method {
        Method::Bfs
    }
}
