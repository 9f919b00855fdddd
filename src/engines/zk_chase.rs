//! Light chasing modulo k: a grid stencil's presses row by row as forms in the first row's, then one small system.
//!
//! Chasing down the board, the one press that still reaches cell `(r, c)`
//! is `(r + 1, c)`, with an amount `a` that is a unit mod k; so
//! `press(r + 1, c) = −a⁻¹ · value(r, c)` clears the cell. With the board
//! needing nothing, each press is a linear form in the `C` unknown presses
//! of the first row (`C` residues, one byte each, added a row at a time by
//! [`crate::zk::lanes`], the unknowns split between the cores): the last
//! row's forms are the matrix `m` of the small system, the same for every
//! board, computed once. A board's own part is a chase with plain numbers
//! and no first-row presses; `m x = −(its last row)` is solved by
//! [`crate::zk::field`] for a prime k and [`crate::zk::System`] otherwise,
//! and the presses follow by chasing again from `x`. Quiet patterns come
//! from the kernel of `m` the same way, and certificates from the kernel
//! of the negated stencil (the transposed matrix).

use crate::error::{Error, Result};
use crate::program::colours::ColourStencil;
use crate::zk::{field, lanes};

/// A stencil set up for chasing: in chase coordinates (rows chased, columns unknown).
#[derive(Clone, Debug)]
pub(crate) struct Chase {
    k: u8,
    /// Rows and columns of the grid as stored.
    rows: usize,
    cols: usize,
    /// Whether chase rows are the grid's columns.
    transposed: bool,
    /// `(dr, dc, amount)` in chase coordinates.
    offsets: Vec<(isize, isize, u8)>,
    /// `−a⁻¹` for the amount `a` of offset `(−1, 0)`.
    step: u8,
    /// How many rows ahead a press reaches.
    reach: usize,
}

impl Chase {
    /// The chase of `stencil` modulo `k` (at most 128), along rows or
    /// columns, whichever leaves fewer unknowns and works: every press but
    /// the one below (or beside) a cell stays on or ahead of the cell's row,
    /// and that one's amount is a unit mod k. `None` when neither works.
    pub(crate) fn new(stencil: &ColourStencil, k: u64) -> Option<Chase> {
        if k > lanes::MAX_LANE_MODULUS {
            return None;
        }
        let mut ways = [false, true];
        if stencil.rows < stencil.cols {
            ways.reverse();
        }
        ways.into_iter().find_map(|transposed| {
            let offsets: Vec<(isize, isize, u8)> = stencil
                .offsets
                .iter()
                .map(|&(dr, dc, a)| {
                    let (dr, dc) = if transposed { (dc, dr) } else { (dr, dc) };
                    (dr, dc, (a % k) as u8)
                })
                .filter(|&(_, _, a)| a != 0)
                .collect();
            let chase_rows = if transposed {
                stencil.cols
            } else {
                stencil.rows
            };
            if offsets
                .iter()
                .any(|&(dr, dc, _)| dr < -1 || (dr == -1 && dc != 0))
            {
                return None;
            }
            let step = match offsets.iter().find(|&&(dr, dc, _)| (dr, dc) == (-1, 0)) {
                Some(&(_, _, a)) => lanes::neg(lanes::inverse(u64::from(a), k)? as u8, k as u8),
                None if chase_rows == 1 => 0,
                None => return None,
            };
            let reach = offsets
                .iter()
                .map(|o| o.0.max(0) as usize)
                .max()
                .unwrap_or(0);
            Some(Chase {
                k: k as u8,
                rows: stencil.rows,
                cols: stencil.cols,
                transposed,
                offsets,
                step,
                reach,
            })
        })
    }

    /// Rows chased and unknowns (columns) in chase coordinates.
    pub(crate) fn dims(&self) -> (usize, usize) {
        if self.transposed {
            (self.cols, self.rows)
        } else {
            (self.rows, self.cols)
        }
    }

    /// The estimated work, in byte operations: every press's form added
    /// once per offset, then the system left.
    pub(crate) fn work(&self) -> u128 {
        let (r, c) = self.dims();
        let (r, c) = (r as u128, c as u128);
        r * c * self.offsets.len() as u128 * (c + 1) + c * c * (c + 1)
    }

