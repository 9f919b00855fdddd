//! The documents' samples, reproduced byte for byte by `pegflip batch`.

use crate::common::{data, pegflip};

fn check_sample(puzzle: &str, sample: &str) -> String {
    crate::common::check_sample(&format!("puzzles/{puzzle}.toml"), sample)
}

#[test]
fn poj1753_sample() {
    assert_eq!(check_sample("flip4x4", "flip4x4-poj1753"), "");
}

#[test]
fn seed004_twenty_boards_with_capitals() {
    assert_eq!(check_sample("flip4x4", "flip4x4-seed004"), "");
}

#[test]
fn uva10651_sample() {
    assert_eq!(check_sample("pebble12", "pebble12-uva10651"), "");
}

#[test]
fn seed003_verbatim_with_nbsp_blank_lines_and_a_13_cell_board() {
    let stderr = check_sample("pebble12", "pebble12-seed003");
    // The one dropped cell is reported with its line, and nothing else is said.
    assert_eq!(
        stderr,
        "<stdin>:3:13: warning: dropped 1 surplus empty cells past the \
         end of the row (the board has 12 columns)\n---oo--------\n            ^\n"
    );
}

#[test]
fn batch_reads_a_named_file_like_stdin() {
    let out = pegflip(
        &[
            "batch",
            "puzzles/pebble12.toml",
            "tests/data/pebble12-uva10651.in",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, data("pebble12-uva10651.out"));
}

#[test]
fn solve_prints_answer_then_moves_and_boards() {
    let out = pegflip(
        &["solve", "puzzles/flip4x4.toml", "bwwb/bbwb/bwwb/bwww"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "4");
    assert_eq!(lines[1], "start");
    assert_eq!(&lines[2..6], ["bwwb", "bbwb", "bwwb", "bwww"]);
    // Four moves, each a line and a board; the last board is one colour.
    assert_eq!(lines.len(), 6 + 4 * 5);
    assert!(lines[6].starts_with("1. press ["));
    let last = &lines[lines.len() - 4..];
    assert!(last.iter().all(|l| *l == "bbbb") || last.iter().all(|l| *l == "wwww"));
}

#[test]
fn solve_reads_a_board_from_stdin_one_row_per_line() {
    let out = pegflip(
        &["solve", "puzzles/flip4x4.toml", "-"],
        b"Bwwb\nbbwb\nbwwb\nbwww\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"4\n"));
}

#[test]
fn solve_impossible_exits_1() {
    let out = pegflip(
        &["solve", "puzzles/flip4x4.toml", "bwbw/wwww/bbwb/bwwb"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.starts_with(b"Impossible\n"));
}

#[test]
fn solve_json_has_the_contract_keys() {
    let out = pegflip(
        &[
            "solve",
            "puzzles/pebble12.toml",
            "--json",
            "--",
            "-o--o-oo----",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable"], true);
    assert_eq!(v["length"], 2);
    assert_eq!(v["pieces"], 2);
    assert_eq!(v["final"].as_str().unwrap().matches('o').count(), 2);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    // A jump lists from, over, to: three cells in a line.
    let cells = moves[0]["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3);
    let col = |i: usize| cells[i][1].as_i64().unwrap();
    assert_eq!(col(1) - col(0), col(2) - col(1));

    let out = pegflip(
        &[
            "solve",
            "puzzles/flip4x4.toml",
            "--json",
            "bwbw/wwww/bbwb/bwwb",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable"], false);
    assert!(v.get("length").is_none());
}

#[test]
fn solve_without_board_or_start_is_a_usage_error() {
    let out = pegflip(&["solve", "puzzles/flip4x4.toml"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pegflip: error: no BOARD given, and puzzles/flip4x4.toml declares no start position\n"
    );
}

#[test]
fn check_summarises_the_puzzle() {
    let out = pegflip(&["check", "puzzles/pebble12.toml"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("cells:  12 (1 x 12 grid)"), "{text}");
    assert!(text.contains("moves:  20 (0 toggles, 20 jumps)"), "{text}");
    assert!(text.contains("linear: no"), "{text}");
}

#[test]
fn search_past_64_cells_is_refused_with_the_limit() {
    let board = ["ooooooooo"; 9].join("/");
    let out = pegflip(
        &[
            "solve",
            "tests/data/lights9x9.toml",
            "--solver",
            "bfs",
            &board,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the number of cells is 81, past the limit search-cells = 64"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}
