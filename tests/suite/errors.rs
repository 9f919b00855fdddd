//! Every case under tests/data/errors exits 2 with exactly its expected message.
//!
//! `X.toml` is checked with `pegflip check`; `P-X.in` is fed to
//! `pegflip batch puzzles/P.toml`; `P-X.board` is given to
//! `pegflip solve puzzles/P.toml` as the BOARD argument. `X.err` holds stderr.
//! With `PEGFLIP_BLESS=1` the .err files are rewritten from the output
//! (review the diff before committing it).

use crate::common::pegflip;

#[test]
fn every_error_case_gives_its_message() {
    let dir = format!("{}/tests/data/errors", env!("CARGO_MANIFEST_DIR"));
    let mut cases = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some((stem, ext)) = name.rsplit_once('.') else {
            continue;
        };
        let rel = format!("tests/data/errors/{name}");
        let puzzle = format!("puzzles/{}.toml", stem.split('-').next().unwrap());
        let out = match ext {
            "toml" => pegflip(&["check", &rel], b""),
            "in" => pegflip(&["batch", &puzzle, &rel], b""),
            "board" => {
                let board = std::fs::read_to_string(&path).unwrap();
                pegflip(&["solve", &puzzle, &board], b"")
            }
            _ => continue,
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        if std::env::var_os("PEGFLIP_BLESS").is_some() {
            std::fs::write(format!("{dir}/{stem}.err"), stderr.as_bytes()).unwrap();
        }
        let expected = std::fs::read_to_string(format!("{dir}/{stem}.err"))
            .unwrap_or_else(|e| panic!("{stem}.err: {e}"));
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert_eq!(stderr, expected, "{name}");
        assert!(out.stdout.is_empty(), "{name} printed to stdout");
        cases += 1;
    }
    assert!(cases >= 15, "only {cases} error cases found");
}
