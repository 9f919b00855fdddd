//! Helpers shared by the integration tests: running the binary from the project root.

#![allow(dead_code)]

pub mod fuzz;
pub mod server;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `pegflip ARGS` in the project root with `stdin` as input.
pub fn pegflip(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegflip"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the pegflip binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // A command may exit before reading all of its input; that is its business.
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("pegflip finishes");
    writer.join().expect("the stdin writer does not panic");
    out
}

/// A file under tests/data, as bytes.
pub fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// A shipped puzzle, loaded through the library.
pub fn puzzle(name: &str) -> pegflip::Puzzle {
    let path = format!("{}/puzzles/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    pegflip::Puzzle::from_file(&path).expect("shipped puzzles are valid")
}

/// A fresh scratch directory under the system's temp dir, unique to this process.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pegflip-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that a run exited with `code`, showing its stderr when it did not.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `pegflip batch PUZZLE < SAMPLE.in` and checks its output against
/// `SAMPLE.out` byte for byte (both in tests/data); returns its stderr.
pub fn check_sample(puzzle: &str, sample: &str) -> String {
    let input = data(&format!("{sample}.in"));
    let out = pegflip(&["batch", puzzle], &input);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&data(&format!("{sample}.out"))),
        "{sample}"
    );
    String::from_utf8(out.stderr).unwrap()
}

/// Copies the folder `from` into `to`, recursively.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Interrupts `child` as Ctrl-C would (SIGINT), and checks that it ends with
/// exit 130; its output.
pub fn interrupt(child: std::process::Child) -> std::process::Output {
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
