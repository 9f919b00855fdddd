//! The store of earlier levels: the positions' mixes in partitions by their top bits, each a sorted array with a level byte per position and an index of the next bits.

use crate::word::Word;

/// A bijective mix of a position's bits (an odd multiplier): positions in
/// the order of their mix are spread evenly over its range.
#[inline]
pub(super) fn mix<W: Word>(position: W) -> W {
    position.mix()
}

/// The position whose [`mix`] is `key`.
#[inline]
pub(super) fn unmix<W: Word>(key: W) -> W {
    key.unmix()
}

/// The most top bits of a mix that choose its partition: 1,024 partitions.
const MOST_PART_BITS: u32 = 10;

/// The most held keys per key looked for that [`retain_absent_in`]
/// walks one by one; past it, it gallops.
const LINEAR_WALK: usize = 8;

/// The positions per partition past which the store splits its partitions
/// (until it has [`MOST_PART_BITS`]): a small search keeps one partition.
const PART_SIZE: usize = 1 << 14;

/// The partition of a mix among `1 << bits`.
#[inline]
pub(super) fn part_of<W: Word>(key: W, bits: u32) -> usize {
    key.top(bits)
}

/// The level of each position a side has reached, in partitions by the top
/// bits of the positions' mixes (so that a growing level's buckets meet one
/// partition each, in cache, and go in on every thread; a small store has
/// one, and the partitions split as it grows). A partition holds its mixes
/// in one sorted array, each with its level (9 bytes a position, 17 with
/// 128-bit positions), and an
/// index of where each range of the next bits begins: a look-up reads the
/// index and searches a bucket of about 8 to 16 keys. A level goes in at
/// once, merged into each partition in place from the back.
pub(super) struct LevelMap<W: Word> {
    /// The top bits that choose a partition.
    bits: u32,
    parts: Vec<Part<W>>,
}

/// One partition of a [`LevelMap`].
#[derive(Clone, Default)]
pub(super) struct Part<W: Word> {
    pub(super) keys: Vec<W>,
    levels: Vec<u8>,
    /// `index[b]` is the first key whose `bits` bits after the partition's are at least `b`.
    index: Vec<u32>,
    bits: u32,
}

impl<W: Word> Part<W> {
    /// Where `key` is in the partition (one of `1 << part_bits`), if it is.
    #[inline]
    fn find(&self, key: W, part_bits: u32) -> Option<usize> {
        let bucket = (key << part_bits).top(self.bits);
        let (from, to) = (self.index[bucket] as usize, self.index[bucket + 1] as usize);
        let at = self.keys[from..to].binary_search(&key).ok()?;
        Some(from + at)
    }

    /// Gives `level` to each of the positions `fresh` (sorted by mix, not in
    /// the partition yet): their mixes merged into the keys from the back,
    /// then the index made again.
    fn merge(&mut self, fresh: &[W], level: u8, part_bits: u32) {
        if fresh.is_empty() {
            return;
        }
        let old = self.keys.len();
        let more = fresh.len();
        self.keys.reserve_exact(more);
        self.levels.reserve_exact(more);
        self.keys.resize(old + more, W::ZERO);
        self.levels.resize(old + more, 0);
        let mut i = old;
        let mut w = old + more;
        for new in fresh.iter().rev().map(|&p| mix(p)) {
            while i > 0 && self.keys[i - 1] > new {
                w -= 1;
                self.keys[w] = self.keys[i - 1];
                self.levels[w] = self.levels[i - 1];
                i -= 1;
            }
            w -= 1;
            self.keys[w] = new;
            self.levels[w] = level;
        }
        self.reindex(part_bits);
    }

    /// Makes the index again: a bucket for about every 16 keys.
    fn reindex(&mut self, part_bits: u32) {
        let len = self.keys.len();
        self.bits = (usize::BITS - (len / 16).leading_zeros()).min(W::BITS - part_bits);
        let buckets = 1usize << self.bits;
        self.index.clear();
        self.index.reserve_exact(buckets + 1);
        let mut at = 0;
        for bucket in 0..buckets {
            while at < len && (self.keys[at] << part_bits).top(self.bits) < bucket {
                at += 1;
            }
            self.index.push(at as u32);
        }
        self.index.push(len as u32);
    }

    fn bytes(&self) -> u64 {
        (self.keys.capacity() * LevelMap::<W>::PER_POSITION + self.index.capacity() * 4) as u64
    }
}

impl<W: Word> LevelMap<W> {
    /// The bytes a position takes: its mix and its level.
    const PER_POSITION: usize = std::mem::size_of::<W>() + 1;

    pub(super) fn new() -> LevelMap<W> {
        let mut part = Part::default();
        part.reindex(0);
        LevelMap {
            bits: 0,
            parts: vec![part],
        }
    }

    /// The top bits of a mix that choose its partition.
    pub(super) fn bits(&self) -> u32 {
        self.bits
    }

    #[inline]
    pub(super) fn get(&self, position: W) -> Option<u32> {
        self.get_mixed(mix(position))
    }

    /// The level of the position whose [`mix`] is `key`.
    #[inline]
    pub(super) fn get_mixed(&self, key: W) -> Option<u32> {
        let part = &self.parts[part_of(key, self.bits)];
        part.find(key, self.bits)
            .map(|at| u32::from(part.levels[at]))
    }

    /// Keeps of `keys` (sorted mixes, all of one partition) those the map
    /// does not hold.
    pub(super) fn retain_absent(&self, keys: &mut Vec<W>) {
        let Some(&first) = keys.first() else {
            return;
        };
        let held = self.parts[part_of(first, self.bits)].keys.as_slice();
        retain_absent_in(held.len(), |at| held[at], keys);
    }

