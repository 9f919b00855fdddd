//! Peg positions in hash partitions: a layer as partitions (sorted when it is kept to be matched), and the cache-sized sets that deduplicate one partition of the next.

use rayon::prelude::*;

/// Partitions per layer: a power of two.
pub const PARTS: usize = 256;

/// The partition of a canonical grid word: the top bits of a multiplicative hash.
#[inline]
pub(crate) fn part_of(word: u64) -> usize {
    (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - PARTS.trailing_zeros())) as usize
}

/// How a layer files its positions (canonical grid words): the partition
/// each goes to, and the key that partition's [`Set`] holds for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Filing {
    /// The grid word itself, in the partition [`part_of`] gives.
    #[default]
    Words,
    /// The board's cells alone (the grid word's bits under `board`,
    /// gathered by `pext`), mixed by an odd multiplier within their `cells`
    /// bits: the mix's top bits are the partition, the rest (at most 31
    /// bits) the key, so a set holds four bytes a position instead of
    /// eight. Only where the processor has BMI2.
    Compact { board: u64, cells: u32 },
}

/// The odd multiplier of [`Filing::Compact`]'s mix.
pub(crate) const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The inverse of [`MIX`] modulo 2^64 (so modulo every 2^k), by Newton's
/// iteration: each step doubles the bits that are right.
const UNMIX: u64 = {
    let mut inverse = MIX;
    let mut step = 0;
    while step < 5 {
        inverse = inverse.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(inverse)));
        step += 1;
    }
    inverse
};

impl Filing {
    /// The compact filing of a board whose cells are the bits of `board`,
    /// where it applies: between [`PARTS`]' bits and 39 cells, on a
    /// processor with BMI2.
    pub(crate) fn compact(board: u64) -> Option<Filing> {
        let cells = board.count_ones();
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2") && (PART_BITS..=PART_BITS + 31).contains(&cells) {
            return Some(Filing::Compact { board, cells });
        }
        None
    }

    /// What the packed forms ([`Filing::pack`]) are, in words: processes
    /// that exchange them must pack alike, and a processor without AVX-512
    /// and BMI2 packs whole words where one with them packs compact keys.
    #[cfg(feature = "dataflow")]
    pub(crate) fn describe(&self) -> String {
        match *self {
            Filing::Words => "whole grid words".to_string(),
            Filing::Compact { cells, .. } => {
                format!("compact keys of {cells} cells (a processor with AVX-512 and BMI2)")
            }
        }
    }

    /// The partition of `word`.
    pub(crate) fn part(&self, word: u64) -> usize {
        match *self {
            Filing::Words => part_of(word),
            Filing::Compact { board, cells } => {
                (mix(word, board, cells) >> (cells - PART_BITS)) as usize
            }
        }
    }

    /// The packed form of a grid word, which the dataflow's buffers,
    /// batches and layers carry: the word itself, or for a compact filing
    /// its mix, whose top bits are its partition and the rest its key.
    #[cfg(feature = "dataflow")]
    #[inline]
    pub(crate) fn pack(&self, word: u64) -> u64 {
        match *self {
            Filing::Words => word,
            Filing::Compact { board, cells } => mix(word, board, cells),
        }
    }

    /// The grid word of a packed form ([`Filing::pack`]).
    #[cfg(feature = "dataflow")]
    #[inline]
    pub(crate) fn unpack(&self, packed: u64) -> u64 {
        match *self {
            Filing::Words => packed,
            Filing::Compact { board, cells } => unmix(packed, board, cells),
        }
    }

    /// Replaces the contents of `words` by the grid words of `packed`
    /// ([`Filing::unpack`]).
    #[cfg(feature = "dataflow")]
    pub(crate) fn unpack_all(&self, packed: &[u64], words: &mut Vec<u64>) {
        words.clear();
        match *self {
            Filing::Words => words.extend_from_slice(packed),
            Filing::Compact { board, cells } => {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: a compact filing is made only where the processor has BMI2.
                unsafe {
                    unmix_all(packed.iter().copied(), board, cells, words)
                };
                #[cfg(not(target_arch = "x86_64"))]
                words.extend(packed.iter().map(|&p| unmix(p, board, cells)));
            }
        }
    }

    /// The partition of a packed form ([`Filing::pack`]).
    #[cfg(feature = "dataflow")]
    #[inline]
    pub(crate) fn part_packed(&self, packed: u64) -> usize {
        match *self {
            Filing::Words => part_of(packed),
            Filing::Compact { cells, .. } => (packed >> (cells - PART_BITS)) as usize,
        }
    }

    /// The bits of a packed form its partition's set holds as its key
    /// ([`Key::of`]); the others are the same for the whole partition.
    #[cfg(all(test, feature = "dataflow"))]
    pub(crate) fn key_mask(&self) -> u64 {
        match *self {
            Filing::Words => u64::MAX,
            Filing::Compact { cells, .. } => (1 << (cells - PART_BITS)) - 1,
        }
    }

    /// The bits of the packed forms of partition `part` outside the key
    /// ([`Filing::key_mask`]).
    #[cfg(feature = "dataflow")]
    pub(crate) fn high(&self, part: usize) -> u64 {
        match *self {
            Filing::Words => 0,
            Filing::Compact { cells, .. } => (part as u64) << (cells - PART_BITS),
        }
    }

    /// The grid words of the compact `keys` of partition `part`.
    fn words(&self, part: usize, keys: &[u32]) -> Vec<u64> {
        let Filing::Compact { board, cells } = *self else {
            unreachable!("only a compact filing has compact keys")
        };
        let high = (part as u64) << (cells - PART_BITS);
        let mut words = Vec::with_capacity(keys.len());
        let mixed = keys.iter().map(|&k| high | u64::from(k));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a compact filing is made only where the processor has BMI2.
        unsafe {
            unmix_all(mixed, board, cells, &mut words)
        };
        #[cfg(not(target_arch = "x86_64"))]
        words.extend(mixed.map(|p| unmix(p, board, cells)));
        words
    }
}

