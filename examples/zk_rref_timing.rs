//! Times `zk::field::reduce` on a random n x n matrix over GF(p): `zk_rref_timing N [RUNS] [P]`.
//! The FLINT counterpart is benches/flint/compare.c (run both with benches/flint/compare.sh).

use std::time::Instant;

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let (n, runs, p) = (arg(1, 4096) as usize, arg(2, 5) as usize, arg(3, 3));
    let mut times = Vec::new();
    let mut rank = 0;
    let mut seed = 0x2545f4914f6cdd1du64;
    for _ in 0..runs {
        let rows: Vec<Vec<u8>> = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| {
                        // splitmix64, each entry uniform below p.
                        seed = seed.wrapping_add(0x9e3779b97f4a7c15);
                        let mut z = seed;
                        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
                        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
                        ((z ^ (z >> 31)) % p) as u8
                    })
                    .collect()
            })
            .collect();
        let mut rows = rows;
        let t = Instant::now();
        rank = pegflip::zk::field::reduce(&mut rows, n, p)
            .expect("a prime up to 128")
            .len();
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "pegflip n={n} p={p} rank={rank} median {:.3} s (best {:.3} s, {runs} runs)",
        times[runs / 2],
        times[0]
    );
}
