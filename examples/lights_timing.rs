//! Times each stage of solving the all-on n x n Lights Out board: `lights_timing N`.

use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let t = Instant::now();
    let overrides = [
        pegflip::Override::parse(&format!("board.rows={n}")).unwrap(),
        pegflip::Override::parse(&format!("board.cols={n}")).unwrap(),
    ];
    let puzzle = pegflip::Puzzle::from_file_with("puzzles/lights-out.toml", &overrides).unwrap();
    println!("parse    {:?}", t.elapsed());
    let t = Instant::now();
    let program = puzzle.compile().unwrap();
    println!("compile  {:?}", t.elapsed());
    let t = Instant::now();
    let limits = pegflip::Limits::default();
    let linear = pegflip::Linear::new(&program, &limits).unwrap();
    println!(
        "eliminate {:?} ({:?}, nullity {})",
        t.elapsed(),
        linear.method(),
        linear.nullity()
    );
    let t = Instant::now();
    let start = pegflip::Bits::ones(program.cells());
    let outcome = pegflip::solve_linear(&program, &linear, &start, &limits).unwrap();
    println!("solve    {:?}", t.elapsed());
    if let pegflip::Outcome::Solved(s) = outcome {
        println!("presses  {} (optimal: {})", s.moves.len(), s.optimal);
    }
}
