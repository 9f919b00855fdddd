//! Pictures, pipes and signals: `--svg`, a closed stdout, and Ctrl-C.

use crate::common::pegflip;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn svg_draws_one_panel_per_step() {
    let dir = std::env::temp_dir().join(format!("pegflip-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("flip.svg");
    let path = path.to_str().unwrap();
    let out = pegflip(
        &[
            "solve",
            "puzzles/flip4x4.toml",
            "bwwb/bbwb/bwwb/bwww",
            "--svg",
            path,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let svg = std::fs::read_to_string(path).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    // The start and four presses: five captions, four pressed cells ringed.
    assert_eq!(svg.matches("<text").count(), 5);
    assert_eq!(
        svg.matches("stroke=\"#d62728\" stroke-width=\"3\"/>")
            .count(),
        4
    );

    let out = pegflip(
        &[
            "solve",
            "puzzles/pebble12.toml",
            "--svg",
            path,
            "--",
            "-o--o-oo----",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let svg = std::fs::read_to_string(path).unwrap();
    assert_eq!(
        svg.matches("stroke=\"#e8850c\"").count(),
        4,
        "two jumps: a path and a ring each"
    );

    let out = pegflip(
        &[
            "solve",
            "puzzles/lights-out.toml",
            "--set",
            "board.rows=200",
            "--set",
            "board.cols=200",
            "--svg",
            path,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("past the limit svg-cells = 10000"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    let mut input = String::new();
    for b in 0..1u32 << 16 {
        for r in 0..4 {
            for c in 0..4 {
                input.push(if b >> (r * 4 + c) & 1 == 1 { 'b' } else { 'w' });
            }
            input.push('\n');
        }
    }
    let dir = std::env::temp_dir().join(format!("pegflip-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("all.in");
    std::fs::write(&file, input).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegflip"))
        .args(["batch", "puzzles/flip4x4.toml", file.to_str().unwrap()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the rest of the output meets a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert_eq!(first, "0\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_ends_a_long_run_with_status_130() {
    // A 12x5 board jumping in all 8 directions has too many states for a quick search.
    let text = "name = \"peg\"\n[board]\nrows = 12\ncols = 5\n[[moves]]\njump = \"all\"\n[goal]\nfewest = \"pieces\"\n";
    let dir = std::env::temp_dir().join(format!("pegflip-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let puzzle = dir.join("peg.toml");
    std::fs::write(&puzzle, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegflip"))
        .args(["solve", puzzle.to_str().unwrap(), "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let rows = ["ooooo"; 12].join("\n");
        stdin
            .write_all(rows.replacen('o', "-", 1).as_bytes())
            .unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(700));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
