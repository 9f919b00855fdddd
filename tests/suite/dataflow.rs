//! The timely dataflow engine: `states --workers` and `--processes` give the single-process figures, over threads and over TCP, and a lost process is a clear error.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::pegflip;

/// A hostfile of `n` free localhost ports, written under the test's temporary folder.
/// Each port's listener is held until all are taken, so that no port is given twice.
fn hostfile(name: &str, n: usize) -> String {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let ports: Vec<u16> = listeners
        .iter()
        .map(|l| l.local_addr().expect("a bound port").port())
        .collect();
    drop(listeners);
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
    runs(name, &vec![args; processes])
}

/// Runs process `i` of one cluster with `each[i]`; their outputs in process order.
fn runs(name: &str, each: &[&[&str]]) -> Vec<Output> {
    let hosts = hostfile(name, each.len());
    let n = each.len().to_string();
    let children: Vec<Child> = each
        .iter()
        .enumerate()
        .map(|(i, args)| {
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
    let mut a0 = args("0");
    a0.push("--progress".into());
    let a1 = args("1");
    let mut first = spawn(&a0.iter().map(String::as_str).collect::<Vec<_>>());
    let mut second = spawn(&a1.iter().map(String::as_str).collect::<Vec<_>>());
    // Process 0 tells each layer on stderr: kill process 1 once the layers are under way.
    let lines = std::io::BufRead::lines(std::io::BufReader::new(first.stderr.take().unwrap()));
    let (tell, told) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in lines {
            let _ = tell.send(line.unwrap_or_default());
        }
    });
    let mut stderr: Vec<String> = Vec::new();
    while !stderr.last().is_some_and(|l| l.starts_with("layer 5:")) {
        let line = told
            .recv_timeout(Duration::from_secs(60))
            .expect("process 0 reaches layer 5");
        stderr.push(line);
    }
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
    stderr.extend(told.iter());
    let stderr = stderr.join("\n");
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // Its layers, then one line: the error, and no panic.
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(
            "pegflip: error: the dataflow stopped: the connection to another process was lost"
        ),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .all(|l| l == last || l.starts_with("layer ") || l.starts_with("pegflip: each")),
        "{stderr}"
    );
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
            "writes one file per worker: give --output-dir DIR",
        ),
        (
            vec!["states", "triangle15", "--count", "--workers", "2"],
            "--workers and --processes count or list the positions reachable from a start",
        ),
        (
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--output-dir",
                "target/tmp/nowhere",
            ],
            "--output-dir is for listings by --workers or --processes",
        ),
        (
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--count",
                "--spill-dir",
                "target/tmp/nowhere",
            ],
            "--spill-dir is for --workers or --processes",
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
                "pebble12",
                "--from",
                "oooooo-ooooo",
                "--reachable",
                "--histogram",
                "--workers",
                "2",
            ],
            "for a histogram or a listing a goal of one piece count",
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
            "16M",
            "the memory dataflow needs (estimated) is 28311552, past the limit max-memory = 16777216",
        ),
        (
            "40M",
            "the memory one worker is estimated to need at its peak (from at most 1000 positions \
             drawn per layer; its share of max-memory over 2 threads) is ",
        ),
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

/// The files in `dir`, in the order `cat DIR/states-*.txt` takes them, each with its lines.
fn listed(dir: &std::path::Path) -> Vec<(String, Vec<String>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(&n)).unwrap();
            (n, text.lines().map(str::to_string).collect())
        })
        .collect()
}

/// The board of a JSON line.
fn board_of(line: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v["board"].as_str().unwrap().to_string()
}

