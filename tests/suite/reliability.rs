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
    crate::common::interrupt(child);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every input a user hands pegflip may begin with a UTF-8 byte-order mark,
/// as some editors write: each reader gives the same answer with and without
/// one, and an error after it keeps its line and column.
#[test]
fn a_byte_order_mark_is_skipped_by_every_reader() {
    const BOM: &[u8] = b"\xef\xbb\xbf";
    let dir = crate::common::scratch("bom");
    let with = |name: &str, text: &[u8]| -> String {
        let path = dir.join(name);
        std::fs::write(&path, [BOM, text].concat()).unwrap();
        path.display().to_string()
    };
    let plain = |args: &[&str], stdin: &[u8]| {
        let out = pegflip(args, stdin);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    // The judges' inputs, on stdin and from a file.
    for (puzzle, input) in [
        ("flip4x4", "tests/data/flip4x4-poj1753.in"),
        ("pebble12", "tests/data/pebble12-uva10651.in"),
        ("poj1222", "tests/data/poj1222.in"),
        ("peg-game", "tests/data/peg-game-poj1667.in"),
    ] {
        let bytes = std::fs::read(input).unwrap();
        let expected = plain(&["batch", puzzle], &bytes);
        assert_eq!(expected.0, Some(0), "{puzzle}");
        assert_eq!(
            plain(&["batch", puzzle], &[BOM, &bytes].concat()),
            expected,
            "{puzzle}"
        );
        let file = with(&format!("{puzzle}.in"), &bytes);
        assert_eq!(plain(&["batch", puzzle, &file], b""), expected, "{puzzle}");
    }
    // A puzzle file, valid and with an error on its first line.
    let toml = std::fs::read("puzzles/flip4x4.toml").unwrap();
    let file = with("flip.toml", &toml);
    assert_eq!(
        plain(&["solve", &file, "bwwb/bbwb/bwwb/bwww"], b""),
        plain(&["solve", "flip4x4", "bwwb/bbwb/bwwb/bwww"], b"")
    );
    let broken = with("broken.toml", b"name = \n");
    let out = pegflip(&["check", &broken], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("broken.toml:1:8: error"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A board on stdin, and a moves file for verify.
    assert_eq!(
        plain(
            &["solve", "flip4x4", "-"],
            &[BOM, b"bwwb\nbbwb\nbwwb\nbwww\n"].concat()
        ),
        plain(&["solve", "flip4x4", "bwwb/bbwb/bwwb/bwww"], b"")
    );
    let moves = std::fs::read("tests/data/english33-bergholt.moves").unwrap();
    let file = with("bergholt.moves", &moves);
    let (code, text) = plain(&["verify", "english33", "--metric", "moves", &file], b"");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("holds: 18 legal moves"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `new` refuses a name that names no file, instead of writing a hidden
/// `.toml` or failing on a folder.
#[test]
fn new_needs_a_name() {
    let dir = crate::common::scratch("new-names");
    for name in ["", " ", ".toml", "  .toml", "some/dir/", "/"] {
        let out = Command::new(env!("CARGO_BIN_EXE_pegflip"))
            .args(["new", "--like", "flip4x4", name])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name:?}: {err}");
        assert!(err.contains("names no file"), "{name:?}: {err}");
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing was written"
    );
    std::fs::remove_dir_all(&dir).ok();
}
