//! `pegflip generate`: every board solves in exactly the distance asked for, seeds reproduce, draws are uniform, and what cannot be met is refused by name.

use std::collections::HashMap;

use pegflip::{Goal, Outcome, Program};

use crate::common::pegflip;

/// The distance `solve` gives a board: the fewest moves, or for a
/// fewest-pieces goal the fewest pieces; `None` when it cannot be solved.
fn distance(program: &Program, board: &pegflip::Bits) -> Option<u32> {
    match pegflip::solve(program, board, &program.puzzle().limits).unwrap() {
        Outcome::Solved(s) => {
            assert!(s.optimal);
            Some(match program.goal() {
                Goal::FewestPieces => s.end.count_ones() as u32,
                Goal::Targets(_) => s.length() as u32,
            })
        }
        Outcome::Unsolvable(_) => None,
    }
}

/// The puzzle with its `--set` overrides (and `--metric`), as the command reads it.
fn program(puzzle: &str, args: &[&str]) -> Program {
    let mut sets: Vec<String> = Vec::new();
    let mut words = args.iter();
    while let Some(&w) = words.next() {
        match w {
            "--set" => sets.push(words.next().unwrap().to_string()),
            "--metric" => sets.push(format!("metric=\"{}\"", words.next().unwrap())),
            _ => {}
        }
    }
    let overrides: Vec<pegflip::Override> = sets
        .iter()
        .map(|s| pegflip::Override::parse(s).unwrap())
        .collect();
    let path = format!("puzzles/{puzzle}.toml");
    pegflip::Puzzle::from_file_with(&path, &overrides)
        .unwrap()
        .compile()
        .unwrap()
}

