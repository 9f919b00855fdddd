//! Dense matrices over GF(2), packed 64 columns to a word: reduced row echelon form by the
//! Method of Four Russians, rank, null spaces and linear systems.
//!
//! Pure mathematics: nothing here knows about puzzles.

use rayon::prelude::*;

/// A dense matrix over GF(2). Row `i` is `stride` words; bit `j % 64` of
/// word `j / 64` is column `j`. Bits past `cols` are zero.
#[derive(Clone, PartialEq, Eq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    stride: usize,
    data: Vec<u64>,
}

impl std::fmt::Debug for Matrix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Matrix {}x{}", self.rows, self.cols)?;
        for i in 0..self.rows {
            let row: String = (0..self.cols)
                .map(|j| if self.get(i, j) { '1' } else { '0' })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

/// Bytes a `rows` x `cols` matrix takes.
pub fn matrix_bytes(rows: usize, cols: usize) -> u128 {
    rows as u128 * cols.div_ceil(64) as u128 * 8
}

impl Matrix {
    /// The zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        let stride = cols.div_ceil(64);
        Matrix {
            rows,
            cols,
            stride,
            data: vec![0; rows * stride],
        }
    }

    /// The identity matrix.
    pub fn identity(n: usize) -> Matrix {
        let mut m = Matrix::zeros(n, n);
        for i in 0..n {
            m.set(i, i, true);
        }
        m
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Entry `(i, j)`.
    pub fn get(&self, i: usize, j: usize) -> bool {
        debug_assert!(i < self.rows && j < self.cols);
        self.data[i * self.stride + j / 64] >> (j % 64) & 1 == 1
    }

    /// Sets entry `(i, j)`.
    pub fn set(&mut self, i: usize, j: usize, value: bool) {
        debug_assert!(i < self.rows && j < self.cols);
        let w = &mut self.data[i * self.stride + j / 64];
        let bit = 1u64 << (j % 64);
        if value {
            *w |= bit;
        } else {
            *w &= !bit;
        }
    }

    /// Row `i` as words.
    pub fn row(&self, i: usize) -> &[u64] {
        &self.data[i * self.stride..(i + 1) * self.stride]
    }

    /// Row `i` as words, mutable. Keep bits past `cols` zero.
    pub fn row_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.data[i * self.stride..(i + 1) * self.stride]
    }

    /// The transpose.
    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in ones(self.row(i)) {
                t.set(j, i, true);
            }
        }
        t
    }

    /// The product `self * other`.
    pub fn mul(&self, other: &Matrix) -> Matrix {
        assert_eq!(self.cols, other.rows, "dimensions do not match");
        let mut out = Matrix::zeros(self.rows, other.cols);
        for i in 0..self.rows {
            for k in ones(self.row(i)) {
                let (src, dst) = (other.row(k).to_vec(), out.row_mut(i));
                xor_into(dst, &src);
            }
        }
        out
    }

    /// The product with a column vector given as words.
    pub fn mul_vec(&self, x: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.rows.div_ceil(64)];
        for i in 0..self.rows {
            let dot = self
                .row(i)
                .iter()
                .zip(x)
                .map(|(a, b)| (a & b).count_ones())
                .sum::<u32>();
            if dot & 1 == 1 {
                out[i / 64] |= 1 << (i % 64);
            }
        }
        out
    }

    fn swap_rows(&mut self, a: usize, b: usize) {
        if a != b {
            let s = self.stride;
            let (lo, hi) = (a.min(b), a.max(b));
            let (first, second) = self.data.split_at_mut(hi * s);
            first[lo * s..(lo + 1) * s].swap_with_slice(&mut second[..s]);
        }
    }

    /// `row[dst] ^= row[src]`, from word `from` on.
    fn xor_rows(&mut self, dst: usize, src: usize, from: usize) {
        let s = self.stride;
        if dst < src {
            let (a, b) = self.data.split_at_mut(src * s);
            xor_into(&mut a[dst * s + from..(dst + 1) * s], &b[from..s]);
        } else {
            let (a, b) = self.data.split_at_mut(dst * s);
            xor_into(&mut b[from..s], &a[src * s + from..(src + 1) * s]);
        }
    }

    /// Bits `j..j+n` of row `i` (n <= 64), as the low bits of a word.
    fn window(&self, i: usize, j: usize, n: usize) -> u64 {
        let row = self.row(i);
        let (w, b) = (j / 64, j % 64);
        let mut v = row[w] >> b;
        if b + n > 64 && w + 1 < self.stride {
            v |= row[w + 1] << (64 - b);
        }
        if n < 64 { v & ((1u64 << n) - 1) } else { v }
    }

    /// Brings the matrix to reduced row echelon form, choosing pivots only in
    /// columns `< pivot_cols` (the rest is carried along, as an augmented
    /// part). Returns the pivot column of each of the first `rank` rows.
    ///
    /// Method of Four Russians: columns are taken in blocks of up to 32; the
    /// block's pivot rows are found by plain elimination on 64-bit windows
    /// and reduced against one another, so that each has zeros at the other
    /// pivots. They are split into groups of 8, and every combination of a
    /// group's rows goes into that group's table (one row XOR each). Every
    /// other row is then cleared on the whole block in one pass: its bits at
    /// the pivots index one entry of each table (a combination of one group's
    /// rows leaves the other groups' pivot bits alone), and the row takes the
    /// XOR of those entries. Those row updates run on all cores.
    pub fn rref(&mut self, pivot_cols: usize) -> Vec<usize> {
        const K: usize = 32;
        const GROUP: usize = 8;
        let pivot_cols = pivot_cols.min(self.cols);
        let mut pivots = Vec::new();
        let mut r = 0;
        let mut c = 0;
        let mut tables: Vec<Vec<u64>> = vec![Vec::new(); K / GROUP];
        while c < pivot_cols && r < self.rows {
            let k = K.min(pivot_cols - c);
            // 1. Plain elimination on this block to find up to k pivot rows r..r+p.
            let mut block_pivots: Vec<usize> = Vec::new(); // pivot columns, in order
            for j in c..c + k {
                let p = block_pivots.len();
                let found = (r + p..self.rows).find(|&i| {
                    // Reduce the row's block window by the pivots found so far.
                    let mut win = self.window(i, c, k);
                    for (q, &pc) in block_pivots.iter().enumerate() {
                        if win >> (pc - c) & 1 == 1 {
                            win ^= self.window(r + q, c, k);
                        }
                    }
                    win >> (j - c) & 1 == 1
                });
                let Some(i) = found else { continue };
                self.swap_rows(r + p, i);
                let from = c / 64;
                for (q, &pc) in block_pivots.iter().enumerate() {
                    if self.get(r + p, pc) {
                        self.xor_rows(r + p, r + q, from);
                    }
                }
                // Clear column j from the earlier pivot rows of this block.
                for q in 0..p {
                    if self.get(r + q, j) {
                        self.xor_rows(r + q, r + p, from);
                    }
                }
                block_pivots.push(j);
            }
            let p = block_pivots.len();
            if p == 0 {
                c += k;
                continue;
            }
            // 2. One table per group of up to 8 pivot rows: all their combinations,
            // from word c/64 on.
            let from = c / 64;
            let width = self.stride - from;
            let groups = p.div_ceil(GROUP);
            for (g, table) in tables.iter_mut().enumerate().take(groups) {
                let first = g * GROUP;
                let size = GROUP.min(p - first);
                table.clear();
                table.resize((1 << size) * width, 0);
                for e in 1usize..1 << size {
                    // Entry e = entry (e without its lowest bit) ^ the pivot row of that bit.
                    let (bit, base) = (e.trailing_zeros() as usize, e & (e - 1));
                    let (done, rest) = table.split_at_mut(e * width);
                    let dst = &mut rest[..width];
                    dst.copy_from_slice(&done[base * width..(base + 1) * width]);
                    let row = r + first + bit;
                    xor_into(
                        dst,
                        &self.data[row * self.stride + from..(row + 1) * self.stride],
                    );
                }
            }
            // 3. Clear the block's pivot columns from every other row, in one pass each.
            let stride = self.stride;
            let offsets: Vec<usize> = block_pivots.iter().map(|&pc| pc - c).collect();
            let tables = &tables[..groups];
            let clear = |row: &mut [u64]| {
                let win = window_of(row, c, k);
                let mut entries: [&[u64]; K / GROUP] = [&[]; K / GROUP];
                let mut used = 0;
                for (g, table) in tables.iter().enumerate() {
                    let mut index = 0;
                    for (q, &o) in offsets[g * GROUP..].iter().take(GROUP).enumerate() {
                        index |= ((win >> o & 1) as usize) << q;
                    }
                    if index != 0 {
                        entries[used] = &table[index * width..(index + 1) * width];
                        used += 1;
                    }
                }
                let dst = &mut row[from..];
                match &entries[..used] {
                    [] => {}
                    [a] => xor_into(dst, a),
                    [a, b] => xor_into2(dst, a, b),
                    [a, b, rest @ ..] => {
                        xor_into2(dst, a, b);
                        for e in rest {
                            xor_into(dst, e);
                        }
                    }
                }
            };
            let (above, rest) = self.data.split_at_mut(r * stride);
            let below = &mut rest[p * stride..];
            above
                .par_chunks_mut(stride)
                .chain(below.par_chunks_mut(stride))
                .with_min_len(64)
                .for_each(clear);
            pivots.extend_from_slice(&block_pivots);
            r += p;
            c += k;
        }
        pivots
    }
}

