//! Puzzles of k colours: every board of small puzzles against a breadth-first search over all k^cells boards, k = 2 against the GF(2) engines, the catalogue's facts, and hostile files.

use std::collections::HashMap;

use pegflip::program::colours::ColourProgram;
use pegflip::{ColourOutcome, Eliminated, Puzzle};

use crate::common::{assert_exit, pegflip};

/// The distance of every board from the nearest target, a press of a
/// button t times counting t: breadth-first over all k^cells boards.
fn brute_force(program: &ColourProgram) -> HashMap<Vec<u64>, u64> {
    let k = program.modulus();
    let mut dist: HashMap<Vec<u64>, u64> = HashMap::new();
    let mut layer: Vec<Vec<u64>> = Vec::new();
    for (_, t) in program.targets() {
        if dist.insert(t.clone(), 0).is_none() {
            layer.push(t.clone());
        }
    }
    let mut d = 0;
    while !layer.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for board in &layer {
            for i in 0..program.move_count() {
                let mut x = vec![0u64; program.move_count()];
                // Pressing a button once more from the board: the reverse of
                // pressing it k - 1 times, so distances are the same both ways.
                x[i] = k - 1;
                let before = program.apply(board, &x);
                if !dist.contains_key(&before) {
                    dist.insert(before.clone(), d);
                    next.push(before);
                }
            }
        }
        layer = next;
    }
    dist
}

/// Every board of `k^cells`, in order.
fn every_board(k: u64, cells: usize) -> impl Iterator<Item = Vec<u64>> {
    let total = k.pow(cells as u32);
    (0..total).map(move |mut n| {
        (0..cells)
            .map(|_| {
                let d = n % k;
                n /= k;
                d
            })
            .collect()
    })
}

fn states(k: usize) -> String {
    let symbols: Vec<String> = "0123456789abcdef"
        .chars()
        .take(k)
        .map(|c| format!("\"{c}\""))
        .collect();
    format!("[symbols]\nstates = [{}]\n", symbols.join(", "))
}

fn grid(rows: usize, cols: usize, k: usize, moves: &str, goal: &str) -> Puzzle {
    let text = format!(
        "name = \"test\"\n[board]\nrows = {rows}\ncols = {cols}\n{}[[moves]]\n{moves}\n[goal]\n{goal}\n",
        states(k)
    );
    Puzzle::parse(&text, "test.toml").unwrap()
}

/// Solves every board with the planned engine (and, where the plan is a
/// chase, with dense elimination too) and compares with brute force: the
/// fewest presses where a target is reachable, a certificate (checked by the
/// library before it returns) where none is.
fn against_brute_force(puzzle: &Puzzle) -> (usize, usize) {
    let limits = &puzzle.limits;
    let program = ColourProgram::compile(puzzle, limits).unwrap();
    let truth = brute_force(&program);
    let plan = pegflip::plan::colour_plan(&program, limits).unwrap();
    let mut engines = vec![Eliminated::new(&program, &plan).unwrap()];
    if plan.engine == pegflip::plan::ColourSolver::Chase {
        let dense = pegflip::Plan {
            engine: pegflip::plan::ColourSolver::Dense,
            ..plan.clone()
        };
        engines.push(Eliminated::new(&program, &dense).unwrap());
    }
    let (mut solved, mut refuted) = (0, 0);
    for board in every_board(program.modulus(), program.cells()) {
        for engine in &engines {
            match engine.solve(&board, limits).unwrap() {
                ColourOutcome::Solved(s) => {
                    assert_eq!(Some(&s.length()), truth.get(&board), "{board:?}");
                    assert!(s.optimal);
                    solved += 1;
                }
                ColourOutcome::Unsolvable(certificates) => {
                    assert!(!truth.contains_key(&board), "{board:?}");
                    assert_eq!(certificates.len(), program.targets().len());
                    refuted += 1;
                }
            }
        }
    }
    // The count of solvable boards, by the algebra.
    let count = engines[0].solvable_boards().unwrap().to_u128().unwrap();
    assert_eq!(count, truth.len() as u128);
    (solved, refuted)
}

