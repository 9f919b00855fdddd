//! Times `gf2::Matrix::rref` on a random n x n matrix: `rref_timing N [RUNS]`.
//! The M4RI counterpart is benches/m4ri/compare.c (run both with benches/m4ri/compare.sh).

use std::time::Instant;

use pegflip::gf2::Matrix;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4096);
    let runs: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let mut times = Vec::new();
    let mut rank = 0;
    let mut seed = 0x2545f4914f6cdd1du64;
    for _ in 0..runs {
        let mut m = Matrix::zeros(n, n);
        for i in 0..n {
            for w in m.row_mut(i).iter_mut() {
                // splitmix64: not linear over GF(2), unlike xorshift, so the rank is full-ish.
                seed = seed.wrapping_add(0x9e3779b97f4a7c15);
                let mut z = seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
                *w = z ^ (z >> 31);
            }
            let tail = n % 64;
            if tail != 0 {
                let last = m.row_mut(i).last_mut().unwrap();
                *last &= (1u64 << tail) - 1;
            }
        }
        let t = Instant::now();
        rank = m.rref(n).len();
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "pegflip n={n} rank={rank} median {:.3} s (best {:.3} s, {runs} runs)",
        times[runs / 2],
        times[0]
    );
}
