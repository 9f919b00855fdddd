//! Light chasing modulo k: a grid stencil's presses row by row as forms in the first row's, then one small system.
//!
//! Chasing down the board, the one press that still reaches cell `(r, c)`
//! is `(r + 1, c)`, with an amount `a` that is a unit mod k; so
//! `press(r + 1, c) = −a⁻¹ · value(r, c)` clears the cell, `value(r, c)`
//! being what the presses on or above row `r` add to it. With the board
//! needing nothing, each press is a linear form in the `C` unknown presses
//! of the first row (`C` residues, one byte each), gathered from the forms
//! of the rows above by [`crate::zk::lanes::gather`], the unknowns split
//! between the cores: the last row's forms are the matrix `m` of the small
//! system, the same for every board, computed once. A board's own part is
//! a chase with plain numbers, a row at a time, and no first-row presses;
//! `m x = −(its last row)` is solved by [`crate::zk::field`] for a prime k
//! and [`crate::zk::System`] otherwise, and the presses follow by chasing
//! again from `x`. Quiet patterns come from the kernel of `m` the same
//! way, and certificates from the kernel of the negated stencil (the
//! transposed matrix).

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
        use rayon::prelude::*;
        let (_, cols) = self.dims();
        // Each unknown's coefficients chase on their own: a part of the
        // unknowns for each core.
        let parts = rayon::current_num_threads().clamp(1, cols.max(1));
        let size = cols.div_ceil(parts);
        let forms: Vec<Vec<Vec<u8>>> = (0..cols.div_ceil(size.max(1)))
            .into_par_iter()
            .map(|i| self.response_part(i * size, ((i + 1) * size).min(cols)))
            .collect();
        (0..cols)
            .map(|c| {
                forms
                    .iter()
                    .flat_map(|part| part[c].iter().map(|&v| u64::from(v)))
                    .collect()
            })
            .collect()
    }

    /// The last row's forms restricted to the coefficients of the
    /// first-row presses `from..to`. Each press below the first row is
    /// `step` times the sum of what reaches the cell above it, so its form
    /// is gathered from the press forms of the rows above in one pass.
    fn response_part(&self, from: usize, to: usize) -> Vec<Vec<u8>> {
        let (rows, cols) = self.dims();
        let k = self.k;
        // Forms are whole blocks of the gather long, so it never meets a tail.
        let width = (to - from).next_multiple_of(lanes::BLOCK);
        let block = |(lo, hi): (usize, usize)| {
            (
                lo / lanes::BLOCK * lanes::BLOCK,
                hi.next_multiple_of(lanes::BLOCK),
            )
        };
        // forms[r % ring][c]: the form of press (r, c), zero outside its
        // window [lo, hi) (whole blocks): a form of row r reaches only the
        // first-row presses a few columns a row away, so early rows are
        // short slices.
        let ring = self.reach + 2;
        let mut forms: Vec<Vec<Vec<u8>>> = vec![vec![vec![0u8; width]; cols]; ring];
        let mut window: Vec<Vec<(usize, usize)>> = vec![vec![(width, 0); cols]; ring];
        for c in from..to {
            forms[0][c][c - from] = 1;
            window[0][c] = block((c - from, c - from + 1));
        }
        // What reaches cell (r, c) from presses on or above its row.
        let offsets: Vec<(usize, isize, u8)> = self
            .offsets
            .iter()
            .filter(|&&(dr, dc, _)| (dr, dc) != (-1, 0))
            .map(|&(dr, dc, a)| (dr as usize, dc, a))
            .collect();
        let mut last = vec![vec![0u8; width]; cols];
        let mut srcs: Vec<(usize, usize, u8)> = Vec::with_capacity(offsets.len());
        for r in 0..rows {
            // Row r + 1's presses clear row r; the last row's values are m.
            let is_last = r + 1 == rows;
            let slot = (r + 1) % ring;
            let mut target = if is_last {
                std::mem::take(&mut last)
            } else {
                std::mem::take(&mut forms[slot])
            };
            let factor = if is_last { 1 } else { self.step };
            let mut inputs: Vec<(&[u8], u8)> = Vec::with_capacity(offsets.len());
            for (c, form) in target.iter_mut().enumerate() {
                srcs.clear();
                let (mut lo, mut hi) = (width, 0);
                for &(dr, dc, a) in &offsets {
                    let (Some(rr), Some(cc)) = (r.checked_sub(dr), c.checked_add_signed(-dc))
                    else {
                        continue;
                    };
                    if cc >= cols {
                        continue;
                    }
                    let (l, h) = window[rr % ring][cc];
                    if l < h {
                        (lo, hi) = (lo.min(l), hi.max(h));
                        srcs.push((rr % ring, cc, a));
                    }
                }
                if !is_last {
                    let (l, h) = window[slot][c];
                    if l < h {
                        form[l..h].fill(0);
                    }
                    window[slot][c] = (lo, hi);
                }
                if lo < hi {
                    inputs.clear();
                    inputs.extend(srcs.iter().map(|&(sl, cc, a)| (&forms[sl][cc][lo..hi], a)));
                    lanes::gather(&mut form[lo..hi], &inputs, factor, k);
                }
            }
            if is_last {
                last = target;
            } else {
                forms[slot] = target;
            }
        }
        for form in &mut last {
            form.truncate(to - from);
        }
        last
    }

    /// The last row's values when `d` is chased with no first-row presses:
    /// the board's own part of the system, `m x = −last_values(d)`.
    pub(crate) fn last_values(&self, d: &[u64]) -> Vec<u64> {
        let k = u64::from(self.k);
        let (value, _) = self.chase_one(Some(d), &[]);
        value.iter().map(|&v| (k - u64::from(v)) % k).collect()
    }

    /// The presses, in grid order, that the first-row presses `first` give
    /// when chasing `d`.
    pub(crate) fn presses(&self, d: &[u64], first: &[u64]) -> Vec<u64> {
        let (_, presses) = self.chase_one(Some(d), first);
        presses.into_iter().map(u64::from).collect()
    }

    /// The press patterns of several first rows chased on a board that
    /// needs nothing, on both cores.
    pub(crate) fn patterns(&self, firsts: &[Vec<u64>]) -> Vec<Vec<u8>> {
        use rayon::prelude::*;
        firsts
            .par_iter()
            .map(|first| self.chase_one(None, first).1)
            .collect()
    }

    /// Chases with plain numbers from the first-row presses `first` on the
    /// board `d` (none: a board that needs nothing), a row at a time: a
    /// row's values are what it needs (negated) plus each offset's press row
    /// shifted and scaled, and the row below presses `step` times them.
    /// Returns the last row's values (what it has got minus what it needs)
    /// and every press (in grid order).
    fn chase_one(&self, d: Option<&[u64]>, first: &[u64]) -> (Vec<u8>, Vec<u8>) {
        let (rows, cols) = self.dims();
        let k = self.k;
        let kk = u64::from(k);
        let mut press = vec![0u8; rows * cols];
        for (p, &f) in press.iter_mut().zip(first) {
            *p = (f % kk) as u8;
        }
        // The offsets that add to a row from presses on or above it.
        let offsets: Vec<(usize, isize, u8)> = self
            .offsets
            .iter()
            .filter(|&&(dr, dc, _)| (dr, dc) != (-1, 0))
            .map(|&(dr, dc, a)| (dr as usize, dc, a))
            .collect();
        let mut value = vec![0u8; cols];
        let mut scaled = Vec::with_capacity(cols);
        for r in 0..rows {
            match d {
                Some(d) => {
                    for (c, v) in value.iter_mut().enumerate() {
                        *v = lanes::neg((d[self.index(r, c)] % kk) as u8, k);
                    }
                }
                None => value.fill(0),
            }
            for &(dr, dc, a) in &offsets {
                if dr > r {
                    continue;
                }
                let from = &press[(r - dr) * cols..][..cols];
                // Cell c gets the press at column c − dc.
                let shift = dc.unsigned_abs().min(cols);
                let (to, from) = if dc >= 0 {
                    (&mut value[shift..], &from[..cols - shift])
                } else {
                    (&mut value[..cols - shift], &from[shift..])
                };
                if a == 1 {
                    lanes::add(to, from, k);
                } else {
                    lanes::scaled(&mut scaled, from, u64::from(a), k);
                    lanes::add(to, &scaled, k);
                }
            }
            if r + 1 < rows {
                lanes::scaled(&mut scaled, &value, u64::from(self.step), k);
                press[(r + 1) * cols..][..cols].copy_from_slice(&scaled);
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
                            .fold(0u64, |s, (&a, &b)| (s + u64::from(a) * (b % k)) % k)
                            != 0
                    })
                    .map(|y| Err(y.into_iter().map(u64::from).collect()))
                    .ok_or_else(|| {
                        Error::Internal("the chase found no solution and no certificate".into())
                    })
            }
        }
    }

    /// The solvable boards' structure, for listing them: the grid cells of
    /// the last chase row, and generators (each with its order) of the
    /// image of the small system `m`. A board part `d` is solvable exactly
    /// when its last row minus `−last_values(d with that row clear)` is in
    /// that image: the last row's own part enters the last values alone.
    pub(crate) fn last_row_and_image(&self) -> Result<(Vec<usize>, Generators)> {
        let (rows, cols) = self.chase.dims();
        let cells = (0..cols).map(|c| self.chase.index(rows - 1, c)).collect();
        let system = crate::zk::System::new(self.k, &self.m)?;
        let k = self.k;
        let image = system
            .image_presses()
            .into_iter()
            .map(|(w, order)| {
                let u = self
                    .m
                    .iter()
                    .map(|row| {
                        row.iter()
                            .zip(&w)
                            .fold(0u64, |s, (&a, &b)| (s + a * b % k) % k)
                    })
                    .collect();
                (u, order)
            })
            .collect();
        Ok((cells, image))
    }

    /// [`Chase::last_values`] of `d`: `m x` must equal it.
    pub(crate) fn last_values(&self, d: &[u64]) -> Vec<u64> {
        self.chase.last_values(d)
    }

    /// Generators of the quiet patterns (presses that change nothing), each
    /// with its order, one residue a byte.
    pub(crate) fn kernel(&self) -> Result<Vec<(Vec<u8>, u64)>> {
        kernel_of(&self.chase, &self.m, self.k)
    }
}

/// Vectors, each with its order, that generate a group.
pub(crate) type Generators = Vec<(Vec<u64>, u64)>;

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
fn kernel_of(chase: &Chase, m: &[Vec<u64>], k: u64) -> Result<Vec<(Vec<u8>, u64)>> {
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
