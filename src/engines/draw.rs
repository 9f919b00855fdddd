//! Random boards for `generate`: candidates drawn over a linear puzzle's solvable boards, and boards played backwards from a peg puzzle's targets.
//!
//! **Coset draws.** A linear puzzle's board at distance `d` is one whose
//! fewest presses to some target is `d`. A candidate is drawn in one of two
//! ways, whichever has the smaller space to draw from:
//!
//! - *any solvable board*: a coset of the targets (`target + span(A)`, one
//!   per class of targets), then a uniformly random press set `x`; the board
//!   `target + A x` is uniform over the solvable boards. It is kept when its
//!   distance is `d`.
//! - *`d` presses*: a target, then `d` distinct moves, uniformly. A board is
//!   drawn this way once for each pair of a target and a press set of `d`
//!   moves that joins them, so it is kept with probability `1 / M`, `M` the
//!   number of such pairs, when its distance is `d`.
//!
//! Either way every board at distance `d` is kept with the same probability,
//! so the boards kept are uniform among them. A candidate's distance and `M`
//! come from walking each solution coset `x + null(A)` whole.
//!
//! **Backward play.** A peg board whose every move removes a piece is played
//! backwards from a target: a move played backwards puts its piece back. `k`
//! such moves, each chosen at random and taken back when it leads nowhere,
//! give a board the target is reachable from in `k` jumps, and in at most
//! `k` moves when a chain of jumps by one piece counts once. The boards are
//! not uniform.

use rand::RngExt;

use crate::bits::Bits;
use crate::engines::linear::Linear;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::program::Program;

/// How coset draws propose a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proposal {
    /// Any solvable board, uniformly.
    Solvable,
    /// A target and as many distinct presses as the distance, uniformly.
    Presses,
}

/// A linear puzzle's targets in classes (targets one press set apart share
/// one coset of solvable boards), ready to draw and judge candidates.
pub(crate) struct CosetDraw<'a> {
    program: &'a Program,
    linear: &'a Linear,
    targets: &'a [Bits],
    /// The targets of each class, by index.
    classes: Vec<Vec<usize>>,
    /// The class of each target.
    class_of: Vec<usize>,
}

/// What a candidate turned out to be.
pub(crate) struct Judged {
    /// Its distance: the fewest presses to any target.
    pub distance: u32,
    /// The pairs of a target and a press set of the distance asked for that
    /// give it (what a draw by presses weighs it by).
    pub ways: u128,
}

impl<'a> CosetDraw<'a> {
    /// Classes the targets; refuses, with the limit `coset-work`, a puzzle
    /// whose solution cosets are too large to walk for each candidate.
    pub(crate) fn new(
        program: &'a Program,
        linear: &'a Linear,
        targets: &'a [Bits],
        limits: &Limits,
    ) -> Result<CosetDraw<'a>> {
        // A candidate is a target plus the flips of the moves pressed.
        if let Some(reason) = program.unlisted_reason() {
            return Err(Error::Usage(format!(
                "drawing boards of this puzzle needs its moves listed: {reason}"
            )));
        }
        let nullity = linear.nullity();
        let words = program.move_count().div_ceil(64).max(1) as u128;
        let work = 1u128
            .checked_shl(nullity as u32)
            .unwrap_or(u128::MAX)
            .saturating_mul(words * targets.len() as u128);
        let what = format!(
            "the walk of the 2^{nullity} press sets of a drawn board's solution cosets, for each \
             of {} targets (word operations)",
            targets.len()
        );
        let hint = "each board drawn is judged by its fewest presses, found by walking its \
                    solution cosets whole";
        // Elimination keeps only the quiet patterns a walk within the limit can use.
        if linear.null_space().len() != nullity {
            return Err(limits.exceeded("coset-work", what, work, hint));
        }
        limits.check("coset-work", what, work, hint)?;
        let mut classes: Vec<Vec<usize>> = Vec::new();
        let mut class_of = Vec::with_capacity(targets.len());
        for (i, target) in targets.iter().enumerate() {
            let joined = classes.iter().position(|class| {
                let mut b = target.clone();
                b.xor_assign(&targets[class[0]]);
                linear.solve(program, &b).is_ok()
            });
            match joined {
                Some(c) => {
                    classes[c].push(i);
                    class_of.push(c);
                }
                None => {
                    class_of.push(classes.len());
                    classes.push(vec![i]);
                }
            }
        }
        Ok(CosetDraw {
            program,
            linear,
            targets,
            classes,
            class_of,
        })
    }

    /// The proposal with the smaller space for distance `d`: all solvable
    /// boards (`classes x 2^rank`) or targets x C(moves, d).
    pub(crate) fn proposal(&self, d: u32) -> Proposal {
        let solvable = self.classes.len() as f64 * 2f64.powi(self.linear.rank() as i32);
        let presses = self.targets.len() as f64 * binomial(self.program.move_count(), d as usize);
        if presses <= solvable {
            Proposal::Presses
        } else {
            Proposal::Solvable
        }
    }

    /// A candidate board and its class.
    pub(crate) fn propose(
        &self,
        rng: &mut impl RngExt,
        proposal: Proposal,
        d: u32,
    ) -> (Bits, usize) {
        let moves = self.program.move_count();
        let (target, presses) = match proposal {
            Proposal::Solvable => {
                let class = &self.classes[rng.random_range(0..self.classes.len())];
                let presses: Vec<usize> = (0..moves).filter(|_| rng.random::<bool>()).collect();
                (class[0], presses)
            }
            Proposal::Presses => (
                rng.random_range(0..self.targets.len()),
                subset(rng, moves, d as usize),
            ),
        };
        let mut board = self.targets[target].clone();
        for m in presses {
            for c in &self.program.moves()[m].flip {
                board.toggle(c.0);
            }
        }
        (board, self.class_of[target])
    }

    /// A candidate's distance, and its ways by press sets of `d` presses.
    pub(crate) fn judge(&self, board: &Bits, class: usize, d: u32) -> Result<Judged> {
        let mut distance = u32::MAX;
        let mut ways = 0u128;
        for &t in &self.classes[class] {
            let mut b = board.clone();
            b.xor_assign(&self.targets[t]);
            let x = self.linear.solve(self.program, &b).map_err(|_| {
                Error::Internal("a board drawn in a target's coset has no solution".into())
            })?;
            let (fewest, at_d) = walk(&x, self.linear.null_space(), d as usize);
            distance = distance.min(fewest as u32);
            ways += at_d;
        }
        Ok(Judged { distance, ways })
    }
}