#[test]
fn a_distributed_listing_writes_one_file_per_worker_with_every_state_once() {
    let reach = ["states", "triangle15", "--from", "start", "--reachable"];
    for format in ["board", "int", "json"] {
        let mut single: Vec<String> =
            stdout(&pegflip(&[&reach[..], &["--format", format]].concat(), b""))
                .lines()
                .map(str::to_string)
                .collect();
        if format == "json" {
            // The single engine's JSON lines carry the distance too, in its own key order.
            single = single.iter().map(|l| board_of(l)).collect();
        }
        single.sort();
        let dir =
            std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("listing-{format}"));
        let _ = std::fs::remove_dir_all(&dir);
        let dir_arg = dir.display().to_string();
        let outs = cluster(
            &format!("listing-{format}"),
            2,
            &[
                &reach[..],
                &[
                    "--workers",
                    "2",
                    "--format",
                    format,
                    "--output-dir",
                    &dir_arg,
                ],
            ]
            .concat(),
        );
        for out in &outs {
            assert!(stdout(out).is_empty());
            let note = String::from_utf8_lossy(&out.stderr);
            assert!(
                note.contains("3016 states listed; this process wrote"),
                "{note}"
            );
        }
        let files = listed(&dir);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "states-0.txt",
                "states-1.txt",
                "states-2.txt",
                "states-3.txt"
            ],
            "one file per worker of 2 processes x 2 threads"
        );
        if format == "json" {
            // One object per line, each file layer by layer.
            for (name, lines) in &files {
                let depths: Vec<u64> = lines
                    .iter()
                    .map(|l| {
                        let v: serde_json::Value = serde_json::from_str(l).unwrap();
                        v["distance"].as_u64().unwrap()
                    })
                    .collect();
                assert!(depths.is_sorted(), "{name}: layers in order");
            }
        }
        let mut boards: Vec<String> = files
            .into_iter()
            .flat_map(|(_, lines)| lines)
            .map(|l| if format == "json" { board_of(&l) } else { l })
            .collect();
        boards.sort();
        assert_eq!(boards, single, "{format}: every state once, none more");
    }
    // Up to symmetry: one representative per class, as many as the single engine lists.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("listing-symmetry");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.display().to_string();
    let out = pegflip(
        &[
            &reach[..],
            &["--symmetry", "--workers", "3", "--output-dir", &dir_arg],
        ]
        .concat(),
        b"",
    );
    assert!(stdout(&out).is_empty());
    let count = stdout(&pegflip(
        &[&reach[..], &["--symmetry", "--count"]].concat(),
        b"",
    ));
    let files = listed(&dir);
    assert_eq!(files.len(), 3);
    let lines: usize = files.iter().map(|(_, l)| l.len()).sum();
    assert_eq!(lines.to_string(), count.trim());
}

