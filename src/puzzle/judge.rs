//! The `[batch]` section as written to a [`BatchFormat`]: case layout, answer kind and templates, checked against the puzzle.

use toml::Spanned;

use super::{GoalRule, MoveRule, Puzzle, Src};
use crate::error::Result;
use crate::spec::{BatchSpec, Header};

/// What each case of batch input begins with, before its board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Size {
    /// Nothing: every case has the board of the puzzle file.
    #[default]
    Fixed,
    /// Two numbers: rows, then columns.
    RowsCols,
    /// Two numbers: columns, then rows.
    ColsRows,
    /// One number: the side of a square board.
    Side,
}

/// What each answer of batch output is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnswerKind {
    /// One number: the fewest moves, or for the fewest-pieces objective the
    /// fewest pieces that can remain.
    #[default]
    Count,
    /// The press matrix of an optimal solution: one line per row, the board's
    /// `on` symbol where a cell is pressed and `off` where it is not.
    Presses,
    /// The moves of an optimal solution, one line each, written by the `move` template.
    Moves,
}

/// How an answer is chosen among the optimal ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieBreak {
    /// Any optimal answer.
    #[default]
    Any,
    /// The smallest press matrix read row by row: at the first cell where two
    /// optimal answers differ, the one that does not press it. Needs a linear
    /// puzzle, and is found by an exhaustive search of the solution coset.
    Lexicographic,
}

/// A placeholder of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `{case}`: the case number, from 1.
    Case,
    /// `{step}`: the move number within the answer, from 1.
    Step,
    /// `{from}`, `{over}`, `{to}`: a jump's cells by name (or `[row, col]`);
    /// `{cell}`: the pressed cell. The number is the index among the move's cells.
    Name(usize),
    /// `{from-row}`, `{over-row}`, `{to-row}`, `{row}`: a cell's row, from 1.
    Row(usize),
    /// `{from-col}`, `{over-col}`, `{to-col}`, `{col}`: a cell's column, from 1.
    Col(usize),
}

/// One piece of a template: literal text or a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Written as is.
    Text(String),
    /// Replaced by its value.
    Field(Field),
}

/// A one-line template: text with `{placeholders}`; `{{` and `}}` write braces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Template(pub Vec<Piece>);

/// The judge's batch format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchFormat {
    /// What precedes the cases.
    pub header: Header,
    /// The answer for a board whose target cannot be reached.
    pub impossible: String,
    /// What each case begins with.
    pub size: Size,
    /// Whether each cell is its own word (`0 1 1 0`) rather than each row (`0110`).
    pub separated: bool,
    /// Whether gap symbols in a case remove those cells for that case.
    pub shape_per_case: bool,
    /// The symbols that mark the goal cell of a case: holding a piece, and empty.
    pub marks: (Option<char>, Option<char>),
    /// What each answer is.
    pub answer: AnswerKind,
    /// The line written before each answer.
    pub title: Option<Template>,
    /// The line written between answers.
    pub between: Option<String>,
    /// The line written for each move of a `moves` answer; `None` writes the
    /// move as `solve` does.
    pub move_line: Option<Template>,
    /// How an answer is chosen among the optimal ones.
    pub tie_break: TieBreak,
}

impl BatchFormat {
    /// Whether the format is the seeds' own: a fixed board, a row a word, a
    /// count a line, nothing else. Such input is read by the fast path.
    pub fn is_plain(&self) -> bool {
        self.size == Size::Fixed
            && !self.separated
            && !self.shape_per_case
            && self.marks == (None, None)
            && self.answer == AnswerKind::Count
            && self.title.is_none()
            && self.between.is_none()
    }
}

