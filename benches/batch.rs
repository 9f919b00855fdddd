//! Batch throughput: 1,000,000 seed-format boards through parse, answer table and output, and
//! the other judge formats by the thousand.

#[path = "support/boards.rs"]
mod boards;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Times the library's `batch` on `count` generated cases of `name`.
fn bench(
    group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    name: &str,
    count: usize,
) {
    let path = format!("{}/puzzles/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let puzzle = pegflip::Puzzle::from_file(&path).unwrap();
    let program = puzzle.compile().unwrap();
    let input = boards::judge_input(name, count, 1753);
    let label = if count == 1_000_000 {
        format!("{name}_1m")
    } else {
        format!("{name}_{count}")
    };
    group.bench_function(label, |b| {
        b.iter(|| {
            let out = pegflip::batch(
                &program,
                black_box(&input),
                "bench",
                &Default::default(),
                pegflip::Preference::Auto,
            )
            .unwrap();
            black_box(out.text.len())
        })
    });
}

fn batch_million(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch");
    group.sample_size(20);
    for name in ["flip4x4", "pebble12"] {
        bench(&mut group, name, 1_000_000);
    }
    group.finish();
}

/// The other judge formats: a size, a shape or a goal per case, press matrices and move lists.
fn judges(c: &mut Criterion) {
    let mut group = c.benchmark_group("judges");
    group.sample_size(10);
    for (name, count) in [
        ("poj1222", 100_000),
        ("fliptile", 1_000),
        ("painter", 1_000),
        ("peg-game", 1_000),
    ] {
        bench(&mut group, name, count);
    }
    group.finish();
}

criterion_group!(benches, batch_million, judges);
criterion_main!(benches);
