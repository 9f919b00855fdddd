//! `--max-memory` is a bound: every command family, run under a ladder of limits, peaks within 1.25× of the limit or refuses it by name.
//!
//! Each case runs the binary as a child and reads the child's peak resident
//! memory from `wait4`'s `ru_maxrss`. Exit 0 must come with output; a refusal
//! (exit 2) must name a limit; nothing else is allowed.

use std::fmt::Write;
use std::process::{Command, Stdio};

/// How far past `--max-memory` a process may peak.
const SLACK: f64 = 1.25;

/// What one child did: its exit code, peak resident bytes, stdout and stderr.
struct Run {
    code: i32,
    peak: u64,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `pegflip ARGS` with `stdin`, in `dir`, and measures its peak resident
/// memory with GNU time, which reads it from `wait4`'s `ru_maxrss`. The test
/// process cannot read it itself: a child inherits its parent's peak across
/// fork and exec, and this process holds every test's data.
fn measured(args: &[String], stdin: &[u8], dir: &std::path::Path) -> Run {
    let out_path = dir.join("stdout");
    let err_path = dir.join("stderr");
    let peak_path = dir.join("peak");
    let in_path = dir.join("stdin");
    std::fs::write(&in_path, stdin).unwrap();
    let status = Command::new(TIME)
        .args(["-f", "%M", "-o"])
        .arg(&peak_path)
        .arg(env!("CARGO_BIN_EXE_pegflip"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::from(std::fs::File::open(&in_path).unwrap()))
        .stdout(Stdio::from(std::fs::File::create(&out_path).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
        .status()
        .unwrap_or_else(|e| {
            panic!("{TIME} runs (Debian's package `time`; .ci/run installs it): {e}")
        });
    let peak = std::fs::read_to_string(&peak_path).unwrap();
    // The last line is the figure; a line before it says how a killed child ended.
    let kib: u64 = peak
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("{TIME} wrote no peak: {peak}"));
    Run {
        code: status.code().unwrap_or(-1),
        peak: kib * 1024,
        stdout: std::fs::read(&out_path).unwrap(),
        stderr: std::fs::read_to_string(&err_path).unwrap(),
    }
}

/// GNU time, which reports a child's peak resident memory in KiB with `-f %M`.
const TIME: &str = "/usr/bin/time";

/// One command family: its arguments (without `--max-memory`), its stdin, and the
/// limits to run it under.
struct Family {
    name: &'static str,
    args: Vec<String>,
    stdin: Vec<u8>,
    ladder: &'static [u64],
    /// Whether the largest limit of the ladder is enough for the answer.
    answers: bool,
    /// Whether every limit of the ladder is: the command reads its input as
    /// a stream, in the memory of one case or move.
    streams: bool,
}

const MIB: u64 = 1 << 20;

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// Writes a puzzle file into `dir` and gives its path.
fn file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The triangle of side `n`, counted in moves, from the apex empty to one peg.
fn triangle(n: usize) -> String {
    let shape: Vec<String> = (0..n)
        .map(|r| format!("\"{}{}\"", "o".repeat(r + 1), ".".repeat(n - r - 1)))
        .collect();
    format!(
        "name = \"Triangle {n}\"\nmetric = \"moves\"\nstart = \"full but 1\"\n[board]\n\
         lattice = \"triangular\"\nshape = [{}]\nnames = \"numbers\"\n[symbols]\non = \"o\"\n\
         off = \"-\"\ngap = \".\"\n[[moves]]\njump = \"triangular\"\n[goal]\n\
         one-piece = \"anywhere\"\n",
        shape.join(", ")
    )
}

/// A lit-only plus puzzle of `n` × `n`, from all lit to all dark.
fn lit_only(n: usize) -> String {
    format!(
        "name = \"Lit-only {n}\"\nstart = \"all-on\"\n[board]\nrows = {n}\ncols = {n}\n\
         [[moves]]\ntoggle = \"plus\"\nwhen = \"on\"\n[goal]\ntarget = \"all-off\"\n\
         [limits]\ngraph-states = 1000000\n"
    )
}

/// Every command family, each with inputs large enough to pass the lower limits.
fn families(dir: &std::path::Path) -> Vec<Family> {
    let lit8 = file(dir, "lit8.toml", &lit_only(8));
    let lit6 = file(dir, "lit6.toml", &lit_only(6));
    let tri8 = file(dir, "tri8.toml", &triangle(8));
    let tri11 = file(dir, "tri11.toml", &triangle(11));
    let big = file(
        dir,
        "big.toml",
        "name = \"Big\"\n[board]\nrows = 20000\ncols = 20000\n[[moves]]\ntoggle = \"plus\"\n\
         [goal]\ntarget = \"all-off\"\n[limits]\ngrid-positions = 1000000000\n",
    );
    let rows = file(
        dir,
        "rows.toml",
        "name = \"Rows\"\n[board]\nrows = 1\ncols = 2000\n[[moves]]\n\
         toggle = \"row-and-column\"\n[goal]\ntarget = \"all-off\"\n",
    );
    // Lights out's answer, behind a million presses of one button that cancel in pairs.
    let solved = crate::common::pegflip(&["solve", "lights-out", "--json"], b"");
    let mut answer: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    let mut moves = vec![serde_json::json!({ "kind": "toggle", "cells": [[4, 4]] }); 1_000_000];
    moves.extend(answer["moves"].as_array().unwrap().iter().cloned());
    answer["length"] = moves.len().into();
    answer["optimal"] = false.into();
    answer["moves"] = moves.into();
    let answer = file(dir, "answer.json", &answer.to_string());
    let typed = file(dir, "typed.txt", &"46-44\n".repeat(1_000_000));
    let cases = 1_000_000;
    let mut judge = format!("{cases}\n");
    for case in 0..cases {
        for row in 0..5 {
            let line: Vec<&str> = (0..6)
                .map(|col| ["0", "1"][(case * 7 + row * 3 + col) % 5 / 4])
                .collect();
            judge.push_str(&line.join(" "));
            judge.push('\n');
        }
    }
    let load = serde_json::json!({
        "op": "load",
        "toml": std::fs::read_to_string(&rows).unwrap(),
        "file": "rows.toml",
        "max_memory": 0,
    });
    vec![
        Family {
            name: "solve by moves (the triangle of side 8)",
            args: strings(&["solve", &tri8]),
            stdin: vec![],
            ladder: &[16 * MIB, 40 * MIB, 80 * MIB, 300 * MIB],
            answers: true,
            streams: false,
        },
        // Levels of millions of positions, refused during the last: the small
        // buffers each chunk frees must not stay resident.
        Family {
            name: "solve by moves, refused midway (the triangle of side 8 from hole 13)",
            args: strings(&["solve", &tri8, "--set", "start=full but 13"]),
            stdin: vec![],
            ladder: &[600 * MIB],
            answers: false,
            streams: false,
        },
        // 66 holes in 128-bit words; a peg's chains of reversed jumps on the nearly
        // empty board reach far more positions than any of these limits holds.
        Family {
            name: "solve by moves past 64 holes (the triangle of side 11)",
            args: strings(&["solve", &tri11]),
            stdin: vec![],
            ladder: &[32 * MIB, 128 * MIB, 256 * MIB],
            answers: false,
            streams: false,
        },
        Family {
            name: "solve by search (lit-only 8 × 8)",
            args: strings(&["solve", &lit8]),
            stdin: vec![],
            ladder: &[16 * MIB, 50 * MIB, 150 * MIB],
            answers: false,
            streams: false,
        },
        Family {
            name: "check (a 20,000 × 20,000 grid)",
            args: strings(&["check", &big]),
            stdin: vec![],
            ladder: &[16 * MIB, 50 * MIB, 200 * MIB],
            answers: true,
            streams: false,
        },
        Family {
            name: "analyze (a 20,000 × 20,000 grid)",
            args: strings(&["analyze", &big]),
            stdin: vec![],
            ladder: &[16 * MIB, 100 * MIB],
            answers: false,
            streams: false,
        },
        Family {
            name: "graph (lit-only 6 × 6, with its DOT text)",
            args: strings(&["graph", &lit6, "--from", "all-on"]),
            stdin: vec![],
            ladder: &[16 * MIB, 30 * MIB, 100 * MIB],
            answers: false,
            streams: false,
        },
        Family {
            name: "verify (an answer of a million presses)",
            args: strings(&["verify", "lights-out", &answer]),
            stdin: vec![],
            ladder: &[16 * MIB, 50 * MIB],
            answers: true,
            streams: true,
        },
        Family {
            name: "verify (a million typed moves)",
            args: strings(&["verify", "english33", &typed]),
            stdin: vec![],
            ladder: &[16 * MIB, 50 * MIB],
            answers: true,
            streams: true,
        },
        Family {
            name: "batch (a million judge cases)",
            args: strings(&["batch", "poj1222"]),
            stdin: judge.into_bytes(),
            ladder: &[16 * MIB, 20 * MIB],
            answers: true,
            streams: true,
        },
        Family {
            name: "states by layers (English, up to symmetry)",
            args: strings(&[
                "states",
                "english33",
                "--from",
                "start",
                "--reachable",
                "--count",
                "--symmetry",
            ]),
            stdin: vec![],
            ladder: &[20 * MIB, 100 * MIB, 300 * MIB],
            answers: false,
            streams: false,
        },
        Family {
            name: "states by dataflow (English, up to symmetry, 2 workers)",
            args: strings(&[
                "states",
                "english33",
                "--from",
                "start",
                "--reachable",
                "--count",
                "--symmetry",
                "--workers",
                "2",
            ]),
            stdin: vec![],
            ladder: &[20 * MIB, 100 * MIB, 300 * MIB],
            answers: true,
            streams: false,
        },
        Family {
            name: "serve's worker (loading a 1 × 2000 row-and-column puzzle)",
            args: strings(&["serve-worker"]),
            stdin: load.to_string().into_bytes(),
            ladder: &[16 * MIB, 100 * MIB],
            answers: true,
            streams: false,
        },
    ]
}

#[test]
fn every_command_family_stays_within_its_memory_limit() {
    if !std::path::Path::new(TIME).exists() {
        // `.ci/run` installs it and sets PEGFLIP_TIME=required.
        assert!(
            std::env::var("PEGFLIP_TIME").as_deref() != Ok("required"),
            "{TIME} is missing, and PEGFLIP_TIME=required"
        );
        eprintln!("note: {TIME} is missing (Debian's `time`), so the memory ladder is skipped");
        return;
    }
    let dir = crate::common::scratch("memory-ladder");
    let mut failures = Vec::new();
    let mut table = String::new();
    for family in families(&dir) {
        for &limit in family.ladder {
            let mut args = family.args.clone();
            let mut stdin = family.stdin.clone();
            if family.args[0] == "serve-worker" {
                // The server passes its limit in the request.
                let mut request: serde_json::Value = serde_json::from_slice(&stdin).unwrap();
                request["max_memory"] = limit.into();
                stdin = request.to_string().into_bytes();
            } else {
                args.extend(["--max-memory".to_string(), limit.to_string()]);
            }
            let run = measured(&args, &stdin, &dir);
            let ratio = run.peak as f64 / limit as f64;
            let _ = writeln!(
                table,
                "{:>6} MiB  peak {:>7.1} MiB ({ratio:.2}x)  exit {}  {}",
                limit / MIB,
                run.peak as f64 / MIB as f64,
                run.code,
                family.name
            );
            let refused_by_name = run.code == 2 && run.stderr.contains("past the limit");
            let answered = (run.code == 0 || run.code == 1) && !run.stdout.is_empty();
            let last = limit == *family.ladder.last().unwrap();
            if ratio > SLACK
                || !(answered || refused_by_name)
                || (last && family.answers && !answered)
                || (family.streams && !answered)
            {
                failures.push(format!(
                    "{} at {} MiB: exit {}, peak {:.1} MiB ({ratio:.2}x); stderr: {}",
                    family.name,
                    limit / MIB,
                    run.code,
                    run.peak as f64 / MIB as f64,
                    run.stderr.trim()
                ));
            }
            if family.args[0] == "serve-worker" {
                // The worker answers every request with a reply, a refusal included.
                let reply: serde_json::Value = serde_json::from_slice(&run.stdout)
                    .unwrap_or_else(|e| panic!("{}: no reply ({e})", family.name));
                assert!(reply["status"].is_u64(), "{reply}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(failures.is_empty(), "{}\n\n{table}", failures.join("\n"));
    // `--nocapture` prints the table.
    println!("{table}");
}

#[test]
fn a_limit_too_small_to_keep_is_refused_where_it_is_given() {
    let out = crate::common::pegflip(&["check", "flip4x4", "--max-memory", "15M"], b"");
    crate::common::assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("max-memory must be at least 16M"),
        "{stderr}"
    );
    let out = crate::common::pegflip(
        &["check", "flip4x4", "--set", "limits.max-memory=\"1M\""],
        b"",
    );
    crate::common::assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--set:1:") && stderr.contains("max-memory must be at least 16M"),
        "{stderr}"
    );
}

#[test]
fn a_search_refuses_a_table_growth_past_the_limit_before_it_allocates() {
    // A hash set grows into a table twice its size beside the old one: the
    // search says so by name, before the allocator's count of the whole run does.
    let dir = crate::common::scratch("memory-growth");
    let lit8 = file(&dir, "lit8.toml", &lit_only(8));
    for limit in ["50M", "150M"] {
        let out = crate::common::pegflip(&["solve", &lit8, "--max-memory", limit], b"");
        crate::common::assert_exit(&out, 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("the memory the search would hold as its tables grow")
                && stderr.contains("past the limit max-memory"),
            "{limit}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
