//! The batches the dataflow's workers exchange as 64-bit words, written to another process as their bytes in one pass, and read where they arrive.
//!
//! Timely writes a `Vec<u64>` to the network with bincode, a word at a
//! time, after a pass that only measures it, and reads it back a word at a
//! time. On a little-endian machine a batch is already a block of
//! little-endian words, so it goes out as a block of bytes (elsewhere each
//! word is turned first). What arrives is read in timely's own buffer
//! when it is aligned to a word, as it is in practice, and copied into a
//! vector otherwise. What the words hold, the keys of one partition and
//! its number, is [`batch`](crate::engines::parts::batch)'s to say.

use std::io::Write;
use std::ops::Deref;

use timely::Accountable;
use timely::bytes::arc::Bytes;
use timely::dataflow::channels::ContainerBytes;

/// Words written at a time where they must be turned little-endian first.
const STAGED: usize = 512;

/// A batch of one partition's keys ([`batch`](crate::engines::parts::batch)):
/// a vector, or the bytes it arrived in from another process, read where they lie.
pub(super) enum Words {
    /// Words made in this process.
    Owned(Vec<u64>),
    /// Words as they arrived, little-endian and aligned to a word.
    Received(Bytes),
}

impl Default for Words {
    fn default() -> Words {
        Words::Owned(Vec::new())
    }
}

impl Clone for Words {
    fn clone(&self) -> Words {
        Words::Owned(self.to_vec())
    }
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        **self == **other
    }
}

impl Words {
    /// The vector of words made in this process; empty for words that arrived.
    pub(super) fn take_owned(&mut self) -> Vec<u64> {
        match self {
            Words::Owned(words) => std::mem::take(words),
            Words::Received(_) => Vec::new(),
        }
    }
}

impl Deref for Words {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        match self {
            Words::Owned(words) => words,
            Words::Received(bytes) => bytemuck::cast_slice(bytes),
        }
    }
}

impl Accountable for Words {
    fn record_count(&self) -> i64 {
        i64::try_from(self.len()).unwrap_or(i64::MAX)
    }
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl ContainerBytes for Words {
    /// The words of `bytes`, which holds a whole number of them: timely
    /// hands over exactly the [`length_in_bytes`](Self::length_in_bytes)
    /// that were written. On a little-endian machine, bytes aligned to a
    /// word are read where they lie; others are copied into a vector.
    fn from_bytes(bytes: Bytes) -> Words {
        if cfg!(target_endian = "little") && bytemuck::try_cast_slice::<u8, u64>(&bytes).is_ok() {
            return Words::Received(bytes);
        }
        let mut words = Vec::with_capacity(bytes.len() / 8);
        words.extend(
            bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("chunks of 8"))),
        );
        Words::Owned(words)
    }

    fn length_in_bytes(&self) -> usize {
        self.len() * 8
    }

    fn into_bytes<W: Write>(&self, writer: &mut W) {
        // Timely writes into a buffer it reserved for `length_in_bytes`, so
        // a failed write is a broken promise of its own, as in its bincode path.
        if cfg!(target_endian = "little") {
            writer
                .write_all(bytemuck::cast_slice(self))
                .expect("timely reserved the batch's bytes");
        } else {
            write_turned(self, writer);
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
            let words = Words::Owned(
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
            // Read where they lie when aligned, copied when not.
            let aligned = Words::from_bytes(BytesMut::from(out.clone()).freeze());
            assert!(matches!(aligned, Words::Received(_)) || len == 0);
            assert_eq!(aligned, words);
            let mut shifted = BytesMut::from([&[0u8][..], &out].concat()).freeze();
            let _ = shifted.extract_to(1);
            let copied = Words::from_bytes(shifted);
            assert!(matches!(copied, Words::Owned(_)) || len == 0);
            assert_eq!(copied, words);
        }
    }
}
