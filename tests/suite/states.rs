//! `pegflip states` and `graph` against published counts and brute force.

use crate::common::{pegflip, puzzle};
use pegflip::symmetry::Symmetries;

fn run(args: &[&str]) -> String {
    let out = pegflip(args, b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn flip4x4_count_and_histogram() {
    assert_eq!(
        run(&["states", "puzzles/flip4x4.toml", "--count"]),
        "4096\n"
    );
    assert_eq!(
        run(&["states", "puzzles/flip4x4.toml", "--histogram"]),
        "0 2\n1 32\n2 228\n3 880\n4 1562\n5 1136\n6 256\n"
    );
}

#[test]
fn flip4x4_listing_is_exactly_the_solvable_boards() {
    // Brute force: a board is solvable when some press set turns it into a target.
    let plus = |i: u32| -> u32 {
        let (r, c) = ((i / 4) as i32, (i % 4) as i32);
        [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .filter(|(dr, dc)| (0..4).contains(&(r + dr)) && (0..4).contains(&(c + dc)))
            .fold(0, |m, (dr, dc)| m | 1 << ((r + dr) * 4 + c + dc))
    };
    let mut solvable = vec![false; 1 << 16];
    for set in 0u32..1 << 16 {
        let effect = (0..16)
            .filter(|i| set >> i & 1 == 1)
            .fold(0, |e, i| e ^ plus(i));
        solvable[effect as usize] = true;
        solvable[(effect ^ 0xffff) as usize] = true;
    }
    let listed: Vec<usize> = run(&["states", "puzzles/flip4x4.toml", "--format", "int"])
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), listed.len(), "no state is listed twice");
    let expected: Vec<usize> = (0..1 << 16).filter(|&s| solvable[s]).collect();
    assert_eq!(sorted, expected);
}

#[test]
fn symmetry_counts_orbits_found_from_the_board_graph() {
    for (name, group) in [
        ("flip4x4", 8),
        ("lights-out", 8),
        ("pebble12", 2),
        ("english33", 8),
        ("french37", 8),
        ("merlin", 8),
        // The triangle's rotations and reflections.
        ("triangle15", 6),
        // The Petersen graph's automorphism group is S5, of order 120.
        ("petersen", 120),
    ] {
        let p = puzzle(name);
        let program = p.compile().unwrap();
        assert_eq!(
            Symmetries::of(&program, &[], &Default::default())
                .unwrap()
                .len(),
            group,
            "{name}"
        );
    }
    // Flip Game up to symmetry, against orbits counted here by rotating and reflecting.
    let rotate = |s: u32| {
        (0..16).fold(0, |t, i| {
            if s >> i & 1 == 1 {
                t | 1 << ((i % 4) * 4 + 3 - i / 4)
            } else {
                t
            }
        })
    };
    let mirror = |s: u32| {
        (0..16).fold(0, |t, i| {
            if s >> i & 1 == 1 {
                t | 1 << ((i / 4) * 4 + 3 - i % 4)
            } else {
                t
            }
        })
    };
    let listed: Vec<u32> = run(&["states", "puzzles/flip4x4.toml", "--format", "int"])
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let canon = |s: u32| {
        let mut best = u32::MAX;
        let mut t = s;
        for _ in 0..4 {
            t = rotate(t);
            best = best.min(t).min(mirror(t));
        }
        best
    };
    let mut orbits: Vec<u32> = listed.iter().map(|&s| canon(s)).collect();
    orbits.sort_unstable();
    orbits.dedup();
    let counted = run(&["states", "puzzles/flip4x4.toml", "--count", "--symmetry"]);
    assert_eq!(counted, format!("{}\n", orbits.len()));
}

#[test]
fn lights_out_count_and_longest_distance() {
    assert_eq!(
        run(&["states", "puzzles/lights-out.toml", "--count"]),
        "8388608\n"
    );
    let histogram = run(&["states", "puzzles/lights-out.toml", "--histogram"]);
    assert!(histogram.ends_with("\n15 7350\n"), "{histogram}");
    let total: u64 = histogram
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 8_388_608);
}

