//! Breadth-first search from one board over states of at most 64 cells.

use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::program::masks::Masks;
use crate::program::{Goal, Program};
use crate::stateset::StateSet;
use crate::word::Word;

/// The bytes one visited state costs: its entry in a layer (state and move)
/// and, past 30 cells, in the hash set of seen states.
pub const BYTES_PER_STATE: u128 = 32;

/// The bytes a search holds whatever it visits: the seen-bitmap, up to 30 cells.
pub fn fixed_bytes(cells: usize) -> u128 {
    if cells <= BITMAP_CELLS {
        (1u128 << cells).div_ceil(8)
    } else {
        0
    }
}

/// The most cells for which the seen set is a bitmap: 2^30 bits, 128 MiB.
const BITMAP_CELLS: usize = 30;

/// The most states a search may hold: `max-states`, and as many as fit in
/// `max-memory` beside its fixed part.
pub fn state_cap(cells: usize, limits: &Limits) -> u64 {
    let room = u128::from(limits.max_memory)
        .saturating_sub(fixed_bytes(cells) + crate::limits::PROCESS_BYTES);
    let by_memory = (room / BYTES_PER_STATE).min(u128::from(u64::MAX)) as u64;
    limits.max_states.min(by_memory)
}

/// The error for a search that reached its state cap.
pub fn too_many_states(cells: usize, visited: u64, limits: &Limits) -> Error {
    let by_memory = state_cap(cells, limits) < limits.max_states;
    let (name, hint) = if by_memory {
        (
            "max-memory",
            "the states this search must hold do not fit: raise --max-memory if the machine \
             has room",
        )
    } else {
        (
            "max-states",
            "the state space reachable from this board is too large to search: raise it with \
             --set limits.max-states=N",
        )
    };
    let (what, value) = if by_memory {
        // The program itself, the tables, and the states with the next one.
        (
            "the memory the states visited so far and the next one would hold".to_string(),
            (u128::from(visited) + 1) * BYTES_PER_STATE
                + fixed_bytes(cells)
                + crate::limits::PROCESS_BYTES,
        )
    } else {
        (
            "the number of states visited".to_string(),
            u128::from(visited),
        )
    };
    limits.exceeded(name, what, value, hint)
}

/// Refuses the growth of the seen set's table, or of the layer being built
/// (`layer`), when the search's tables would then pass `max-memory`: what
/// they hold, and the new table or buffer beside the old while it is filled.
fn check_growth(
    cells: usize,
    seen: &StateSet,
    layers: &[Vec<(u64, u32)>],
    next: &Vec<(u64, u32)>,
    layer: bool,
    limits: &Limits,
) -> Result<()> {
    const ENTRY: u128 = std::mem::size_of::<(u64, u32)>() as u128;
    let listed: u128 = layers
        .iter()
        .chain(std::iter::once(next))
        .map(|l| l.capacity() as u128 * ENTRY)
        .sum();
    let (set, grown) = match layer {
        true => (seen.bytes(), (next.capacity().max(4) as u128) * 2 * ENTRY),
        false => (seen.growth_peak(), 0),
    };
    let held = set + listed + grown + fixed_bytes(cells) + crate::limits::PROCESS_BYTES;
    if held > u128::from(limits.max_memory) {
        return Err(limits.exceeded(
            "max-memory",
            "the memory the search would hold as its tables grow (the states seen, the \
             layers, and a table's new buffer beside the old)",
            held,
            "the states this search must hold do not fit: raise --max-memory if the machine \
             has room",
        ));
    }
    Ok(())
}

/// The cost of a search visiting at most `states` states, with `extra`
/// bytes besides (the move lists, the answer): what it must allocate, and as
/// many states as fit in the rest of `max-memory`, where the search stops.
pub(crate) fn cost(program: &Program, states: u128, extra: u128, limits: &Limits) -> (u128, u128) {
    let fixed = fixed_bytes(program.cells()) + extra;
    let room = u128::from(limits.max_memory).saturating_sub(fixed + crate::limits::PROCESS_BYTES);
    let held = (states * BYTES_PER_STATE).min(room);
    (fixed + held, states * program.moves().len() as u128)
}

/// What one search found: the moves from the start, and the state they reach.
#[derive(Debug)]
pub struct Found<W: Word = u64> {
    /// Indices into the program's moves, in the order played.
    pub moves: Vec<usize>,
    /// The state they reach.
    pub end: W,
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
    let cap = state_cap(program.cells(), limits);
    let mut seen = StateSet::new(program.cells(), BITMAP_CELLS);
    seen.insert(start);
    let mut visited = 1u64;
    // Each layer lists its states with the move that first reached them.
    let mut layers: Vec<Vec<(u64, u32)>> = vec![vec![(start, START)]];
    let mut best = (start, 0);
    let mut headroom = seen.headroom();
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
                    // Before a table grows, the old and the new must fit together.
                    let growing = headroom == 0;
                    if growing {
                        check_growth(program.cells(), &seen, &layers, &next, false, limits)?;
                    }
                    let fresh = seen.insert(t);
                    headroom = match growing {
                        true => seen.headroom(),
                        false => headroom - usize::from(fresh),
                    };
                    if fresh {
                        visited += 1;
                        if visited > cap {
                            return Err(too_many_states(program.cells(), visited, limits));
                        }
                        if next.len() == next.capacity() {
                            check_growth(program.cells(), &seen, &layers, &next, true, limits)?;
                        }
                        next.push((t, m as u32));
                    }
                }
            }
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
