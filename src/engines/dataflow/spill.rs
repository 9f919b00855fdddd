//! A dataflow worker's layers: the next one built from what arrives in cache-sized hash sets, one per partition it owns, in memory or spilled to disk as sorted runs.
//!
//! A position belongs to the worker that owns its partition. What a worker
//! keeps of its own successors, and each batch another worker sends, is one
//! partition's keys (grid words, or the 32-bit compact keys), inserted at
//! once into that partition's hash set ([`Building::receive_keys`]), so that
//! the inserts of a batch stay in one set. At the end of the round each
//! set's keys are the worker's part of the next layer, packed again
//! ([`Filing::pack`]: grid words, or mixes whose top bits are the partition
//! and whose low bits the key), partition by partition ([`Held`]), each
//! sorted when the layers are spilled or listed.
//!
//! With a spill directory, once the sets and the layer being expanded take
//! [`Spill::bytes`], the sets are written out as a run in that order (and
//! emptied); at the end of the round
//! the runs (and what is left in memory) are merged, each position once,
//! into a file of little-endian words that the next round reads back a
//! chunk at a time. A round that never spilled stays in memory.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::engines::parts::{Filing, Key, PARTS, Set, unbatch};

/// Every spill file of this process not removed yet: what [`remove_all`]
/// removes when a run ends, fails or is interrupted.
static FILES: Mutex<Registry> = Mutex::new(Registry {
    files: Vec::new(),
    closed: false,
});

/// The spill files written and not removed yet, and whether the process is
/// ending (then no new one is made: one made after the last removal would stay).
struct Registry {
    files: Vec<PathBuf>,
    closed: bool,
}

/// Creates the spill file `path`, and keeps it in [`FILES`]; refused once
/// the process is ending. The registry is held while the file is made, so a
/// removal of every file cannot miss it.
fn create(path: &Path) -> std::io::Result<File> {
    let mut registry = FILES
        .lock()
        .map_err(|_| std::io::Error::other("the spill registry is poisoned"))?;
    if registry.closed {
        return Err(std::io::Error::other("the process is ending"));
    }
    let file = File::create(path)?;
    registry.files.push(path.to_path_buf());
    Ok(file)
}

/// Removes the spill file `path`.
fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
    if let Ok(mut registry) = FILES.lock() {
        registry.files.retain(|p| p != path);
    }
}

/// Removes every spill file this process has written in `dir` and not
/// removed yet; for `None`, every one in any directory, and no more are
/// made after it (the process is ending).
pub fn remove_all(dir: Option<&Path>) {
    let Ok(mut registry) = FILES.lock() else {
        return;
    };
    if dir.is_none() {
        registry.closed = true;
    }
    let (gone, kept) = std::mem::take(&mut registry.files)
        .into_iter()
        .partition(|p: &PathBuf| dir.is_none_or(|d| p.parent() == Some(d)));
    registry.files = kept;
    for path in gone {
        let _ = std::fs::remove_file(path);
    }
}

/// The order a worker keeps its packed positions in: by partition, then by value.
fn rank(filing: &Filing, packed: u64) -> (usize, u64) {
    (filing.part_packed(packed), packed)
}

/// A layer as a worker holds it, packed: by partition, in memory or in a file.
pub(super) enum Held {
    /// The positions of each partition the worker owns, each sorted when
    /// the worker spills or lists.
    Memory(Vec<Vec<u64>>),
    /// A file of `len` little-endian words in [`rank`] order.
    Disk { path: PathBuf, len: u64 },
}

impl Held {
    /// An empty layer.
    pub(super) fn empty() -> Held {
        Held::Memory(Vec::new())
    }

    /// How many positions.
    pub(super) fn len(&self) -> u64 {
        match self {
            Held::Memory(parts) => parts.iter().map(|p| p.len() as u64).sum(),
            Held::Disk { len, .. } => *len,
        }
    }

    /// The bytes it takes in memory.
    pub(super) fn memory(&self) -> u64 {
        match self {
            Held::Memory(parts) => parts.iter().map(|p| p.capacity() as u64 * 8).sum(),
            Held::Disk { .. } => 0,
        }
    }

