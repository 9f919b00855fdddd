//! Every shipped puzzle pinned to its published fact, and the catalogue commands.

use crate::common::{assert_exit, data, pegflip, puzzle, scratch};

use pegflip::Proof;
use pegflip::{Bits, Limits, Linear, Outcome, solve};
use pegflip::{Request, enumerate};

fn solved(name: &str, board: &str) -> (pegflip::Program, Bits, pegflip::Solution) {
    let p = puzzle(name);
    let program = p.compile().unwrap();
    let start = p.read_board(board, "<test>").unwrap().state;
    match solve(&program, &start, &Limits::default()).unwrap() {
        Outcome::Solved(s) => {
            assert_eq!(program.replay(&start, &s.moves).unwrap(), s.end);
            (program, start, s)
        }
        other => panic!("{name} {board}: {other:?}"),
    }
}

/// Kattis pebblesolitaire2's sample: 2 4 6 23 4.
#[test]
fn pebble23_kattis_sample() {
    let out = pegflip(
        &["batch", "puzzles/pebble23.toml"],
        &data("pebble23-kattis.in"),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, data("pebble23-kattis.out"));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "2\n4\n6\n23\n4\n");
}

/// Merlin's move matrix is invertible: nullity 0, every board solvable one way.
#[test]
fn merlin_is_invertible() {
    let p = puzzle("merlin");
    let program = p.compile().unwrap();
    let linear = Linear::dense(&program, &Limits::default()).unwrap();
    assert_eq!(linear.nullity(), 0);
    let out = pegflip(&["analyze", "merlin", "--json"], b"");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nullity"], 0);
    // By brute force: the 512 press sets give 512 different boards.
    let mut seen = std::collections::HashSet::new();
    for presses in 0u32..512 {
        let mut board = Bits::zeros(9);
        for (i, m) in program.moves().iter().enumerate() {
            if presses >> i & 1 == 1 {
                board = program.apply(&board, i).unwrap();
                assert_eq!(m.flip.len(), [4, 3, 4, 3, 5, 3, 4, 3, 4][m.cells[0].0]);
            }
        }
        seen.insert(board.to_u64().unwrap());
    }
    assert_eq!(seen.len(), 512);
    let (_, _, s) = solved("merlin", "all-off");
    assert_eq!(p.board_text(&s.end), "ooo/o-o/ooo");
}

fn reachable_from(name: &str, board: &str) -> (u128, Vec<u64>) {
    let p = puzzle(name);
    let program = p.compile().unwrap();
    let from = p.read_board(board, "<test>").unwrap().state;
    let request = Request {
        from: Some(from),
        reachable: true,
        symmetry: false,
        ..Default::default()
    };
    let mut singles = Vec::new();
    let mut visit = |s: &Bits, _: Option<u32>| {
        let s = s.to_u64().unwrap();
        if s.count_ones() == 1 {
            singles.push(s);
        }
        true
    };
    let summary = enumerate(&program, &request, &Default::default(), Some(&mut visit)).unwrap();
    (summary.count.to_u128().unwrap(), singles)
}

/// Reachable positions, counting the start: 3,016 from hole 1, 2,377 from 2,
/// 4,237 from 4, 1,651 from 5; from 5 the last peg can only end in hole 13.
#[test]
fn triangle15_reachable_counts_and_hole_5() {
    for (hole, count) in [(1, 3016), (2, 2377), (4, 4237), (5, 1651)] {
        let (n, _) = reachable_from("triangle15", &format!("full but {hole}"));
        assert_eq!(n, count, "from hole {hole}");
    }
    let (_, singles) = reachable_from("triangle15", "full but 5");
    let p = puzzle("triangle15");
    let ends: Vec<&str> = singles
        .iter()
        .map(|&s| {
            p.board
                .name(pegflip::CellId(s.trailing_zeros() as usize))
                .unwrap()
        })
        .collect();
    assert_eq!(ends, ["13"]);
}

/// Every single-vacancy start reduces to one peg, in 13 jumps.
#[test]
fn triangle15_every_vacancy_finishes_with_one_peg() {
    for hole in 1..=15 {
        let (_, _, s) = solved("triangle15", &format!("full but {hole}"));
        assert_eq!((s.moves.len(), s.end.count_ones()), (13, 1), "hole {hole}");
    }
}

