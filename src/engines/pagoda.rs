//! Pagoda functions: weights on the holes that no jump increases, found by linear programming from positions that cannot reach a goal, checked exactly, and the positions they cut off.
//!
//! A pagoda function gives each hole an integer weight such that, for every
//! jump from `a` over `b` into `c`, `w(a) + w(b) >= w(c)`. A position's value
//! is the sum of the weights of its pegs; a jump takes away the pegs on `a`
//! and `b` and puts one on `c`, so no jump increases it. A position whose
//! value is below every target's cannot reach a target, and one whose value
//! is above every start's cannot be reached from a start.
//!
//! The functions are not chosen by hand: a search hands in positions of its
//! own levels as witnesses, and for each one that the functions so far do
//! not cut off, a linear program (microlp) looks for the weights, each
//! between -1 and 1, that separate it from the ends the most. A positive
//! optimum proves the witness cut off; its weights are scaled to integers
//! and checked again exactly (every jump's inequality, the witness's value
//! against the ends'), so a rounding error can only lose a function, never
//! make a wrong cut. Each function joins with its images under the side's
//! symmetries, so that the cut holds for a whole orbit and can be tested on
//! any of its positions.

use microlp::{ComparisonOp, OptimizationDirection, Problem};
use rayon::prelude::*;
use rustc_hash::FxHashSet;

use crate::symmetry::Symmetries;
use crate::word::Word;

/// The most functions found by linear programming for one side, before
/// their images; each costs every new position a look-up per byte.
const MOST_FOUND: usize = 12;

/// Functions summed at once.
const LANES: usize = 16;

/// The largest denominator tried when the program's weights are scaled to integers.
const MOST_DENOMINATOR: i64 = 64;

/// Pagoda functions closed under a side's symmetries, with the ends they
/// measure against: the targets ahead of a position (forward) or the starts
/// behind it (backward).
#[derive(Clone)]
pub(crate) struct Pagodas<W: Word = u64> {
    forward: bool,
    /// The board's jumps: from, over, to.
    lines: Vec<[usize; 3]>,
    cells: usize,
    /// The ends, as masks of pegs.
    ends: Vec<W>,
    /// The side's symmetries, as cell permutations.
    perms: Vec<Vec<usize>>,
    /// Each function's weights, per cell.
    weights: Vec<Vec<i32>>,
    /// Per lane (a function, or padding that keeps everything): forward, the
    /// least value of an end (a position must reach it); backward, the
    /// greatest (a position must not pass it).
    limit: Vec<i16>,
    /// Per byte of a position, per byte value, per lane: the weight of those
    /// pegs. Lanes come in runs of [`LANES`], summed a run at a time.
    table: Vec<i16>,
    /// The functions found by linear programming (their images not counted).
    found: usize,
    /// The witnesses handed to linear programming so far (each is tried once).
    tried: FxHashSet<W>,
}

impl<W: Word> Pagodas<W> {
    /// No functions yet, for a side searched `forward` (ends: the targets)
    /// or backward (ends: the starts), on a board of `cells` holes with these
    /// jumps, up to `group`. Every end's images under the group are ends.
    pub(crate) fn new(
        cells: usize,
        lines: &[[usize; 3]],
        ends: &[W],
        forward: bool,
        group: &Symmetries<W>,
    ) -> Pagodas<W> {
        let perms = group.perms().to_vec();
        let mut all: Vec<W> = ends
            .iter()
            .flat_map(|&e| (0..group.len()).map(move |k| group.apply(k, e)))
            .collect();
        all.sort_unstable();
        all.dedup();
        Pagodas {
            forward,
            lines: lines.to_vec(),
            cells,
            ends: all,
            perms,
            weights: Vec::new(),
            limit: Vec::new(),
            table: Vec::new(),
            found: 0,
            tried: FxHashSet::default(),
        }
    }

    /// The functions found by linear programming, images not counted.
    pub(crate) fn found(&self) -> usize {
        self.found
    }