#[test]
fn a_worker_that_cannot_write_stops_every_process_with_a_clear_error() {
    // The file of worker 1 is taken by a directory: process 1 cannot create it.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("listing-blocked");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("states-1.txt")).unwrap();
    let dir_arg = dir.display().to_string();
    let outs = cluster(
        "blocked",
        2,
        &[
            "states",
            "triangle15",
            "--from",
            "start",
            "--reachable",
            "--output-dir",
            &dir_arg,
        ],
    );
    let errors: Vec<String> = outs
        .iter()
        .map(|o| {
            assert_eq!(o.status.code(), Some(2));
            assert!(o.stdout.is_empty());
            String::from_utf8_lossy(&o.stderr).into_owned()
        })
        .collect();
    assert!(
        errors[0].starts_with(
            "pegflip: error: the dataflow stopped: a worker of another process could not go on"
        ),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("pegflip: error: cannot write ")
            && errors[1].contains("states-1.txt"),
        "{}",
        errors[1]
    );
    for e in &errors {
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn progress_states_the_estimate_then_each_layer_by_worker() {
    let out = pegflip(
        &[
            "states",
            "english33",
            "--from",
            "start",
            "--reachable",
            "--histogram",
            "--symmetry",
            "--workers",
            "2",
            "--progress",
        ],
        b"",
    );
    let histogram = stdout(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("pegflip: each worker is estimated to hold "),
        "{stderr}"
    );
    // The estimate is within a factor of two of what the run holds at its peak.
    assert!(lines[0].contains(" MiB at its peak ("), "{stderr}");
    let layers: Vec<&str> = lines[1..].to_vec();
    assert_eq!(layers.len(), histogram.lines().count(), "{stderr}");
    for (line, level) in layers.iter().zip(histogram.lines()) {
        // `layer D: N positions held (w0 A, w1 B), T s`, with A + B = N, the histogram's N.
        let (d, n) = level.split_once(' ').unwrap();
        assert!(
            line.starts_with(&format!("layer {d}: {n} positions held (w0 ")),
            "{line}"
        );
        let shares: u64 = line
            .split(['(', ')'])
            .nth(1)
            .unwrap()
            .split(", ")
            .map(|w| w.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(shares.to_string(), n, "{line}");
    }
}

#[test]
fn a_spilled_run_gives_the_same_layers_and_leaves_its_directory_empty() {
    let english = [
        "states",
        "english33",
        "--from",
        "start",
        "--reachable",
        "--histogram",
        "--symmetry",
    ];
    let expected = stdout(&pegflip(&english, b""));
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("spill");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.display().to_string();
    // A 128 MiB share a worker: its layer and sets are kept to 32 MiB and the rest goes to
    // disk, where layers of up to 1.8 million positions a worker are merged. (At 128M in all
    // the run's resident memory passed its limit once while the rest of the suite loaded both
    // cores: timely's queues grow when a worker pauses to spill.)
    let out = pegflip(
        &[
            &english[..],
            &[
                "--workers",
                "2",
                "--spill-dir",
                &dir_arg,
                "--max-memory",
                "256M",
                "--progress",
            ],
        ]
        .concat(),
        b"",
    );
    assert_eq!(stdout(&out), expected);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .lines()
            .next()
            .unwrap()
            .contains("; with the spill, "),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "runs and layers removed"
    );
    // Without the spill, a quarter of that memory is refused before the start.
    let out = pegflip(
        &[&english[..], &["--workers", "2", "--max-memory", "64M"]].concat(),
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("or give --spill-dir"));
}

#[test]
fn the_sampled_estimate_brackets_the_english_layers() {
    // A112737 times the orbit sizes: the full English layers, from the exact count.
    let exact = stdout(&pegflip(
        &[
            "states",
            "english33",
            "--from",
            "start",
            "--reachable",
            "--histogram",
        ],
        b"",
    ));
    let estimate = stdout(&pegflip(
        &[
            "states",
            "english33",
            "--from",
            "start",
            "--reachable",
            "--estimate",
            "--samples",
            "1000",
        ],
        b"",
    ));
    let rows: Vec<Vec<f64>> = estimate
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect();
    let exact: Vec<f64> = exact
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(rows.len(), 32, "{estimate}");
    let peak = exact.iter().cloned().fold(0.0, f64::max);
    let mut settled_sum = 0.0;
    for (row, n) in rows.iter().zip(&exact) {
        // The 95% bound holds layer by layer here (the draws are the same on every run).
        assert!(row[2] >= *n, "layer {}: bound {} below {n}", row[0], row[2]);
        settled_sum += row[1];
    }
    let top = rows.iter().map(|r| r[1]).fold(0.0, f64::max);
    assert!(
        top > peak / 2.0 && top < peak * 2.0,
        "peak {top} for {peak}"
    );
    let total: f64 = exact.iter().sum();
    assert!(settled_sum > total / 2.0 && settled_sum < total * 2.0);
}

/// The French board from the centre vacancy, up to symmetry, on 2 processes:
/// 374,349,517 classes, layer by layer as the single-process engine counts
/// them. About 2 minutes here: `cargo test --release --test suite
/// dataflow::french -- --ignored --test-threads 1` runs it with the other
/// French counts, one at a time (two at once would not fit in 24 GiB).
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

#[test]
#[ignore]
fn english_in_full_without_orbits() {
    // Every position held, none weighted: the orbit weighting's figures by another road.
    let args = [
        "states",
        "english33",
        "--from",
        "start",
        "--reachable",
        "--histogram",
    ];
    let weighted = stdout(&pegflip(&args, b""));
    let explicit = stdout(&pegflip(
        &[&args[..], &["--workers", "2", "--no-orbits"]].concat(),
        b"",
    ));
    assert_eq!(explicit, weighted);
    let total: u64 = explicit
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 187_636_299);
}

/// The French board in full from the centre vacancy, layer by layer: positions
/// after 0, 1, ... 34 jumps (the single-process engine's figures, which the
/// distributed run reproduces; `README.md` has the times).
const FRENCH_CENTRE: [u64; 35] = [
    1, 4, 20, 108, 536, 2678, 12664, 55222, 222745, 816316, 2683238, 7871309, 20454352, 46848424,
    94285698, 166326193, 256798366, 347020326, 410819586, 426884522, 390321549, 314816470,
    224246104, 141122532, 78463195, 38440482, 16522952, 6204615, 2018380, 559084, 131510, 26178,
    3925, 412, 58,
];

#[test]
#[ignore]
fn french_in_full_from_the_centre_on_two_processes() {
    let args = [
        "states",
        "french37",
        "--from",
        "start",
        "--reachable",
        "--histogram",
    ];
    let outs = cluster("french-full", 2, &args);
    let histogram = stdout(&outs[0]);
    assert_eq!(stdout(&outs[1]), histogram);
    let layers: Vec<u64> = histogram
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .collect();
    assert_eq!(layers, FRENCH_CENTRE);
    assert_eq!(layers.iter().sum::<u64>(), 2_993_979_754);
    assert_eq!(stdout(&pegflip(&args, b"")), histogram);
}

/// The layers of a histogram printed by `states --histogram`.
fn layers_of(histogram: &str) -> Vec<u64> {
    histogram
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .collect()
}

/// The layers of the French board from `from` in full, on 2 processes of
/// 10 GiB with a spill directory each (`extra` added to the command); both
/// processes print the same, and the spill directory is left empty.
fn french_spilled_on_two_processes(name: &str, from: &str, extra: &[&str]) -> Vec<u64> {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dir_arg = dir.display().to_string();
    let args = [
        "states",
        "french37",
        "--from",
        from,
        "--reachable",
        "--histogram",
        "--max-memory",
        "10G",
        "--spill-dir",
        &dir_arg,
    ];
    let outs = cluster(name, 2, &[&args[..], extra].concat());
    let histogram = stdout(&outs[0]);
    assert_eq!(stdout(&outs[1]), histogram);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    layers_of(&histogram)
}

#[test]
#[ignore]
fn french_in_full_from_the_centre_without_orbits_on_two_processes() {
    // Every position held, none weighted: the orbit weighting's 2,993,979,754 by another
    // road. About 45 minutes here.
    let layers = french_spilled_on_two_processes("french-explicit", "start", &["--no-orbits"]);
    assert_eq!(layers, FRENCH_CENTRE);
}

/// The French board from d2, positions after 0, 1, ... 35 jumps: up to the
/// mirror that fixes d2, and in full.
const FRENCH_D2: [[u64; 36]; 2] = [
    [
        1, 2, 7, 31, 176, 891, 4340, 19782, 82820, 315494, 1081799, 3305478, 8940497, 21276743,
        44339202, 80643501, 127785280, 176350563, 212314236, 223708020, 206954003, 168517007,
        120977676, 76616594, 42756960, 20985212, 9025148, 3377508, 1091517, 301919, 70220, 13463,
        2131, 259, 23, 3,
    ],
    [
        1, 3, 12, 61, 347, 1768, 8645, 39477, 165426, 630538, 2162662, 6609159, 17877575, 42547680,
        88668995, 161273164, 255551426, 352676758, 424599679, 447384729, 413876291, 337004173,
        241929154, 153211874, 85497652, 41958995, 18042673, 6750362, 2180394, 602480, 139799,
        26648, 4152, 484, 36, 4,
    ],
];

/// The French board from d3, as [`FRENCH_D2`].
const FRENCH_D3: [[u64; 36]; 2] = [
    [
        1, 3, 10, 47, 251, 1248, 5915, 26178, 106417, 394935, 1320808, 3936239, 10367468, 23961963,
        48363474, 85085072, 130489036, 174784172, 205162486, 211831865, 192959346, 155376882,
        110711524, 69800398, 38881550, 19086780, 8226236, 3091084, 1004958, 280194, 65918, 12810,
        2053, 256, 23, 3,
    ],
    [
        1, 4, 17, 92, 495, 2475, 11771, 52226, 212527, 789228, 2640323, 7870055, 20730606,
        47916748, 96715832, 170154214, 260956703, 349541944, 410294786, 423631649, 385887175,
        310724581, 221398196, 139580751, 77748102, 38162987, 16445627, 6178002, 2007607, 559163,
        131269, 25378, 4012, 481, 36, 4,
    ],
];

#[test]
#[ignore]
fn french_from_d2_and_d3_on_two_processes() {
    // Up to symmetry on 2 processes of 10 GiB (8 to 12 minutes each here), and
    // in full on one process, which needs --max-memory 20G (9 to 10 minutes).
    for (start, pinned, classes, positions) in [
        ("full but d2", FRENCH_D2, 1_550_858_506u64, 3_101_423_276u64),
        ("full but d3", FRENCH_D3, 1_495_337_603, 2_990_375_067),
    ] {
        let args = [
            "states",
            "french37",
            "--from",
            start,
            "--reachable",
            "--histogram",
        ];
        let outs = cluster(
            "french-d",
            2,
            &[&args[..], &["--symmetry", "--max-memory", "10G"]].concat(),
        );
        let histogram = stdout(&outs[0]);
        assert_eq!(stdout(&outs[1]), histogram, "{start}");
        assert_eq!(layers_of(&histogram), pinned[0], "{start}");
        assert_eq!(pinned[0].iter().sum::<u64>(), classes, "{start}");
        let full = stdout(&pegflip(
            &[&args[..], &["--max-memory", "20G"]].concat(),
            b"",
        ));
        assert_eq!(layers_of(&full), pinned[1], "{start}");
        assert_eq!(pinned[1].iter().sum::<u64>(), positions, "{start}");
    }
}

/// The French board from c1, which no symmetry fixes: every position, after
/// 0, 1, ... 35 jumps.
const FRENCH_C1: [u64; 36] = [
    1, 2, 6, 32, 173, 919, 4742, 22820, 101116, 410035, 1503492, 4924564, 14261786, 36137026,
    79406360, 150455758, 245322135, 344874094, 420040537, 445790702, 414325336, 338416017,
    243422988, 154300131, 86103949, 42214067, 18121405, 6765112, 2180651, 601443, 139428, 26591,
    4140, 484, 36, 4,
];

#[test]
#[ignore]
fn french_from_c1_in_one_process() {
    // No symmetry fixes c1: 3,049,878,082 positions held one by one, the
    // largest layer 445,790,702 of them. About 4 minutes here, within the
    // default max-memory (60% of the machine's memory: 14 GiB of 24).
    let args = [
        "states",
        "french37",
        "--from",
        "full but c1",
        "--reachable",
        "--histogram",
    ];
    let layers = layers_of(&stdout(&pegflip(&args, b"")));
    assert_eq!(layers, FRENCH_C1);
    assert_eq!(layers.iter().sum::<u64>(), 3_049_878_082);
}

#[test]
#[ignore]
fn french_from_c1_on_two_processes() {
    // About 24 minutes here, with a spill directory for each process.
    let layers = french_spilled_on_two_processes("french-c1", "full but c1", &[]);
    assert_eq!(layers, FRENCH_C1);
    assert_eq!(FRENCH_C1.iter().sum::<u64>(), 3_049_878_082);
}

/// Process `process` of 2 counting triangle15's positions from its start, on `hosts`.
fn count_process(process: &str, hosts: &str) -> Child {
    spawn(&[
        "states",
        "triangle15",
        "--from",
        "start",
        "--reachable",
        "--count",
        "--processes",
        "2",
        "--process",
        process,
        "--hostfile",
        hosts,
    ])
}

/// Two processes started with different runs both refuse, exit 2, and name
/// what differs, before any count is printed: one case for each thing a run
/// must agree on.
#[test]
fn processes_that_run_different_commands_refuse_and_say_what_differs() {
    let base: &[&str] = &[
        "states",
        "triangle15",
        "--from",
        "start",
        "--reachable",
        "--count",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v: Vec<&'static str> = vec![
            "states",
            "triangle15",
            "--from",
            "start",
            "--reachable",
            "--count",
        ];
        v.extend_from_slice(extra);
        v
    };
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        (
            "symmetry",
            with(&["--symmetry"]),
            "--symmetry is no on process 0 but yes on process 1",
        ),
        ("orbits", with(&["--no-orbits"]), "--no-orbits is no"),
        (
            "workers",
            with(&["--workers", "2"]),
            "--workers is 1 on process 0 but 2 on process 1",
        ),
        (
            "puzzle",
            vec![
                "states",
                "english33",
                "--from",
                "start",
                "--reachable",
                "--count",
            ],
            "the puzzle is Triangle 15",
        ),
        (
            "start",
            vec![
                "states",
                "triangle15",
                "--from",
                "full but 2",
                "--reachable",
                "--count",
            ],
            "the start is",
        ),
        (
            "output",
            vec![
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--histogram",
            ],
            "the output is a count on process 0 but a histogram on process 1",
        ),
        (
            "set",
            with(&["--set", "goal.one-piece=\"13\""]),
            "compiled program",
        ),
    ];
    for (name, other, says) in cases {
        let outs = runs(&format!("mismatch-{name}"), &[base, &other]);
        for (i, out) in outs.iter().enumerate() {
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}, process {i}: {err}");
            assert!(out.stdout.is_empty(), "{name}, process {i} printed a count");
            assert!(
                err.contains("were started with different runs"),
                "{name}: {err}"
            );
            assert!(err.contains(says), "{name}, process {i}: {err}");
        }
    }
}

