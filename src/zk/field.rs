//! Dense Gauss-Jordan elimination over GF(p) for a prime p up to 128, one residue a byte.
//!
//! The fast path for prime moduli: rows are byte lanes (`lanes`),
//! and clearing a pivot's column adds a precomputed multiple of the pivot
//! row to each other row, so the inner loop is one vectorized pass. The
//! answers are the ones [`crate::zk::System`] gives for any modulus: a
//! solution or a certificate, the kernel, the rank.

use super::lanes::{self, neg};
use crate::error::{Error, Result};

/// Reduces `rows` in place to reduced row echelon form over GF(p),
/// pivoting in the first `cols` columns, and returns the pivot columns
/// (their number is the rank of those columns). `p` is a prime up to 128
/// and every entry is below it; the rows have one length, at least `cols`.
///
/// ```
/// // [[1, 2], [2, 1]] over GF(3): the second row is twice the first.
/// let mut rows = vec![vec![1, 2], vec![2, 1]];
/// assert_eq!(pegflip::zk::field::reduce(&mut rows, 2, 3)?, vec![0]);
/// assert_eq!(rows, vec![vec![1, 2], vec![0, 0]]);
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn reduce(rows: &mut [Vec<u8>], cols: usize, p: u64) -> Result<Vec<usize>> {
    if p > lanes::MAX_LANE_MODULUS || super::prime_powers(p) != [(p, 1)] {
        return Err(Error::Usage(format!(
            "byte-lane elimination works over GF(p) for a prime p up to {}, not {p}",
            lanes::MAX_LANE_MODULUS
        )));
    }
    let width = rows.first().map_or(cols, Vec::len);
    if width < cols || rows.iter().any(|r| r.len() != width) {
        return Err(Error::Usage(format!(
            "the rows must have one length, at least {cols}"
        )));
    }
    if rows.iter().flatten().any(|&v| u64::from(v) >= p) {
        return Err(Error::Usage(format!("every entry must be below {p}")));
    }
    Ok(rref(rows, cols, p as u8))
}

/// A matrix over GF(p) in reduced row echelon form.
#[derive(Clone, Debug)]
pub(crate) struct Reduced {
    p: u8,
    cols: usize,
    /// The reduced rows; the first `pivots.len()` are non-zero.
    rows: Vec<Vec<u8>>,
    /// The pivot column of each non-zero row, ascending.
    pivots: Vec<usize>,
}

/// Reduces `rows` (each `width` residues below `p`) in place to reduced row
/// echelon form, pivoting only in the first `cols` columns; returns the
/// pivot columns. The columns past `cols` ride along: an identity there
/// records the row operations.
pub(crate) fn rref(rows: &mut [Vec<u8>], cols: usize, p: u8) -> Vec<usize> {
    let mut pivots = Vec::new();
    let mut multiples: Vec<Vec<u8>> = vec![Vec::new(); p as usize];
    let mut rank = 0;
    for col in 0..cols {
        let Some(found) = (rank..rows.len()).find(|&r| rows[r][col] != 0) else {
            continue;
        };
        rows.swap(rank, found);
        let lead = u64::from(rows[rank][col]);
        let inv = lanes::inverse(lead, u64::from(p)).expect("a non-zero residue mod a prime");
        if inv != 1 {
            let mut scaled = Vec::new();
            lanes::scaled(&mut scaled, &rows[rank][col..], inv, p);
            rows[rank][col..].copy_from_slice(&scaled);
        }
        // multiples[f] = f · pivot row, from the pivot column on.
        for f in 1..p as usize {
            let (head, tail) = multiples.split_at_mut(f);
            let m = &mut tail[0];
            if f == 1 {
                m.clear();
                m.extend_from_slice(&rows[rank][col..]);
            } else {
                m.clear();
                m.extend_from_slice(&head[f - 1]);
                lanes::add(m, &rows[rank][col..], p);
            }
        }
        let (before, rest) = rows.split_at_mut(rank);
        for row in before.iter_mut().chain(rest[1..].iter_mut()) {
            let f = row[col];
            if f != 0 {
                lanes::add(&mut row[col..], &multiples[neg(f, p) as usize], p);
            }
        }
        pivots.push(col);
        rank += 1;
        if rank == rows.len() {
            break;
        }
    }
    pivots
}