#[test]
fn every_board_of_3x3_mod_3_2x4_mod_4_and_3x3_mod_5() {
    for (rows, cols, k) in [(3, 3, 3), (2, 4, 4), (3, 3, 5)] {
        let puzzle = grid(rows, cols, k, "toggle = \"plus\"", "target = \"all-off\"");
        let (solved, refuted) = against_brute_force(&puzzle);
        assert!(solved > 0, "{rows}x{cols} mod {k}");
        let total = (k as u64).pow((rows * cols) as u32) as usize;
        assert_eq!((solved + refuted) % total, 0);
    }
}

#[test]
fn amounts_centres_presets_and_goals_against_brute_force() {
    for (rows, cols, k, moves, goal) in [
        (
            2,
            3,
            3,
            "toggle = \"plus\"\ncentre = 2",
            "target = \"all-off\"",
        ),
        (
            2,
            3,
            4,
            "toggle = \"x\"\namount = 3",
            "target = \"all-same\"",
        ),
        (
            3,
            2,
            4,
            "offsets = [[0, 0, 2], [1, 0], [0, 1, 3]]",
            "target = \"all-off\"",
        ),
        (
            2,
            2,
            6,
            "toggle = \"square\"\namount = 5\ncentre = 1",
            "target = \"all-same\"",
        ),
        (
            2,
            3,
            6,
            "toggle = \"row-and-column\"",
            "any = [\"all-0\", \"all-3\"]",
        ),
        (1, 5, 3, "toggle = \"plus\"", "target = \"all-off\""),
        (5, 1, 3, "toggle = \"plus\"", "target = \"all-off\""),
        (
            1,
            1,
            7,
            "toggle = \"self\"\namount = 3",
            "target = \"all-off\"",
        ),
        (
            3,
            3,
            4,
            "toggle = \"row-and-column\"",
            "target = \"all-same\"",
        ),
        (
            2,
            3,
            8,
            "toggle = \"knight\"\ncentre = 2",
            "target = \"all-off\"",
        ),
    ] {
        let puzzle = grid(rows, cols, k, moves, goal);
        against_brute_force(&puzzle);
    }
}

/// A random graph of `n` nodes, each press advancing itself by 1 and its
/// neighbours by its own amount.
fn random_graph(n: usize, k: usize, seed: u64) -> Puzzle {
    let mut rng = crate::common::fuzz::Rng(seed);
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(3) == 0 {
                edges.push(format!("[{a}, {b}]"));
            }
        }
    }
    let amount = 1 + rng.below(k - 1);
    let text = format!(
        "name = \"graph\"\n[board]\nnodes = {n}\nedges = [{}]\n{}[[moves]]\ntoggle = \"closed\"\n\
         amount = {amount}\n[goal]\ntarget = \"all-off\"\n",
        edges.join(", "),
        states(k)
    );
    Puzzle::parse(&text, "graph.toml").unwrap()
}

#[test]
fn random_graphs_mod_3_4_6_and_7_against_brute_force() {
    for (k, n) in [(3, 7), (4, 6), (6, 5), (7, 5)] {
        for seed in 0..3 {
            against_brute_force(&random_graph(n, k, seed * 31 + k as u64));
        }
    }
}