/// Runs `generate` and returns its boards, each checked to solve at `d`
/// (for `max`, at the distance the JSON reports).
fn generated(puzzle: &str, args: &[&str], d: &str, count: usize, seed: u64) -> Vec<String> {
    let (count_text, seed_text) = (count.to_string(), seed.to_string());
    let mut all = vec!["generate", puzzle, "--distance", d, "--count", &count_text];
    all.extend(["--seed", &seed_text, "--json"]);
    all.extend(args);
    let out = pegflip(&all, b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{all:?}: {stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let at = json["distance"].as_u64().unwrap() as u32;
    if d != "max" {
        assert_eq!(at.to_string(), d, "{all:?}");
    }
    let boards: Vec<String> = json["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_string())
        .collect();
    assert_eq!(boards.len(), count, "{all:?}");
    let program = program(puzzle, args);
    for b in &boards {
        let state = program.puzzle().read_board(b, "<board>").unwrap().state;
        assert_eq!(distance(&program, &state), Some(at), "{all:?}: {b}");
    }
    boards
}

#[test]
fn the_documented_run_gives_100_boards_each_solved_in_exactly_5() {
    let args = [
        "generate",
        "flip4x4",
        "--distance",
        "5",
        "--count",
        "100",
        "--seed",
        "1",
    ];
    let first = pegflip(&args, b"");
    assert!(first.status.success());
    let text = String::from_utf8(first.stdout).unwrap();
    assert_eq!(text.lines().count(), 100);
    // Each line is a board as the command line takes it, and `solve` answers it in 5.
    for board in text.lines().take(10) {
        let out = pegflip(&["solve", "flip4x4", board], b"");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap().lines().next(),
            Some("5")
        );
    }
    let program = program("flip4x4", &[]);
    for board in text.lines() {
        let state = program.puzzle().read_board(board, "<board>").unwrap().state;
        assert_eq!(distance(&program, &state), Some(5), "{board}");
    }
    let again = pegflip(&args, b"");
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

/// A ladder of puzzles, sizes and distances over every method: layers,
/// coset draws by presses and over every solvable board, and backward play,
/// by jumps and by moves; each board is solved at its distance.
#[test]
fn a_ladder_of_sizes_and_distances_solves_at_each_distance() {
    let lights = |r: &'static str, c: &'static str| -> Vec<String> {
        vec![
            "--set".into(),
            format!("board.rows={r}"),
            "--set".into(),
            format!("board.cols={c}"),
        ]
    };
    let cases: Vec<(&str, Vec<String>, Vec<&str>)> = vec![
        ("flip4x4", vec![], vec!["0", "1", "3", "6", "max"]),
        // At the smallest budget, wherever solve and states answer.
        (
            "flip4x4",
            vec!["--max-memory".into(), "16M".into()],
            vec!["max"],
        ),
        (
            "english33",
            vec!["--max-memory".into(), "16M".into()],
            vec!["10"],
        ),
        (
            "pebble12",
            vec!["--max-memory".into(), "16M".into()],
            vec!["2"],
        ),
        ("lights-out", vec![], vec!["0", "1", "7", "13", "15"]),
        ("lights-out", lights("1", "1"), vec!["0", "1", "max"]),
        ("lights-out", lights("1", "9"), vec!["2", "max"]),
        ("lights-out", lights("9", "1"), vec!["4"]),
        ("lights-out", lights("1", "70"), vec!["1", "30"]),
        ("lights-out", lights("10", "10"), vec!["3", "40"]),
        ("lights-out", lights("60", "60"), vec!["5"]),
        ("lights-out-torus", vec![], vec!["4"]),
        ("merlin", vec![], vec!["2", "max"]),
        ("petersen", vec![], vec!["3"]),
        ("poj1222", vec![], vec!["11"]),
        ("pebble12", vec![], vec!["0", "1", "4", "max"]),
        ("triangle15", vec![], vec!["1", "6", "max"]),
        ("english33", vec![], vec!["1", "12", "30"]),
        ("french37", vec![], vec!["9"]),
        (
            "english33",
            vec!["--metric".into(), "moves".into()],
            vec!["1", "5"],
        ),
        (
            "triangle15",
            vec!["--metric".into(), "moves".into()],
            vec!["4"],
        ),
        (
            "lights-out",
            vec!["--set".into(), "moves.0.when=\"on\"".into()],
            vec!["2"],
        ),
    ];
    for (puzzle, args, distances) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for d in distances {
            generated(puzzle, &args, d, 3, 11);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_boards_and_another_seed_others() {
    for (puzzle, d) in [("flip4x4", "4"), ("lights-out", "9"), ("english33", "8")] {
        let a = generated(puzzle, &[], d, 20, 5);
        let b = generated(puzzle, &[], d, 20, 5);
        let c = generated(puzzle, &[], d, 20, 6);
        assert_eq!(a, b, "{puzzle}");
        assert_ne!(a, c, "{puzzle}");
    }
}

/// Boards drawn from a layer small enough to count: each of its 32 boards
/// about as often (Pearson's chi-squared, 31 degrees of freedom).
#[test]
fn draws_from_a_layer_are_uniform() {
    let boards = generated("flip4x4", &[], "1", 3200, 3);
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for b in &boards {
        *counts.entry(b).or_default() += 1;
    }
    assert_eq!(counts.len(), 32);
    let statistic: f64 = counts
        .values()
        .map(|&o| (f64::from(o) - 100.0).powi(2) / 100.0)
        .sum();
    // The 99.95% point of chi-squared with 31 degrees of freedom is 63.0.
    assert!(statistic < 63.0, "{statistic}");
}

/// What cannot be met is refused with exit 2, a message that says why, and
/// nothing on stdout.
#[test]
fn requests_that_cannot_be_met_are_refused_by_name() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["flip4x4", "--distance", "7"],
            "no board is at distance 7: every board that can reach the goal is at 0 to 6",
        ),
        (
            &["lights-out", "--distance", "26"],
            "this puzzle has 25 moves",
        ),
        (
            &[
                "lights-out",
                "--set",
                "board.rows=1",
                "--set",
                "board.cols=1",
                "--distance",
                "2",
            ],
            "no board is at distance 2",
        ),
        (
            &[
                "lights-out",
                "--distance",
                "16",
                "--set",
                "limits.generate-work=2^22",
            ],
            "past the limit generate-work = 4194304",
        ),
        (
            &[
                "lights-out",
                "--distance",
                "2",
                "--set",
                "limits.coset-work=1",
            ],
            "past the limit coset-work = 1",
        ),
        (
            &["flip4x4", "--distance", "2", "--set", "limits.coset-work=1"],
            "past the limit coset-work = 1; 4096 boards were listed without their distance",
        ),
        (
            &[
                "lights-out",
                "--set",
                "board.rows=10000",
                "--set",
                "board.cols=10000",
                "--distance",
                "1",
            ],
            "drawing boards of this puzzle needs its moves listed",
        ),
        (
            &["pebble12", "--distance", "13"],
            "no board is at distance 13: every board that can reach the goal is at 0 to 6, 12",
        ),
        (
            &["english33", "--distance", "33"],
            "a board is at most 32 moves from it",
        ),
        (
            &["english33", "--distance", "32"],
            "boards at that distance are rare or none",
        ),
        (
            &["english33", "--distance", "max"],
            "the greatest distance is known only from every board's distance",
        ),
        (
            &["english33", "--metric", "moves", "--distance", "max"],
            "levels by moves count the boards at each distance but do not list them",
        ),
        (
            &[
                "lights-out",
                "--set",
                "moves.0.when=\"on\"",
                "--set",
                "board.rows=8",
                "--set",
                "board.cols=8",
                "--distance",
                "3",
            ],
            "neither linear nor a peg puzzle with targets",
        ),
        (
            &[
                "flip4x4",
                "--distance",
                "3",
                "--count",
                "1000000",
                "--max-memory",
                "16M",
            ],
            "past the limit max-memory",
        ),
        (
            &["flip4x4", "--distance", "3", "--count", "0"],
            "0 is not in 1..=1000000000",
        ),
        (&["flip4x4", "--distance", "-1"], "unexpected argument '-1'"),
        (
            &["flip4x4", "--distance", "4294967296"],
            "expected a number of moves from 0 to 4294967295 or `max`",
        ),
        (
            &["flip4x4", "--distance", "maximum"],
            "expected a number of moves",
        ),
        (
            &["flip4x4", "--distance", "3", "--seed", "-3"],
            "unexpected argument '-3'",
        ),
        (
            &[
                "flip4x4",
                "--distance",
                "3",
                "--seed",
                "18446744073709551616",
            ],
            "invalid value",
        ),
        (&["flip4x4"], "--distance"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["generate"];
        all.extend(args.iter());
        let out = pegflip(&all, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(expected), "{all:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{all:?}");
        assert!(!stderr.contains("panicked"), "{all:?}: {stderr}");
    }
}

#[test]
fn the_method_is_stated_and_backward_play_says_it_is_not_uniform() {
    for (puzzle, uniform, method) in [
        ("flip4x4", true, "uniformly among the"),
        ("lights-out", true, "uniformly, by rejection"),
        ("english33", false, "by backward play from a target"),
    ] {
        let out = pegflip(
            &[
                "generate",
                puzzle,
                "--distance",
                "3",
                "--seed",
                "1",
                "--json",
            ],
            b"",
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["uniform"], uniform, "{puzzle}");
        assert!(
            json["method"].as_str().unwrap().starts_with(method),
            "{json}"
        );
        assert_eq!(json["seed"], 1);
    }
    // Without --seed, one is picked and printed, and it draws the same boards again.
    let out = pegflip(
        &["generate", "flip4x4", "--distance", "3", "--count", "5"],
        b"",
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let seed = stderr
        .strip_prefix("pegflip: seed ")
        .and_then(|s| s.split_whitespace().next())
        .unwrap();
    let again = pegflip(
        &[
            "generate",
            "flip4x4",
            "--distance",
            "3",
            "--count",
            "5",
            "--seed",
            seed,
        ],
        b"",
    );
    assert_eq!(again.stdout, out.stdout);
}

/// Every shipped puzzle, with each override of the generated tests' ladder, at distances 0 to
/// 3 and the greatest, under a small and a default memory budget: every board returned
/// solves at its distance, and everything else is a refusal by name (a limit, or a request
/// that does not fit), never an internal error or a panic.
#[test]
fn every_puzzle_with_every_override_answers_or_refuses() {
    let keys = [
        None,
        Some("board.wrap=false"),
        Some("board.rows=1"),
        Some("board.cols=1"),
        Some("board.rows=3"),
        Some("moves.0.when=\"on\""),
        Some("goal.target=\"all-off\""),
        Some("limits.max-states=1000"),
        Some("limits.generate-work=1"),
        Some("limits.coset-work=1"),
        Some("start=\"all-on\""),
    ];
    let (mut answered, mut refused) = (0, 0);
    for entry in pegflip::catalogue::PUZZLES {
        for key in keys {
            let sets: Vec<pegflip::Override> = key
                .iter()
                .map(|k| pegflip::Override::parse(k).unwrap())
                .collect();
            let Ok(puzzle) = pegflip::Puzzle::parse_with(entry.text, "p.toml", &sets) else {
                continue;
            };
            let Ok(program) = puzzle.compile() else {
                continue;
            };
            // Counting every state of these takes seconds a draw: the small budget only.
            let slow = entry.name == "pebble23"
                || (entry.name == "lights-out" && key == Some("moves.0.when=\"on\""));
            for max_memory in [16u64 << 20, puzzle.limits.max_memory] {
                if slow && max_memory > 16 << 20 {
                    continue;
                }
                let limits = pegflip::Limits {
                    max_memory,
                    ..puzzle.limits.clone()
                };
                for distance in [Some(0), Some(1), Some(3), None] {
                    let order = pegflip::Order {
                        distance,
                        boards: 2,
                        seed: 5,
                    };
                    match pegflip::generate(&program, &order, &limits) {
                        Ok(generated) => {
                            answered += 1;
                            assert_eq!(generated.boards.len(), 2);
                            for b in &generated.boards {
                                assert_eq!(
                                    distance_within(&program, b, &limits),
                                    Some(generated.distance),
                                    "{} {key:?} {distance:?}",
                                    entry.name
                                );
                            }
                        }
                        Err(pegflip::Error::Limit { .. } | pegflip::Error::Usage(_)) => {
                            refused += 1
                        }
                        Err(e) => panic!("{} {key:?} {distance:?}: {e}", entry.name),
                    }
                }
            }
        }
    }
    assert!(
        answered > 100 && refused > 20,
        "{answered} answered, {refused} refused"
    );
}

/// [`distance`] under `limits`.
fn distance_within(
    program: &Program,
    board: &pegflip::Bits,
    limits: &pegflip::Limits,
) -> Option<u32> {
    match pegflip::solve(program, board, limits).unwrap() {
        Outcome::Solved(s) => Some(match program.goal() {
            Goal::FewestPieces => s.end.count_ones() as u32,
            Goal::Targets(_) => s.length() as u32,
        }),
        Outcome::Unsolvable(_) => None,
    }
}