/// The `k` bits (at most 64) of `row` from column `c` on.
#[inline]
fn window_of(row: &[u64], c: usize, k: usize) -> u64 {
    let (w, b) = (c / 64, c % 64);
    let mut win = row[w] >> b;
    if b > 0 && b + k > 64 && w + 1 < row.len() {
        win |= row[w + 1] << (64 - b);
    }
    if k < 64 { win & ((1 << k) - 1) } else { win }
}

/// `dst ^= a ^ b`, word by word, in one pass.
#[inline]
fn xor_into2(dst: &mut [u64], a: &[u64], b: &[u64]) {
    for ((d, x), y) in dst.iter_mut().zip(a).zip(b) {
        *d ^= x ^ y;
    }
}

/// `dst ^= src`, word by word.
#[inline]
pub fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (a, b) in dst.iter_mut().zip(src) {
        *a ^= b;
    }
}

/// The set bits of a word slice, ascending.
pub fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(w * 64 + bit)
        })
    })
}

/// The facts of one elimination of `A^T` augmented with the identity: enough
/// to solve `A x = b`, list the null space of `A`, and prove inconsistency.
#[derive(Clone, Debug)]
pub struct Solver {
    /// Rows of `A` (equations, cells of a puzzle).
    pub n: usize,
    /// Columns of `A` (unknowns, moves of a puzzle).
    pub m: usize,
    /// `[A^T | I]` in reduced row echelon form on its first `n` columns.
    reduced: Matrix,
    /// The pivot column of each of the first `rank` rows.
    pivots: Vec<usize>,
}

