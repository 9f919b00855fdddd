//! Solving the shipped peg and graph puzzles: parity proofs, depth-first search, and one
//! enumeration. French37 from c1 (about 10 s) is timed by command, in README.md.

use criterion::{Criterion, criterion_group, criterion_main};
use pegflip::{Limits, Puzzle, solve};
use pegflip::{Request, enumerate};

fn load(name: &str) -> Puzzle {
    Puzzle::from_file(&format!("puzzles/{name}.toml")).unwrap()
}

fn catalogue(c: &mut Criterion) {
    let limits = Limits::default();
    for name in ["french37", "english33", "petersen", "merlin"] {
        let puzzle = load(name);
        let program = puzzle.compile().unwrap();
        let start = puzzle.start.clone().unwrap();
        c.bench_function(&format!("solve {name} from its start"), |b| {
            b.iter(|| solve(&program, &start, &limits).unwrap())
        });
    }
    let triangle = load("triangle15");
    let program = triangle.compile().unwrap();
    c.bench_function("triangle15: all 15 single vacancies", |b| {
        b.iter(|| {
            for hole in 1..=15 {
                let start = triangle
                    .read_board(&format!("full but {hole}"), "<bench>")
                    .unwrap()
                    .state;
                solve(&program, &start, &limits).unwrap();
            }
        })
    });
    let from = triangle.read_board("full but 1", "<bench>").unwrap().state;
    let request = Request {
        from: Some(from),
        reachable: true,
        symmetry: false,
        ..Default::default()
    };
    c.bench_function("triangle15: reachable from hole 1", |b| {
        b.iter(|| enumerate(&program, &request, &Default::default(), None).unwrap())
    });
}

criterion_group!(benches, catalogue);
criterion_main!(benches);