/// A client that connects to process 0 and never speaks is dropped after the
/// greeting wait, and the real process 1 is still accepted.
#[test]
fn a_silent_connection_does_not_hold_the_run() {
    let hosts = hostfile("silent", 2);
    let text = std::fs::read_to_string(&hosts).unwrap();
    let first = text.lines().next().unwrap().to_string();
    let args = [
        "states",
        "triangle15",
        "--from",
        "start",
        "--reachable",
        "--count",
        "--processes",
        "2",
        "--hostfile",
        &hosts,
    ];
    let started = Instant::now();
    let zero = spawn(&[&args[..], &["--process", "0"]].concat());
    // The stray client connects as soon as process 0 listens, and stays silent.
    let stray = loop {
        if let Ok(s) = std::net::TcpStream::connect(&first) {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "process 0 never listened"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let one = spawn(&[&args[..], &["--process", "1"]].concat());
    for out in [zero, one].map(|c| c.wait_with_output().unwrap()) {
        assert_eq!(stdout(&out), "3016\n");
    }
    assert!(started.elapsed() < Duration::from_secs(60));
    drop(stray);
}

/// Something else listening at a process's address that answers with what
/// is not a greeting is named at once, not waited on.
#[test]
fn a_foreign_listener_is_named() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let foreign = std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            use std::io::Write;
            let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n");
            std::thread::sleep(Duration::from_secs(2));
        }
    });
    let me = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let hosts = format!("{}/foreign.hosts", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&hosts, format!("{address}\n{me}\n")).unwrap();
    let out = count_process("1", &hosts).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("did not greet back as a pegflip process"),
        "{err}"
    );
    foreign.join().unwrap();
}