    /// The estimated peak memory, in bytes: the forms of the rows in reach,
    /// the system left and the boards.
    pub(crate) fn memory(&self) -> u128 {
        let (r, c) = self.dims();
        let (r, c) = (r as u128, c as u128);
        (self.reach as u128 + 3) * c * (c + 1) + 2 * c * (2 * c + 1) + 4 * r * c * 8
    }

    /// The grid index of chase cell `(r, c)`.
    fn index(&self, r: usize, c: usize) -> usize {
        if self.transposed {
            c * self.cols + r
        } else {
            r * self.cols + c
        }
    }

    /// The first row's response: with every cell needing nothing, the
    /// presses chased down the board as linear forms in the `C` first-row
    /// presses, and the last row's values as forms: `m`, with `m x` the
    /// last row's values when the first row is pressed `x` times. The same
    /// for every board; a board's own part is [`Chase::last_values`].
    pub(crate) fn response(&self) -> Vec<Vec<u64>> {
        let (_, cols) = self.dims();
        // Each unknown's coefficients chase on their own: half on each core.
        let half = cols / 2;
        let (left, right) = rayon::join(
            || self.response_part(0, half),
            || self.response_part(half, cols),
        );
        left.into_iter()
            .zip(right)
            .map(|(l, r)| l.into_iter().chain(r).map(u64::from).collect())
            .collect()
    }

    /// The last row's forms restricted to the coefficients of the
    /// first-row presses `from..to`.
    fn response_part(&self, from: usize, to: usize) -> Vec<Vec<u8>> {
        let (rows, cols) = self.dims();
        let k = self.k;
        let width = to - from;
        // values[r % ring][c]: the form of cell (r, c)'s value, zero outside
        // its window [lo, hi): a form of row r reaches only the first-row
        // presses a few columns a row away, so early rows add short slices.
        let ring = self.reach + 2;
        let mut values: Vec<Vec<Vec<u8>>> = vec![vec![vec![0u8; width]; cols]; ring];
        let mut window: Vec<Vec<(usize, usize)>> = vec![vec![(width, 0); cols]; ring];
        let mut press = vec![0u8; width];
        let mut scaled = Vec::new();
        // The press below a cell clears it, and that row is not read again: skip it.
        let offsets: Vec<(isize, isize, u8)> = self
            .offsets
            .iter()
            .copied()
            .filter(|&(dr, dc, _)| (dr, dc) != (-1, 0))
            .collect();
        for r in 0..rows {
            for c in 0..cols {
                let (lo, hi) = if r == 0 {
                    if !(from..to).contains(&c) {
                        continue;
                    }
                    press[c - from] = 1;
                    (c - from, c - from + 1)
                } else {
                    let (lo, hi) = window[(r - 1) % ring][c];
                    if lo >= hi {
                        continue;
                    }
                    let above = &values[(r - 1) % ring][c][lo..hi];
                    lanes::scaled(&mut scaled, above, u64::from(self.step), k);
                    press[lo..hi].copy_from_slice(&scaled);
                    (lo, hi)
                };
                for &(dr, dc, a) in &offsets {
                    let (rr, cc) = (r as isize + dr, c as isize + dc);
                    if rr < 0 || rr as usize >= rows || cc < 0 || cc as usize >= cols {
                        continue;
                    }
                    let (slot, cc) = (rr as usize % ring, cc as usize);
                    let target = &mut values[slot][cc][lo..hi];
                    if a == 1 {
                        lanes::add(target, &press[lo..hi], k);
                    } else {
                        lanes::scaled(&mut scaled, &press[lo..hi], u64::from(a), k);
                        lanes::add(target, &scaled, k);
                    }
                    let w = &mut window[slot][cc];
                    *w = (w.0.min(lo), w.1.max(hi));
                }
                if r == 0 {
                    press[c - from] = 0;
                }
            }
            // Row r - 1 is cleared; its slot holds row r - 1 + ring from now on.
            if r >= 1 && r - 1 + ring < rows {
                let slot = (r - 1) % ring;
                for (form, w) in values[slot].iter_mut().zip(&mut window[slot]) {
                    if w.0 < w.1 {
                        form[w.0..w.1].fill(0);
                    }
                    *w = (width, 0);
                }
            }
        }
        values.swap_remove((rows - 1) % ring)
    }