impl Solver {
    /// Eliminates `A`, given by its columns: `columns[j]` lists the rows set in column `j`.
    pub fn new(n: usize, columns: &[Vec<usize>]) -> Solver {
        let m = columns.len();
        let mut t = Matrix::zeros(m, n + m);
        for (j, col) in columns.iter().enumerate() {
            for &i in col {
                t.set(j, i, true);
            }
            t.set(j, n + j, true);
        }
        let pivots = t.rref(n);
        Solver {
            n,
            m,
            reduced: t,
            pivots,
        }
    }

    /// Eliminates `A`, given as a matrix (rows are equations, columns unknowns).
    pub fn from_matrix(a: &Matrix) -> Solver {
        let (n, m) = (a.rows(), a.cols());
        let at = a.transpose();
        let mut t = Matrix::zeros(m, n + m);
        let words = n.div_ceil(64);
        for j in 0..m {
            t.row_mut(j)[..words].copy_from_slice(&at.row(j)[..words]);
            t.set(j, n + j, true);
        }
        let pivots = t.rref(n);
        Solver {
            n,
            m,
            reduced: t,
            pivots,
        }
    }

    /// The rank of `A`.
    pub fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// A basis of the null space of `A`: vectors `x` (as words over `m` bits) with `A x = 0`.
    pub fn null_space(&self) -> Vec<Vec<u64>> {
        (self.rank()..self.m)
            .map(|i| self.identity_part(i))
            .collect()
    }

