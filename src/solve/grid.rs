//! Light chasing on rectangular grids where every cell's toggle is the same stencil, a row at a time.
//!
//! Pressing `(r, c)` toggles `(r + dr, c + dc)` for each offset of the
//! stencil that lands on the board. When the offsets reach the row before
//! (in chase order) only at `dc = 0`, and nothing further back, the presses of
//! each row are forced by the row before: every cell is a linear function of
//! the first row's presses, and only a `cols x cols` system remains.
//!
//! Rows are handled whole: applying a stencil offset to a row is one XOR of a
//! shifted slice, so the work is word-parallel and needs no per-move lists.
//! This is what lets boards far too large to list their moves (10^8 cells) be
//! solved.

use rayon::prelude::*;

use crate::bits::Bits;
use crate::board::Lattice;
use crate::gf2::{self, Solver};
use crate::puzzle::{Guard, MoveRule, Puzzle};

/// A translation-invariant toggle on a full rectangle, ready to chase.
///
/// Chasing runs along rows or, on a board wider than it is tall, along
/// columns (the board transposed), whichever leaves the smaller system:
/// a 1 x 300,000 board is chased cell by cell and leaves one unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridStencil {
    rows: usize,
    cols: usize,
    /// `(dr, dc)` on the board, distinct.
    offsets: Vec<(isize, isize)>,
    /// Whether the chase runs on the transposed board.
    transposed: bool,
    /// Whether chase order runs from the last row (of the chased board) up.
    upward: bool,
    /// Whether the grid is a torus: offsets wrap around both ways.
    wrap: bool,
}

impl GridStencil {
    /// The stencil of a puzzle whose one unguarded toggle rule covers a full
    /// square-lattice rectangle or torus (an offset list, a preset, or
    /// `open`/`closed` neighbourhoods); `None` when the puzzle is anything
    /// else, or the stencil does not allow chasing. Needs no listed moves, so
    /// it works on boards of any size.
    pub fn from_puzzle(puzzle: &Puzzle) -> Option<GridStencil> {
        let board = &puzzle.board;
        if !board.is_rectangular() || *board.lattice() != Lattice::Square {
            return None;
        }
        let offsets: Vec<(isize, isize)> = match puzzle.rules.as_slice() {
            [
                MoveRule::Toggle {
                    offsets,
                    guard: Guard::Always,
                },
            ] => offsets
                .iter()
                .map(|d| (d.dr as isize, d.dc as isize))
                .collect(),
            [
                MoveRule::Adjacent {
                    closed,
                    guard: Guard::Always,
                },
            ] => {
                let mut o = vec![(-1, 0), (1, 0), (0, -1), (0, 1)];
                if *closed {
                    o.push((0, 0));
                }
                o
            }
            _ => return None,
        };
        if board.wraps() {
            GridStencil::torus(board.rows(), board.cols(), offsets)
        } else {
            GridStencil::new(board.rows(), board.cols(), offsets)
        }
    }

    /// A stencil on a torus of at least 3 x 3, whose offsets stay distinct
    /// when they wrap, reach one row each way, and reach the row before
    /// only at the cell directly beside (in one of the four chase directions).
    fn torus(rows: usize, cols: usize, offsets: Vec<(isize, isize)>) -> Option<GridStencil> {
        if rows < 3 || cols < 3 {
            return None;
        }
        let wrapped: std::collections::HashSet<(usize, usize)> = offsets
            .iter()
            .map(|&(dr, dc)| {
                (
                    dr.rem_euclid(rows as isize) as usize,
                    dc.rem_euclid(cols as isize) as usize,
                )
            })
            .collect();
        if wrapped.len() != offsets.len() {
            return None;
        }
        // The system has two unknowns per chased column.
        GridStencil::oriented(rows, cols, offsets, true, |offsets, _, cols, sign| {
            offsets.iter().all(|&(dr, dc)| {
                dr.abs() <= 1 && dc.unsigned_abs() < cols && (sign * dr != -1 || dc == 0)
            }) && offsets.contains(&(-sign, 0))
        })
    }

