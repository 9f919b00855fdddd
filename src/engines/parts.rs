//! Peg positions in hash partitions: a layer as partitions (sorted when it is kept to be matched), and the cache-sized sets that deduplicate one partition of the next.

use rayon::prelude::*;

/// Partitions per layer: a power of two.
pub const PARTS: usize = 256;

/// The partition of a canonical grid word: the top bits of a multiplicative hash.
#[inline]
pub(crate) fn part_of(word: u64) -> usize {
    (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - PARTS.trailing_zeros())) as usize
}

/// One layer: its states (canonical grid words), in [`PARTS`] partitions,
/// each held apart and, when the layer was built sorted, sorted.
#[derive(Clone, Default)]
pub struct Layer {
    parts: Vec<Vec<u64>>,
}

impl Layer {
    /// The layer of `keys` (canonical grid words, in any order, repeats
    /// allowed), sorted: each chunk of keys scattered by partition, and each
    /// partition gathered, sorted and deduplicated on its own, on rayon's threads.
    pub fn from_keys(keys: Vec<u64>) -> Layer {
        let chunk = keys
            .len()
            .div_ceil(rayon::current_num_threads().max(1) * 4)
            .max(1 << 12);
        let scattered: Vec<Vec<Vec<u64>>> = keys
            .par_chunks(chunk)
            .map(|c| {
                let mut parts = vec![Vec::new(); PARTS];
                for &k in c {
                    parts[part_of(k)].push(k);
                }
                parts
            })
            .collect();
        drop(keys);
        let parts = (0..PARTS)
            .into_par_iter()
            .map(|p| {
                let mut part: Vec<u64> = scattered.iter().flat_map(|s| &s[p]).copied().collect();
                part.sort_unstable();
                part.dedup();
                part
            })
            .collect();
        Layer { parts }
    }

    /// The layer the `sets` hold, one per partition, each copied out (and
    /// sorted when `sorted`) on rayon's threads. The sets keep their tables,
    /// emptied, for the next layer.
    pub(crate) fn from_sets(sets: &mut [Set], sorted: bool) -> Layer {
        let parts = sets
            .par_iter_mut()
            .map(|set| {
                let mut part = set.take();
                if sorted {
                    part.sort_unstable();
                }
                part
            })
            .collect();
        Layer { parts }
    }

