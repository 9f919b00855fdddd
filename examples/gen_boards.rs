//! Writes a reproducible judge-format input of random boards to stdout.
//!
//! `cargo run --release --example gen_boards -- flip4x4 1000000 [SEED] > flip-1m.in`

#[path = "../benches/support/boards.rs"]
mod boards;

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(puzzle), Some(count)) = (args.first(), args.get(1).and_then(|c| c.parse().ok()))
    else {
        eprintln!(
            "usage: gen_boards flip4x4|pebble12|poj1222|fliptile|painter|peg-game COUNT [SEED]"
        );
        std::process::exit(2);
    };
    let seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1753);
    let input = boards::judge_input(puzzle, count, seed);
    std::io::stdout()
        .write_all(&input)
        .expect("stdout is writable");
}
