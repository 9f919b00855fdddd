//! Property tests on random small puzzles (grids, triangular lattices and graphs): every
//! solver agrees with the answer table (an exhaustive backward search), and every answer
//! checks.

use pegflip::{AnswerTable, Bits, Goal, Limits, Linear, Outcome, Preference, Puzzle, solve_with};
use pegflip::{Proof, solve_linear};
use proptest::prelude::*;

/// A random puzzle of at most 12 cells: a shape, wrap or not, toggles or
/// jumps, a target or fewest pieces.
fn puzzle_text() -> impl Strategy<Value = String> {
    (
        1usize..=3,
        1usize..=4,
        any::<u16>(),
        any::<bool>(),
        prop_oneof![
            Just("toggle = \"plus\"".to_string()),
            Just("toggle = \"x\"".to_string()),
            Just("toggle = \"knight\"".to_string()),
            Just("jump = \"orthogonal\"".to_string()),
            Just("jump = \"all\"".to_string()),
            Just("jump = \"triangular\"".to_string()),
            Just("toggle = \"row-and-column\"".to_string()),
            Just("toggle = \"open\"".to_string()),
            Just("toggle = \"closed\"".to_string()),
            Just("toggle = \"plus\"\nwhen = \"on\"".to_string()),
            Just("toggle = \"closed\"\nwhen = \"off\"".to_string()),
            prop::collection::btree_set((-2i64..=2, -2i64..=2), 1..5).prop_map(|set| {
                let items: Vec<String> = set.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
                format!("offsets = [{}]", items.join(", "))
            }),
        ],
        prop_oneof![
            Just("target = \"all-off\""),
            Just("any = [\"all-on\", \"all-off\"]"),
            Just("fewest = \"pieces\""),
            Just("target = \"all-same\""),
            Just("one-piece = \"anywhere\""),
        ],
        any::<bool>(),
    )
        .prop_map(|(rows, cols, mask, wrap, moves, goal, triangular)| {
            // A shape from the mask's low bits, with at least the first cell.
            let shape: Vec<String> = (0..rows)
                .map(|r| {
                    let row: String = (0..cols)
                        .map(|c| {
                            let i = r * cols + c;
                            if i == 0 || mask >> i & 1 == 1 {
                                'o'
                            } else {
                                '.'
                            }
                        })
                        .collect();
                    format!("\"{row}\"")
                })
                .collect();
            // The triangular lattice has no [1, -1] steps for `jump = "all"` to take.
            let lattice = if triangular && !moves.contains("all") {
                "triangular"
            } else {
                "square"
            };
            format!(
                "name = \"random\"\n[board]\nshape = [{}]\nwrap = {wrap}\nlattice = \"{lattice}\"\n\
                 [[moves]]\n{moves}\n[goal]\n{goal}\n",
                shape.join(", ")
            )
        })
}

/// A random graph board of at most 8 nodes, with sigma or sigma+ toggles,
/// optionally lit-only.
fn graph_text() -> impl Strategy<Value = String> {
    (
        1usize..=8,
        any::<u32>(),
        prop_oneof![Just("open"), Just("closed")],
        prop_oneof![Just(""), Just("when = \"on\"\n")],
        prop_oneof![
            Just("target = \"all-off\""),
            Just("target = \"all-same\""),
            Just("one-piece = \"anywhere\""),
        ],
    )
        .prop_map(|(n, mask, toggle, when, goal)| {
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            let edges: Vec<String> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> (i % 32) & 1 == 1)
                .map(|(_, (a, b))| format!("[{a}, {b}]"))
                .collect();
            format!(
                "name = \"graph\"\n[board]\nnodes = {n}\nedges = [{}]\n\
                 [[moves]]\ntoggle = \"{toggle}\"\n{when}[goal]\n{goal}\n",
                edges.join(", ")
            )
        })
}

/// The answer of an outcome as the table states it: moves, or pieces for the objective.
fn answer(program: &pegflip::Program, start: &Bits, outcome: &Outcome) -> Option<u32> {
    match outcome {
        Outcome::Solved(s) => {
            let end = program.replay(start, &s.moves).unwrap();
            assert_eq!(&end, &s.end);
            assert!(s.optimal);
            if matches!(program.goal(), Goal::FewestPieces) {
                Some(end.count_ones() as u32)
            } else {
                assert!(program.is_target(&end));
                Some(s.moves.len() as u32)
            }
        }
        Outcome::Unsolvable(Proof::Parity(certificates)) => {
            for c in certificates {
                pegflip::check::check_certificate(program, start, c).unwrap();
            }
            None
        }
        Outcome::Unsolvable(_) => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_solver_agrees_with_the_table(text in puzzle_text(), seed in any::<u64>()) {
        agrees_with_the_table(&text, seed)?;
    }

    #[test]
    fn every_solver_agrees_with_the_table_on_graphs(text in graph_text(), seed in any::<u64>()) {
        agrees_with_the_table(&text, seed)?;
    }

    /// Sutner's theorem (1989): on any graph, the sigma+ game turns all-on into all-off.
    #[test]
    fn sutner_all_on_is_always_solvable(text in graph_text()) {
        let text = text.replace("when = \"on\"\n", "").replace("\"open\"", "\"closed\"");
        let text = format!("{}target = \"all-off\"\n", &text[..text.find("[goal]").unwrap() + 7]);
        let puzzle = Puzzle::parse(&text, "<random>").unwrap();
        let program = puzzle.compile().unwrap();
        let start = Bits::ones(program.cells());
        let outcome = solve_with(&program, &start, &Limits::default(), Preference::Gf2).unwrap();
        prop_assert!(matches!(outcome, Outcome::Solved(_)), "{}", text);
    }
}

fn agrees_with_the_table(text: &str, seed: u64) -> Result<(), TestCaseError> {
    let puzzle = Puzzle::parse(text, "<random>").unwrap();
    let program = puzzle.compile().unwrap();
    let n = program.cells();
    let table = AnswerTable::build(&program).unwrap();
    let board = seed & ((1u64 << n) - 1);
    let start = Bits::from_u64(n, board);
    let limits = Limits::default();
    let bfs = solve_with(&program, &start, &limits, Preference::Search).unwrap();
    prop_assert_eq!(
        answer(&program, &start, &bfs),
        table.answer(board),
        "bfs\n{}",
        text
    );
    if program.is_linear() && matches!(program.goal(), Goal::Targets(_)) {
        let dense = Linear::dense(&program, &limits).unwrap();
        let outcome = solve_linear(&program, &dense, &start, &limits).unwrap();
        prop_assert_eq!(
            answer(&program, &start, &outcome),
            table.answer(board),
            "dense\n{}",
            text
        );
        if let Some(chase) = program
            .stencil()
            .map(|_| Linear::chase(&program, &limits).unwrap())
        {
            prop_assert_eq!(chase.nullity(), dense.nullity());
            let outcome = solve_linear(&program, &chase, &start, &limits).unwrap();
            prop_assert_eq!(
                answer(&program, &start, &outcome),
                table.answer(board),
                "chase\n{}",
                text
            );
        }
    }
    Ok(())
}
