//! The gf2 solver against the search solvers, published sequences, and the 5x5 Lights Out facts.

use crate::common::{pegflip, puzzle};
use pegflip::Elimination;
use pegflip::{
    AnswerTable, Bits, Limits, Linear, Outcome, Override, Preference, Puzzle, solve_with,
};
use pegflip::{Proof, solve_linear};

/// A shipped puzzle resized to `rows` x `cols` with `--set`.
fn resized(name: &str, rows: usize, cols: usize) -> Puzzle {
    let path = format!("{}/puzzles/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let overrides = [
        Override::parse(&format!("board.rows={rows}")).unwrap(),
        Override::parse(&format!("board.cols={cols}")).unwrap(),
    ];
    Puzzle::from_file_with(&path, &overrides).unwrap()
}

/// The gf2 answer for one board: the number of presses and whether it is
/// proven optimal, or `None` (after checking every certificate).
fn gf2_answer(program: &pegflip::Program, linear: &Linear, start: &Bits) -> Option<(usize, bool)> {
    match solve_linear(program, linear, start, &Limits::default()).unwrap() {
        Outcome::Solved(s) => Some((s.moves.len(), s.optimal)),
        Outcome::Unsolvable(Proof::Parity(certificates)) => {
            let Some(targets) = (match program.goal() {
                pegflip::Goal::Targets(t) => Some(t),
                _ => None,
            }) else {
                panic!("targets expected")
            };
            assert_eq!(
                certificates.len(),
                targets.len(),
                "one certificate per target"
            );
            for c in &certificates {
                pegflip::check::check_certificate(program, start, c).unwrap();
            }
            None
        }
        Outcome::Unsolvable(other) => panic!("small boards always get certificates, got {other:?}"),
    }
}

#[test]
fn gf2_chase_and_dense_agree_with_bfs_on_every_flip4x4_board() {
    let p = puzzle("flip4x4");
    let program = p.compile().unwrap();
    let table = AnswerTable::build(&program).unwrap();
    let chase = Linear::chase(&program, &Limits::default()).expect("the plus stencil chases");
    let dense = Linear::dense(&program, &Limits::default()).unwrap();
    assert_eq!(chase.method(), Elimination::Chase);
    assert_eq!(dense.method(), Elimination::Dense);
    for b in 0u64..1 << 16 {
        let start = Bits::from_u64(16, b);
        let expected = table.answer(b).map(|d| (d as usize, true));
        assert_eq!(
            gf2_answer(&program, &chase, &start),
            expected,
            "chase, board {b:016b}"
        );
        assert_eq!(
            gf2_answer(&program, &dense, &start),
            expected,
            "dense, board {b:016b}"
        );
    }
}

/// OEIS A159257: the nullity of the n x n Lights Out board, n = 1..40.
const A159257: [usize; 40] = [
    0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0, 0, 0, 14, 4, 0, 0, 0, 0, 10, 20,
    0, 20, 16, 4, 6, 0, 0, 0, 32, 0,
];

/// OEIS A165738: the nullity of the n x n Lights Out torus, n = 1..40.
const A165738: [usize; 40] = [
    0, 0, 4, 0, 8, 8, 0, 0, 4, 16, 0, 16, 0, 0, 12, 0, 16, 8, 0, 32, 4, 0, 0, 32, 8, 0, 4, 0, 0,
    24, 40, 0, 44, 32, 8, 16, 0, 0, 4, 64,
];

#[test]
fn nullity_of_the_classic_board_is_a159257() {
    for n in 1..=40 {
        let program = resized("lights-out", n, n).compile().unwrap();
        let chase = Linear::chase(&program, &Limits::default()).expect("the classic board chases");
        assert_eq!(chase.nullity(), A159257[n - 1], "chase, n = {n}");
        if n <= 30 {
            let dense = Linear::dense(&program, &Limits::default()).unwrap();
            assert_eq!(dense.nullity(), A159257[n - 1], "dense, n = {n}");
        }
    }
}

