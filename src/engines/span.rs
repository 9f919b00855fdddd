//! The span engine: a linear puzzle's solvable states as cosets of the moves' span, counted exactly and listed by a Gray-code walk.

use crate::bits::Bits;
use crate::engines::linear::{self, Linear};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::Count;
use crate::program::Program;

/// The solvable states of a linear puzzle without search: each target's coset
/// `target + span(moves)`, walked in Gray-code order over a basis of the
/// span, one XOR per state, when `list`. Cosets shared by two targets are
/// walked once. Returns the count, exact whatever its size.
pub(crate) fn states(
    program: &Program,
    linear: &Linear,
    targets: &[Bits],
    limits: &Limits,
    list: bool,
    distances: bool,
    visit: &mut dyn FnMut(&Bits, Option<u32>) -> bool,
) -> Result<Count> {
    let rank = linear.rank();
    // Distinct cosets: a target whose difference from an earlier one lies in
    // the span shares its coset. Each coset keeps its targets, each with a
    // press set that turns the coset's first target into it.
    let mut cosets: Vec<(&Bits, Vec<Bits>)> = Vec::new();
    for t in targets {
        let shared = cosets.iter_mut().find_map(|(c, presses)| {
            let mut d = (*c).clone();
            d.xor_assign(t);
            linear.solve(program, &d).ok().map(|y| (presses, y))
        });
        match shared {
            Some((presses, y)) => presses.push(y),
            None => cosets.push((t, vec![Bits::zeros(program.move_count())])),
        }
    }
    let count = Count {
        mult: cosets.len() as u128,
        shift: rank as u32,
    };
    if !list {
        return Ok(count);
    }
    // A distance is the fewest presses in a coset of the null space: exact
    // only when the whole null space can be walked.
    let null = linear.null_space();
    let words = program.move_count().div_ceil(64).max(1) as u128;
    let walkable = null.len() == linear.nullity()
        && null.len() < 64
        && (1u128 << null.len()) * words * targets.len() as u128 <= u128::from(limits.coset_work);
    let distances = distances && walkable;
    let distance = |x: &Bits, presses: &[Bits]| -> Option<u32> {
        if !distances {
            return None;
        }
        presses
            .iter()
            .map(|y| {
                let mut z = x.clone();
                z.xor_assign(y);
                let (best, _) = linear::fewest_presses(&z, null, null.len(), u64::MAX);
                best.count_ones() as u32
            })
            .min()
    };
    let mut basis = LazyBasis::new(program, rank);
    for (coset, presses) in cosets {
        let mut s = coset.clone();
        // The presses that take `s` back to the coset's first target.
        let mut x = Bits::zeros(program.move_count());
        if !visit(&s, distance(&x, &presses)) {
            return Ok(count);
        }
        // A u128 counter: past 2^128 states the walk could not finish anyway.
        let end = 1u128.checked_shl(rank as u32).unwrap_or(u128::MAX);
        for i in 1..end {
            let (flip, m) = basis.get(i.trailing_zeros() as usize)?;
            s.xor_assign(flip);
            if distances {
                x.toggle(m);
            }
            if !visit(&s, distance(&x, &presses)) {
                return Ok(count);
            }
        }
    }
    Ok(count)
}

/// A basis of the span of the moves' flips, found as the Gray-code walk
/// needs it: vector `k` is first used after `2^k` states, so a listing cut
/// short (`| head`) finds only the first few.
struct LazyBasis<'a> {
    flips: std::iter::Enumerate<Box<dyn Iterator<Item = Bits> + 'a>>,
    /// The basis so far in echelon form, by ascending lowest cell.
    echelon: Vec<(usize, Bits)>,
    /// Each basis vector: a move's flip, and the move.
    basis: Vec<(Bits, usize)>,
    rank: usize,
}

impl<'a> LazyBasis<'a> {
    fn new(program: &'a Program, rank: usize) -> LazyBasis<'a> {
        let cells = program.cells();
        let flips: Box<dyn Iterator<Item = Bits> + 'a> = match program.stencil() {
            Some(stencil) => Box::new((0..cells).map(move |c| {
                let mut one = Bits::zeros(cells);
                one.set(c, true);
                let mut image = Bits::zeros(cells);
                stencil.apply(&mut image, &one);
                image
            })),
            None => Box::new(program.moves().iter().map(move |m| {
                let mut v = Bits::zeros(cells);
                for c in &m.flip {
                    v.toggle(c.0);
                }
                v
            })),
        };
        LazyBasis {
            flips: flips.enumerate(),
            echelon: Vec::new(),
            basis: Vec::new(),
            rank,
        }
    }

    /// Basis vector `k`, and the move whose flip it is.
    fn get(&mut self, k: usize) -> Result<(&Bits, usize)> {
        while self.basis.len() <= k {
            let Some((m, flip)) = self.flips.next() else {
                return Err(Error::Internal(format!(
                    "the moves span {} dimensions, but elimination says rank {}",
                    self.basis.len(),
                    self.rank
                )));
            };
            let mut v = flip.clone();
            // Each echelon vector's cells all lie at or past its lowest one.
            for (lead, b) in &self.echelon {
                if v.get(*lead) {
                    v.xor_assign(b);
                }
            }
            let lead = v.ones_iter().next();
            if let Some(lead) = lead {
                let at = self.echelon.partition_point(|(l, _)| *l < lead);
                self.echelon.insert(at, (lead, v));
                self.basis.push((flip, m));
            }
        }
        let (flip, m) = &self.basis[k];
        Ok((flip, *m))
    }
}
