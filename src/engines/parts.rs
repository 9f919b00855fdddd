//! Peg positions in hash partitions: a layer as sorted partitions, and the cache-sized sets that deduplicate one partition of the next.

use rayon::prelude::*;

/// Partitions per layer: a power of two.
pub const PARTS: usize = 256;

/// The partition of a canonical grid word: the top bits of a multiplicative hash.
#[inline]
pub(crate) fn part_of(word: u64) -> usize {
    (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - PARTS.trailing_zeros())) as usize
}

/// One layer: its states (canonical grid words), partition by partition,
/// each partition sorted.
#[derive(Clone)]
pub struct Layer {
    pub(super) keys: Vec<u64>,
    /// Where each partition begins in `keys`, and where the last ends.
    starts: Vec<usize>,
}

impl Layer {
    /// The layer of `keys` (canonical grid words, in any order, repeats allowed).
    pub fn from_keys(mut keys: Vec<u64>) -> Layer {
        keys.par_sort_unstable_by_key(|&k| (part_of(k), k));
        keys.dedup();
        let mut starts = vec![0; PARTS + 1];
        for &k in &keys {
            starts[part_of(k) + 1] += 1;
        }
        for p in 0..PARTS {
            starts[p + 1] += starts[p];
        }
        Layer { keys, starts }
    }

    /// The layer of one set per partition: each copied into its place and
    /// sorted there, on rayon's threads.
    pub(crate) fn from_sets(sets: Vec<Set>) -> Layer {
        let mut starts = Vec::with_capacity(PARTS + 1);
        starts.push(0);
        for set in &sets {
            starts.push(starts.last().copied().unwrap_or(0) + set.keys.len());
        }
        // Zeroed memory comes from the system untouched: its pages are first
        // written by the threads that fill them.
        let mut keys = vec![0u64; starts[PARTS]];
        let mut places = Vec::with_capacity(PARTS);
        let mut rest = keys.as_mut_slice();
        for set in &sets {
            let (place, after) = rest.split_at_mut(set.keys.len());
            places.push(place);
            rest = after;
        }
        places.into_par_iter().zip(sets).for_each(|(place, set)| {
            place.copy_from_slice(&set.keys);
            place.sort_unstable();
        });
        Layer { keys, starts }
    }

    /// The states of the layer, partition by partition.
    pub fn states(&self) -> &[u64] {
        &self.keys
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the layer has no states.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The bytes the layer holds.
    pub fn bytes(&self) -> u64 {
        self.keys.len() as u64 * 8
    }

    /// Whether the layer holds `word` (canonical).
    #[cfg(test)]
    pub fn contains(&self, word: u64) -> bool {
        self.part(part_of(word)).binary_search(&word).is_ok()
    }

    fn part(&self, p: usize) -> &[u64] {
        &self.keys[self.starts[p]..self.starts[p + 1]]
    }

    /// The sum of `weight` over the states in both layers: partition by
    /// partition, as a merge of two sorted lists.
    pub fn common_sum(&self, other: &Layer, weight: impl Fn(u64) -> u128 + Sync) -> u128 {
        (0..PARTS)
            .into_par_iter()
            .map(|p| {
                let (a, b) = (self.part(p), other.part(p));
                let (mut i, mut j, mut sum) = (0, 0, 0);
                while i < a.len() && j < b.len() {
                    match a[i].cmp(&b[j]) {
                        std::cmp::Ordering::Less => i += 1,
                        std::cmp::Ordering::Greater => j += 1,
                        std::cmp::Ordering::Equal => {
                            sum += weight(a[i]);
                            i += 1;
                            j += 1;
                        }
                    }
                }
                sum
            })
            .sum()
    }
}

/// An insert-only set of words, by open addressing, that keeps its keys in
/// insertion order beside the table. `u64::MAX` (never a grid word of 63
/// bits) marks an empty slot.
pub(crate) struct Set {
    table: Vec<u64>,
    pub(super) keys: Vec<u64>,
    shift: u32,
}

impl Set {
    /// A set sized for about `keys` keys.
    pub(crate) fn with_capacity(keys: usize) -> Set {
        let slots = (keys * 2).next_power_of_two().max(64);
        Set {
            table: vec![u64::MAX; slots],
            keys: Vec::new(),
            shift: 64 - slots.trailing_zeros(),
        }
    }

    /// The slot a word starts probing at: hash bits below those of [`part_of`].
    #[inline]
    fn slot(&self, word: u64) -> usize {
        ((word.wrapping_mul(0x9E37_79B9_7F4A_7C15) << PARTS.trailing_zeros()) >> self.shift)
            as usize
    }

    /// Adds `word` unless it is there. Inlined into the loops that fill a
    /// layer's sets, where it is most of the work.
    #[inline(always)]
    pub(crate) fn insert(&mut self, word: u64) {
        let mask = self.table.len() - 1;
        let mut at = self.slot(word);
        loop {
            let held = self.table[at];
            if held == word {
                return;
            }
            if held == u64::MAX {
                break;
            }
            at = (at + 1) & mask;
        }
        self.table[at] = word;
        self.keys.push(word);
        if self.keys.len() * 4 > self.table.len() * 3 {
            self.grow();
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let slots = self.table.len() * 2;
        self.table = vec![u64::MAX; slots];
        self.shift -= 1;
        let mask = slots - 1;
        for &word in &self.keys {
            let mut at = self.slot(word);
            while self.table[at] != u64::MAX {
                at = (at + 1) & mask;
            }
            self.table[at] = word;
        }
    }

    /// The bytes it takes.
    pub(crate) fn bytes(&self) -> u64 {
        (self.table.len() + self.keys.capacity()) as u64 * 8
    }

    /// How many keys it holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Its keys, sorted; the table is dropped.
    #[cfg(feature = "dataflow")]
    pub(crate) fn into_sorted(self) -> Vec<u64> {
        let mut keys = self.keys;
        keys.sort_unstable();
        keys
    }
}
