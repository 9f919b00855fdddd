//! The validated puzzle: board, symbols, move rules and goal, checked against the file.
//!
//! Everything that can be wrong with a puzzle file is found here, with the
//! file, line and column; a [`Puzzle`] that exists compiles and solves
//! without panicking.

use std::ops::Range;

use crate::bits::Bits;
use crate::board::{Board, CellId, Dir, Lattice};
use crate::error::{Error, Result};
use crate::io::board::{ReadBoard, read_slashed, read_tokens};
use crate::limits::Limits;
use crate::overrides::Override;
use crate::spec::Amount;
use crate::spec::{
    BoardSpec, GoalSpec, Header, MoveSpec, Names, NodeRef, Nodes, Spec, SymbolsSpec,
};
use crate::symbols::Symbols;
use toml::Spanned;

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
        /// When a press is allowed.
        guard: Guard,
    },
    /// Pressing a cell toggles its neighbours ([`Board::adjacent`]), and
    /// itself too when `closed`: the σ+ game (closed) and the σ game (open).
    Adjacent {
        /// Whether the pressed cell toggles too.
        closed: bool,
        /// When a press is allowed.
        guard: Guard,
    },
    /// Pressing one cell toggles its own pattern, as in Merlin's Magic Square.
    Press {
        /// The pressed cell.
        cell: CellId,
        /// The cells it toggles, ascending.
        flips: Vec<CellId>,
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
    /// The limits in force: the defaults, then the file's `[limits]` table.
    pub limits: Limits,
}

