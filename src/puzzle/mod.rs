//! The validated puzzle: board, symbols, move rules and goal, checked against the file.
//!
//! Everything that can be wrong with a puzzle file is found here, with the
//! file, line and column; a [`Puzzle`] that exists compiles and solves
//! without panicking.

mod colours;
mod judge;
mod lower;
mod rules;
mod words;

pub use judge::{AnswerKind, BatchFormat, Field, Piece, Size, Template, TieBreak};

use std::ops::Range;

use crate::bits::Bits;
use crate::board::{Board, CellId, Dir};
use crate::error::{Error, Result};
use crate::io::board::{ReadBoard, read_slashed, read_tokens};
use crate::limits::Limits;
use crate::overrides::Override;
use crate::spec::Spec;
use crate::symbols::Symbols;

/// A condition on the pressed cell for a toggle to be allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Guard {
    /// Always allowed.
    #[default]
    Always,
    /// Only on a set (lit) cell: the "lit-only" games.
    On,
    /// Only on a clear cell.
    Off,
}

/// A move rule, as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRule {
    /// Pressing a cell toggles the cells at these offsets from it.
    Toggle {
        /// Grid offsets from the pressed cell.
        offsets: Vec<Dir>,
        /// How many colours each offset's cell advances, in `1..k`; all 1 on
        /// a two-colour puzzle.
        amounts: Vec<u64>,
        /// When a press is allowed.
        guard: Guard,
    },
    /// Pressing a cell toggles its neighbours ([`Board::adjacent`]), and
    /// itself too when `closed`: the σ+ game (closed) and the σ game (open).
    Adjacent {
        /// Whether the pressed cell toggles too.
        closed: bool,
        /// How many colours the pressed cell (when `closed`) and each
        /// neighbour advance, in `1..k`; `[1, 1]` on a two-colour puzzle.
        amounts: [u64; 2],
        /// When a press is allowed.
        guard: Guard,
    },
    /// Pressing one cell toggles its own pattern, as in Merlin's Magic Square.
    Press {
        /// The pressed cell.
        cell: CellId,
        /// The cells it toggles, ascending.
        flips: Vec<CellId>,
        /// How many colours each of `flips` advances, in `1..k`; all 1 on a
        /// two-colour puzzle.
        amounts: Vec<u64>,
        /// When the press is allowed.
        guard: Guard,
    },
    /// A piece jumps along one of these directions over a piece into an empty cell.
    Jump(Vec<Dir>),
}

/// What counts as solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalRule {
    /// Reach any of these states; each with the words it was given in.
    Targets(Vec<(String, Bits)>),
    /// Leave as few pieces as possible.
    FewestPieces,
    /// On a puzzle of more than two colours: reach any of these boards,
    /// each cell's colour in cell order; each with the words it was given in.
    Colours(Vec<(String, Vec<u64>)>),
}

/// A puzzle that passed validation.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Display name.
    pub name: String,
    /// One line on what the puzzle is.
    pub about: String,
    /// The board.
    pub board: Board,
    /// How board text is written.
    pub symbols: Symbols,
    /// The move rules, in file order.
    pub rules: Vec<MoveRule>,
    /// The goal.
    pub goal: GoalRule,
    /// The declared start position, if any (two colours).
    pub start: Option<Bits>,
    /// The declared start position of a puzzle of more than two colours,
    /// each cell's colour in cell order.
    pub start_colours: Option<Vec<u64>>,
    /// The batch format.
    pub batch: BatchFormat,
    /// The limits in force: the defaults, then the file's `[limits]` table.
    pub limits: Limits,
    /// How solutions are counted.
    pub metric: Metric,
    /// The lower bounds that prune a fewest-moves search.
    pub bounds: Bounds,
    /// The file name and the text this puzzle was parsed from, for the
    /// variants that batch cases of other sizes and shapes need.
    source: std::sync::Arc<(String, String)>,
}

