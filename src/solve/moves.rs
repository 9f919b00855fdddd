//! Fewest moves, where a move is a chain of jumps by one piece: bidirectional breadth-first search by move levels, up to symmetry.
//!
//! Peg players count a **move** as one or more consecutive jumps by the same
//! peg. Every solution of a peg board has the same number of jumps, but not
//! the same number of moves, so the fewest moves need their own search.
//!
//! Level `n` forward is the set of positions reached from the start in `n`
//! moves and no fewer; level `n` backward from a target is the set of
//! positions that reach it in `n` moves and no fewer. A backward move is a
//! chain of reversed jumps by one peg: the peg jumps back over a hole, which
//! gets a peg, into a hole. Forward positions are kept up to the symmetries
//! that fix the start, backward ones up to those that fix their target, so
//! that levels are orbits.
//!
//! The forward levels are shared; each target (one per orbit under the
//! start's symmetries, and only those in the start's position class) is
//! searched back from on its own, because backward levels from many targets
//! at once grow far faster than from one. A known solution in jumps, cut
//! into moves, bounds every search from the start, and its target goes
//! first, so that the other targets are searched only for something shorter.
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
    /// Positions per level backward, summed over the targets searched back
    /// from (each level `n` of each target: the positions that reach it in
    /// `n` moves and no fewer).
    pub backward: Vec<u64>,
    /// The targets searched back from: those in the start's class, one per
    /// orbit under the symmetries that fix the start.
    pub targets: usize,
    /// The symmetries forward positions are taken up to: those that fix the
    /// start and map the targets onto targets.
    pub forward_symmetries: usize,
    /// The symmetries backward positions are taken up to: those that fix the
    /// target (with several targets, the fewest any of them has).
    pub backward_symmetries: usize,
}

/// The jumps of a program, by the cell a peg leaves and the cell it lands on.
struct Jumps {
    masks: Masks,
    /// Per jump: the cell it leaves and the cell it lands on.
    from: Vec<usize>,
    to: Vec<usize>,
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
        let (mut from_cells, mut to_cells) = (Vec::new(), Vec::new());
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
            from_cells.push(from);
            to_cells.push(to);
        }
        Ok(Jumps {
            masks,
            from: from_cells,
            to: to_cells,
            leaving,
            landing,
        })
    }

    /// A solution in jumps from `start` cut into moves (each run of jumps by
    /// one peg), with the position it ends on.
    fn chains(&self, start: u64, solution: &[usize]) -> (Vec<Vec<usize>>, u64) {
        let mut moves: Vec<Vec<usize>> = Vec::new();
        let mut at = None;
        let mut state = start;
        for &j in solution {
            let from = self.from[j];
            match moves.last_mut() {
                Some(chain) if at == Some(from) => chain.push(j),
                _ => moves.push(vec![j]),
            }
            at = Some(self.to[j]);
            state ^= self.masks.flip[j];
        }
        (moves, state)
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
    /// `state`, with the chain that leads from it to `state` given last
    /// jump first (reverse it for the order played), until `found` returns
    /// false.
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
                let go_on = found(before, chain) && self.chain_into(before, from, chain, found);
                chain.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}

