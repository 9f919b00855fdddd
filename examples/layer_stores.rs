//! Two ways to deduplicate a layer of the English board up to symmetry, timed layer by layer: a bitmap indexed by combinatorial rank, and hash partitions.
//!
//! Which store wins per layer: a dense bitmap over the
//! C(33, k) positions of k pegs (140 MB at k = 16), or the hash partitions
//! the peg-orbits engine uses (`src/engines/bitboard.rs`). This program
//! generates each layer's successors once (canonical, 33-bit), deduplicates
//! them both ways, checks that both find the same layer, and prints the two
//! times. Run with `cargo run --release --example layer_stores`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

/// The English board on an 8-wide grid word: bit `row * 8 + col`.
const SHAPE: [&str; 7] = [
    "..ooo..", "..ooo..", "ooooooo", "ooooooo", "ooooooo", "..ooo..", "..ooo..",
];

fn main() {
    let board = SHAPE.iter().enumerate().fold(0u64, |b, (r, row)| {
        row.chars().enumerate().fold(
            b,
            |b, (c, ch)| {
                if ch == 'o' { b | 1 << (r * 8 + c) } else { b }
            },
        )
    });
    let cells: Vec<u32> = (0..64).filter(|&i| board >> i & 1 == 1).collect();
    let compact = |word: u64| -> u64 {
        cells
            .iter()
            .enumerate()
            .fold(0, |c, (i, &b)| c | (word >> b & 1) << i)
    };
    let grid = |c: u64| -> u64 {
        cells
            .iter()
            .enumerate()
            .fold(0, |w, (i, &b)| w | (c >> i & 1) << b)
    };
    // Jumps east, west, south and north: the cells of each, from each anchor.
    let jumps: Vec<(u64, u64)> = (0..64)
        .flat_map(|x| {
            let (e, s) = (7u64 << x, 0x10101u64.checked_shl(x).unwrap_or(0));
            [
                (e, 1u64 << x),
                (e, 4u64 << x),
                (s, 1 << x),
                (s, 0x10000u64.checked_shl(x).unwrap_or(0)),
            ]
        })
        .filter(|&(cells, to)| {
            cells != 0 && cells & board == cells && (to & cells) != 0 && cells.count_ones() == 3
        })
        .collect();
    let binom = binomials();
    let bitmap: Vec<AtomicU64> = (0..(binom[33][16] as usize).div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let start = board & !(1u64 << 27);
    let mut layer = vec![compact(canon(start))];
    let (mut rank_total, mut hash_total) = (0.0, 0.0);
    println!("pegs  successors  positions  rank bitmap  hash partitions");
    for pegs in (1..32usize).rev() {
        let successors: Vec<Vec<u64>> = layer
            .par_chunks(1 << 14)
            .map(|part| {
                let mut out = Vec::new();
                for &c in part {
                    let s = grid(c);
                    for &(cells, to) in &jumps {
                        // Legal when the two cells besides `to` hold pegs and `to` is a hole.
                        if s & cells == cells & !to {
                            out.push(compact(canon(s ^ cells)));
                        }
                    }
                }
                out
            })
            .collect();
        let n: usize = successors.iter().map(Vec::len).sum();
        let t = Instant::now();
        let by_rank = dedup_rank(&binom, &successors, pegs, &bitmap);
        let rank_time = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let by_hash = dedup_hash(&successors);
        let hash_time = t.elapsed().as_secs_f64();
        let mut sorted = by_hash;
        sorted.par_sort_unstable();
        assert_eq!(sorted, by_rank, "the two stores disagree at {pegs} pegs");
        println!(
            "{pegs:4} {n:11} {:10} {:9.1} ms {:13.1} ms",
            by_rank.len(),
            rank_time * 1e3,
            hash_time * 1e3
        );
        rank_total += rank_time;
        hash_total += hash_time;
        layer = by_rank;
    }
    println!("total: rank bitmap {rank_total:.2} s, hash partitions {hash_total:.2} s");
}

/// The least of the eight images of a grid word under the square's symmetries.
fn canon(s: u64) -> u64 {
    let h = |s: u64| s.reverse_bits().swap_bytes() >> 1;
    let v = |s: u64| s.swap_bytes() >> 8;
    let t = |mut x: u64| {
        for (k, shift) in [
            (0x0f0f_0f0f_0000_0000u64, 28),
            (0x3333_0000_3333_0000, 14),
            (0x5500_5500_5500_5500, 7),
        ] {
            let d = k & (x ^ (x << shift));
            x ^= d ^ (d >> shift);
        }
        x
    };
    let ts = t(s);
    [s, h(s), v(s), v(h(s)), ts, h(ts), v(ts), v(h(ts))]
        .into_iter()
        .min()
        .unwrap_or(s)
}

fn binomials() -> Vec<Vec<u64>> {
    let mut c = vec![vec![0u64; 35]; 35];
    for n in 0..35 {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
        }
    }
    c
}

