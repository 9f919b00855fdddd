//! Fewest moves, where a move is a chain of jumps by one piece: bidirectional breadth-first search by move levels, up to symmetry.
//!
//! Peg players count a **move** as one or more consecutive jumps by the same
//! peg. Every solution of a peg board has the same number of jumps, but not
//! the same number of moves, so the fewest moves need their own search.
//!
//! Level `n` forward is the set of positions reached from the start in `n`
//! moves and no fewer; level `n` backward is the set of positions that reach
//! a target in `n` moves and no fewer. A backward move is a chain of
//! reversed jumps by one peg: the peg jumps back over a hole, which gets a
//! peg, into a hole. Positions are kept up to the symmetries that fix the
//! start and map the targets onto targets, so that levels are orbits.
//!
//! The side with the smaller last level grows by one level at a time. When
//! forward levels `0..=a` and backward levels `0..=b` are complete and the
//! best meeting found has `best` moves, every shorter solution would have
//! met within them as soon as `best <= a + b + 1`: a solution of `L <= a + b`
//! moves has, after `min(a, L)` of its moves, a position in both. So the
//! answer is proved the fewest when the search stops, and impossible when a
//! side runs out of positions before any meeting.
//!
//! The solution itself is rebuilt from the levels: from the meeting position,
//! a chain back into the previous forward level, and so on to the start (the
//! only position of its orbit, since every symmetry used fixes it); then a
//! chain on into the next backward level, to a target.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::enumerate::layers::Canon;
use crate::enumerate::symmetry::Symmetries;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::program::{Goal, MoveKind, Program};
use crate::solve::search::Masks;

/// The bytes a level map takes per position of its capacity: a slot of a key,
/// a level and padding (16 bytes), a control byte, and the free slots a hash
/// table keeps (an eighth).
const MAP_SLOT_BYTES: u64 = 20;

/// Parents expanded at a time while a level grows.
const CHUNK: usize = 1 << 18;

/// Successors per parent allowed for while a chunk is expanded: chains from
/// every peg, most of them found again from other parents.
const SUCCESSORS_PER_PARENT: u64 = 64;

/// A fewest-moves answer: the moves, each a chain of jumps, and how
/// optimality was established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSolution {
    /// The moves in order; each is the program's jump indices, in order, all
    /// by one peg.
    pub moves: Vec<Vec<usize>>,
    /// The levels searched.
    pub levels: Levels,
}

/// What a fewest-moves search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The fewest moves, proved.
    Solved(MoveSolution),
    /// No sequence of moves reaches a target: one side ran out of positions.
    Unsolvable(Levels),
}

/// The sizes of the levels searched, in positions up to symmetry: the proof
/// that no shorter solution exists, or that none exists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    /// Positions per level forward from the start: entry `n` is the number
    /// reached in `n` moves and no fewer.
    pub forward: Vec<u64>,
    /// Positions per level backward from the targets.
    pub backward: Vec<u64>,
    /// The symmetries forward positions are taken up to: those that fix the
    /// start and map the targets onto targets.
    pub forward_symmetries: usize,
    /// The symmetries backward positions are taken up to: those that map the
    /// targets onto targets.
    pub backward_symmetries: usize,
}

/// The jumps of a program, by the cell a peg leaves and the cell it lands on.
struct Jumps {
    masks: Masks,
    /// Per cell: the jumps leaving it, with their landing cell.
    leaving: Vec<Vec<(usize, usize)>>,
    /// Per cell: the jumps landing on it, with the cell they leave.
    landing: Vec<Vec<(usize, usize)>>,
}

impl Jumps {
    fn new(program: &Program) -> Result<Jumps> {
        let masks = Masks::new(program)?;
        let cells = program.cells();
        let mut leaving = vec![Vec::new(); cells];
        let mut landing = vec![Vec::new(); cells];
        for (j, m) in program.moves().iter().enumerate() {
            let from_over_to = m.kind == MoveKind::Jump && m.cells.len() == 3;
            if !from_over_to {
                return Err(Error::Usage(
                    "the moves metric counts chains of jumps by one piece; this puzzle has \
                     moves that are not jumps"
                        .into(),
                ));
            }
            let (from, to) = (m.cells[0].0, m.cells[2].0);
            leaving[from].push((j, to));
            landing[to].push((j, from));
        }
        Ok(Jumps {
            masks,
            leaving,
            landing,
        })
    }

    /// Calls `found(position, chain)` for every position one move after
    /// `state` (every chain of jumps by one peg, and every prefix of one),
    /// until `found` returns false.
    fn forward(&self, state: u64, found: &mut dyn FnMut(u64, &[usize]) -> bool) -> bool {
        let mut chain = Vec::new();
        let mut pegs = state;
        while pegs != 0 {
            let cell = pegs.trailing_zeros() as usize;
            pegs &= pegs - 1;
            if !self.chain_from(state, cell, &mut chain, found) {
                return false;
            }
        }
        true
    }

