//! Times the two phases of solving the 1000 x 1000 plus board mod 3, all red: elimination
//! (the chase's response) and solving (particular solution, quiet patterns, descent, check).
//! `cargo run --release --example zk_phase_timing`; the benchmark is `benches/colours.rs`.

use std::time::Instant;

use pegflip::program::colours::ColourProgram;
use pegflip::{Eliminated, Override, Puzzle};

fn main() {
    let text = pegflip::catalogue::find("lights-out-2000")
        .expect("a shipped puzzle")
        .text;
    let sizes = [
        Override::parse("board.rows=1000").expect("an override"),
        Override::parse("board.cols=1000").expect("an override"),
    ];
    let puzzle = Puzzle::parse_with(text, "lights-out-2000.toml", &sizes).expect("the puzzle");
    let program = ColourProgram::compile(&puzzle, &puzzle.limits).expect("compiles");
    let plan = pegflip::plan::colour_plan(&program, &puzzle.limits).expect("a plan");
    let board = vec![1u64; program.cells()];
    for _ in 0..3 {
        let t = Instant::now();
        let eliminated = Eliminated::new(&program, &plan).expect("eliminates");
        let eliminate = t.elapsed();
        let t = Instant::now();
        let outcome = eliminated.solve(&board, &puzzle.limits).expect("solves");
        let solved = matches!(outcome, pegflip::ColourOutcome::Solved(_));
        println!(
            "eliminate {:.3} s, solve {:.3} s (solvable: {solved})",
            eliminate.as_secs_f64(),
            t.elapsed().as_secs_f64()
        );
    }
}
