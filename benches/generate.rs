//! `generate`: boards drawn from a counted layer, by rejection over a linear puzzle, and by backward play, each board solved before it is returned.

use criterion::{Criterion, criterion_group, criterion_main};
use pegflip::{Order, Puzzle, generate};

fn generating(c: &mut Criterion) {
    let cases = [
        ("flip4x4", 5, "flip4x4: 100 boards at 5 from the layers"),
        (
            "lights-out",
            12,
            "lights-out: 100 boards at 12 by rejection",
        ),
        (
            "english33",
            20,
            "english33: 100 boards at 20 by backward play",
        ),
    ];
    for (name, distance, label) in cases {
        let puzzle = Puzzle::from_file(&format!("puzzles/{name}.toml")).unwrap();
        let program = puzzle.compile().unwrap();
        let order = Order {
            distance: Some(distance),
            boards: 100,
            seed: 1,
        };
        c.bench_function(label, |b| {
            b.iter(|| generate(&program, &order, &puzzle.limits).unwrap())
        });
    }
}

criterion_group!(benches, generating);
criterion_main!(benches);
