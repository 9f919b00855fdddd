//! Hostile cases by the thousand, by category, each with what is right: the answer (checked
//! against brute force or a second engine) or a refusal of the right kind at the right place.
//!
//! `PEGFLIP_HOSTILE_SCALE=N` multiplies the random cases; the README gives the command that
//! runs a million.

use crate::common::fuzz::Rng;
use pegflip::{Bits, Error, Limits, Outcome, Override, Preference, Program, Puzzle};
use pegflip::{Output, Query, StatesQuery};

/// Cases run, across the tests of this file (printed with `--nocapture`).
static CASES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn count(test: &str, cases: usize) {
    let total = CASES.fetch_add(cases, std::sync::atomic::Ordering::Relaxed) + cases;
    eprintln!("{test}: {cases} cases ({total} so far in this file)");
}

fn scale() -> usize {
    std::env::var("PEGFLIP_HOSTILE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Fewest moves from `start` to a target by brute force over every state, or `None`.
fn brute_distance(program: &Program, start: &Bits) -> Option<usize> {
    let n = program.cells();
    assert!(n <= 16);
    let start = start.to_u64()?;
    let mut dist = vec![usize::MAX; 1 << n];
    dist[start as usize] = 0;
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let state = Bits::from_u64(n, s);
        if program.is_target(&state) {
            return Some(dist[s as usize]);
        }
        for m in 0..program.moves().len() {
            if let Ok(t) = program.apply(&state, m) {
                let t = t.to_u64().unwrap() as usize;
                if dist[t] == usize::MAX {
                    dist[t] = dist[s as usize] + 1;
                    queue.push_back(t as u64);
                }
            }
        }
    }
    None
}

fn random_board(rng: &mut Rng, n: usize) -> Bits {
    let mut b = Bits::zeros(n);
    for i in 0..n {
        b.set(i, rng.next() & 1 == 1);
    }
    b
}

/// The answer's length, having checked it is optimal where it says so.
fn length(outcome: &Outcome) -> Option<usize> {
    match outcome {
        Outcome::Solved(s) => Some(s.moves.len()),
        Outcome::Unsolvable(_) => None,
    }
}

/// Graph boards with every move rule: the rules a graph has are solved right (against brute
/// force); the grid-only rules are refused at the rule, with the file's line and column.
#[test]
fn graph_boards_with_every_move_rule() {
    let rules = [
        ("toggle = \"self\"", true),
        ("toggle = \"open\"", true),
        ("toggle = \"closed\"", true),
        ("toggle = \"closed\"\nwhen = \"on\"", true),
        ("toggle = \"open\"\nwhen = \"off\"", true),
        ("press = \"0\"\nflips = \"o-o\"", true),
        ("toggle = \"plus\"", false),
        ("toggle = \"x\"", false),
        ("toggle = \"square\"", false),
        ("toggle = \"knight\"", false),
        ("toggle = \"row-and-column\"", false),
        ("offsets = [[0, 1]]", false),
        ("jump = \"orthogonal\"", false),
        ("jump = \"triangular\"", false),
        ("directions = [[0, 1]]", false),
    ];
    let mut rng = Rng(7);
    let mut cases = 0;
    for round in 0..40 * scale() {
        let n = 3 + rng.below(8);
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(3) == 0 {
                    edges.push(format!("[{a}, {b}]"));
                }
            }
        }
        for (rule, allowed) in rules {
            let text = format!(
                "name = \"g\"\n[board]\nnodes = [{}]\nedges = [{}]\n[[moves]]\n{rule}\n[goal]\ntarget = \"all-off\"\n",
                (0..n)
                    .map(|i| format!("\"{i}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
                edges.join(", ")
            );
            let text = if rule.starts_with("press") {
                // A press names a node and flips a board of n cells.
                text.replace("\"o-o\"", &format!("\"o{}\"", "-".repeat(n - 1)))
            } else {
                text
            };
            cases += 1;
            match Puzzle::parse(&text, "g.toml") {
                Ok(puzzle) => {
                    assert!(allowed, "{rule} should be refused on a graph:\n{text}");
                    let program = puzzle.compile().unwrap();
                    for _ in 0..3 {
                        let start = random_board(&mut rng, n);
                        cases += 1;
                        let outcome = pegflip::solve(&program, &start, &Limits::default())
                            .unwrap_or_else(|e| panic!("{rule}, round {round}: {e}\n{text}"));
                        assert_eq!(
                            length(&outcome),
                            brute_distance(&program, &start),
                            "{rule}, round {round}, board {}\n{text}",
                            puzzle.board_text(&start)
                        );
                    }
                }
                Err(Error::Input(d)) => {
                    assert!(!allowed, "{rule} refused: {d}\n{text}");
                    assert_eq!((d.file.as_str(), d.line), ("g.toml", 6), "{d}");
                }
                Err(e) => panic!("{rule}: not a located error: {e}"),
            }
        }
    }
    count("graph boards", cases);
}

/// Offsets and directions at integer extremes and of every wrong length: refused at the
/// item, or (in range) compiled and solved with a checked answer.
#[test]
fn offsets_and_directions_at_integer_extremes() {
    let values: [i64; 12] = [
        i64::MIN,
        i64::MIN + 1,
        -(1 << 20) - 1,
        -(1 << 20),
        -2,
        -1,
        0,
        1,
        2,
        1 << 20,
        (1 << 20) + 1,
        i64::MAX,
    ];
    let mut lists: Vec<Vec<i64>> = Vec::new();
    for &a in &values {
        for &b in &values {
            lists.push(vec![a, b]);
        }
        lists.push(vec![a]);
        lists.push(vec![a, a, a]);
    }
    lists.push(Vec::new());
    count("offsets and directions", 2 * lists.len());
    for key in ["offsets", "directions"] {
        for list in &lists {
            let item = format!(
                "[{}]",
                list.iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let text = format!(
                "name = \"o\"\n[board]\nrows = 4\ncols = 4\n[[moves]]\n{key} = [{item}]\n[goal]\ntarget = \"all-off\"\n"
            );
            let col = key.len() + 5; // `key = [` then the item
            // A toggle's offset may carry a third number, its amount (mod 2 here).
            let toggle = key == "offsets";
            let place = &list[..list.len().min(2)];
            let in_range = place.iter().all(|v| v.unsigned_abs() <= 1 << 20);
            let step = place.iter().all(|v| v.unsigned_abs() <= 1) && place.iter().any(|&v| v != 0);
            let shaped = list.len() == 2 || (toggle && list.len() == 3);
            match Puzzle::parse(&text, "o.toml") {
                Err(Error::Input(d)) => {
                    assert_eq!((d.line, d.col), (6, col), "{item}: {d}");
                    let expected = if !shaped && toggle {
                        "expected [row, col] or [row, col, amount]"
                    } else if !shaped {
                        "expected a pair"
                    } else if !in_range {
                        "offset-range"
                    } else if toggle {
                        "whole number of turns"
                    } else {
                        "jump direction"
                    };
                    assert!(d.message.contains(expected), "{item}: {d}");
                }
                Ok(puzzle) => {
                    assert!(shaped, "{item}");
                    if list.len() == 3 {
                        assert_eq!(list[2].rem_euclid(2), 1, "{item}");
                    }
                    assert!(if key == "offsets" { in_range } else { step }, "{item}");
                    let program = puzzle.compile().unwrap();
                    let start = Bits::ones(16);
                    let outcome = pegflip::solve(&program, &start, &Limits::default()).unwrap();
                    assert_eq!(length(&outcome), brute_distance(&program, &start), "{item}");
                }
                Err(e) => panic!("{item}: {e}"),
            }
        }
    }
}

/// Boards of every shape, 1 cell up: the planner's engine agrees with brute force on every
/// board small enough, and with dense elimination above that.
#[test]
fn boards_of_every_shape_agree_with_brute_force() {
    let mut rng = Rng(11);
    let mut cases = 0;
    let kinds = ["", "wrap = true\n", "shape"];
    for rows in 1..=6usize {
        for cols in 1..=6usize {
            for kind in kinds {
                let board = if kind == "shape" {
                    let lines: Vec<String> = (0..rows)
                        .map(|r| {
                            (0..cols)
                                .map(|c| if (r + c) % 4 == 3 { '.' } else { 'o' })
                                .collect()
                        })
                        .collect();
                    if lines.iter().all(|l| !l.contains('o')) {
                        continue;
                    }
                    format!("shape = {lines:?}\n")
                } else {
                    format!("rows = {rows}\ncols = {cols}\n{kind}")
                };
                let text = format!(
                    "name = \"s\"\n[board]\n{board}[[moves]]\ntoggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n"
                );
                let puzzle = Puzzle::parse(&text, "s.toml").unwrap();
                let program = puzzle.compile().unwrap();
                let n = program.cells();
                for _ in 0..4 * scale() {
                    cases += 1;
                    let start = random_board(&mut rng, n);
                    let outcome = pegflip::solve(&program, &start, &Limits::default())
                        .unwrap_or_else(|e| panic!("{text}: {e}"));
                    if n <= 16 {
                        assert_eq!(
                            length(&outcome),
                            brute_distance(&program, &start),
                            "{text}{}",
                            puzzle.board_text(&start)
                        );
                    }
                    let dense =
                        pegflip::solve_with(&program, &start, &Limits::default(), Preference::Gf2)
                            .unwrap();
                    assert_eq!(length(&outcome), length(&dense), "{text}");
                }
            }
        }
    }
    count("board shapes", cases);
}

/// Linear puzzles of 64 to 196 cells: counted exactly (2^rank, rank = cells - nullity,
/// OEIS A159257), listed (every state listed is solvable, and distinct), and a histogram is
/// refused with its estimate.
#[test]
fn linear_puzzles_past_64_cells_through_count_list_and_histogram() {
    // OEIS A159257, the nullity of the n x n board.
    const NULLITY: [u32; 14] = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4];
    for n in 8..=14usize {
        let text = format!(
            "name = \"l\"\n[board]\nrows = {n}\ncols = {n}\n[[moves]]\ntoggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n"
        );
        let program = Puzzle::parse(&text, "l.toml").unwrap().compile().unwrap();
        let limits = Limits::default();
        let request = |output| pegflip::Request {
            output,
            ..Default::default()
        };
        let summary = pegflip::enumerate(&program, &request(Output::Count), &limits, None).unwrap();
        let rank = (n * n) as u32 - NULLITY[n - 1];
        assert_eq!(
            summary.count,
            pegflip::Count {
                mult: 1,
                shift: rank
            }
        );
        let mut seen = std::collections::HashSet::new();
        let mut visit = |s: &Bits, _: Option<u32>| {
            let outcome = pegflip::solve(&program, s, &limits).unwrap();
            assert!(
                matches!(outcome, Outcome::Solved(_)),
                "a listed state is solvable"
            );
            assert!(seen.insert(s.clone()), "listed twice");
            seen.len() < 300
        };
        pegflip::enumerate(&program, &request(Output::List), &limits, Some(&mut visit)).unwrap();
        assert_eq!(seen.len(), 300);
        let err =
            pegflip::enumerate(&program, &request(Output::Histogram), &limits, None).unwrap_err();
        assert!(
            matches!(&err, Error::Limit { name, .. } if *name == "max-memory" || *name == "search-cells"),
            "{err}"
        );
        count("linear past 64 cells", 302);
    }
}

/// Every query under every memory budget from 10M to 4G: refused up front with a named limit,
/// or answered exactly as without the budget.
#[test]
fn every_query_under_every_memory_budget() {
    let budgets = [10u64 << 20, 100 << 20, 1 << 30, 4 << 30];
    let puzzles = [
        "flip4x4",
        "pebble12",
        "lights-out",
        "triangle15",
        "merlin",
        "english33",
    ];
    for name in puzzles {
        let puzzle = crate::common::puzzle(name);
        let program = puzzle.compile().unwrap();
        let start = puzzle
            .start
            .clone()
            .unwrap_or_else(|| Bits::ones(program.cells()));
        let queries = [
            Query::Solve,
            Query::Batch { boards: 1000 },
            Query::Analyze,
            Query::Graph,
            Query::States(StatesQuery {
                output: Output::Count,
                from: true,
                reachable: true,
                symmetry: false,
                workers: 1,
                threads: 1,
            }),
            Query::States(StatesQuery {
                output: Output::Histogram,
                ..Default::default()
            }),
        ];
        count("memory budgets", budgets.len() * queries.len());
        let free = Limits::default();
        let expected = pegflip::solve(&program, &start, &free)
            .ok()
            .map(|o| length(&o));
        for budget in budgets {
            let limits = Limits {
                max_memory: budget,
                ..Limits::default()
            };
            for query in &queries {
                match pegflip::plan(&program, query, Preference::Auto, &limits) {
                    Ok(plan) => {
                        assert!(plan.memory <= u128::from(budget), "{name} {query:?}");
                        if *query == Query::Solve {
                            match pegflip::solve(&program, &start, &limits) {
                                Ok(o) => assert_eq!(Some(length(&o)), expected, "{name}"),
                                Err(Error::Limit { .. }) => {}
                                Err(e) => panic!("{name} {budget}: {e}"),
                            }
                        }
                    }
                    Err(Error::Limit { .. } | Error::Usage(_)) => {}
                    Err(e) => panic!("{name} {query:?} {budget}: {e}"),
                }
            }
        }
    }
}

/// `--set` on every key of every shipped puzzle, with an error later in the file: the error
/// is reported at its line of the file as written (or at the `--set` argument), never at a
/// line the override moved.
#[test]
fn set_on_every_key_then_an_error_later_in_the_file() {
    let keys = [
        "name=\"renamed\"",
        "about=\"changed\"",
        "board.wrap=false",
        "board.rows=4",
        "board.cols=4",
        "board.names=\"numbers\"",
        "symbols.ignore_case=true",
        "moves.0.when=\"on\"",
        "goal.target=\"all-off\"",
        "batch.header=\"count\"",
        "batch.impossible=\"no\"",
        "limits.max-states=1000",
        "limits.max-memory=\"1G\"",
        "start=\"all-on\"",
        "board.shape=[\"oo\", \"oo\"]",
    ];
    count(
        "--set on every key",
        keys.len() * pegflip::catalogue::PUZZLES.len(),
    );
    for entry in pegflip::catalogue::PUZZLES {
        let text = format!("{}\nbogus-key = 1\n", entry.text.trim_end());
        let bogus_line = text.lines().count();
        for key in keys {
            let o = Override::parse(key).unwrap();
            match Puzzle::parse_with(&text, "p.toml", &[o]) {
                Err(Error::Input(d)) if d.file == "--set" => {}
                Err(Error::Input(d)) => {
                    assert_eq!(d.file, "p.toml");
                    if d.message.contains("bogus-key") {
                        assert_eq!(d.line, bogus_line, "{} {key}: {d}", entry.name);
                        assert_eq!(d.text, "bogus-key = 1", "{} {key}: {d}", entry.name);
                    } else {
                        // Another error the override caused: its line is the file's own.
                        assert_eq!(
                            text.lines().nth(d.line - 1),
                            Some(d.text.as_str()),
                            "{} {key}: {d}",
                            entry.name
                        );
                    }
                }
                Err(e) => assert!(
                    matches!(e, Error::Limit { .. } | Error::Usage(_)),
                    "{} {key}: {e}",
                    entry.name
                ),
                Ok(_) => panic!("{} {key}: the bogus key was accepted", entry.name),
            }
        }
    }
}

/// The fewest pieces that can remain from `start`, by brute force.
/// One line of output that must be there.
fn answer(line: Option<&str>) -> &str {
    line.expect("the output is short of a line")
}

fn brute_pieces(program: &Program, start: &Bits) -> usize {
    let n = program.cells();
    let mut seen = std::collections::HashSet::from([start.to_u64().unwrap()]);
    let mut stack = vec![start.to_u64().unwrap()];
    let mut best = usize::MAX;
    while let Some(s) = stack.pop() {
        best = best.min(s.count_ones() as usize);
        let state = Bits::from_u64(n, s);
        for m in 0..program.moves().len() {
            if let Ok(t) = program.apply(&state, m) {
                let t = t.to_u64().unwrap();
                if seen.insert(t) {
                    stack.push(t);
                }
            }
        }
    }
    best
}

/// Every `[batch]` key with every other, on boards from one cell up and past
/// the limits, fed input that is right, short, long or garbled: each run gives
/// the right answers (checked against brute force where the format allows) or
/// a located refusal; never a panic or an internal error.
#[test]
fn judge_formats_every_key_with_every_other() {
    let mut rng = Rng(0x1667_3279);
    let n = 600 * scale();
    count("judge formats", n);
    let (mut answered, mut checked, mut refused) = (0, 0, 0);
    for seed in 0..n {
        let jumps = rng.below(3) == 0;
        let moves = if jumps {
            "jump = \"orthogonal\""
        } else {
            rng.pick(&[
                "toggle = \"plus\"",
                "toggle = \"x\"",
                "toggle = \"self\"",
                "toggle = \"knight\"",
            ])
        };
        let goal = if jumps {
            rng.pick(&[
                "fewest = \"pieces\"",
                "one-piece = \"anywhere\"",
                "target = \"all-off\"",
            ])
        } else {
            rng.pick(&[
                "target = \"all-off\"",
                "target = \"all-on\"",
                "target = \"all-same\"",
            ])
        };
        let mut batch = String::new();
        // Each key: the values that are right, then some that are not.
        let keys: [(&str, &[&str], &[&str]); 11] = [
            ("header", &["\"none\"", "\"count\""], &["\"many\""]),
            (
                "size",
                &["\"none\"", "\"rows cols\"", "\"cols rows\"", "\"side\""],
                &["\"n\""],
            ),
            ("cells", &["\"packed\"", "\"separated\""], &["\"spaced\""]),
            ("shape", &["\"fixed\"", "\"per-case\""], &["\"round\""]),
            (
                "answer",
                if jumps {
                    &["\"count\"", "\"moves\""]
                } else {
                    &["\"count\"", "\"presses\"", "\"moves\""]
                },
                &["\"all\"", "\"presses\""],
            ),
            (
                "tie-break",
                if jumps {
                    &["\"any\""]
                } else {
                    &["\"any\"", "\"lexicographic\""]
                },
                &["\"first\"", "\"lexicographic\""],
            ),
            (
                "title",
                &["\"Case #{case}:\""],
                &["\"{case\"", "\"{bogus}\""],
            ),
            ("between", &["\"\"", "\"--\""], &["\"a\\nb\""]),
            (
                "move",
                if jumps {
                    &["\"{step}: {from}>{to}\""]
                } else {
                    &["\"{step} {cell} {row},{col}\""]
                },
                &["\"}\"", "\"{over}\""],
            ),
            (
                "mark-on",
                if goal.starts_with("one-piece") {
                    &["\"O\""]
                } else {
                    &[]
                },
                &["\"o\"", "\"O\""],
            ),
            (
                "impossible",
                &["\"none\"", "\"IMPOSSIBLE\""],
                &["\"a\\nb\""],
            ),
        ];
        for (key, good, bad) in keys {
            if rng.below(2) == 0 {
                let wrong = rng.below(12) == 0;
                if good.is_empty() && !wrong {
                    continue;
                }
                let values = if wrong { bad } else { good };
                batch.push_str(&format!("{key} = {}\n", rng.pick(values)));
            }
        }
        let (rows, cols) = (1 + rng.below(4), 1 + rng.below(4));
        let text = format!(
            "name = \"g\"\n[board]\nrows = {rows}\ncols = {cols}\n[[moves]]\n{moves}\n\
             [goal]\n{goal}\n[batch]\n{batch}"
        );
        let puzzle = match Puzzle::parse(&text, "g.toml") {
            Ok(p) => p,
            Err(Error::Input(d)) => {
                assert!(d.file == "g.toml" && d.line >= 1, "{seed}: {d}\n{text}");
                refused += 1;
                continue;
            }
            Err(e) => panic!("{seed}: {e}\n{text}"),
        };
        let format = puzzle.batch.clone();
        let program = puzzle.compile().unwrap();
        // The input: a few cases, each maybe with a size, then its cells.
        let garble = rng.below(4) == 0;
        let k = rng.below(4);
        let mut input = String::new();
        if format.header == pegflip::spec::Header::Count {
            let said = if garble && rng.below(3) == 0 {
                k + 1
            } else {
                k
            };
            input.push_str(&format!("{said}\n"));
        }
        let mut cases = Vec::new();
        for _ in 0..k {
            let (r, c) = match format.size {
                pegflip::puzzle::Size::Fixed => (rows, cols),
                pegflip::puzzle::Size::Side => {
                    let s = 1 + rng.below(4);
                    input.push_str(&format!("{s}\n"));
                    (s, s)
                }
                size => {
                    let (r, c) = (1 + rng.below(4), 1 + rng.below(4));
                    let dims = if garble && rng.below(3) == 0 {
                        rng.pick(&["0 2", "99999999999999999999 1", "100000 100000", "x 2"])
                            .to_string()
                    } else if size == pegflip::puzzle::Size::RowsCols {
                        format!("{r} {c}")
                    } else {
                        format!("{c} {r}")
                    };
                    input.push_str(&dims);
                    input.push('\n');
                    (r, c)
                }
            };
            let mut grid = vec![vec![false; c]; r];
            for row in grid.iter_mut() {
                let mut words = Vec::new();
                for cell in row.iter_mut() {
                    *cell = rng.below(2) == 0;
                    let sym = if garble && rng.below(8) == 0 {
                        rng.pick(&["?", ".", "O", "oo"]).to_string()
                    } else {
                        let s = &puzzle.symbols;
                        (if *cell { s.on() } else { s.off() }).to_string()
                    };
                    words.push(sym);
                }
                let sep = if format.separated { " " } else { "" };
                input.push_str(&words.join(sep));
                input.push('\n');
            }
            cases.push(grid);
        }
        if garble && rng.below(2) == 0 {
            input.truncate(rng.below(input.len() + 1));
        }
        let result = std::panic::catch_unwind(|| {
            pegflip::batch(
                &program,
                input.as_bytes(),
                "<input>",
                &puzzle.limits,
                Preference::Auto,
            )
        })
        .unwrap_or_else(|_| panic!("{seed}: batch panicked\n{text}\ninput:\n{input}"));
        let out = match result {
            Ok(out) => out,
            Err(Error::Input(d)) => {
                assert!(d.line >= 1 && d.col >= 1, "{seed}: {d}");
                refused += 1;
                continue;
            }
            Err(e @ (Error::Limit { .. } | Error::Usage(_))) => {
                let _ = e;
                refused += 1;
                continue;
            }
            Err(e) => panic!("{seed}: {e}\n{text}\ninput:\n{input}"),
        };
        answered += 1;
        // Check the answers against brute force where the output is one block per case.
        if garble || format.title.is_some() || format.between.is_some() {
            continue;
        }
        let text_out = String::from_utf8(out.text).unwrap();
        let mut lines = text_out.lines();
        for grid in &cases {
            let (r, c) = (grid.len(), grid[0].len());
            let sized = Puzzle::parse_with(
                &text,
                "g.toml",
                &[
                    Override::parse(&format!("board.rows={r}")).unwrap(),
                    Override::parse(&format!("board.cols={c}")).unwrap(),
                ],
            )
            .unwrap();
            let p = sized.compile().unwrap();
            let mut start = Bits::zeros(r * c);
            for (i, &b) in grid.iter().flatten().enumerate() {
                start.set(i, b);
            }
            let objective = matches!(p.goal(), pegflip::Goal::FewestPieces);
            let best = if objective {
                Some(brute_pieces(&p, &start))
            } else {
                brute_distance(&p, &start)
            };
            match (format.answer, best) {
                (_, None) => assert_eq!(answer(lines.next()), format.impossible, "{seed}"),
                (pegflip::puzzle::AnswerKind::Count, Some(b)) => {
                    assert_eq!(
                        answer(lines.next()),
                        b.to_string(),
                        "{seed}\n{text}\n{input}"
                    )
                }
                (pegflip::puzzle::AnswerKind::Presses, Some(b)) => {
                    let mut end = start.clone();
                    let mut presses = 0;
                    for row in 0..r {
                        let line: String =
                            answer(lines.next()).chars().filter(|c| *c != ' ').collect();
                        for (col, ch) in line.chars().enumerate() {
                            if ch == sized.symbols.on() {
                                presses += 1;
                                end = p.apply(&end, row * c + col).unwrap();
                            }
                        }
                    }
                    assert_eq!(presses, b, "{seed}: not the fewest presses");
                    assert!(p.is_target(&end), "{seed}: the presses miss the target");
                }
                (pegflip::puzzle::AnswerKind::Moves, Some(b)) => {
                    let moves = if objective { start.count_ones() - b } else { b };
                    for _ in 0..moves {
                        answer(lines.next());
                    }
                }
            }
            checked += 1;
        }
        assert_eq!(
            lines.next(),
            None,
            "{seed}: surplus output\n{text}\n{input}"
        );
    }
    eprintln!("judge formats: {answered} answered ({checked} cases checked), {refused} refused");
    assert!(answered > n / 10 && checked > n / 10 && refused > n / 10);
}
