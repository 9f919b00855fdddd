//! Linear algebra over Z_k, the integers modulo any k ≥ 2: solutions, certificates, kernels and image sizes, exact for composite k too.
//!
//! A toggle puzzle of k colours is `A x = b (mod k)`: column `j` of `A` is
//! what move `j` adds to each cell, `x` how often each move is pressed, `b`
//! the board's difference from the target. Z_k is a field only for prime k,
//! so elimination is done one prime power `q = p^e` of `k` at a time, and the
//! answers are joined by the Chinese remainder theorem.
//!
//! Over Z_q every matrix has a Smith normal form `L A V = D`, with `L` and `V`
//! invertible and `D` diagonal with entries `p^v`: the pivot chosen at each
//! step is an entry of least p-adic valuation, which divides every entry
//! left, so its row and column clear with no division by a non-unit. From it:
//!
//! - `A x = b` is solvable iff each `c = L b` has `p^v_t | c_t` (and `c_t = 0`
//!   past the rank); then `x = V y` with `y_t = c_t / p^v_t`;
//! - otherwise a row of `L`, scaled by `p^(e - v_t)`, is a certificate: a `y`
//!   with `y A = 0` and `y · b ≠ 0`, so no press counts reach the target;
//! - the kernel is the direct sum of the cyclic groups of `p^(e - v_t) V_t`
//!   (order `p^v_t`) and of the columns of `V` past the rank (order `q`).
//!
//! ```
//! use pegflip::zk::System;
//!
//! // Three cells in a ring, each press adding 1 to every cell, mod 3.
//! let a = vec![vec![1, 1, 1], vec![1, 1, 1], vec![1, 1, 1]];
//! let system = System::new(3, &a)?;
//! assert_eq!((system.rank(), system.nullity()), (Some(1), Some(2)));
//! assert_eq!(system.image().to_string(), "3");
//! let x = system.solve(&[2, 2, 2]).unwrap();
//! assert_eq!(system.apply(&x), vec![2, 2, 2]);
//! // No presses give [1, 0, 0], and the certificate proves it.
//! let y = system.solve(&[1, 0, 0]).unwrap_err();
//! assert!(system.is_certificate(&y, &[1, 0, 0]));
//! # Ok::<(), pegflip::Error>(())
//! ```

use crate::error::{Error, Result};

pub mod field;
pub(crate) mod lanes;

/// The largest modulus: products of two residues fit in 64 bits.
pub const MAX_MODULUS: u64 = 1 << 32;

/// `A` over Z_k, eliminated one prime power at a time.
#[derive(Clone, Debug)]
pub struct System {
    k: u64,
    rows: usize,
    cols: usize,
    a: Vec<Vec<u64>>,
    parts: Vec<PrimePower>,
}

/// The Smith normal form of `A` over Z_q, `q = p^e`: `L A V = D`.
#[derive(Clone, Debug)]
struct PrimePower {
    p: u64,
    e: u32,
    q: u64,
    /// Rows × rows.
    l: Vec<Vec<u64>>,
    /// Columns × columns.
    v: Vec<Vec<u64>>,
    /// The valuation of each pivot, in order: `D[t][t] = p^valuations[t]`.
    valuations: Vec<u32>,
}

/// The size of a finite group, as its prime factors with their exponents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Order(pub Vec<(u64, u64)>);

impl Order {
    /// The number, when it fits in 128 bits.
    pub fn to_u128(&self) -> Option<u128> {
        self.0.iter().try_fold(1u128, |n, &(p, e)| {
            let e = u32::try_from(e).ok()?;
            n.checked_mul(u128::from(p).checked_pow(e)?)
        })
    }
}

impl std::fmt::Display for Order {
    /// The number in decimal, exactly, however large.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Little-endian base-10^9 limbs, multiplied by each prime in turn.
        let mut limbs: Vec<u64> = vec![1];
        for &(p, e) in &self.0 {
            for _ in 0..e {
                let mut carry = 0u64;
                for limb in &mut limbs {
                    let v = *limb * p + carry;
                    *limb = v % 1_000_000_000;
                    carry = v / 1_000_000_000;
                }
                while carry > 0 {
                    limbs.push(carry % 1_000_000_000);
                    carry /= 1_000_000_000;
                }
            }
        }
        let mut text = limbs.last().map_or(String::new(), u64::to_string);
        for limb in limbs.iter().rev().skip(1) {
            text.push_str(&format!("{limb:09}"));
        }
        f.write_str(&text)
    }
}

