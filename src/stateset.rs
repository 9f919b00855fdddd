//! One type for sets of one-word states: a bitmap over every state, a hash set, or a sorted list.
//!
//! The search engines keep what they have seen in a [`StateSet`], and
//! enumeration keeps the states reachable from a start in one. A bitmap
//! costs 2^cells bits whatever it holds, so it is chosen up to a number of
//! cells; past that a hash set grows with what it holds, and a sorted list
//! (built once, from layers) holds a large frozen set in 8 bytes a state.

use rustc_hash::FxHashSet;

/// The bytes one state costs in a hash set, growth included.
pub const HASHED_BYTES: u128 = 36;

/// The bytes a hash set of one-word states holding `capacity` holds while
/// it grows: its table of buckets (a word and a control byte each, 8 for
/// every 7 it can hold, in a power of two) and the new table of twice as many.
pub fn hashed_growth_peak(capacity: usize) -> u128 {
    let buckets = (capacity as u128 * 8)
        .div_ceil(7)
        .next_power_of_two()
        .max(4);
    3 * buckets * 9 + 64
}

/// A set of states of at most 64 cells.
#[derive(Clone, Debug)]
pub enum StateSet {
    /// One bit per state, over all `2^cells` states.
    Bitmap(Vec<u64>),
    /// The states held, hashed.
    Hashed(FxHashSet<u64>),
    /// The states held, sorted and distinct.
    Sorted(Vec<u64>),
}

impl StateSet {
    /// A bitmap when `cells` is at most `bitmap_cells`, a hash set otherwise.
    pub fn new(cells: usize, bitmap_cells: usize) -> StateSet {
        if cells <= bitmap_cells {
            StateSet::Bitmap(vec![0; Self::bitmap_words(cells)])
        } else {
            StateSet::Hashed(FxHashSet::default())
        }
    }

    /// A frozen set of the sorted, distinct `states`.
    pub fn sorted(mut states: Vec<u64>) -> StateSet {
        states.sort_unstable();
        states.dedup();
        StateSet::Sorted(states)
    }

    /// The words of a bitmap over `2^cells` states.
    pub fn bitmap_words(cells: usize) -> usize {
        ((1u128 << cells) / 64).max(1) as usize
    }

    /// Adds `state`; false when it was already there.
    #[inline]
    pub fn insert(&mut self, state: u64) -> bool {
        match self {
            StateSet::Bitmap(bits) => {
                let (w, b) = ((state / 64) as usize, state % 64);
                let fresh = bits[w] >> b & 1 == 0;
                bits[w] |= 1 << b;
                fresh
            }
            StateSet::Hashed(set) => set.insert(state),
            StateSet::Sorted(list) => match list.binary_search(&state) {
                Ok(_) => false,
                Err(at) => {
                    list.insert(at, state);
                    true
                }
            },
        }
    }

    /// Whether `state` is in the set.
    #[inline]
    pub fn contains(&self, state: u64) -> bool {
        match self {
            StateSet::Bitmap(bits) => bits[(state / 64) as usize] >> (state % 64) & 1 == 1,
            StateSet::Hashed(set) => set.contains(&state),
            StateSet::Sorted(list) => list.binary_search(&state).is_ok(),
        }
    }

    /// The bytes the set holds now.
    pub fn bytes(&self) -> u128 {
        match self {
            StateSet::Bitmap(bits) => bits.len() as u128 * 8,
            StateSet::Hashed(set) => set.capacity() as u128 * HASHED_BYTES / 2,
            StateSet::Sorted(list) => list.capacity() as u128 * 8,
        }
    }

    /// How many more states the set takes before its table grows (a hash
    /// set; the others never grow when a state is looked up). A hash set at
    /// its capacity grows on the next insert, even of a state it holds.
    #[inline]
    pub fn headroom(&self) -> usize {
        match self {
            StateSet::Hashed(set) => set.capacity() - set.len(),
            _ => usize::MAX,
        }
    }

    /// The bytes the set holds at its peak while its table grows: the old
    /// table and the new one, twice as large (a hash set; otherwise what it holds).
    pub fn growth_peak(&self) -> u128 {
        match self {
            StateSet::Hashed(set) => hashed_growth_peak(set.capacity()),
            _ => self.bytes(),
        }
    }

    /// The bytes the set would hold with `more` states added.
    pub fn bytes_with(&self, more: usize) -> u128 {
        match self {
            StateSet::Bitmap(_) => self.bytes(),
            StateSet::Hashed(set) => (set.len() + more) as u128 * HASHED_BYTES,
            StateSet::Sorted(list) => (list.len() + more) as u128 * 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_holds_the_same_states() {
        let states = [5u64, 0, 1023, 5, 77, 0];
        let mut sets = [
            StateSet::new(10, 10),
            StateSet::new(10, 9),
            StateSet::sorted(vec![]),
        ];
        for set in &mut sets {
            let fresh: Vec<bool> = states.iter().map(|&s| set.insert(s)).collect();
            assert_eq!(fresh, [true, true, true, false, true, false]);
            for s in 0..1024 {
                assert_eq!(set.contains(s), states.contains(&s));
            }
        }
    }
}
