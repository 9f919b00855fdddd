//! Grid stencils: one translation-invariant toggle on a full rectangle or torus, applied a row at a time.
//!
//! Pressing `(r, c)` toggles `(r + dr, c + dc)` for each offset of the
//! stencil that lands on the board. Rows are handled whole: applying a
//! stencil offset to a row is one XOR of a shifted slice, so the work is
//! word-parallel and needs no per-move lists. The light-chasing engine
//! (`engines::chase`) solves with the same stencil.

use crate::bits::Bits;
use crate::board::Lattice;
use crate::gf2;
use crate::puzzle::{Guard, MoveRule, Puzzle};
/// A translation-invariant toggle on a full rectangle, ready to chase.
///
/// Chasing runs along rows or, on a board wider than it is tall, along
/// columns (the board transposed), whichever leaves the smaller system:
/// a 1 x 300,000 board is chased cell by cell and leaves one unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridStencil {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    /// `(dr, dc)` on the board, distinct.
    pub(crate) offsets: Vec<(isize, isize)>,
    /// Whether the chase runs on the transposed board.
    pub(crate) transposed: bool,
    /// Whether chase order runs from the last row (of the chased board) up.
    pub(crate) upward: bool,
    /// Whether the grid is a torus: offsets wrap around both ways.
    pub(crate) wrap: bool,
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
                    ..
                },
            ] => offsets
                .iter()
                .map(|d| (d.dr as isize, d.dc as isize))
                .collect(),
            [
                MoveRule::Adjacent {
                    closed,
                    guard: Guard::Always,
                    ..
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

    pub(crate) fn new(
        rows: usize,
        cols: usize,
        offsets: Vec<(isize, isize)>,
    ) -> Option<GridStencil> {
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
    pub(crate) fn chase_dims(&self) -> (usize, usize) {
        if self.transposed {
            (self.cols, self.rows)
        } else {
            (self.rows, self.cols)
        }
    }

    /// Offsets in chase order: rows ahead (the row before is -1) and columns.
    pub(crate) fn chase_offsets(&self) -> Vec<(isize, isize)> {
        let sign = if self.upward { -1 } else { 1 };
        self.offsets
            .iter()
            .map(|&(dr, dc)| if self.transposed { (dc, dr) } else { (dr, dc) })
            .map(|(dr, dc)| (sign * dr, dc))
            .collect()
    }

    /// How many rows ahead of the pressed row, in chase order, a press reaches.
    pub(crate) fn reach(&self) -> usize {
        self.chase_offsets()
            .iter()
            .map(|o| o.0.max(0) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The chased board's row of chase row `t`.
    pub(crate) fn row_of(&self, t: usize) -> usize {
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
    pub(crate) fn xor_row(&self, dst: &mut [u64], src: &[u64], dc: isize, cols: usize) {
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
}

/// A row-major bit grid with each row starting on a word.
pub(crate) struct Padded {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) stride: usize,
    pub(crate) words: Vec<u64>,
}

impl Padded {
    pub(crate) fn new(rows: usize, cols: usize) -> Padded {
        let stride = cols.div_ceil(64);
        Padded {
            rows,
            cols,
            stride,
            words: vec![0; rows * stride],
        }
    }

    pub(crate) fn from_bits(bits: &Bits, rows: usize, cols: usize) -> Padded {
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

    pub(crate) fn to_bits(&self) -> Bits {
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

    pub(crate) fn row(&self, r: usize) -> &[u64] {
        &self.words[r * self.stride..(r + 1) * self.stride]
    }

    pub(crate) fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.words[r * self.stride..(r + 1) * self.stride]
    }
}

/// Clears the bits of a row past `cols`.
pub(crate) fn mask_tail(row: &mut [u64], cols: usize) {
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
pub(crate) fn xor_shifted(dst: &mut [u64], src: &[u64], dc: isize, cols: usize) {
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
pub(crate) fn xor_rotated(dst: &mut [u64], src: &[u64], dc: isize, w: usize) {
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
pub(crate) fn xor_window(dst: &mut [u64], src: &[u64], start: usize, len: usize) {
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
}