    /// Calls `f` on the positions in order, at most `chunk` at a time.
    pub(super) fn chunks<E>(
        &self,
        chunk: usize,
        io: impl Fn(&Path, std::io::Error) -> E,
        f: impl FnMut(&[u64]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut f = f;
        match self {
            Held::Memory(parts) => parts.iter().flat_map(|p| p.chunks(chunk)).try_for_each(f),
            Held::Disk { path, len } => {
                let file = File::open(path).map_err(|e| io(path, e))?;
                let mut reader = BufReader::with_capacity(1 << 16, file);
                let mut left = *len;
                let mut words = Vec::with_capacity(chunk);
                let mut bytes = vec![0u8; chunk * 8];
                while left > 0 {
                    let n = left.min(chunk as u64) as usize;
                    reader
                        .read_exact(&mut bytes[..n * 8])
                        .map_err(|e| io(path, e))?;
                    words.clear();
                    words.extend(
                        bytes[..n * 8]
                            .chunks_exact(8)
                            .map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes"))),
                    );
                    f(&words)?;
                    left -= n as u64;
                }
                Ok(())
            }
        }
    }

    /// Its vectors, emptied, to be filled again; a file is removed.
    pub(super) fn recycle(self) -> Vec<Vec<u64>> {
        match self {
            Held::Memory(parts) => parts,
            disk => {
                disk.discard();
                Vec::new()
            }
        }
    }

    /// Removes its file, if it has one.
    pub(super) fn discard(self) {
        if let Held::Disk { path, .. } = self {
            remove(&path);
        }
    }
}

/// The layers a worker is building, by round: one hash set per partition
/// it owns, of keys `K` ([`Key`]).
pub(super) struct Building<K: Key> {
    /// The worker's index.
    worker: usize,
    /// The workers: a worker owns the partitions `p` with `p % peers` its
    /// index, and keeps partition `p` at `p / peers`.
    peers: usize,
    /// How positions are packed.
    filing: Filing,
    /// Whether a layer is taken sorted (by [`rank`]), as a spill's runs must be.
    sorted: bool,
    /// The positions a set is first sized for.
    guess: usize,
    kept: BTreeMap<u32, Vec<Set<K>>>,
    /// Sets taken empty, kept for the next rounds when the layers are not
    /// taken sorted: refilling memory the process holds costs no page
    /// faults. A spill lets them go, to hold less.
    spare: Vec<Set<K>>,
    /// Whether anything was inserted since [`Building::inserted`] was last asked.
    fresh: bool,
}

impl<K: Key> Building<K> {
    /// The building of worker `worker` of `peers`, whose positions are
    /// packed by `filing`; with `sorted`, the layers it gives are sorted by [`rank`].
    pub(super) fn new(worker: usize, peers: usize, sorted: bool, filing: Filing) -> Building<K> {
        Building {
            worker,
            peers: peers.max(1),
            filing,
            sorted,
            guess: 0,
            kept: BTreeMap::new(),
            spare: Vec::new(),
            fresh: false,
        }
    }

    /// Sizes the sets of the rounds not begun yet for a layer of about
    /// `positions` positions on this worker.
    pub(super) fn expect(&mut self, positions: u64) {
        let sets = PARTS.div_ceil(self.peers) as u64;
        self.guess = usize::try_from(positions / sets).unwrap_or(usize::MAX);
    }

    /// Inserts the keys of `batch` ([`batch`](crate::engines::parts::batch)),
    /// of a partition this worker owns, into that partition's set for `round`.
    pub(super) fn receive(&mut self, round: u32, batch: &[u64]) {
        if let Some((part, keys)) = unbatch::<K>(batch) {
            self.receive_keys(round, part, keys);
        }
    }

    /// Inserts `keys`, keys of partition `part`, which this worker owns,
    /// into that partition's set for `round`. Keys many enough for the set
    /// read it through first ([`Set::insert_keys`]).
    pub(super) fn receive_keys(&mut self, round: u32, part: usize, keys: &[K]) {
        if !keys.is_empty() {
            self.set(round, part).insert_keys(keys);
        }
    }

    /// The set of partition `part` for `round`, made when it is the
    /// round's first; counted as inserted into.
    fn set(&mut self, round: u32, part: usize) -> &mut Set<K> {
        let (guess, count) = (self.guess, PARTS.div_ceil(self.peers));
        let spare = &mut self.spare;
        let sets = self.kept.entry(round).or_insert_with(|| {
            (0..count)
                .map(|_| match spare.pop() {
                    Some(mut set) => {
                        set.reset(guess);
                        set
                    }
                    None => Set::with_capacity(guess),
                })
                .collect()
        });
        self.fresh = true;
        &mut sets[part / self.peers]
    }

    /// Whether anything was inserted since the last call.
    pub(super) fn inserted(&mut self) -> bool {
        std::mem::take(&mut self.fresh)
    }