/// The colex rank of a set of pegs among those of the same count.
fn rank(binom: &[Vec<u64>], mut s: u64) -> u64 {
    let (mut r, mut i) = (0, 1);
    while s != 0 {
        r += binom[s.trailing_zeros() as usize][i];
        s &= s - 1;
        i += 1;
    }
    r
}

fn unrank(binom: &[Vec<u64>], mut r: u64, pegs: usize) -> u64 {
    let (mut s, mut n) = (0u64, 33);
    for i in (1..=pegs).rev() {
        let mut p = n - 1;
        while binom[p][i] > r {
            p -= 1;
        }
        s |= 1 << p;
        r -= binom[p][i];
        n = p;
    }
    s
}

/// Sets each successor's bit in the bitmap of C(33, pegs) ranks, then reads
/// the layer back out in rank order, clearing the bitmap.
fn dedup_rank(
    binom: &[Vec<u64>],
    successors: &[Vec<u64>],
    pegs: usize,
    bitmap: &[AtomicU64],
) -> Vec<u64> {
    let words = (binom[33][pegs] as usize).div_ceil(64);
    successors.par_iter().for_each(|part| {
        for &s in part {
            let r = rank(binom, s);
            let (w, bit) = ((r / 64) as usize, 1u64 << (r % 64));
            if bitmap[w].load(Ordering::Relaxed) & bit == 0 {
                bitmap[w].fetch_or(bit, Ordering::Relaxed);
            }
        }
    });
    let mut out: Vec<u64> = bitmap[..words]
        .par_chunks(1 << 16)
        .enumerate()
        .flat_map_iter(|(chunk, ws)| {
            let mut found = Vec::new();
            for (j, w) in ws.iter().enumerate() {
                let mut bits = w.swap(0, Ordering::Relaxed);
                while bits != 0 {
                    let r = (((chunk << 16) + j) * 64) as u64 + u64::from(bits.trailing_zeros());
                    bits &= bits - 1;
                    found.push(unrank(binom, r, pegs));
                }
            }
            found
        })
        .collect();
    out.par_sort_unstable();
    out
}

/// Scatters the successors into 256 partitions by hash, and deduplicates
/// each partition in a hash set of its own, on rayon's threads.
fn dedup_hash(successors: &[Vec<u64>]) -> Vec<u64> {
    const PARTS: usize = 256;
    let part = |s: u64| (s.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize;
    let scattered: Vec<Vec<Vec<u64>>> = successors
        .par_iter()
        .map(|v| {
            let mut parts = vec![Vec::new(); PARTS];
            for &s in v {
                parts[part(s)].push(s);
            }
            parts
        })
        .collect();
    (0..PARTS)
        .into_par_iter()
        .flat_map_iter(|p| {
            let n: usize = scattered.iter().map(|v| v[p].len()).sum();
            let mut set =
                rustc_hash::FxHashSet::with_capacity_and_hasher(n / 4, Default::default());
            for v in &scattered {
                set.extend(v[p].iter().copied());
            }
            set.into_iter()
        })
        .collect()
}