/// One direction's levels (forward from the start, or backward from one
/// target): each position's level, and the last level, up to the side's
/// own symmetries.
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
///
/// `known`, when given, is a solution in jumps from `start` (it must reach a
/// target): its moves bound every search, its target is searched first, and
/// it is the answer when nothing shorter exists.
///
/// The forward levels are shared by every target; each target (one per
/// orbit under the symmetries that fix the start) gets backward levels of
/// its own, searched only for meetings shorter than the best so far.
pub fn fewest_moves(
    program: &Program,
    start: u64,
    known: Option<&[usize]>,
    limits: &Limits,
) -> Result<MoveOutcome> {
    let jumps = Jumps::new(program)?;
    let Goal::Targets(targets) = program.goal() else {
        return Err(Error::Usage(
            "the moves metric needs a goal of target boards, not fewest pieces".into(),
        ));
    };
    let fixing_start = Symmetries::of(program, &[start], limits)?;
    // Jumps keep a position in its class (its cosets of the span of the jumps'
    // flips): only the targets in the start's class are searched back from.
    let class = Span::new(&jumps.masks.flip);
    let mut targets: Vec<u64> = targets
        .iter()
        .filter_map(|t| t.to_u64())
        .filter(|&t| class.contains(t ^ start))
        .map(|t| fixing_start.canon(t))
        .collect();
    targets.sort_unstable();
    targets.dedup();
    let known: Option<(Vec<Vec<usize>>, u64)> = known.map(|k| jumps.chains(start, k));
    if let Some((_, end)) = &known {
        let end = fixing_start.canon(*end);
        if let Some(i) = targets.iter().position(|&t| t == end) {
            targets[..=i].rotate_right(1);
        }
    }
    let incumbent: Option<u32> = known.as_ref().map(|(chains, _)| chains.len() as u32);
    let groups: Vec<Symmetries> = targets
        .iter()
        .map(|&t| Symmetries::of(program, &[t], limits))
        .collect::<Result<_>>()?;
    let mut fore = Side::new(&[start], true, &fixing_start);
    let mut best: Option<Best> = None;
    let mut backward: Vec<u64> = Vec::new();
    for (i, (&target, group)) in targets.iter().zip(&groups).enumerate() {
        let mut back = Side::new(&[target], false, group);
        let mut found: Option<Meeting> = None;
        let held = |best: &Option<Best>| best.as_ref().map_or(0, |b| b.back.bytes());
        for k in 0..group.len() {
            let image = group.apply(k, target);
            if let Some(f) = fore.level(image) {
                found = better(found, (f, 0, image));
            }
        }
        loop {
            let (a, b) = (fore.depth(), back.depth());
            let cap = [
                found.map(total),
                best.as_ref().map(|b| total(b.meeting)),
                incumbent,
            ]
            .into_iter()
            .flatten()
            .min();
            if cap.is_some_and(|cap| cap <= a + b + 1) {
                break;
            }
            if fore.last.is_empty() || back.last.is_empty() {
                break;
            }
            let budget = limits.max_memory;
            if fore.last.len() <= back.last.len() {
                fore.grow(&jumps, back.bytes() + held(&best), budget)
                    .map_err(|e| so_far(e, &fore, &back, (i, targets.len()), cap))?;
                let depth = fore.depth();
                let met = fore
                    .last
                    .par_iter()
                    .filter_map(|&s| back.level(s).map(|g| (depth, g, s)))
                    .min_by_key(|&m| (total(m), m.2));
                if let Some(m) = met {
                    found = better(found, m);
                }
            } else {
                back.grow(&jumps, fore.bytes() + held(&best), budget)
                    .map_err(|e| so_far(e, &fore, &back, (i, targets.len()), cap))?;
                let depth = back.depth();
                // A backward position stands for its orbit under the target's symmetries,
                // which the forward levels do not share: every image is looked up.
                let met = back
                    .last
                    .par_iter()
                    .flat_map_iter(|&s| (0..group.len()).map(move |k| group.apply(k, s)))
                    .filter_map(|image| fore.level(image).map(|f| (f, depth, image)))
                    .min_by_key(|&m| (total(m), m.2));
                if let Some(m) = met {
                    found = better(found, m);
                }
            }
        }
        for (n, &size) in back.sizes.iter().enumerate() {
            match backward.get_mut(n) {
                Some(sum) => *sum += size,
                None => backward.push(size),
            }
        }
        if let Some(meeting) = found {
            let shorter = |than: Option<u32>| than.is_none_or(|t| total(meeting) < t);
            if shorter(best.as_ref().map(|b| total(b.meeting))) && shorter(incumbent) {
                best = Some(Best { meeting, back });
            }
        }
    }
    let levels = Levels {
        forward: fore.sizes.clone(),
        backward,
        targets: targets.len(),
        forward_symmetries: fixing_start.len(),
        backward_symmetries: groups.iter().map(Symmetries::len).min().unwrap_or(1),
    };
    let Some(Best { meeting, back }) = best else {
        return Ok(match known {
            Some((moves, _)) => MoveOutcome::Solved(MoveSolution { moves, levels }),
            None => MoveOutcome::Unsolvable(levels),
        });
    };
    let (f, g, at) = meeting;
    let moves = rebuild(&jumps, &fore, &back, at, f, g, start)?;
    Ok(MoveOutcome::Solved(MoveSolution { moves, levels }))
}