    /// The positions kept for `round` so far.
    #[cfg(test)]
    pub(super) fn len(&self, round: u32) -> usize {
        self.kept
            .get(&round)
            .map_or(0, |sets| sets.iter().map(Set::len).sum())
    }

    /// The bytes the sets of every round take, the spare ones too.
    pub(super) fn bytes(&self) -> u64 {
        self.kept
            .values()
            .flatten()
            .chain(&self.spare)
            .map(Set::bytes)
            .sum()
    }

    /// Takes the positions of `round`, packed, partition by partition,
    /// each sorted when the building was made `sorted`, into the vectors of
    /// `spare` as far as they go: refilled, memory the process holds costs
    /// no page faults.
    pub(super) fn take(&mut self, round: u32, spare: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let sets = self.kept.remove(&round).unwrap_or_default();
        let mut spare = spare.into_iter();
        let sorted = self.sorted;
        sets.into_iter()
            .enumerate()
            .map(|(i, mut set)| {
                // The partition's bits above the keys sort as one.
                let high = self.filing.high(i * self.peers + self.worker);
                let mut words = spare.next().unwrap_or_default();
                set.take_packed(high, &mut words);
                if sorted {
                    words.sort_unstable();
                } else {
                    self.spare.push(set);
                }
                words
            })
            .collect()
    }

    /// The rounds being built.
    fn rounds(&self) -> Vec<u32> {
        self.kept.keys().copied().collect()
    }
}

/// One worker's spill: its directory, and the runs written so far by round.
pub(super) struct Spill {
    dir: PathBuf,
    worker: usize,
    /// How positions are packed, which orders them ([`rank`]).
    filing: Filing,
    /// The bytes the layer being expanded and the sets may take before the
    /// sets are written out as a run.
    pub(super) bytes: u64,
    runs: BTreeMap<u32, Vec<PathBuf>>,
}

impl Spill {
    /// The spill of worker `worker` in `dir`, holding at most about `bytes` in memory.
    pub(super) fn new(dir: &Path, worker: usize, bytes: u64, filing: Filing) -> Spill {
        Spill {
            dir: dir.to_path_buf(),
            worker,
            filing,
            bytes: bytes.max(1),
            runs: BTreeMap::new(),
        }
    }

    /// Writes out the sets of every round of `building` as runs when they
    /// and the `layer` bytes of the layer being expanded reach [`Spill::bytes`].
    /// Sets under an eighth of it are kept: runs that small would be many.
    pub(super) fn spill_full<K: Key>(
        &mut self,
        building: &mut Building<K>,
        layer: u64,
    ) -> std::io::Result<()> {
        let sets = building.bytes();
        if sets.saturating_add(layer) < self.bytes || sets < self.bytes / 8 {
            return Ok(());
        }
        for round in building.rounds() {
            let parts = building.take(round, Vec::new());
            if parts.iter().any(|p| !p.is_empty()) {
                self.run(round, &parts)?;
            }
        }
        Ok(())
    }

    /// The next layer from round `round`: the rest of its positions,
    /// `parts` (as [`Building::take`] gives them), with the round's runs
    /// merged in when it has any.
    pub(super) fn finish(&mut self, round: u32, parts: Vec<Vec<u64>>) -> std::io::Result<Held> {
        if !self.runs.contains_key(&round) {
            return Ok(Held::Memory(parts));
        }
        if parts.iter().any(|p| !p.is_empty()) {
            self.run(round, &parts)?;
        }
        let runs = self.runs.remove(&round).unwrap_or_default();
        let path = self
            .dir
            .join(format!("w{}-layer{}.bin", self.worker, round + 1));
        let mut out = BufWriter::with_capacity(1 << 16, create(&path)?);
        let mut readers = runs
            .iter()
            .map(|p| Ok(BufReader::with_capacity(1 << 16, File::open(p)?)))
            .collect::<std::io::Result<Vec<_>>>()?;
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(w) = next_word(r)? {
                heap.push(Reverse((rank(&self.filing, w), i)));
            }
        }
        let mut len = 0u64;
        let mut last = None;
        while let Some(Reverse(((_, w), i))) = heap.pop() {
            if last != Some(w) {
                out.write_all(&w.to_le_bytes())?;
                len += 1;
                last = Some(w);
            }
            if let Some(next) = next_word(&mut readers[i])? {
                heap.push(Reverse((rank(&self.filing, next), i)));
            }
        }
        out.flush()?;
        for p in &runs {
            remove(p);
        }
        Ok(Held::Disk { path, len })
    }