    /// The last row's values when `d` is chased with no first-row presses:
    /// the board's own part of the system, `m x = −last_values(d)`.
    pub(crate) fn last_values(&self, d: &[u64]) -> Vec<u64> {
        let (rows, cols) = self.dims();
        let k = u64::from(self.k);
        let (value, _) = self.chase_one(Some(d), &vec![0; cols]);
        value[(rows - 1) * cols..]
            .iter()
            .map(|&v| (k - u64::from(v)) % k)
            .collect()
    }

    /// The presses, in grid order, that the first-row presses `first` give
    /// when chasing `d`.
    pub(crate) fn presses(&self, d: &[u64], first: &[u64]) -> Vec<u64> {
        let (_, presses) = self.chase_one(Some(d), first);
        presses.into_iter().map(u64::from).collect()
    }

    /// The press patterns of several first rows chased on a board that
    /// needs nothing, on both cores.
    pub(crate) fn patterns(&self, firsts: &[Vec<u64>]) -> Vec<Vec<u64>> {
        use rayon::prelude::*;
        firsts
            .par_iter()
            .map(|first| {
                let (_, presses) = self.chase_one(None, first);
                presses.into_iter().map(u64::from).collect()
            })
            .collect()
    }

    /// Chases with plain numbers from the first-row presses `first` on the
    /// board `d` (none: a board that needs nothing). Returns every cell's
    /// value (what it has got minus what it needs, in chase order) and
    /// every press (in grid order).
    fn chase_one(&self, d: Option<&[u64]>, first: &[u64]) -> (Vec<u8>, Vec<u8>) {
        let (rows, cols) = self.dims();
        let k = self.k;
        let kk = u64::from(k);
        // times[a][p] = a · p mod k: no division in the loop.
        let times: Vec<Vec<u8>> = (0..kk)
            .map(|a| (0..kk).map(|p| (a * p % kk) as u8).collect())
            .collect();
        let mut value = vec![0u8; rows * cols];
        if let Some(d) = d {
            for (i, v) in value.iter_mut().enumerate() {
                *v = lanes::neg((d[self.index(i / cols, i % cols)] % kk) as u8, k);
            }
        }
        let mut press = vec![0u8; rows * cols];
        let step = &times[usize::from(self.step)];
        let offsets: Vec<(isize, isize, isize, &[u8])> = self
            .offsets
            .iter()
            .map(|&(dr, dc, a)| {
                (
                    dr,
                    dc,
                    dr * cols as isize + dc,
                    times[usize::from(a)].as_slice(),
                )
            })
            .collect();
        // Cells whose every offset lands on the board take no bounds checks.
        let ahead = self.reach;
        let side = offsets
            .iter()
            .map(|o| o.1.unsigned_abs())
            .max()
            .unwrap_or(0);
        for r in 0..rows {
            let inner_row = r >= 1 && r + ahead < rows;
            for c in 0..cols {
                let at = r * cols + c;
                let p = match r {
                    0 => (first.get(c).map_or(0, |&f| f % kk)) as u8,
                    _ => step[usize::from(value[at - cols])],
                };
                press[at] = p;
                if p == 0 {
                    continue;
                }
                let p = usize::from(p);
                if inner_row && c >= side && c + side < cols {
                    for &(_, _, delta, by) in &offsets {
                        let v = &mut value[(at as isize + delta) as usize];
                        let t = *v + by[p];
                        *v = t.min(t.wrapping_sub(k));
                    }
                    continue;
                }
                for &(dr, dc, _, by) in &offsets {
                    let (rr, cc) = (r as isize + dr, c as isize + dc);
                    if rr >= 0 && (rr as usize) < rows && cc >= 0 && (cc as usize) < cols {
                        let v = &mut value[rr as usize * cols + cc as usize];
                        let t = *v + by[p];
                        *v = t.min(t.wrapping_sub(k));
                    }
                }
            }
        }
        if !self.transposed {
            return (value, press);
        }
        let mut grid = vec![0u8; rows * cols];
        for (i, &p) in press.iter().enumerate() {
            grid[self.index(i / cols, i % cols)] = p;
        }
        (value, grid)
    }
}

/// What a chase answers: a board solved or refuted, and the quiet patterns.
#[derive(Clone, Debug)]
pub(crate) struct ChaseSolver {
    chase: Chase,
    /// The first row's response ([`Chase::response`]), computed once.
    m: Vec<Vec<u64>>,
    /// The chase of the transposed matrix (the negated stencil), for
    /// certificates, with its response once it is needed.
    dual: Option<Chase>,
    dual_m: std::sync::OnceLock<Vec<Vec<u64>>>,
    k: u64,
}