    fn chain_from(
        &self,
        state: u64,
        cell: usize,
        chain: &mut Vec<usize>,
        found: &mut dyn FnMut(u64, &[usize]) -> bool,
    ) -> bool {
        for &(j, to) in &self.leaving[cell] {
            if self.masks.legal(state, j) {
                let next = state ^ self.masks.flip[j];
                chain.push(j);
                let go_on = found(next, chain) && self.chain_from(next, to, chain, found);
                chain.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    /// Calls `found(position, chain)` for every position one move before
    /// `state`, with the chain (in the order played) that leads from it to
    /// `state`, until `found` returns false.
    fn backward(&self, state: u64, found: &mut dyn FnMut(u64, &[usize]) -> bool) -> bool {
        let mut chain = Vec::new();
        let mut pegs = state;
        while pegs != 0 {
            let cell = pegs.trailing_zeros() as usize;
            pegs &= pegs - 1;
            if !self.chain_into(state, cell, &mut chain, found) {
                return false;
            }
        }
        true
    }

    /// Reversed jumps by the peg on `cell`; `chain` holds the jumps found so
    /// far, last played first.
    fn chain_into(
        &self,
        state: u64,
        cell: usize,
        chain: &mut Vec<usize>,
        found: &mut dyn FnMut(u64, &[usize]) -> bool,
    ) -> bool {
        for &(j, from) in &self.landing[cell] {
            let before = state ^ self.masks.flip[j];
            if self.masks.legal(before, j) {
                chain.push(j);
                let played: Vec<usize> = chain.iter().rev().copied().collect();
                let go_on = found(before, &played) && self.chain_into(before, from, chain, found);
                chain.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}

/// One direction's levels: each position's level, and the last level, up
/// to the side's own symmetries.
struct Side<'a> {
    level_of: FxHashMap<u64, u32>,
    last: Vec<u64>,
    sizes: Vec<u64>,
    forward: bool,
    group: &'a Symmetries,
}

impl<'a> Side<'a> {
    fn new(sources: &[u64], forward: bool, group: &'a Symmetries) -> Side<'a> {
        let mut sources: Vec<u64> = sources.iter().map(|&s| group.canon(s)).collect();
        sources.sort_unstable();
        sources.dedup();
        let level_of = sources.iter().map(|&s| (s, 0)).collect();
        Side {
            level_of,
            sizes: vec![sources.len() as u64],
            last: sources,
            forward,
            group,
        }
    }

    /// The level of a position (any image of it), if it has one yet.
    fn level(&self, position: u64) -> Option<u32> {
        self.level_of.get(&self.group.canon(position)).copied()
    }

    fn depth(&self) -> u32 {
        self.sizes.len() as u32 - 1
    }

    /// The bytes this side holds: its level map (slots of a key and a
    /// level, with the table's control bytes) and its last level.
    fn bytes(&self) -> u64 {
        self.level_of.capacity() as u64 * MAP_SLOT_BYTES + self.last.capacity() as u64 * 8
    }

    /// Adds the next level, on rayon's threads: parents a chunk at a time, so
    /// that their successors (most of them found many times) stay bounded
    /// before they are deduplicated. Refused when what is held beside
    /// `other_bytes` would pass `max_memory`, before a chunk is expanded.
    fn grow(&mut self, jumps: &Jumps, other_bytes: u64, max_memory: u64) -> Result<()> {
        let canon: &dyn Canon = self.group;
        let depth = self.depth() + 1;
        let mut next: Vec<u64> = Vec::new();
        let last = std::mem::take(&mut self.last);
        for chunk in last.chunks(CHUNK) {
            // The chunk's successors, then room for the map to double if they are new.
            let buffered = chunk.len() as u64 * SUCCESSORS_PER_PARENT * 8;
            let growth = self.level_of.capacity().max(chunk.len()) as u64 * MAP_SLOT_BYTES * 2;
            let held = other_bytes
                + self.bytes()
                + last.len() as u64 * 8
                + next.capacity() as u64 * 8
                + buffered
                + growth;
            if held > max_memory {
                return Err(Error::Limit {
                    what: "the memory of the move levels searched so far, and the next chunk \
                           (estimated)"
                        .into(),
                    name: "max-memory",
                    value: u128::from(held),
                    limit: u128::from(max_memory),
                    hint: "raise --max-memory if the machine has room".into(),
                });
            }
            let mut found: Vec<u64> = chunk
                .par_chunks(256)
                .flat_map_iter(|part| {
                    let mut out = Vec::new();
                    for &s in part {
                        let mut push = |t: u64, _: &[usize]| {
                            out.push(canon.canon(t));
                            true
                        };
                        if self.forward {
                            jumps.forward(s, &mut push);
                        } else {
                            jumps.backward(s, &mut push);
                        }
                    }
                    out
                })
                .collect();
            found.par_sort_unstable();
            found.dedup();
            for t in found {
                if let std::collections::hash_map::Entry::Vacant(slot) = self.level_of.entry(t) {
                    slot.insert(depth);
                    next.push(t);
                }
            }
        }
        self.sizes.push(next.len() as u64);
        self.last = next;
        Ok(())
    }
}

/// The fewest moves from `start` to the goal of `program` (every move a
/// jump; the goal a set of targets), proved by levels searched both ways.
/// The answer's chains are replayed by the caller's check. Refused past the
/// limit `max-memory`.
pub fn fewest_moves(program: &Program, start: u64, limits: &Limits) -> Result<MoveOutcome> {
    let jumps = Jumps::new(program)?;
    let Goal::Targets(targets) = program.goal() else {
        return Err(Error::Usage(
            "the moves metric needs a goal of target boards, not fewest pieces".into(),
        ));
    };
    // Jumps keep a position in its class (its cosets of the span of the jumps'
    // flips): only the targets in the start's class are searched back from.
    let class = Span::new(&jumps.masks.flip);
    let targets: Vec<u64> = targets
        .iter()
        .filter_map(|t| t.to_u64())
        .filter(|&t| class.contains(t ^ start))
        .collect();
    let fixing_start = Symmetries::of(program, &[start], limits)?;
    let of_targets = Symmetries::of(program, &[], limits)?;
    let mut fore = Side::new(&[start], true, &fixing_start);
    let mut back = Side::new(&targets, false, &of_targets);
    // The best meeting: its forward and backward levels, and the position.
    let mut best: Option<(u32, u32, u64)> = back.level(start).map(|b| (0, b, start));
    loop {
        let (a, b) = (fore.depth(), back.depth());
        if best.is_some_and(|(f, g, _)| f + g <= a + b + 1) {
            break;
        }
        if fore.last.is_empty() || back.last.is_empty() {
            break;
        }
        let budget = limits.max_memory;
        if fore.last.len() <= back.last.len() {
            fore.grow(&jumps, back.bytes(), budget)?;
            let depth = fore.depth();
            for &s in &fore.last {
                if let Some(g) = back.level(s) {
                    best = better(best, (depth, g, s));
                }
            }
        } else {
            back.grow(&jumps, fore.bytes(), budget)?;
            let depth = back.depth();
            // A backward position stands for its orbit under the targets' symmetries,
            // which the forward levels do not share: every image is looked up.
            for &s in &back.last {
                for k in 0..of_targets.len() {
                    let image = of_targets.apply(k, s);
                    if let Some(f) = fore.level(image) {
                        best = better(best, (f, depth, image));
                    }
                }
            }
        }
    }
    let levels = Levels {
        forward: fore.sizes.clone(),
        backward: back.sizes.clone(),
        forward_symmetries: fixing_start.len(),
        backward_symmetries: of_targets.len(),
    };
    let Some((f, g, meeting)) = best else {
        return Ok(MoveOutcome::Unsolvable(levels));
    };
    let moves = rebuild(&jumps, &fore, &back, meeting, f, g, start)?;
    Ok(MoveOutcome::Solved(MoveSolution { moves, levels }))
}

/// The meeting with fewer moves in all.
fn better(best: Option<(u32, u32, u64)>, found: (u32, u32, u64)) -> Option<(u32, u32, u64)> {
    match best {
        Some((f, g, _)) if f + g <= found.0 + found.1 => best,
        _ => Some(found),
    }
}

/// The span of the jumps' flips over GF(2), in echelon form: a position's
/// class is its coset, and jumps never leave it.
struct Span {
    /// Basis vectors by their highest bit.
    basis: Vec<u64>,
}

impl Span {
    fn new(vectors: &[u64]) -> Span {
        let mut basis: Vec<u64> = Vec::new();
        for &v in vectors {
            let r = Span::reduce(&basis, v);
            if r != 0 {
                basis.push(r);
                basis.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        Span { basis }
    }

    fn reduce(basis: &[u64], mut v: u64) -> u64 {
        for &b in basis {
            let top = 63 - b.leading_zeros();
            if v >> top & 1 == 1 {
                v ^= b;
            }
        }
        v
    }

    fn contains(&self, v: u64) -> bool {
        Span::reduce(&self.basis, v) == 0
    }
}

/// The moves of a fewest solution through `meeting` (forward level `f`,
/// backward level `g`), as actual positions from `start`.
fn rebuild(
    jumps: &Jumps,
    fore: &Side,
    back: &Side,
    meeting: u64,
    f: u32,
    g: u32,
    start: u64,
) -> Result<Vec<Vec<usize>>> {
    let lost =
        || Error::Internal("a fewest-moves solution could not be rebuilt from its levels".into());
    let mut before: Vec<Vec<usize>> = Vec::new();
    let mut at = meeting;
    for level in (0..f).rev() {
        let mut step = None;
        jumps.backward(at, &mut |prev, chain| {
            if fore.level(prev) == Some(level) {
                step = Some((prev, chain.to_vec()));
                return false;
            }
            true
        });
        let (prev, chain) = step.ok_or_else(lost)?;
        before.push(chain);
        at = prev;
    }
    if at != start {
        return Err(lost());
    }
    before.reverse();
    let mut at = meeting;
    for level in (0..g).rev() {
        let mut step = None;
        jumps.forward(at, &mut |next, chain| {
            if back.level(next) == Some(level) {
                step = Some((next, chain.to_vec()));
                return false;
            }
            true
        });
        let (next, chain) = step.ok_or_else(lost)?;
        before.push(chain);
        at = next;
    }
    Ok(before)
}