    /// Every state, partition by partition, on rayon's threads.
    pub fn par_states(&self) -> impl ParallelIterator<Item = u64> + '_ {
        self.parts.par_iter().flat_map_iter(|p| p.iter().copied())
    }

    /// The layer cut into pieces of `size` states (the last may have fewer),
    /// each piece the slices of the partitions it spans, in order.
    pub(crate) fn pieces(&self, size: usize) -> Vec<Vec<&[u64]>> {
        let size = size.max(1);
        let mut pieces = Vec::new();
        let (mut piece, mut room) = (Vec::new(), size);
        for part in &self.parts {
            let mut rest = part.as_slice();
            while !rest.is_empty() {
                let (take, after) = rest.split_at(room.min(rest.len()));
                piece.push(take);
                room -= take.len();
                rest = after;
                if room == 0 {
                    pieces.push(std::mem::take(&mut piece));
                    room = size;
                }
            }
        }
        if !piece.is_empty() {
            pieces.push(piece);
        }
        pieces
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.parts.iter().map(Vec::len).sum()
    }

    /// Whether the layer has no states.
    pub fn is_empty(&self) -> bool {
        self.parts.iter().all(Vec::is_empty)
    }

    /// The bytes the layer holds.
    pub fn bytes(&self) -> u64 {
        self.parts.iter().map(|p| p.capacity() as u64 * 8).sum()
    }

    /// Whether the layer holds `word` (canonical), in a layer built sorted.
    #[cfg(test)]
    pub fn contains(&self, word: u64) -> bool {
        self.parts[part_of(word)].binary_search(&word).is_ok()
    }

    /// The sum of `weight` over the states in both layers, both built
    /// sorted: partition by partition, as a merge of two sorted lists.
    pub fn common_sum(&self, other: &Layer, weight: impl Fn(u64) -> u128 + Sync) -> u128 {
        (0..PARTS)
            .into_par_iter()
            .map(|p| {
                let (a, b) = (&self.parts[p], &other.parts[p]);
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

/// Words per bucket: one cache line.
const BUCKET: usize = 8;

/// The marker of an empty slot: never a grid word of 63 bits.
const EMPTY: u64 = u64::MAX;

/// An insert-only set of words, by open addressing over buckets of one
/// cache line.
///
/// A word is looked for in its bucket first, all eight slots at once, and
/// in the next only when that one is full. At the load the set keeps (at
/// most three quarters), nearly every lookup ends in its first bucket with
/// one branch on whether the word was there. The table is sized to the keys
/// expected, not to a power of two, so that it holds about 11 bytes a key.
pub(crate) struct Set {
    /// The slots, from the first whole cache line of the allocation on.
    table: Vec<u64>,
    /// Where the first bucket begins in `table`.
    offset: usize,
    /// The number of buckets.
    buckets: usize,
    /// The keys held.
    len: usize,
}

impl Set {
    /// A set sized for about `keys` keys.
    pub(crate) fn with_capacity(keys: usize) -> Set {
        let mut set = Set {
            table: Vec::new(),
            offset: 0,
            buckets: 0,
            len: 0,
        };
        set.reset(keys);
        set
    }

    /// Empties the set and sizes it for about `keys` keys, reusing its
    /// allocation where it is large enough: refilling memory the process
    /// already holds costs no page faults.
    pub(crate) fn reset(&mut self, keys: usize) {
        self.buckets = (keys * 4 / 3).div_ceil(BUCKET).max(1);
        // Room for the buckets on whole cache lines, wherever the allocation
        // begins; grown to the size asked, not doubled as a vector grows.
        let slots = self.buckets * BUCKET + BUCKET - 1;
        self.table.clear();
        self.table.reserve_exact(slots);
        self.table.resize(slots, EMPTY);
        let at = self.table.as_ptr() as usize;
        self.offset = (at.next_multiple_of(64) - at) / 8;
        self.len = 0;
    }

    /// The bucket a word starts looking in: hash bits below those of
    /// [`part_of`], scaled to the number of buckets.
    #[inline]
    fn bucket(&self, word: u64) -> usize {
        let hash = word.wrapping_mul(0x9E37_79B9_7F4A_7C15) << PARTS.trailing_zeros();
        ((u128::from(hash) * self.buckets as u128) >> 64) as usize
    }

    /// Reads the table through once, in order, so that the hardware streams
    /// it into the cache: lookups then find their buckets there instead of
    /// each waiting on memory.
    pub(crate) fn warm(&self) {
        let sum = self.table.iter().step_by(BUCKET).fold(0, |a, &w| a ^ w);
        std::hint::black_box(sum);
    }

    /// Adds every word of `words`; when there is one for every eight of the
    /// table's buckets or more, the table is read through first
    /// ([`Set::warm`]): streaming a line costs far less than waiting on one.
    #[cfg(feature = "dataflow")]
    pub(crate) fn insert_all(&mut self, words: &[u64]) {
        if words.len() * 8 >= self.buckets {
            self.warm();
        }
        self.extend(words);
    }

    /// Adds every word of `words` ([`Set::insert`]): on a processor with
    /// AVX-512, by a copy of the same loop that compares a bucket's eight
    /// slots with the word in one instruction.
    pub(crate) fn extend(&mut self, words: &[u64]) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { self.extend_avx512(words) };
        }
        for &w in words {
            self.insert(w);
        }
    }

    /// [`Set::extend`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn extend_avx512(&mut self, words: &[u64]) {
        use std::arch::x86_64::{_mm512_cmpeq_epi64_mask, _mm512_loadu_si512, _mm512_set1_epi64};
        let empty = _mm512_set1_epi64(EMPTY as i64);
        for &w in words {
            self.insert_by(w, |slots, word| {
                // SAFETY: a bucket is eight words, read whole.
                let line = unsafe { _mm512_loadu_si512(slots.as_ptr().cast()) };
                let found = _mm512_cmpeq_epi64_mask(line, _mm512_set1_epi64(word as i64));
                (found != 0, u32::from(_mm512_cmpeq_epi64_mask(line, empty)))
            });
        }
    }

    /// Adds `word` unless it is there. Inlined into the loops that fill a
    /// layer's sets, where it is most of the work.
    #[inline(always)]
    pub(crate) fn insert(&mut self, word: u64) {
        self.insert_by(word, |slots, word| {
            let (mut found, mut empty) = (false, 0u32);
            for (k, &held) in slots.iter().enumerate() {
                found |= held == word;
                empty |= u32::from(held == EMPTY) << k;
            }
            (found, empty)
        });
    }

    /// [`Set::insert`], with `compare` telling whether a bucket holds the
    /// word, and which of its slots are empty, a bit each.
    #[inline(always)]
    fn insert_by(&mut self, word: u64, compare: impl Fn(&[u64; BUCKET], u64) -> (bool, u32)) {
        let mut b = self.bucket(word);
        loop {
            let at = self.offset + b * BUCKET;
            let slots: &mut [u64; BUCKET] = (&mut self.table[at..at + BUCKET])
                .try_into()
                .expect("a bucket is eight slots");
            let (found, empty) = compare(slots, word);
            if found {
                return;
            }
            if empty != 0 {
                slots[empty.trailing_zeros() as usize] = word;
                break;
            }
            b += 1;
            if b == self.buckets {
                b = 0;
            }
        }
        self.len += 1;
        if self.len * 4 > self.buckets * BUCKET * 3 {
            self.grow();
        }
    }

    /// Doubles the table: the keys move to a new one.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let keys = self.take();
        self.table = Vec::new();
        self.reset(keys.len() * 2);
        for word in keys {
            self.insert(word);
        }
    }

    /// Its keys, in table order. The set keeps its allocation but no
    /// buckets: [`Set::reset`] sizes it again before the next insert.
    pub(crate) fn take(&mut self) -> Vec<u64> {
        // Every slot is written and the count moves past the keys alone: no
        // branch on whether a slot is empty.
        let mut keys = vec![0; self.len + 1];
        let mut n = 0;
        for &w in &self.table {
            keys[n.min(self.len)] = w;
            n += usize::from(w != EMPTY);
        }
        keys.truncate(n);
        self.empty();
        keys
    }

    /// Drops its keys and buckets, keeping the allocation.
    fn empty(&mut self) {
        self.table.clear();
        self.buckets = 0;
        self.len = 0;
    }

    /// Its keys, in table order, passed to `send` in vectors of at most
    /// `chunk` keys. The set is left as [`Set::take`] leaves it.
    #[cfg(feature = "dataflow")]
    pub(crate) fn take_in(&mut self, chunk: usize, mut send: impl FnMut(Vec<u64>)) {
        let chunk = chunk.max(1);
        let mut left = self.len;
        let mut keys = Vec::with_capacity(chunk.min(left));
        for &w in &self.table {
            if w != EMPTY {
                keys.push(w);
                if keys.len() == chunk {
                    left -= chunk;
                    send(std::mem::replace(
                        &mut keys,
                        Vec::with_capacity(chunk.min(left)),
                    ));
                }
            }
        }
        if !keys.is_empty() {
            send(keys);
        }
        self.empty();
    }

    /// The bytes it holds.
    pub(crate) fn bytes(&self) -> u64 {
        self.table.capacity() as u64 * 8
    }

    /// How many keys it holds.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct words of 63 bits, with each one twice.
    fn words(n: u64) -> Vec<u64> {
        (0..2 * n)
            .map(|k| (k % n).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 1)
            .collect()
    }

    #[test]
    fn a_set_keeps_each_word_once_and_gives_them_all_back() {
        // Sized for far fewer keys than it takes: it grows.
        let mut set = Set::with_capacity(10);
        for w in words(5000) {
            set.insert(w);
        }
        assert_eq!(set.len(), 5000);
        let mut keys = set.take();
        keys.sort_unstable();
        let mut expected = words(5000);
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(keys, expected);
        // Taken, it is empty; sized again, it takes keys again.
        assert_eq!(set.len(), 0);
        set.reset(4);
        set.insert(7);
        assert_eq!(set.take(), vec![7]);
    }

    #[cfg(feature = "dataflow")]
    #[test]
    fn a_set_taken_in_chunks_gives_every_key_once_in_chunks_of_at_most_the_size() {
        for (n, chunk) in [(0, 4), (1, 1), (1000, 64), (1024, 256), (999, 1000)] {
            let mut set = Set::with_capacity(n as usize);
            set.insert_all(&words(n));
            let mut got = Vec::new();
            set.take_in(chunk, |keys| {
                assert!(!keys.is_empty() && keys.len() <= chunk);
                got.extend(keys);
            });
            got.sort_unstable();
            let mut expected = words(n);
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(got, expected, "{n} keys in chunks of {chunk}");
            assert_eq!(set.len(), 0);
        }
    }
}