/// The fewest presses in the coset `x + span(null)`, and how many of its
/// members have exactly `d` presses: a walk in Gray-code order.
fn walk(x: &Bits, null: &[Bits], d: usize) -> (usize, u128) {
    let mut current = x.clone();
    let mut fewest = x.count_ones();
    let mut at_d = u128::from(fewest == d);
    for i in 1u64..1u64 << null.len() {
        current.xor_assign(&null[i.trailing_zeros() as usize]);
        let w = current.count_ones();
        fewest = fewest.min(w);
        at_d += u128::from(w == d);
    }
    (fewest, at_d)
}

/// `C(n, k)` as a float (it only compares the sizes of two spaces).
fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}

/// `k` distinct members of `0..n`, uniformly (Floyd's algorithm).
fn subset(rng: &mut impl RngExt, n: usize, k: usize) -> Vec<usize> {
    let mut chosen = rustc_hash::FxHashSet::default();
    let mut out = Vec::with_capacity(k);
    for j in n - k.min(n)..n {
        let t = rng.random_range(0..=j);
        let pick = if chosen.insert(t) { t } else { j };
        chosen.insert(pick);
        out.push(pick);
    }
    out
}

/// One move as one-word masks, for play backwards.
struct Backward {
    need_on: u64,
    need_off: u64,
    flip: u64,
}

/// A peg puzzle's moves, played backwards.
pub(crate) struct BackwardPlay {
    moves: Vec<Backward>,
}

impl BackwardPlay {
    /// The moves of `program` (every move removes a piece, at most 64 cells).
    pub(crate) fn new(program: &Program) -> Result<BackwardPlay> {
        if program.cells() > 64 {
            return Err(Error::Internal(
                "backward play on more than 64 cells".into(),
            ));
        }
        let mask = |cells: &[crate::board::CellId]| cells.iter().fold(0u64, |m, c| m | 1 << c.0);
        let moves = program
            .moves()
            .iter()
            .map(|m| Backward {
                need_on: mask(&m.need_on),
                need_off: mask(&m.need_off),
                flip: mask(&m.flip),
            })
            .collect();
        Ok(BackwardPlay { moves })
    }

    /// Whether move `m` played backwards from `state` is legal: the state
    /// before it would allow it.
    fn undoes(&self, m: &Backward, state: u64) -> bool {
        let before = state ^ m.flip;
        before & m.need_on == m.need_on && before & m.need_off == 0
    }

    /// A board `jumps` moves before `target`: moves played back one at a
    /// time, each chosen at random among those open, and a choice that leads
    /// nowhere taken back (a depth-first search in random order). `None`
    /// when no board was reached within [`PLAY_BUDGET`] positions.
    pub(crate) fn play(&self, rng: &mut impl RngExt, target: u64, jumps: u32) -> Option<u64> {
        // Each level: its position and its open moves, shuffled, still to try.
        let mut path: Vec<(u64, Vec<u64>)> = vec![(target, self.open(rng, target))];
        let mut visited = 0usize;
        while path.len() <= jumps as usize {
            let (state, open) = path.last_mut()?;
            let Some(flip) = open.pop() else {
                path.pop();
                continue;
            };
            visited += 1;
            if visited > PLAY_BUDGET {
                return None;
            }
            let next = *state ^ flip;
            let moves = self.open(rng, next);
            path.push((next, moves));
        }
        path.last().map(|&(state, _)| state)
    }

    /// The moves that can be played back from `state`, as flips, in random order.
    fn open(&self, rng: &mut impl RngExt, state: u64) -> Vec<u64> {
        let mut open: Vec<u64> = self
            .moves
            .iter()
            .filter(|m| self.undoes(m, state))
            .map(|m| m.flip)
            .collect();
        for i in (1..open.len()).rev() {
            open.swap(i, rng.random_range(0..=i));
        }
        open
    }
}

/// The most positions one backward play visits before it gives up.
pub(crate) const PLAY_BUDGET: usize = 10_000;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn subsets_are_distinct_and_of_every_size() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for n in 0..12 {
            for k in 0..=n {
                let mut s = subset(&mut rng, n, k);
                s.sort();
                s.dedup();
                assert_eq!(s.len(), k);
                assert!(s.iter().all(|&i| i < n));
            }
        }
    }

    #[test]
    fn subsets_are_uniform() {
        // Every 2-subset of 0..4 about as often: 6 of them, 6,000 draws.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut seen = std::collections::BTreeMap::new();
        for _ in 0..6000 {
            let mut s = subset(&mut rng, 4, 2);
            s.sort();
            *seen.entry(s).or_insert(0u32) += 1;
        }
        assert_eq!(seen.len(), 6);
        assert!(seen.values().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn binomials_compare_spaces() {
        assert_eq!(binomial(25, 0), 1.0);
        assert_eq!(binomial(25, 3), 2300.0);
        assert_eq!(binomial(3, 4), 0.0);
    }
}
