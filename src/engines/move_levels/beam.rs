//! A short solution by moves, searched for by a beam: each level by moves keeps only the positions the bounds rank most promising, so it finds a solution quickly but proves nothing.
//!
//! Level `n + 1` is every position one move after a position of level `n`,
//! up to the start's symmetries, that no pagoda function cuts off from the
//! targets, of which only the `width` best are kept: those with the least
//! lower bound on the moves still needed (the regions and the peg types),
//! then the fewest pegs, then by a hash of the position. Pagoda functions
//! are learnt from each level's positions, as the levels of the proof learn
//! them. The first level that holds a target ends the search; its moves are
//! rebuilt by finding, for each kept position, the chain that leads to it
//! from the position it was kept for.
//!
//! Beside it, each target's first levels backward (every position a few
//! moves from the target) are met by every candidate the bounds leave near
//! enough: a candidate `d` moves from the start in a target's backward level
//! `g` is a solution of `d + g` moves, though the beam would not have kept
//! it. The shortest found ends the beam once its levels are that deep.

use rayon::prelude::*;

use super::jumps::Jumps;
use super::side::Side;
use crate::engines::merson::Regions;
use crate::engines::pagoda::Pagodas;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::query::{Event, Observer};
use crate::symmetry::Symmetries;
use crate::word::Word;

/// Parents expanded at a time: their candidates join the level's pool together.
const CHUNK: usize = 1 << 10;

/// The bytes a candidate takes while a level is ranked.
fn candidate_bytes<W: Word>() -> u64 {
    std::mem::size_of::<Candidate<W>>() as u64
}

/// A position one move after a kept one: its rank, its canonical form, the
/// position itself, and the index of its parent in the level before.
#[derive(Clone, Copy)]
struct Candidate<W: Word> {
    rank: u64,
    canonical: W,
    position: W,
    parent: u32,
}

/// What the beam needs: the jumps, the start's symmetries, the bounds ahead,
/// and the targets.
pub(super) struct Beam<'a, W: Word> {
    /// The board's holes.
    pub(super) cells: usize,
    pub(super) jumps: &'a Jumps<W>,
    pub(super) group: &'a Symmetries<W>,
    pub(super) ahead: &'a Regions<W>,
    /// The targets, sorted.
    pub(super) targets: &'a [W],
    /// Each target's first levels backward, and the bytes they hold.
    pub(super) behind: &'a [Side<'a, W>],
    pub(super) behind_bytes: u64,
    /// Told of each level and of each shorter solution found.
    pub(super) observer: Option<&'a Observer>,
}

/// A candidate in a target's backward levels: its backward level, the
/// target's index, the candidate, and its parent's index.
type Meeting<W> = (u32, usize, W, u32);

/// A level kept: each position with its parent's index in the level before.
type Level<W> = Vec<(W, u32)>;

/// A parent's candidates, and the one of them in the least backward level.
type Found<W> = (Vec<Candidate<W>>, Option<Meeting<W>>);

/// Positions of a level handed to linear programming as witnesses.
const WITNESSES: usize = 64;

