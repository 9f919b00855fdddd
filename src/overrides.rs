//! `--set KEY=VALUE`: overrides applied to a puzzle file's text before it is validated.
//!
//! The edited text goes through the same parsing and validation as the file.
//! An error inside an overridden value points at the `--set` argument.

use std::ops::Range;

use toml_edit::{DocumentMut, Item, Value};

use crate::error::{Diagnostic, Error, Result};

/// One `KEY=VALUE` override. KEY is a dotted path (`board.rows`; a number
/// picks an element of an array of tables, as in `moves.0.toggle`). VALUE is
/// TOML (`100`, `true`, `"plus"`, `[[0, 1]]`); anything that is not valid
/// TOML is taken as a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    arg: String,
    key: Vec<String>,
    value: String,
}

impl Override {
    /// Parses `KEY=VALUE`.
    pub fn parse(arg: &str) -> Result<Override> {
        let bad = |message: &str, at: usize| {
            Error::Input(Box::new(Diagnostic::error("--set", arg, at, message)))
        };
        let Some((key, value)) = arg.split_once('=') else {
            return Err(bad("expected KEY=VALUE, as in board.rows=7", arg.len()));
        };
        let number = value
            .trim()
            .strip_prefix(['-', '+'])
            .unwrap_or(value.trim());
        if !number.is_empty()
            && number.bytes().all(|b| b.is_ascii_digit())
            && value.trim().parse::<i64>().is_err()
        {
            let at = arg.len() - value.trim_start().len();
            return Err(bad(
                "this number is past the integers a puzzle file can hold (-2^63 to 2^63 - 1)",
                at,
            ));
        }
        let key: Vec<String> = key.trim().split('.').map(str::to_string).collect();
        if key.iter().any(|k| k.is_empty()) {
            return Err(bad("the key has an empty part: write it as board.rows", 0));
        }
        Ok(Override {
            arg: arg.to_string(),
            key,
            value: value.trim().to_string(),
        })
    }

    fn value(&self) -> Value {
        self.value
            .parse::<Value>()
            .unwrap_or_else(|_| Value::from(self.value.as_str()))
    }

    /// The byte offset of VALUE within the argument.
    fn value_offset(&self) -> usize {
        let eq = self.arg.find('=').unwrap_or(0) + 1;
        eq + (self.arg[eq..].len() - self.arg[eq..].trim_start().len())
    }
}

/// The keys of `[goal]`, of which a puzzle gives exactly one.
const GOAL_KEYS: [&str; 4] = ["target", "any", "fewest", "one-piece"];

/// Where each override's value landed in the edited text.
pub(crate) struct Placed {
    span: Range<usize>,
    arg: String,
    value_offset: usize,
}

/// Applies `overrides` to `text`. Text that is not valid TOML is returned
/// unchanged, for the parser to report.
pub(crate) fn apply(text: &str, overrides: &[Override]) -> Result<(String, Vec<Placed>)> {
    if overrides.is_empty() {
        return Ok((text.to_string(), Vec::new()));
    }
    let Ok(mut doc) = text.parse::<DocumentMut>() else {
        return Ok((text.to_string(), Vec::new()));
    };
    for o in overrides {
        // The goal's keys exclude one another: setting one replaces the goal.
        if let [table, key] = o.key.as_slice()
            && table == "goal"
            && GOAL_KEYS.contains(&key.as_str())
            && let Some(goal) = doc.get_mut("goal").and_then(Item::as_table_like_mut)
        {
            for other in GOAL_KEYS.iter().filter(|k| **k != key) {
                goal.remove(other);
            }
        }
        let slot = walk(doc.as_item_mut(), o)?;
        *slot = Item::Value(o.value());
    }
    let edited = doc.to_string();
    let mut placed = Vec::new();
    if let Ok(parsed) = toml_edit::Document::parse(edited.as_str()) {
        for o in overrides {
            let found =
                o.key
                    .iter()
                    .try_fold(parsed.as_item(), |item, k| match k.parse::<usize>() {
                        Ok(i) if item.is_array_of_tables() || item.is_array() => item.get(i),
                        _ => item.get(k.as_str()),
                    });
            if let Some(span) = found.and_then(Item::span) {
                placed.push(Placed {
                    span,
                    arg: o.arg.clone(),
                    value_offset: o.value_offset(),
                });
            }
        }
    }
    Ok((edited, placed))
}

