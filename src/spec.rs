//! The puzzle file as written: serde structs mirroring the TOML, with spans kept for errors.
//!
//! Nothing here is checked beyond what serde checks (types, unknown keys);
//! [`crate::puzzle`] turns a [`Spec`] into a validated [`crate::Puzzle`].

use serde::Deserialize;
use toml::Spanned;

/// A whole puzzle file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Display name.
    pub name: String,
    /// One line on what the puzzle is.
    #[serde(default)]
    pub about: String,
    /// The board's cells.
    pub board: Spanned<BoardSpec>,
    /// How cells are written.
    #[serde(default)]
    pub symbols: SymbolsSpec,
    /// The move rules; every rule adds its moves.
    pub moves: Spanned<Vec<Spanned<MoveSpec>>>,
    /// What counts as solved.
    pub goal: Spanned<GoalSpec>,
    /// The declared start position, as board text.
    pub start: Option<Spanned<String>>,
    /// The judge's input and output format.
    #[serde(default)]
    pub batch: BatchSpec,
}

/// `[board]`: a rectangular grid, optionally masked and wrapped.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Number of rows; may be left out when `shape` is given.
    pub rows: Option<Spanned<usize>>,
    /// Number of columns; may be left out when `shape` is given.
    pub cols: Option<Spanned<usize>>,
    /// One string per row: `o` is a cell, `.` is no cell.
    pub shape: Option<Spanned<Vec<Spanned<String>>>>,
    /// Whether the grid wraps around (a torus).
    #[serde(default)]
    pub wrap: bool,
}

/// `[symbols]`: the characters of board text.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymbolsSpec {
    /// A set cell (a piece, a lit light); default `o`.
    pub on: Option<Spanned<String>>,
    /// A clear cell; default `-`.
    pub off: Option<Spanned<String>>,
    /// A position of the bounding grid that is not a cell; default `.`.
    pub gap: Option<Spanned<String>>,
    /// Whether letters match in either case.
    #[serde(default)]
    pub ignore_case: bool,
}

/// One `[[moves]]` rule: exactly one of its four keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveSpec {
    /// A toggle preset: `self`, `plus`, `x`, `square`, `knight`.
    pub toggle: Option<Spanned<String>>,
    /// A toggle by explicit `[row, col]` offsets from the pressed cell.
    pub offsets: Option<Spanned<Vec<Spanned<[i64; 2]>>>>,
    /// A jump preset: `orthogonal`, `diagonal`, `all`.
    pub jump: Option<Spanned<String>>,
    /// Jumps along explicit `[row, col]` unit directions.
    pub directions: Option<Spanned<Vec<Spanned<[i64; 2]>>>>,
}

/// `[goal]`: exactly one of its keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalSpec {
    /// One target: `all-on`, `all-off`, or board text.
    pub target: Option<Spanned<String>>,
    /// Any of several targets.
    pub any: Option<Spanned<Vec<Spanned<String>>>>,
    /// An objective instead of a target: `pieces`.
    pub fewest: Option<Spanned<String>>,
}

/// `[batch]`: how the judge writes boards and answers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchSpec {
    /// What comes before the boards.
    #[serde(default)]
    pub header: Header,
    /// The answer printed when a target cannot be reached.
    #[serde(default = "default_impossible")]
    pub impossible: String,
}

impl Default for BatchSpec {
    fn default() -> Self {
        BatchSpec {
            header: Header::None,
            impossible: default_impossible(),
        }
    }
}

fn default_impossible() -> String {
    "Impossible".to_string()
}

/// What batch input has before its boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Header {
    /// Nothing: boards follow one another until the end of input.
    #[default]
    None,
    /// A count: the first token says how many boards follow.
    Count,
}