impl<W: Word> Beam<'_, W> {
    /// The moves (each a chain of jump indices) of a solution from `start`
    /// found by a beam of `width` positions a level, or `None` when every
    /// level's positions ran out first. Refused with the limit `max-memory`
    /// when the levels kept and a level's candidates would pass it.
    pub(super) fn search(
        &self,
        start: W,
        width: usize,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<usize>>>> {
        let width = width.max(1);
        let mut pagodas = Pagodas::new(
            self.cells,
            &self.jumps.lines,
            self.targets,
            true,
            self.group,
        );
        // Each level kept, as positions and their parents' indices.
        let mut levels: Vec<Level<W>> = vec![vec![(start, 0)]];
        // The shortest solution through a backward level so far.
        let mut shortest: Option<Vec<Vec<usize>>> = None;
        loop {
            let last = levels.last().map(Vec::as_slice).unwrap_or_default();
            if let Some(at) = last.iter().position(|&(p, _)| self.is_target(p)) {
                let found = self.rebuild(&levels, at)?;
                if let Some(observer) = self.observer {
                    let moves = found.len() as u32;
                    (observer.0)(&Event::BeamSolution { moves });
                }
                return Ok(Some(found));
            }
            // No level deeper than the shortest found can be shorter.
            if last.is_empty() || shortest.as_ref().is_some_and(|s| s.len() <= levels.len()) {
                return Ok(shortest);
            }
            let kept: u64 = levels
                .iter()
                .map(|l| l.capacity() as u64)
                .sum::<u64>()
                .saturating_mul(std::mem::size_of::<(W, u32)>() as u64)
                .saturating_add(self.behind_bytes);
            let (mut next, met) =
                self.level(last, width, &pagodas, (levels.len(), kept), limits)?;
            if let Some((g, i, position, parent)) = met {
                let moves = levels.len() + g as usize;
                if shortest.as_ref().is_none_or(|s| moves < s.len()) {
                    let mut found = self.rebuild(&levels, parent as usize)?;
                    let from = levels[levels.len() - 1][parent as usize].0;
                    found.push(self.chain(from, position)?);
                    found.extend(super::to_target(self.jumps, &self.behind[i], position, g)?);
                    if let Some(observer) = self.observer {
                        let moves = found.len() as u32;
                        (observer.0)(&Event::BeamSolution { moves });
                    }
                    shortest = Some(found);
                }
            }
            // Functions that cut off some of the level's positions cut them,
            // and the levels after it.
            let step = next.len().div_ceil(WITNESSES).max(1);
            let witnesses: Vec<W> = next.iter().step_by(step).map(|&(p, _)| p).collect();
            if pagodas.learn(&witnesses) > 0 {
                next.retain(|&(p, _)| pagodas.keeps(p));
            }
            if let Some(observer) = self.observer {
                (observer.0)(&Event::MoveLevel {
                    bound: None,
                    target: None,
                    toward: None,
                    depth: levels.len() as u32,
                    positions: next.len() as u64,
                    held: crate::memory::held(),
                });
            }
            levels.push(next);
        }
    }

    /// Whether `position` is a target.
    fn is_target(&self, position: W) -> bool {
        self.targets.binary_search(&position).is_ok()
    }

    /// The `width` best positions one move after those of `last`, level
    /// `depth` of the beam, and the candidate among all of them in the least
    /// backward level of a target; `kept` is what the levels before it hold.
    /// Refused when they and the candidates would pass the limit
    /// `max-memory`.
    fn level(
        &self,
        last: &[(W, u32)],
        width: usize,
        pagodas: &Pagodas<W>,
        (depth, kept): (usize, u64),
        limits: &Limits,
    ) -> Result<(Level<W>, Option<Meeting<W>>)> {
        let mut pool: Vec<Candidate<W>> = Vec::new();
        let mut met: Option<Meeting<W>> = None;
        // A candidate the bounds leave farther from the targets than every
        // backward level is in none of them.
        let deepest = self.behind.iter().map(Side::depth).max();
        for (c, chunk) in last.chunks(CHUNK).enumerate() {
            let found: Vec<Found<W>> = chunk
                .par_iter()
                .enumerate()
                .map(|(i, &(from, _))| {
                    let parent = (c * CHUNK + i) as u32;
                    let mut out = Vec::new();
                    self.jumps.successors(from, true, &mut |position| {
                        out.push(position);
                    });
                    // Chains reach some positions more than once.
                    out.sort_unstable();
                    out.dedup();
                    out.retain(|&p| pagodas.keeps(p));
                    let candidates: Vec<Candidate<W>> = out
                        .into_iter()
                        .map(|position| self.candidate(position, parent))
                        .collect();
                    let met = deepest.and_then(|deepest| {
                        candidates
                            .iter()
                            .filter(|c| (c.rank >> 48) as u32 <= deepest + 1)
                            .filter_map(|c| self.meets(c.position, parent))
                            .min_by_key(|m| m.0)
                    });
                    (candidates, met)
                })
                .collect();
            for (candidates, found) in found {
                pool.extend(candidates);
                if let Some(found) = found.filter(|f| met.is_none_or(|m| f.0 < m.0)) {
                    met = Some(found);
                }
            }
            let held = kept.saturating_add(pool.capacity() as u64 * candidate_bytes::<W>());
            if held > limits.max_memory {
                return Err(limits.exceeded(
                    "max-memory",
                    format!(
                        "the memory the beam of {width} positions a level needs at level {depth}"
                    ),
                    u128::from(held),
                    "lower --beam, or raise --max-memory",
                ));
            }
            if pool.len() > width.saturating_mul(4) {
                best(&mut pool, width);
            }
        }
        best(&mut pool, width);
        pool.sort_unstable_by_key(|c| c.rank);
        // A new vector: collected in place, the level would keep the pool's room.
        let mut kept = Vec::with_capacity(pool.len());
        kept.extend(pool.iter().map(|c| (c.position, c.parent)));
        Ok((kept, met))
    }

    /// The least backward level of a target that holds `position`.
    fn meets(&self, position: W, parent: u32) -> Option<Meeting<W>> {
        let levels = self.behind.iter().enumerate();
        levels
            .filter_map(|(i, back)| back.level(position).map(|g| (g, i, position, parent)))
            .min_by_key(|m| m.0)
    }

    /// The chain of jumps of one move from `from` to `to`.
    fn chain(&self, from: W, to: W) -> Result<Vec<usize>> {
        let mut chain = None;
        self.jumps.forward(from, &mut |next, jumps| {
            if next == to {
                chain = Some(jumps.to_vec());
                return false;
            }
            true
        });
        chain.ok_or_else(|| Error::Internal("a beam's solution could not be rebuilt".into()))
    }

    /// `position`, one move after the parent of index `parent`, ranked: a
    /// target first; then by the fewest moves the bounds leave, the fewest
    /// pegs, and a hash.
    fn candidate(&self, position: W, parent: u32) -> Candidate<W> {
        let canonical = self.group.least(position);
        let (bound, pegs) = match self.is_target(position) {
            true => (0, 0),
            false => (self.ahead.ahead(canonical) + 1, position.count_ones()),
        };
        let hash = canonical.mix().top(32) as u32;
        Candidate {
            rank: u64::from(bound) << 48 | u64::from(pegs) << 32 | u64::from(hash),
            canonical,
            position,
            parent,
        }
    }

    /// The moves from the start to position `at` of the last level.
    fn rebuild(&self, levels: &[Vec<(W, u32)>], mut at: usize) -> Result<Vec<Vec<usize>>> {
        let lost = || Error::Internal("a beam's solution could not be rebuilt".into());
        let mut moves = Vec::new();
        for depth in (1..levels.len()).rev() {
            let (position, parent) = levels[depth][at];
            let from = levels[depth - 1].get(parent as usize).ok_or_else(lost)?.0;
            moves.push(self.chain(from, position)?);
            at = parent as usize;
        }
        moves.reverse();
        Ok(moves)
    }
}

