//! The gf2 solver at scale: light chasing on the all-on 1000 x 1000 Lights Out board, and
//! dense elimination of a 10,000-cell puzzle (the 100 x 100 torus, eliminated densely here
//! although the planner would chase it, to keep the dense engine's figure).

use criterion::{Criterion, criterion_group, criterion_main};
use pegflip::solve_linear;
use pegflip::{Bits, Limits, Linear, Override, Puzzle};
use std::hint::black_box;

fn resized(name: &str, n: usize) -> pegflip::Program {
    let path = format!("{}/puzzles/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let overrides = [
        Override::parse(&format!("board.rows={n}")).unwrap(),
        Override::parse(&format!("board.cols={n}")).unwrap(),
    ];
    Puzzle::from_file_with(&path, &overrides)
        .unwrap()
        .compile()
        .unwrap()
}

fn gf2(c: &mut Criterion) {
    let mut group = c.benchmark_group("gf2");
    group.sample_size(10);
    let limits = Limits::default();

    let program = resized("lights-out", 1000);
    let start = Bits::ones(program.cells());
    group.bench_function("chase_lights_out_1000_all_on", |b| {
        b.iter(|| {
            let linear = Linear::new(&program, &limits).unwrap();
            black_box(solve_linear(&program, &linear, &start, &limits).unwrap())
        })
    });

    // Elimination only: solving then walks a coset of 2^32 (nullity 32), bounded by
    // the coset-work limit, which is a separate cost.
    let program = resized("lights-out-torus", 100);
    group.bench_function("dense_eliminate_torus_100x100", |b| {
        b.iter(|| black_box(Linear::dense(&program, &limits).unwrap().rank()))
    });
    group.finish();
}

criterion_group!(benches, gf2);
criterion_main!(benches);