/// The item at the override's key, creating tables on the way.
fn walk<'a>(root: &'a mut Item, o: &Override) -> Result<&'a mut Item> {
    let mut item = root;
    for (depth, k) in o.key.iter().enumerate() {
        let path = o.key[..depth].join(".");
        let len = item
            .as_array_of_tables()
            .map(|a| a.len())
            .or_else(|| item.as_array().map(|a| a.len()));
        item = match (k.parse::<usize>(), len) {
            (Ok(i), Some(len)) if i < len => &mut item[i],
            (_, Some(len)) => {
                return Err(Error::Input(Box::new(Diagnostic::error(
                    "--set",
                    &o.arg,
                    0,
                    format!(
                        "`{path}` has {len} entries, numbered 0 to {}",
                        len.max(1) - 1
                    ),
                ))));
            }
            _ if item.is_table_like() || item.is_none() => &mut item[k.as_str()],
            _ => {
                return Err(Error::Input(Box::new(Diagnostic::error(
                    "--set",
                    &o.arg,
                    0,
                    format!("`{path}` is a value, not a table: it has no key `{k}`"),
                ))));
            }
        };
    }
    Ok(item)
}

/// Puts an error found in the edited text back where the user wrote it: an
/// error on the line of an overridden value points at its `--set` argument
/// (at the value, or at the key when the key itself is wrong); any other
/// error points at the same line of the original file, found by a line diff
/// (an override can add or remove lines above it).
pub(crate) fn relocate(err: Error, original: &str, edited: &str, placed: &[Placed]) -> Error {
    let Error::Input(d) = &err else { return err };
    let line_start = |text: &str, line: usize| -> usize {
        text.split_inclusive('\n').take(line).map(str::len).sum()
    };
    let line_of = |at: usize| edited[..at.min(edited.len())].matches('\n').count() + 1;
    // The diagnostic's byte offset in the edited text.
    let start = line_start(edited, d.line - 1);
    let col_bytes: usize = edited[start..]
        .chars()
        .take(d.col - 1)
        .map(char::len_utf8)
        .sum();
    let at = start + col_bytes;
    if let Some(p) = placed
        .iter()
        .find(|p| (line_of(p.span.start)..=line_of(p.span.end)).contains(&d.line))
    {
        let offset = if p.span.contains(&at) || p.span.end == at {
            p.value_offset + (at - p.span.start).min(p.arg.len() - p.value_offset)
        } else {
            0
        };
        return Error::Input(Box::new(Diagnostic {
            file: "--set".into(),
            ..Diagnostic::error("--set", &p.arg, offset, d.message.clone())
        }));
    }
    let diff = similar::TextDiff::from_lines(original, edited);
    let new_index = d.line - 1;
    for op in diff.ops() {
        if let similar::DiffOp::Equal {
            old_index,
            new_index: first,
            len,
        } = *op
            && (first..first + len).contains(&new_index)
        {
            let line = old_index + new_index - first;
            return Error::Input(Box::new(Diagnostic {
                line: line + 1,
                ..(**d).clone()
            }));
        }
    }
    err
}

/// The puzzle text with its board set to `rows` x `cols` (with `shape`, one
/// string per row, when given) and its `start` and `[batch]` removed: the variant that a
/// batch case of another size or shape is solved on. With `new_goal` the
/// `[goal]` is replaced by one piece anywhere, which holds on any board, for the
/// caller to set the case's own goal. `None` when the text is not TOML.
pub(crate) fn resized(
    text: &str,
    rows: usize,
    cols: usize,
    shape: Option<Vec<String>>,
    new_goal: bool,
) -> Option<String> {
    let mut doc = text.parse::<DocumentMut>().ok()?;
    // The case gives the start, and the file's own format reads the input.
    doc.remove("start");
    doc.remove("batch");
    if new_goal {
        let mut goal = toml_edit::Table::new();
        goal.insert("one-piece", Item::Value(Value::from("anywhere")));
        doc.insert("goal", Item::Table(goal));
    }
    let board = doc.get_mut("board")?.as_table_like_mut()?;
    let number = |n: usize| Item::Value(Value::from(i64::try_from(n).unwrap_or(i64::MAX)));
    board.insert("rows", number(rows));
    board.insert("cols", number(cols));
    if let Some(shape) = shape {
        board.insert("shape", Item::Value(Value::Array(shape.iter().collect())));
    }
    Some(doc.to_string())
}
