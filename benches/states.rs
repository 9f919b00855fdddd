//! The French board's enumerations: from the centre up to symmetry in one process, on two
//! worker threads and on two processes over localhost; from c1 in full. Slow (a sample from
//! the centre takes about 20 s, one from c1 about 4 min): `cargo bench --bench states --
//! french_centre` takes about 10 minutes, `-- french_c1` about 40.

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use pegflip::{Cluster, Limits, Output, Program, Puzzle, Request, enumerate};
use std::hint::black_box;
use std::process::{Command, Stdio};

/// Classes of positions reachable from the French board full but d4, up to symmetry.
const CENTRE_CLASSES: u64 = 374_349_517;
/// Positions reachable from the French board full but c1.
const C1_POSITIONS: u64 = 3_049_878_082;

/// The French board's program, the board `from` names, and the puzzle file's limits.
fn french(from: &str) -> (Program, pegflip::Bits, Limits) {
    let puzzle = Puzzle::from_file("puzzles/french37.toml").unwrap();
    let program = puzzle.compile().unwrap();
    let start = puzzle.read_board(from, "<bench>").unwrap().state;
    (program, start, puzzle.limits)
}

/// `states french37 --from "full but d4" --reachable --count --symmetry` as two processes of
/// one worker over localhost; both print the count.
fn two_processes() -> u64 {
    let listeners: Vec<std::net::TcpListener> = (0..2)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let hosts: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    drop(listeners);
    let hostfile = format!("{}/french-centre.hosts", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&hostfile, hosts).unwrap();
    let children: Vec<_> = (0..2)
        .map(|i| {
            Command::new(env!("CARGO_BIN_EXE_pegflip"))
                .args(["states", "french37", "--from", "full but d4"])
                .args(["--reachable", "--count", "--symmetry", "--processes", "2"])
                .args(["--process", &i.to_string(), "--hostfile", &hostfile])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let counts: Vec<u64> = children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success());
            String::from_utf8(out.stdout)
                .unwrap()
                .trim()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(counts[0], counts[1]);
    counts[0]
}

fn french_centre(c: &mut Criterion) {
    let mut group = c.benchmark_group("french_centre");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    let (program, start, limits) = french("full but d4");
    for (name, cluster) in [
        ("one_process", None),
        ("workers_2", Some(Cluster::local(2))),
    ] {
        let request = Request {
            from: Some(start.clone()),
            reachable: true,
            symmetry: true,
            output: Output::Count,
            cluster,
            ..Default::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let summary = enumerate(&program, &request, &limits, None).unwrap();
                assert_eq!(summary.count.to_string(), CENTRE_CLASSES.to_string());
                black_box(summary)
            })
        });
    }
    group.bench_function("processes_2", |b| {
        b.iter(|| assert_eq!(black_box(two_processes()), CENTRE_CLASSES))
    });
    group.finish();
}

fn french_c1(c: &mut Criterion) {
    let mut group = c.benchmark_group("french_c1");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    let (program, start, limits) = french("full but c1");
    let request = Request {
        from: Some(start),
        reachable: true,
        output: Output::Histogram,
        ..Default::default()
    };
    group.bench_function("in_full", |b| {
        b.iter(|| {
            let summary = enumerate(&program, &request, &limits, None).unwrap();
            assert_eq!(summary.count.to_string(), C1_POSITIONS.to_string());
            black_box(summary)
        })
    });
    group.finish();
}

criterion_group!(benches, french_centre, french_c1);
criterion_main!(benches);
