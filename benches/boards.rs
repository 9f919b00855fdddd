//! Reproducible judge-format inputs for benchmarks: random boards from a seeded ChaCha8 stream.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// `count` random boards for `puzzle` (`flip4x4` or `pebble12`) in its judge format.
pub fn judge_input(puzzle: &str, count: usize, seed: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count * 21);
    match puzzle {
        "flip4x4" => {
            for _ in 0..count {
                let bits = rng.next_u32();
                for r in 0..4 {
                    for c in 0..4 {
                        out.push(if bits >> (r * 4 + c) & 1 == 1 {
                            b'b'
                        } else {
                            b'w'
                        });
                    }
                    out.push(b'\n');
                }
            }
        }
        "pebble12" => {
            out.extend_from_slice(format!("{count}\n").as_bytes());
            for _ in 0..count {
                let bits = rng.next_u32();
                for i in 0..12 {
                    out.push(if bits >> i & 1 == 1 { b'o' } else { b'-' });
                }
                out.push(b'\n');
            }
        }
        other => panic!("no generator for {other}: use flip4x4 or pebble12"),
    }
    out
}
