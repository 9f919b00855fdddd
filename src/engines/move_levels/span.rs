//! The span of the jumps' flips over GF(2): positions in one class of it are the only ones a start can reach.

use crate::word::Word;

/// The span of the jumps' flips over GF(2), in echelon form: a position's
/// class is its coset, and jumps never leave it.
pub(super) struct Span<W: Word> {
    /// Basis vectors by their highest bit.
    pub(super) basis: Vec<W>,
}

impl<W: Word> Span<W> {
    pub(super) fn new(vectors: &[W]) -> Span<W> {
        let mut basis: Vec<W> = Vec::new();
        for &v in vectors {
            let r = Span::reduce(&basis, v);
            if r != W::ZERO {
                basis.push(r);
                basis.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        Span { basis }
    }

    pub(super) fn reduce(basis: &[W], mut v: W) -> W {
        for &b in basis {
            let top = W::BITS - 1 - b.leading_zeros();
            if v.has(top as usize) {
                v ^= b;
            }
        }
        v
    }

    pub(super) fn contains(&self, v: W) -> bool {
        Span::reduce(&self.basis, v) == W::ZERO
    }
}