    /// Writes `parts` (each sorted, in partition order) as a run of `round`.
    fn run(&mut self, round: u32, parts: &[Vec<u64>]) -> std::io::Result<()> {
        let runs = self.runs.entry(round).or_default();
        let path = self.dir.join(format!(
            "w{}-round{}-run{}.bin",
            self.worker,
            round,
            runs.len()
        ));
        let mut out = BufWriter::with_capacity(1 << 16, create(&path)?);
        for w in parts.iter().flatten() {
            out.write_all(&w.to_le_bytes())?;
        }
        out.flush()?;
        runs.push(path);
        Ok(())
    }
}

/// The next word of a run, or `None` at its end.
fn next_word(r: &mut impl Read) -> std::io::Result<Option<u64>> {
    let mut b = [0u8; 8];
    match r.read_exact(&mut b) {
        Ok(()) => Ok(Some(u64::from_le_bytes(b))),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions of a layer, in the order it holds them.
    fn read(held: &Held) -> Vec<u64> {
        let mut got = Vec::new();
        held.chunks(
            3,
            |_, e| e,
            |c| {
                got.extend_from_slice(c);
                Ok(())
            },
        )
        .unwrap();
        got
    }

    #[test]
    fn arrivals_and_runs_merge_into_one_layer_without_repeats_in_rank_order() {
        let dir = std::env::temp_dir().join(format!("pegflip-spill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A spill of one byte writes every round's sets out at each call.
        let mut spill = Spill::new(&dir, 3, 1, Filing::Words);
        let mut building = Building::<u64>::new(0, 1, true, Filing::Words);
        let mut all = std::collections::BTreeSet::new();
        // Three waves of positions with repeats within and between them.
        for wave in 0..3u64 {
            for k in 0..6 {
                let w = (wave * 3 + k * 11) % 17;
                building.receive_keys(7, Filing::Words.part_packed(w), &[w, w]);
                all.insert(w);
            }
            assert!(building.inserted());
            spill.spill_full(&mut building, 0).unwrap();
        }
        let held = spill.finish(7, building.take(7, Vec::new())).unwrap();
        assert!(matches!(held, Held::Disk { .. }));
        let got = read(&held);
        let mut expected: Vec<u64> = all.into_iter().collect();
        expected.sort_unstable_by_key(|&w| rank(&Filing::Words, w));
        assert_eq!(got, expected);
        assert_eq!(held.len(), got.len() as u64);
        held.discard();
        // A round that never spilled stays in memory.
        for w in [5, 1, 3, 1] {
            building.receive_keys(8, Filing::Words.part_packed(w), &[w]);
        }
        assert_eq!(building.len(8), 3);
        let held = spill
            .finish(8, building.take(8, vec![vec![4; 100]]))
            .unwrap();
        assert!(matches!(held, Held::Memory(_)));
        let mut expected = vec![1, 3, 5];
        expected.sort_unstable_by_key(|&w| rank(&Filing::Words, w));
        assert_eq!(read(&held), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_worker_keeps_only_its_partitions_each_once() {
        /// Worker 1 of 3 receives only positions of the partitions it
        /// owns, packed by `filing`, and gives each back once, packed.
        fn check<K: Key>(filing: Filing) {
            let packed: Vec<u64> = (0..200_000u64)
                .map(|k| filing.pack(k.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40))
                .filter(|&w| filing.part_packed(w) % 3 == 1)
                .collect();
            let mut building = Building::<K>::new(1, 3, true, filing);
            building.expect(1000);
            let mut parts = vec![Vec::new(); PARTS];
            for &w in &packed {
                parts[filing.part_packed(w)].push(K::of(w, filing.key_mask()));
            }
            // Each partition's keys come once as its own and once in a batch.
            for (p, keys) in parts.iter().enumerate() {
                building.receive_keys(0, p, keys);
                building.receive(0, &crate::engines::parts::batch(p, keys, Vec::new()));
            }
            let mut expected = packed;
            expected.sort_unstable_by_key(|&w| rank(&filing, w));
            expected.dedup();
            assert_eq!(building.len(0), expected.len());
            assert!(building.bytes() >= (expected.len() * std::mem::size_of::<K>()) as u64);
            let held = Held::Memory(building.take(0, Vec::new()));
            assert_eq!(read(&held), expected);
        }
        check::<u64>(Filing::Words);
        // Grid words of 24 bits, 16 to 24 cells as compact keys where the processor has BMI2.
        if let Some(filing) = Filing::compact((1 << 24) - 1) {
            check::<u32>(filing);
        }
    }
}
