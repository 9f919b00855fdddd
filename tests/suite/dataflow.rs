//! The timely dataflow engine: `states --workers` and `--processes` give the single-process figures, over threads and over TCP, and a lost process is a clear error.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::pegflip;

/// A hostfile of `n` free localhost ports, written under the test's temporary folder.
fn hostfile(name: &str, n: usize) -> String {
    let ports: Vec<u16> = (0..n)
        .map(|_| {
            std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port()
        })
        .collect();
    let path = format!("{}/{name}.hosts", env!("CARGO_TARGET_TMPDIR"));
    let text: String = ports.iter().map(|p| format!("127.0.0.1:{p}\n")).collect();
    std::fs::write(&path, text).expect("the hostfile is written");
    path
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_pegflip"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pegflip runs")
}

/// Runs `args` as `processes` processes of one cluster; their outputs in process order.
fn cluster(name: &str, processes: usize, args: &[&str]) -> Vec<Output> {
    let hosts = hostfile(name, processes);
    let n = processes.to_string();
    let children: Vec<Child> = (0..processes)
        .map(|i| {
            let i = i.to_string();
            let mut all: Vec<&str> = args.to_vec();
            all.extend(["--processes", &n, "--process", &i, "--hostfile", &hosts]);
            spawn(&all)
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().expect("a process ends"))
        .collect()
}

fn stdout(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn worker_threads_give_the_single_process_figures() {
    for (puzzle, query) in [
        ("triangle15", &["--histogram"][..]),
        ("triangle15", &["--histogram", "--symmetry"][..]),
        ("triangle15", &["--count", "--json"][..]),
        ("english33", &["--histogram", "--symmetry"][..]),
    ] {
        let mut args = vec!["states", puzzle, "--from", "start", "--reachable"];
        if puzzle == "pebble23" {
            args = vec![
                "states",
                puzzle,
                "--from",
                "oo-o-oo-o-oo-o-oo-o-oo-",
                "--reachable",
            ];
        }
        args.extend(query);
        let single = stdout(&pegflip(&args, b""));
        assert!(!single.is_empty());
        // English takes seconds a run: two workers only.
        let counts: &[&str] = if puzzle == "english33" {
            &["2"]
        } else {
            &["1", "2", "3", "4"]
        };
        for &workers in counts {
            let mut with = args.clone();
            with.extend(["--workers", workers]);
            assert_eq!(stdout(&pegflip(&with, b"")), single, "{with:?}");
        }
    }
}

#[test]
fn two_processes_over_tcp_give_the_single_process_figures() {
    let runs: [&[&str]; 2] = [
        &[
            "states",
            "triangle15",
            "--from",
            "start",
            "--reachable",
            "--histogram",
        ],
        &[
            "states",
            "english33",
            "--from",
            "start",
            "--reachable",
            "--count",
            "--symmetry",
        ],
    ];
    for (k, args) in runs.iter().enumerate() {
        let single = stdout(&pegflip(args, b""));
        let outs = cluster(&format!("two-{k}"), 2, args);
        for out in &outs {
            assert_eq!(stdout(out), single, "{args:?}");
        }
    }
    assert_eq!(
        stdout(&pegflip(runs[1], b"")),
        "23475688\n",
        "English up to symmetry"
    );
}

#[test]
fn a_lost_process_ends_the_others_with_a_clear_error() {
    let hosts = hostfile("lost", 2);
    let args = |i: &'static str| -> Vec<String> {
        [
            "states",
            "english33",
            "--from",
            "start",
            "--reachable",
            "--count",
            "--symmetry",
            "--processes",
            "2",
            "--process",
            i,
            "--hostfile",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([hosts.clone()])
        .collect()
    };
    let a0 = args("0");
    let a1 = args("1");
    let mut first = spawn(&a0.iter().map(String::as_str).collect::<Vec<_>>());
    let mut second = spawn(&a1.iter().map(String::as_str).collect::<Vec<_>>());
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        first.try_wait().unwrap().is_none(),
        "the run ended before the kill: make it longer"
    );
    second.kill().expect("process 1 is killed");
    let _ = second.wait();
    let killed = Instant::now();
    let out = loop {
        if first.try_wait().unwrap().is_some() {
            break first.wait_with_output().unwrap();
        }
        assert!(
            killed.elapsed() < Duration::from_secs(30),
            "process 0 hangs after process 1 was killed"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(
            "pegflip: error: the dataflow stopped: the connection to another process was lost"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn what_the_dataflow_does_not_serve_is_refused_clearly() {
    let hosts = hostfile("refusals", 1);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--workers",
                "2",
            ],
            "--workers and --processes count the positions reachable from a start",
        ),
        (
            vec!["states", "triangle15", "--count", "--workers", "2"],
            "--workers and --processes count the positions reachable from a start",
        ),
        (
            vec![
                "states",
                "flip4x4",
                "--from",
                "all-on",
                "--reachable",
                "--count",
                "--workers",
                "2",
            ],
            "need a peg board",
        ),
        (
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--count",
                "--workers",
                "0",
            ],
            "--workers must be from 1 to 1024, not 0",
        ),
        (
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--count",
                "--processes",
                "3",
                "--process",
                "0",
                "--hostfile",
                &hosts,
            ],
            "lists 1 addresses, but --processes is 3",
        ),
        (
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--count",
                "--processes",
                "1",
                "--process",
                "1",
                "--hostfile",
                &hosts,
            ],
            "--process from 0 to one less, not 1 and 1",
        ),
        (
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--count",
                "--processes",
                "2",
                "--process",
                "0",
                "--hostfile",
                "no-such-hostfile",
            ],
            "no-such-hostfile",
        ),
    ];
    for (args, words) in cases {
        let out = pegflip(&args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
    // Up front, the successors in flight must fit; in the run, each worker's layers must
    // fit its share of the process's --max-memory, or every worker stops.
    let english = [
        "states",
        "english33",
        "--from",
        "start",
        "--reachable",
        "--count",
        "--symmetry",
        "--workers",
        "2",
    ];
    for (memory, words) in [
        (
            "12M",
            "the memory dataflow needs (estimated) is 25165824, past the limit max-memory = 12582912",
        ),
        ("40M", "(its share of max-memory over 2 threads) is "),
    ] {
        let mut args = english.to_vec();
        args.extend(["--max-memory", memory]);
        let out = pegflip(&args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{memory}: {stderr}");
        assert!(stderr.contains(words), "{memory}: {stderr}");
        assert!(out.stdout.is_empty());
    }
    // --processes without the rest is a usage error from the argument parser.
    let out = pegflip(&["states", "triangle15", "--processes", "2"], b"");
    assert_eq!(out.status.code(), Some(2));
}

/// The French board from the centre vacancy, up to symmetry, on 2 processes:
/// 374,349,517 positions, layer by layer as the single-process engine counts
/// them. About 2.5 minutes here: `cargo test --release --test suite
/// dataflow::french -- --ignored`.
#[test]
#[ignore]
fn french_up_to_symmetry_on_two_processes() {
    let args = [
        "states",
        "french37",
        "--from",
        "start",
        "--reachable",
        "--histogram",
        "--symmetry",
    ];
    let outs = cluster("french", 2, &args);
    let histogram = stdout(&outs[0]);
    assert_eq!(stdout(&outs[1]), histogram);
    let total: u64 = histogram
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 374_349_517);
    assert_eq!(stdout(&pegflip(&args, b"")), histogram);
}
