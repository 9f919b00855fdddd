//! Property tests: on random small puzzles, the per-board search and the answer table agree,
//! and every solution replays.

use pegflip::{AnswerTable, Bits, Outcome, Puzzle, solve};
use proptest::prelude::*;

/// A random puzzle of at most 12 cells: toggles or jumps, a target or fewest pieces.
fn puzzle_text() -> impl Strategy<Value = String> {
    (
        1usize..=3,
        1usize..=4,
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
        .prop_map(|(rows, cols, wrap, moves, goal)| {
            format!(
                "name = \"random\"\n[board]\nrows = {rows}\ncols = {cols}\nwrap = {wrap}\n\
                 [[moves]]\n{moves}\n[goal]\n{goal}\n"
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn search_and_table_agree(text in puzzle_text(), seed in any::<u64>()) {
        let puzzle = Puzzle::parse(&text, "<random>").unwrap();
        let program = puzzle.compile();
        let n = program.cells();
        let table = AnswerTable::build(&program).unwrap();
        let board = seed & ((1u64 << n) - 1);
        let start = Bits::from_u64(n, board);
        let outcome = solve(&program, &start, &Default::default()).unwrap();
        let got = match &outcome {
            Outcome::Solved(s) => {
                let end = program.replay(&start, &s.moves).unwrap();
                prop_assert_eq!(&end, &s.end);
                if matches!(program.goal(), pegflip::Goal::FewestPieces) {
                    Some(end.count_ones() as u32)
                } else {
                    prop_assert!(program.is_target(&end));
                    Some(s.moves.len() as u32)
                }
            }
            Outcome::Unsolvable(_) => None,
        };
        prop_assert_eq!(got, table.answer(board), "{}", text);
    }
}
