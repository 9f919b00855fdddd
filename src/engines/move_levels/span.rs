//! The span of the jumps' flips over GF(2): positions in one class of it are the only ones a start can reach.

/// The span of the jumps' flips over GF(2), in echelon form: a position's
/// class is its coset, and jumps never leave it.
pub(super) struct Span {
    /// Basis vectors by their highest bit.
    pub(super) basis: Vec<u64>,
}

impl Span {
    pub(super) fn new(vectors: &[u64]) -> Span {
        let mut basis: Vec<u64> = Vec::new();
        for &v in vectors {
            let r = Span::reduce(&basis, v);
            if r != 0 {
                basis.push(r);
                basis.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        Span { basis }
    }

    pub(super) fn reduce(basis: &[u64], mut v: u64) -> u64 {
        for &b in basis {
            let top = 63 - b.leading_zeros();
            if v >> top & 1 == 1 {
                v ^= b;
            }
        }
        v
    }

    pub(super) fn contains(&self, v: u64) -> bool {
        Span::reduce(&self.basis, v) == 0
    }
}
