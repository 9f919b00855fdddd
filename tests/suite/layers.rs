//! The library's modules depend one way, in the pipeline's order: no `crate::` or `super::` path runs back up the layers.
//!
//! The check reads the source as text: every `crate::NAME` (and each name of a
//! `crate::{..}` group), every `super::NAME`, and names re-exported at the
//! crate root resolved to the module that defines them. A module may use what
//! stands before it in [`LAYERS`], never what stands after; the engines may use
//! each other only without a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest first.
const LAYERS: &[&str] = &[
    "error",
    "limits",
    "memory",
    "gf2",
    "zk",
    "bits",
    "word",
    "stateset",
    "board",
    "symbols",
    "io",
    "spec",
    "overrides",
    "puzzle",
    "catalogue",
    "program",
    "symmetry",
    "query",
    "outcome",
    "answer",
    "check",
    "engines",
    "plan",
    "run",
    "render",
    "batch",
];

/// One path from a module to another, and where it stands.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    /// The module path of the file that uses, as `engines::dfs`.
    from: Vec<String>,
    /// The top-level module used (or, inside `engines`, the engine used).
    to: Vec<String>,
    at: String,
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src`: `engines/dfs.rs` is `engines::dfs`,
/// `program/mod.rs` is `program`, `lib.rs` is the root (empty).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The source without its comments (line comments and doc comments, where
/// paths name things without using them).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.trim_start().starts_with("//") {
            true => "",
            false => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of each path after `crate::` or `super::` at `rest`: one
/// name, or each top-level name of a `{..}` group.
fn heads(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    if !rest.starts_with('{') {
        return vec![ident(rest)];
    }
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 1);
    for (i, ch) in rest.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                let name = ident(rest[start..i].trim());
                if !name.is_empty() {
                    out.push(name);
                }
                start = i + 1;
                if ch == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    out
}

/// The names the crate root re-exports, each with the top-level module it comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let text = code(lib);
    for item in text.split(';') {
        let item = item.trim();
        let Some(path) = item
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
            .join(" ")
            .trim()
            .strip_prefix("pub use ")
            .map(str::to_string)
        else {
            continue;
        };
        let module = path.split("::").next().unwrap().trim().to_string();
        let names: Vec<String> = match path.find('{') {
            Some(i) => path[i + 1..path.rfind('}').unwrap()]
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect(),
            None => vec![path.rsplit("::").next().unwrap().trim().to_string()],
        };
        for name in names {
            out.insert(name, module.clone());
        }
    }
    out
}

/// Every path in the library from one module to another.
fn edges(src: &Path) -> Vec<Edge> {
    let roots = reexports(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut all = Vec::new();
    files(src, &mut all);
    all.sort();
    let mut out = Vec::new();
    for file in all {
        if file.starts_with(src.join("bin")) {
            continue;
        }
        let module = module_of(src, &file);
        let text = code(&std::fs::read_to_string(&file).unwrap());
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.display(), n + 1);
            for (pos, _) in line.match_indices("crate::") {
                let rest = &line[pos + "crate::".len()..];
                for head in heads(rest) {
                    let top = roots.get(&head).cloned().unwrap_or(head.clone());
                    let mut to = vec![top];
                    if to[0] == "engines"
                        && let Some(engine) = rest.strip_prefix("engines::")
                    {
                        to.extend(heads(engine));
                    }
                    out.push(Edge {
                        from: module.clone(),
                        to,
                        at: at.clone(),
                    });
                }
            }
            for (pos, _) in line.match_indices("super::") {
                if pos > 0 && line[..pos].ends_with("::") {
                    continue;
                }
                let rest = &line[pos + "super::".len()..];
                let parent = &module[..module.len().saturating_sub(1)];
                for head in heads(rest) {
                    let mut to: Vec<String> = parent.to_vec();
                    to.push(head);
                    out.push(Edge {
                        from: module.clone(),
                        to,
                        at: at.clone(),
                    });
                }
            }
        }
    }
    out
}

/// What breaks the layering: uses of a later layer, uses of a module no
/// layer lists, and cycles among the engines.
fn violations(src: &Path) -> Vec<String> {
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut out = Vec::new();
    let mut engines: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in edges(src) {
        let (Some(from), Some(to)) = (e.from.first(), e.to.first()) else {
            continue;
        };
        if to == "self" || to == "super" || to.is_empty() {
            continue;
        }
        let (Some(rf), Some(rt)) = (rank(from), rank(to)) else {
            out.push(format!(
                "{}: {} uses {}, and no layer lists {}",
                e.at,
                e.from.join("::"),
                e.to.join("::"),
                if rank(from).is_none() { from } else { to }
            ));
            continue;
        };
        if rt > rf {
            out.push(format!(
                "{}: {} uses {}, a later layer",
                e.at,
                e.from.join("::"),
                e.to.join("::")
            ));
        }
        if from == "engines"
            && to == "engines"
            && let (Some(a), Some(b)) = (e.from.get(1), e.to.get(1))
            && a != b
        {
            engines.entry(a.clone()).or_default().insert(b.clone());
        }
    }
    // A cycle among the engines: a depth-first search that meets a module on its own path.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<String>,
    ) {
        if let Some(i) = path.iter().position(|p| p == m) {
            out.push(format!(
                "the engines form a cycle: {} -> {m}",
                path[i..].join(" -> ")
            ));
            return;
        }
        if !done.insert(m.to_string()) {
            return;
        }
        path.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            visit(next, graph, path, done, out);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    for m in engines.keys() {
        visit(m, &engines, &mut Vec::new(), &mut done, &mut out);
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn modules_depend_one_way() {
    let found = violations(&src());
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The scan sees the layering it checks: the runner uses the planner and
    // the engines, and the engines use the model.
    let edges = edges(&src());
    let uses = |from: &str, to: &str| {
        edges
            .iter()
            .any(|e| e.from.first().is_some_and(|f| f == from) && e.to[0] == to)
    };
    assert!(uses("run", "plan") && uses("run", "engines") && uses("engines", "program"));
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").or(l.strip_prefix("pub(crate) "))?;
            l.strip_prefix("mod ")?.strip_suffix(';')
        })
        .collect();
    assert_eq!(declared.len(), LAYERS.len(), "declared: {declared:?}");
    for m in declared {
        assert!(LAYERS.contains(&m), "module {m} has no layer");
    }
}

/// A copy of the library's source with `line` added to `file`.
fn with_line(name: &str, file: &str, line: &str) -> PathBuf {
    let dir = crate::common::scratch(name).join("src");
    crate::common::copy_dir(&src(), &dir);
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}\n{line}\n")).unwrap();
    dir
}

#[test]
fn a_deliberate_back_edge_fails() {
    // An engine that imports the planner.
    let dir = with_line("layers-engine", "engines/dfs.rs", "use crate::plan::Plan;");
    let found = violations(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("engines::dfs uses plan, a later layer"),
        "{found:?}"
    );
    // The checker reaching for an engine, through a group and a root re-export.
    let dir = with_line(
        "layers-check",
        "check/mod.rs",
        "use crate::{bits::Bits, Linear};",
    );
    let found = violations(&dir);
    assert!(
        found.len() == 1 && found[0].contains("check uses engines, a later layer"),
        "{found:?}"
    );
    // The model reaching for the program, by a path inside an expression.
    let dir = with_line(
        "layers-model",
        "board.rs",
        "fn f() -> usize { crate::program::masks::Masks::LEN }",
    );
    let found = violations(&dir);
    assert!(
        found.len() == 1 && found[0].contains("board uses program, a later layer"),
        "{found:?}"
    );
    // A cycle among the engines.
    let dir = with_line(
        "layers-cycle",
        "engines/bfs.rs",
        "use crate::engines::dfs::applies;",
    );
    let found = violations(&dir);
    assert!(
        found.len() == 1 && found[0].contains("the engines form a cycle"),
        "{found:?}"
    );
}
