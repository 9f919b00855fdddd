//! The batches the dataflow's workers exchange: positions as 64-bit words, written to another process as their bytes, in one pass.
//!
//! Timely writes a `Vec<u64>` to the network with bincode, a word at a
//! time, after a pass that only measures it, and reads it back a word at a
//! time. On a little-endian machine a batch is already a block of
//! little-endian words, so it goes out as a block of bytes (elsewhere each
//! word is turned first), and comes back by one copy into a vector.

use std::io::Write;
use std::ops::Deref;

use timely::Accountable;
use timely::bytes::arc::Bytes;
use timely::dataflow::channels::ContainerBytes;

/// Words written at a time where they must be turned little-endian first.
const STAGED: usize = 512;

/// A batch of positions, one word each, all of one partition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Words(pub(super) Vec<u64>);

impl Deref for Words {
    type Target = Vec<u64>;
    fn deref(&self) -> &Vec<u64> {
        &self.0
    }
}

impl Accountable for Words {
    fn record_count(&self) -> i64 {
        i64::try_from(self.0.len()).unwrap_or(i64::MAX)
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl ContainerBytes for Words {
    /// The words of `bytes`, which holds a whole number of them: timely
    /// hands over exactly the [`length_in_bytes`](Self::length_in_bytes)
    /// that were written.
    fn from_bytes(bytes: Bytes) -> Words {
        let mut words = Vec::with_capacity(bytes.len() / 8);
        words.extend(
            bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("chunks of 8"))),
        );
        Words(words)
    }

    fn length_in_bytes(&self) -> usize {
        self.0.len() * 8
    }

    fn into_bytes<W: Write>(&self, writer: &mut W) {
        // Timely writes into a buffer it reserved for `length_in_bytes`, so
        // a failed write is a broken promise of its own, as in its bincode path.
        if cfg!(target_endian = "little") {
            writer
                .write_all(bytemuck::cast_slice(&self.0))
                .expect("timely reserved the batch's bytes");
        } else {
            write_turned(&self.0, writer);
        }
    }
}

/// Writes `words` little-endian a few at a time, on a machine whose words are not.
fn write_turned<W: Write>(words: &[u64], writer: &mut W) {
    let mut staged = [0u8; STAGED * 8];
    for chunk in words.chunks(STAGED) {
        for (to, w) in staged.chunks_exact_mut(8).zip(chunk) {
            to.copy_from_slice(&w.to_le_bytes());
        }
        writer
            .write_all(&staged[..chunk.len() * 8])
            .expect("timely reserved the batch's bytes");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use timely::bytes::arc::BytesMut;

    #[test]
    fn a_batch_comes_back_as_it_was_written() {
        for len in [0usize, 1, 7, STAGED, STAGED + 3, 70_000] {
            let words = Words(
                (0..len as u64)
                    .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (k << 3))
                    .collect(),
            );
            let mut out = Vec::new();
            words.into_bytes(&mut out);
            assert_eq!(out.len(), words.length_in_bytes());
            assert_eq!(out.len(), len * 8);
            // The path for a big-endian machine writes the same bytes.
            let mut turned = Vec::new();
            write_turned(&words, &mut turned);
            assert_eq!(turned, out);
            if let Some(&first) = words.first() {
                assert_eq!(out[..8], first.to_le_bytes());
            }
            assert_eq!(Words::from_bytes(BytesMut::from(out).freeze()), words);
        }
    }
}
