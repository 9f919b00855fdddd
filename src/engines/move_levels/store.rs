//! The store of earlier levels: one sorted array of the positions' mixes, a level byte each, and an index of top bits.

/// A bijective mix of a position's bits (an odd multiplier): positions in
/// the order of their mix are spread evenly over its range.
#[inline]
pub(super) fn mix(position: u64) -> u64 {
    position.wrapping_mul(MIX)
}

/// The odd multiplier of [`mix`].
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// Its inverse modulo 2^64 (Newton's iteration doubles the bits right each step).
const UNMIX: u64 = {
    let mut x = MIX;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(x)));
        i += 1;
    }
    x
};

/// The position whose [`mix`] is `key`.
#[inline]
pub(super) fn unmix(key: u64) -> u64 {
    key.wrapping_mul(UNMIX)
}

/// The level of each position a side has reached: the positions' mixes in
/// one sorted array, each with its level (9 bytes a position), and an index
/// of where each range of top bits of the mix begins. A look-up reads the
/// index and searches a bucket of about 8 to 16 keys; a level goes in at once,
/// merged in place from the back.
pub(super) struct LevelMap {
    pub(super) keys: Vec<u64>,
    pub(super) levels: Vec<u8>,
    /// `index[b]` is the first key whose top `bits` bits are at least `b`.
    pub(super) index: Vec<usize>,
    pub(super) bits: u32,
}

impl LevelMap {
    pub(super) fn new() -> LevelMap {
        LevelMap {
            keys: Vec::new(),
            levels: Vec::new(),
            index: vec![0, 0],
            bits: 0,
        }
    }

    #[inline]
    pub(super) fn get(&self, position: u64) -> Option<u32> {
        self.get_mixed(mix(position))
    }

    /// The level of the position whose [`mix`] is `key`.
    #[inline]
    pub(super) fn get_mixed(&self, key: u64) -> Option<u32> {
        let bucket = key.checked_shr(64 - self.bits).unwrap_or(0) as usize;
        let (from, to) = (self.index[bucket], self.index[bucket + 1]);
        let at = self.keys[from..to].binary_search(&key).ok()?;
        Some(u32::from(self.levels[from + at]))
    }

    /// Whether the map holds the position whose [`mix`] is `key`.
    #[inline]
    pub(super) fn contains_mixed(&self, key: u64) -> bool {
        let bucket = key.checked_shr(64 - self.bits).unwrap_or(0) as usize;
        let (from, to) = (self.index[bucket], self.index[bucket + 1]);
        self.keys[from..to].binary_search(&key).is_ok()
    }

    /// The bytes held: keys, levels and the index.
    pub(super) fn bytes(&self) -> u64 {
        (self.keys.capacity() * 9 + self.index.capacity() * 8) as u64
    }

    /// The bytes that `more` positions add.
    pub(super) fn bytes_for(more: usize) -> u64 {
        more as u64 * 9
    }

    /// Gives `level` to each of the positions whose mixes are `runs`
    /// (positions not in the map yet; the runs one after another sorted):
    /// merged into the keys from the back, then the index made again (a
    /// bucket holds 8 to 16 keys, up to 2^24 buckets; past 2^28 positions,
    /// more).
    pub(super) fn insert_sorted(&mut self, runs: &[Vec<u64>], level: u8) {
        let more: usize = runs.iter().map(Vec::len).sum();
        let old = self.keys.len();
        self.keys.reserve_exact(more);
        self.levels.reserve_exact(more);
        self.keys.resize(old + more, 0);
        self.levels.resize(old + more, 0);
        let mut i = old;
        let mut w = old + more;
        for new in runs.iter().rev().flat_map(|run| run.iter().rev()) {
            while i > 0 && self.keys[i - 1] > *new {
                w -= 1;
                self.keys[w] = self.keys[i - 1];
                self.levels[w] = self.levels[i - 1];
                i -= 1;
            }
            w -= 1;
            self.keys[w] = *new;
            self.levels[w] = level;
        }
        let len = self.keys.len();
        self.bits = (usize::BITS - (len / 16).leading_zeros()).min(24);
        let buckets = 1usize << self.bits;
        self.index.clear();
        self.index.reserve_exact(buckets + 1);
        let mut at = 0;
        for bucket in 0..buckets {
            while at < len && self.keys[at].checked_shr(64 - self.bits).unwrap_or(0) < bucket as u64
            {
                at += 1;
            }
            self.index.push(at);
        }
        self.index.push(len);
    }
}
