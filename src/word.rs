//! Positions as machine words: a state of at most 64 cells in a `u64`, of at most 128 in a `u128`.
//!
//! The peg engines that reach past 64 holes (the move levels, their bounds,
//! the symmetries and the jump search) are generic over [`Word`]; a board
//! that fits in 64 bits takes the `u64` path and its speed.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use crate::bits::Bits;

/// A set of cells in one unsigned word, bit `i` for cell `i`.
///
/// ```
/// use pegflip::word::Word;
/// let w = <u128 as Word>::bit(100) | <u128 as Word>::bit(3);
/// assert_eq!(w.count_ones(), 2);
/// assert_eq!(Word::trailing_zeros(w), 3);
/// assert_eq!(w.byte(12), 0x10);
/// ```
pub trait Word:
    Copy
    + Default
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The bits of the word.
    const BITS: u32;
    /// The empty set.
    const ZERO: Self;
    /// Every bit.
    const MAX: Self;

    /// The set of cell `i` alone (`i < BITS`).
    fn bit(i: usize) -> Self;

    /// The word holding `value` in its low bits.
    fn from_u64(value: u64) -> Self;

    /// The cells in the set.
    fn count_ones(self) -> u32;

    /// The lowest cell in the set (`BITS` when it is empty).
    fn trailing_zeros(self) -> u32;

    /// The highest cell in the set is `BITS - 1 - leading_zeros`.
    fn leading_zeros(self) -> u32;

    /// The set less its lowest cell.
    fn without_lowest(self) -> Self;

    /// Byte `k` (cells `8k..8k + 8`), as an index.
    fn byte(self, k: usize) -> usize;

    /// The top `bits` bits, as an index (0 when `bits` is 0).
    fn top(self, bits: u32) -> usize;

    /// A bijective mix of the bits (an odd multiplier), so that words in the
    /// order of their mix are spread evenly over its range.
    fn mix(self) -> Self;

    /// The word whose [`Word::mix`] is `self`.
    fn unmix(self) -> Self;

    /// Whether cell `i` is in the set.
    #[inline]
    fn has(self, i: usize) -> bool {
        self >> (i as u32) & Self::bit(0) != Self::ZERO
    }

    /// The cells of `bits` as a word, when they fit.
    fn from_bits(bits: &Bits) -> Option<Self>;

    /// The word as a set over `len` cells.
    fn to_bits(self, len: usize) -> Bits;
}

/// The odd multiplier of the 64-bit mix.
const MIX64: u64 = 0x9E37_79B9_7F4A_7C15;

/// The odd multiplier of the 128-bit mix.
const MIX128: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835;

/// The inverse of the odd `m` modulo 2^128 (Newton's iteration doubles the bits right each step).
const fn inverse128(m: u128) -> u128 {
    let mut x = m;
    let mut i = 0;
    while i < 7 {
        x = x.wrapping_mul(2u128.wrapping_sub(m.wrapping_mul(x)));
        i += 1;
    }
    x
}

const UNMIX64: u64 = inverse128(MIX64 as u128) as u64;
const UNMIX128: u128 = inverse128(MIX128);

macro_rules! word {
    ($t:ty, $mix:expr, $unmix:expr) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const MAX: Self = <$t>::MAX;

            #[inline]
            fn bit(i: usize) -> Self {
                1 << i
            }

            #[inline]
            fn from_u64(value: u64) -> Self {
                value as $t
            }

            #[inline]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }

            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }

            #[inline]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }

            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }

            #[inline]
            fn byte(self, k: usize) -> usize {
                (self >> (8 * k) & 0xff) as usize
            }

            #[inline]
            fn top(self, bits: u32) -> usize {
                self.checked_shr(<$t>::BITS - bits).unwrap_or(0) as usize
            }

            #[inline]
            fn mix(self) -> Self {
                self.wrapping_mul($mix)
            }

            #[inline]
            fn unmix(self) -> Self {
                self.wrapping_mul($unmix)
            }

            fn from_bits(bits: &Bits) -> Option<Self> {
                if bits.len() > <$t>::BITS as usize {
                    return None;
                }
                let words = bits.words();
                Some(
                    words
                        .iter()
                        .enumerate()
                        .fold(0, |w, (i, &v)| w | (v as $t) << (64 * i)),
                )
            }

            fn to_bits(self, len: usize) -> Bits {
                let words: Vec<u64> = (0..<$t>::BITS / 64)
                    .map(|i| (self >> (64 * i)) as u64)
                    .collect();
                Bits::from_words(len, &words)
            }
        }
    };
}

word!(u64, MIX64, UNMIX64);
word!(u128, MIX128, UNMIX128);

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<W: Word>(samples: &[W]) {
        for &w in samples {
            assert_eq!(w.mix().unmix(), w, "{w:?}");
            assert_eq!(w.unmix().mix(), w, "{w:?}");
        }
    }

    #[test]
    fn mixes_are_bijective_and_words_read_their_bits() {
        round_trip::<u64>(&[0, 1, 7, u64::MAX, 0x8000_0000_0000_0000, 12_345_678_901]);
        round_trip::<u128>(&[0, 1, u128::MAX, 1 << 127, 0xdead_beef << 70 | 5]);
        let mut b = Bits::zeros(66);
        b.set(65, true);
        b.set(2, true);
        assert_eq!(u128::from_bits(&b), Some(1 << 65 | 1 << 2));
        assert_eq!(u64::from_bits(&b), None);
        assert_eq!((1u128 << 65 | 1 << 2).to_bits(66), b);
        assert_eq!(0b101u64.to_bits(3), Bits::from_u64(3, 0b101));
        assert_eq!(
            <u64 as Word>::from_bits(&Bits::from_u64(5, 0b10110)),
            Some(0b10110)
        );
        let w: u128 = 1 << 127 | 1 << 64 | 1;
        assert_eq!(Word::count_ones(w), 3);
        assert_eq!(w.without_lowest(), 1 << 127 | 1 << 64);
        assert_eq!(w.top(1), 1);
        assert_eq!(w.top(0), 0);
        assert_eq!(w.byte(8), 1);
        assert!(w.has(64) && !w.has(63));
    }
}