#[test]
fn at_two_colours_the_answers_equal_the_gf2_engines_on_every_shipped_toggle_puzzle() {
    let mut compared = 0;
    for entry in pegflip::catalogue::PUZZLES {
        let puzzle = Puzzle::parse(entry.text, entry.name).unwrap();
        if puzzle.colours() != 2 {
            continue;
        }
        let Ok(program) = puzzle.compile() else {
            continue;
        };
        if !program.is_linear() || !matches!(program.goal(), pegflip::Goal::Targets(_)) {
            continue;
        }
        let colours = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
        let plan = pegflip::plan::colour_plan(&colours, &puzzle.limits).unwrap();
        let engine = Eliminated::new(&colours, &plan).unwrap();
        let mut rng = crate::common::fuzz::Rng(7);
        for _ in 0..40 {
            let bits: Vec<bool> = (0..program.cells()).map(|_| rng.below(2) == 1).collect();
            let mut board = pegflip::Bits::zeros(program.cells());
            for (i, &b) in bits.iter().enumerate() {
                board.set(i, b);
            }
            let digits: Vec<u64> = bits.iter().map(|&b| u64::from(b)).collect();
            let gf2 = pegflip::solve(&program, &board, &puzzle.limits).unwrap();
            let zk = engine.solve(&digits, &puzzle.limits).unwrap();
            match (gf2, zk) {
                (pegflip::Outcome::Solved(a), ColourOutcome::Solved(b)) => {
                    assert!(a.optimal && b.optimal);
                    assert_eq!(a.moves.len() as u64, b.length(), "{}", entry.name)
                }
                (pegflip::Outcome::Unsolvable(_), ColourOutcome::Unsolvable(_)) => {}
                (a, b) => panic!("{}: {a:?} against {b:?}", entry.name),
            }
        }
        compared += 1;
    }
    assert!(compared >= 5, "only {compared} toggle puzzles compared");
}

#[test]
fn lights_out_2000_has_nullity_3_mod_3_and_2_mod_5_through_the_cli() {
    let out = pegflip(&["analyze", "lights-out-2000", "--json"], b"");
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["modulus"], 3);
    assert_eq!(v["nullity"], 3);
    assert_eq!(v["rank"], 22);
    assert_eq!(v["solvable_states"], "31381059609");
    let out = pegflip(
        &[
            "analyze",
            "lights-out-2000",
            "--json",
            "--set",
            "symbols.states=[\"-\", \"a\", \"b\", \"c\", \"d\"]",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["modulus"], 5);
    assert_eq!(v["nullity"], 2);
    assert_eq!(v["solvable_states"], 5u128.pow(23).to_string());
}

#[test]
fn plus_board_nullities_by_the_chase_engine_match_the_pinned_tables() {
    let pinned: [(usize, [usize; 16]); 3] = [
        (3, [0, 1, 0, 2, 3, 0, 0, 4, 2, 0, 3, 6, 6, 7, 0, 0]),
        (5, [0, 0, 0, 2, 2, 0, 0, 0, 2, 0, 4, 6, 0, 6, 0, 0]),
        (7, [0, 0, 1, 2, 2, 0, 1, 0, 2, 0, 3, 0, 0, 2, 1, 0]),
    ];
    for (k, row) in pinned {
        for (n, &nullity) in (1..=16).zip(&row) {
            let puzzle = grid(n, n, k, "toggle = \"plus\"", "target = \"all-off\"");
            let program = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
            let plan = pegflip::plan::colour_plan(&program, &puzzle.limits).unwrap();
            let plan = pegflip::Plan {
                engine: pegflip::plan::ColourSolver::Chase,
                ..plan
            };
            let facts = Eliminated::new(&program, &plan).unwrap().facts().unwrap();
            assert_eq!(facts.nullity, Some(nullity), "{n} x {n} mod {k}");
        }
    }
}

