//! Light chasing: a grid stencil's presses forced row by row, leaving a `cols x cols` system over GF(2).
//!
//! When a stencil's offsets reach the row before (in chase order) only at
//! `dc = 0`, and nothing further back, the presses of each row are forced
//! by the row before: every cell is a linear function of the first row's
//! presses, and only a `cols x cols` system remains. This is what lets
//! boards far too large to list their moves (10^8 cells) be solved.

use rayon::prelude::*;

use crate::bits::Bits;
use crate::gf2::{self, Solver};
use crate::program::stencil::{
    GridStencil, Padded, mask_tail, xor_rotated, xor_shifted, xor_window,
};

/// Estimated peak memory in bytes and work in word operations of
/// eliminating and solving one board.
pub(crate) fn cost(stencil: &GridStencil) -> (u128, u128) {
    let (rows, cols) = stencil.chase_dims();
    let (rows, cols) = (rows as u128, cols as u128);
    let words = cols.div_ceil(64);
    let reach = stencil
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
    let unknowns = if stencil.wrap { 2 * cols } else { cols };
    let system = unknowns * unknowns.div_ceil(64) * 8 * 3 + unknowns * 8 * 8;
    let memory = boards + symbolic + system + (1 << 20);
    let offsets = stencil.offsets.len() as u128;
    let work = rows * offsets * cols * words
        + unknowns * unknowns * unknowns.div_ceil(64) / 8
        + rows * words * offsets;
    (memory, work)
}

impl GridStencil {
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

#[cfg(test)]
mod tests {
    use super::*;

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