#[test]
fn nullity_of_the_torus_is_a165738() {
    for n in 3..=40 {
        let program = resized("lights-out-torus", n, n).compile().unwrap();
        // A torus chases with two rows of unknowns: the first, and the last,
        // whose presses reach the first around the torus.
        let chase = Linear::chase(&program, &Limits::default()).unwrap();
        assert_eq!(chase.method(), pegflip::Elimination::Chase);
        assert_eq!(chase.nullity(), A165738[n - 1], "chase, n = {n}");
        let dense = Linear::dense(&program, &Limits::default()).unwrap();
        assert_eq!(dense.nullity(), A165738[n - 1], "dense, n = {n}");
    }
}

/// Tori of every shape from 3 x 3 to 9 x 11, with several stencils, in every
/// chase direction: the chase and dense elimination agree on the nullity and
/// on every answer (the fewest presses, or a checked certificate).
#[test]
fn torus_chase_agrees_with_dense_elimination() {
    let limits = Limits::default();
    let mut chased = 0;
    for moves in [
        "toggle = \"plus\"",
        "toggle = \"open\"",
        "offsets = [[0, 0], [-1, 0], [1, 1], [1, -1], [1, 0]]",
        "offsets = [[0, 0], [0, 1], [0, -1], [0, 2], [1, 0], [-1, 0]]",
        "offsets = [[0, 0], [1, 0], [-1, 0], [0, 1]]",
    ] {
        for rows in 3..=9 {
            for cols in 3..=11 {
                let text = format!(
                    "name = \"t\"\n[board]\nrows = {rows}\ncols = {cols}\nwrap = true\n\
                     [[moves]]\n{moves}\n[goal]\ntarget = \"all-off\"\n"
                );
                let program = Puzzle::parse(&text, "t.toml").unwrap().compile().unwrap();
                if program.stencil().is_none() {
                    continue;
                }
                chased += 1;
                let chase = Linear::chase(&program, &limits).unwrap();
                let dense = Linear::dense(&program, &limits).unwrap();
                assert_eq!(chase.nullity(), dense.nullity(), "{moves} {rows}x{cols}");
                for seed in 0..6u64 {
                    let mut start = Bits::zeros(rows * cols);
                    for i in 0..rows * cols {
                        let bit = seed
                            .wrapping_mul(0x9e3779b97f4a7c15)
                            .rotate_left(i as u32 % 64);
                        start.set(i, bit & 1 == 1);
                    }
                    assert_eq!(
                        gf2_answer(&program, &chase, &start),
                        gf2_answer(&program, &dense, &start),
                        "{moves} {rows}x{cols} seed {seed}"
                    );
                }
            }
        }
    }
    assert!(chased > 200, "{chased}");
}

#[test]
fn narrow_tori_toggle_each_cell_once() {
    // On a torus 2 wide, left and right are the same cell; on one 1 wide, they are the
    // cell itself. A neighbourhood is a set, so a press toggles each of its cells once.
    let program = resized("lights-out-torus", 2, 3).compile().unwrap();
    let flips: Vec<usize> = program.moves().iter().map(|m| m.flip.len()).collect();
    assert_eq!(
        flips,
        vec![4; 6],
        "self, the one vertical neighbour, two horizontal"
    );
    let program = resized("lights-out-torus", 1, 4).compile().unwrap();
    assert!(program.moves().iter().all(|m| m.flip.len() == 3));
    let program = resized("lights-out-torus", 1, 1).compile().unwrap();
    assert_eq!(program.moves()[0].flip.len(), 1);
    // So the 1x1 and 2x2 tori have nullity 0, as A165738 says.
    for n in 1..=2 {
        let program = resized("lights-out-torus", n, n).compile().unwrap();
        let dense = Linear::dense(&program, &Limits::default()).unwrap();
        assert_eq!(dense.nullity(), A165738[n - 1], "n = {n}");
    }
}