impl Reduced {
    /// Eliminates `a` (one row per cell, one column per press; entries below `p`).
    pub(crate) fn new(a: &[Vec<u64>], cols: usize, p: u8) -> Reduced {
        let mut rows: Vec<Vec<u8>> = a
            .iter()
            .map(|r| r.iter().map(|&v| (v % u64::from(p)) as u8).collect())
            .collect();
        let pivots = rref(&mut rows, cols, p);
        Reduced {
            p,
            cols,
            rows,
            pivots,
        }
    }

    /// The rank.
    #[cfg(test)]
    pub(crate) fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// A basis of the kernel: one vector per free column.
    pub(crate) fn kernel(&self) -> Vec<Vec<u64>> {
        let p = self.p;
        let mut is_pivot = vec![false; self.cols];
        for &c in &self.pivots {
            is_pivot[c] = true;
        }
        (0..self.cols)
            .filter(|&f| !is_pivot[f])
            .map(|f| {
                let mut x = vec![0u64; self.cols];
                x[f] = 1;
                for (i, &c) in self.pivots.iter().enumerate() {
                    x[c] = u64::from(neg(self.rows[i][f], p));
                }
                x
            })
            .collect()
    }
}

/// Press counts `x` with `A x = b` over GF(p), or a certificate `y` with
/// `y A = 0` and `y · b ≠ 0`. `a` has one row per cell.
pub(crate) fn solve(a: &[Vec<u64>], b: &[u64], p: u8) -> Result<Vec<u64>, Vec<u64>> {
    let cols = a.first().map_or(0, Vec::len);
    let m = a.len();
    let pk = u64::from(p);
    // [A | b]: consistent iff no pivot lands in the last column.
    let mut rows: Vec<Vec<u8>> = a
        .iter()
        .zip(b)
        .map(|(r, &bi)| {
            r.iter()
                .map(|&v| (v % pk) as u8)
                .chain([(bi % pk) as u8])
                .collect()
        })
        .collect();
    let pivots = rref(&mut rows, cols + 1, p);
    if pivots.last() != Some(&cols) {
        let mut x = vec![0u64; cols];
        for (i, &c) in pivots.iter().enumerate() {
            x[c] = u64::from(rows[i][cols]);
        }
        return Ok(x);
    }
    // Not solvable: [A | I] records the row operations; a row whose A part
    // is zero and whose record sees b is the certificate.
    let mut rows: Vec<Vec<u8>> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row: Vec<u8> = r.iter().map(|&v| (v % pk) as u8).collect();
            row.resize(cols + m, 0);
            row[cols + i] = 1;
            row
        })
        .collect();
    let rank = rref(&mut rows, cols, p).len();
    let y = rows[rank..]
        .iter()
        .map(|row| {
            row[cols..]
                .iter()
                .map(|&v| u64::from(v))
                .collect::<Vec<u64>>()
        })
        .find(|y| {
            y.iter()
                .zip(b)
                .fold(0, |s, (&yi, &bi)| (s + yi * (bi % pk)) % pk)
                != 0
        })
        .expect("an inconsistent system has a row that sees b");
    Err(y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zk::System;

    #[test]
    fn agrees_with_the_ring_engine_on_random_systems() {
        let mut seed = 11u64;
        let mut below = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for p in [2u64, 3, 5, 7, 13, 127] {
            for _ in 0..40 {
                let rows = 1 + below(7) as usize;
                let cols = 1 + below(7) as usize;
                let a: Vec<Vec<u64>> = (0..rows)
                    .map(|_| (0..cols).map(|_| below(p)).collect())
                    .collect();
                let system = System::new(p, &a).unwrap();
                let reduced = Reduced::new(&a, cols, p as u8);
                assert_eq!(Some(reduced.rank()), system.rank());
                for z in reduced.kernel() {
                    assert!(system.apply(&z).iter().all(|&v| v == 0));
                }
                assert_eq!(reduced.kernel().len(), system.nullity().unwrap());
                for _ in 0..10 {
                    let b: Vec<u64> = (0..rows).map(|_| below(p)).collect();
                    match (solve(&a, &b, p as u8), system.solve(&b)) {
                        (Ok(x), Ok(_)) => assert_eq!(system.apply(&x), b),
                        (Err(y), Err(_)) => assert!(system.is_certificate(&y, &b)),
                        (ours, theirs) => panic!("{p} {a:?} {b:?}: {ours:?} vs {theirs:?}"),
                    }
                }
            }
        }
    }
}