#[test]
fn solve_verify_round_trip_on_the_shipped_colour_puzzles() {
    for (name, board) in [
        ("lights-out-2000", "gg---/g----/-----/-----/-----"),
        ("lights-out-2000", "rg---/-----/--g--/-----/----r"),
        ("lights-out-2000", "rr---/r----/-----/-----/-----"),
        (
            "alien-tiles",
            "grrrrrr/rrrrrrr/rrrrrrr/rrrrrrr/rrrrrrr/rrrrrrr/rrrrrrr",
        ),
        (
            "alien-tiles",
            "bgrrrrr/rrrrrrr/rrrrrrr/rrrrrrr/rrrrrrr/rrrrrrr/rrrrrrp",
        ),
    ] {
        let out = pegflip(&["solve", name, board, "--json"], b"");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{name} {board}");
        let path = crate::common::scratch("colours-round-trip")
            .join(format!("{name}-{}.json", board.len()));
        std::fs::write(&path, &out.stdout).unwrap();
        let verified = pegflip(&["verify", name, path.to_str().unwrap()], b"");
        assert_exit(&verified, 0);
        // A changed answer does not hold.
        let text = String::from_utf8(out.stdout).unwrap();
        let broken = if text.contains("\"solvable\": true") {
            text.replacen("\"length\": ", "\"length\": 1", 1)
        } else {
            text.replacen("\"weights\": [", "\"weights\": [1, ", 1)
        };
        std::fs::write(&path, broken).unwrap();
        let refused = pegflip(&["verify", name, path.to_str().unwrap()], b"");
        assert_exit(&refused, 1);
    }
}

#[test]
fn the_text_answer_of_a_board_two_presses_from_solved() {
    let out = pegflip(
        &["solve", "lights-out-2000", "rr---/r----/-----/-----/-----"],
        b"",
    );
    assert_exit(&out, 0);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "2\nstart\nrr---\nr----\n-----\n-----\n-----\n1. press [0, 0] 2 times\n\
         -----\n-----\n-----\n-----\n-----\n"
    );
}

#[test]
fn states_count_list_and_histogram_agree_with_brute_force() {
    let puzzle = grid(2, 3, 3, "toggle = \"plus\"", "target = \"all-same\"");
    let program = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
    let truth = brute_force(&program);
    let mut seen = HashMap::new();
    pegflip::colour_layers(&program, &puzzle.limits, |d, board| {
        assert!(seen.insert(board.to_vec(), u64::from(d)).is_none());
        Ok(())
    })
    .unwrap();
    assert_eq!(seen, truth);
    let plan = pegflip::plan::colour_plan(&program, &puzzle.limits).unwrap();
    let count = Eliminated::new(&program, &plan)
        .unwrap()
        .solvable_boards()
        .unwrap();
    assert_eq!(count.to_u128(), Some(truth.len() as u128));
    // Through the command line: the count of Lights Out 2000, and a listing refused by name.
    let out = pegflip(&["states", "lights-out-2000", "--count"], b"");
    assert_exit(&out, 0);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "31381059609\n");
    let out = pegflip(&["states", "lights-out-2000", "--histogram"], b"");
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("max-states"));
}