    /// Whether no function held cuts `position` off from the ends.
    #[inline]
    pub(crate) fn keeps(&self, position: W) -> bool {
        let lanes = self.limit.len();
        let bytes = self.bytes();
        let rows: [&[i16]; 16] = std::array::from_fn(|byte| {
            if byte >= bytes {
                return &[][..];
            }
            let at = (byte * 256 + position.byte(byte)) * lanes;
            &self.table[at..at + lanes]
        });
        let rows = &rows[..bytes];
        self.limit
            .chunks_exact(LANES)
            .enumerate()
            .all(|(run, limit)| {
                let mut sum = [0i16; LANES];
                for row in rows {
                    for (s, &w) in sum.iter_mut().zip(&row[run * LANES..(run + 1) * LANES]) {
                        *s += w;
                    }
                }
                if self.forward {
                    sum.iter().zip(limit).all(|(s, l)| s >= l)
                } else {
                    sum.iter().zip(limit).all(|(s, l)| s <= l)
                }
            })
    }

    /// Looks for a function that cuts off each witness the held ones keep,
    /// (and was not tried before) until [`MOST_FOUND`] are found; returns
    /// how many were found now.
    pub(crate) fn learn(&mut self, witnesses: &[W]) -> usize {
        let before = self.found;
        if self.found >= MOST_FOUND {
            return 0;
        }
        let fresh: Vec<W> = witnesses
            .iter()
            .copied()
            .filter(|&w| self.keeps(w) && self.tried.insert(w))
            .collect();
        // The linear programs run on rayon's threads; their functions are added
        // in the witnesses' order, each only if its witness is still kept.
        let found: Vec<(W, Vec<i32>)> = fresh
            .par_iter()
            .filter_map(|&w| self.separate(w).map(|weights| (w, weights)))
            .collect();
        for (w, weights) in found {
            if self.found < MOST_FOUND && self.keeps(w) {
                self.add(&weights);
                self.found += 1;
            }
        }
        self.found - before
    }

    /// Adds a function and its images under the side's symmetries (each once).
    fn add(&mut self, weights: &[i32]) {
        for perm in &self.perms {
            let mut image = vec![0i32; self.cells];
            for (cell, &w) in weights.iter().enumerate() {
                image[perm[cell]] = w;
            }
            if self.weights.contains(&image) {
                continue;
            }
            self.weights.push(image);
        }
        self.tabulate();
    }

    /// The bytes of a position that hold its cells.
    fn bytes(&self) -> usize {
        self.cells.div_ceil(8)
    }

    /// The lanes' limits and tables, from the functions' weights.
    fn tabulate(&mut self) {
        let lanes = self.weights.len().div_ceil(LANES) * LANES;
        let (pass, fold): (i16, fn(i32, i32) -> i32) = if self.forward {
            (i16::MIN, i32::min)
        } else {
            (i16::MAX, i32::max)
        };
        self.limit = vec![pass; lanes];
        let bytes = self.bytes();
        self.table = vec![0; bytes * 256 * lanes];
        for (f, w) in self.weights.iter().enumerate() {
            let values = self.ends.iter().map(|&e| value(w, e));
            // Weights are at most MOST_DENOMINATOR and a position has at most 128
            // pegs, so every value fits in 16 bits.
            self.limit[f] = values.reduce(fold).map_or(pass, |v| v as i16);
            for byte in 0..bytes {
                for v in 0..256 {
                    self.table[(byte * 256 + v) * lanes + f] =
                        value(w, W::from_u64(v as u64) << (8 * byte as u32)) as i16;
                }
            }
        }
    }

    /// A pagoda function that cuts `witness` off from the ends, if the
    /// linear program finds one and it holds once scaled to integers.
    fn separate(&self, witness: W) -> Option<Vec<i32>> {
        let sign = if self.forward { 1.0 } else { -1.0 };
        let mut lp = Problem::new(OptimizationDirection::Maximize);
        // Maximise (forward) the least end's value less the witness's; backward,
        // the witness's value less the greatest end's.
        let bound = self.cells as f64;
        let z = lp.add_var(sign, (-bound, bound));
        let p: Vec<_> = (0..self.cells)
            .map(|c| {
                let coeff = if witness.has(c) { -sign } else { 0.0 };
                lp.add_var(coeff, (-1.0, 1.0))
            })
            .collect();
        for &[from, over, to] in &self.lines {
            lp.add_constraint(
                [(p[from], 1.0), (p[over], 1.0), (p[to], -1.0)],
                ComparisonOp::Ge,
                0.0,
            );
        }
        for &end in &self.ends {
            let mut terms = vec![(z, -sign)];
            terms.extend(
                (0..self.cells)
                    .filter(|&c| end.has(c))
                    .map(|c| (p[c], sign)),
            );
            lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
        }
        // The solver is young: it may cycle (stopped after a second) or panic
        // on a hard program. Either only loses a function, since whatever it
        // returns is checked below.
        lp.set_time_limit(std::time::Duration::from_secs(1));
        let solved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lp.solve()));
        let solution = solved.ok()?.ok()?.into_solution().ok()?;
        if solution.objective() <= 1e-6 {
            return None;
        }
        let real: Vec<f64> = p.iter().map(|&v| solution.var_value(v)).collect();
        let weights = integers(&real)?;
        let cuts = |w: &[i32]| {
            let own = value(w, witness);
            let values = self.ends.iter().map(|&e| value(w, e));
            if self.forward {
                values.min().is_some_and(|least| own < least)
            } else {
                values.max().is_some_and(|most| own > most)
            }
        };
        (is_pagoda(&weights, &self.lines) && cuts(&weights)).then_some(weights)
    }
}

