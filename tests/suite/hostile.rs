//! Hostile input, by category: each case states its answer or the located refusal it must get.
//! The classes pinned: graph toggles, integer extremes, wrong arity, wide boards, linear
//! puzzles past 64 cells, memory limits, --set values.

use crate::common::pegflip;

/// Runs `args` and checks the exit code and that stdout or stderr holds `expect`.
fn case(args: &[&str], code: i32, expect: &str) {
    let out = pegflip(args, b"");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains(expect) || stderr.contains(expect),
        "{args:?}: expected {expect:?}\n{stdout}\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

fn file(name: &str, text: &str) -> String {
    let path = crate::common::scratch("hostile").join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn graph_boards_take_self_toggles() {
    let g = file(
        "self.toml",
        "name = \"g\"\n[board]\nnodes = 3\nedges = [[0, 1]]\n[[moves]]\ntoggle = \"self\"\n[goal]\ntarget = \"all-off\"\n",
    );
    case(&["solve", &g, "o-o"], 0, "2\n");
}

#[test]
fn offsets_at_integer_extremes_and_of_the_wrong_length_are_located() {
    for (offsets, message) in [
        ("[[-9223372036854775808, 0]]", "past the limit offset-range"),
        ("[[0, 9223372036854775807]]", "past the limit offset-range"),
        (
            "[[0, 0, 7, 1]]",
            "expected [row, col] or [row, col, amount], found 4 numbers",
        ),
        (
            "[[0, 0, 2]]",
            "every amount is a whole number of turns of the 2 colours",
        ),
        (
            "[[1]]",
            "expected [row, col] or [row, col, amount], found 1 numbers",
        ),
        (
            "[[]]",
            "expected [row, col] or [row, col, amount], found 0 numbers",
        ),
    ] {
        let f = file(
            "offsets.toml",
            &format!(
                "name = \"x\"\n[board]\nrows = 3\ncols = 3\n[[moves]]\noffsets = {offsets}\n[goal]\ntarget = \"all-off\"\n"
            ),
        );
        case(&["check", &f], 2, "offsets.toml:6:12: error: ");
        case(&["check", &f], 2, message);
    }
}

#[test]
fn far_offsets_press_nothing_and_cost_nothing() {
    // An offset a million rows out lands on no cell of a 3000 x 3000 board.
    let f = file(
        "far.toml",
        "name = \"far\"\nstart = \"all-on\"\n[board]\nrows = 3000\ncols = 3000\n[[moves]]\noffsets = [[0, 0], [1, 0], [-1, 0], [1000000, 0]]\n[goal]\ntarget = \"all-off\"\n",
    );
    case(&["solve", &f, "--explain"], 0, "plan: gf2 chase");
}

#[test]
fn every_board_shape_is_chased_whatever_its_width() {
    // 1 x N, N x 1 and N x N, through the planner's chase: the answer replays (the
    // library checks it) and the first line is a count.
    for (rows, cols) in [
        (1, 1),
        (1, 2),
        (1, 300_000),
        (300_000, 1),
        (2, 5000),
        (5000, 2),
        (700, 700),
    ] {
        let (r, c) = (format!("board.rows={rows}"), format!("board.cols={cols}"));
        let out = pegflip(&["solve", "lights-out", "--set", &r, "--set", &c], b"");
        assert_eq!(out.status.code(), Some(0), "{rows} x {cols}");
        let first = String::from_utf8_lossy(&out.stdout);
        let first = first.lines().next().unwrap_or_default();
        assert!(first.parse::<u64>().is_ok(), "{rows} x {cols}: {first}");
    }
}

#[test]
fn linear_puzzles_past_64_cells_are_counted_and_listed() {
    for n in [8usize, 9, 12, 15] {
        let (r, c) = (format!("board.rows={n}"), format!("board.cols={n}"));
        let out = pegflip(
            &["states", "lights-out", "--set", &r, "--set", &c, "--count"],
            b"",
        );
        assert_eq!(out.status.code(), Some(0));
        let count = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(
            count.len() >= 19,
            "n = {n}: 2^rank with rank >= 60: {count}"
        );
    }
    // 8 x 8 lights-out has nullity 0: all 2^64 boards are solvable.
    case(
        &[
            "states",
            "lights-out",
            "--set",
            "board.rows=8",
            "--set",
            "board.cols=8",
            "--count",
        ],
        0,
        "18446744073709551616",
    );
}

#[test]
fn histograms_that_cannot_fit_are_refused_before_work() {
    case(
        &[
            "states",
            "lights-out",
            "--set",
            "board.rows=7",
            "--set",
            "board.cols=7",
            "--histogram",
            "--max-memory",
            "100M",
        ],
        2,
        "past the limit max-memory = 104857600",
    );
}

#[test]
fn batch_answers_stay_one_line() {
    case(
        &["batch", "flip4x4", "--set", "batch.impossible=\"a\\nb\""],
        2,
        "--set:1:18: error: `impossible` is one line of output",
    );
}

#[test]
fn limits_are_settable_and_named() {
    case(
        &["check", "flip4x4", "--set", "limits.max-states=12x"],
        2,
        "unknown unit 'x'",
    );
    case(
        &["check", "flip4x4", "--set", "limits.no-such=1"],
        2,
        "unknown limit 'no-such'",
    );
    case(
        &[
            "solve",
            "pebble12",
            "--set",
            "limits.max-states=3",
            "--",
            "-o--o-oo----",
        ],
        2,
        "past the limit max-states = 3",
    );
}

#[test]
fn check_list_and_explain_name_the_engine_that_runs() {
    let list = pegflip(&["list"], b"");
    let list = String::from_utf8_lossy(&list.stdout).into_owned();
    for entry in pegflip::catalogue::PUZZLES {
        let check = pegflip(&["check", entry.name], b"");
        let check = String::from_utf8_lossy(&check.stdout).into_owned();
        let engine = check
            .lines()
            .find_map(|l| l.strip_prefix("solver: "))
            .and_then(|l| l.split(':').next())
            .unwrap_or_else(|| panic!("{}: {check}", entry.name))
            .to_string();
        let row = list
            .lines()
            .find(|l| l.split_whitespace().next() == Some(entry.name))
            .unwrap();
        assert!(
            row.contains(&format!("  {engine}  ")),
            "{}: {row}",
            entry.name
        );
        let puzzle = crate::common::puzzle(entry.name);
        if puzzle.start.is_some() {
            let solve = pegflip(&["solve", entry.name, "--explain"], b"");
            let stderr = String::from_utf8_lossy(&solve.stderr);
            assert!(
                stderr.starts_with(&format!("plan: {engine}: ")),
                "{}: {stderr}",
                entry.name
            );
        }
    }
}

#[test]
fn counts_of_millions_of_cells_are_written_at_once() {
    case(
        &[
            "states",
            "lights-out",
            "--set",
            "board.rows=2000",
            "--set",
            "board.cols=2000",
            "--count",
        ],
        0,
        "2^4000000",
    );
}

#[test]
fn boards_that_begin_with_a_hyphen_need_no_separator() {
    case(&["solve", "pebble12", "-o--o-oo----"], 0, "2\n");
    case(
        &["graph", "pebble12", "--from", "-oo---------"],
        0,
        "digraph",
    );
}

#[test]
fn analyze_reports_the_matrix_as_defined_and_names_idle_moves() {
    // 3 x 3 knight moves: the centre's press flips nothing; its 9 x 9 matrix has nullity 3.
    let knight = file(
        "knight.toml",
        "name = \"k\"\n[board]\nrows = 3\ncols = 3\n[[moves]]\ntoggle = \"knight\"\n[goal]\ntarget = \"all-off\"\n",
    );
    case(&["analyze", &knight], 0, "nullity:         3\n");
    case(&["analyze", &knight], 0, "1 flip nothing (press [1, 1])");
    // A 3 x 3 torus where every press flips all nine cells: 9 moves, nullity 8.
    let torus = file(
        "torus.toml",
        "name = \"t\"\n[board]\nrows = 3\ncols = 3\nwrap = true\n[[moves]]\ntoggle = \"square\"\n[goal]\ntarget = \"all-off\"\n",
    );
    case(&["analyze", &torus], 0, "moves:           9\n");
    case(&["analyze", &torus], 0, "nullity:         8\n");
    case(&["analyze", &torus], 0, "8 repeat an earlier move");
}

#[test]
fn states_and_graph_speak_json() {
    let parse = |args: &[&str]| -> serde_json::Value {
        let out = pegflip(args, b"");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    };
    assert_eq!(
        parse(&["states", "flip4x4", "--count", "--json"])["count"],
        "4096"
    );
    let h = parse(&["states", "flip4x4", "--histogram", "--json"]);
    assert_eq!(h["histogram"][6]["count"], "256");
    let list = parse(&["states", "pebble12", "--json"]);
    assert_eq!(list["states"].as_array().unwrap().len(), 4096);
    let g = parse(&["graph", "pebble12", "--from", "-oo---------", "--json"]);
    assert_eq!(g["nodes"].as_array().unwrap().len(), 3);
    assert_eq!(g["edges"][0]["from"], 0);
}

#[test]
fn set_values_past_the_integers_of_toml_are_located() {
    for arg in [
        "board.rows=99999999999999999999",
        "board.cols=-99999999999999999999",
        "limits.max-states=18446744073709551616",
    ] {
        case(&["check", "flip4x4", "--set", arg], 2, "--set:1:");
        case(
            &["check", "flip4x4", "--set", arg],
            2,
            "past the integers a puzzle file can hold",
        );
    }
}

#[test]
fn goals_switch_on_the_command_line() {
    case(&["solve", "pebble12", "-o--o-oo----"], 0, "2\n");
    case(
        &[
            "solve",
            "pebble12",
            "-o--o-oo----",
            "--set",
            "goal.one-piece=anywhere",
        ],
        1,
        "Impossible",
    );
    case(
        &["solve", "triangle15", "--set", "goal.fewest=pieces"],
        0,
        "1 piece left after 13 moves",
    );
    case(
        &["check", "flip4x4", "--set", "goal.targe=all-on"],
        2,
        "unknown field `targe`",
    );
}

/// A cell named by a number, given unquoted where a name is text, is refused where it stands,
/// with the quotes it needs; quoted, it is read.
#[test]
fn cells_named_by_numbers_unquoted_are_told_to_quote_them() {
    case(
        &["solve", "triangle15", "--set", "goal.one-piece=13"],
        2,
        "--set:1:16: error: 13 is a number where text is expected: write it in quotes, \"13\"",
    );
    case(
        &["solve", "triangle15", "--set", "goal.one-piece=\"13\""],
        0,
        "13\nstart\n",
    );
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/triangle15.toml"
    ))
    .unwrap()
    .replace("one-piece = \"anywhere\"", "one-piece = 4");
    assert!(text.contains("one-piece = 4"));
    let path = file("numbered.toml", &text);
    case(
        &["check", &path],
        2,
        "4 is a number where text is expected: write it in quotes, \"4\"",
    );
}
