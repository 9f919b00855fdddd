//! Puzzles of k colours: the 1000 x 1000 plus board mod 3 solved by chasing, Lights Out 2000 solved and analysed, and byte-lane elimination over GF(3).

use criterion::{Criterion, criterion_group, criterion_main};
use pegflip::program::colours::ColourProgram;
use pegflip::{Eliminated, Puzzle};

fn colours(c: &mut Criterion) {
    let mut group = c.benchmark_group("colours");
    group.sample_size(10);
    // The n = 1000 board, every light red, mod 3: chased, solved and checked.
    let puzzle = Puzzle::parse_with(
        pegflip::catalogue::find("lights-out-2000").unwrap().text,
        "lights-out-2000.toml",
        &[
            pegflip::Override::parse("board.rows=1000").unwrap(),
            pegflip::Override::parse("board.cols=1000").unwrap(),
        ],
    )
    .unwrap();
    let program = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
    let board = vec![1u64; program.cells()];
    let plan = pegflip::plan::colour_plan(&program, &puzzle.limits).unwrap();
    group.bench_function("1000 x 1000 mod 3, all red: chase and solve", |b| {
        b.iter(|| {
            Eliminated::new(&program, &plan)
                .unwrap()
                .solve(&board, &puzzle.limits)
                .unwrap()
        })
    });
    // Lights Out 2000, one board solved with the fewest presses (27 members walked).
    let puzzle = Puzzle::from_file("puzzles/lights-out-2000.toml").unwrap();
    let program = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
    let board = puzzle
        .read_colours("rg---/g-r--/--g--/-r--g/----r", "<board>")
        .unwrap()
        .digits;
    group.bench_function("lights-out-2000: solve one board", |b| {
        b.iter(|| pegflip::solve_colours(&program, &board, &puzzle.limits).unwrap())
    });
    // Dense elimination over GF(3): a random 1024 x 1024 matrix.
    let mut seed = 7u64;
    let rows: Vec<Vec<u8>> = (0..1024)
        .map(|_| {
            (0..1024)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((seed >> 33) % 3) as u8
                })
                .collect()
        })
        .collect();
    group.bench_function("GF(3) rref, random 1024 x 1024", |b| {
        b.iter(|| {
            let mut m = rows.clone();
            pegflip::zk::field::reduce(&mut m, 1024, 3).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, colours);
criterion_main!(benches);
