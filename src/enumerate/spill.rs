//! A dataflow worker's layers: the next one built from what arrives in cache-sized hash sets, one per partition it owns, in memory or spilled to disk as sorted runs.
//!
//! A position belongs to the worker that owns its partition
//! ([`part_of`]). What a worker receives in a round is buffered; a full
//! buffer is scattered by partition and each partition's share inserted
//! into that partition's hash set ([`Building::absorb`]), so that the
//! inserts of a pass stay in one set small enough for the cache. At the end
//! of the round each set's keys, sorted, are the worker's part of the next
//! layer, partition by partition ([`Held`]).
//!
//! With a spill directory, a round whose sets reach [`Spill::threshold`]
//! positions is written out as a run in that order; at the end of the round
//! the runs (and what is left in memory) are merged, each position once,
//! into a file of little-endian words that the next round reads back a
//! chunk at a time. A round that never spilled stays in memory.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::bitboard::{PARTS, Set, part_of};

/// The order a worker keeps its positions in: by partition, then by value.
fn rank(word: u64) -> (usize, u64) {
    (part_of(word), word)
}

/// A layer as a worker holds it: ordered by [`rank`], in memory or in a file.
pub(super) enum Held {
    /// The positions of each partition the worker owns, each sorted.
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

    /// Removes its file, if it has one.
    pub(super) fn discard(self) {
        if let Held::Disk { path, .. } = self {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The most arrivals buffered before they are scattered and inserted:
/// enough that each partition's share is a long run of inserts into one set.
const FLUSH: usize = 1 << 23;

/// The layers a worker is building, by round: one hash set per partition
/// it owns.
pub(super) struct Building {
    /// The workers: a worker owns the partitions `p` with `p % peers` its
    /// index, and keeps partition `p` at `p / peers`.
    peers: usize,
    /// Arrivals buffered before they are inserted.
    flush: usize,
    /// The positions a set is first sized for.
    guess: usize,
    kept: BTreeMap<u32, Vec<Set>>,
    /// Arrivals scattered by partition, reused from pass to pass.
    scattered: Vec<Vec<u64>>,
}

impl Building {
    /// The building of one of `peers` workers whose buffer of arrivals may
    /// take `bytes` (at most [`FLUSH`] positions).
    pub(super) fn new(peers: usize, bytes: u64) -> Building {
        let peers = peers.max(1);
        Building {
            peers,
            flush: usize::try_from(bytes / 8).map_or(FLUSH, |n| n.clamp(1, FLUSH)),
            guess: 0,
            kept: BTreeMap::new(),
            scattered: vec![Vec::new(); PARTS.div_ceil(peers)],
        }
    }

    /// Sizes the sets of the rounds not begun yet for a layer of about
    /// `positions` positions on this worker.
    pub(super) fn expect(&mut self, positions: u64) {
        let sets = self.scattered.len() as u64;
        self.guess = usize::try_from(positions / sets).unwrap_or(usize::MAX);
    }

    /// Inserts the arrivals of `received` for each round that has buffered
    /// enough of them (all of them for `round`, when given).
    pub(super) fn absorb(&mut self, received: &mut BTreeMap<u32, Vec<u64>>, all: Option<u32>) {
        let ready: Vec<u32> = received
            .iter()
            .filter(|&(r, fresh)| Some(*r) == all || fresh.len() >= self.flush)
            .map(|(&r, _)| r)
            .collect();
        for round in ready {
            let fresh = received.remove(&round).unwrap_or_default();
            for &w in &fresh {
                self.scattered[part_of(w) / self.peers].push(w);
            }
            let (guess, count) = (self.guess, self.scattered.len());
            let sets = self
                .kept
                .entry(round)
                .or_insert_with(|| (0..count).map(|_| Set::with_capacity(guess)).collect());
            for (set, part) in sets.iter_mut().zip(&mut self.scattered) {
                for &w in part.iter() {
                    set.insert(w);
                }
                part.clear();
            }
        }
    }

    /// The positions kept for `round` so far.
    pub(super) fn len(&self, round: u32) -> usize {
        self.kept
            .get(&round)
            .map_or(0, |sets| sets.iter().map(Set::len).sum())
    }

    /// The bytes the sets of every round take.
    pub(super) fn bytes(&self) -> u64 {
        self.kept.values().flatten().map(Set::bytes).sum()
    }

    /// Takes the positions of `round`, partition by partition, each sorted.
    pub(super) fn take(&mut self, round: u32) -> Vec<Vec<u64>> {
        let sets = self.kept.remove(&round).unwrap_or_default();
        sets.into_iter().map(Set::into_sorted).collect()
    }

    /// The rounds holding at least `least` positions.
    fn rounds_over(&self, least: usize) -> Vec<u32> {
        self.kept
            .keys()
            .copied()
            .filter(|&r| self.len(r) >= least)
            .collect()
    }
}

/// One worker's spill: its directory, and the runs written so far by round.
pub(super) struct Spill {
    dir: PathBuf,
    worker: usize,
    /// Positions a round's sets may hold before they are written out as a run.
    pub(super) threshold: usize,
    runs: BTreeMap<u32, Vec<PathBuf>>,
}

impl Spill {
    /// The spill of worker `worker` in `dir`, spilling lists of `threshold` positions.
    pub(super) fn new(dir: &Path, worker: usize, threshold: usize) -> Spill {
        Spill {
            dir: dir.to_path_buf(),
            worker,
            threshold: threshold.max(1),
            runs: BTreeMap::new(),
        }
    }

    /// Writes out, as a run, every round of `building` that has reached the threshold.
    pub(super) fn spill_full(&mut self, building: &mut Building) -> std::io::Result<()> {
        for round in building.rounds_over(self.threshold) {
            let parts = building.take(round);
            self.run(round, &parts)?;
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
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&path)?);
        let mut readers = runs
            .iter()
            .map(|p| Ok(BufReader::with_capacity(1 << 16, File::open(p)?)))
            .collect::<std::io::Result<Vec<_>>>()?;
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(w) = next_word(r)? {
                heap.push(Reverse((rank(w), i)));
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
                heap.push(Reverse((rank(next), i)));
            }
        }
        out.flush()?;
        for p in &runs {
            let _ = std::fs::remove_file(p);
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
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&path)?);
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
        let mut spill = Spill::new(&dir, 3, 4);
        let mut building = Building::new(1, 64);
        let mut received: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        let mut all = std::collections::BTreeSet::new();
        // Three waves of positions with repeats within and between them.
        for wave in 0..3u64 {
            let fresh = received.entry(7).or_default();
            for k in 0..6 {
                let w = (wave * 3 + k * 11) % 17;
                fresh.push(w);
                fresh.push(w);
                all.insert(w);
            }
            building.absorb(&mut received, Some(7));
            spill.spill_full(&mut building).unwrap();
        }
        building.absorb(&mut received, Some(7));
        let held = spill.finish(7, building.take(7)).unwrap();
        assert!(matches!(held, Held::Disk { .. }));
        let got = read(&held);
        let mut expected: Vec<u64> = all.into_iter().collect();
        expected.sort_unstable_by_key(|&w| rank(w));
        assert_eq!(got, expected);
        assert_eq!(held.len(), got.len() as u64);
        held.discard();
        // A round that never reached the threshold stays in memory.
        received.insert(8, vec![5, 1, 3, 1]);
        building.absorb(&mut received, Some(8));
        assert_eq!(building.len(8), 3);
        let held = spill.finish(8, building.take(8)).unwrap();
        assert!(matches!(held, Held::Memory(_)));
        let mut expected = vec![1, 3, 5];
        expected.sort_unstable_by_key(|&w| rank(w));
        assert_eq!(read(&held), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_worker_keeps_only_its_partitions_each_once() {
        // Worker 1 of 3 receives only positions of the partitions it owns.
        let words: Vec<u64> = (0..200_000u64)
            .map(|k| k.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 20)
            .filter(|&w| part_of(w) % 3 == 1)
            .collect();
        let mut building = Building::new(3, 1 << 20);
        building.expect(1000);
        let mut received = BTreeMap::new();
        let mut doubled = words.clone();
        doubled.extend_from_slice(&words);
        received.insert(0, doubled);
        building.absorb(&mut received, Some(0));
        let mut expected = words;
        expected.sort_unstable_by_key(|&w| rank(w));
        expected.dedup();
        assert_eq!(building.len(0), expected.len());
        assert!(building.bytes() >= expected.len() as u64 * 8);
        let held = Held::Memory(building.take(0));
        assert_eq!(read(&held), expected);
    }
}