/// The lower bounds a fewest-moves search prunes with (the `bounds` key);
/// each is proved, so any choice gives the same answer, only more or less
/// quickly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Merson regions: each full region the far end does not fill takes a
    /// move of its own.
    pub regions: bool,
    /// Peg types: a type that must lose pegs demands a move by a type that
    /// can jump it.
    pub types: bool,
    /// Pagoda functions: weights no jump increases, which cut off positions
    /// that cannot reach the other end at all.
    pub pagoda: bool,
    /// The frontier: the regions and the peg types bound each side toward
    /// the other side's last level rather than its far end; the targets
    /// share forward levels that some target's own bound keeps, or, where
    /// those do not fit in `max-memory`, are searched one at a time. Not in
    /// the default set.
    pub frontier: bool,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            regions: true,
            types: true,
            pagoda: true,
            frontier: false,
        }
    }
}

impl Bounds {
    /// The bounds' names in a puzzle file, in order.
    pub const NAMES: [&'static str; 4] = ["regions", "types", "pagoda", "frontier"];
}

/// How the length of a solution is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Metric {
    /// Every move counts once: each press, each jump.
    #[default]
    Jumps,
    /// A chain of consecutive jumps by one piece counts as one move, as peg
    /// players count (jump puzzles only).
    Moves,
}

impl Metric {
    /// The metric's name in a puzzle file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Jumps => "jumps",
            Metric::Moves => "moves",
        }
    }
}

/// Where errors point: a file name and its text; and the limits to check.
struct Src<'a> {
    file: &'a str,
    text: &'a str,
    limits: Limits,
}

impl Src<'_> {
    pub(super) fn err(&self, span: Range<usize>, message: impl Into<String>) -> Error {
        self.err_at(span.start, message)
    }

    pub(super) fn err_at(&self, at: usize, message: impl Into<String>) -> Error {
        Error::input(self.file, self.text, at, message)
    }
}

/// serde's words for a number out of a count's range, or a number where
/// text is expected (a cell named by a number, unquoted), said plainly; other
/// messages as they are.
fn plain(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: integer `")
        && message.ends_with("expected a string")
        && let Some((number, _)) = rest.split_once('`')
    {
        return format!(
            "{number} is a number where text is expected: write it in quotes, \"{number}\""
        );
    }
    for (prefix, what) in [
        (
            "invalid value: integer `",
            "is not a count: expected a whole number from 0",
        ),
        (
            "invalid type: integer `",
            "is past the largest count, 2^64 - 1",
        ),
    ] {
        if let Some(rest) = message.strip_prefix(prefix)
            && message.ends_with("expected usize")
            && let Some((number, _)) = rest.split_once('`')
        {
            return format!("{number} {what}");
        }
    }
    message.to_string()
}

impl Puzzle {
    /// Parses and validates puzzle text; `file` names it in error messages.
    ///
    /// ```
    /// let text = r#"
    /// name = "Tiny lights out"
    /// [board]
    /// rows = 2
    /// cols = 2
    /// [[moves]]
    /// toggle = "plus"
    /// [goal]
    /// target = "all-off"
    /// "#;
    /// let puzzle = pegflip::Puzzle::parse(text, "tiny.toml").unwrap();
    /// assert_eq!(puzzle.board.cells(), 4);
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<Puzzle> {
        Puzzle::parse_in(text, file, None)
    }

    /// [`Puzzle::parse`] with every limit at most `ceiling`'s, whatever the
    /// file's `[limits]` ask for, from the first check on: how a server
    /// reads files it is sent, which may lower its limits but never raise them.
    ///
    /// ```
    /// let text = "name = \"big\"\n[board]\nrows = 20000\ncols = 20000\n[[moves]]\ntoggle = \"plus\"\n\
    ///             [goal]\ntarget = \"all-off\"\n[limits]\ngrid-positions = 1000000000000\n";
    /// let err = pegflip::Puzzle::parse_within(text, "big.toml", &Default::default()).unwrap_err();
    /// assert!(err.to_string().contains("past the limit grid-positions = 134217728"));
    /// ```
    pub fn parse_within(text: &str, file: &str, ceiling: &Limits) -> Result<Puzzle> {
        Puzzle::parse_in(text, file, Some(ceiling))
    }