/// Every hostfile line is checked before any process connects: each
/// malformed or repeated line is refused at once, at its line and column.
#[test]
fn a_bad_hostfile_is_refused_at_its_line() {
    // Two ports, each listener held until both are taken: never the same one.
    let listeners = [(); 2].map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap());
    let [a, b] = listeners
        .each_ref()
        .map(|l| l.local_addr().unwrap().to_string());
    drop(listeners);
    let cases: Vec<(String, &str)> = vec![
        (format!("{a}\n{a}\n"), ":2:1: error: 127.0.0.1:"),
        (
            format!("{a}\n127.0.0.1:99999\n"),
            ":2:1: error: expected `host:port` with a port from 1 to 65535",
        ),
        (
            format!("{a}\n127.0.0.1:0\n"),
            ":2:1: error: expected `host:port` with a port",
        ),
        (
            format!("{a}\nno-port-here\n"),
            ":2:1: error: expected `host:port`, found `no-port-here`",
        ),
        (
            format!("# a comment\n{a}\n  :{}\n", 1),
            ":3:3: error: expected `host:port` with a port",
        ),
        (format!("{a}\n"), "lists 1 addresses, but --processes is 2"),
        (
            format!("{a}\nlocalhost:{}\n", a.rsplit(':').next().unwrap()),
            "is listed twice",
        ),
        (
            format!("{b}\n{a}\n127.0.0.1:http\n"),
            ":3:1: error: expected `host:port` with a port",
        ),
        (
            format!("{a}\n{}:1\n", "x".repeat(5000)),
            ":2:1: error: xxxxxxxxxx",
        ),
    ];
    for (k, (text, says)) in cases.into_iter().enumerate() {
        let hosts = format!("{}/bad-{k}.hosts", env!("CARGO_TARGET_TMPDIR"));
        std::fs::write(&hosts, &text).unwrap();
        for process in ["0", "1"] {
            let started = Instant::now();
            let out = count_process(process, &hosts).wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{text:?}: {err}");
            assert!(err.contains(says), "{text:?}: {err}");
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "{text:?} was waited on"
            );
            assert!(
                err.len() < 1000,
                "a long line is quoted whole: {} bytes",
                err.len()
            );
        }
    }
}