/// Hostile colour files: each refused with its file, line and column.
#[test]
fn hostile_colour_files_are_refused_where_they_go_wrong() {
    let base = |symbols: &str, moves: &str, goal: &str| {
        format!(
            "name = \"x\"\n[board]\nrows = 2\ncols = 2\n[symbols]\n{symbols}\n[[moves]]\n{moves}\n\
             [goal]\n{goal}\n"
        )
    };
    let ok_moves = "toggle = \"plus\"";
    let ok_goal = "target = \"all-off\"";
    let three = "states = [\"a\", \"b\", \"c\"]";
    for (text, expected) in [
        (base("states = [\"a\"]", ok_moves, ok_goal), "at least two"),
        (base("states = []", ok_moves, ok_goal), "at least two"),
        (
            base("states = [\"a\", \"b\", \"a\"]", ok_moves, ok_goal),
            "listed twice",
        ),
        (
            base(
                "states = [\"a\", \"B\", \"b\"]\nignore_case = true",
                ok_moves,
                ok_goal,
            ),
            "listed twice",
        ),
        (
            base("states = [\"a\", \"bb\"]", ok_moves, ok_goal),
            "one character",
        ),
        (
            base("states = [\"a\", \"/\"]", ok_moves, ok_goal),
            "one character",
        ),
        (
            base("states = [\"a\", \".\", \"c\"]", ok_moves, ok_goal),
            "`gap`",
        ),
        (
            base(
                "states = [\"a\", \"b\", \"c\"]\non = \"x\"",
                ok_moves,
                ok_goal,
            ),
            "leave out `on`",
        ),
        (base("states = 3", ok_moves, ok_goal), "sequence"),
        (
            base(three, "toggle = \"plus\"\nwhen = \"on\"", ok_goal),
            "a guard needs two",
        ),
        (
            base(three, "jump = \"orthogonal\"", ok_goal),
            "jumps needs two",
        ),
        (
            base(three, "toggle = \"plus\"\namount = 3", ok_goal),
            "whole number of turns",
        ),
        (
            base(three, "toggle = \"plus\"\namount = -6", ok_goal),
            "whole number of turns",
        ),
        (
            base(three, "toggle = \"open\"\ncentre = 1", ok_goal),
            "`open`",
        ),
        (
            base(three, "offsets = [[0, 0, 1]]\ncentre = 1", ok_goal),
            "[0, 0, amount]",
        ),
        (
            base(three, "offsets = [[0, 0, 3], [1, 0, 0]]", ok_goal),
            "whole number of turns",
        ),
        (
            base(three, "offsets = [[0, 0, 1, 2]]", ok_goal),
            "[row, col, amount]",
        ),
        (
            base(
                three,
                "toggle = \"plus\"\namount = 9223372036854775807",
                ok_goal,
            ),
            "",
        ),
        (base(three, ok_moves, "fewest = \"pieces\""), "3 colours"),
        (
            base(three, ok_moves, "target = \"ab/cd\""),
            "unexpected character 'd'",
        ),
        (base(three, ok_moves, "target = \"all-z\""), "all-"),
        (
            base(three, ok_moves, "target = \"ab/c\""),
            "row 1 has 1 cell,",
        ),
        (
            base("on = \"x\"", "directions = [[0, 1, 1]]", ok_goal),
            "a pair",
        ),
    ] {
        match Puzzle::parse(&text, "hostile.toml") {
            Ok(p) => {
                // Only an amount that reduces to a valid one may parse.
                assert!(expected.is_empty(), "parsed: {text}");
                assert_eq!(p.colours(), 3);
            }
            Err(e) => {
                let message = e.to_string();
                assert!(message.starts_with("hostile.toml:"), "{message}");
                assert!(message.contains(expected), "{message}\nwanted: {expected}");
            }
        }
    }
}

#[test]
fn bad_boards_on_the_command_line_are_located() {
    for board in [
        "rx---/-----/-----/-----/-----",
        "r----/-----",
        "all-q",
        "rrrrrr/-----/-----/-----/-----",
    ] {
        let out = pegflip(&["solve", "lights-out-2000", board], b"");
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("<board>:1:"), "{board}: {err}");
    }
    // Surplus clear cells are dropped with a warning, as on two colours.
    let out = pegflip(
        &["solve", "lights-out-2000", "r-----/-----/-----/-----/-----"],
        b"",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning"));
}

#[test]
fn alien_tiles_has_4096_quiet_press_counts_on_7x7_mod_4() {
    let out = pegflip(&["analyze", "alien-tiles", "--json"], b"");
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["modulus"], 4);
    assert_eq!(v["rank"], serde_json::Value::Null);
    assert_eq!(v["quiet_count"], "4096");
    assert_eq!(v["solvable_states"], (1u128 << 86).to_string());
    // The same rule on boards small enough for brute force.
    for (rows, cols) in [(2, 3), (3, 3)] {
        let puzzle = grid(
            rows,
            cols,
            4,
            "toggle = \"row-and-column\"",
            "target = \"all-same\"",
        );
        against_brute_force(&puzzle);
    }
}

