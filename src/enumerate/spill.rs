//! A dataflow worker's layers on disk: sorted runs of the positions it receives, merged without repeats into the next layer's file.
//!
//! Without a spill directory a worker holds its layer as a sorted list and
//! builds the next one as a set in memory. With one, a set that reaches
//! [`Spill::threshold`] positions is sorted and written out as a run; at the
//! end of the round the runs (and what is left in memory) are merged, each
//! position once, into a file of little-endian words that the next round
//! reads back a chunk at a time. A round that never spilled stays in memory.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rustc_hash::FxHashSet;

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

/// One worker's spill: its directory, and the runs written so far by round.
pub(super) struct Spill {
    dir: PathBuf,
    worker: usize,
    /// Positions a set may hold before it is written out as a run.
    pub(super) threshold: usize,
    runs: BTreeMap<u32, Vec<PathBuf>>,
}

impl Spill {
    /// The spill of worker `worker` in `dir`, spilling sets of `threshold` positions.
    pub(super) fn new(dir: &Path, worker: usize, threshold: usize) -> Spill {
        Spill {
            dir: dir.to_path_buf(),
            worker,
            threshold: threshold.max(1),
            runs: BTreeMap::new(),
        }
    }

    /// Writes out, as a sorted run, every set of `received` that has reached the threshold.
    pub(super) fn spill_full(
        &mut self,
        received: &mut BTreeMap<u32, FxHashSet<u64>>,
    ) -> std::io::Result<()> {
        let full: Vec<u32> = received
            .iter()
            .filter(|(_, set)| set.len() >= self.threshold)
            .map(|(&round, _)| round)
            .collect();
        for round in full {
            if let Some(set) = received.remove(&round) {
                self.run(round, set)?;
            }
        }
        Ok(())
    }

    /// The next layer from round `round`: what is left in `set`, with the
    /// round's runs merged in when it has any.
    pub(super) fn finish(&mut self, round: u32, set: FxHashSet<u64>) -> std::io::Result<Held> {
        if !self.runs.contains_key(&round) {
            let mut v: Vec<u64> = set.into_iter().collect();
            v.sort_unstable();
            return Ok(Held::Memory(v));
        }
        if !set.is_empty() {
            self.run(round, set)?;
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

    fn run(&mut self, round: u32, set: FxHashSet<u64>) -> std::io::Result<()> {
        let mut v: Vec<u64> = set.into_iter().collect();
        v.sort_unstable();
        let runs = self.runs.entry(round).or_default();
        let path = self.dir.join(format!(
            "w{}-round{}-run{}.bin",
            self.worker,
            round,
            runs.len()
        ));
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&path)?);
        for w in &v {
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
    fn runs_merge_into_one_sorted_layer_without_repeats() {
        let dir = std::env::temp_dir().join(format!("pegflip-spill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut spill = Spill::new(&dir, 3, 4);
        let mut received: BTreeMap<u32, FxHashSet<u64>> = BTreeMap::new();
        let mut all = std::collections::BTreeSet::new();
        // Three waves of positions with repeats between them.
        for wave in 0..3u64 {
            let set = received.entry(7).or_default();
            for k in 0..5 {
                let w = (wave * 3 + k * 11) % 17;
                set.insert(w);
                all.insert(w);
            }
            spill.spill_full(&mut received).unwrap();
        }
        let rest = received.remove(&7).unwrap_or_default();
        let held = spill.finish(7, rest).unwrap();
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
        let small: FxHashSet<u64> = [5, 1, 3].into_iter().collect();
        assert!(matches!(spill.finish(8, small).unwrap(), Held::Memory(v) if v == [1, 3, 5]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
