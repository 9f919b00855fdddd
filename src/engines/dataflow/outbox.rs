//! What a dataflow worker sends: to a worker of another process, its successors deduplicated in hash sets and sent in batches of a partition; to a worker of its own process, each buffer as one batch.
//!
//! A position reached from several parents of one worker is sent over the
//! network once, not once a parent. The sets are sent at the end of a round,
//! or as soon as they hold more than the outbox's share of the worker's
//! memory: what is in flight to a worker is then at most what the others'
//! outboxes held. Between threads of one process a buffer is handed over
//! as one batch ([`Handoff`]): the vector itself where its keys are grid
//! words, two compact keys a word in a vector from the pool otherwise. It
//! is inserted once, by the worker that owns it; a worker with too much in
//! flight to it makes its senders wait.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::engines::parts::{Key, PARTS, Set};

/// Bytes a position in an outbox set is counted at: its slot at the set's
/// load, with room for a set that grew past its guess.
const SLOT_BYTES: u64 = 16;

/// The most positions in a batch: half a megabyte, so that no message
/// passes that size, and still many to each of a set's cache lines.
pub(super) const BATCH: usize = 1 << 16;

/// One worker's outbox: a set of keys `K` ([`Key`]) for each partition it
/// does not own.
pub(super) struct Outbox<K: Key> {
    /// The sets by partition; those of the partitions the worker owns stay empty.
    sets: Vec<Set<K>>,
    /// Whether each set is sized for the round: a sent set is sized again
    /// only when a position next goes into it.
    sized: Vec<bool>,
    /// The positions a set is sized for.
    guess: usize,
    /// The positions the sets may hold, all together, before they are sent.
    room: u64,
}

impl<K: Key> Outbox<K> {
    /// An outbox whose sets may take about `bytes` before they are sent.
    pub(super) fn new(bytes: u64) -> Outbox<K> {
        Outbox {
            sets: (0..PARTS).map(|_| Set::with_capacity(0)).collect(),
            sized: vec![false; PARTS],
            guess: 0,
            room: (bytes / SLOT_BYTES).max(1),
        }
    }

    /// Sizes the sets for a round whose next layer has about `positions`
    /// positions in all, within the outbox's room.
    pub(super) fn expect(&mut self, positions: u64) {
        let each = (positions / PARTS as u64).min(self.room / PARTS as u64);
        self.guess = usize::try_from(each).unwrap_or(usize::MAX);
    }

    /// Adds `keys`, keys of partition `part`, which another worker owns.
    pub(super) fn insert_keys(&mut self, part: usize, keys: &[K]) {
        if !keys.is_empty() {
            self.set(part).insert_keys(keys);
        }
    }

    /// The set of partition `part`, sized for the round when it is its first insert.
    fn set(&mut self, part: usize) -> &mut Set<K> {
        if !self.sized[part] {
            self.sets[part].reset(self.guess);
            self.sized[part] = true;
        }
        &mut self.sets[part]
    }

    /// Whether the sets hold more than the outbox's room.
    pub(super) fn full(&self) -> bool {
        self.sets.iter().map(|s| s.len() as u64).sum::<u64>() > self.room
    }

    /// Calls `send` on each set's keys, one partition at a time in
    /// batches of at most [`BATCH`] keys ([`batch`](crate::engines::parts::batch)),
    /// and empties the sets.
    pub(super) fn send(&mut self, mut send: impl FnMut(Vec<u64>)) {
        for (p, (set, sized)) in self.sets.iter_mut().zip(&mut self.sized).enumerate() {
            if std::mem::take(sized) {
                set.take_in(BATCH, p, &mut send);
            }
        }
    }

    /// The bytes its sets hold.
    pub(super) fn bytes(&self) -> u64 {
        self.sets.iter().map(Set::bytes).sum()
    }
}

/// The batches the workers of one process hand to each other: what
/// is in flight to each of them, and the emptied buffers, kept to be filled
/// again without fresh pages. Both are counted by the buffers' room.
///
/// A sender takes an emptied buffer for each one it hands over, and makes a
/// new one only when none is kept, so what is kept and what is in flight
/// together never pass the most that was in flight: for each worker, half
/// its own buffers' room, and the one pass of a sender past that.
pub(super) struct Handoff {
    /// Room of the buffers sent to each worker of the process and not yet inserted.
    in_flight: Vec<AtomicU64>,
    /// Past this much room in flight to a worker, its senders wait.
    most: u64,
    /// Emptied buffers, and their room.
    pool: Mutex<(Vec<Vec<u64>>, u64)>,
    /// The most room the emptied buffers keep.
    keep: u64,
}

impl Handoff {
    /// The hand-off between `threads` workers whose buffers have room for
    /// `buffers` positions each.
    pub(super) fn new(threads: usize, buffers: u64) -> Handoff {
        let most = (buffers / 2).max(1);
        Handoff {
            in_flight: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            most,
            pool: Mutex::new((Vec::new(), 0)),
            keep: (most + buffers).saturating_mul(threads as u64),
        }
    }

    /// Counts a buffer with room for `room` positions sent to the process's worker `to`.
    pub(super) fn sent(&self, to: usize, room: usize) {
        self.in_flight[to].fetch_add(room as u64, Ordering::Relaxed);
    }