    fn new(rows: usize, cols: usize, offsets: Vec<(isize, isize)>) -> Option<GridStencil> {
        // Offsets that land off any board this size press nothing: drop them.
        let offsets: Vec<(isize, isize)> = offsets
            .into_iter()
            .filter(|&(dr, dc)| dr.unsigned_abs() < rows && dc.unsigned_abs() < cols)
            .collect();
        GridStencil::oriented(rows, cols, offsets, false, |offsets, rows, _, sign| {
            offsets
                .iter()
                .all(|&(dr, dc)| sign * dr >= -1 && (sign * dr != -1 || dc == 0))
                && (rows == 1 || offsets.contains(&(-sign, 0)))
        })
    }

    /// The stencil chased in the first of the four ways (along rows or, on
    /// the transposed board, along columns; down or up) that `fits` accepts,
    /// trying first the ways that leave the smaller system: one unknown per
    /// chased column. `fits(offsets, rows, cols, sign)` sees the offsets and
    /// the board as the chase would, with `sign` -1 when it runs upward.
    fn oriented(
        rows: usize,
        cols: usize,
        offsets: Vec<(isize, isize)>,
        wrap: bool,
        fits: impl Fn(&[(isize, isize)], usize, usize, isize) -> bool,
    ) -> Option<GridStencil> {
        let swapped: Vec<(isize, isize)> = offsets.iter().map(|&(dr, dc)| (dc, dr)).collect();
        let mut ways = vec![(false, false), (false, true), (true, false), (true, true)];
        ways.sort_by_key(|&(t, _)| if t { rows } else { cols });
        let (transposed, upward) = ways.into_iter().find(|&(t, up)| {
            let sign = if up { -1 } else { 1 };
            if t {
                fits(&swapped, cols, rows, sign)
            } else {
                fits(&offsets, rows, cols, sign)
            }
        })?;
        Some(GridStencil {
            rows,
            cols,
            offsets,
            transposed,
            upward,
            wrap,
        })
    }

    /// The same stencil with every offset negated: pressing `p` of the
    /// negated stencil touches the cells whose presses touch `p`.
    pub fn negated(&self) -> GridStencil {
        GridStencil {
            offsets: self.offsets.iter().map(|&(dr, dc)| (-dr, -dc)).collect(),
            upward: !self.upward,
            ..self.clone()
        }
    }

    /// Rows of the grid.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the grid.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The chased board's rows and columns: the system left after chasing
    /// has one unknown per chased column.
    fn chase_dims(&self) -> (usize, usize) {
        if self.transposed {
            (self.cols, self.rows)
        } else {
            (self.rows, self.cols)
        }
    }

    /// Estimated peak memory in bytes and work in word operations of
    /// eliminating and solving one board.
    pub fn estimate(&self) -> (u128, u128) {
        let (rows, cols) = self.chase_dims();
        let (rows, cols) = (rows as u128, cols as u128);
        let words = cols.div_ceil(64);
        let reach = self
            .offsets
            .iter()
            .map(|o| o.0.unsigned_abs())
            .max()
            .unwrap_or(0) as u128;
        // Boards: the input, padded state and presses, the output, the replay check.
        let boards = 8 * rows * words * 8;
        // The symbolic chase: two blocks at once, each (reach + 3) rows of cols x 8 words.
        let symbolic = 2 * (reach + 3) * cols * 8 * 8;
        // The residual matrix, its transpose augmented with the identity; a
        // torus has two unknowns per column.
        let unknowns = if self.wrap { 2 * cols } else { cols };
        let system = unknowns * unknowns.div_ceil(64) * 8 * 3 + unknowns * 8 * 8;
        let memory = boards + symbolic + system + (1 << 20);
        let offsets = self.offsets.len() as u128;
        let work = rows * offsets * cols * words
            + unknowns * unknowns * unknowns.div_ceil(64) / 8
            + rows * words * offsets;
        (memory, work)
    }

    /// Offsets in chase order: rows ahead (the row before is -1) and columns.
    fn chase_offsets(&self) -> Vec<(isize, isize)> {
        let sign = if self.upward { -1 } else { 1 };
        self.offsets
            .iter()
            .map(|&(dr, dc)| if self.transposed { (dc, dr) } else { (dr, dc) })
            .map(|(dr, dc)| (sign * dr, dc))
            .collect()
    }