/// The bits of [`PARTS`].
const PART_BITS: u32 = PARTS.trailing_zeros();

/// The mix of a grid word's cells under `board` ([`Filing::Compact`]).
#[inline(always)]
pub(crate) fn mix(word: u64, board: u64, cells: u32) -> u64 {
    gather(word, board).wrapping_mul(MIX) & ((1 << cells) - 1)
}

/// The grid word whose [`mix`] is `mixed`.
fn unmix(mixed: u64, board: u64, cells: u32) -> u64 {
    scatter(mixed.wrapping_mul(UNMIX) & ((1 << cells) - 1), board)
}

/// The grid words of the mixes `packed`, pushed onto `words`, by a loop
/// compiled for BMI2 (where `pdep` is one instruction rather than a call).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn unmix_all(packed: impl Iterator<Item = u64>, board: u64, cells: u32, words: &mut Vec<u64>) {
    words.extend(packed.map(|p| unmix(p, board, cells)));
}

/// The bits of `word` under `mask`, packed at the bottom: `pext`.
#[inline(always)]
fn gather(word: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a compact filing, the only caller, is made only where the
    // processor has BMI2.
    return unsafe { std::arch::x86_64::_pext_u64(word, mask) };
    #[cfg(not(target_arch = "x86_64"))]
    (0..64)
        .filter(|b| mask >> b & 1 == 1)
        .enumerate()
        .fold(0, |out, (k, b)| out | (word >> b & 1) << k)
}

/// The bottom bits of `packed` spread over the bits of `mask`: `pdep`,
/// the inverse of [`gather`].
#[inline(always)]
fn scatter(packed: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as for `gather`.
    return unsafe { std::arch::x86_64::_pdep_u64(packed, mask) };
    #[cfg(not(target_arch = "x86_64"))]
    (0..64)
        .filter(|b| mask >> b & 1 == 1)
        .enumerate()
        .fold(0, |out, (k, b)| out | (packed >> k & 1) << b)
}

/// One layer: its states (canonical grid words), in [`PARTS`] partitions
/// by its [`Filing`], each held apart and, when the layer was built
/// sorted, sorted.
#[derive(Clone, Default)]
pub struct Layer {
    parts: Vec<Vec<u64>>,
    filing: Filing,
}