#[test]
fn classic_5x5_facts() {
    let p = puzzle("lights-out");
    let program = p.compile().unwrap();
    let linear = Linear::new(&program, &Limits::default()).unwrap();
    assert_eq!(linear.rank(), 23);
    assert_eq!(linear.nullity(), 2);
    assert_eq!(
        (1usize << linear.nullity()) - 1,
        3,
        "three non-zero quiet patterns"
    );
    for q in linear.null_space() {
        let presses: Vec<usize> = q.ones_iter().collect();
        let end = program.replay(&Bits::zeros(25), &presses).unwrap();
        assert_eq!(end.count_ones(), 0, "a quiet pattern changes nothing");
    }
    // Every state, by backward breadth-first search from all-off.
    let table = AnswerTable::build(&program).unwrap();
    let answers: Vec<u32> = (0u64..1 << 25).filter_map(|s| table.answer(s)).collect();
    assert_eq!(answers.len(), 8_388_608, "2^23 solvable states");
    assert_eq!(
        answers.iter().max(),
        Some(&15),
        "the longest fewest-presses solution"
    );
    // gf2 agrees with the table on a spread of boards, solvable or not.
    for s in (0u64..1 << 25).step_by(9973) {
        let expected = table.answer(s).map(|d| (d as usize, true));
        assert_eq!(
            gf2_answer(&program, &linear, &Bits::from_u64(25, s)),
            expected,
            "board {s}"
        );
    }
}