/// The central game on the French board is impossible, proved by a parity
/// certificate (no search), which the binary prints and `verify` accepts.
#[test]
fn french37_central_game_is_impossible_by_parity() {
    let p = puzzle("french37");
    let program = p.compile().unwrap();
    let start = p.start.clone().unwrap();
    match solve(&program, &start, &Limits::default()).unwrap() {
        Outcome::Unsolvable(Proof::Parity(certificates)) => {
            assert_eq!(certificates.len(), 1);
            pegflip::check::check_certificate(&program, &start, &certificates[0]).unwrap();
        }
        other => panic!("expected a parity proof, got {other:?}"),
    }
    let out = pegflip(&["solve", "french37", "--json"], b"");
    assert_eq!(out.status.code(), Some(1));
    let dir = scratch("french");
    let answer = dir.join("answer.json");
    std::fs::write(&answer, &out.stdout).unwrap();
    let out = pegflip(
        &["verify", "puzzles/french37.toml", answer.to_str().unwrap()],
        b"",
    );
    assert_exit(&out, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With c1 (the leftmost hole of the top row) vacant, the game finishes with
/// one peg. This is the slowest test here: about 10 s of depth-first search.
#[test]
fn french37_from_c1_finishes_with_one_peg() {
    let out = pegflip(
        &[
            "solve",
            "french37",
            "full but c1",
            "--set",
            "goal.one-piece=\"anywhere\"",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().next(), Some("35"));
    // Jumps are written in hole notation, from-to.
    assert!(
        text.lines()
            .any(|l| l.starts_with("1. ") && l.len() == 8 && l.contains('-'))
    );
    let last_board: Vec<&str> = text.lines().rev().take(7).collect();
    assert_eq!(last_board.concat().matches('o').count(), 1);
}

#[test]
fn english33_prints_jumps_in_hole_notation() {
    let (program, _, s) = solved("english33", "full but d4");
    assert_eq!(s.moves.len(), 31);
    let p = puzzle("english33");
    assert_eq!(
        p.board_text(&s.end),
        "..---../..---../-------/---o---/-------/..---../..---.."
    );
    let first = pegflip::render::describe_move(&program, s.moves.iter().next().unwrap());
    assert!(
        ["b4-d4", "f4-d4", "d2-d4", "d6-d4"].contains(&first.as_str()),
        "{first}"
    );
}

/// Sutner's theorem for the Petersen graph: all-on can be switched off.
#[test]
fn petersen_all_on_switches_off() {
    let (_, _, s) = solved("petersen", "all-on");
    assert_eq!(s.end.count_ones(), 0);
    let out = pegflip(&["check", "petersen"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("cells:  10 (graph, 15 edges)"), "{text}");
}

#[test]
fn list_names_every_shipped_puzzle() {
    let out = pegflip(&["list"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), pegflip::catalogue::PUZZLES.len() + 1);
    assert!(
        text.contains("merlin                9      9  gf2 dense"),
        "{text}"
    );
    assert!(
        text.contains("french37             37     92  dfs"),
        "{text}"
    );
}

#[test]
fn new_writes_a_commented_copy_that_checks() {
    let dir = scratch("new");
    let path = dir.join("my-triangle.toml");
    let path = path.to_str().unwrap();
    let out = pegflip(&["new", "--like", "triangle15", path], b"");
    assert_exit(&out, 0);
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("# my-triangle: a new pegflip puzzle"));
    assert!(text.contains("name = \"my-triangle\""));
    let out = pegflip(&["check", path], b"");
    assert_eq!(out.status.code(), Some(0));
    // A second time, the file is not overwritten.
    let out = pegflip(&["new", "--like", "triangle15", path], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));
    let out = pegflip(&["new", "--like", "nonesuch", path], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("choose one of flip4x4"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lit-only toggles are guarded, so gf2 refuses them and search solves them.
#[test]
fn lit_only_toggles_refuse_gf2() {
    let dir = scratch("lit");
    let path = dir.join("lit.toml");
    std::fs::write(
        &path,
        "name = \"lit-only\"\n[board]\nrows = 3\ncols = 3\n[[moves]]\ntoggle = \"plus\"\n\
         when = \"on\"\n[goal]\ntarget = \"all-off\"\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let out = pegflip(&["solve", path, "ooo/ooo/ooo", "--solver", "gf2"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = pegflip(&["solve", path, "ooo/ooo/ooo"], b"");
    assert_exit(&out, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Boards in words: `full but` and `empty but` name cells; naming one twice changes nothing.
#[test]
fn boards_in_words() {
    let p = puzzle("french37");
    let read = |text: &str| p.read_board(text, "<test>").unwrap().state;
    assert_eq!(read("full but d4"), p.start.clone().unwrap());
    assert_eq!(read("full but d4, d4"), read("full but d4"));
    assert_eq!(read("full but c1,e7").count_ones(), 35);
    let two = read("empty but c1, e7");
    assert_eq!(
        p.board_text(&two),
        "..o--../.-----./-------/-------/-------/.-----./..--o.."
    );
    let err = p
        .read_board("full but d4, z9", "<arg>")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("<arg>:1:14: error: no cell is named 'z9'"),
        "{err}"
    );
}