    /// The positions held.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.parts.iter().map(|p| p.keys.len()).sum()
    }

    /// The bytes held: keys, levels and the indexes.
    pub(super) fn bytes(&self) -> u64 {
        self.parts.iter().map(Part::bytes).sum()
    }

    /// The bytes that `more` positions add.
    pub(super) fn bytes_for(more: usize) -> u64 {
        (more * Self::PER_POSITION) as u64
    }

    /// Gives `level` to each of `positions` (sorted by mix, none in the map
    /// yet), the partitions on rayon's threads; then splits the partitions
    /// if they have grown past [`PART_SIZE`].
    pub(super) fn insert(&mut self, positions: &[W], level: u8) {
        use rayon::prelude::*;
        let bits = self.bits;
        let bounds = part_bounds(positions, bits);
        self.parts
            .par_iter_mut()
            .enumerate()
            .for_each(|(p, part)| part.merge(&positions[bounds[p]..bounds[p + 1]], level, bits));
        let len: usize = self.parts.iter().map(|p| p.keys.len()).sum();
        let mut want = self.bits;
        while want < MOST_PART_BITS && len >> want > PART_SIZE {
            want += 1;
        }
        if want > self.bits {
            self.split(want);
        }
    }

    /// Splits every partition into those of `bits` top bits, one old
    /// partition at a time (each freed once split).
    fn split(&mut self, bits: u32) {
        let old = std::mem::take(&mut self.parts);
        let mut parts = Vec::with_capacity(1 << bits);
        for part in old {
            let mut from = 0;
            for _ in 0..1usize << (bits - self.bits) {
                let p = parts.len();
                let to = from + part.keys[from..].partition_point(|&k| part_of(k, bits) <= p);
                let mut new = Part {
                    keys: part.keys[from..to].to_vec(),
                    levels: part.levels[from..to].to_vec(),
                    ..Part::default()
                };
                new.reindex(bits);
                parts.push(new);
                from = to;
            }
        }
        self.parts = parts;
        self.bits = bits;
    }
}

/// Where each partition of `bits` top bits of the mix begins in `positions`
/// (sorted by mix), and their end: `1 << bits` ranges.
pub(super) fn part_bounds<W: Word>(positions: &[W], bits: u32) -> Vec<usize> {
    let mut bounds: Vec<usize> = (0..1usize << bits)
        .map(|p| positions.partition_point(|&q| part_of(mix(q), bits) < p))
        .collect();
    bounds.push(positions.len());
    bounds
}

/// Keeps of `keys` (sorted mixes) those not among the `len` sorted mixes
/// that `held` gives by index: one walk through both, galloping over the
/// held ones when they are many.
pub(super) fn retain_absent_in<W: Word>(len: usize, held: impl Fn(usize) -> W, keys: &mut Vec<W>) {
    let mut at = 0;
    if len <= keys.len() * LINEAR_WALK {
        // Few held keys between two looked for: a plain walk, its branch
        // predictable, beats a gallop's searches.
        keys.retain(|&key| {
            while at < len && held(at) < key {
                at += 1;
            }
            at >= len || held(at) != key
        });
        return;
    }
    keys.retain(|&key| {
        // The first held key at or past `key`: a gallop, then a binary search.
        let mut step = 1;
        while at + step < len && held(at + step) < key {
            at += step;
            step *= 2;
        }
        let end = (at + step + 1).min(len);
        let (mut lo, mut hi) = (at, end);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if held(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        at = lo;
        at >= len || held(at) != key
    });
}

/// A level's positions sorted by mix, with an index of where each range of
/// the mix's top bits begins (a bucket for about every 16 positions), so
/// that a look-up searches one bucket as [`LevelMap`]'s do.
#[derive(Default)]
pub(super) struct SortedIndex {
    bits: u32,
    first: Vec<usize>,
}

impl SortedIndex {
    /// The index of `positions` (sorted by mix).
    pub(super) fn new<W: Word>(positions: &[W]) -> SortedIndex {
        let len = positions.len();
        let bits = (usize::BITS - (len / 16).leading_zeros()).min(W::BITS);
        let mut first = Vec::with_capacity((1 << bits) + 1);
        let mut at = 0;
        for bucket in 0..1usize << bits {
            while at < len && mix(positions[at]).top(bits) < bucket {
                at += 1;
            }
            first.push(at);
        }
        first.push(len);
        SortedIndex { bits, first }
    }

    /// Whether `positions` (those indexed) hold `position`.
    #[inline]
    pub(super) fn holds<W: Word>(&self, positions: &[W], position: W) -> bool {
        let key = mix(position);
        let bucket = key.top(self.bits);
        let Some(range) = self.first.get(bucket..bucket + 2) else {
            return false;
        };
        positions[range[0]..range[1]]
            .binary_search_by_key(&key, |&p| mix(p))
            .is_ok()
    }

    /// The bytes the index takes.
    pub(super) fn bytes(&self) -> u64 {
        (self.first.capacity() * std::mem::size_of::<usize>()) as u64
    }
}

/// Sorted mixes, split into the partitions of `bits` top bits.
#[cfg(test)]
pub(super) fn by_part<W: Word>(sorted: &[W], bits: u32) -> Vec<Vec<W>> {
    let mut out = vec![Vec::new(); 1 << bits];
    for &key in sorted {
        out[part_of(key, bits)].push(key);
    }
    out
}
