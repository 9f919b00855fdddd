//! A dataflow worker's layers: the next one built from what arrives by sorting and merging, in memory or spilled to disk as sorted runs.
//!
//! What a worker receives in a round is appended to a buffer. Once the buffer
//! is as long as what is already kept, it is sorted, its repeats dropped, and
//! merged into the round's sorted list ([`Building::absorb`]): sequential
//! passes instead of a hash set's random inserts, about 24 bytes a position
//! at the peak (the list, the buffer, the merge's copy). At the end of the
//! round the list is the next layer.
//!
//! With a spill directory, a list that reaches [`Spill::threshold`]
//! positions is written out as a run; at the end of the round the runs (and
//! what is left in memory) are merged, each position once, into a file of
//! little-endian words that the next round reads back a chunk at a time. A
//! round that never spilled stays in memory.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// A layer as a worker holds it: sorted, in memory or in a file.
pub(super) enum Held {
    /// The positions, sorted.
    Memory(Vec<u64>),
    /// A file of `len` sorted little-endian words.
    Disk { path: PathBuf, len: u64 },
}

impl Held {
    /// How many positions.
    pub(super) fn len(&self) -> u64 {
        match self {
            Held::Memory(v) => v.len() as u64,
            Held::Disk { len, .. } => *len,
        }
    }

    /// The bytes it takes in memory.
    pub(super) fn memory(&self) -> u64 {
        match self {
            Held::Memory(v) => v.len() as u64 * 8,
            Held::Disk { .. } => 0,
        }
    }

    /// Calls `f` on the positions in order, `chunk` at a time.
    pub(super) fn chunks<E>(
        &self,
        chunk: usize,
        io: impl Fn(&Path, std::io::Error) -> E,
        mut f: impl FnMut(&[u64]) -> Result<(), E>,
    ) -> Result<(), E> {
        match self {
            Held::Memory(v) => v.chunks(chunk).try_for_each(f),
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

/// Arrivals shorter than this are not worth a sort of their own.
const LEAST_ABSORB: usize = 1 << 16;

/// The layers a worker is building, by round: each a sorted list without
/// repeats, and the arrivals not yet merged into it.
#[derive(Default)]
pub(super) struct Building {
    kept: BTreeMap<u32, Vec<u64>>,
}

impl Building {
    /// Merges into each round's list the arrivals of `received` that are at
    /// least as long as it (all of them for `round`, when given).
    pub(super) fn absorb(&mut self, received: &mut BTreeMap<u32, Vec<u64>>, all: Option<u32>) {
        let ready: Vec<u32> = received
            .iter()
            .filter(|&(r, fresh)| {
                Some(*r) == all
                    || fresh.len() >= LEAST_ABSORB.max(self.kept.get(r).map_or(0, Vec::len))
            })
            .map(|(&r, _)| r)
            .collect();
        for round in ready {
            let mut fresh = received.remove(&round).unwrap_or_default();
            fresh.sort_unstable();
            fresh.dedup();
            let kept = self.kept.remove(&round).unwrap_or_default();
            self.kept.insert(round, union(kept, fresh));
        }
    }

    /// The positions kept for `round` so far.
    #[cfg(test)]
    fn len(&self, round: u32) -> usize {
        self.kept.get(&round).map_or(0, Vec::len)
    }

    /// Takes the list of `round`.
    pub(super) fn take(&mut self, round: u32) -> Vec<u64> {
        self.kept.remove(&round).unwrap_or_default()
    }

    /// The rounds with a list at least `least` long.
    fn rounds_over(&self, least: usize) -> Vec<u32> {
        self.kept
            .iter()
            .filter(|(_, v)| v.len() >= least)
            .map(|(&r, _)| r)
            .collect()
    }
}

/// The union of two sorted lists without repeats, sorted, without repeats.
fn union(a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// One worker's spill: its directory, and the runs written so far by round.
pub(super) struct Spill {
    dir: PathBuf,
    worker: usize,
    /// Positions a round's list may hold before it is written out as a run.
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

    /// Writes out, as a sorted run, every list of `building` that has reached the threshold.
    pub(super) fn spill_full(&mut self, building: &mut Building) -> std::io::Result<()> {
        for round in building.rounds_over(self.threshold) {
            let list = building.take(round);
            self.run(round, &list)?;
        }
        Ok(())
    }

    /// The next layer from round `round`: the rest of its list, `sorted`,
    /// with the round's runs merged in when it has any.
    pub(super) fn finish(&mut self, round: u32, sorted: Vec<u64>) -> std::io::Result<Held> {
        if !self.runs.contains_key(&round) {
            return Ok(Held::Memory(sorted));
        }
        if !sorted.is_empty() {
            self.run(round, &sorted)?;
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
                heap.push(Reverse((w, i)));
            }
        }
        let mut len = 0u64;
        let mut last = None;
        while let Some(Reverse((w, i))) = heap.pop() {
            if last != Some(w) {
                out.write_all(&w.to_le_bytes())?;
                len += 1;
                last = Some(w);
            }
            if let Some(next) = next_word(&mut readers[i])? {
                heap.push(Reverse((next, i)));
            }
        }
        out.flush()?;
        for p in &runs {
            let _ = std::fs::remove_file(p);
        }
        Ok(Held::Disk { path, len })
    }

    fn run(&mut self, round: u32, sorted: &[u64]) -> std::io::Result<()> {
        let runs = self.runs.entry(round).or_default();
        let path = self.dir.join(format!(
            "w{}-round{}-run{}.bin",
            self.worker,
            round,
            runs.len()
        ));
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&path)?);
        for w in sorted {
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

    #[test]
    fn arrivals_and_runs_merge_into_one_sorted_layer_without_repeats() {
        let dir = std::env::temp_dir().join(format!("pegflip-spill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut spill = Spill::new(&dir, 3, 4);
        let mut building = Building::default();
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
        assert_eq!(got, all.into_iter().collect::<Vec<_>>());
        assert_eq!(held.len(), got.len() as u64);
        held.discard();
        // A round that never reached the threshold stays in memory.
        received.insert(8, vec![5, 1, 3, 1]);
        building.absorb(&mut received, Some(8));
        assert_eq!(building.len(8), 3);
        assert!(
            matches!(spill.finish(8, building.take(8)).unwrap(), Held::Memory(v) if v == [1, 3, 5])
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unions_keep_each_position_once() {
        assert_eq!(union(vec![1, 4, 9], vec![2, 4, 10]), [1, 2, 4, 9, 10]);
        assert_eq!(union(vec![], vec![3]), [3]);
        assert_eq!(union(vec![3], vec![]), [3]);
    }
}
