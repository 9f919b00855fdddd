//! Fewest moves, a chain of jumps by one peg counting once: the English central game's
//! 18-move proof (with every bound, and with the regions alone and beside each other bound),
//! George Bell's table of its levels by moves (both columns, every position),
//! triangles of side 5 to 7 from one vacancy each, and the triangle of side 8 from every
//! vacancy class. Slow: `cargo bench --bench moves`; `-- english`, `-- bell`, `-- triangle/`
//! or `-- triangle8` picks one group.

use criterion::{Criterion, criterion_group, criterion_main};
use pegflip::{Limits, Output, Override, Puzzle, Request, enumerate, solve};
use std::hint::black_box;

/// Solves `puzzle` from its start under the moves metric and returns the number of moves.
fn fewest(puzzle: &Puzzle) -> usize {
    let program = puzzle.compile().unwrap();
    let start = puzzle.start.clone().unwrap();
    match solve(&program, &start, &puzzle.limits).unwrap() {
        pegflip::Outcome::Solved(s) => s.chains.unwrap().lengths.len(),
        pegflip::Outcome::Unsolvable(_) => panic!("no solution"),
    }
}

fn english(c: &mut Criterion) {
    let mut group = c.benchmark_group("english");
    group.sample_size(10);
    // Every bound (the default), and each bound added to the regions.
    for (name, bounds) in [
        ("central_game_18_moves", None),
        ("regions_only", Some("[\"regions\"]")),
        ("regions_and_types", Some("[\"regions\", \"types\"]")),
        ("regions_and_pagoda", Some("[\"regions\", \"pagoda\"]")),
    ] {
        let mut overrides = vec![Override::parse("metric=\"moves\"").unwrap()];
        overrides.extend(bounds.map(|b| Override::parse(&format!("bounds={b}")).unwrap()));
        let puzzle = Puzzle::from_file_with("puzzles/english33.toml", &overrides).unwrap();
        assert_eq!(fewest(&puzzle), 18);
        group.bench_function(name, |b| b.iter(|| black_box(fewest(&puzzle))));
    }
    group.finish();
}

/// Bell's table: the English board's levels by moves up to symmetry, forward
/// from the start and backward from the goal, each to its end.
fn bell(c: &mut Criterion) {
    let mut group = c.benchmark_group("bell");
    group.sample_size(10);
    let overrides = [Override::parse("metric=\"moves\"").unwrap()];
    let puzzle = Puzzle::from_file_with("puzzles/english33.toml", &overrides).unwrap();
    let program = puzzle.compile().unwrap();
    for (name, from) in [("forward", puzzle.start.clone()), ("backward", None)] {
        let request = Request {
            reachable: from.is_some(),
            from,
            symmetry: true,
            output: Output::Histogram,
            ..Default::default()
        };
        let levels = enumerate(&program, &request, &Limits::default(), None).unwrap();
        assert_eq!(
            levels.histogram.values().sum::<u128>(),
            23_475_688,
            "{name}"
        );
        group.bench_function(name, |b| {
            b.iter(|| black_box(enumerate(&program, &request, &Limits::default(), None).unwrap()))
        });
    }
    group.finish();
}

/// The triangle of side `n`, counted in moves, from `start` to one peg anywhere.
fn triangle(n: usize, start: usize) -> Puzzle {
    let shape: Vec<String> = (0..n)
        .map(|r| format!("  \"{}{}\",", "o".repeat(r + 1), ".".repeat(n - r - 1)))
        .collect();
    let text = format!(
        "name = \"Triangle {n}\"\nmetric = \"moves\"\nstart = \"full but {start}\"\n[board]\n\
         lattice = \"triangular\"\nshape = [\n{}\n]\nnames = \"numbers\"\n[symbols]\non = \"o\"\n\
         off = \"-\"\ngap = \".\"\n[[moves]]\njump = \"triangular\"\n[goal]\n\
         one-piece = \"anywhere\"\n",
        shape.join("\n")
    );
    Puzzle::parse(&text, "triangle.toml").unwrap()
}

fn triangles(c: &mut Criterion) {
    let mut group = c.benchmark_group("triangle");
    group.sample_size(10);
    // Side, vacancy, and the fewest moves (README's table).
    for (n, vacancy, moves) in [(5, 1, 10), (6, 1, 10), (7, 2, 12)] {
        let puzzle = triangle(n, vacancy);
        assert_eq!(fewest(&puzzle), moves, "side {n}, vacancy {vacancy}");
        group.bench_function(format!("side_{n}_vacancy_{vacancy}"), |b| {
            b.iter(|| black_box(fewest(&puzzle)))
        });
    }
    group.finish();
}

/// The triangle of side 8 from every vacancy class that can end with one peg
/// (docs/moves.md's rows): seconds to a minute each, so ten samples of the
/// slowest take about ten minutes.
fn triangle8(c: &mut Criterion) {
    let mut group = c.benchmark_group("triangle8");
    group.sample_size(10);
    for (vacancy, moves) in [
        (1, 14),
        (2, 13),
        (4, 13),
        (5, 15),
        (7, 13),
        (8, 14),
        (12, 14),
        (13, 14),
    ] {
        let puzzle = triangle(8, vacancy);
        assert_eq!(fewest(&puzzle), moves, "vacancy {vacancy}");
        group.bench_function(format!("vacancy_{vacancy}"), |b| {
            b.iter(|| black_box(fewest(&puzzle)))
        });
    }
    group.finish();
}

criterion_group!(benches, english, bell, triangles, triangle8);
criterion_main!(benches);