/// The value of `position`: the weights of its pegs, summed.
fn value<W: Word>(weights: &[i32], position: W) -> i32 {
    weights
        .iter()
        .enumerate()
        .filter(|&(c, _)| position.has(c))
        .map(|(_, &w)| w)
        .sum()
}

/// Whether no jump increases the value: `w(from) + w(over) >= w(to)` for each.
pub(crate) fn is_pagoda(weights: &[i32], lines: &[[usize; 3]]) -> bool {
    lines
        .iter()
        .all(|&[from, over, to]| weights[from] + weights[over] >= weights[to])
}

/// Real weights as integers in the same proportions: the least denominator
/// up to [`MOST_DENOMINATOR`] that makes every weight whole.
fn integers(real: &[f64]) -> Option<Vec<i32>> {
    (1..=MOST_DENOMINATOR).find_map(|d| {
        let scaled: Vec<f64> = real.iter().map(|&x| x * d as f64).collect();
        scaled
            .iter()
            .all(|&x| (x - x.round()).abs() < 1e-6)
            .then(|| scaled.iter().map(|&x| x.round() as i32).collect())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    fn english() -> crate::program::Program {
        let entry = crate::catalogue::find("english33").unwrap();
        crate::Puzzle::parse(entry.text, "english33")
            .unwrap()
            .compile()
            .unwrap()
    }

    fn lines(program: &crate::program::Program) -> Vec<[usize; 3]> {
        program
            .moves()
            .iter()
            .map(|m| [m.cells[0].0, m.cells[1].0, m.cells[2].0])
            .collect()
    }

    #[test]
    fn scaled_weights_are_whole_or_refused() {
        assert_eq!(integers(&[0.5, -1.0, 0.25]), Some(vec![2, -4, 1]));
        assert_eq!(integers(&[1.0 / 3.0, 0.0]), Some(vec![1, 0]));
        assert_eq!(integers(&[std::f64::consts::PI]), None);
    }

    #[test]
    fn found_functions_are_pagodas_and_cut_only_what_cannot_reach() {
        let program = english();
        let lines = lines(&program);
        let centre = 1u64 << 16;
        let group = Symmetries::of(&program, &[centre], &Limits::default()).unwrap();
        let mut pagodas = Pagodas::new(program.cells(), &lines, &[centre], true, &group);
        // Two pegs in opposite corners of the cross cannot end as one peg in the centre.
        let apart = 1u64 | 1 << 32;
        assert!(pagodas.keeps(apart));
        assert_eq!(pagodas.learn(&[apart, centre]), 1);
        assert!(!pagodas.keeps(apart));
        assert!(pagodas.keeps(centre));
        assert!(!pagodas.weights.is_empty() && pagodas.found() == 1);
        for w in &pagodas.weights {
            assert!(is_pagoda(w, &lines));
        }
        // Cut positions cannot reach the centre: checked against the positions
        // that can, found backward from it by reversed jumps.
        let mut reach = vec![centre];
        let mut seen: rustc_hash::FxHashSet<u64> = reach.iter().copied().collect();
        while let Some(s) = reach.pop() {
            assert!(pagodas.keeps(s), "{s:#x} reaches the centre");
            if s.count_ones() >= 6 {
                continue;
            }
            for &[from, over, to] in &lines {
                let (a, b, c) = (1u64 << from, 1u64 << over, 1u64 << to);
                if s & c != 0 && s & (a | b) == 0 && seen.insert(s ^ a ^ b ^ c) {
                    reach.push(s ^ a ^ b ^ c);
                }
            }
        }
        assert!(seen.len() > 1000);
    }
}
