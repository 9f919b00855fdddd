//! Runs generated inputs through the library by the million: `fuzz [SEEDS] [FIRST]`.
//! Each seed makes one mutated puzzle file with `--set` overrides, two boards, three solver
//! runs and one batch input (see tests/suite/common/fuzz.rs). Prints the totals; exits 1 on any
//! panic or wrongly-kinded error, naming the seed.

#[path = "../tests/suite/common/fuzz.rs"]
mod fuzz;

use rayon::prelude::*;

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let first: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    // Panics are caught and reported per seed; keep the default hook from printing each one.
    std::panic::set_hook(Box::new(|_| {}));
    let start = std::time::Instant::now();
    let (tally, failures) = (first..first + seeds)
        .into_par_iter()
        .map(|seed| match fuzz::run_case(seed) {
            Ok(t) => (t, Vec::new()),
            Err(e) => (fuzz::Tally::default(), vec![e]),
        })
        .reduce(
            || (fuzz::Tally::default(), Vec::new()),
            |(a, mut fa), (b, fb)| {
                fa.extend(fb);
                let t = fuzz::Tally {
                    cases: a.cases + b.cases,
                    accepted: a.accepted + b.accepted,
                    rejected: a.rejected + b.rejected,
                };
                (t, fa)
            },
        );
    println!(
        "{seeds} seeds, {} generated inputs ({} accepted, {} rejected with an input error), \
         {} failures, {:.1} s",
        tally.cases,
        tally.accepted,
        tally.rejected,
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    for f in failures.iter().take(10) {
        println!("  {f}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}
