//! The French board's enumerations: from the centre up to symmetry by the built binary in one
//! process, on two worker threads and as two processes over localhost; from c1 in full. Slow
//! (a sample from the centre takes about 20 s, one from c1 about 4 min): `cargo bench --bench
//! states -- french_centre` takes about 11 minutes, `-- french_c1` about 40.

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use pegflip::{Limits, Output, Program, Puzzle, Request, enumerate};
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

/// The command-line arguments that count the French board's classes from the centre.
const CENTRE: [&str; 7] = [
    "states",
    "french37",
    "--from",
    "full but d4",
    "--reachable",
    "--count",
    "--symmetry",
];

/// Runs the built binary with `CENTRE` and `extra` arguments, once for each argument list
/// of `processes` (all at once), and gives the count that every one of them prints.
fn centre_count(extra: &[&str], processes: &[Vec<String>]) -> u64 {
    let children: Vec<_> = processes
        .iter()
        .map(|own| {
            Command::new(env!("CARGO_BIN_EXE_pegflip"))
                .args(CENTRE)
                .args(extra)
                .args(own)
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
    assert!(counts.iter().all(|&n| n == counts[0]));
    counts[0]
}

/// The arguments of two processes of one worker that connect over localhost, by a hostfile
/// of two free ports.
fn two_processes() -> Vec<Vec<String>> {
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
    (0..2)
        .map(|i| {
            [
                "--processes",
                "2",
                "--process",
                &i.to_string(),
                "--hostfile",
                &hostfile,
            ]
            .map(String::from)
            .to_vec()
        })
        .collect()
}

/// The French board from the centre as users run it: the built binary in one process, with
/// two worker threads, and as two processes; each run is a fresh process, so all three
/// pay the same start-up and the same allocator.
fn french_centre(c: &mut Criterion) {
    let mut group = c.benchmark_group("french_centre");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.bench_function("one_process", |b| {
        b.iter(|| assert_eq!(black_box(centre_count(&[], &[vec![]])), CENTRE_CLASSES))
    });
    group.bench_function("workers_2", |b| {
        b.iter(|| {
            let count = centre_count(&["--workers", "2"], &[vec![]]);
            assert_eq!(black_box(count), CENTRE_CLASSES)
        })
    });
    group.bench_function("processes_2", |b| {
        b.iter(|| {
            let count = centre_count(&[], &two_processes());
            assert_eq!(black_box(count), CENTRE_CLASSES)
        })
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
