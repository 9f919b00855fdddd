//! Breadth-first search from one board over states of at most 64 cells.

use crate::error::{Error, Result};
use crate::program::{Goal, Program};
use crate::solve::Limits;

/// The most cells a state of the search solvers may have: one 64-bit word.
pub const MAX_SEARCH_CELLS: usize = 64;

/// A program's moves as single-word masks, for the search solvers.
#[derive(Clone, Debug)]
pub(crate) struct Masks {
    pub need_on: Vec<u64>,
    pub need_off: Vec<u64>,
    pub flip: Vec<u64>,
}

impl Masks {
    /// The masks of `program`, or the limit error when it has more than 64 cells.
    pub fn new(program: &Program) -> Result<Masks> {
        if program.cells() > MAX_SEARCH_CELLS {
            return Err(Error::Limit {
                what: "the number of cells".into(),
                name: "search cells",
                value: program.cells() as u128,
                limit: MAX_SEARCH_CELLS as u128,
                hint: "the search solvers keep a state in one 64-bit word; a larger puzzle \
                       needs a linear (toggle-only) puzzle and an elimination solver"
                    .into(),
            });
        }
        let word = |cells: &[crate::CellId]| cells.iter().fold(0u64, |w, c| w | 1 << c.0);
        let moves = program.moves();
        Ok(Masks {
            need_on: moves.iter().map(|m| word(&m.need_on)).collect(),
            need_off: moves.iter().map(|m| word(&m.need_off)).collect(),
            flip: moves.iter().map(|m| word(&m.flip)).collect(),
        })
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.flip.len()
    }

    /// Whether move `m` is legal in state `s`.
    #[inline]
    pub fn legal(&self, s: u64, m: usize) -> bool {
        s & self.need_on[m] == self.need_on[m] && s & self.need_off[m] == 0
    }
}

/// What one search found: the moves from the start, and the state they reach.
#[derive(Debug)]
pub struct Found {
    pub moves: Vec<usize>,
    pub end: u64,
}

/// Searches forward from `start`. For targets, stops at the first target
/// reached (the fewest moves) and returns `None` when none is reachable. For
/// fewest pieces, visits every reachable state and returns the path to one
/// with the fewest pieces, and among those the fewest moves.
pub(crate) fn bfs(program: &Program, start: u64, limits: &Limits) -> Result<Option<Found>> {
    let masks = Masks::new(program)?;
    let targets: Vec<u64> = match program.goal() {
        Goal::Targets(t) => t.iter().map(|b| b.to_u64().unwrap_or(0)).collect(),
        Goal::FewestPieces => Vec::new(),
    };
    let objective = matches!(program.goal(), Goal::FewestPieces);
    let mut seen = Seen::new(program.cells());
    seen.insert(start);
    let mut visited = 1usize;
    // Each layer lists its states with the move that first reached them.
    let mut layers: Vec<Vec<(u64, u32)>> = vec![vec![(start, START)]];
    let mut best = (start, 0);
    loop {
        let depth = layers.len() - 1;
        let mut next = Vec::new();
        for &(s, _) in &layers[depth] {
            if !objective && targets.contains(&s) {
                return Ok(Some(path(&layers, &masks, depth, s)));
            }
            if objective && s.count_ones() < best.0.count_ones() {
                best = (s, depth);
            }
            for m in 0..masks.len() {
                if masks.legal(s, m) {
                    let t = s ^ masks.flip[m];
                    if seen.insert(t) {
                        next.push((t, m as u32));
                    }
                }
            }
        }
        visited += next.len();
        if visited > limits.max_states {
            return Err(Error::Limit {
                what: "the number of states visited".into(),
                name: "max-states",
                value: visited as u128,
                limit: limits.max_states as u128,
                hint: "the state space reachable from this board is too large to search".into(),
            });
        }
        if next.is_empty() {
            break;
        }
        layers.push(next);
    }
    Ok(objective.then(|| path(&layers, &masks, best.1, best.0)))
}

/// The move recorded for the start state.
const START: u32 = u32::MAX;

/// The states seen so far: a bitmap for puzzles of up to 30 cells (at most
/// 128 MiB), a hash set past that.
enum Seen {
    Bitmap(Vec<u64>),
    Hashed(rustc_hash::FxHashSet<u64>),
}

impl Seen {
    fn new(cells: usize) -> Seen {
        if cells <= 30 {
            Seen::Bitmap(vec![0; (1usize << cells).div_ceil(64)])
        } else {
            Seen::Hashed(Default::default())
        }
    }

    /// Marks `state` seen; false if it already was.
    #[inline]
    fn insert(&mut self, state: u64) -> bool {
        match self {
            Seen::Bitmap(bits) => {
                let (w, b) = ((state / 64) as usize, state % 64);
                let fresh = bits[w] >> b & 1 == 0;
                bits[w] |= 1 << b;
                fresh
            }
            Seen::Hashed(set) => set.insert(state),
        }
    }
}

/// The moves to `end`, found in layer `depth`: each state's move undoes to
/// its parent (moves are XOR masks), which is looked up one layer up.
fn path(layers: &[Vec<(u64, u32)>], masks: &Masks, depth: usize, end: u64) -> Found {
    let mut moves = Vec::with_capacity(depth);
    let mut s = end;
    for layer in layers[1..=depth].iter().rev() {
        let &(_, m) = layer
            .iter()
            .find(|&&(t, _)| t == s)
            .expect("every state of a layer was reached from the layer before");
        moves.push(m as usize);
        s ^= masks.flip[m as usize];
    }
    moves.reverse();
    Found { moves, end }
}