/// Where errors point: a file name and its text; and the limits to check.
struct Src<'a> {
    file: &'a str,
    text: &'a str,
    limits: Limits,
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
        let spec: Spec = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            Error::input(file, text, at, e.message().trim_end().to_string())
        })?;
        let mut src = Src {
            file,
            text,
            limits: Limits::default(),
        };
        src.limits = build_limits(&src, &spec)?;
        let board = build_board(&src, &spec.board)?;
        let symbols = build_symbols(&src, &spec.symbols)?;
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
            batch: BatchFormat {
                header: spec.batch.header,
                impossible: build_impossible(&src, &spec.batch.impossible)?,
            },
            limits: src.limits.clone(),
        };
        for m in spec.moves.get_ref() {
            let rule = puzzle.build_rule(&src, m)?;
            puzzle.rules.push(rule);
        }
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

    /// The board named by `all-on`, `all-off`, `full but CELLS` or `empty but
    /// CELLS`; `at` is the offset of `text` in `src`.
    fn keyword(&self, src: &Src, text: &str, at: usize) -> Option<Result<Bits>> {
        let n = self.board.cells();
        let (full, rest, word_len) = match text {
            "all-on" => return Some(Ok(Bits::ones(n))),
            "all-off" => return Some(Ok(Bits::zeros(n))),
            _ => {
                if let Some(rest) = text.strip_prefix("full but ") {
                    (true, rest, "full but ".len())
                } else if let Some(rest) = text.strip_prefix("empty but ") {
                    (false, rest, "empty but ".len())
                } else {
                    return None;
                }
            }
        };
        let mut state = if full { Bits::ones(n) } else { Bits::zeros(n) };
        let mut offset = at + word_len;
        for part in rest.split(',') {
            let lead = part.len() - part.trim_start().len();
            let name = part.trim();
            let cell = match self.cell_named(src, name, offset + lead) {
                Ok(cell) => cell,
                Err(e) => return Some(Err(e)),
            };
            state.set(cell.0, !full);
            offset += part.len() + 1;
        }
        Some(Ok(state))
    }

    /// The cell called `name`; `at` is where the name starts in `src`.
    fn cell_named(&self, src: &Src, name: &str, at: usize) -> Result<CellId> {
        if let Some(cell) = self.board.find(name) {
            return Ok(cell);
        }
        if !self.board.has_names() {
            return Err(src.err_at(
                at,
                format!(
                    "cell '{name}': this puzzle names no cells; add `names = \"chess\"` (or \
                     \"numbers\", or a list) to [board]"
                ),
            ));
        }
        let first = self.board.name(CellId(0)).unwrap_or_default();
        let last = self
            .board
            .name(CellId(self.board.cells() - 1))
            .unwrap_or_default();
        Err(src.err_at(
            at,
            format!("no cell is named '{name}': the cells are named {first} ... {last}"),
        ))
    }

    /// Reads a board written one row per line (or per whitespace-separated token).
    pub fn read_board_lines(&self, text: &str, file: &str) -> Result<ReadBoard> {
        read_tokens(text, &self.board, &self.symbols, file)
    }

    /// Writes a state as board text, rows joined by `/`.
    pub fn board_text(&self, state: &Bits) -> String {
        crate::io::board::write_board(state, &self.board, &self.symbols, "/")
    }

    fn read_spanned(&self, src: &Src, text: &Spanned<String>) -> Result<Bits> {
        // The span covers the quotes; the text starts one byte in.
        let offset = text.span().start + 1;
        if let Some(state) = self.keyword(src, text.get_ref(), offset) {
            return state;
        }
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
        let given = [
            g.target.is_some(),
            g.any.is_some(),
            g.fewest.is_some(),
            g.one_piece.is_some(),
        ];
        if given.iter().filter(|&&b| b).count() != 1 {
            return Err(src.err(
                goal.span(),
                "[goal] takes exactly one of `target`, `any`, `fewest` or `one-piece`",
            ));
        }
        if let Some(t) = &g.target
            && t.get_ref() == "all-same"
        {
            let n = self.board.cells();
            return Ok(GoalRule::Targets(vec![
                ("all-on".into(), Bits::ones(n)),
                ("all-off".into(), Bits::zeros(n)),
            ]));
        }
        if let Some(one) = &g.one_piece {
            let n = self.board.cells();
            let single = |cell: CellId| {
                let mut b = Bits::zeros(n);
                b.set(cell.0, true);
                (format!("one piece at {}", self.board.label(cell)), b)
            };
            if one.get_ref() == "anywhere" {
                if n as u128 * n as u128 > u128::from(src.limits.goal_bits) {
                    return Err(src.err(
                        one.span(),
                        format!(
                            "one piece anywhere makes {n} targets of {n} cells, past the limit \
                             goal-bits = {}",
                            src.limits.goal_bits
                        ),
                    ));
                }
                return Ok(GoalRule::Targets(
                    (0..n).map(|c| single(CellId(c))).collect(),
                ));
            }
            let cell = self.cell_named(src, one.get_ref(), one.span().start + 1)?;
            return Ok(GoalRule::Targets(vec![single(cell)]));
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

    fn build_rule(&self, src: &Src, spec: &Spanned<MoveSpec>) -> Result<MoveRule> {
        let m = spec.get_ref();
        let given = [
            m.toggle.is_some(),
            m.offsets.is_some(),
            m.press.is_some(),
            m.jump.is_some(),
            m.directions.is_some(),
        ];
        if given.iter().filter(|&&b| b).count() != 1 {
            return Err(src.err(
                spec.span(),
                "each [[moves]] rule takes exactly one of `toggle`, `offsets`, `press`, `jump` \
                 or `directions`",
            ));
        }
        if let (Some(flips), None) = (&m.flips, &m.press) {
            return Err(src.err(
                flips.span(),
                "`flips` goes with `press`: name the pressed cell",
            ));
        }
        let guard = match &m.when {
            None => Guard::Always,
            Some(w) if m.jump.is_some() || m.directions.is_some() => {
                return Err(src.err(
                    w.span(),
                    "`when` guards toggles; a jump already needs its own cells set and clear",
                ));
            }
            Some(w) => match w.get_ref().as_str() {
                "on" => Guard::On,
                "off" => Guard::Off,
                other => {
                    return Err(src.err(
                        w.span(),
                        format!(
                            "unknown guard '{other}': expected \"on\" (press only a lit cell) or \
                             \"off\""
                        ),
                    ));
                }
            },
        };
        let board = &self.board;
        let graph = board.is_graph();
        let d = |dr, dc| Dir { dr, dc };
        if let Some(cell) = &m.press {
            let Some(flips) = &m.flips else {
                return Err(src.err(
                    spec.span(),
                    "a `press` rule needs `flips`: the board text of the cells it toggles",
                ));
            };
            let cell = self.cell_named(src, cell.get_ref(), cell.span().start + 1)?;
            let flips: Vec<CellId> = self
                .read_spanned(src, flips)?
                .ones_iter()
                .map(CellId)
                .collect();
            if flips.is_empty() {
                return Err(src.err(
                    m.flips.as_ref().map_or(spec.span(), |f| f.span()),
                    "`flips` toggles no cell: mark at least one",
                ));
            }
            return Ok(MoveRule::Press { cell, flips, guard });
        }
        if let Some(name) = &m.toggle {
            let name_str = name.get_ref().as_str();
            if let "open" | "closed" = name_str {
                return Ok(MoveRule::Adjacent {
                    closed: name_str == "closed",
                    guard,
                });
            }
            if graph && name_str != "self" {
                return Err(src.err(
                    name.span(),
                    format!(
                        "toggle '{name_str}' needs a grid; on a graph board a toggle is `open`, \
                         `closed` or `self`, or a per-cell `press`"
                    ),
                ));
            }
            let (rows, cols) = (board.rows() as i64, board.cols() as i64);
            let offsets = match name_str {
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
                "row-and-column" => std::iter::once(d(0, 0))
                    .chain((1..cols).flat_map(|k| [d(0, -k), d(0, k)]))
                    .chain((1..rows).flat_map(|k| [d(-k, 0), d(k, 0)]))
                    .collect(),
                other => {
                    return Err(src.err(
                        name.span(),
                        format!(
                            "unknown toggle preset '{other}': expected self, plus, x, square, \
                             knight, row-and-column, open or closed"
                        ),
                    ));
                }
            };
            return Ok(MoveRule::Toggle { offsets, guard });
        }
        let lattice_steps = board.steps();
        if let Some(name) = &m.jump {
            if graph {
                return Err(src.err(
                    name.span(),
                    "jumps need a grid board: a graph has no lines of three cells to jump along",
                ));
            }
            let dirs = match name.get_ref().as_str() {
                "orthogonal" => Dir::ORTHOGONAL.to_vec(),
                "diagonal" => vec![d(-1, -1), d(-1, 1), d(1, -1), d(1, 1)],
                "all" => Dir::KING.to_vec(),
                "triangular" => Dir::TRIANGULAR.to_vec(),
                other => {
                    return Err(src.err(
                        name.span(),
                        format!(
                            "unknown jump preset '{other}': expected orthogonal, diagonal, all \
                             or triangular"
                        ),
                    ));
                }
            };
            if let Some(bad) = dirs.iter().find(|d| !lattice_steps.contains(d)) {
                return Err(src.err(
                    name.span(),
                    format!(
                        "jump preset '{}' steps [{}, {}], which is not a step of the triangular \
                         lattice: use `jump = \"triangular\"`",
                        name.get_ref(),
                        bad.dr,
                        bad.dc
                    ),
                ));
            }
            return Ok(MoveRule::Jump(dirs));
        }
        let (list, is_jump) = match (&m.offsets, &m.directions) {
            (Some(list), _) => (list, false),
            (_, Some(list)) => (list, true),
            _ => unreachable!("exactly one move key is set"),
        };
        if graph {
            return Err(src.err(
                list.span(),
                "a graph board has no grid offsets: use `toggle = \"open\"` or \"closed\", or \
                 a per-cell `press`",
            ));
        }
        if list.get_ref().is_empty() {
            return Err(src.err(
                list.span(),
                "the list is empty: give at least one [row, col]",
            ));
        }
        let mut dirs: Vec<Dir> = Vec::new();
        let range = src.limits.offset_range;
        for item in list.get_ref() {
            let &[dr, dc] = item.get_ref().as_slice() else {
                return Err(src.err(
                    item.span(),
                    format!(
                        "expected a pair [row, col], found {} numbers",
                        item.get_ref().len()
                    ),
                ));
            };
            if dr.unsigned_abs() > range || dc.unsigned_abs() > range {
                return Err(src.err(
                    item.span(),
                    format!("offset [{dr}, {dc}] is past the limit offset-range = ±{range}"),
                ));
            }
            let dir = d(dr, dc);
            if is_jump && (dr.abs() > 1 || dc.abs() > 1 || (dr, dc) == (0, 0)) {
                return Err(src.err(
                    item.span(),
                    "a jump direction is one step to a neighbour: row and col in -1..=1, not both 0",
                ));
            }
            if is_jump && !lattice_steps.contains(&dir) {
                return Err(src.err(
                    item.span(),
                    format!(
                        "[{dr}, {dc}] is not a step of the triangular lattice: its steps are \
                         [0, ±1], [±1, 0], [1, 1] and [-1, -1]"
                    ),
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
            MoveRule::Toggle {
                offsets: dirs,
                guard,
            }
        })
    }
}

fn build_board(src: &Src, spec: &Spanned<BoardSpec>) -> Result<Board> {
    let b = spec.get_ref();
    let board = if let Some(nodes) = &b.nodes {
        build_graph(src, b, nodes)?
    } else {
        if let Some(edges) = &b.edges {
            return Err(src.err(
                edges.span(),
                "`edges` needs `nodes`: a graph board lists its nodes",
            ));
        }
        let lattice = match b.lattice.as_ref().map(|l| (l, l.get_ref().as_str())) {
            None | Some((_, "square")) => Lattice::Square,
            Some((_, "triangular")) => Lattice::Triangular,
            Some((l, other)) => {
                return Err(src.err(
                    l.span(),
                    format!("unknown lattice '{other}': expected square or triangular"),
                ));
            }
        };
        build_grid(src, spec)?.with_lattice(lattice)
    };
    let Some(names) = &b.names else {
        return Ok(board);
    };
    let list: Vec<String> = match names.get_ref() {
        Names::Scheme(scheme) => match scheme.as_str() {
            "numbers" => (1..=board.cells()).map(|i| i.to_string()).collect(),
            "chess" if board.is_graph() => {
                return Err(src.err(
                    names.span(),
                    "chess names need a grid: name a graph's cells with a list, or in `nodes`",
                ));
            }
            "chess" if board.cols() > 26 => {
                return Err(src.err(
                    names.span(),
                    format!(
                        "chess names give columns the letters a to z, but the board has {} columns",
                        board.cols()
                    ),
                ));
            }
            "chess" => (0..board.cells())
                .map(|c| {
                    let [r, c] = board.coord(CellId(c));
                    format!("{}{}", (b'a' + c as u8) as char, r + 1)
                })
                .collect(),
            other => {
                return Err(src.err(
                    names.span(),
                    format!(
                        "unknown naming '{other}': expected \"chess\", \"numbers\" or a list of \
                         names"
                    ),
                ));
            }
        },
        Names::List(list) => {
            if b.nodes
                .as_ref()
                .is_some_and(|n| matches!(n.get_ref(), Nodes::Named(_)))
            {
                return Err(src.err(names.span(), "the `nodes` list already names the cells"));
            }
            if list.len() != board.cells() {
                return Err(src.err(
                    names.span(),
                    format!(
                        "{} names for {} cells: give one per cell",
                        list.len(),
                        board.cells()
                    ),
                ));
            }
            check_names(src, list)?;
            list.iter().map(|n| n.get_ref().clone()).collect()
        }
    };
    Ok(board.with_names(list))
}

/// Names must be distinct words: not empty, no spaces, no commas.
fn check_names(src: &Src, list: &[Spanned<String>]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for n in list {
        let name = n.get_ref();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ',') {
            return Err(src.err(
                n.span(),
                "a name is one word: not empty, with no spaces or commas",
            ));
        }
        if name == "anywhere" {
            return Err(src.err(
                n.span(),
                "'anywhere' is a keyword of `one-piece`; choose another name",
            ));
        }
        if !seen.insert(name.as_str()) {
            return Err(src.err(n.span(), format!("the name '{name}' is given twice")));
        }
    }
    Ok(())
}

fn build_graph(src: &Src, b: &BoardSpec, nodes: &Spanned<Nodes>) -> Result<Board> {
    for (key, span) in [
        ("rows", b.rows.as_ref().map(|v| v.span())),
        ("cols", b.cols.as_ref().map(|v| v.span())),
        ("shape", b.shape.as_ref().map(|v| v.span())),
        ("lattice", b.lattice.as_ref().map(|v| v.span())),
    ] {
        if let Some(span) = span {
            return Err(src.err(
                span,
                format!("`{key}` describes a grid, but `nodes` makes this a graph board"),
            ));
        }
    }
    if b.wrap {
        return Err(src.err(
            nodes.span(),
            "a graph board cannot wrap: drop `wrap`, add the edges",
        ));
    }
    let (n, names) = match nodes.get_ref() {
        Nodes::Count(n) => (*n, None),
        Nodes::Named(list) => {
            check_names(src, list)?;
            (list.len() as i64, Some(list))
        }
    };
    if n < 1 {
        return Err(src.err(nodes.span(), "a graph board needs at least one node"));
    }
    if n as u128 > u128::from(src.limits.graph_nodes) {
        return Err(src.err(
            nodes.span(),
            format!(
                "{n} nodes is past the limit graph-nodes = {}",
                src.limits.graph_nodes
            ),
        ));
    }
    let n = n as usize;
    let mut edges = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for edge in b.edges.as_ref().map_or(&[][..], |e| e.get_ref().as_slice()) {
        let [a, z] = edge.get_ref().as_slice() else {
            return Err(src.err(
                edge.span(),
                "an edge is a pair of nodes, as [\"a\", \"b\"] or [0, 1]",
            ));
        };
        let node = |r: &Spanned<NodeRef>| -> Result<usize> {
            match (r.get_ref(), names) {
                (NodeRef::Index(i), _) if (0..n as i64).contains(i) => Ok(*i as usize),
                (NodeRef::Index(i), _) => Err(src.err(
                    r.span(),
                    format!("node {i} does not exist: nodes are numbered 0 to {}", n - 1),
                )),
                (NodeRef::Name(name), Some(list)) => list
                    .iter()
                    .position(|l| l.get_ref() == name)
                    .ok_or_else(|| src.err(r.span(), format!("no node is named '{name}'"))),
                (NodeRef::Name(name), None) => Err(src.err(
                    r.span(),
                    format!("no node is named '{name}': `nodes` is a count, so nodes are numbers"),
                )),
            }
        };
        let (a, z) = (node(a)?, node(z)?);
        if a == z {
            return Err(src.err(edge.span(), "an edge joins two different nodes"));
        }
        if !seen.insert((a.min(z), a.max(z))) {
            return Err(src.err(edge.span(), "this edge is listed twice"));
        }
        edges.push((a, z));
    }
    let board = Board::graph_of(n, &edges);
    Ok(match names {
        Some(list) => board.with_names(list.iter().map(|l| l.get_ref().clone()).collect()),
        None => board,
    })
}

fn build_grid(src: &Src, spec: &Spanned<BoardSpec>) -> Result<Board> {
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
    let max = src.limits.grid_positions;
    if rows as u128 * cols as u128 > u128::from(max) {
        return Err(src.err(
            spec.span(),
            format!(
                "the grid has {rows} x {cols} positions, past the limit grid-positions = {max}"
            ),
        ));
    }
    Ok(match mask {
        Some(m) => Board::grid(rows, cols, b.wrap, |r, c| m[r][c]),
        None => Board::rectangle(rows, cols, b.wrap),
    })
}

/// The `[limits]` table over the defaults: every name known, every value a
/// count or a size (`100M`, `2^25`).
fn build_limits(src: &Src, spec: &Spec) -> Result<Limits> {
    let mut limits = Limits::default();
    for (name, value) in &spec.limits {
        let amount = match value.get_ref() {
            Amount::Count(n) => {
                u64::try_from(*n).map_err(|_| format!("expected a count of 0 or more, found {n}"))
            }
            Amount::Text(text) => crate::limits::parse_amount(text),
        }
        .map_err(|m| src.err(value.span(), m))?;
        if !limits.set(name.get_ref(), amount) {
            return Err(src.err(
                name.span(),
                format!(
                    "unknown limit '{}': expected one of {}",
                    name.get_ref(),
                    Limits::NAMES.join(", ")
                ),
            ));
        }
    }
    Ok(limits)
}

/// The batch answer for an impossible board: one line, so that each board's
/// answer stays one line of output.
fn build_impossible(src: &Src, text: &Spanned<String>) -> Result<String> {
    if text.get_ref().contains(['\n', '\r']) {
        return Err(src.err(
            text.span(),
            "`impossible` is one line of output: it cannot contain a line break",
        ));
    }
    Ok(text.get_ref().clone())
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