/// A listing into a directory that holds an earlier listing's files: the
/// files this run would not replace are refused, by name; a rerun with the
/// same workers replaces its own files whole, so every state is listed once.
#[test]
fn an_output_directory_with_an_earlier_listing_is_refused() {
    let dir = format!("{}/stale-listing", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&dir);
    let list = |workers: &str| {
        pegflip(
            &[
                "states",
                "triangle15",
                "--from",
                "start",
                "--reachable",
                "--workers",
                workers,
                "--output-dir",
                &dir,
            ],
            b"",
        )
    };
    let lines = || -> usize {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| {
                std::fs::read_to_string(e.unwrap().path())
                    .unwrap()
                    .lines()
                    .count()
            })
            .sum()
    };
    for workers in ["4", "4"] {
        let out = list(workers);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(lines(), 3016);
    }
    let out = list("2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("holds an earlier listing's files (states-2.txt, states-3.txt)"),
        "{err}"
    );
    assert_eq!(lines(), 3016, "the refused run wrote nothing");
}

/// A process that refuses the run before it starts (the planner's estimate,
/// a directory it cannot use) tells the others, which stop at once with its
/// reason instead of waiting for it.
#[test]
fn a_process_that_refuses_before_it_starts_tells_the_others_at_once() {
    let not_a_dir = format!("{}/refuse-not-a-dir", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&not_a_dir, "a file").unwrap();
    let base: &[&str] = &[
        "states",
        "english33",
        "--from",
        "start",
        "--reachable",
        "--count",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };
    // (the name, which process refuses, its extra flags, what it says)
    let cases: Vec<(&str, usize, Vec<String>, &str)> = vec![
        (
            "planner",
            1,
            with(&["--max-memory", "16M"]),
            "past the limit max-memory = 16777216",
        ),
        (
            "planner-first",
            0,
            with(&["--max-memory", "16M"]),
            "past the limit max-memory = 16777216",
        ),
        (
            "spill-dir",
            1,
            with(&["--spill-dir", &not_a_dir]),
            "refuse-not-a-dir",
        ),
        // Past the planner, short of the dataflow's own estimate, which
        // process 0 draws and sends: the refusal comes after the connection.
        (
            "estimate",
            1,
            with(&["--max-memory", "32M"]),
            "its share of max-memory over 1 threads",
        ),
        (
            "estimate-first",
            0,
            with(&["--max-memory", "32M"]),
            "its share of max-memory over 1 threads",
        ),
    ];
    for (name, refuser, refusing, says) in cases {
        let plain: Vec<String> = with(&[]);
        let each: Vec<Vec<&str>> = (0..2)
            .map(|i| {
                let args = if i == refuser { &refusing } else { &plain };
                args.iter().map(String::as_str).collect()
            })
            .collect();
        let each: Vec<&[&str]> = each.iter().map(Vec::as_slice).collect();
        let started = Instant::now();
        let outs = runs(&format!("refuse-{name}"), &each);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(30), "{name}: {took:?}");
        for (i, out) in outs.iter().enumerate() {
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}, process {i}: {err}");
            assert!(out.stdout.is_empty(), "{name}, process {i} printed a count");
            assert!(err.contains(says), "{name}, process {i}: {err}");
            if i != refuser {
                assert!(
                    err.contains(&format!(
                        "process {refuser} refused the run before it started"
                    )),
                    "{name}, process {i}: {err}"
                );
            }
        }
    }
}