/// The prime powers of `k`, smallest prime first.
pub fn prime_powers(k: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut n = k;
    let mut p = 2;
    while p * p <= n {
        if n.is_multiple_of(p) {
            let mut e = 0;
            while n.is_multiple_of(p) {
                n /= p;
                e += 1;
            }
            out.push((p, e));
        }
        p += 1;
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

fn mul(a: u64, b: u64, q: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(q)) as u64
}

/// The inverse of a unit `a` modulo `q`.
fn inverse(a: u64, q: u64) -> u64 {
    let (mut r0, mut r1) = (i128::from(q), i128::from(a % q));
    let (mut s0, mut s1) = (0i128, 1i128);
    while r1 != 0 {
        let t = r0 / r1;
        (r0, r1) = (r1, r0 - t * r1);
        (s0, s1) = (s1, s0 - t * s1);
    }
    s0.rem_euclid(i128::from(q)) as u64
}

/// The p-adic valuation of `a` modulo `q = p^e` (`e` for zero).
fn valuation(a: u64, p: u64, e: u32) -> u32 {
    let mut a = a;
    let mut v = 0;
    while v < e && a.is_multiple_of(p) {
        a /= p;
        v += 1;
    }
    if a == 0 { e } else { v }
}

/// Visits every member of the coset `x + kernel` once: a mixed-radix counter
/// over the generators, `current` being `x` plus each generator times its
/// digit. A step raises digit `i` by one and sets the digits below it from
/// `order - 1` back to 0, which adds their generators once more each (a
/// generator times its order is nothing).
pub fn walk(x: &[u64], kernel: &[(Vec<u64>, u64)], k: u64, mut visit: impl FnMut(&[u64])) {
    let mut digits = vec![0u64; kernel.len()];
    let mut current = x.to_vec();
    visit(&current);
    while let Some(i) = (0..kernel.len()).find(|&i| digits[i] + 1 < kernel[i].1) {
        for (j, (digit, (g, _))) in digits.iter_mut().zip(kernel).enumerate().take(i + 1) {
            *digit = if j == i { *digit + 1 } else { 0 };
            for (c, v) in current.iter_mut().zip(g) {
                *c = (*c + v) % k;
            }
        }
        visit(&current);
    }
}

fn identity(n: usize) -> Vec<Vec<u64>> {
    (0..n)
        .map(|i| (0..n).map(|j| u64::from(i == j)).collect())
        .collect()
}

impl PrimePower {
    fn new(a: &[Vec<u64>], rows: usize, cols: usize, p: u64, e: u32) -> PrimePower {
        let q = p.pow(e);
        let mut m: Vec<Vec<u64>> = a
            .iter()
            .map(|r| r.iter().map(|&x| x % q).collect())
            .collect();
        let mut l = identity(rows);
        let mut v = identity(cols);
        let mut valuations = Vec::new();
        for t in 0..rows.min(cols) {
            // The entry of least valuation left divides every other.
            let mut best: Option<(u32, usize, usize)> = None;
            for (i, row) in m.iter().enumerate().skip(t) {
                for (j, &x) in row.iter().enumerate().skip(t) {
                    let val = valuation(x, p, e);
                    if val < e && best.is_none_or(|(b, _, _)| val < b) {
                        best = Some((val, i, j));
                    }
                }
                if best.is_some_and(|(b, _, _)| b == 0) {
                    break;
                }
            }
            let Some((val, i, j)) = best else { break };
            m.swap(t, i);
            l.swap(t, i);
            for row in m.iter_mut() {
                row.swap(t, j);
            }
            for row in v.iter_mut() {
                row.swap(t, j);
            }
            // Scale the pivot row so that the pivot is p^val.
            let unit = inverse(m[t][t] / p.pow(val), q);
            for x in m[t].iter_mut().chain(l[t].iter_mut()) {
                *x = mul(*x, unit, q);
            }
            let pivot = p.pow(val);
            let (pivot_row, pivot_l) = (m[t].clone(), l[t].clone());
            for (i, (row, l_row)) in m.iter_mut().zip(l.iter_mut()).enumerate() {
                if i == t || row[t] == 0 {
                    continue;
                }
                let c = (q - row[t] / pivot) % q;
                for (x, &y) in row.iter_mut().zip(&pivot_row) {
                    *x = (*x + mul(c, y, q)) % q;
                }
                for (x, &y) in l_row.iter_mut().zip(&pivot_l) {
                    *x = (*x + mul(c, y, q)) % q;
                }
            }
            for j in t + 1..cols {
                if m[t][j] == 0 {
                    continue;
                }
                let c = (q - m[t][j] / pivot) % q;
                for row in m.iter_mut() {
                    row[j] = (row[j] + mul(c, row[t], q)) % q;
                }
                for row in v.iter_mut() {
                    row[j] = (row[j] + mul(c, row[t], q)) % q;
                }
            }
            valuations.push(val);
        }
        PrimePower {
            p,
            e,
            q,
            l,
            v,
            valuations,
        }
    }

    /// `x` with `A x = b` over Z_q, or a certificate `y` (`y A = 0`, `y · b ≠ 0`).
    fn solve(&self, b: &[u64]) -> std::result::Result<Vec<u64>, Vec<u64>> {
        let q = self.q;
        let c: Vec<u64> = self
            .l
            .iter()
            .map(|row| {
                row.iter()
                    .zip(b)
                    .fold(0, |s, (&x, &y)| (s + mul(x, y % q, q)) % q)
            })
            .collect();
        let rank = self.valuations.len();
        let mut y = vec![0u64; self.v.len()];
        for (t, &ct) in c.iter().enumerate() {
            let need = self.valuations.get(t).copied().unwrap_or(self.e);
            if valuation(ct, self.p, self.e) < need {
                // Row t of L, scaled to kill every column: it sees b.
                let scale = self.p.pow(self.e - need);
                return Err(self.l[t].iter().map(|&x| mul(x, scale, q)).collect());
            }
            if t < rank {
                y[t] = ct / self.p.pow(need);
            }
        }
        Ok(self
            .v
            .iter()
            .map(|row| {
                row.iter()
                    .zip(&y)
                    .fold(0, |s, (&x, &y)| (s + mul(x, y, q)) % q)
            })
            .collect())
    }

    /// Press counts whose boards generate the image over Z_q, each with
    /// its board's order: with `L A V = D`, `A` times column t of `V` is
    /// `p^val_t` times column t of `L⁻¹`, and those columns are a basis.
    fn image_presses(&self) -> Vec<(Vec<u64>, u64)> {
        self.valuations
            .iter()
            .enumerate()
            .filter(|&(_, &val)| val < self.e)
            .map(|(t, &val)| {
                let column = self.v.iter().map(|row| row[t]).collect();
                (column, self.p.pow(self.e - val))
            })
            .collect()
    }

    /// The kernel's cyclic generators over Z_q, each with its order.
    fn kernel(&self) -> Vec<(Vec<u64>, u64)> {
        let cols = self.v.len();
        (0..cols)
            .filter_map(|t| {
                let val = self.valuations.get(t).copied().unwrap_or(self.e);
                if val == 0 {
                    return None;
                }
                let scale = self.p.pow(self.e - val);
                let column = self
                    .v
                    .iter()
                    .map(|row| mul(row[t], scale, self.q))
                    .collect();
                Some((column, self.p.pow(val)))
            })
            .collect()
    }
}

impl System {
    /// Eliminates `a` (one row per cell, one column per move) over Z_k.
    /// Refused for k below 2 or past [`MAX_MODULUS`], and for rows of
    /// unequal length.
    pub fn new(k: u64, a: &[Vec<u64>]) -> Result<System> {
        if !(2..=MAX_MODULUS).contains(&k) {
            return Err(Error::Usage(format!(
                "a modulus is from 2 to {MAX_MODULUS}, not {k}"
            )));
        }
        let rows = a.len();
        let cols = a.first().map_or(0, Vec::len);
        if a.iter().any(|r| r.len() != cols) {
            return Err(Error::Internal(
                "a matrix with rows of unequal length".into(),
            ));
        }
        let parts = prime_powers(k)
            .into_iter()
            .map(|(p, e)| PrimePower::new(a, rows, cols, p, e))
            .collect();
        let a = a
            .iter()
            .map(|r| r.iter().map(|&x| x % k).collect())
            .collect();
        Ok(System {
            k,
            rows,
            cols,
            a,
            parts,
        })
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.k
    }

    /// `A x` over Z_k.
    pub fn apply(&self, x: &[u64]) -> Vec<u64> {
        self.a
            .iter()
            .map(|row| {
                row.iter()
                    .zip(x)
                    .fold(0, |s, (&a, &x)| (s + mul(a, x % self.k, self.k)) % self.k)
            })
            .collect()
    }

    /// The rank, for prime k (a field); `None` for composite k, where the
    /// image's size ([`System::image`]) says what rank would.
    pub fn rank(&self) -> Option<usize> {
        match self.parts.as_slice() {
            [part] if part.e == 1 => Some(part.valuations.len()),
            _ => None,
        }
    }

    /// The nullity, for prime k: moves minus rank.
    pub fn nullity(&self) -> Option<usize> {
        self.rank().map(|r| self.cols - r)
    }

    /// How many boards `A x` reaches: the solvable boards for each target.
    pub fn image(&self) -> Order {
        let mut order = Order::default();
        for part in &self.parts {
            let exponent: u64 = part.valuations.iter().map(|&v| u64::from(part.e - v)).sum();
            if exponent > 0 {
                order.0.push((part.p, exponent));
            }
        }
        order
    }

    /// How many press counts do nothing: `k^moves / image`.
    pub fn kernel_size(&self) -> Order {
        let mut order = Order::default();
        for part in &self.parts {
            let exponent: u64 = part
                .kernel()
                .iter()
                .map(|&(_, o)| u64::from(o.ilog(part.p)))
                .sum();
            if exponent > 0 {
                order.0.push((part.p, exponent));
            }
        }
        order
    }

    /// Press counts `x` with `A x = b`, or a certificate: `y` with `y A = 0`
    /// and `y · b ≠ 0` (mod k), which no press counts can get past.
    pub fn solve(&self, b: &[u64]) -> std::result::Result<Vec<u64>, Vec<u64>> {
        let k = u128::from(self.k);
        let mut x = vec![0u64; self.cols];
        for part in &self.parts {
            // The idempotent of this prime power: 1 mod q, 0 mod the rest.
            let rest = self.k / part.q;
            let lift = |y: &[u64], by: u64| -> Vec<u64> {
                y.iter()
                    .map(|&v| ((u128::from(v) * u128::from(by)) % k) as u64)
                    .collect()
            };
            match part.solve(b) {
                Ok(xq) => {
                    let e = mul(rest, inverse(rest % part.q, part.q), self.k);
                    for (xi, v) in x.iter_mut().zip(lift(&xq, e)) {
                        *xi = (*xi + v) % self.k;
                    }
                }
                Err(y) => return Err(lift(&y, rest)),
            }
        }
        Ok(x)
    }

    /// The press counts with the fewest presses in all (pressing a button
    /// `t` times costs `t`, `0 <= t < k`) among those with `A x = b`, or the
    /// certificate when there are none. Exact: the whole solution coset is
    /// walked, one kernel element at a time; refused, with the limit
    /// `coset-work`, when its size times the moves passes it.
    pub fn fewest_presses(
        &self,
        b: &[u64],
        limits: &crate::limits::Limits,
    ) -> Result<std::result::Result<Vec<u64>, Vec<u64>>> {
        let x = match self.solve(b) {
            Ok(x) => x,
            Err(y) => return Ok(Err(y)),
        };
        let kernel = self.kernel();
        let size = kernel
            .iter()
            .try_fold(1u128, |n, &(_, order)| n.checked_mul(u128::from(order)));
        let work = size.map_or(u128::MAX, |n| n.saturating_mul(self.cols.max(1) as u128));
        limits.check(
            "coset-work",
            format!(
                "the walk of the {} press counts that give the same board, for the fewest \
                 presses (moves x members)",
                self.kernel_size()
            ),
            work,
            "the solution coset has (kernel size) members, each walked once",
        )?;
        let cost = |x: &[u64]| x.iter().map(|&t| u128::from(t)).sum::<u128>();
        let mut best = x.clone();
        let mut best_cost = cost(&x);
        walk(&x, &kernel, self.k, |member| {
            let c = cost(member);
            if c < best_cost {
                (best, best_cost) = (member.to_vec(), c);
            }
        });
        Ok(Ok(best))
    }

    /// Whether `y` proves `b` unreachable: `y A = 0` and `y · b ≠ 0` (mod k).
    pub fn is_certificate(&self, y: &[u64], b: &[u64]) -> bool {
        let k = self.k;
        let kills = (0..self.cols).all(|j| {
            self.a
                .iter()
                .zip(y)
                .fold(0, |s, (row, &yi)| (s + mul(row[j], yi % k, k)) % k)
                == 0
        });
        let sees = y
            .iter()
            .zip(b)
            .fold(0, |s, (&yi, &bi)| (s + mul(yi % k, bi % k, k)) % k)
            != 0;
        y.len() == self.rows && kills && sees
    }

    /// Press counts `w` whose boards `A w` generate the image over Z_k,
    /// each with its board's order: every board the presses reach is one
    /// sum of multiples of those boards, in exactly one way when each
    /// multiple is below its order.
    pub fn image_presses(&self) -> Vec<(Vec<u64>, u64)> {
        let k = u128::from(self.k);
        self.parts
            .iter()
            .flat_map(|part| {
                // Times the other prime powers: 0 there, a unit times the column mod q.
                let rest = u128::from(self.k / part.q);
                part.image_presses().into_iter().map(move |(w, order)| {
                    let lifted = w
                        .iter()
                        .map(|&v| ((u128::from(v) * rest) % k) as u64)
                        .collect();
                    (lifted, order)
                })
            })
            .collect()
    }

    /// Generators of the kernel over Z_k, each with its order: every press
    /// count that does nothing is one sum of multiples of them, in exactly
    /// one way when each multiple is below its order.
    pub fn kernel(&self) -> Vec<(Vec<u64>, u64)> {
        let k = u128::from(self.k);
        self.parts
            .iter()
            .flat_map(|part| {
                let rest = u128::from(self.k / part.q);
                part.kernel().into_iter().map(move |(g, order)| {
                    let lifted = g
                        .iter()
                        .map(|&v| ((u128::from(v) * rest) % k) as u64)
                        .collect();
                    (lifted, order)
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A small generator, for the matrices these tests draw.
    struct Draw(u64);

    impl Draw {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    /// Every vector of Z_k^n.
    fn all(k: u64, n: usize) -> Vec<Vec<u64>> {
        let mut out = vec![vec![]];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|v| {
                    (0..k).map(move |x| {
                        let mut w = v.clone();
                        w.push(x);
                        w
                    })
                })
                .collect();
        }
        out
    }

    /// Every claim of a system against brute force: the image, the kernel,
    /// each board solved or refuted by a certificate.
    fn against_brute_force(k: u64, a: &[Vec<u64>]) {
        let system = System::new(k, a).unwrap();
        let (rows, cols) = (a.len(), a[0].len());
        let image: BTreeSet<Vec<u64>> = all(k, cols).iter().map(|x| system.apply(x)).collect();
        let kernel: BTreeSet<Vec<u64>> = all(k, cols)
            .into_iter()
            .filter(|x| system.apply(x).iter().all(|&v| v == 0))
            .collect();
        assert_eq!(
            system.image().to_u128(),
            Some(image.len() as u128),
            "{k} {a:?}"
        );
        assert_eq!(
            system.kernel_size().to_u128(),
            Some(kernel.len() as u128),
            "{k} {a:?}"
        );
        // The generators span exactly the kernel, each combination once.
        let mut spanned = BTreeSet::from([vec![0u64; cols]]);
        let mut combinations = 1u128;
        for (g, order) in system.kernel() {
            assert!(system.apply(&g).iter().all(|&v| v == 0));
            combinations *= u128::from(order);
            spanned = spanned
                .iter()
                .flat_map(|s| {
                    (0..order).map(|t| s.iter().zip(&g).map(|(&a, &b)| (a + t * b) % k).collect())
                })
                .collect();
        }
        assert_eq!(spanned, kernel, "{k} {a:?}");
        assert_eq!(combinations, kernel.len() as u128);
        // The walk visits each member of a coset once.
        let x: Vec<u64> = (0..cols as u64).map(|i| i % k).collect();
        let mut visited = Vec::new();
        walk(&x, &system.kernel(), k, |m| visited.push(m.to_vec()));
        let coset: BTreeSet<Vec<u64>> = kernel
            .iter()
            .map(|z| x.iter().zip(z).map(|(&a, &b)| (a + b) % k).collect())
            .collect();
        assert_eq!(visited.len(), coset.len(), "{k} {a:?}");
        assert_eq!(
            visited.into_iter().collect::<BTreeSet<_>>(),
            coset,
            "{k} {a:?}"
        );
        for b in all(k, rows) {
            match system.solve(&b) {
                Ok(x) => assert_eq!(system.apply(&x), b, "{k} {a:?}"),
                Err(y) => {
                    assert!(!image.contains(&b), "{k} {a:?} {b:?}");
                    assert!(system.is_certificate(&y, &b), "{k} {a:?} {b:?} {y:?}");
                }
            }
        }
        let limits = crate::limits::Limits::default();
        for b in all(k, rows) {
            let fewest = all(k, cols)
                .into_iter()
                .filter(|x| system.apply(x) == b)
                .map(|x| x.iter().sum::<u64>())
                .min();
            match system.fewest_presses(&b, &limits).unwrap() {
                Ok(x) => {
                    assert_eq!(system.apply(&x), b);
                    assert_eq!(Some(x.iter().sum::<u64>()), fewest, "{k} {a:?} {b:?}");
                }
                Err(y) => {
                    assert_eq!(fewest, None);
                    assert!(system.is_certificate(&y, &b));
                }
            }
        }
        if prime_powers(k) == [(k, 1)] {
            let rank = system.rank().unwrap();
            assert_eq!(image.len() as u128, u128::from(k).pow(rank as u32));
        }
    }

    #[test]
    fn small_systems_agree_with_brute_force_for_every_modulus_to_12() {
        let mut draw = Draw(7);
        for k in 2..=12u64 {
            for _ in 0..12 {
                let rows = 1 + draw.below(3) as usize;
                let cols = 1 + draw.below(3) as usize;
                let a: Vec<Vec<u64>> = (0..rows)
                    .map(|_| (0..cols).map(|_| draw.below(k)).collect())
                    .collect();
                against_brute_force(k, &a);
            }
        }
    }

    #[test]
    fn zero_identity_and_scaled_matrices() {
        for k in [2, 4, 6, 8, 9, 12] {
            against_brute_force(k, &[vec![0, 0], vec![0, 0]]);
            against_brute_force(k, &[vec![1, 0], vec![0, 1]]);
            against_brute_force(k, &[vec![2, 0], vec![0, 3]]);
            against_brute_force(k, &[vec![k / 2, k / 2], vec![2, 4]]);
        }
    }

    #[test]
    fn moduli_out_of_range_are_refused() {
        assert!(System::new(1, &[vec![1]]).is_err());
        assert!(System::new(MAX_MODULUS + 1, &[vec![1]]).is_err());
        assert!(System::new(MAX_MODULUS, &[vec![3]]).is_ok());
        assert_eq!(prime_powers(MAX_MODULUS), vec![(2, 32)]);
        assert_eq!(prime_powers(4_294_967_291), vec![(4_294_967_291, 1)]);
    }

    #[test]
    fn orders_print_in_decimal() {
        assert_eq!(Order(vec![]).to_string(), "1");
        assert_eq!(Order(vec![(2, 64)]).to_string(), "18446744073709551616");
        assert_eq!(Order(vec![(3, 100)]).to_u128(), None);
        assert_eq!(
            Order(vec![(3, 100)]).to_string(),
            "515377520732011331036461129765621272702107522001"
        );
    }
}