#[test]
fn pebble12_states_are_grouped_by_answer() {
    assert_eq!(
        run(&["states", "puzzles/pebble12.toml", "--histogram"]),
        "0 1\n1 243\n2 1187\n3 1572\n4 860\n5 215\n6 17\n12 1\n"
    );
    let listing = run(&["states", "puzzles/pebble12.toml"]);
    assert_eq!(listing.lines().count(), 4096);
    assert!(listing.contains("\noooooooooooo 12\n") || listing.ends_with("oooooooooooo 12\n"));
    assert!(listing.contains("---oo------- 1\n"));
}

#[test]
fn english33_solves_in_31_jumps_and_verifies() {
    let out = pegflip(&["solve", "puzzles/english33.toml", "--json"], b"");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["length"], 31);
    assert_eq!(
        v["final"],
        "..---../..---../-------/---o---/-------/..---../..---.."
    );
    let check = pegflip(&["verify", "puzzles/english33.toml", "-"], &out.stdout);
    assert_eq!(check.status.code(), Some(0));
}

/// A peg count whose layers cannot fit is refused before its first layer,
/// from the sample's estimate, while one that fits still runs.
#[test]
fn a_peg_count_past_max_memory_is_refused_before_it_starts() {
    // French from c1 in full holds about 7 GB at its peak; the sample puts
    // it past 1 GiB at once.
    let args = [
        "states",
        "french37",
        "--from",
        "full but c1",
        "--reachable",
        "--count",
        "--max-memory",
        "1G",
    ];
    let out = pegflip(&args, b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains("the memory the layers are estimated to need at their peak")
            && stderr.contains("past the limit max-memory = 1073741824")
            && stderr.contains("--spill-dir"),
        "{stderr}"
    );
    // A limit past the machine's memory is held to the machine's: the 7 x 7
    // square board's count, estimated at terabytes, is refused whatever the
    // limit says.
    let dir = crate::common::scratch("square7");
    let square = dir.join("square7.toml");
    std::fs::write(
        &square,
        "name = \"Square 7\"\nstart = \"full but c3\"\n[board]\nrows = 7\ncols = 7\nnames = \"chess\"\n\
         [[moves]]\njump = \"orthogonal\"\n[goal]\none-piece = \"c3\"\n",
    )
    .unwrap();
    let square = square.display().to_string();
    let args = [
        "states",
        &square,
        "--from",
        "start",
        "--reachable",
        "--count",
        "--max-memory",
        "18446744073709551615",
    ];
    let out = pegflip(&args, b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("more than this machine's") && stderr.contains("--spill-dir"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // Sampled too (its every-position bound passes 1 GiB), English fits.
    assert_eq!(
        run(&[
            "states",
            "english33",
            "--from",
            "start",
            "--reachable",
            "--count",
            "--max-memory",
            "1G"
        ]),
        "187636299\n"
    );
}

#[test]
fn reachable_needs_a_start_and_head_ends_quietly() {
    let out = pegflip(&["states", "puzzles/flip4x4.toml", "--reachable"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--reachable needs a start"));
    let small = run(&[
        "states",
        "puzzles/pebble12.toml",
        "--from",
        "-o--o-oo----",
        "--reachable",
        "--histogram",
    ]);
    // Fewest pieces: the states are grouped by answer (four can end with 2 pegs, one is stuck with 3).
    assert_eq!(small, "2 4\n3 1\n");
}

#[test]
fn graph_prints_dot_and_refuses_large_graphs() {
    let dot = run(&["graph", "puzzles/pebble12.toml", "--from", "-o--o-oo----"]);
    assert!(dot.starts_with("digraph {"));
    assert_eq!(dot.matches(" -> ").count(), 4);
    assert_eq!(dot.matches("[ label = \"-o").count(), 5, "five boards");
    let out = pegflip(
        &["graph", "puzzles/lights-out.toml", "--from", "start"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("past the limit graph-states = 10000"));
}

/// The long runs: `cargo test --release --test suite states:: -- --ignored` (a few minutes).
#[test]
#[ignore]
fn english33_reachable_states() {
    assert_eq!(
        run(&[
            "states",
            "puzzles/english33.toml",
            "--from",
            "start",
            "--reachable",
            "--count"
        ]),
        "187636299\n"
    );
    let histogram = run(&[
        "states",
        "puzzles/english33.toml",
        "--from",
        "start",
        "--reachable",
        "--histogram",
    ]);
    assert!(
        histogram.starts_with("0 1\n1 4\n2 12\n3 60\n4 296\n5 1338\n6 5648\n"),
        "{histogram}"
    );
    assert!(histogram.ends_with("30 32\n31 5\n"), "{histogram}");
}

#[test]
#[ignore]
fn english33_states_that_can_finish() {
    assert_eq!(
        run(&[
            "states",
            "puzzles/english33.toml",
            "--from",
            "start",
            "--count"
        ]),
        "13428122\n"
    );
}

#[test]
#[ignore]
fn english33_up_to_symmetry() {
    let count = |extra: &[&str]| {
        let mut args = vec![
            "states",
            "puzzles/english33.toml",
            "--from",
            "start",
            "--count",
            "--symmetry",
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    // The sums of OEIS A112737 and A112738.
    assert_eq!(count(&["--reachable"]), "23475688\n");
    assert_eq!(count(&[]), "1679072\n");
}

#[test]
fn peg_impossibility_by_search_or_by_colouring() {
    // Two pegs that cannot meet: found by exhaustive search, which has no certificate.
    let out = pegflip(
        &[
            "solve",
            "puzzles/english33.toml",
            "..---../..---../-------/-------/-------/..---../..o-o..",
            "--json",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["proof"], "search");
    // One peg off the centre: the jumps' parity (the colouring argument), found by elimination.
    let out = pegflip(
        &[
            "solve",
            "puzzles/english33.toml",
            "..---../..---../-------/-o-----/-------/..---../..---..",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["proof"], "parity");
    let check = pegflip(&["verify", "puzzles/english33.toml", "-"], &out.stdout);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// A linear puzzle's listing is algebra, not search, but with `distances`
/// each state carries the fewest presses: they agree, state by state, with the
/// layered search's histogram and with solving the state.
#[test]
fn linear_listing_distances_agree_with_search_and_solve() {
    use pegflip::Bits;
    use pegflip::Output;
    use pegflip::{Request, enumerate};
    for (name, sets) in [
        ("flip4x4", vec![]),
        ("lights-out", vec!["board.rows=3", "board.cols=4"]),
        ("lights-out-torus", vec!["board.rows=3", "board.cols=3"]),
        ("merlin", vec![]),
        ("petersen", vec![]),
    ] {
        let overrides: Vec<_> = sets
            .iter()
            .map(|s| pegflip::Override::parse(s).unwrap())
            .collect();
        let entry = pegflip::catalogue::find(name).unwrap();
        let p = pegflip::Puzzle::parse_with(entry.text, name, &overrides).unwrap();
        let program = p.compile().unwrap();
        let limits = pegflip::Limits::default();
        let histogram = |output| {
            let request = Request {
                output,
                ..Default::default()
            };
            enumerate(&program, &request, &limits, None).unwrap()
        };
        let expected = histogram(Output::Histogram).histogram;
        let mut listed = std::collections::BTreeMap::<u32, u128>::new();
        let mut states = 0;
        let mut visit = |s: &Bits, d: Option<u32>| {
            let d = d.expect("every distance is known on these boards");
            *listed.entry(d).or_default() += 1;
            if states % 97 == 0 {
                let pegflip::Outcome::Solved(sol) = pegflip::solve(&program, s, &limits).unwrap()
                else {
                    panic!("{name}: a listed state is not solvable");
                };
                assert_eq!(sol.moves.len() as u32, d, "{name}: {s:?}");
            }
            states += 1;
            true
        };
        let request = Request {
            output: Output::List,
            distances: true,
            ..Default::default()
        };
        enumerate(&program, &request, &limits, Some(&mut visit)).unwrap();
        assert_eq!(listed, expected, "{name}");
    }
}

/// Peg boards are counted through their symmetries (orbit sizes) and the
/// complement duality (winning lines from one forward enumeration); a listing
/// still runs the plain layered search. The two agree, count and histogram,
/// with and without `--symmetry`, reachable or on a winning line.
#[test]
fn peg_counts_by_orbits_and_duality_agree_with_the_plain_search() {
    use pegflip::Output;
    use pegflip::{Request, enumerate};
    let cross = "name = \"cross\"\n[board]\nshape = [\"..o..\", \".ooo.\", \"ooooo\", \".ooo.\", \"..o..\"]\n\
                 names = \"chess\"\n[[moves]]\njump = \"orthogonal\"\n[goal]\none-piece = \"c3\"\n";
    let row = "name = \"row\"\n[board]\nrows = 1\ncols = 14\n[symbols]\non = \"o\"\noff = \"-\"\n\
               [[moves]]\njump = \"orthogonal\"\n[goal]\none-piece = \"anywhere\"\n";
    let square = "name = \"square\"\n[board]\nrows = 4\ncols = 4\nnames = \"chess\"\n[[moves]]\n\
                  jump = \"all\"\n[goal]\none-piece = \"anywhere\"\n";
    // A 9x9 grid is too wide for the grid word: its cells are taken in order.
    let wide = "name = \"wide\"\n[board]\nshape = [\"....o....\", \"....o....\", \"....o....\", \
                \"...ooo...\", \"ooooooooo\", \"...ooo...\", \"....o....\", \"....o....\", \
                \"....o....\"]\nnames = \"chess\"\n[[moves]]\njump = \"orthogonal\"\n[goal]\n\
                one-piece = \"anywhere\"\n";
    // Most starts are fixed by some symmetry, so that orbits share out the work;
    // the last two are fixed by none, and run with the identity alone.
    let cases: [(&str, &str, &str); 8] = [
        ("wide", wide, "full but e5"),
        ("triangle15", "", "full but 1"),
        ("triangle15", "", "full but 5"),
        ("row", row, "oooooo--oooooo"),
        ("cross", cross, "full but c3"),
        ("square", square, "full but a1, d4"),
        ("triangle15", "", "full but 2"),
        ("cross", cross, "full but c2, b3"),
    ];
    let mut checked = 0;
    for (name, text, board) in cases {
        let p = if text.is_empty() {
            puzzle(name)
        } else {
            pegflip::Puzzle::parse(text, name).unwrap()
        };
        let program = p.compile().unwrap();
        let from = p.read_board(board, "<test>").unwrap().state;
        let limits = pegflip::Limits::default();
        for reachable in [true, false] {
            for symmetry in [false, true] {
                for output in [Output::Count, Output::Histogram] {
                    let request = Request {
                        from: Some(from.clone()),
                        reachable,
                        symmetry,
                        explicit: false,
                        output,
                        distances: false,
                        cluster: None,
                        ..Default::default()
                    };
                    let plan = pegflip::plan::plan(
                        &program,
                        &request.query(),
                        pegflip::Preference::Auto,
                        &limits,
                    )
                    .unwrap();
                    assert_eq!(plan.engine, pegflip::Method::PegOrbits, "{name}");
                    let fast = enumerate(&program, &request, &limits, None).unwrap();
                    let mut visit = |_: &pegflip::Bits, _: Option<u32>| true;
                    let plain = enumerate(&program, &request, &limits, Some(&mut visit)).unwrap();
                    let what =
                        format!("{name} from {board}, reachable {reachable}, symmetry {symmetry}");
                    assert_eq!(fast.count, plain.count, "{what}");
                    if output == Output::Histogram {
                        assert_eq!(fast.histogram, plain.histogram, "{what}");
                    }
                    if reachable {
                        // The dataflow engine on three worker threads agrees too.
                        let request = Request {
                            cluster: Some(pegflip::Cluster::local(3)),
                            ..request.clone()
                        };
                        let flow = enumerate(&program, &request, &limits, None).unwrap();
                        assert_eq!(flow.count, plain.count, "{what}, dataflow");
                        if output == Output::Histogram {
                            assert_eq!(flow.histogram, plain.histogram, "{what}, dataflow");
                        }
                    }
                    if !symmetry {
                        // Every position held itself, on both peg engines: no orbits to weigh.
                        let request = Request {
                            explicit: true,
                            ..request.clone()
                        };
                        let single = enumerate(&program, &request, &limits, None).unwrap();
                        assert_eq!(single.count, plain.count, "{what}, explicit");
                        assert_eq!(single.histogram, fast.histogram, "{what}, explicit");
                        if reachable {
                            let request = Request {
                                cluster: Some(pegflip::Cluster::local(2)),
                                ..request
                            };
                            let flow = enumerate(&program, &request, &limits, None).unwrap();
                            assert_eq!(flow.histogram, fast.histogram, "{what}, explicit dataflow");
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 64);
}

/// The positions reachable from `start` on a `rows` x `cols` grid by
/// orthogonal jumps (a peg jumps a neighbour into an empty hole beyond it),
/// by breadth-first search over bit masks; row-major cells, bit 0 first.
fn reachable_by_jumps(rows: usize, cols: usize, start: u64) -> std::collections::HashSet<u64> {
    let mut jumps = Vec::new();
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                if (0..rows as i64).contains(&r2) && (0..cols as i64).contains(&c2) {
                    let bit = |r: i64, c: i64| 1u64 << (r * cols as i64 + c);
                    jumps.push((bit(r, c), bit(r + dr, c + dc), bit(r2, c2)));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::from([start]);
    let mut todo = vec![start];
    while let Some(s) = todo.pop() {
        for &(from, over, to) in &jumps {
            if s & from != 0 && s & over != 0 && s & to == 0 {
                let next = s & !from & !over | to;
                if seen.insert(next) {
                    todo.push(next);
                }
            }
        }
    }
    seen
}

/// A board text of `cells` cells in rows of `cols`, pegs `o`, holes `-`.
fn peg_text(state: u64, rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if state >> (r * cols + c) & 1 == 1 {
                        'o'
                    } else {
                        '-'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn reachable_counts_on_fewest_pieces_boards_equal_a_search_of_every_jump() {
    // Pebble Solitaire's row and the same rules on small grids, from starts
    // spread over their boards; the count is the same whatever engine plans it.
    let boards: [(usize, usize, &[&str]); 3] = [
        (1, 12, &[]),
        (3, 4, &["--set", "board.rows=3", "--set", "board.cols=4"]),
        (4, 4, &["--set", "board.rows=4", "--set", "board.cols=4"]),
    ];
    for (rows, cols, sets) in boards {
        let cells = rows * cols;
        let mut most = 0;
        for k in 0..12u64 {
            // Every hole but a few: many jumps to make.
            let holes = k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20;
            let start = ((1u64 << cells) - 1) & !(holes & holes >> 7 & holes >> 13);
            let expected = reachable_by_jumps(rows, cols, start).len();
            most = most.max(expected);
            let text = peg_text(start, rows, cols);
            let mut args = vec!["states", "puzzles/pebble12.toml"];
            args.extend_from_slice(sets);
            args.extend_from_slice(&["--from", &text, "--reachable", "--count"]);
            assert_eq!(
                run(&args),
                format!("{expected}\n"),
                "{rows}x{cols} from {text}"
            );
            if k % 4 == 0 {
                args.extend_from_slice(&["--workers", "2"]);
                assert_eq!(run(&args), format!("{expected}\n"), "--workers 2, {text}");
            }
        }
        // The starts leave room for long games.
        assert!(most > 50, "{rows}x{cols}: at most {most} positions");
    }
}