/// A limit error from growing a level, with what the levels searched so far
/// prove: no solution through target `i` of `n` within their depths, and
/// the best solution known.
fn so_far(e: Error, fore: &Side, back: &Side, (i, n): (usize, usize), best: Option<u32>) -> Error {
    let Error::Limit {
        what,
        name,
        value,
        limit,
        hint,
    } = e
    else {
        return e;
    };
    let (a, b) = (fore.depth(), back.depth());
    let none = match n {
        1 => format!("no solution has {} moves or fewer", a + b),
        n => format!(
            "no solution of {} moves or fewer ends on target {} of {n}",
            a + b,
            i + 1
        ),
    };
    let known = best.map_or(String::new(), |m| format!("; the best known has {m} moves"));
    Error::Limit {
        what,
        name,
        value,
        limit,
        hint: format!(
            "{hint} (searched so far: levels forward to {a} and backward to {b}, so {none}{known})"
        ),
    }
}

/// A meeting of the two searches: its forward level, its backward level,
/// and the position.
type Meeting = (u32, u32, u64);

/// The best meeting over the targets searched so far, with the backward
/// levels it was found in (kept to rebuild the moves).
struct Best<'a> {
    meeting: Meeting,
    back: Side<'a>,
}

/// The moves of a solution through a meeting.
fn total(meeting: Meeting) -> u32 {
    meeting.0 + meeting.1
}

/// The meeting with fewer moves in all.
fn better(best: Option<Meeting>, found: Meeting) -> Option<Meeting> {
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
                step = Some((prev, chain.iter().rev().copied().collect()));
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

/// Levels by moves, each to the end: forward from `from` (the positions
/// reached in `n` moves and no fewer), or, without `from`, backward from the
/// goal's targets (the positions that reach a target in `n` moves and no
/// fewer). Counted as orbits with `symmetry`, else as positions (each orbit
/// by its size). Refused past the limit `max-memory`.
pub fn histogram(
    program: &Program,
    from: Option<u64>,
    symmetry: bool,
    limits: &Limits,
) -> Result<crate::enumerate::Summary> {
    let jumps = Jumps::new(program)?;
    let (sources, forward, fixed): (Vec<u64>, bool, Vec<u64>) = match from {
        Some(start) => (vec![start], true, vec![start]),
        None => {
            let Goal::Targets(targets) = program.goal() else {
                return Err(Error::Usage(
                    "levels by moves back from the goal need target boards, not fewest pieces"
                        .into(),
                ));
            };
            (
                targets.iter().filter_map(|t| t.to_u64()).collect(),
                false,
                Vec::new(),
            )
        }
    };
    let group = Symmetries::of(program, &fixed, limits)?;
    let mut side = Side::new(&sources, forward, &group);
    let mut summary = crate::enumerate::Summary {
        symmetries: if symmetry { group.len() } else { 1 },
        ..Default::default()
    };
    let mut depth = 0;
    while !side.last.is_empty() {
        let n: u128 = if symmetry {
            side.last.len() as u128
        } else {
            side.last
                .par_iter()
                .map(|&s| (group.len() / group.stabilizer(s)) as u128)
                .sum()
        };
        summary.histogram.insert(depth, n);
        summary.count.add(n);
        side.grow(&jumps, 0, limits.max_memory)?;
        depth += 1;
    }
    Ok(summary)
}
