//! `pegflip verify` accepts every answer `solve --json` writes, and rejects tampered ones with the reason.

use crate::common::pegflip;

fn solve_json(args: &[&str]) -> serde_json::Value {
    let out = pegflip(args, b"");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn verify(puzzle: &str, answer: &serde_json::Value) -> (i32, String) {
    let out = pegflip(&["verify", puzzle, "-"], answer.to_string().as_bytes());
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn every_kind_of_answer_verifies() {
    let cases: [(&str, &[&str]); 5] = [
        ("puzzles/flip4x4.toml", &["bwwb/bbwb/bwwb/bwww"]),
        ("puzzles/flip4x4.toml", &["bwbw/wwww/bbwb/bwwb"]),
        ("puzzles/pebble12.toml", &["--", "-o--o-oo----"]),
        ("puzzles/lights-out.toml", &[]),
        (
            "puzzles/lights-out.toml",
            &["o..../...../...../...../....."],
        ),
    ];
    for (puzzle, board) in cases {
        let mut args = vec!["solve", puzzle, "--json"];
        args.extend_from_slice(board);
        let answer = solve_json(&args);
        let (code, text) = verify(puzzle, &answer);
        assert_eq!(code, 0, "{puzzle} {board:?}: {text}");
        assert!(text.starts_with("holds: "), "{text}");
    }
}

#[test]
fn tampered_answers_fail_with_the_reason() {
    let answer = solve_json(&["solve", "puzzles/lights-out.toml", "--json"]);

    let mut wrong_length = answer.clone();
    wrong_length["length"] = 14.into();
    let (code, text) = verify("puzzles/lights-out.toml", &wrong_length);
    assert_eq!(
        (code, text.trim()),
        (
            1,
            "does not hold: the claimed length is 14, but there are 15 moves"
        )
    );

    let mut dropped = answer.clone();
    dropped["moves"].as_array_mut().unwrap().pop();
    dropped["length"] = 14.into();
    let (code, text) = verify("puzzles/lights-out.toml", &dropped);
    assert_eq!(code, 1);
    assert!(text.contains("not on the claimed final board"), "{text}");

    let mut off_board = answer.clone();
    off_board["moves"][0]["cells"] = serde_json::json!([[7, 7]]);
    let (code, text) = verify("puzzles/lights-out.toml", &off_board);
    assert_eq!(
        (code, text.trim()),
        (
            1,
            "does not hold: move 1: [7, 7] is not a cell of the board"
        )
    );

    // A jump that is not legal: pebble12, jumping from an empty cavity.
    let pebble = solve_json(&[
        "solve",
        "puzzles/pebble12.toml",
        "--json",
        "--",
        "-o--o-oo----",
    ]);
    let mut illegal = pebble.clone();
    illegal["moves"][0]["cells"] = serde_json::json!([[0, 0], [0, 1], [0, 2]]);
    let (code, text) = verify("puzzles/pebble12.toml", &illegal);
    assert_eq!(
        (code, text.trim()),
        (
            1,
            "does not hold: move 1 is not legal on the board before it"
        )
    );

    let mut wrong_pieces = pebble;
    wrong_pieces["pieces"] = 1.into();
    let (code, text) = verify("puzzles/pebble12.toml", &wrong_pieces);
    assert_eq!(code, 1);
    assert!(
        text.contains("the moves leave 2 pieces, but the answer claims 1"),
        "{text}"
    );

    // A certificate with a cell taken out no longer holds.
    let impossible = solve_json(&[
        "solve",
        "puzzles/lights-out.toml",
        "--json",
        "o..../...../...../...../.....",
    ]);
    let mut broken = impossible.clone();
    broken["certificate"][0]["cells"]
        .as_array_mut()
        .unwrap()
        .remove(1);
    let (code, text) = verify("puzzles/lights-out.toml", &broken);
    assert_eq!(code, 1);
    assert!(
        text.contains("flips") && text.contains("an odd number"),
        "{text}"
    );

    let mut none = impossible;
    none.as_object_mut().unwrap().remove("certificate");
    let (code, text) = verify("puzzles/lights-out.toml", &none);
    assert_eq!(code, 1);
    assert!(text.contains("gives no \"certificate\""), "{text}");
}

#[test]
fn verify_reports_bad_json_with_its_place() {
    let out = pegflip(
        &["verify", "puzzles/lights-out.toml", "-"],
        b"{\"solvable\": tru}",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("<stdin>:1:"), "{stderr}");
    assert!(stderr.contains("not JSON"), "{stderr}");
}

#[test]
fn every_field_read_is_checked_the_kind_of_each_move_and_the_optimal_claim() {
    let answer = solve_json(&["solve", "puzzles/lights-out.toml", "--json"]);
    let mut wrong_kind = answer.clone();
    wrong_kind["moves"][0]["kind"] = "jump".into();
    let (code, text) = verify("puzzles/lights-out.toml", &wrong_kind);
    assert_eq!(
        (code, text.trim()),
        (1, "does not hold: move 1 is a toggle, not a jump")
    );

    // Pressing the same cell twice more: the board is the same, but presses cancel
    // in pairs, so a solution that does it is not the fewest.
    let mut doubled = answer.clone();
    let first = doubled["moves"][0].clone();
    let moves = doubled["moves"].as_array_mut().unwrap();
    moves.push(first.clone());
    moves.push(first);
    for step in moves.iter_mut() {
        step.as_object_mut().unwrap().remove("board");
    }
    doubled["length"] = (moves.len()).into();
    let (code, text) = verify("puzzles/lights-out.toml", &doubled);
    assert_eq!(code, 1);
    assert!(
        text.contains("claims to be optimal, but it makes move 0 twice"),
        "{text}"
    );
    // The same answer without the claim holds.
    doubled["optimal"] = false.into();
    let (code, text) = verify("puzzles/lights-out.toml", &doubled);
    assert_eq!(code, 0, "{text}");
}

/// Past 200,000 cells times moves the answer is streamed a move a line; it
/// is the same document, and `verify` reads it like any other.
#[test]
fn streamed_answers_verify() {
    let size = ["--set", "board.rows=600", "--set", "board.cols=500"];
    let mut args = vec!["solve", "lights-out", "all-on", "--json"];
    args.extend(size);
    let answer = solve_json(&args);
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(answer["length"].as_u64().unwrap() as usize, moves.len());
    assert!(moves.len() * 300_000 > 200_000);
    assert_eq!(moves[0]["kind"], "toggle");
    assert!(moves[0]["text"].as_str().unwrap().starts_with("press ["));
    let verify_sized = |answer: &serde_json::Value| {
        let args = ["verify", "lights-out", "-"];
        let mut args: Vec<&str> = args.to_vec();
        args.extend(size);
        pegflip(&args, answer.to_string().as_bytes())
    };
    let out = verify_sized(&answer);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A tampered move is caught.
    let mut bad = answer.clone();
    bad["moves"][0]["cells"][0][0] = serde_json::json!(599);
    assert_eq!(verify_sized(&bad).status.code(), Some(1));
}

/// A moves-metric answer is checked in every field `verify` reads: a chain's
/// cells must be its jumps' path, and a claim of the fewest moves is refuted
/// by a move that goes on with the piece the move before it left.
#[test]
fn a_chain_answer_must_agree_with_its_jumps_and_its_claim() {
    let out = pegflip(&["solve", "triangle15", "--metric", "moves", "--json"], b"");
    assert_eq!(out.status.code(), Some(0));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let dir = crate::common::scratch("verify-chains");
    let verify = |name: &str, answer: &serde_json::Value| {
        let path = dir.join(name);
        std::fs::write(&path, answer.to_string()).unwrap();
        let out = pegflip(
            &[
                "verify",
                "triangle15",
                "--metric",
                "moves",
                path.to_str().unwrap(),
            ],
            b"",
        );
        let text = String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned();
        (out.status.code(), text)
    };
    let (code, text) = verify("as-written.json", &answer);
    assert_eq!(code, Some(0), "{text}");
    // Cells that are not the chain's path, in every way they can be wrong.
    let first = answer["moves"][0]["cells"].clone();
    for cells in [
        serde_json::json!([[0, 2], [6, 4]]),
        serde_json::json!([]),
        serde_json::json!([first[0]]),
        serde_json::json!([first[1], first[0]]),
        serde_json::json!([first[0], first[1], first[1]]),
    ] {
        let mut wrong = answer.clone();
        wrong["moves"][0]["cells"] = cells.clone();
        let (code, text) = verify("wrong-cells.json", &wrong);
        assert_eq!(code, Some(1), "{cells}: {text}");
        assert!(
            text.contains("are not the path of its jumps"),
            "{cells}: {text}"
        );
    }
    // Each chain of two jumps or more, split in two after its first jump.
    let moves = answer["moves"].as_array().unwrap().clone();
    let mut splits = 0;
    for (i, chain) in moves.iter().enumerate() {
        let jumps = chain["jumps"].as_array().unwrap();
        if jumps.len() < 2 {
            continue;
        }
        let part = |js: &[serde_json::Value], board: &serde_json::Value| {
            let mut cells = vec![js[0]["cells"][0].clone()];
            cells.extend(js.iter().map(|j| j["cells"][2].clone()));
            serde_json::json!({
                "kind": "chain",
                "cells": cells,
                "jumps": js,
                "text": "split",
                "board": board,
            })
        };
        let mut split = moves.clone();
        split.splice(
            i..=i,
            [
                part(&jumps[..1], &jumps[0]["board"]),
                part(&jumps[1..], &chain["board"]),
            ],
        );
        let mut claimed = answer.clone();
        claimed["moves"] = serde_json::Value::Array(split);
        claimed["length"] = serde_json::json!(moves.len() + 1);
        let (code, text) = verify("split.json", &claimed);
        assert_eq!(code, Some(1), "move {}: {text}", i + 1);
        assert!(
            text.contains("claims to be optimal") && text.contains("they are one move"),
            "move {}: {text}",
            i + 1
        );
        // Without the claim, the longer solution holds.
        claimed["optimal"] = serde_json::json!(false);
        let (code, text) = verify("split-unclaimed.json", &claimed);
        assert_eq!(code, Some(0), "move {}: {text}", i + 1);
        splits += 1;
    }
    assert!(
        splits >= 3,
        "the answer has {splits} chains of several jumps"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// One way to tamper with an answer, picked by number: a field changed, a
/// move dropped, doubled, swapped or altered, a claim added or removed.
fn tamper(answer: &mut serde_json::Value, how: usize, at: usize) {
    use serde_json::json;
    let moves = answer["moves"].as_array().map_or(0, Vec::len);
    let i = if moves == 0 { 0 } else { at % moves };
    match how {
        0 => {}
        1 => answer["length"] = json!(answer["length"].as_u64().unwrap_or(0) + 1),
        2 => answer["optimal"] = json!(true),
        3 => answer["optimal"] = json!(false),
        4 => {
            if let Some(m) = answer["moves"].as_array_mut()
                && !m.is_empty()
            {
                m.remove(i);
            }
        }
        5 => {
            if let Some(m) = answer["moves"].as_array_mut()
                && !m.is_empty()
            {
                let step = m[i].clone();
                m.insert(i, step);
            }
        }
        6 => {
            if let Some(m) = answer["moves"].as_array_mut()
                && m.len() > 1
            {
                let n = m.len();
                m.swap(i, (i + 1) % n);
            }
        }
        7 => {
            if moves > 0 {
                answer["moves"][i]["cells"][0] = json!([at % 9, at % 7]);
            }
        }
        8 => {
            if moves > 0 {
                answer["moves"][i]["kind"] = json!("jump");
            }
        }
        9 => answer["final"] = json!("nothing"),
        10 => {
            if let Some(o) = answer.as_object_mut() {
                o.remove("length");
            }
        }
        11 => answer["moves"] = json!(null),
        12 => answer["length"] = json!("many"),
        13 => answer["solvable"] = json!(!answer["solvable"].as_bool().unwrap_or(false)),
        _ => answer["moves"] = json!([{ "kind": "toggle", "cells": "[0, 0]" }]),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// An answer checked as it is read gets the verdict of the same answer
    /// parsed whole: both read it, or neither does, and they agree on why it
    /// holds or fails.
    #[test]
    fn a_streamed_answer_gets_the_verdict_of_the_answer_held_whole(
        which in 0usize..4,
        how in 0usize..15,
        at in 0usize..1000,
    ) {
        let (puzzle, board): (&str, &[&str]) = [
            ("puzzles/flip4x4.toml", &["bwwb/bbwb/bwwb/bwww"][..]),
            ("puzzles/pebble12.toml", &["--", "-o--o-oo----"][..]),
            ("puzzles/lights-out.toml", &[][..]),
            ("puzzles/lights-out.toml", &["o..../...../...../...../....."][..]),
        ][which];
        let program = pegflip::Puzzle::from_file(puzzle).unwrap().compile().unwrap();
        let mut args = vec!["solve", puzzle, "--json"];
        args.extend_from_slice(board);
        let mut answer = solve_json(&args);
        tamper(&mut answer, how, at);
        let text = serde_json::to_string_pretty(&answer).unwrap();
        let held = serde_json::from_str::<pegflip::Answer>(&text)
            .map(|a| pegflip::check::verify(&program, &a).map_err(|e| e.to_string()));
        let streamed = pegflip::check::verify_from(&program, text.as_bytes(), "answer.json")
            .map(|v| v.map_err(|e| e.to_string()));
        match (held, streamed) {
            (Ok(a), Ok(b)) => proptest::prop_assert_eq!(a, b),
            (Err(_), Err(pegflip::Error::Input(_))) => {}
            (a, b) => proptest::prop_assert!(false, "held {a:?}, streamed {b:?}"),
        }
    }
}
