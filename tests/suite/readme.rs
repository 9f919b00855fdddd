//! Every `$ pegflip ...` example in README.md and docs/ is run, and its output is the one printed there.

use std::path::Path;
use std::process::Command;

/// One example: the command line, and the output printed under it.
struct Example {
    doc: String,
    line: usize,
    command: String,
    expected: String,
}

/// The examples of a Markdown file: each `$ ` line of a ```console block, with the lines
/// that follow it up to the next command or the end of the block.
fn examples(doc: &str, text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```console") {
            in_console = true;
            continue;
        }
        if line.starts_with("```") {
            in_console = false;
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                doc: doc.to_string(),
                line: i + 1,
                command: command.to_string(),
                expected: String::new(),
            });
        } else if let Some(last) = out.last_mut() {
            last.expected.push_str(line);
            last.expected.push('\n');
        }
    }
    out
}

/// The estimate of the machine's memory in `--explain` lines ("of max-memory 14.1 GiB")
/// differs between machines; everything else must match.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("of max-memory ") {
        let (head, tail) = rest.split_at(i + "of max-memory ".len());
        out.push_str(head);
        out.push_str("<machine>");
        rest = &tail[tail.find(';').unwrap_or(tail.len())..];
    }
    out.push_str(rest);
    out
}

fn has(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn every_documented_example_prints_what_the_docs_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = examples(
        "README.md",
        &std::fs::read_to_string(root.join("README.md")).unwrap(),
    );
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    for path in docs {
        let name = format!("docs/{}", path.file_name().unwrap().to_string_lossy());
        all.extend(examples(&name, &std::fs::read_to_string(&path).unwrap()));
    }
    // The examples run in a copy of the files they read, so that the files they
    // write (answers, SVG pictures, new puzzles) land outside the repository.
    let dir = crate::common::scratch("readme");
    for sub in ["puzzles", "docs", "tests/data"] {
        crate::common::copy_dir(&root.join(sub), &dir.join(sub));
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_pegflip")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut run, mut skipped, mut wrong) = (0, Vec::new(), Vec::new());
    for ex in &all {
        let command = match ex.command.strip_prefix("cargo run --release -- ") {
            Some(args) => format!("pegflip {args}"),
            None => ex.command.clone(),
        };
        // The test commands themselves, and tools this machine may lack.
        if command.starts_with("cargo ") || (command.contains("| dot") && !has("dot")) {
            skipped.push(format!("{}:{}: {}", ex.doc, ex.line, ex.command));
            continue;
        }
        assert!(
            command.starts_with("pegflip "),
            "{}:{}: an example that is not a pegflip command: {}",
            ex.doc,
            ex.line,
            ex.command
        );
        let out = Command::new("sh")
            .args(["-c", &format!("exec 2>&1\n{command}")])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let actual = String::from_utf8_lossy(&out.stdout);
        if normalize(&actual) != normalize(&ex.expected) {
            wrong.push(format!(
                "{}:{}: `{}` prints\n{actual}but the docs show\n{}",
                ex.doc, ex.line, ex.command, ex.expected
            ));
        }
        run += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A picture the README shows is the one the command draws.
    for svg in ["docs/pebble12-solution.svg", "docs/flip4x4-solution.svg"] {
        if dir.join(svg).exists() {
            assert_eq!(
                std::fs::read_to_string(dir.join(svg)).unwrap(),
                std::fs::read_to_string(root.join(svg)).unwrap(),
                "{svg} is out of date"
            );
        }
    }
    assert!(run >= 30, "ran only {run} examples; skipped {skipped:?}");
    std::fs::remove_dir_all(&dir).ok();
}
