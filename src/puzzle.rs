//! The validated puzzle: board, symbols, move rules and goal, checked against the file.
//!
//! Everything that can be wrong with a puzzle file is found here, with the
//! file, line and column; a [`Puzzle`] that exists compiles and solves
//! without panicking.

use std::ops::Range;

use crate::bits::Bits;
use crate::board::{Board, Dir};
use crate::error::{Error, Result};
use crate::io::board::{ReadBoard, read_slashed, read_tokens};
use crate::overrides::Override;
use crate::spec::{BoardSpec, GoalSpec, Header, MoveSpec, Spec, SymbolsSpec};
use crate::symbols::Symbols;
use toml::Spanned;

/// The most positions a bounding grid may have (rows × cols): 2^27, room for
/// a 10,000 x 10,000 board.
pub const MAX_GRID: usize = 1 << 27;

/// The most cells a puzzle may have for its moves to be listed (compiled):
/// 2^22. Larger boards are solved by light chasing only.
pub const MAX_LISTED: usize = 1 << 22;

/// The largest offset or direction component a move rule may use.
const MAX_OFFSET: i64 = 1 << 20;

/// A move rule, as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRule {
    /// Pressing a cell toggles the cells at these offsets from it.
    Toggle(Vec<Dir>),
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
}

/// The judge's batch format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchFormat {
    /// What precedes the boards.
    pub header: Header,
    /// The answer for a board whose target cannot be reached.
    pub impossible: String,
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
    /// The declared start position, if any.
    pub start: Option<Bits>,
    /// The batch format.
    pub batch: BatchFormat,
}

/// Where errors point: a file name and its text.
struct Src<'a> {
    file: &'a str,
    text: &'a str,
}

impl Src<'_> {
    fn err(&self, span: Range<usize>, message: impl Into<String>) -> Error {
        self.err_at(span.start, message)
    }

    fn err_at(&self, at: usize, message: impl Into<String>) -> Error {
        Error::input(self.file, self.text, at, message)
    }
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
        let src = Src { file, text };
        let spec: Spec = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            Error::input(file, text, at, e.message().trim_end().to_string())
        })?;
        let board = build_board(&src, &spec.board)?;
        let symbols = build_symbols(&src, &spec.symbols)?;
        if spec.moves.get_ref().is_empty() {
            return Err(src.err(spec.moves.span(), "give at least one [[moves]] rule"));
        }
        let rules = spec
            .moves
            .get_ref()
            .iter()
            .map(|m| build_rule(&src, m))
            .collect::<Result<Vec<_>>>()?;
        let mut puzzle = Puzzle {
            name: spec.name,
            about: spec.about,
            board,
            symbols,
            rules,
            goal: GoalRule::FewestPieces,
            start: None,
            batch: BatchFormat {
                header: spec.batch.header,
                impossible: spec.batch.impossible,
            },
        };
        puzzle.goal = puzzle.build_goal(&src, &spec.goal)?;
        if let Some(start) = &spec.start {
            puzzle.start = Some(puzzle.read_spanned(&src, start)?);
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
        let (edited, placed) = crate::overrides::apply(text, overrides)?;
        Puzzle::parse(&edited, file).map_err(|e| crate::overrides::relocate(e, &edited, &placed))
    }

    /// Reads a board written with rows joined by `/`, or the words `all-on`
    /// and `all-off`; `file` names it in errors.
    pub fn read_board(&self, text: &str, file: &str) -> Result<ReadBoard> {
        if let Some(state) = self.keyword(text) {
            return Ok(ReadBoard {
                state,
                warnings: Vec::new(),
            });
        }
        read_slashed(text, 0, &self.board, &self.symbols, file, text)
    }

    /// The board named by `all-on` or `all-off`.
    fn keyword(&self, text: &str) -> Option<Bits> {
        match text {
            "all-on" => Some(Bits::ones(self.board.cells())),
            "all-off" => Some(Bits::zeros(self.board.cells())),
            _ => None,
        }
    }

    /// Reads a board written one row per line (or per whitespace-separated token).
    pub fn read_board_lines(&self, text: &str, file: &str) -> Result<ReadBoard> {
        read_tokens(text, &self.board, &self.symbols, file)
    }

    /// Writes a state as board text, rows joined by `/`.
    pub fn board_text(&self, state: &Bits) -> String {
        crate::io::board::write_board(state, &self.board, &self.symbols, "/")
    }

    /// Compiles the puzzle into move lists. Refused past [`MAX_LISTED`]
    /// cells: such boards are solved by light chasing a toggle stencil
    /// ([`crate::solve::solve_grid`]), which needs no move lists.
    pub fn compile(&self) -> Result<crate::Program> {
        let cells = self.board.cells();
        if cells > MAX_LISTED {
            return Err(Error::Limit {
                what: "the number of cells".into(),
                name: "listed-moves cells",
                value: cells as u128,
                limit: MAX_LISTED as u128,
                hint: "past it pegflip lists no moves: only `solve` and `analyze` work, on \
                       rectangles with one toggle stencil that light chasing applies to"
                    .into(),
            });
        }
        Ok(crate::compile::compile(self))
    }

    fn read_spanned(&self, src: &Src, text: &Spanned<String>) -> Result<Bits> {
        if let Some(state) = self.keyword(text.get_ref()) {
            return Ok(state);
        }
        // The span covers the quotes; the text starts one byte in.
        let offset = text.span().start + 1;
        let read = read_slashed(
            text.get_ref(),
            offset,
            &self.board,
            &self.symbols,
            src.file,
            src.text,
        )?;
        if let Some(w) = read.warnings.into_iter().next() {
            return Err(Error::Input(Box::new(crate::Diagnostic {
                severity: crate::error::Severity::Error,
                message: w.message.replace("dropped", "found"),
                ..w
            })));
        }
        Ok(read.state)
    }

    fn build_goal(&self, src: &Src, goal: &Spanned<GoalSpec>) -> Result<GoalRule> {
        let g = goal.get_ref();
        let given = [g.target.is_some(), g.any.is_some(), g.fewest.is_some()];
        if given.iter().filter(|&&b| b).count() != 1 {
            return Err(src.err(
                goal.span(),
                "[goal] takes exactly one of `target`, `any` or `fewest`",
            ));
        }
        if let Some(fewest) = &g.fewest {
            if fewest.get_ref() != "pieces" {
                return Err(src.err(fewest.span(), "expected `fewest = \"pieces\"`"));
            }
            return Ok(GoalRule::FewestPieces);
        }
        let targets: Vec<&Spanned<String>> = match (&g.target, &g.any) {
            (Some(t), _) => vec![t],
            (_, Some(any)) if any.get_ref().is_empty() => {
                return Err(src.err(any.span(), "`any` needs at least one target"));
            }
            (_, Some(any)) => any.get_ref().iter().collect(),
            _ => unreachable!("exactly one goal key is set"),
        };
        targets
            .into_iter()
            .map(|t| Ok((t.get_ref().clone(), self.read_spanned(src, t)?)))
            .collect::<Result<Vec<_>>>()
            .map(GoalRule::Targets)
    }
}

