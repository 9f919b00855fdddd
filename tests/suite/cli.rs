//! The command line's promises: JSON on every command, help with examples, completions.

use crate::common::{data, pegflip};

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in [
        "solve",
        "batch",
        "check",
        "analyze",
        "verify",
        "states",
        "graph",
        "list",
        "new",
        "completions",
        "help",
    ] {
        let out = pegflip(&[cmd, "--help"], b"");
        assert_eq!(out.status.code(), Some(0), "{cmd}");
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(
            help.contains("Example"),
            "{cmd} --help has no example:\n{help}"
        );
        assert!(
            help.contains(&format!("pegflip {cmd}")),
            "{cmd} --help example does not run {cmd}"
        );
    }
}

#[test]
fn check_and_batch_speak_json() {
    let out = pegflip(&["check", "puzzles/flip4x4.toml", "--json"], b"");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["ok"].as_bool(), v["cells"].as_u64(), v["moves"].as_u64()),
        (Some(true), Some(16), Some(16))
    );
    assert_eq!(
        v["goal"]["targets"],
        serde_json::json!(["bbbb/bbbb/bbbb/bbbb", "wwww/wwww/wwww/wwww"])
    );

    let out = pegflip(
        &["batch", "puzzles/pebble12.toml", "--json"],
        &data("pebble12-seed003.in"),
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answers"], serde_json::json!(["1", "2", "3", "12", "1"]));
    assert_eq!(v["warnings"][0]["line"], 3);
    assert_eq!(v["warnings"][0]["col"], 13);
    assert!(
        out.stderr.is_empty(),
        "with --json the warnings are in the object"
    );
}

#[test]
fn completions_for_three_shells() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef pegflip"),
        ("fish", "complete -c pegflip"),
    ] {
        let out = pegflip(&["completions", shell], b"");
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}");
        assert!(
            script.contains("analyze"),
            "{shell} completes the subcommands"
        );
    }
}

#[test]
fn no_colour_when_stderr_is_not_a_terminal() {
    let out = pegflip(
        &["solve", "puzzles/flip4x4.toml", "bwxb/bbwb/bwwb/bwww"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !out.stderr.contains(&0x1b),
        "no escape codes in piped stderr"
    );
}

#[test]
fn the_format_reference_travels_with_the_binary() {
    let out = pegflip(&["help", "format"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        std::fs::read_to_string("docs/format.md").unwrap()
    );
    let out = pegflip(&["help", "batch"], b"");
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("Usage: pegflip batch")
    );
    let out = pegflip(&["help", "formats"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no help topic or command 'formats'"), "{err}");
}

#[test]
fn another_commands_option_given_as_a_board_is_named() {
    // A BOARD may begin with `-`, so an option `solve` does not know arrives as its board.
    let out = pegflip(&["solve", "triangle15", "--histogram"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("`--histogram` is an option of `pegflip states`, not of `pegflip solve`"),
        "{err}"
    );
    let out = pegflip(&["solve", "pebble12", "--count=3"], b"");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("`--count` is an option of `pegflip states` and `pegflip generate`"),
        "{err}"
    );
    // A board that begins with `--` and is no option keeps its own located error, as a short
    // row of one cell does ("1 cell").
    for (board, wanted) in [
        ("--o", "<board>:1:4: error: row 0 has 3 cells, expected 12"),
        ("o", "<board>:1:2: error: row 0 has 1 cell, expected 12"),
    ] {
        let out = pegflip(&["solve", "pebble12", board], b"");
        assert_eq!(out.status.code(), Some(2), "{board}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(wanted), "{err}");
    }
    // And one that reads is solved.
    let out = pegflip(&["solve", "pebble12", "--o--o-oo----"], b"");
    assert_eq!(out.status.code(), Some(0));
    // A puzzle of more colours reads its board on its own path.
    let out = pegflip(&["solve", "alien-tiles", "--count"], b"");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("`--count` is an option of"), "{err}");
    // Each `--from` that takes a BOARD says when it took an option for it.
    for args in [
        &["states", "pebble12", "--from", "--reachable", "--count"][..],
        &["graph", "pebble12", "--from", "--json"][..],
        &[
            "verify",
            "pebble12",
            "--from",
            "--json",
            "tests/data/pebble12-uva10651.in",
        ][..],
    ] {
        let out = pegflip(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        let option = args[3];
        assert!(
            err.contains(&format!(
                "`--from` takes a BOARD, and the option `{option}` was read as it"
            )),
            "{args:?}: {err}"
        );
    }
}