    fn identity_part(&self, i: usize) -> Vec<u64> {
        let mut x = vec![0u64; self.m.div_ceil(64)];
        for j in ones(self.reduced.row(i)).filter(|&j| j >= self.n) {
            x[(j - self.n) / 64] |= 1 << ((j - self.n) % 64);
        }
        x
    }

    /// Solves `A x = b` (`b` as words over `n` bits). `Ok(x)` on success;
    /// otherwise `Err(y)`: a vector with `yᵀA = 0` and `y·b = 1`, which proves
    /// that no solution exists.
    pub fn solve(&self, b: &[u64]) -> Result<Vec<u64>, Vec<u64>> {
        let words = self.n.div_ceil(64);
        let mut residual = b[..words].to_vec();
        let mut x = vec![0u64; self.m.div_ceil(64)];
        for (k, &p) in self.pivots.iter().enumerate() {
            if residual[p / 64] >> (p % 64) & 1 == 1 {
                let row = self.reduced.row(k);
                xor_into(&mut residual, &row[..words]);
                // The first n bits are now clear of row k; carry its identity part.
                for j in ones(row).filter(|&j| j >= self.n) {
                    x[(j - self.n) / 64] ^= 1 << ((j - self.n) % 64);
                }
            }
        }
        // Bits past n in the last word belong to the identity part: mask them off.
        if !self.n.is_multiple_of(64) {
            residual[words - 1] &= (1u64 << (self.n % 64)) - 1;
        }
        let Some(j) = ones(&residual).next() else {
            return Ok(x);
        };
        // residual is zero on every pivot column and one on column j (not a pivot):
        // y = e_j + the pivots of the rows that have column j is orthogonal to every
        // row of the reduced A^T (so yᵀA = 0), and y·b = y·residual = 1.
        let mut y = vec![0u64; words];
        y[j / 64] |= 1 << (j % 64);
        for (k, &p) in self.pivots.iter().enumerate() {
            if self.reduced.get(k, j) {
                y[p / 64] |= 1 << (p % 64);
            }
        }
        Err(y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_rank(rows: &[u64]) -> usize {
        let mut rows = rows.to_vec();
        let mut rank = 0;
        for bit in 0..64 {
            if let Some(i) = (rank..rows.len()).find(|&i| rows[i] >> bit & 1 == 1) {
                rows.swap(rank, i);
                for k in 0..rows.len() {
                    if k != rank && rows[k] >> bit & 1 == 1 {
                        rows[k] ^= rows[rank];
                    }
                }
                rank += 1;
            }
        }
        rank
    }

    fn from_words(rows: &[u64], cols: usize) -> Matrix {
        let mut m = Matrix::zeros(rows.len(), cols);
        for (i, &r) in rows.iter().enumerate() {
            m.row_mut(i)[0] = r & if cols == 64 { !0 } else { (1 << cols) - 1 };
        }
        m
    }

    #[test]
    fn identity_is_its_own_rref() {
        let mut m = Matrix::identity(70);
        assert_eq!(m.rref(70), (0..70).collect::<Vec<_>>());
        assert_eq!(m, Matrix::identity(70));
    }

    #[test]
    fn transpose_and_multiply() {
        let a = from_words(&[0b011, 0b110], 3);
        let t = a.transpose();
        assert_eq!((t.rows(), t.cols()), (3, 2));
        let p = a.mul(&t);
        // Row 0 · row 0 = 2 = 0, row 0 · row 1 = 1.
        assert_eq!(p, from_words(&[0b10, 0b01], 2));
    }

    proptest! {
        #[test]
        fn rref_rank_matches_naive(rows in prop::collection::vec(any::<u64>(), 1..40), cols in 1usize..=64) {
            let mask = if cols == 64 { !0 } else { (1u64 << cols) - 1 };
            let masked: Vec<u64> = rows.iter().map(|r| r & mask).collect();
            let mut m = from_words(&masked, cols);
            let pivots = m.rref(cols);
            prop_assert_eq!(pivots.len(), naive_rank(&masked));
            // Reduced: each pivot column has a single one, in its row; rows past rank are zero.
            for (k, &p) in pivots.iter().enumerate() {
                for i in 0..m.rows() {
                    prop_assert_eq!(m.get(i, p), i == k);
                }
            }
            for i in pivots.len()..m.rows() {
                prop_assert!(m.row(i).iter().all(|&w| w == 0));
            }
            prop_assert!(pivots.windows(2).all(|w| w[0] < w[1]));
        }

        #[test]
        fn solver_answers_every_right_hand_side(
            cols in prop::collection::vec(any::<u16>(), 1..14),
            n in 1usize..=12,
            b in any::<u16>(),
        ) {
            let mask = (1u16 << n) - 1;
            let columns: Vec<Vec<usize>> = cols
                .iter()
                .map(|&c| (0..n).filter(|i| (c & mask) >> i & 1 == 1).collect())
                .collect();
            let s = Solver::new(n, &columns);
            let apply = |x: &[u64]| -> u16 {
                ones(x).fold(0u16, |acc, j| acc ^ (cols[j] & mask))
            };
            // Brute force: is b in the column space?
            let m = cols.len();
            let reachable = (0u32..1 << m).any(|set| {
                (0..m).filter(|j| set >> j & 1 == 1).fold(0u16, |a, j| a ^ (cols[j] & mask)) == b & mask
            });
            match s.solve(&[(b & mask) as u64]) {
                Ok(x) => {
                    prop_assert!(reachable);
                    prop_assert_eq!(apply(&x), b & mask);
                }
                Err(y) => {
                    prop_assert!(!reachable);
                    let y = y[0] as u16;
                    for &c in &cols {
                        prop_assert_eq!((c & mask & y).count_ones() % 2, 0);
                    }
                    prop_assert_eq!((b & mask & y).count_ones() % 2, 1);
                }
            }
            // Null space: dimension m - rank, every vector maps to zero, independent.
            let null = s.null_space();
            prop_assert_eq!(null.len(), m - s.rank());
            for x in &null {
                prop_assert_eq!(apply(x), 0);
            }
            let null_words: Vec<u64> = null.iter().map(|x| x[0]).collect();
            prop_assert_eq!(naive_rank(&null_words), null.len());
        }
    }

    #[test]
    fn wide_matrices_cross_word_boundaries() {
        // A 150 x 300 matrix with a known rank: rows i and i+75 are equal.
        let mut m = Matrix::zeros(150, 300);
        let mut seed = 0x9e3779b97f4a7c15u64;
        for i in 0..75 {
            for j in 0..300 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let v = seed & 1 == 1;
                m.set(i, j, v);
                m.set(i + 75, j, v);
            }
        }
        let original = m.clone();
        let pivots = m.rref(300);
        assert!(pivots.len() <= 75);
        // Rows of the reduced matrix span the same space: each original row reduces to zero.
        for i in 0..150 {
            let mut row = original.row(i).to_vec();
            for (k, &p) in pivots.iter().enumerate() {
                if row[p / 64] >> (p % 64) & 1 == 1 {
                    xor_into(&mut row, m.row(k));
                }
            }
            assert!(row.iter().all(|&w| w == 0), "row {i} is not in the span");
        }
    }
}