fn build_board(src: &Src, spec: &Spanned<BoardSpec>) -> Result<Board> {
    let b = spec.get_ref();
    let mut mask: Option<Vec<Vec<bool>>> = None;
    if let Some(shape) = &b.shape {
        let mut rows = Vec::new();
        for line in shape.get_ref() {
            let mut row = Vec::new();
            for (i, ch) in line.get_ref().char_indices() {
                row.push(match ch {
                    'o' => true,
                    '.' => false,
                    _ => {
                        return Err(src.err_at(
                            line.span().start + 1 + i,
                            format!(
                                "unexpected '{ch}' in shape: expected 'o' (a cell) or '.' (no cell)"
                            ),
                        ));
                    }
                });
            }
            if let Some(first) = rows.first().map(Vec::len)
                && first != row.len()
            {
                return Err(src.err(
                    line.span(),
                    format!(
                        "shape row has {} positions, the first has {first}",
                        row.len()
                    ),
                ));
            }
            rows.push(row);
        }
        if rows.iter().flatten().all(|&c| !c) {
            return Err(src.err(shape.span(), "the shape has no cell: mark cells with 'o'"));
        }
        mask = Some(rows);
    }
    let shape_dims = mask.as_ref().map(|m| (m.len(), m[0].len()));
    let dim = |value: &Option<Spanned<usize>>, key: &str, from_shape: Option<usize>| match (
        value, from_shape,
    ) {
        (Some(v), Some(s)) if *v.get_ref() != s => Err(src.err(
            v.span(),
            format!(
                "{key} = {} disagrees with the shape, which has {s}",
                v.get_ref()
            ),
        )),
        (Some(v), _) if *v.get_ref() == 0 => {
            Err(src.err(v.span(), format!("{key} must be at least 1")))
        }
        (Some(v), _) => Ok(*v.get_ref()),
        (None, Some(s)) => Ok(s),
        (None, None) => Err(src.err(spec.span(), format!("[board] needs `{key}` (or a `shape`)"))),
    };
    let rows = dim(&b.rows, "rows", shape_dims.map(|d| d.0))?;
    let cols = dim(&b.cols, "cols", shape_dims.map(|d| d.1))?;
    if rows.saturating_mul(cols) > MAX_GRID {
        return Err(src.err(
            spec.span(),
            format!(
                "the grid has {rows} x {cols} positions, past the limit grid-positions = {MAX_GRID}"
            ),
        ));
    }
    Ok(match mask {
        Some(m) => Board::grid(rows, cols, b.wrap, |r, c| m[r][c]),
        None => Board::rectangle(rows, cols, b.wrap),
    })
}