/// Picks one of `choices` for `key`, or says which were expected.
fn choose<T: Copy>(
    src: &Src,
    key: &str,
    value: &Option<Spanned<String>>,
    choices: &[(&str, T)],
) -> Result<Option<T>> {
    let Some(v) = value else {
        return Ok(None);
    };
    match choices.iter().find(|(name, _)| *name == v.get_ref()) {
        Some(&(_, t)) => Ok(Some(t)),
        None => Err(src.err(
            v.span(),
            format!(
                "unknown {key} '{}': expected {}",
                v.get_ref(),
                choices
                    .iter()
                    .map(|(n, _)| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// A line of output: no line break inside.
fn one_line(src: &Src, key: &str, text: &Spanned<String>) -> Result<String> {
    if text.get_ref().contains(['\n', '\r']) {
        return Err(src.err(
            text.span(),
            format!("`{key}` is one line of output: it cannot contain a line break"),
        ));
    }
    Ok(text.get_ref().clone())
}

/// Parses a template, allowing only the placeholders in `allowed`.
fn template(
    src: &Src,
    key: &str,
    text: &Spanned<String>,
    allowed: &[(&str, Field)],
) -> Result<Template> {
    let s = one_line(src, key, text)?;
    // The template's text starts one byte into its span, after the opening quote.
    let at = |i: usize| text.span().start + 1 + i;
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut rest = s.char_indices().peekable();
    while let Some((i, ch)) = rest.next() {
        match ch {
            '{' if rest.peek().map(|&(_, c)| c) == Some('{') => {
                rest.next();
                literal.push('{');
            }
            '}' if rest.peek().map(|&(_, c)| c) == Some('}') => {
                rest.next();
                literal.push('}');
            }
            '{' => {
                let Some(close) = s[i..].find('}') else {
                    return Err(src.err_at(
                        at(i),
                        format!("`{key}`: '{{' opens a placeholder that is never closed (write '{{{{' for a brace)"),
                    ));
                };
                let name = &s[i + 1..i + close];
                let Some(&(_, field)) = allowed.iter().find(|(n, _)| *n == name) else {
                    let names: Vec<String> =
                        allowed.iter().map(|(n, _)| format!("{{{n}}}")).collect();
                    return Err(src.err_at(
                        at(i),
                        format!(
                            "`{key}`: unknown placeholder {{{name}}}: expected one of {}",
                            names.join(", ")
                        ),
                    ));
                };
                if !literal.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut literal)));
                }
                pieces.push(Piece::Field(field));
                while rest.peek().is_some_and(|&(j, _)| j <= i + close) {
                    rest.next();
                }
            }
            '}' => {
                return Err(src.err_at(
                    at(i),
                    format!("`{key}`: '}}' closes no placeholder (write '}}}}' for a brace)"),
                ));
            }
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        pieces.push(Piece::Text(literal));
    }
    Ok(Template(pieces))
}

impl Puzzle {
    /// Lowers `[batch]`; run once the board, rules and goal are built, since
    /// each key is checked against them.
    /// `one_piece` says whether the goal was given as `one-piece`.
    pub(super) fn build_batch(
        &self,
        src: &Src,
        spec: &BatchSpec,
        one_piece: bool,
    ) -> Result<BatchFormat> {
        let grid = !self.board.is_graph();
        let jumps = self.rules.iter().any(|r| matches!(r, MoveRule::Jump(_)));
        let toggles = self.rules.iter().any(|r| !matches!(r, MoveRule::Jump(_)));
        let size = choose(
            src,
            "size",
            &spec.size,
            &[
                ("none", Size::Fixed),
                ("rows cols", Size::RowsCols),
                ("cols rows", Size::ColsRows),
                ("side", Size::Side),
            ],
        )?
        .unwrap_or_default();
        if size != Size::Fixed && (!grid || self.board.has_gaps()) {
            let span = spec.size.as_ref().map(Spanned::span).unwrap_or(0..0);
            return Err(src.err(
                span,
                "a size per case needs a rectangular grid board ([board] rows and cols, no shape)",
            ));
        }
        let separated = choose(
            src,
            "cells",
            &spec.cells,
            &[("packed", false), ("separated", true)],
        )?
        .unwrap_or(false);
        let shape_per_case = choose(
            src,
            "shape",
            &spec.shape,
            &[("fixed", false), ("per-case", true)],
        )?
        .unwrap_or(false);
        if shape_per_case && !grid {
            let span = spec.shape.as_ref().map(Spanned::span).unwrap_or(0..0);
            return Err(src.err(span, "a shape per case needs a grid board, not a graph"));
        }
        let mark = |key: &str, value: &Option<Spanned<String>>| -> Result<Option<char>> {
            let Some(v) = value else { return Ok(None) };
            let mut chars = v.get_ref().chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(src.err(v.span(), format!("`{key}` must be one character")));
            };
            if self.symbols.classify(c).is_some() || c.is_whitespace() || c == '/' {
                return Err(src.err(
                    v.span(),
                    format!("`{key}` '{c}' is already a board symbol: choose another character"),
                ));
            }
            if !one_piece {
                return Err(src.err(
                    v.span(),
                    format!(
                        "`{key}` marks the cell of a one-piece goal, but [goal] is not `one-piece`"
                    ),
                ));
            }
            Ok(Some(c))
        };
        let marks = (
            mark("mark-on", &spec.mark_on)?,
            mark("mark-off", &spec.mark_off)?,
        );
        if marks.0.is_some() && marks.0 == marks.1 {
            let span = spec.mark_off.as_ref().map(Spanned::span).unwrap_or(0..0);
            return Err(src.err(span, "`mark-on` and `mark-off` are the same symbol"));
        }
        let answer = choose(
            src,
            "answer",
            &spec.answer,
            &[
                ("count", AnswerKind::Count),
                ("presses", AnswerKind::Presses),
                ("moves", AnswerKind::Moves),
            ],
        )?
        .unwrap_or_default();
        if answer == AnswerKind::Presses && (jumps || !grid) {
            let span = spec.answer.as_ref().map(Spanned::span).unwrap_or(0..0);
            return Err(src.err(
                span,
                "a press matrix needs toggle moves on a grid board: use answer = \"moves\"",
            ));
        }
        let tie_break = choose(
            src,
            "tie-break",
            &spec.tie_break,
            &[
                ("any", TieBreak::Any),
                ("lexicographic", TieBreak::Lexicographic),
            ],
        )?
        .unwrap_or_default();
        if tie_break == TieBreak::Lexicographic {
            let linear = self.rules.iter().all(|r| match r {
                MoveRule::Toggle { guard, .. }
                | MoveRule::Adjacent { guard, .. }
                | MoveRule::Press { guard, .. } => *guard == super::Guard::Always,
                MoveRule::Jump(_) => false,
            }) && matches!(self.goal, GoalRule::Targets(_));
            if !linear {
                let span = spec.tie_break.as_ref().map(Spanned::span).unwrap_or(0..0);
                return Err(src.err(
                    span,
                    "a lexicographic tie-break is solved exactly for linear puzzles only \
                     (unguarded toggles and a target goal)",
                ));
            }
        }
        let title = spec
            .title
            .as_ref()
            .map(|t| template(src, "title", t, &[("case", Field::Case)]))
            .transpose()?;
        let between = spec
            .between
            .as_ref()
            .map(|t| one_line(src, "between", t))
            .transpose()?;
        let mut fields = vec![("step", Field::Step)];
        if toggles {
            fields.push(("cell", Field::Name(0)));
            if grid {
                fields.extend([("row", Field::Row(0)), ("col", Field::Col(0))]);
            }
        }
        if jumps {
            for (i, name) in ["from", "over", "to"].into_iter().enumerate() {
                fields.push((name, Field::Name(i)));
            }
            if grid {
                fields.extend([
                    ("from-row", Field::Row(0)),
                    ("from-col", Field::Col(0)),
                    ("over-row", Field::Row(1)),
                    ("over-col", Field::Col(1)),
                    ("to-row", Field::Row(2)),
                    ("to-col", Field::Col(2)),
                ]);
            }
        }
        let move_line = spec
            .move_line
            .as_ref()
            .map(|t| template(src, "move", t, &fields))
            .transpose()?;
        Ok(BatchFormat {
            header: spec.header,
            impossible: one_line(src, "impossible", &spec.impossible)?,
            size,
            separated,
            shape_per_case,
            marks,
            answer,
            title,
            between,
            move_line,
            tie_break,
        })
    }
}