    /// Counts `buffer` taken in by the process's worker `by`, and keeps it
    /// to be filled again while the emptied buffers have room.
    pub(super) fn taken(&self, by: usize, mut buffer: Vec<u64>) {
        self.in_flight[by].fetch_sub(buffer.capacity() as u64, Ordering::Relaxed);
        buffer.clear();
        if let Ok(mut pool) = self.pool.lock()
            && pool.1 + buffer.capacity() as u64 <= self.keep
        {
            pool.1 += buffer.capacity() as u64;
            pool.0.push(buffer);
        }
    }

    /// An emptied buffer to fill again, or a new one with room for `positions`.
    pub(super) fn buffer(&self, positions: usize) -> Vec<u64> {
        self.pool
            .lock()
            .ok()
            .and_then(|mut pool| {
                let buffer = pool.0.pop()?;
                pool.1 -= buffer.capacity() as u64;
                Some(buffer)
            })
            .unwrap_or_else(|| Vec::with_capacity(positions))
    }

    /// Whether any worker but `me` has more than its most in flight to it.
    pub(super) fn crowded(&self, me: usize) -> bool {
        self.in_flight
            .iter()
            .enumerate()
            .any(|(k, n)| k != me && n.load(Ordering::Relaxed) > self.most)
    }

    /// The bytes one worker's share of the hand-off may hold, when its
    /// buffers have room for `buffers` positions: what is in flight to it
    /// and kept, half that room and a pass of another worker's past it.
    pub(super) fn bytes(buffers: u64) -> u64 {
        buffers.saturating_mul(8 * 3 / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::parts::{Filing, unbatch};

    #[test]
    fn each_position_is_sent_once_in_batches_of_its_partition() {
        /// Packed by `filing`, into sets of keys `K`.
        fn check<K: Key>(filing: Filing) {
            let words: Vec<u64> = (0..50_000u64)
                .map(|k| filing.pack((k % 20_000).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40))
                .collect();
            let mut outbox = Outbox::<K>::new(1 << 30);
            outbox.expect(1000);
            let mut parts = vec![Vec::new(); PARTS];
            for &w in &words {
                parts[filing.part_packed(w)].push(K::of(w, filing.key_mask()));
            }
            for (p, keys) in parts.iter().enumerate() {
                outbox.insert_keys(p, keys);
                outbox.insert_keys(p, keys);
            }
            assert!(!outbox.full());
            let mut sent = Vec::new();
            outbox.send(|batch| {
                let (p, keys) = unbatch::<K>(&batch).expect("a batch is never empty");
                assert!(keys.len() <= BATCH + 1);
                sent.extend(keys.iter().map(|&k| k.packed(filing.high(p))));
            });
            sent.sort_unstable();
            sent.dedup();
            let mut expected = words;
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(sent, expected);
            // Sent, the sets are empty and take positions again.
            let mut again = 0;
            outbox.send(|_| again += 1);
            assert_eq!(again, 0);
            outbox.insert_keys(0, &parts[0]);
            outbox.send(|batch| again += unbatch::<K>(&batch).unwrap().1.len());
            let distinct: std::collections::BTreeSet<K> = parts[0].iter().copied().collect();
            assert!(again == distinct.len() || again == distinct.len() + 1);
        }
        check::<u64>(Filing::Words);
        // Grid words of 24 bits as compact keys, where the processor has BMI2.
        if let Some(filing) = Filing::compact((1 << 24) - 1) {
            check::<u32>(filing);
        }
    }

    #[test]
    fn an_outbox_past_its_room_is_full() {
        let mut outbox = Outbox::<u64>::new(SLOT_BYTES * 10);
        outbox.expect(1 << 20);
        let words: Vec<u64> = (0..11u64).map(|k| k << 8).collect();
        for &w in &words {
            outbox.insert_keys(Filing::Words.part_packed(w), &[w]);
        }
        assert!(outbox.full());
    }

    #[test]
    fn a_handoff_counts_what_is_in_flight_and_keeps_emptied_buffers() {
        // Buffers of room 200 in all: past 100 in flight, senders wait;
        // the emptied buffers keep at most (100 + 200) x 2.
        let handoff = Handoff::new(2, 200);
        assert!(!handoff.crowded(0));
        let a: Vec<u64> = Vec::with_capacity(60);
        let b: Vec<u64> = Vec::with_capacity(60);
        handoff.sent(1, a.capacity());
        assert!(!handoff.crowded(0));
        handoff.sent(1, b.capacity());
        // Worker 1 has 120 in flight to it: its senders wait, it does not.
        assert!(handoff.crowded(0));
        assert!(!handoff.crowded(1));
        handoff.taken(1, a);
        assert!(!handoff.crowded(0));
        handoff.taken(1, b);
        // The third would take the room kept past 600.
        let c: Vec<u64> = Vec::with_capacity(500);
        handoff.sent(0, c.capacity());
        handoff.taken(0, c);
        assert!(!handoff.crowded(0) && !handoff.crowded(1));
        for _ in 0..2 {
            let again = handoff.buffer(7);
            assert!(again.is_empty());
            assert_eq!(again.capacity(), 60);
        }
        assert_eq!(handoff.buffer(7).capacity(), 7);
    }
}