impl ChaseSolver {
    /// The chase for `stencil` mod `k`, when it applies, and whether its
    /// transpose can be chased too (for certificates); no work done yet.
    pub(crate) fn plan(stencil: &ColourStencil, k: u64) -> Option<(Chase, bool)> {
        let chase = Chase::new(stencil, k)?;
        Some((chase, Chase::new(&negated(stencil), k).is_some()))
    }

    /// The solver for `stencil` mod `k`, its response chased, when it can be chased.
    pub(crate) fn new(stencil: &ColourStencil, k: u64) -> Option<ChaseSolver> {
        let chase = Chase::new(stencil, k)?;
        Some(ChaseSolver {
            m: chase.response(),
            chase,
            dual: Chase::new(&negated(stencil), k),
            dual_m: std::sync::OnceLock::new(),
            k,
        })
    }

    /// Presses `x` (grid order) with `A x = d`, or a certificate `y` with
    /// `y A = 0` and `y · d ≠ 0`.
    pub(crate) fn solve(&self, d: &[u64]) -> Result<std::result::Result<Vec<u64>, Vec<u64>>> {
        let rhs = self.chase.last_values(d);
        match small_solve(self.k, &self.m, &rhs)? {
            Ok(first) => Ok(Ok(self.chase.presses(d, &first))),
            Err(_) => {
                let dual = self.dual.as_ref().ok_or_else(|| {
                    Error::Internal("a chase without its dual was asked for a certificate".into())
                })?;
                let m = self.dual_m.get_or_init(|| dual.response());
                let k = self.k;
                kernel_of(dual, m, k)?
                    .into_iter()
                    .map(|(y, _)| y)
                    .find(|y| {
                        y.iter()
                            .zip(d)
                            .fold(0u64, |s, (&a, &b)| (s + a * (b % k)) % k)
                            != 0
                    })
                    .map(Err)
                    .ok_or_else(|| {
                        Error::Internal("the chase found no solution and no certificate".into())
                    })
            }
        }
    }

    /// Generators of the quiet patterns (presses that change nothing), each
    /// with its order.
    pub(crate) fn kernel(&self) -> Result<Vec<(Vec<u64>, u64)>> {
        kernel_of(&self.chase, &self.m, self.k)
    }
}

/// The stencil with every offset negated: its matrix is the transpose.
fn negated(stencil: &ColourStencil) -> ColourStencil {
    ColourStencil {
        offsets: stencil
            .offsets
            .iter()
            .map(|&(dr, dc, a)| (-dr, -dc, a))
            .collect(),
        ..stencil.clone()
    }
}

/// The kernel generators of a chase's system `m`, as whole press patterns.
fn kernel_of(chase: &Chase, m: &[Vec<u64>], k: u64) -> Result<Vec<(Vec<u64>, u64)>> {
    let (firsts, orders): (Vec<Vec<u64>>, Vec<u64>) = small_kernel(k, m)?.into_iter().unzip();
    Ok(chase.patterns(&firsts).into_iter().zip(orders).collect())
}

/// `m x = rhs` for the small system, over GF(k) or Z_k.
fn small_solve(
    k: u64,
    m: &[Vec<u64>],
    rhs: &[u64],
) -> Result<std::result::Result<Vec<u64>, Vec<u64>>> {
    if is_prime(k) {
        return Ok(field::solve(m, rhs, k as u8));
    }
    Ok(crate::zk::System::new(k, m)?.solve(rhs))
}

/// Kernel generators of the small system with their orders.
fn small_kernel(k: u64, m: &[Vec<u64>]) -> Result<Vec<(Vec<u64>, u64)>> {
    if is_prime(k) {
        let cols = m.first().map_or(0, Vec::len);
        return Ok(field::Reduced::new(m, cols, k as u8)
            .kernel()
            .into_iter()
            .map(|g| (g, k))
            .collect());
    }
    Ok(crate::zk::System::new(k, m)?.kernel())
}

/// Whether `k` is prime.
pub(crate) fn is_prime(k: u64) -> bool {
    crate::zk::prime_powers(k) == [(k, 1)]
}
