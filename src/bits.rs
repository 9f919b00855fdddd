//! Fixed-length bitsets: the state of a board and the masks of its moves.

use std::fmt;

/// A set of cells, one bit per cell, packed into 64-bit words.
///
/// Bit `i` is cell `i` in row-major order of the board's cells. Bits past
/// `len` are always zero, so equality and hashing see only real cells.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Bits {
    len: usize,
    words: Vec<u64>,
}

impl Bits {
    /// The empty set over `len` cells.
    pub fn zeros(len: usize) -> Bits {
        Bits {
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// The full set over `len` cells.
    pub fn ones(len: usize) -> Bits {
        let mut bits = Bits {
            len,
            words: vec![!0; len.div_ceil(64)],
        };
        bits.clear_tail();
        bits
    }

    /// The set whose bits are those of `value`, over `len <= 64` cells.
    pub fn from_u64(len: usize, value: u64) -> Bits {
        assert!(len <= 64, "from_u64 takes at most 64 cells");
        let mut bits = Bits::zeros(len);
        if len > 0 {
            bits.words[0] = value;
            bits.clear_tail();
        }
        bits
    }

    /// The set whose words are `words` (lowest cells first), over `len` cells.
    pub fn from_words(len: usize, words: &[u64]) -> Bits {
        let mut bits = Bits::zeros(len);
        let n = bits.words.len().min(words.len());
        bits.words[..n].copy_from_slice(&words[..n]);
        bits.clear_tail();
        bits
    }

    /// The bits as one word, when there are at most 64 cells.
    pub fn to_u64(&self) -> Option<u64> {
        match self.words.len() {
            0 => Some(0),
            1 => Some(self.words[0]),
            _ => None,
        }
    }

    /// The set as an integer in decimal (bit `i` is `2^i`), at any size.
    ///
    /// ```
    /// let mut b = pegflip::Bits::zeros(70);
    /// b.set(69, true);
    /// b.set(0, true);
    /// assert_eq!(b.to_decimal(), "590295810358705651713");
    /// ```
    pub fn to_decimal(&self) -> String {
        if let Some(v) = self.to_u64() {
            return v.to_string();
        }
        // Horner's rule over the words, high to low, 32 bits at a time.
        let mut n = Decimal::new(0);
        for &word in self.words.iter().rev() {
            n.shift_add(32, u128::from(word >> 32));
            n.shift_add(32, u128::from(word & 0xffff_ffff));
        }
        n.to_string()
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no cells at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packed words, lowest cells first.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Whether cell `i` is in the set.
    pub fn get(&self, i: usize) -> bool {
        assert!(i < self.len, "cell {i} out of range {}", self.len);
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Puts cell `i` in the set or takes it out.
    pub fn set(&mut self, i: usize, value: bool) {
        assert!(i < self.len, "cell {i} out of range {}", self.len);
        let bit = 1u64 << (i % 64);
        if value {
            self.words[i / 64] |= bit;
        } else {
            self.words[i / 64] &= !bit;
        }
    }

    /// Toggles cell `i`.
    pub fn toggle(&mut self, i: usize) {
        assert!(i < self.len, "cell {i} out of range {}", self.len);
        self.words[i / 64] ^= 1u64 << (i % 64);
    }

    /// The number of cells in the set.
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Symmetric difference in place: `self ^= other`.
    pub fn xor_assign(&mut self, other: &Bits) {
        assert_eq!(self.len, other.len, "bitsets of different lengths");
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
    }

    /// Union in place: `self |= other`.
    pub fn or_assign(&mut self, other: &Bits) {
        assert_eq!(self.len, other.len, "bitsets of different lengths");
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// Whether every cell of `self` is in `other`.
    pub fn is_subset(&self, other: &Bits) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }

    /// Whether `self` and `other` share no cell.
    pub fn is_disjoint(&self, other: &Bits) -> bool {
        self.words.iter().zip(&other.words).all(|(a, b)| a & b == 0)
    }

    /// The cells in the set, ascending.
    pub fn ones_iter(&self) -> impl Iterator<Item = usize> + '_ {
        crate::gf2::ones(&self.words)
    }

    fn clear_tail(&mut self) {
        let used = self.len % 64;
        if used != 0
            && let Some(last) = self.words.last_mut()
        {
            *last &= (1u64 << used) - 1;
        }
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = (0..self.len)
            .map(|i| if self.get(i) { '1' } else { '0' })
            .collect();
        write!(f, "Bits({text})")
    }
}

/// A non-negative integer in base-10^18 limbs, least significant first: the
/// one place big numbers are turned into decimal text.
pub(crate) struct Decimal {
    limbs: Vec<u128>,
}

impl Decimal {
    const BASE: u128 = 1_000_000_000_000_000_000;

    /// The number `value`.
    pub(crate) fn new(value: u128) -> Decimal {
        let mut n = Decimal { limbs: vec![0] };
        n.shift_add(0, value);
        n
    }

    /// `self * 2^shift + add`, for `shift` at most 59.
    pub(crate) fn shift_add(&mut self, shift: u32, add: u128) {
        let mut carry = add;
        for limb in &mut self.limbs {
            let x = (*limb << shift) + carry;
            *limb = x % Self::BASE;
            carry = x / Self::BASE;
        }
        while carry > 0 {
            self.limbs.push(carry % Self::BASE);
            carry /= Self::BASE;
        }
    }
}

impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut limbs = self.limbs.iter().rev();
        write!(f, "{}", limbs.next().copied().unwrap_or(0))?;
        limbs.try_for_each(|limb| write!(f, "{limb:018}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_has_no_bits_past_len() {
        let b = Bits::ones(70);
        assert_eq!(b.count_ones(), 70);
        assert_eq!(b.words()[1], (1 << 6) - 1);
        assert_eq!(Bits::from_u64(3, !0).to_u64(), Some(7));
    }

    #[test]
    fn set_ops_match_u64_arithmetic() {
        let a = Bits::from_u64(10, 0b1011001110);
        let b = Bits::from_u64(10, 0b0010001100);
        assert!(b.is_subset(&a));
        assert!(!a.is_subset(&b));
        let mut c = a.clone();
        c.xor_assign(&b);
        assert_eq!(c.to_u64(), Some(0b1001000010));
        assert!(c.is_disjoint(&b));
        assert_eq!(a.ones_iter().collect::<Vec<_>>(), vec![1, 2, 3, 6, 7, 9]);
    }
}