fn build_symbols(src: &Src, spec: &SymbolsSpec) -> Result<Symbols> {
    let one =
        |s: &Option<Spanned<String>>, default: char, key: &str| -> Result<(char, Range<usize>)> {
            let Some(s) = s else {
                return Ok((default, 0..0));
            };
            let mut chars = s.get_ref().chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if !c.is_whitespace() && c != '/' => Ok((c, s.span())),
                _ => Err(src.err(
                    s.span(),
                    format!("`{key}` must be one character, not whitespace and not '/'"),
                )),
            }
        };
    let (on, _) = one(&spec.on, 'o', "on")?;
    let (off, off_span) = one(&spec.off, '-', "off")?;
    let (gap, gap_span) = one(&spec.gap, '.', "gap")?;
    let same =
        |a: char, b: char| a == b || (spec.ignore_case && a.to_lowercase().eq(b.to_lowercase()));
    if same(on, off) {
        return Err(src.err(
            off_span,
            format!("`on` '{on}' and `off` '{off}' are the same symbol"),
        ));
    }
    if same(gap, on) || same(gap, off) {
        return Err(src.err(
            gap_span,
            format!("`gap` '{gap}' is also used for a cell: set a different `gap`"),
        ));
    }
    Ok(Symbols::new(on, off, gap, spec.ignore_case))
}

fn build_rule(src: &Src, spec: &Spanned<MoveSpec>) -> Result<MoveRule> {
    let m = spec.get_ref();
    let given = [
        m.toggle.is_some(),
        m.offsets.is_some(),
        m.jump.is_some(),
        m.directions.is_some(),
    ];
    if given.iter().filter(|&&b| b).count() != 1 {
        return Err(src.err(
            spec.span(),
            "each [[moves]] rule takes exactly one of `toggle`, `offsets`, `jump` or `directions`",
        ));
    }
    let d = |dr, dc| Dir { dr, dc };
    if let Some(name) = &m.toggle {
        let offsets = match name.get_ref().as_str() {
            "self" => vec![d(0, 0)],
            "plus" => vec![d(0, 0), d(-1, 0), d(1, 0), d(0, -1), d(0, 1)],
            "x" => vec![d(0, 0), d(-1, -1), d(-1, 1), d(1, -1), d(1, 1)],
            "square" => (-1..=1)
                .flat_map(|r| (-1..=1).map(move |c| d(r, c)))
                .collect(),
            "knight" => vec![
                d(-2, -1),
                d(-2, 1),
                d(-1, -2),
                d(-1, 2),
                d(1, -2),
                d(1, 2),
                d(2, -1),
                d(2, 1),
            ],
            other => {
                return Err(src.err(
                    name.span(),
                    format!(
                        "unknown toggle preset '{other}': expected self, plus, x, square or knight"
                    ),
                ));
            }
        };
        return Ok(MoveRule::Toggle(offsets));
    }
    if let Some(name) = &m.jump {
        let ortho = vec![d(-1, 0), d(1, 0), d(0, -1), d(0, 1)];
        let diag = vec![d(-1, -1), d(-1, 1), d(1, -1), d(1, 1)];
        let dirs = match name.get_ref().as_str() {
            "orthogonal" => ortho,
            "diagonal" => diag,
            "all" => Dir::KING.to_vec(),
            other => {
                return Err(src.err(
                    name.span(),
                    format!("unknown jump preset '{other}': expected orthogonal, diagonal or all"),
                ));
            }
        };
        return Ok(MoveRule::Jump(dirs));
    }
    let (list, is_jump) = match (&m.offsets, &m.directions) {
        (Some(list), _) => (list, false),
        (_, Some(list)) => (list, true),
        _ => unreachable!("exactly one move key is set"),
    };
    if list.get_ref().is_empty() {
        return Err(src.err(
            list.span(),
            "the list is empty: give at least one [row, col]",
        ));
    }
    let mut dirs: Vec<Dir> = Vec::new();
    for item in list.get_ref() {
        let [dr, dc] = *item.get_ref();
        let dir = d(dr, dc);
        if is_jump && (dr.abs() > 1 || dc.abs() > 1 || (dr, dc) == (0, 0)) {
            return Err(src.err(
                item.span(),
                "a jump direction is one step to a neighbour: row and col in -1..=1, not both 0",
            ));
        }
        if dr.abs() > MAX_OFFSET || dc.abs() > MAX_OFFSET {
            return Err(src.err(
                item.span(),
                format!("offset [{dr}, {dc}] is past the limit offset-range = ±{MAX_OFFSET}"),
            ));
        }
        if dirs.contains(&dir) {
            return Err(src.err(item.span(), format!("[{dr}, {dc}] is listed twice")));
        }
        dirs.push(dir);
    }
    Ok(if is_jump {
        MoveRule::Jump(dirs)
    } else {
        MoveRule::Toggle(dirs)
    })
}
