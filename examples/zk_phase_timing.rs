use pegflip::program::colours::ColourProgram;
use pegflip::{Eliminated, Puzzle};
use std::time::Instant;
fn main() {
    let puzzle = Puzzle::parse_with(
        pegflip::catalogue::find("lights-out-2000").unwrap().text,
        "x.toml",
        &[
            pegflip::Override::parse("board.rows=1000").unwrap(),
            pegflip::Override::parse("board.cols=1000").unwrap(),
        ],
    )
    .unwrap();
    let t = Instant::now();
    let program = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
    let plan = pegflip::plan::colour_plan(&program, &puzzle.limits).unwrap();
    println!("compile+plan {:?}", t.elapsed());
    let board = vec![1u64; program.cells()];
    for _ in 0..3 {
        let t = Instant::now();
        let e = Eliminated::new(&program, &plan).unwrap();
        println!("eliminate {:?}", t.elapsed());
        let t = Instant::now();
        let o = e.solve(&board, &puzzle.limits).unwrap();
        println!(
            "solve {:?} {}",
            t.elapsed(),
            matches!(o, pegflip::ColourOutcome::Solved(_))
        );
    }
}
