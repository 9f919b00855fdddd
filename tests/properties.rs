//! Property tests on random small puzzles: every solver agrees with the answer table
//! (an exhaustive backward search), and every answer checks.

use pegflip::solve::{Proof, solve_linear};
use pegflip::{AnswerTable, Bits, Goal, Limits, Linear, Outcome, Puzzle, SolverKind, solve_with};
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
            prop::collection::btree_set((-2i64..=2, -2i64..=2), 1..5).prop_map(|set| {
                let items: Vec<String> = set.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
                format!("offsets = [{}]", items.join(", "))
            }),
        ],
        prop_oneof![
            Just("target = \"all-off\""),
            Just("any = [\"all-on\", \"all-off\"]"),
            Just("fewest = \"pieces\""),
        ],
    )
        .prop_map(|(rows, cols, mask, wrap, moves, goal)| {
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
            format!(
                "name = \"random\"\n[board]\nshape = [{}]\nwrap = {wrap}\n\
                 [[moves]]\n{moves}\n[goal]\n{goal}\n",
                shape.join(", ")
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
                c.check(program, start).unwrap();
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
        let puzzle = Puzzle::parse(&text, "<random>").unwrap();
        let program = puzzle.compile().unwrap();
        let n = program.cells();
        let table = AnswerTable::build(&program).unwrap();
        let board = seed & ((1u64 << n) - 1);
        let start = Bits::from_u64(n, board);
        let limits = Limits::default();
        let bfs = solve_with(&program, &start, &limits, SolverKind::Bfs).unwrap();
        prop_assert_eq!(answer(&program, &start, &bfs), table.answer(board), "bfs\n{}", text);
        if program.is_linear() && matches!(program.goal(), Goal::Targets(_)) {
            let dense = Linear::dense(&program, &limits).unwrap();
            let outcome = solve_linear(&program, &dense, &start, &limits).unwrap();
            prop_assert_eq!(answer(&program, &start, &outcome), table.answer(board), "dense\n{}", text);
            if let Some(chase) = Linear::chase(&program) {
                prop_assert_eq!(chase.nullity(), dense.nullity());
                let outcome = solve_linear(&program, &chase, &start, &limits).unwrap();
                prop_assert_eq!(answer(&program, &start, &outcome), table.answer(board), "chase\n{}", text);
            }
        }
    }
}
