//! Breadth-first search from one board over states of at most 64 cells.

use rustc_hash::FxHashMap;

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
pub(crate) struct Found {
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
    // parent[state] = (previous state, move index); the start is its own parent.
    let mut parent: FxHashMap<u64, (u64, u32)> = FxHashMap::default();
    parent.insert(start, (start, u32::MAX));
    let mut best = start;
    let mut frontier = vec![start];
    let mut next = Vec::new();
    while !frontier.is_empty() {
        for &s in &frontier {
            if !objective && targets.contains(&s) {
                return Ok(Some(path(&parent, start, s)));
            }
            if objective && s.count_ones() < best.count_ones() {
                best = s;
            }
            for m in 0..masks.len() {
                if !masks.legal(s, m) {
                    continue;
                }
                let t = s ^ masks.flip[m];
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(t) {
                    e.insert((s, m as u32));
                    next.push(t);
                }
            }
            if parent.len() > limits.max_states {
                return Err(Error::Limit {
                    what: "the number of states visited".into(),
                    name: "max-states",
                    value: parent.len() as u128,
                    limit: limits.max_states as u128,
                    hint: "the state space reachable from this board is too large to search".into(),
                });
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    Ok(objective.then(|| path(&parent, start, best)))
}

fn path(parent: &FxHashMap<u64, (u64, u32)>, start: u64, end: u64) -> Found {
    let mut moves = Vec::new();
    let mut s = end;
    while s != start {
        let (prev, m) = parent[&s];
        moves.push(m as usize);
        s = prev;
    }
    moves.reverse();
    Found { moves, end }
}