/// Processes given different `--max-memory` each hold to their own: they
/// print the whole count, or all stop with exit 2 and the one that passed
/// its limit says so. None prints a count that misses another's part.
#[test]
fn processes_with_different_memory_limits_count_all_or_stop_together() {
    let base = [
        "states",
        "english33",
        "--from",
        "start",
        "--reachable",
        "--count",
    ];
    for limit in ["40M", "64M", "128M", "160M"] {
        let tight: Vec<&str> = base
            .iter()
            .copied()
            .chain(["--max-memory", limit])
            .collect();
        let outs = runs(&format!("limits-{limit}"), &[&base, &tight]);
        let codes: Vec<Option<i32>> = outs.iter().map(|o| o.status.code()).collect();
        let errs: Vec<String> = outs
            .iter()
            .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
            .collect();
        assert!(
            codes == [Some(0), Some(0)] || codes == [Some(2), Some(2)],
            "{limit}: {codes:?} {errs:?}"
        );
        if codes[0] == Some(0) {
            for out in &outs {
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    "187636299\n",
                    "{limit}"
                );
            }
        } else {
            for out in &outs {
                assert!(out.stdout.is_empty(), "{limit}: a count printed: {errs:?}");
            }
            assert!(errs[1].contains("max-memory"), "{limit}: {}", errs[1]);
        }
    }
}

