//! The puzzle file as written: serde structs mirroring the TOML, with spans kept for errors.
//!
//! Nothing here is checked beyond what serde checks (types, unknown keys);
//! [`crate::puzzle`] turns a [`Spec`] into a validated [`crate::Puzzle`].

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
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
    /// How solutions are counted: `jumps` (each jump) or `moves` (a chain of
    /// jumps by one piece counts once).
    pub metric: Option<Spanned<String>>,
    /// The lower bounds that prune a fewest-moves search: any of `regions`,
    /// `types` and `pagoda` (all three when left out).
    pub bounds: Option<Spanned<Vec<Spanned<String>>>>,
    /// The judge's input and output format.
    #[serde(default)]
    pub batch: BatchSpec,
    /// Limits on the engines' work, by name ([`crate::limits::Limits`]).
    #[serde(default)]
    pub limits: std::collections::BTreeMap<Spanned<String>, Spanned<Amount>>,
}

/// A limit's value as written: a count, or text such as `100M` or `2^25`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    /// A plain number.
    Count(i64),
    /// A number with a unit, or a power of two.
    Text(String),
}

/// `[board]`: a grid (rectangular, optionally masked and wrapped, on a
/// square or triangular lattice) or a graph given by nodes and edges.
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
    /// `square` (the default) or `triangular`.
    pub lattice: Option<Spanned<String>>,
    /// A graph board's nodes: a count, or a list of names.
    pub nodes: Option<Spanned<Nodes>>,
    /// A graph board's edges: pairs of node names or 0-based numbers.
    pub edges: Option<Spanned<Vec<Edge>>>,
    /// Cell names: `chess` (column letter, row number from the top),
    /// `numbers` (1, 2, ... in cell order) or a list, one per cell.
    pub names: Option<Spanned<Names>>,
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
    /// The k colours of a cell in cycle order, one character each: a press
    /// advances a cell along this list. Replaces `on` and `off` (which are
    /// `states = [off, on]`).
    pub states: Option<Spanned<Vec<Spanned<String>>>>,
    /// Whether letters match in either case.
    #[serde(default)]
    pub ignore_case: bool,
}

/// One `[[moves]]` rule: exactly one of `toggle`, `offsets`, `press`,
/// `jump` and `directions`, with `flips` going with `press` and an optional
/// `when` guard on toggles.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveSpec {
    /// A toggle preset: `self`, `plus`, `x`, `square`, `knight`,
    /// `row-and-column`, `open`, `closed`.
    pub toggle: Option<Spanned<String>>,
    /// One pressed cell (by name) with its own pattern, given in `flips`.
    pub press: Option<Spanned<String>>,
    /// The cells a `press` toggles, as board text.
    pub flips: Option<Spanned<String>>,
    /// A guard on toggles: `on` (the pressed cell must be lit) or `off`.
    pub when: Option<Spanned<String>>,
    /// A toggle by explicit `[row, col]` offsets from the pressed cell, or
    /// `[row, col, amount]` to advance that cell by `amount` colours.
    pub offsets: Option<Spanned<Vec<Spanned<Vec<i64>>>>>,
    /// How many colours a toggle advances each cell of its pattern; default 1.
    pub amount: Option<Spanned<i64>>,
    /// How many colours a toggle advances the pressed cell itself; default `amount`.
    pub centre: Option<Spanned<i64>>,
    /// A jump preset: `orthogonal`, `diagonal`, `all`.
    pub jump: Option<Spanned<String>>,
    /// Jumps along explicit `[row, col]` unit directions.
    pub directions: Option<Spanned<Vec<Spanned<Vec<i64>>>>>,
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
    /// One piece left: `anywhere`, or the name of its cell.
    #[serde(rename = "one-piece")]
    pub one_piece: Option<Spanned<String>>,
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
    pub impossible: Spanned<String>,
    /// What each case begins with: `none`, `rows cols`, `cols rows` or `side`.
    pub size: Option<Spanned<String>>,
    /// How a row is written: `packed` (one word a row) or `separated` (one word a cell).
    pub cells: Option<Spanned<String>>,
    /// `fixed`, or `per-case`: gap symbols in a case's board remove those cells for that case.
    pub shape: Option<Spanned<String>>,
    /// A symbol that holds a piece and marks the one-piece goal cell of its case.
    #[serde(rename = "mark-on")]
    pub mark_on: Option<Spanned<String>>,
    /// A symbol that is an empty cell and marks the one-piece goal cell of its case.
    #[serde(rename = "mark-off")]
    pub mark_off: Option<Spanned<String>>,
    /// What each answer is: `count`, `presses` (the press matrix) or `moves` (one line each).
    pub answer: Option<Spanned<String>>,
    /// A line written before each answer; `{case}` is the case number from 1.
    pub title: Option<Spanned<String>>,
    /// A line written between answers.
    pub between: Option<Spanned<String>>,
    /// The line written for each move of a `moves` answer, with placeholders.
    #[serde(rename = "move")]
    pub move_line: Option<Spanned<String>>,
    /// How to choose among optimal answers: `any` or `lexicographic`.
    #[serde(rename = "tie-break")]
    pub tie_break: Option<Spanned<String>>,
}

impl Default for BatchSpec {
    fn default() -> Self {
        BatchSpec {
            header: Header::None,
            impossible: default_impossible(),
            size: None,
            cells: None,
            shape: None,
            mark_on: None,
            mark_off: None,
            answer: None,
            title: None,
            between: None,
            move_line: None,
            tie_break: None,
        }
    }
}

fn default_impossible() -> Spanned<String> {
    Spanned::new(0..0, default_impossible_text())
}

fn default_impossible_text() -> String {
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

/// One edge as written: its two ends (checked to be two).
pub type Edge = Spanned<Vec<Spanned<NodeRef>>>;

/// `nodes`: how many, or their names.
#[derive(Debug)]
pub enum Nodes {
    /// This many nodes, numbered from 0.
    Count(i64),
    /// One node per name, in order.
    Named(Vec<Spanned<String>>),
}

/// `names`: a naming scheme or an explicit list.
#[derive(Debug)]
pub enum Names {
    /// `chess` or `numbers`.
    Scheme(String),
    /// One name per cell, in cell order.
    List(Vec<Spanned<String>>),
}

/// One end of an edge: a node's name or its 0-based number.
#[derive(Debug, Clone)]
pub enum NodeRef {
    /// A node number.
    Index(i64),
    /// A node name.
    Name(String),
}

impl<'de> Deserialize<'de> for Nodes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Nodes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of nodes or a list of node names")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Nodes, E> {
                Ok(Nodes::Count(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Nodes, E> {
                Ok(Nodes::Count(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Nodes, A::Error> {
                strings(seq).map(Nodes::Named)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Names {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Names;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("\"chess\", \"numbers\" or a list of names, one per cell")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Names, E> {
                Ok(Names::Scheme(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Names, A::Error> {
                strings(seq).map(Names::List)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for NodeRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NodeRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a node name or number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<NodeRef, E> {
                Ok(NodeRef::Index(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<NodeRef, E> {
                Ok(NodeRef::Index(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<NodeRef, E> {
                Ok(NodeRef::Name(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

fn strings<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<Spanned<String>>, A::Error> {
    let mut out = Vec::new();
    while let Some(s) = seq.next_element::<Spanned<String>>()? {
        out.push(s);
    }
    Ok(out)
}