#[test]
fn gf2_refuses_guarded_moves() {
    let p = puzzle("pebble12");
    let program = p.compile().unwrap();
    let err = solve_with(
        &program,
        &Bits::zeros(12),
        &Limits::default(),
        Preference::Gf2,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("the gf2 solver needs every move to be an unconditional toggle"),
        "{err}"
    );
    let out = pegflip(
        &[
            "solve",
            "puzzles/pebble12.toml",
            "--solver",
            "gf2",
            "--",
            "-oo---------",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bfs_still_solves_a_linear_puzzle() {
    let out = pegflip(
        &["solve", "puzzles/lights-out.toml", "--solver", "bfs"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"15\n"));
}

#[test]
fn solve_json_reports_optimality_and_certificates() {
    let out = pegflip(&["solve", "puzzles/lights-out.toml", "--json"], b"");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["length"].as_u64(), v["optimal"].as_bool()),
        (Some(15), Some(true))
    );

    // One lit corner of the 5x5 board is not solvable.
    let out = pegflip(
        &[
            "solve",
            "puzzles/lights-out.toml",
            "--json",
            "o..../...../...../...../.....",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable"], false);
    let certs = v["certificate"].as_array().unwrap();
    assert_eq!(certs.len(), 1);
    assert_eq!(certs[0]["target"], "...../...../...../...../.....");
    // The certificate, checked here against its definition from the JSON alone.
    let q: Vec<(i64, i64)> = certs[0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
        .collect();
    for r in 0..5 {
        for c in 0..5 {
            let plus = [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)];
            let hits = plus.iter().filter(|p| q.contains(p)).count();
            assert_eq!(hits % 2, 0, "press [{r}, {c}] flips {hits} cells of Q");
        }
    }
    assert!(
        q.contains(&(0, 0)),
        "the lit corner is in Q, so the parity is odd"
    );

    // Flip Game: two targets, two certificates.
    let out = pegflip(
        &[
            "solve",
            "puzzles/flip4x4.toml",
            "--json",
            "bwbw/wwww/bbwb/bwwb",
        ],
        b"",
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let targets: Vec<&str> = v["certificate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["target"].as_str().unwrap())
        .collect();
    assert_eq!(targets, ["bbbb/bbbb/bbbb/bbbb", "wwww/wwww/wwww/wwww"]);
}

#[test]
fn text_certificate_is_a_picture_and_a_sentence() {
    let out = pegflip(
        &[
            "solve",
            "puzzles/lights-out.toml",
            "o..../...../...../...../.....",
        ],
        b"",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Impossible\n"), "{text}");
    assert!(
        text.contains("certificate for target ...../...../...../...../.....:\n#"),
        "{text}"
    );
    assert!(
        text.contains("every move flips an even number of the"),
        "{text}"
    );
}

#[test]
fn analyze_reports_rank_nullity_states_and_quiet_patterns() {
    let out = pegflip(&["analyze", "puzzles/lights-out.toml", "--json"], b"");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cells"], 25);
    assert_eq!(v["moves"], 25);
    assert_eq!(v["linear"], true);
    assert_eq!(v["rank"], 23);
    assert_eq!(v["nullity"], 2);
    assert_eq!(v["solvable_states"], "8388608");
    assert_eq!(v["quiet_patterns"].as_array().unwrap().len(), 2);
    // Past 64 bits, still exact.
    let out = pegflip(
        &[
            "analyze",
            "puzzles/lights-out.toml",
            "--set",
            "board.rows=9",
            "--set",
            "board.cols=9",
            "--json",
        ],
        b"",
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rank"], 73);
    assert_eq!(v["solvable_states"], "9444732965739290427392");
    let out = pegflip(&["analyze", "puzzles/pebble12.toml", "--json"], b"");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["linear"], false);
}

#[test]
fn set_overrides_are_validated_like_the_file() {
    let out = pegflip(
        &["check", "puzzles/lights-out.toml", "--set", "board.rows=0"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "--set:1:12: error: rows must be at least 1\nboard.rows=0\n           ^\n"
    );
    let out = pegflip(
        &[
            "check",
            "puzzles/lights-out.toml",
            "--set",
            "board.colour=3",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown field `colour`"));
    let out = pegflip(
        &[
            "check",
            "puzzles/lights-out.toml",
            "--set",
            "moves.4.toggle=x",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`moves` has 1 entries"));
    let out = pegflip(
        &[
            "check",
            "puzzles/lights-out.toml",
            "--set",
            "moves.0.toggle=x",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn dense_elimination_past_its_limits_is_refused_before_work() {
    let refusal = |program: &pegflip::Program, limits: &Limits| match Linear::dense(program, limits)
    {
        Ok(_) => panic!("expected a refusal"),
        Err(e) => e.to_string(),
    };
    let program = resized("lights-out-torus", 300, 300).compile().unwrap();
    let err = refusal(&program, &Limits::default());
    assert!(
        err.contains("is 2848162500000, past the limit gf2-work = 34359738368"),
        "{err}"
    );
    let small = Limits {
        max_memory: 1 << 18,
        ..Default::default()
    };
    let program = resized("lights-out-torus", 40, 40).compile().unwrap();
    let err = refusal(&program, &small);
    assert!(
        err.contains("(estimated) is 640000, past the limit max-memory = 262144"),
        "{err}"
    );
}

/// A toggle puzzle on an n x n rectangle with the given offsets.
fn stencil_puzzle(n: usize, offsets: &str) -> Puzzle {
    let text = format!(
        "name = \"stencil\"\n[board]\nrows = {n}\ncols = {n}\n[[moves]]\noffsets = {offsets}\n\
         [goal]\ntarget = \"all-off\"\n"
    );
    Puzzle::parse(&text, "<stencil>").unwrap()
}

#[test]
fn chasing_applies_to_relatives_of_the_plus_in_either_direction() {
    let limits = Limits::default();
    let cases = [
        ("[[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]", true),
        // Reaches down only at the cell below, and up and across: chased from the bottom row.
        ("[[0, 0], [1, 0], [0, 1], [0, -1], [-1, 1], [-2, 0]]", true),
        // Reaches up only at the cell above, and two rows down.
        ("[[0, 0], [-1, 0], [2, 0], [2, 1], [1, -2]]", true),
        // Reaches a diagonal neighbour both ways: no chasing.
        ("[[0, 0], [-1, 1], [1, -1]]", false),
        // Reaches two rows up, and a diagonal below: no chasing.
        ("[[0, 0], [-2, 0], [-1, 0], [1, 1]]", false),
    ];
    for (offsets, chases) in cases {
        for n in 1..=7 {
            let program = stencil_puzzle(n, offsets).compile().unwrap();
            let chase = program
                .stencil()
                .map(|_| Linear::chase(&program, &limits).unwrap());
            // On small boards clipping hides offsets, so only larger ones are pinned.
            if n >= 3 {
                assert_eq!(chase.is_some(), chases, "{offsets} n={n}");
            }
            let dense = Linear::dense(&program, &limits).unwrap();
            if let Some(chase) = chase {
                assert_eq!(chase.nullity(), dense.nullity(), "{offsets} n={n}");
                for seed in 0..20u64 {
                    let mut start = Bits::zeros(n * n);
                    for i in 0..n * n {
                        start.set(
                            i,
                            (seed.wrapping_mul(0x9e3779b97f4a7c15) >> (i % 61)) & 1 == 1,
                        );
                    }
                    let a = gf2_answer(&program, &chase, &start);
                    let b = gf2_answer(&program, &dense, &start);
                    assert_eq!(a, b, "{offsets} n={n} seed={seed}");
                }
            }
        }
    }
}

#[test]
fn the_planned_chase_agrees_with_dense_elimination() {
    let limits = Limits::default();
    for n in 1..=12 {
        let p = resized("lights-out", n, n);
        let program = p.compile().unwrap();
        let listed = Linear::dense(&program, &limits).unwrap();
        for seed in 0..8u64 {
            let mut start = Bits::zeros(n * n);
            for i in 0..n * n {
                start.set(
                    i,
                    (seed.wrapping_mul(0xbf58476d1ce4e5b9) >> (i % 59)) & 1 == 1,
                );
            }
            let grid = match solve_with(&program, &start, &limits, Preference::Auto).unwrap() {
                Outcome::Solved(s) => {
                    // Move i presses cell i, so the listed program replays the grid's answer.
                    assert_eq!(program.replay(&start, &s.moves).unwrap(), s.end);
                    Some((s.moves.len(), s.optimal))
                }
                Outcome::Unsolvable(Proof::Parity(cs)) => {
                    for c in &cs {
                        pegflip::check::check_certificate(&program, &start, c).unwrap();
                    }
                    None
                }
                Outcome::Unsolvable(other) => panic!("{other:?}"),
            };
            assert_eq!(
                grid,
                gf2_answer(&program, &listed, &start),
                "n={n} seed={seed}"
            );
        }
    }
}

#[test]
fn boards_past_the_listed_limit_are_solved_by_chasing() {
    let args = [
        "solve",
        "puzzles/lights-out.toml",
        "--set",
        "board.rows=2100",
        "--set",
        "board.cols=2100",
        "--json",
    ];
    let out = pegflip(&args, b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable"], true);
    assert_eq!(
        v["optimal"], true,
        "A159257(2100) is 0 or the coset is walked"
    );
    assert!(v["length"].as_u64().unwrap() > 0);
    // check plans the same engine as solve runs, at any size.
    let out = pegflip(
        &[
            "check",
            "puzzles/lights-out.toml",
            "--set",
            "board.rows=2100",
            "--set",
            "board.cols=2100",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("solver: gf2 chase"));
}

#[test]
fn wide_boards_chase_along_columns_and_agree_with_dense_elimination() {
    // A board wider than tall is chased on its transpose (the system is as wide as
    // the board is tall): every shape up to 6 x 9, against dense elimination.
    let limits = Limits::default();
    for rows in 1..=6 {
        for cols in 1..=9 {
            let program = resized("lights-out", rows, cols).compile().unwrap();
            assert!(program.stencil().is_some(), "{rows} x {cols}");
            let chase = Linear::chase(&program, &limits).unwrap();
            let dense = Linear::dense(&program, &limits).unwrap();
            assert_eq!(chase.nullity(), dense.nullity(), "{rows} x {cols}");
            for seed in 0..16u64 {
                let mut start = Bits::zeros(rows * cols);
                for i in 0..rows * cols {
                    start.set(
                        i,
                        (seed.wrapping_mul(0x9e3779b97f4a7c15) >> (i % 61)) & 1 == 1,
                    );
                }
                assert_eq!(
                    gf2_answer(&program, &chase, &start),
                    gf2_answer(&program, &dense, &start),
                    "{rows} x {cols}, seed {seed}"
                );
            }
        }
    }
}