    /// How many rows ahead of the pressed row, in chase order, a press reaches.
    fn reach(&self) -> usize {
        self.chase_offsets()
            .iter()
            .map(|o| o.0.max(0) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The chased board's row of chase row `t`.
    fn row_of(&self, t: usize) -> usize {
        let (rows, _) = self.chase_dims();
        if self.upward { rows - 1 - t } else { t }
    }

    /// Toggles into `state` every cell that `presses` (a set of pressed cells) flips.
    pub fn apply(&self, state: &mut Bits, presses: &Bits) {
        let rows = Padded::from_bits(presses, self.rows, self.cols);
        let mut out = Padded::from_bits(state, self.rows, self.cols);
        for r in 0..self.rows {
            for &(dr, dc) in &self.offsets {
                let target = r as isize + dr;
                let target = if self.wrap {
                    target.rem_euclid(self.rows as isize)
                } else if (0..self.rows as isize).contains(&target) {
                    target
                } else {
                    continue;
                };
                let (src, dst) = (rows.row(r).to_vec(), out.row_mut(target as usize));
                self.xor_row(dst, &src, dc, self.cols);
            }
        }
        *state = out.to_bits();
    }

    /// `dst[x + dc] ^= src[x]` along a row of `cols` bits: cut off at the
    /// ends, or around the cycle on a torus.
    fn xor_row(&self, dst: &mut [u64], src: &[u64], dc: isize, cols: usize) {
        xor_shifted(dst, src, dc, cols);
        if self.wrap && dc != 0 {
            let back = if dc > 0 {
                dc - cols as isize
            } else {
                dc + cols as isize
            };
            xor_shifted(dst, src, back, cols);
        }
    }

    /// Eliminates: the symbolic chase gives the last row's residual as a
    /// linear function of the first row's presses.
    pub fn eliminate(&self) -> GridLinear {
        let residual_rows = if self.wrap {
            self.torus_system()
        } else {
            self.images().unwrap_or_else(|| self.symbolic_blocks())
        };
        let system = Solver::from_matrix(&residual_rows);
        let null_first = system.null_space();
        GridLinear {
            stencil: self.clone(),
            system,
            null_first,
        }
    }

    /// The system of a torus. Its unknowns are the presses of the first and
    /// the last chased rows (`x`, then `y`, `cols` each): the last row's
    /// presses reach the first row around the torus, so the chase cannot
    /// find them. Its equations say that the chase leaves the last two rows
    /// clear. The torus is the same seen from every column, so the system is
    /// made of circulant blocks: one chase of a single press in the first row
    /// and one in the last give every column, shifted.
    fn torus_system(&self) -> gf2::Matrix {
        let (rows, cols) = self.chase_dims();
        let words = cols.div_ceil(64);
        let unit = {
            let mut u = vec![0u64; words];
            u[0] = 1;
            u
        };
        let zero = vec![0u64; words];
        let empty = Bits::zeros(rows * cols);
        let (_, from_x) = self.chase_torus(&empty, &unit, &zero);
        let (_, from_y) = self.chase_torus(&empty, &zero, &unit);
        // Reversed, so that the column of press j at cell i, c[i - j], is a window.
        let reversed = |c: &Bits, block: usize| -> Vec<u64> {
            let mut doubled = vec![0u64; (2 * cols).div_ceil(64)];
            for m in 0..cols {
                if c.get(block * cols + (cols - m) % cols) {
                    for y in [m, m + cols] {
                        doubled[y / 64] |= 1 << (y % 64);
                    }
                }
            }
            doubled
        };
        let mut m = gf2::Matrix::zeros(2 * cols, 2 * cols);
        for block in 0..2 {
            let (rx, ry) = (reversed(&from_x, block), reversed(&from_y, block));
            for i in 0..cols {
                let row = m.row_mut(block * cols + i);
                let start = (cols - i) % cols;
                xor_window(&mut row[..words], &rx, start, cols);
                // The y unknowns start at bit `cols` of the row.
                let mut y = vec![0u64; words];
                xor_window(&mut y, &ry, start, cols);
                for k in (0..cols).filter(|&k| y[k / 64] >> (k % 64) & 1 == 1) {
                    let bit = cols + k;
                    row[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        m
    }

    /// The concrete chase of a torus from board `b` with first-row presses
    /// `x` and last-row presses `y` (words over the chased columns): the
    /// pressed cells, and the last two chased rows, which are clear exactly
    /// when the presses solve `b`.
    fn chase_torus(&self, b: &Bits, x: &[u64], y: &[u64]) -> (Bits, Bits) {
        let (rows, cols) = self.chase_dims();
        let mut state = self.to_chased(b);
        let mut presses = Padded::new(rows, cols);
        let offsets = self.chase_offsets();
        let mut press_row = |state: &mut Padded, t: usize, press: &[u64]| {
            let row = self.row_of(t);
            presses.row_mut(row).copy_from_slice(press);
            for &(dt, dc) in &offsets {
                let target = (t as isize + dt).rem_euclid(rows as isize) as usize;
                self.xor_row(state.row_mut(self.row_of(target)), press, dc, cols);
            }
        };
        let padded = |v: &[u64]| {
            let mut p = vec![0u64; cols.div_ceil(64)];
            let n = p.len().min(v.len());
            p[..n].copy_from_slice(&v[..n]);
            mask_tail(&mut p, cols);
            p
        };
        press_row(&mut state, 0, &padded(x));
        press_row(&mut state, rows - 1, &padded(y));
        for t in 1..rows - 1 {
            let press = state.row(self.row_of(t - 1)).to_vec();
            press_row(&mut state, t, &press);
        }
        let mut residual = Bits::zeros(2 * cols);
        for (k, t) in [rows - 2, rows - 1].into_iter().enumerate() {
            let row = state.row(self.row_of(t));
            for c in (0..cols).filter(|&c| row[c / 64] >> (c % 64) & 1 == 1) {
                residual.set(k * cols + c, true);
            }
        }
        (self.unchased(&presses), residual)
    }

    /// Board `b` as the chase sees it: transposed when the chase runs along
    /// columns, each row starting on a word.
    fn to_chased(&self, b: &Bits) -> Padded {
        let (rows, cols) = self.chase_dims();
        if self.transposed {
            Padded::from_bits(&transpose(b, self.rows, self.cols), rows, cols)
        } else {
            Padded::from_bits(b, rows, cols)
        }
    }

    /// Pressed cells of the chased board, as cells of the board.
    fn unchased(&self, presses: &Padded) -> Bits {
        let bits = presses.to_bits();
        if self.transposed {
            transpose(&bits, presses.rows, presses.cols)
        } else {
            bits
        }
    }

    /// Whether the method of images applies: in chase order, every offset
    /// reaches at most one column aside, and its mirror image is an offset too.
    fn mirrored(&self) -> bool {
        let offsets = self.chase_offsets();
        offsets
            .iter()
            .all(|&(dt, dc)| dc.abs() <= 1 && offsets.contains(&(dt, -dc)))
    }

    /// The residual matrix by the method of images, for stencils that are
    /// [`mirrored`](Self::mirrored): row `i` says which first-row presses
    /// reach last-row cell `i`.
    ///
    /// Each chase step applies a polynomial in the one-column shift `T`
    /// (`x -> x-1` plus `x -> x+1`). On the board, `T` is cut off at the
    /// edges. On a cycle of `2 (cols + 1)` cells, a row that is symmetric
    /// under the mirror `x -> -2 - x` is zero at the mirror's fixed points
    /// `-1` and `cols` whenever it starts so, because `T` adds a fixed point's
    /// two neighbours, which are equal; so the cycle's `T` acts on `0..cols`
    /// exactly as the board's does. A press at column `j` with its image at
    /// `-2 - j` is such a row, so one chase of a single press on the cycle,
    /// shifted to `j` and to `-2 - j`, gives every column of the residual:
    /// `O(rows x cols / 64)` word operations instead of `O(rows x cols^2 / 64)`.
    fn images(&self) -> Option<gf2::Matrix> {
        if !self.mirrored() {
            return None;
        }
        let (rows, cols) = self.chase_dims();
        let offsets = self.chase_offsets();
        let reach = self.reach();
        let w = 2 * (cols + 1);
        let words = w.div_ceil(64);
        let ring = reach + 2;
        let mut state = vec![0u64; ring * words];
        let mut press = vec![0u64; words];
        for t in 0..rows {
            if t > 0 && t + reach < rows {
                let s = ((t + reach) % ring) * words;
                state[s..s + words].fill(0);
            }
            if t == 0 {
                // One press, at column 0: its images are added when the matrix is built.
                press[0] = 1;
            } else {
                let s = ((t - 1) % ring) * words;
                press.copy_from_slice(&state[s..s + words]);
            }
            for &(dt, dc) in &offsets {
                let target = t as isize + dt;
                if (0..rows as isize).contains(&target) {
                    let d = (target as usize % ring) * words;
                    xor_rotated(&mut state[d..d + words], &press, dc, w);
                }
            }
        }
        let s = ((rows - 1) % ring) * words;
        // The last row, twice over, so that any window of it is one slice.
        let last = &state[s..s + words];
        let mut doubled = vec![0u64; (2 * w).div_ceil(64)];
        for x in (0..w).filter(|&x| last[x / 64] >> (x % 64) & 1 == 1) {
            for y in [x, x + w] {
                doubled[y / 64] |= 1 << (y % 64);
            }
        }
        let mut m = gf2::Matrix::zeros(cols, cols);
        for i in 0..cols {
            // Cell i is reached from column j by the chase of j, c[i - j],
            // and of its image, c[i + 2 + j]; the chase is symmetric, c[-x] = c[x].
            let row = m.row_mut(i);
            xor_window(row, &doubled, (w - i) % w, cols);
            xor_window(row, &doubled, (i + 2) % w, cols);
        }
        Some(m)
    }

    /// The residual matrix by the symbolic chase, 512 first-row presses at a
    /// time, blocks on both cores.
    fn symbolic_blocks(&self) -> gf2::Matrix {
        const BLOCK: usize = 8; // words of first-row variables per block
        let (_, cols) = self.chase_dims();
        let words = cols.div_ceil(64);
        let blocks: Vec<(usize, Vec<u64>)> = (0..words)
            .step_by(BLOCK)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|w0| (w0, self.symbolic(w0, BLOCK.min(words - w0))))
            .collect();
        // Row x of the residual: which first-row presses reach last-row cell x.
        let mut residual_rows = gf2::Matrix::zeros(cols, cols);
        for (w0, residual) in blocks {
            let wb = BLOCK.min(words - w0);
            for x in 0..cols {
                residual_rows.row_mut(x)[w0..w0 + wb]
                    .copy_from_slice(&residual[x * wb..(x + 1) * wb]);
            }
        }
        residual_rows
    }

    /// The symbolic chase for first-row variables `64*w0 ..`, `wb` words of
    /// them per cell: returns the last row's residual, `cols x wb` words.
    /// Each stencil offset moves a whole row of vectors with one slice XOR,
    /// restricted to the light cone where the presses can be non-zero.
    fn symbolic(&self, w0: usize, wb: usize) -> Vec<u64> {
        let (rows, cols) = self.chase_dims();
        let offsets = self.chase_offsets();
        let reach = self.reach();
        let spread = offsets
            .iter()
            .map(|o| o.1.unsigned_abs())
            .max()
            .unwrap_or(0);
        let ring = reach + 2;
        let width = cols * wb;
        let mut state = vec![0u64; ring * width];
        let mut press = vec![0u64; width];
        let (lo0, hi0) = ((w0 * 64).min(cols), ((w0 + wb) * 64).min(cols));
        for t in 0..rows {
            if t > 0 && t + reach < rows {
                let s = ((t + reach) % ring) * width;
                state[s..s + width].fill(0);
            }
            // Where this row's presses can be non-zero.
            let lo = lo0.saturating_sub(t.saturating_mul(spread));
            let hi = hi0.saturating_add(t.saturating_mul(spread)).min(cols);
            if t == 0 {
                for x in lo0..hi0 {
                    let j = x - w0 * 64;
                    press[x * wb + j / 64] = 1 << (j % 64);
                }
            } else {
                let s = ((t - 1) % ring) * width;
                press[lo * wb..hi * wb].copy_from_slice(&state[s + lo * wb..s + hi * wb]);
            }
            for &(dt, dc) in &offsets {
                let target = t as isize + dt;
                if !(0..rows as isize).contains(&target) {
                    continue;
                }
                // dst x + dc ^= press x, for x in [lo, hi) with x + dc on the board.
                let from = (lo as isize).max(-dc);
                let to = (hi as isize).min(cols as isize - dc);
                if from >= to {
                    continue;
                }
                let (from, to) = (from as usize, to as usize);
                let d0 = (target as usize % ring) * width + (from as isize + dc) as usize * wb;
                gf2::xor_into(
                    &mut state[d0..d0 + (to - from) * wb],
                    &press[from * wb..to * wb],
                );
            }
        }
        let s = ((rows - 1) % ring) * width;
        state[s..s + width].to_vec()
    }
}

/// A grid stencil, eliminated: solves any board by chasing.
#[derive(Clone, Debug)]
pub struct GridLinear {
    stencil: GridStencil,
    system: Solver,
    null_first: Vec<Vec<u64>>,
}

impl GridLinear {
    /// The stencil.
    pub fn stencil(&self) -> &GridStencil {
        &self.stencil
    }

    /// The dimension of the null space of the move matrix.
    pub fn nullity(&self) -> usize {
        self.null_first.len()
    }

    /// The rank of the move matrix.
    pub fn rank(&self) -> usize {
        self.stencil.rows * self.stencil.cols - self.nullity()
    }

    /// The first `count` quiet patterns of a basis: pressed-cell sets that
    /// change nothing.
    pub fn quiet_patterns(&self, count: usize) -> Vec<Bits> {
        let n = self.stencil.rows * self.stencil.cols;
        self.null_first
            .iter()
            .take(count)
            .map(|z| self.chase_with(&Bits::zeros(n), z).0)
            .collect()
    }

    /// The pressed cells whose toggles XOR to `b`, or `None` when there are none.
    pub fn solve(&self, b: &Bits) -> Option<Bits> {
        let (_, residual) = self.chase_with(b, &[]);
        let unknowns = self.system.solve(residual.words()).ok()?;
        let (presses, residual) = self.chase_with(b, &unknowns);
        (residual.count_ones() == 0).then_some(presses)
    }

    /// The chase with the system's unknowns set to `z` (words; empty for
    /// none): on a torus the first and last rows' presses, `cols` bits each.
    fn chase_with(&self, b: &Bits, z: &[u64]) -> (Bits, Bits) {
        if !self.stencil.wrap {
            return self.chase(b, z);
        }
        let (_, cols) = self.stencil.chase_dims();
        let words = cols.div_ceil(64);
        let mut x = vec![0u64; words];
        let mut y = vec![0u64; words];
        for k in (0..2 * cols).filter(|&k| z.get(k / 64).is_some_and(|w| w >> (k % 64) & 1 == 1)) {
            let (v, k) = if k < cols {
                (&mut x, k)
            } else {
                (&mut y, k - cols)
            };
            v[k / 64] |= 1 << (k % 64);
        }
        self.stencil.chase_torus(b, &x, &y)
    }

    /// Whether the move matrix is symmetric (the stencil is symmetric under
    /// negation, so pressing a toggles b exactly when pressing b toggles a).
    pub fn is_symmetric(&self) -> bool {
        let o = &self.stencil.offsets;
        o.iter().all(|&(dr, dc)| o.contains(&(-dr, -dc)))
    }

    /// The concrete chase from board `b` with first-row presses `first`
    /// (words over `cols` bits; empty for none): the pressed cells and the
    /// last row's residual.
    fn chase(&self, b: &Bits, first: &[u64]) -> (Bits, Bits) {
        let s = &self.stencil;
        let (rows, cols) = s.chase_dims();
        let mut state = s.to_chased(b);
        let mut presses = Padded::new(rows, cols);
        let offsets = s.chase_offsets();
        for t in 0..rows {
            let row = s.row_of(t);
            let press: Vec<u64> = if t == 0 {
                let mut p = vec![0u64; state.stride];
                let n = p.len().min(first.len());
                p[..n].copy_from_slice(&first[..n]);
                mask_tail(&mut p, cols);
                p
            } else {
                state.row(s.row_of(t - 1)).to_vec()
            };
            presses.row_mut(row).copy_from_slice(&press);
            for &(dt, dc) in &offsets {
                let target = t as isize + dt;
                if (0..rows as isize).contains(&target) {
                    xor_shifted(state.row_mut(s.row_of(target as usize)), &press, dc, cols);
                }
            }
        }
        let last = state.row(s.row_of(rows - 1));
        (s.unchased(&presses), Bits::from_words(cols, last))
    }
}

/// The transpose of a `rows x cols` row-major bit grid: `cols x rows`.
fn transpose(bits: &Bits, rows: usize, cols: usize) -> Bits {
    let mut out = Bits::zeros(rows * cols);
    for i in bits.ones_iter() {
        let (r, c) = (i / cols, i % cols);
        out.set(c * rows + r, true);
    }
    out
}

/// A row-major bit grid with each row starting on a word.
struct Padded {
    rows: usize,
    cols: usize,
    stride: usize,
    words: Vec<u64>,
}

impl Padded {
    fn new(rows: usize, cols: usize) -> Padded {
        let stride = cols.div_ceil(64);
        Padded {
            rows,
            cols,
            stride,
            words: vec![0; rows * stride],
        }
    }

    fn from_bits(bits: &Bits, rows: usize, cols: usize) -> Padded {
        let mut p = Padded::new(rows, cols);
        let src = bits.words();
        for r in 0..rows {
            for w in 0..p.stride {
                // Bits r*cols + 64w .. of the flat set.
                let start = r * cols + 64 * w;
                let (q, s) = (start / 64, start % 64);
                let mut v = src.get(q).copied().unwrap_or(0) >> s;
                if s > 0 {
                    v |= src.get(q + 1).copied().unwrap_or(0) << (64 - s);
                }
                p.words[r * p.stride + w] = v;
            }
            mask_tail(p.row_mut(r), cols);
        }
        p
    }

    fn to_bits(&self) -> Bits {
        let n = self.rows * self.cols;
        let mut flat = vec![0u64; n.div_ceil(64)];
        for r in 0..self.rows {
            for (w, &v) in self.row(r).iter().enumerate() {
                let start = r * self.cols + 64 * w;
                let (q, s) = (start / 64, start % 64);
                flat[q] |= v << s;
                if s > 0 && q + 1 < flat.len() {
                    flat[q + 1] |= v >> (64 - s);
                }
            }
        }
        Bits::from_words(n, &flat)
    }

    fn row(&self, r: usize) -> &[u64] {
        &self.words[r * self.stride..(r + 1) * self.stride]
    }

    fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.words[r * self.stride..(r + 1) * self.stride]
    }
}

/// Clears the bits of a row past `cols`.
fn mask_tail(row: &mut [u64], cols: usize) {
    if !cols.is_multiple_of(64)
        && let Some(last) = row.get_mut(cols / 64)
    {
        *last &= (1u64 << (cols % 64)) - 1;
    }
    for w in row.iter_mut().skip(cols.div_ceil(64)) {
        *w = 0;
    }
}

/// `dst[x + dc] ^= src[x]` for every bit `x` of a row of `cols` bits.
fn xor_shifted(dst: &mut [u64], src: &[u64], dc: isize, cols: usize) {
    let n = dst.len();
    let (words, bits) = ((dc.unsigned_abs()) / 64, (dc.unsigned_abs()) % 64);
    if dc >= 0 {
        // Towards higher bits.
        for i in (words..n).rev() {
            let j = i - words;
            let mut v = src[j] << bits;
            if bits > 0 && j > 0 {
                v |= src[j - 1] >> (64 - bits);
            }
            dst[i] ^= v;
        }
    } else {
        for (i, d) in dst.iter_mut().enumerate().take(n.saturating_sub(words)) {
            let j = i + words;
            let mut v = src[j] >> bits;
            if bits > 0 && j + 1 < n {
                v |= src[j + 1] << (64 - bits);
            }
            *d ^= v;
        }
    }
    mask_tail(dst, cols);
}

/// `dst[(x + dc) mod w] ^= src[x]` for the `w` bits of a cycle, `dc` in -1..=1.
fn xor_rotated(dst: &mut [u64], src: &[u64], dc: isize, w: usize) {
    let n = dst.len();
    let top = |v: &[u64]| v[(w - 1) / 64] >> ((w - 1) % 64) & 1;
    match dc {
        0 => gf2::xor_into(dst, src),
        1 => {
            let wrap = top(src);
            for i in (0..n).rev() {
                let carry = if i > 0 { src[i - 1] >> 63 } else { wrap };
                dst[i] ^= src[i] << 1 | carry;
            }
        }
        -1 => {
            let wrap = src[0] & 1;
            for i in 0..n {
                let carry = if i + 1 < n { src[i + 1] << 63 } else { 0 };
                dst[i] ^= src[i] >> 1 | carry;
            }
            dst[(w - 1) / 64] ^= wrap << ((w - 1) % 64);
        }
        _ => unreachable!("a mirrored stencil reaches one column aside"),
    }
    mask_tail(dst, w);
}

/// `dst ^= ` the `len` bits of `src` from bit `start` on.
fn xor_window(dst: &mut [u64], src: &[u64], start: usize, len: usize) {
    let (q, r) = (start / 64, start % 64);
    for (k, d) in dst.iter_mut().enumerate().take(len.div_ceil(64)) {
        let lo = src.get(q + k).copied().unwrap_or(0) >> r;
        let hi = if r > 0 {
            src.get(q + k + 1).copied().unwrap_or(0) << (64 - r)
        } else {
            0
        };
        *d ^= lo | hi;
    }
    mask_tail(dst, len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifted_xor_moves_bits_and_drops_the_overflow() {
        let mut dst = vec![0u64; 2];
        xor_shifted(&mut dst, &[1 << 63, 1], 1, 70);
        assert_eq!(dst, vec![0, 0b11]);
        let mut dst = vec![0u64; 2];
        xor_shifted(&mut dst, &[1, 1 << 5], -1, 70);
        assert_eq!(dst, vec![0, 1 << 4]);
        let mut dst = vec![0u64; 2];
        xor_shifted(&mut dst, &[0, 1 << 5], 1, 70);
        assert_eq!(dst, vec![0, 0], "bit 70 is off the row");
    }

    #[test]
    fn padded_round_trip() {
        let mut b = Bits::zeros(3 * 70);
        for i in [0, 69, 70, 139, 150, 209] {
            b.set(i, true);
        }
        assert_eq!(Padded::from_bits(&b, 3, 70).to_bits(), b);
    }

    #[test]
    fn images_agree_with_the_symbolic_chase() {
        let stencils: [&[(isize, isize)]; 5] = [
            &[(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)],
            &[(-1, 0), (1, 0), (0, -1), (0, 1)],
            &[(0, 0), (-1, 0), (1, 1), (1, -1)],
            &[(-1, 0), (0, 0), (2, 1), (2, -1), (1, 0)],
            &[(-1, 0), (0, -1), (0, 1), (1, 1), (1, 0), (1, -1)],
        ];
        let mut checked = 0;
        for offsets in stencils {
            for rows in 1..=9 {
                for cols in 1..=70 {
                    let Some(s) = GridStencil::new(rows, cols, offsets.to_vec()) else {
                        continue;
                    };
                    let Some(images) = s.images() else {
                        continue;
                    };
                    let symbolic = s.symbolic_blocks();
                    let (_, n) = s.chase_dims();
                    for i in 0..n {
                        assert_eq!(
                            images.row(i),
                            symbolic.row(i),
                            "{offsets:?} {rows}x{cols} row {i}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