/// Keeps in `pool` the `width` best candidates, one per canonical form.
fn best<W: Word>(pool: &mut Vec<Candidate<W>>, width: usize) {
    pool.par_sort_unstable_by_key(|c| (c.canonical, c.rank));
    pool.dedup_by_key(|c| c.canonical);
    if pool.len() > width {
        pool.select_nth_unstable_by_key(width, |c| c.rank);
        pool.truncate(width);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::peg_types::PegTypes;
    use crate::program::{Goal, Program};

    /// The beam's solution from `start` at `width`, checked: each move a
    /// chain of legal jumps by one piece, ending on a target; with `meet`,
    /// against the targets' first backward levels too.
    fn beam_moves(program: &Program, start: u64, width: usize, meet: bool) -> Option<usize> {
        let jumps: Jumps<u64> = Jumps::new(program).unwrap();
        let limits = Limits::default();
        let group = Symmetries::wide(program, &[start], &limits).unwrap();
        let Goal::Targets(targets) = program.goal() else {
            panic!("a target goal")
        };
        let mut targets: Vec<u64> = targets.iter().filter_map(u64::from_bits).collect();
        targets.sort_unstable();
        let candidates = Regions::candidates(program.cells(), &jumps.lines);
        let types = PegTypes::new(program.cells(), &jumps.lines);
        let packing = Regions::disjoint(&candidates);
        let ahead = Regions::pack_with(&packing, &candidates, &targets, types.as_ref());
        let groups: Vec<Symmetries<u64>> = targets
            .iter()
            .map(|&t| Symmetries::wide(program, &[t], &limits).unwrap())
            .collect();
        let behind = super::super::behind(&groups, start, (&packing, &candidates), types.as_ref());
        let within = start.count_ones();
        let sides = (&targets[..], &groups[..]);
        let behind = match meet {
            true => {
                let depths = (within, width);
                super::super::first_levels(&jumps, sides, &behind, depths, &limits, None)
            }
            false => Vec::new(),
        };
        let beam = Beam {
            cells: program.cells(),
            jumps: &jumps,
            group: &group,
            ahead: &ahead,
            targets: &targets,
            behind_bytes: behind.iter().map(Side::bytes).sum(),
            behind: &behind,
            observer: None,
        };
        let moves = beam.search(start, width, &limits).unwrap()?;
        let mut state = start;
        for chain in &moves {
            assert!(!chain.is_empty());
            for (k, &j) in chain.iter().enumerate() {
                assert!(jumps.masks.legal(state, j), "jump {j} from {state:#x}");
                if k > 0 {
                    assert_eq!(jumps.from[j], jumps.to[chain[k - 1]], "one piece a move");
                }
                state ^= jumps.masks.flip[j];
            }
        }
        assert!(targets.contains(&state), "ends on a target");
        Some(moves.len())
    }

    fn compiled(text: &str) -> Program {
        crate::Puzzle::parse(text, "beam.toml")
            .unwrap()
            .compile()
            .unwrap()
    }

    /// On every vacancy of the triangles of side 5 and 6, and at widths from one
    /// position a level to every position, with and without the targets'
    /// backward levels to meet, the beam's solutions replay, and never have
    /// fewer moves than the levels prove; meeting them finds a solution
    /// whenever the beam alone does, and none longer. With every position
    /// kept it is a plain search by levels, and finds the fewest.
    #[test]
    fn a_beams_solutions_replay_and_are_never_shorter_than_the_fewest() {
        for (side, fewest) in [
            (
                5,
                [10, 10, 10, 9, 11, 9, 10, 11, 11, 10, 10, 10, 9, 10, 10].to_vec(),
            ),
            (
                6,
                [
                    10, 9, 9, 9, 10, 9, 9, 9, 9, 9, 9, 10, 9, 10, 9, 10, 9, 9, 9, 9, 10,
                ]
                .to_vec(),
            ),
        ] {
            let shape: Vec<String> = (0..side)
                .map(|r| format!("\"{}{}\",", "o".repeat(r + 1), ".".repeat(side - r - 1)))
                .collect();
            let program = compiled(&format!(
                "name = \"t\"\nmetric = \"moves\"\n[board]\nlattice = \"triangular\"\n\
                 shape = [{}]\n[[moves]]\njump = \"triangular\"\n[goal]\n\
                 one-piece = \"anywhere\"\n",
                shape.join("")
            ));
            let full = (1u64 << program.cells()) - 1;
            for (v, &least) in fewest.iter().enumerate() {
                let start = full & !(1 << v);
                for width in [1, 2, 10, 100] {
                    let case = format!("side {side} hole {} width {width}", v + 1);
                    let alone = beam_moves(&program, start, width, false);
                    let met = beam_moves(&program, start, width, true);
                    // The same levels, with more ways to finish.
                    assert!(met <= alone || alone.is_none(), "{case}");
                    assert!(met.is_some() || alone.is_none(), "{case}");
                    assert!(met.is_none_or(|moves| moves >= least), "{case}");
                    assert!(alone.is_none_or(|moves| moves >= least), "{case}");
                }
                for meet in [false, true] {
                    assert_eq!(
                        beam_moves(&program, start, usize::MAX, meet),
                        Some(least),
                        "side {side} hole {}",
                        v + 1
                    );
                }
            }
        }
    }

    /// The English central game: beams of a thousand and of ten thousand
    /// positions a level find solutions, of at least the 18 moves proved.
    #[test]
    fn a_beam_finds_an_english_solution() {
        let entry = crate::catalogue::find("english33").unwrap();
        let program = compiled(&format!("metric = \"moves\"\n{}", entry.text));
        let full = (1u64 << program.cells()) - 1;
        let start = full & !(1 << 16);
        for width in [1000, 10_000] {
            let moves = beam_moves(&program, start, width, true).expect("a solution");
            assert!(moves >= 18, "width {width}: {moves}");
        }
    }
}