#[test]
fn batch_answers_each_board_as_solve_does_and_refuses_other_formats() {
    let mut rng = crate::common::fuzz::Rng(5);
    let mut input = String::new();
    let mut expected = String::new();
    for _ in 0..30 {
        let rows: Vec<String> = (0..5)
            .map(|_| (0..5).map(|_| ['-', 'r', 'g'][rng.below(3)]).collect())
            .collect();
        input.push_str(&rows.join("\n"));
        input.push('\n');
        let out = pegflip(&["solve", "lights-out-2000", &rows.join("/")], b"");
        let first = String::from_utf8(out.stdout).unwrap();
        expected.push_str(first.lines().next().unwrap());
        expected.push('\n');
    }
    let out = pegflip(&["batch", "lights-out-2000"], input.as_bytes());
    assert_exit(&out, 0);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    // A count first, when the puzzle says so; a wrong count is located.
    let counted = format!("30\n{input}");
    let out = pegflip(
        &["batch", "lights-out-2000", "--set", "batch.header=count"],
        counted.as_bytes(),
    );
    assert_exit(&out, 0);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    let out = pegflip(
        &["batch", "lights-out-2000", "--set", "batch.header=count"],
        format!("31\n{input}").as_bytes(),
    );
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected 31 boards, found 30"));
    // Formats beyond the plain one are refused by name.
    let out = pegflip(
        &["batch", "lights-out-2000", "--set", "batch.answer=presses"],
        input.as_bytes(),
    );
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("plain format"));
}

/// Every board reachable from `start` by presses: the set `start + A x`
/// over all press counts `x`.
fn reachable_by_brute_force(program: &ColourProgram, start: &[u64]) -> Vec<Vec<u64>> {
    let mut boards: Vec<Vec<u64>> = every_board(program.modulus(), program.move_count())
        .map(|x| program.apply(start, &x))
        .collect();
    boards.sort();
    boards.dedup();
    boards
}

