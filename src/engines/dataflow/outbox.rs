//! What a dataflow worker sends: its successors in the partitions other workers own, deduplicated in hash sets until they are sent, a partition's set in batches of its positions.
//!
//! A position reached from several parents of one worker is sent once, not
//! once a parent. The sets are sent at the end of a round, or as soon as
//! they hold more than the outbox's share of the worker's memory: what is
//! in flight to a worker is then at most what the others' outboxes held.

use crate::engines::parts::{PARTS, Set, part_of};

/// Bytes a position in an outbox set is counted at: its slot at the set's
/// load, with room for a set that grew past its guess.
const SLOT_BYTES: u64 = 16;

/// The most positions in a batch: half a megabyte, so that no message
/// passes that size, and still many to each of a set's cache lines.
pub(super) const BATCH: usize = 1 << 16;

/// One worker's outbox: a set for each partition it does not own.
pub(super) struct Outbox {
    /// The sets by partition; those of the partitions the worker owns stay empty.
    sets: Vec<Set>,
    /// Whether each set is sized for the round: a sent set is sized again
    /// only when a position next goes into it.
    sized: Vec<bool>,
    /// The positions a set is sized for.
    guess: usize,
    /// The positions the sets may hold, all together, before they are sent.
    room: u64,
}

impl Outbox {
    /// An outbox whose sets may take about `bytes` before they are sent.
    pub(super) fn new(bytes: u64) -> Outbox {
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

    /// Adds `batch`, positions of one partition another worker owns.
    pub(super) fn insert(&mut self, batch: &[u64]) {
        let Some(&first) = batch.first() else {
            return;
        };
        let p = part_of(first);
        if !self.sized[p] {
            self.sets[p].reset(self.guess);
            self.sized[p] = true;
        }
        self.sets[p].insert_all(batch);
    }

    /// Whether the sets hold more than the outbox's room.
    pub(super) fn full(&self) -> bool {
        self.sets.iter().map(|s| s.len() as u64).sum::<u64>() > self.room
    }

    /// Calls `send` on each set's positions, one partition at a time in
    /// batches of at most [`BATCH`], and empties the sets.
    pub(super) fn send(&mut self, mut send: impl FnMut(Vec<u64>)) {
        for (set, sized) in self.sets.iter_mut().zip(&mut self.sized) {
            if std::mem::take(sized) {
                set.take_in(BATCH, &mut send);
            }
        }
    }

    /// The bytes its sets hold.
    pub(super) fn bytes(&self) -> u64 {
        self.sets.iter().map(Set::bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_position_is_sent_once_in_batches_of_its_partition() {
        let words: Vec<u64> = (0..50_000u64)
            .map(|k| (k % 20_000).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 20)
            .collect();
        let mut outbox = Outbox::new(1 << 30);
        outbox.expect(1000);
        let mut parts = vec![Vec::new(); PARTS];
        for &w in &words {
            parts[part_of(w)].push(w);
        }
        for part in &parts {
            outbox.insert(part);
            outbox.insert(part);
        }
        assert!(!outbox.full());
        let mut sent = Vec::new();
        outbox.send(|batch| {
            assert!(batch.iter().all(|&w| part_of(w) == part_of(batch[0])));
            sent.extend(batch);
        });
        sent.sort_unstable();
        let mut expected = words;
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(sent, expected);
        // Sent, the sets are empty and take positions again.
        let mut again = 0;
        outbox.send(|_| again += 1);
        assert_eq!(again, 0);
        outbox.insert(&parts[0]);
        outbox.send(|batch| again += batch.len());
        let distinct: std::collections::BTreeSet<u64> = parts[0].iter().copied().collect();
        assert_eq!(again, distinct.len());
    }

    #[test]
    fn an_outbox_past_its_room_is_full() {
        let mut outbox = Outbox::new(SLOT_BYTES * 10);
        outbox.expect(1 << 20);
        let words: Vec<u64> = (0..11u64).map(|k| k << 8).collect();
        for &w in &words {
            outbox.insert(&[w]);
        }
        assert!(outbox.full());
    }
}