impl Layer {
    /// The layer of `keys` (canonical grid words, in any order, repeats
    /// allowed), filed by `filing`, sorted: each chunk of keys scattered by
    /// partition, and each partition gathered, sorted and deduplicated on
    /// its own, on rayon's threads.
    pub(crate) fn from_keys(keys: Vec<u64>, filing: Filing) -> Layer {
        let chunk = keys
            .len()
            .div_ceil(rayon::current_num_threads().max(1) * 4)
            .max(1 << 12);
        let scattered: Vec<Vec<Vec<u64>>> = keys
            .par_chunks(chunk)
            .map(|c| {
                let mut parts = vec![Vec::new(); PARTS];
                for &k in c {
                    parts[filing.part(k)].push(k);
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
        Layer { parts, filing }
    }

    /// The layer the `sets` of grid words hold, one per partition, each
    /// copied out (and sorted when `sorted`) on rayon's threads. The sets
    /// keep their tables, emptied, for the next layer.
    pub(crate) fn from_sets(sets: &mut [Set<u64>], sorted: bool) -> Layer {
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
        Layer {
            parts,
            filing: Filing::Words,
        }
    }

    /// The layer the `sets` of compact keys hold by `filing`, their grid
    /// words made again partition by partition, as [`Layer::from_sets`].
    pub(crate) fn from_compact_sets(sets: &mut [Set<u32>], sorted: bool, filing: Filing) -> Layer {
        let parts = sets
            .par_iter_mut()
            .enumerate()
            .map(|(p, set)| {
                let mut part = filing.words(p, &set.take());
                if sorted {
                    part.sort_unstable();
                }
                part
            })
            .collect();
        Layer { parts, filing }
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
        self.parts[self.filing.part(word)]
            .binary_search(&word)
            .is_ok()
    }

    /// The sum of `weight` over the states in both layers, both built
    /// sorted: partition by partition, as a merge of two sorted lists.
    pub fn common_sum(&self, other: &Layer, weight: impl Fn(u64) -> u128 + Sync) -> u128 {
        assert_eq!(self.filing, other.filing, "layers matched are filed alike");
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

/// A key a [`Set`] holds: a word of 64 or 32 bits, eight or sixteen to a
/// cache line.
pub(crate) trait Slot: Copy + Eq + Send + Sync + 'static {
    /// The marker of an empty slot, never a key: a grid word has at most 63
    /// bits, and a compact key at most 31.
    const EMPTY: Self;
    /// The bits that choose a key's bucket, from the top.
    fn hash(self) -> u64;
    /// Which slots of the bucket at `slots` (a cache line) hold `key` and
    /// which are empty, a bit each, compared in one instruction each.
    ///
    /// # Safety
    /// The processor has AVX-512 (F and BW), and `slots` points to a whole
    /// bucket.
    #[cfg(target_arch = "x86_64")]
    unsafe fn compare_avx512(slots: *const Self, key: Self) -> (bool, u32);
}

impl Slot for u64 {
    const EMPTY: u64 = u64::MAX;

    /// Hash bits below those of [`part_of`], which chose the partition.
    #[inline]
    fn hash(self) -> u64 {
        self.wrapping_mul(0x9E37_79B9_7F4A_7C15) << PARTS.trailing_zeros()
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn compare_avx512(slots: *const u64, key: u64) -> (bool, u32) {
        use std::arch::x86_64::{_mm512_cmpeq_epi64_mask, _mm512_loadu_si512, _mm512_set1_epi64};
        // SAFETY: the caller gives a whole bucket.
        let line = unsafe { _mm512_loadu_si512(slots.cast()) };
        let found = _mm512_cmpeq_epi64_mask(line, _mm512_set1_epi64(key as i64));
        let empty = _mm512_cmpeq_epi64_mask(line, _mm512_set1_epi64(-1));
        (found != 0, u32::from(empty))
    }
}

impl Slot for u32 {
    const EMPTY: u32 = u32::MAX;

    /// A compact key is already the low bits of a mix: mixed again, so
    /// that its top bits spread.
    #[inline]
    fn hash(self) -> u64 {
        u64::from(self).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn compare_avx512(slots: *const u32, key: u32) -> (bool, u32) {
        use std::arch::x86_64::{_mm512_cmpeq_epi32_mask, _mm512_loadu_si512, _mm512_set1_epi32};
        // SAFETY: the caller gives a whole bucket.
        let line = unsafe { _mm512_loadu_si512(slots.cast()) };
        let found = _mm512_cmpeq_epi32_mask(line, _mm512_set1_epi32(key as i32));
        let empty = _mm512_cmpeq_epi32_mask(line, _mm512_set1_epi32(-1));
        (found != 0, u32::from(empty))
    }
}

/// A key that a set holds for a packed position ([`Filing::pack`]): the
/// packed form whole, or its low bits as a compact key.
///
/// The dataflow's workers send each other keys in batches of one partition
/// ([`batch`]): the keys as whole words, a grid word to a word or two
/// compact keys to a word, then the partition's number.
#[cfg(feature = "dataflow")]
pub(crate) trait Key: Slot + Ord {
    /// The key of `packed`: its bits under `mask` ([`Filing::key_mask`]).
    #[cfg(test)]
    fn of(packed: u64, mask: u64) -> Self;
    /// The packed form of the key, with the partition's `high` bits ([`Filing::high`]).
    fn packed(self, high: u64) -> u64;
    /// Appends `keys` to `words`, as many to a word as fit; where two
    /// keys share a word and there is an odd number of them, the last
    /// word's second key is the first key again.
    fn write(keys: &[Self], words: &mut Vec<u64>);
    /// The keys of `words` that [`Key::write`] wrote, one of them perhaps twice.
    fn read(words: &[u64]) -> &[Self];
    /// The batch of partition `part` holding `keys` ([`batch`]), leaving
    /// `keys` empty: `keys`' own vector where a key is a word (then `keys`
    /// takes `fresh(its room)`), else written into `fresh(the words needed)`.
    fn hand_over(
        keys: &mut Vec<Self>,
        part: usize,
        fresh: impl FnOnce(usize) -> Vec<u64>,
    ) -> Vec<u64>;
}

#[cfg(feature = "dataflow")]
impl Key for u64 {
    #[cfg(test)]
    fn of(packed: u64, mask: u64) -> u64 {
        packed & mask
    }
    #[inline(always)]
    fn packed(self, high: u64) -> u64 {
        high | self
    }
    fn write(keys: &[u64], words: &mut Vec<u64>) {
        words.extend_from_slice(keys);
    }
    fn read(words: &[u64]) -> &[u64] {
        words
    }
    fn hand_over(
        keys: &mut Vec<u64>,
        part: usize,
        fresh: impl FnOnce(usize) -> Vec<u64>,
    ) -> Vec<u64> {
        keys.push(part as u64);
        std::mem::replace(keys, fresh(keys.capacity()))
    }
}

#[cfg(feature = "dataflow")]
impl Key for u32 {
    #[cfg(test)]
    fn of(packed: u64, mask: u64) -> u32 {
        (packed & mask) as u32
    }
    #[inline(always)]
    fn packed(self, high: u64) -> u64 {
        high | u64::from(self)
    }
    fn write(keys: &[u32], words: &mut Vec<u64>) {
        let Some(&first) = keys.first() else {
            return;
        };
        // In the processor's own order, so that `read` sees the pair as written.
        words.extend(keys.chunks(2).map(|pair| {
            let second = pair.get(1).copied().unwrap_or(first);
            u64::from_ne_bytes(bytemuck::cast([pair[0], second]))
        }));
    }
    fn read(words: &[u64]) -> &[u32] {
        bytemuck::cast_slice(words)
    }
    fn hand_over(
        keys: &mut Vec<u32>,
        part: usize,
        fresh: impl FnOnce(usize) -> Vec<u64>,
    ) -> Vec<u64> {
        let words = batch(part, keys, fresh(keys.len().div_ceil(2) + 1));
        keys.clear();
        words
    }
}

/// The batch of partition `part` holding `keys`, as the dataflow's
/// workers send it ([`Key`]), in `words` (emptied first).
#[cfg(feature = "dataflow")]
pub(crate) fn batch<K: Key>(part: usize, keys: &[K], mut words: Vec<u64>) -> Vec<u64> {
    words.clear();
    K::write(keys, &mut words);
    words.push(part as u64);
    words
}

/// The partition and the keys of a batch ([`batch`]); `None` for no words.
#[cfg(feature = "dataflow")]
pub(crate) fn unbatch<K: Key>(words: &[u64]) -> Option<(usize, &[K])> {
    let (&part, keys) = words.split_last()?;
    Some((usize::try_from(part).ok()?, K::read(keys)))
}

/// An insert-only set of keys (grid words, or compact keys of 32 bits), by
/// open addressing over buckets of one cache line.
///
/// A key is looked for in its bucket first, all its slots at once, and
/// in the next only when that one is full. At the load the set keeps (at
/// most three quarters), nearly every lookup ends in its first bucket with
/// one branch on whether the key was there. The table is sized to the keys
/// expected, not to a power of two, so that it holds about 11 bytes a
/// grid word (5.5 a compact key).
pub(crate) struct Set<K: Slot = u64> {
    /// The slots, from the first whole cache line of the allocation on.
    table: Vec<K>,
    /// Where the first bucket begins in `table`.
    offset: usize,
    /// The number of buckets.
    buckets: usize,
    /// The keys held.
    len: usize,
}

/// Keys a [`Set`] screens at a time on a processor with AVX-512: each
/// key's first bucket is looked in with no branch on what is found, and
/// only the keys not found there are inserted one by one.
const SCREENED: usize = 64;

impl<K: Slot> Set<K> {
    /// Keys per bucket: one cache line.
    const BUCKET: usize = 64 / std::mem::size_of::<K>();

    /// A set sized for about `keys` keys.
    pub(crate) fn with_capacity(keys: usize) -> Set<K> {
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
        self.buckets = (keys * 4 / 3).div_ceil(Self::BUCKET).max(1);
        // Room for the buckets on whole cache lines, wherever the allocation
        // begins; grown to the size asked, not doubled as a vector grows.
        let slots = self.buckets * Self::BUCKET + Self::BUCKET - 1;
        self.table.clear();
        self.table.reserve_exact(slots);
        self.table.resize(slots, K::EMPTY);
        let at = self.table.as_ptr() as usize;
        self.offset = (at.next_multiple_of(64) - at) / std::mem::size_of::<K>();
        self.len = 0;
    }

    /// The bucket a key starts looking in: its hash scaled to the number
    /// of buckets.
    #[inline]
    fn bucket(&self, key: K) -> usize {
        ((u128::from(key.hash()) * self.buckets as u128) >> 64) as usize
    }

    /// Reads the table through once, in order, so that the hardware streams
    /// it into the cache: lookups then find their buckets there instead of
    /// each waiting on memory.
    pub(crate) fn warm(&self) {
        let empty = self
            .table
            .iter()
            .step_by(Self::BUCKET)
            .filter(|&&k| k == K::EMPTY)
            .count();
        std::hint::black_box(empty);
    }

    /// Adds every key of `keys` ([`Set::insert`]): on a processor with
    /// AVX-512, by a copy of the same loop that compares a bucket's slots
    /// with the key in one instruction.
    pub(crate) fn extend(&mut self, keys: &[K]) {
        self.extend_from(keys.iter().copied());
    }

    /// [`Set::extend`] with the keys of any iterator.
    #[inline(always)]
    fn extend_from(&mut self, keys: impl Iterator<Item = K>) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { self.extend_avx512(keys) };
        }
        for k in keys {
            self.insert(k);
        }
    }

    /// [`Set::extend`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn extend_avx512(&mut self, mut keys: impl Iterator<Item = K>) {
        // SAFETY: this function runs only where AVX-512 is, and a bucket
        // is a whole cache line of slots.
        let compare = |slots: &[K], key| unsafe { K::compare_avx512(slots.as_ptr(), key) };
        let mut batch = [K::EMPTY; SCREENED];
        let mut missing = [K::EMPTY; SCREENED];
        loop {
            let mut len = 0;
            for (slot, key) in batch.iter_mut().zip(keys.by_ref()) {
                *slot = key;
                len += 1;
            }
            let mut n = 0;
            for &key in &batch[..len] {
                let at = self.offset + self.bucket(key) * Self::BUCKET;
                let (found, _) = compare(&self.table[at..at + Self::BUCKET], key);
                missing[n] = key;
                n += usize::from(!found);
            }
            missing[..n]
                .iter()
                .for_each(|&k| self.insert_by(k, compare));
            if len < SCREENED {
                return;
            }
        }
    }

    /// Adds `key` unless it is there. Inlined into the loops that fill a
    /// layer's sets, where it is most of the work.
    #[inline(always)]
    pub(crate) fn insert(&mut self, key: K) {
        self.insert_by(key, |slots, key| {
            let (mut found, mut empty) = (false, 0u32);
            for (k, &held) in slots.iter().enumerate() {
                found |= held == key;
                empty |= u32::from(held == K::EMPTY) << k;
            }
            (found, empty)
        });
    }

    /// [`Set::insert`], with `compare` telling whether a bucket holds the
    /// key, and which of its slots are empty, a bit each.
    #[inline(always)]
    fn insert_by(&mut self, key: K, compare: impl Fn(&[K], K) -> (bool, u32)) {
        let mut b = self.bucket(key);
        loop {
            let at = self.offset + b * Self::BUCKET;
            let slots = &mut self.table[at..at + Self::BUCKET];
            let (found, empty) = compare(slots, key);
            if found {
                return;
            }
            if empty != 0 {
                slots[empty.trailing_zeros() as usize] = key;
                break;
            }
            b += 1;
            if b == self.buckets {
                b = 0;
            }
        }
        self.len += 1;
        if self.len * 4 > self.buckets * Self::BUCKET * 3 {
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
        for key in keys {
            self.insert(key);
        }
    }

    /// Its keys, in table order. The set keeps its allocation but no
    /// buckets: [`Set::reset`] sizes it again before the next insert.
    pub(crate) fn take(&mut self) -> Vec<K> {
        // Every slot is written and the count moves past the keys alone: no
        // branch on whether a slot is empty.
        let mut keys = vec![K::EMPTY; self.len + 1];
        let mut n = 0;
        for &k in &self.table {
            keys[n.min(self.len)] = k;
            n += usize::from(k != K::EMPTY);
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

    /// The bytes it holds.
    pub(crate) fn bytes(&self) -> u64 {
        (self.table.capacity() * std::mem::size_of::<K>()) as u64
    }

    /// How many keys it holds.
    #[cfg(any(test, feature = "dataflow"))]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

#[cfg(feature = "dataflow")]
impl<K: Key> Set<K> {
    /// Adds every key of `keys` ([`Set::extend`]); when there is one for
    /// every eight of the table's buckets or more, the table is read through
    /// first ([`Set::warm`]): streaming a line costs far less than waiting on one.
    pub(crate) fn insert_keys(&mut self, keys: &[K]) {
        if keys.len() * 8 >= self.buckets {
            self.warm();
        }
        self.extend(keys);
    }

    /// Its keys packed with the partition's `high` bits ([`Key::packed`]),
    /// in table order, in place of what `words` held. The set is left as
    /// [`Set::take`] leaves it.
    pub(crate) fn take_packed(&mut self, high: u64, words: &mut Vec<u64>) {
        // As in `take`: every slot written, no branch on whether it is empty.
        words.clear();
        words.resize(self.len + 1, 0);
        let mut n = 0;
        for &k in &self.table {
            words[n.min(self.len)] = k.packed(high);
            n += usize::from(k != K::EMPTY);
        }
        words.truncate(n);
        self.empty();
    }

    /// Its keys in batches of partition `part` ([`batch`]) of at most
    /// `chunk` keys, in table order, passed to `send`. The set is left as
    /// [`Set::take`] leaves it.
    pub(crate) fn take_in(&mut self, chunk: usize, part: usize, mut send: impl FnMut(Vec<u64>)) {
        let chunk = chunk.max(1);
        let mut keys = Vec::with_capacity(chunk.min(self.len));
        let mut flush = |keys: &mut Vec<K>| {
            let words = (keys.len() * std::mem::size_of::<K>()).div_ceil(8) + 1;
            send(batch(part, keys, Vec::with_capacity(words)));
            keys.clear();
        };
        for &k in &self.table {
            if k != K::EMPTY {
                keys.push(k);
                if keys.len() == chunk {
                    flush(&mut keys);
                }
            }
        }
        if !keys.is_empty() {
            flush(&mut keys);
        }
        self.empty();
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
    fn compact_keys_give_their_grid_words_back_and_are_never_the_empty_marker() {
        assert_eq!(MIX.wrapping_mul(UNMIX), 1);
        assert_eq!(Filing::compact((1 << 7) - 1), None);
        assert_eq!(Filing::compact((1 << 40) - 1), None);
        // Boards of 8 to 39 cells spread over a grid word, as on a 7x7 grid
        // (every other bit, then the rest).
        for cells in [8, 9, 20, 33, 37, 39] {
            let board = (0..63u64)
                .filter(|b| b % 2 == 0)
                .chain((0..63).filter(|b| b % 2 == 1))
                .take(cells)
                .fold(0u64, |m, b| m | 1 << b);
            let Some(filing) = Filing::compact(board) else {
                continue; // no BMI2 here
            };
            let shift = cells as u32 - PART_BITS;
            for k in 0..20_000u64 {
                let word = scatter(k.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 7, board);
                let mixed = mix(word, board, cells as u32);
                let (part, key) = (filing.part(word), (mixed & ((1 << shift) - 1)) as u32);
                assert!(part < PARTS && key < u32::MAX >> 1, "{cells} cells");
                assert_eq!(filing.words(part, &[key]), vec![word], "{cells} cells");
            }
        }
    }

    #[test]
    fn a_set_keeps_each_word_once_and_gives_them_all_back() {
        /// Sized for far fewer keys than it takes, it grows; taken, it is
        /// empty; sized again, it takes keys again. By `insert` and by
        /// `extend` (the processor's own compare, where it has one).
        fn check<K: Slot + Ord + std::fmt::Debug>(keys: Vec<K>, seven: K) {
            let mut expected = keys.clone();
            expected.sort_unstable();
            expected.dedup();
            for by_extend in [false, true] {
                let mut set = Set::with_capacity(10);
                if by_extend {
                    set.extend(&keys);
                } else {
                    keys.iter().for_each(|&k| set.insert(k));
                }
                assert_eq!(set.len(), expected.len());
                let mut held = set.take();
                held.sort_unstable();
                assert_eq!(held, expected);
                assert_eq!(set.len(), 0);
                set.reset(4);
                set.insert(seven);
                assert_eq!(set.take(), vec![seven]);
            }
        }
        check(words(5000), 7u64);
        check(
            words(5000).iter().map(|&w| (w >> 33) as u32).collect(),
            7u32,
        );
    }

    #[cfg(feature = "dataflow")]
    #[test]
    fn a_set_taken_in_chunks_gives_every_key_once_in_batches_of_its_partition() {
        /// Keys of one partition go in, and come back in batches of at
        /// most `chunk` keys, each once: whole words or compact keys.
        fn check<K: Key + std::fmt::Debug>(key: impl Fn(u64) -> K) {
            for (n, chunk) in [(0, 4), (1, 1), (1000, 64), (1024, 256), (999, 1000), (7, 2)] {
                let keys: Vec<K> = words(n).into_iter().map(&key).collect();
                let mut set = Set::<K>::with_capacity(n as usize);
                set.insert_keys(&keys);
                let mut got = Vec::new();
                set.take_in(chunk, 201, |words| {
                    let (part, batch) = unbatch::<K>(&words).expect("a batch is never empty");
                    assert_eq!(part, 201);
                    // Compact keys come two to a word, the odd one out twice.
                    assert!(!batch.is_empty() && batch.len() <= chunk + 1);
                    got.extend_from_slice(batch);
                });
                got.sort_unstable();
                got.dedup();
                let mut expected = keys;
                expected.sort_unstable();
                expected.dedup();
                assert_eq!(got, expected, "{n} keys in chunks of {chunk}");
                assert_eq!(set.len(), 0);
            }
        }
        check::<u64>(|w| w);
        check::<u32>(|w| (w >> 34) as u32);
    }

    #[cfg(feature = "dataflow")]
    #[test]
    fn a_batch_gives_back_its_partition_and_keys() {
        for n in [0usize, 1, 2, 3, 64, 65] {
            let keys: Vec<u32> = (0..n as u32).map(|k| k * 7 + 1).collect();
            let words = batch(5, &keys, vec![9, 9]);
            assert_eq!(words.len(), n.div_ceil(2) + 1);
            let (part, got) = unbatch::<u32>(&words).unwrap();
            assert_eq!(part, 5);
            assert_eq!(&got[..n], &keys[..]);
            // An odd one out is followed by the first key again.
            assert_eq!(got.len(), n + n % 2);
            if n % 2 == 1 {
                assert_eq!(got[n], keys[0]);
            }
            // Handed over, the keys leave the same batch.
            let mut held = keys.clone();
            assert_eq!(u32::hand_over(&mut held, 5, Vec::with_capacity), words);
            assert!(held.is_empty());
            let wide: Vec<u64> = keys.iter().map(|&k| u64::from(k) << 30).collect();
            let mut held = wide.clone();
            let words = u64::hand_over(&mut held, 5, Vec::with_capacity);
            assert_eq!(unbatch::<u64>(&words), Some((5, &wide[..])));
            assert!(held.is_empty());
        }
        assert_eq!(unbatch::<u64>(&[]), None);
    }
}