#[test]
fn graph_nodes_are_the_reachable_boards_and_its_edges_the_presses() {
    for (rows, cols, k, moves) in [
        (1, 1, 3, "toggle = \"plus\""),
        (1, 3, 3, "toggle = \"plus\""),
        (3, 1, 4, "toggle = \"plus\"\namount = 3"),
        (2, 2, 3, "toggle = \"plus\""),
        (2, 2, 4, "toggle = \"row-and-column\""),
        (2, 2, 5, "toggle = \"plus\"\ncentre = 2"),
        (1, 4, 6, "toggle = \"plus\""),
    ] {
        let puzzle = grid(rows, cols, k, moves, "target = \"all-same\"");
        let program = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
        for start in every_board(k as u64, rows * cols).step_by(7).take(6) {
            let graph = pegflip::colour_state_graph(&program, &start, &puzzle.limits).unwrap();
            let mut nodes: Vec<Vec<u64>> = graph.node_weights().cloned().collect();
            assert_eq!(nodes[0], start);
            nodes.sort();
            assert_eq!(
                nodes,
                reachable_by_brute_force(&program, &start),
                "{rows}x{cols} mod {k}"
            );
            assert_eq!(graph.edge_count(), nodes.len() * program.move_count());
            for e in graph.edge_indices() {
                let (a, b) = graph.edge_endpoints(e).unwrap();
                let mut x = vec![0u64; program.move_count()];
                x[graph[e]] = 1;
                assert_eq!(program.apply(&graph[a], &x), graph[b]);
            }
        }
    }
    // The command line: DOT with the targets doubled, JSON, and the limit by its count.
    let out = pegflip(
        &[
            "graph",
            "lights-out-2000",
            "--set",
            "board.rows=1",
            "--set",
            "board.cols=2",
            "--from",
            "rr",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let dot = String::from_utf8(out.stdout).unwrap();
    assert_eq!(dot.matches("peripheries = 2").count(), 1, "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 6, "{dot}");
    let out = pegflip(
        &[
            "graph",
            "alien-tiles",
            "--set",
            "board.rows=2",
            "--set",
            "board.cols=2",
            "--from",
            "rg/bp",
            "--json",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"][0]["board"], "rg/bp");
    let out = pegflip(
        &[
            "graph",
            "lights-out-2000",
            "--from",
            "-----/-----/-----/-----/-----",
        ],
        b"",
    );
    assert_exit(&out, 2);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("the number of boards reachable from the start is 31381059609, past the limit graph-states = 10000"),
        "{err}"
    );
}

#[test]
fn listing_by_a_basis_gives_each_solvable_board_once() {
    let grids = [
        (1, 1, 3, "toggle = \"plus\"", "target = \"all-off\""),
        (2, 3, 3, "toggle = \"plus\"", "target = \"all-same\""),
        (
            3,
            2,
            5,
            "toggle = \"plus\"\ncentre = 2",
            "target = \"all-off\"",
        ),
        (
            2,
            2,
            7,
            "toggle = \"row-and-column\"",
            "target = \"all-same\"",
        ),
        (
            1,
            5,
            3,
            "toggle = \"plus\"\namount = 2",
            "target = \"all-same\"",
        ),
        (2, 3, 4, "toggle = \"plus\"", "target = \"all-same\""),
        (
            2,
            2,
            6,
            "toggle = \"row-and-column\"",
            "target = \"all-same\"",
        ),
        (1, 4, 6, "toggle = \"plus\"", "target = \"all-off\""),
        (3, 2, 6, "toggle = \"plus\"", "target = \"all-same\""),
        (
            4,
            2,
            4,
            "toggle = \"plus\"\namount = 3",
            "target = \"all-same\"",
        ),
        (1, 6, 4, "toggle = \"plus\"", "target = \"all-off\""),
    ]
    .map(|(rows, cols, k, moves, goal)| {
        (
            format!("{rows}x{cols} mod {k}"),
            grid(rows, cols, k, moves, goal),
        )
    });
    // Graphs are eliminated densely: a composite modulus over the ring.
    let graphs = [(4, 6), (6, 5), (9, 4), (5, 5)].map(|(k, n)| {
        (
            format!("graph of {n} mod {k}"),
            random_graph(n, k, k as u64 * 7),
        )
    });
    let mut chased_composite = 0;
    for (name, puzzle) in grids.into_iter().chain(graphs) {
        let program = ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
        let truth = brute_force(&program);
        let plan = pegflip::plan::colour_plan(&program, &puzzle.limits).unwrap();
        let eliminated = Eliminated::new(&program, &plan).unwrap();
        let k = program.modulus();
        if plan.engine == pegflip::plan::ColourSolver::Chase
            && pegflip::zk::prime_powers(k) != [(k, 1)]
        {
            chased_composite += 1;
        }
        let mut seen = std::collections::HashSet::new();
        eliminated
            .list_boards(|board| {
                assert!(seen.insert(board.to_vec()), "{name}: {board:?} twice");
                Ok(())
            })
            .unwrap();
        assert_eq!(seen.len(), truth.len(), "{name}");
        assert!(seen.iter().all(|b| truth.contains_key(b)), "{name}");
    }
    // Composite moduli chased, listed from the chase's last row and its small system.
    assert!(chased_composite >= 3, "{chased_composite}");
    // Through the command line: the listing streams at any size.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pegflip"))
        .args([
            "states",
            "lights-out-2000",
            "--set",
            "board.rows=300",
            "--set",
            "board.cols=300",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    let first: Vec<String> = (0..3).map(|_| lines.next().unwrap().unwrap()).collect();
    assert_eq!(first[0], vec!["-".repeat(300); 300].join("/"));
    assert_ne!(first[1], first[2]);
    // The reader gone, the writer stops at its broken pipe, quietly.
    drop(lines);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    let out = pegflip(
        &[
            "states",
            "lights-out-2000",
            "--set",
            "board.rows=2",
            "--set",
            "board.cols=2",
            "--json",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["states"].as_array().unwrap().len(), 27);
}