    fn parse_in(text: &str, file: &str, ceiling: Option<&Limits>) -> Result<Puzzle> {
        let text = text.strip_prefix(crate::io::BOM).unwrap_or(text);
        let spec: Spec = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            Error::input(file, text, at, plain(e.message().trim_end()))
        })?;
        let mut src = Src {
            file,
            text,
            limits: Limits::default(),
        };
        src.limits = lower::build_limits(&src, &spec)?;
        if let Some(ceiling) = ceiling {
            src.limits = src.limits.at_most(ceiling);
        }
        let board = lower::build_board(&src, &spec.board)?;
        let symbols = lower::build_symbols(&src, &spec.symbols)?;
        if spec.moves.get_ref().is_empty() {
            return Err(src.err(spec.moves.span(), "give at least one [[moves]] rule"));
        }
        let mut puzzle = Puzzle {
            name: spec.name,
            about: spec.about,
            board,
            symbols,
            rules: Vec::new(),
            goal: GoalRule::FewestPieces,
            start: None,
            start_colours: None,
            batch: BatchFormat::default(),
            limits: src.limits.clone(),
            metric: Metric::Jumps,
            bounds: Bounds::default(),
            source: std::sync::Arc::new((file.to_string(), text.to_string())),
        };
        for m in spec.moves.get_ref() {
            let rule = puzzle.build_rule(&src, m)?;
            puzzle.rules.push(rule);
        }
        puzzle.goal = puzzle.build_goal(&src, &spec.goal)?;
        if let Some(metric) = &spec.metric {
            puzzle.metric = puzzle.build_metric(&src, metric)?;
        }
        if let Some(bounds) = &spec.bounds {
            puzzle.bounds = puzzle.build_bounds(&src, bounds)?;
        }
        puzzle.batch =
            puzzle.build_batch(&src, &spec.batch, spec.goal.get_ref().one_piece.is_some())?;
        if let Some(start) = &spec.start {
            if puzzle.colours() > 2 {
                puzzle.start_colours = Some(puzzle.read_colours_spanned(&src, start)?);
            } else {
                puzzle.start = Some(puzzle.read_spanned(&src, start)?);
            }
        }
        Ok(puzzle)
    }

    /// Reads a puzzle file from disk.
    pub fn from_file(path: &str) -> Result<Puzzle> {
        Puzzle::from_file_with(path, &[])
    }

    /// Reads a puzzle file from disk and applies `--set` overrides to it.
    pub fn from_file_with(path: &str, overrides: &[Override]) -> Result<Puzzle> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_string(),
            source,
        })?;
        Puzzle::parse_with(&text, path, overrides)
    }

    /// Parses puzzle text after applying `--set` overrides; an error inside
    /// an overridden value points at its `--set` argument.
    pub fn parse_with(text: &str, file: &str, overrides: &[Override]) -> Result<Puzzle> {
        let text = text.strip_prefix(crate::io::BOM).unwrap_or(text);
        let (edited, placed) = crate::overrides::apply(text, overrides)?;
        Puzzle::parse(&edited, file)
            .map_err(|e| crate::overrides::relocate(e, text, &edited, &placed))
    }

    /// Reads a board written with rows joined by `/`, or in words: `all-on`,
    /// `all-off`, `full but CELL, ...`, `empty but CELL, ...` (cells by
    /// name); `file` names it in errors.
    ///
    /// ```
    /// let puzzle = pegflip::Puzzle::from_file("puzzles/english33.toml")?;
    /// let board = puzzle.read_board("full but d4", "<board>")?.state;
    /// assert_eq!(board.count_ones(), 32);
    /// # Ok::<(), pegflip::Error>(())
    /// ```
    pub fn read_board(&self, text: &str, file: &str) -> Result<ReadBoard> {
        let src = Src {
            file,
            text,
            limits: self.limits.clone(),
        };
        if let Some(state) = self.keyword(&src, text, 0) {
            return Ok(ReadBoard {
                state: state?,
                warnings: Vec::new(),
            });
        }
        read_slashed(text, 0, &self.board, &self.symbols, file, text)
    }

    /// Reads a board written one row per line (or per whitespace-separated token).
    pub fn read_board_lines(&self, text: &str, file: &str) -> Result<ReadBoard> {
        read_tokens(text, &self.board, &self.symbols, file)
    }

    /// This puzzle on a `rows` x `cols` grid, with only the positions where
    /// `present` is true as cells when it is given, and no declared start:
    /// the file re-read with its board changed, so every rule and check
    /// applies to the new board as it would to a file that declared it.
    /// With `new_goal` the file's goal is left out, for the caller to set.
    pub(crate) fn variant(
        &self,
        rows: usize,
        cols: usize,
        present: Option<&[bool]>,
        new_goal: bool,
    ) -> Result<Puzzle> {
        let (file, text) = &*self.source;
        let shape = present.map(|p| {
            p.chunks(cols.max(1))
                .map(|row| row.iter().map(|&c| if c { 'o' } else { '.' }).collect())
                .collect()
        });
        let edited = crate::overrides::resized(text, rows, cols, shape, new_goal)
            .ok_or_else(|| Error::Internal("a parsed puzzle is not TOML".into()))?;
        Puzzle::parse(&edited, file)
    }

    /// The `metric` key: `moves` only where every rule is a jump.
    fn build_metric(&self, src: &Src, metric: &toml::Spanned<String>) -> Result<Metric> {
        match metric.get_ref().as_str() {
            "jumps" => Ok(Metric::Jumps),
            "moves" => {
                if self.rules.iter().all(|r| matches!(r, MoveRule::Jump(_))) {
                    Ok(Metric::Moves)
                } else {
                    Err(src.err(
                        metric.span(),
                        "metric \"moves\" counts a chain of jumps by one piece as one move, and \
                         this puzzle has moves that are not jumps: count them with \"jumps\"",
                    ))
                }
            }
            other => Err(src.err(
                metric.span(),
                format!(
                    "unknown metric \"{other}\": expected \"jumps\" (every move counts) or \
                     \"moves\" (a chain of jumps by one piece counts once)"
                ),
            )),
        }
    }

    /// The `bounds` key: distinct names of [`Bounds::NAMES`], only with the
    /// moves metric (the only search they prune).
    fn build_bounds(
        &self,
        src: &Src,
        bounds: &toml::Spanned<Vec<toml::Spanned<String>>>,
    ) -> Result<Bounds> {
        if self.metric != Metric::Moves {
            return Err(src.err(
                bounds.span(),
                "bounds prune the search for the fewest moves: they need metric = \"moves\"",
            ));
        }
        let mut out = Bounds {
            regions: false,
            types: false,
            pagoda: false,
            frontier: false,
        };
        for name in bounds.get_ref() {
            let slot = match name.get_ref().as_str() {
                "regions" => &mut out.regions,
                "types" => &mut out.types,
                "pagoda" => &mut out.pagoda,
                "frontier" => &mut out.frontier,
                other => {
                    return Err(src.err(
                        name.span(),
                        format!(
                            "unknown bound \"{other}\": expected \"regions\" (Merson regions), \
                             \"types\" (peg types), \"pagoda\" (pagoda functions) or \"frontier\" \
                             (regions and types toward the other side's last level)"
                        ),
                    ));
                }
            };
            if *slot {
                return Err(src.err(
                    name.span(),
                    format!("the bound \"{}\" is listed twice", name.get_ref()),
                ));
            }
            *slot = true;
        }
        Ok(out)
    }

    /// Writes a state as board text, rows joined by `/`.
    pub fn board_text(&self, state: &Bits) -> String {
        crate::io::board::write_board(state, &self.board, &self.symbols, "/")
    }
}