/// More worker threads than the machine's cores can pay off are refused
/// before any start, with the reason and the most that would run.
#[test]
fn worker_counts_that_cannot_pay_off_are_refused_with_the_reason() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let most = cores * pegflip::plan::THREADS_PER_CORE;
    let count = [
        "states",
        "triangle15",
        "--from",
        "start",
        "--reachable",
        "--count",
    ];
    for workers in [most + 1, 1024] {
        let started = Instant::now();
        let out = pegflip(
            &[&count[..], &["--workers", &workers.to_string()]].concat(),
            b"",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("give --workers {most} or fewer")),
            "{err}"
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    let out = pegflip(
        &[&count[..], &["--workers", &most.to_string()]].concat(),
        b"",
    );
    assert_eq!(stdout(&out), "3016\n");
}

/// What one spill file size reads as in `--progress`'s estimate (`12.5 MiB`).
fn bytes_of(human: &str) -> f64 {
    let (number, unit) = human.split_once(' ').expect("a number and a unit");
    let number: f64 = number.parse().expect("a number");
    number
        * match unit {
            "GiB" => (1u64 << 30) as f64,
            "MiB" => (1u64 << 20) as f64,
            "KiB" => 1024.0,
            _ => 1.0,
        }
}

fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// The spill's disk estimate covers what the run writes at its peak
/// (measured by watching the directory), and an interrupted run removes
/// its spill files.
#[test]
fn the_spill_estimate_covers_the_disk_used_and_an_interrupt_removes_the_files() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("spill-peak");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.display().to_string();
    let args = [
        "states",
        "english33",
        "--from",
        "start",
        "--reachable",
        "--count",
        "--symmetry",
        "--workers",
        "2",
        "--spill-dir",
        &dir_arg,
        "--max-memory",
        "128M",
        "--progress",
    ];
    let mut child = spawn(&args);
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(dir_bytes(&dir));
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(stdout(&out), "23475688\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let estimate = stderr
        .split("; with the spill, ")
        .nth(1)
        .and_then(|rest| rest.split(" on disk").next())
        .unwrap_or_else(|| panic!("no disk estimate in {stderr}"));
    let estimate = bytes_of(estimate) * 2.0;
    assert!(peak > 0, "the run spilled nothing");
    assert!(
        estimate >= peak as f64,
        "the disk estimate {estimate} is below the {peak} bytes the spill held"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);

    // Interrupted once it has spilled: exit 130, and the directory is empty.
    let mut child = spawn(&args);
    let started = Instant::now();
    while dir_bytes(&dir) == 0 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it spilled"
        );
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
    }
    crate::common::interrupt(child);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "an interrupted run left its spill files"
    );
}
