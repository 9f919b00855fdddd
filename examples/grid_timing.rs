//! Times light chasing on the all-on n x n Lights Out board without listing its moves:
//! `grid_timing N`. This is the path for boards of up to 10^8 cells.

use std::time::Instant;

use pegflip::Bits;
use pegflip::program::stencil::GridStencil;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let overrides = [
        pegflip::Override::parse(&format!("board.rows={n}")).unwrap(),
        pegflip::Override::parse(&format!("board.cols={n}")).unwrap(),
    ];
    let puzzle = pegflip::Puzzle::from_file_with("puzzles/lights-out.toml", &overrides).unwrap();
    let t = Instant::now();
    let stencil = GridStencil::from_puzzle(&puzzle).expect("the classic board chases");
    let grid = stencil.eliminate();
    println!("eliminate {:?} (nullity {})", t.elapsed(), grid.nullity());
    let t = Instant::now();
    let start = Bits::ones(n * n);
    let presses = grid.solve(&start).expect("solvable");
    println!(
        "solve     {:?} ({} presses)",
        t.elapsed(),
        presses.count_ones()
    );
    let t = Instant::now();
    let mut state = start.clone();
    stencil.apply(&mut state, &presses);
    println!(
        "replay    {:?} (lit after: {})",
        t.elapsed(),
        state.count_ones()
    );
}
