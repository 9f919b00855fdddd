//! The workloads that dedicated solvers were built for, one bench each: lights-out all-on
//! at n = 1000, 4000 and 10,000 (solved, checked and written as text or JSON), and the
//! English board's counts (reachable, up to symmetry, on a winning line, and up to symmetry as a
//! dataflow of two workers). README.md has the
//! peers' figures beside these. Slow: `cargo bench --bench peers -- lights` or `-- english`.

use criterion::{Criterion, criterion_group, criterion_main};
use pegflip::Output;
use pegflip::{Bits, Limits, Override, Program, Puzzle, solve};
use pegflip::{Cluster, Request, enumerate};
use std::hint::black_box;

fn lights_out(n: usize) -> Program {
    let overrides = [
        Override::parse(&format!("board.rows={n}")).unwrap(),
        Override::parse(&format!("board.cols={n}")).unwrap(),
    ];
    Puzzle::from_file_with("puzzles/lights-out.toml", &overrides)
        .unwrap()
        .compile()
        .unwrap()
}

fn lights(c: &mut Criterion) {
    let mut group = c.benchmark_group("lights");
    group.sample_size(10);
    let limits = Limits::default();
    for n in [1000, 4000, 10_000] {
        let program = lights_out(n);
        let start = Bits::ones(program.cells());
        group.bench_function(format!("all_on_{n}_text"), |b| {
            b.iter(|| {
                let outcome = solve(&program, &start, &limits).unwrap();
                let mut sink = std::io::sink();
                pegflip::render::write_text(&mut sink, &program, &start, &outcome).unwrap();
                black_box(outcome)
            })
        });
    }
    let program = lights_out(1000);
    let start = Bits::ones(program.cells());
    group.bench_function("all_on_1000_json", |b| {
        b.iter(|| {
            let outcome = solve(&program, &start, &limits).unwrap();
            let mut sink = std::io::sink();
            pegflip::write_json(&mut sink, &program, &start, &outcome, &limits).unwrap();
            black_box(outcome)
        })
    });
    group.finish();
}

fn english(c: &mut Criterion) {
    let mut group = c.benchmark_group("english");
    group.sample_size(10);
    let puzzle = Puzzle::from_file("puzzles/english33.toml").unwrap();
    let program = puzzle.compile().unwrap();
    let start = puzzle.start.clone().unwrap();
    for (name, reachable, symmetry, cluster) in [
        ("reachable", true, false, None),
        ("reachable_symmetry", true, true, None),
        ("winning_line", false, false, None),
        // The dataflow, its sample included, on two worker threads.
        (
            "reachable_symmetry_workers_2",
            true,
            true,
            Some(Cluster::local(2)),
        ),
    ] {
        let request = Request {
            from: Some(start.clone()),
            reachable,
            symmetry,
            output: Output::Count,
            distances: false,
            cluster,
            ..Default::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| black_box(enumerate(&program, &request, &Limits::default(), None).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, lights, english);
criterion_main!(benches);
