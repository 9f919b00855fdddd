//! Judge formats beyond the seeds': a size per case, a cell a word, a shape and goal cell per case, press matrices and move lists.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::rc::Rc;

use super::write::{fill, write_answer};
use crate::bits::Bits;
use crate::engines::linear::Linear;
use crate::engines::linear::first_fewest_presses;
use crate::error::{Diagnostic, Error, Result};
use crate::io::stream::{Pos, Words};
use crate::limits::Limits;
use crate::outcome::Outcome;
use crate::plan::solve_plan;
use crate::program::{Goal, Program};
use crate::puzzle::{BatchFormat, GoalRule, Size, TieBreak};
use crate::query::Preference;
use crate::run::{Prepared, pressed, solve_linear};
use crate::spec::Header;
use crate::symbols::Sym;

/// One cell of a case as written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Written {
    Cell(bool),
    Gap,
    /// A mark: the goal cell, holding a piece or not.
    Mark(bool),
}

/// A case as read: its grid, and where each cell was written.
struct Case {
    rows: usize,
    cols: usize,
    cells: Vec<Written>,
    at: Vec<Pos>,
    /// Where the case begins, for errors about the case as a whole.
    start: Pos,
}

/// A compiled variant of the puzzle, with its plan and, for linear puzzles,
/// its elimination: shared by every case of the same size, shape and goal cell.
struct Variant {
    program: Program,
    solver: Prepared,
}

/// What identifies a variant: size, the present positions (when shapes vary) and the goal cell.
type Key = (usize, usize, Option<Vec<bool>>, Option<usize>);

/// The most compiled variants kept at once; past it the cache starts again,
/// so an input of ever new sizes holds no more than this many.
const VARIANTS: usize = 64;

struct Reader<R> {
    words: Words<R>,
    /// A buffer for the words of a case.
    tok: String,
}

impl<R: Read> Reader<R> {
    fn err(&mut self, at: Pos, message: impl Into<String>) -> Error {
        self.words.error(at, message)
    }

    /// The next word into `tok`, or an error saying what was expected
    /// (described only when needed) at the end of input.
    fn word<S: std::fmt::Display>(
        &mut self,
        tok: &mut String,
        expected: impl FnOnce() -> S,
    ) -> Result<Pos> {
        match self.words.next_word(tok)? {
            Some(at) => Ok(at),
            None => {
                let end = self.words.end();
                Err(self.err(
                    end,
                    format!("the input ends where {} was expected", expected()),
                ))
            }
        }
    }

    /// A number from `min` to `max`.
    fn number(&mut self, what: &str, min: usize, max: usize) -> Result<(Pos, usize)> {
        let mut tok = String::new();
        let at = self.word(&mut tok, || what)?;
        match tok.parse::<usize>() {
            Ok(n) if (min..=max).contains(&n) => Ok((at, n)),
            Ok(n) => Err(self.err(
                at,
                format!("{what} is {n}: expected a number from {min} to {max}"),
            )),
            Err(_) if tok.bytes().all(|b| b.is_ascii_digit()) => Err(self.err(
                at,
                format!("{what} is {tok}: expected a number from {min} to {max}"),
            )),
            Err(_) => Err(self.err(at, format!("expected {what}, found '{tok}'"))),
        }
    }
}

/// Answers judge input in a format the fast path does not read (see
/// [`BatchFormat`]), writing each case's answer to `out` as it is found.
pub(super) fn batch_cases<R: Read>(
    program: &Program,
    words: Words<R>,
    limits: &Limits,
    prefer: Preference,
    out: &mut dyn Write,
    warn: &mut dyn FnMut(Diagnostic),
) -> Result<crate::plan::Plan> {
    let puzzle = program.puzzle();
    let format = &puzzle.batch;
    let mut reader = Reader {
        words,
        tok: String::new(),
    };
    let expected = match format.header {
        Header::None => None,
        Header::Count => Some(reader.number("the number of cases", 0, usize::MAX)?.1),
    };
    let mut variants: HashMap<Key, Rc<Variant>> = HashMap::new();
    let mut first_plan = None;
    let mut text = Vec::new();
    let mut k = 0;
    loop {
        for w in reader.words.take_warnings() {
            warn(w);
        }
        let next = reader.words.next_pos()?;
        if expected == Some(k) {
            if let Some(at) = next {
                reader
                    .words
                    .warn(at, format!("ignored input after the last of the {k} cases"));
            }
            break;
        }
        let Some(start) = next else {
            let Some(n) = expected else {
                break;
            };
            let cases = if k == 1 { "case" } else { "cases" };
            let end = reader.words.end();
            return Err(reader.err(
                end,
                format!(
                    "case {} of {n} is missing: the input ends after {k} {cases}",
                    k + 1
                ),
            ));
        };
        k += 1;
        let case = read_case(&mut reader, start, program, format, limits)?;
        if variants.len() >= VARIANTS {
            variants.clear();
        }
        let variant = variant(&mut variants, program, &case, &mut reader, limits, prefer)?;
        first_plan.get_or_insert_with(|| variant.solver.plan().erase());
        let start = state(&variant.program, &case);
        let outcome = solve_case(&variant, &start, format.tie_break, limits)
            .map_err(|e| locate(e, &mut reader, &case, k))?;
        text.clear();
        if k > 1
            && let Some(between) = &format.between
        {
            text.extend_from_slice(between.as_bytes());
            text.push(b'\n');
        }
        if let Some(title) = &format.title {
            text.extend_from_slice(fill(title, k, 0, None, &variant.program).as_bytes());
            text.push(b'\n');
        }
        write_answer(&mut text, &variant.program, &outcome, format)
            .map_err(|e| locate(e, &mut reader, &case, k))?;
        super::emit(out, &text)?;
    }
    for w in reader.words.finish() {
        warn(w);
    }
    match first_plan {
        Some(plan) => Ok(plan),
        None => Ok(solve_plan(program, prefer, limits)?.erase()),
    }
}

/// An error found while answering case `k`, said of that case when it is not already located.
fn locate<R: Read>(e: Error, reader: &mut Reader<R>, case: &Case, k: usize) -> Error {
    match e {
        Error::Input(_) => e,
        other => reader.err(case.start, format!("case {k}: {other}")),
    }
}

/// Reads one case: its size (when the format gives one per case), then its cells.
fn read_case<R: Read>(
    reader: &mut Reader<R>,
    start: Pos,
    program: &Program,
    format: &BatchFormat,
    limits: &Limits,
) -> Result<Case> {
    let board = program.board();
    reader.words.mark(start);
    let mut tok = std::mem::take(&mut reader.tok);
    let max = usize::try_from(limits.grid_positions).unwrap_or(usize::MAX);
    let (rows, cols) = match format.size {
        Size::Fixed => (board.rows(), board.cols()),
        Size::RowsCols => {
            let r = reader.number("the number of rows", 1, max)?.1;
            (r, reader.number("the number of columns", 1, max)?.1)
        }
        Size::ColsRows => {
            let c = reader.number("the number of columns", 1, max)?.1;
            (reader.number("the number of rows", 1, max)?.1, c)
        }
        Size::Side => {
            let n = reader.number("the side of the board", 1, max)?.1;
            (n, n)
        }
    };
    if rows.saturating_mul(cols) as u128 > u128::from(limits.grid_positions) {
        return Err(reader.err(
            start,
            format!(
                "a {rows} x {cols} board has {} positions, past the limit grid-positions = {}",
                rows as u128 * cols as u128,
                limits.grid_positions
            ),
        ));
    }
    let symbols = &program.puzzle().symbols;
    let (mark_on, mark_off) = format.marks;
    let describe = || {
        let mut s = symbols.describe(format.shape_per_case || board.has_gaps());
        for m in [mark_on, mark_off].into_iter().flatten() {
            s.push_str(&format!(", or the mark '{m}'"));
        }
        s
    };
    let classify = |c: char| -> Option<Written> {
        match symbols.classify(c) {
            Some(Sym::On) => Some(Written::Cell(true)),
            Some(Sym::Off) => Some(Written::Cell(false)),
            Some(Sym::Gap) => Some(Written::Gap),
            None if Some(c) == mark_on => Some(Written::Mark(true)),
            None if Some(c) == mark_off => Some(Written::Mark(false)),
            None => None,
        }
    };
    let mut cells = Vec::with_capacity(rows * cols);
    let mut at = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        if format.separated {
            for c in 0..cols {
                let pos = reader.word(&mut tok, || {
                    format!("cell [{r}, {c}] (row {r} has {cols} cells)")
                })?;
                let mut chars = tok.chars();
                let written = match (chars.next(), chars.next()) {
                    (Some(ch), None) => classify(ch),
                    _ => None,
                };
                let Some(written) = written else {
                    return Err(reader.err(
                        pos,
                        format!(
                            "expected one cell symbol ({}), found '{}'",
                            describe(),
                            tok.escape_debug()
                        ),
                    ));
                };
                cells.push(written);
                at.push(pos);
            }
        } else {
            let pos = reader.word(&mut tok, || format!("row {r} of {rows}"))?;
            let mut n = 0;
            for ch in tok.chars() {
                let Some(written) = classify(ch) else {
                    return Err(reader.err(
                        pos.plus(n),
                        format!(
                            "unexpected character '{}': expected {}",
                            ch.escape_debug(),
                            describe()
                        ),
                    ));
                };
                if n == cols {
                    return Err(reader.err(
                        pos.plus(n),
                        format!("row {r} is longer than the board's {cols} columns"),
                    ));
                }
                cells.push(written);
                at.push(pos.plus(n));
                n += 1;
            }
            if n < cols {
                return Err(reader.err(pos.plus(n), crate::io::board::short_row(r, n, cols)));
            }
        }
    }
    let case = Case {
        rows,
        cols,
        cells,
        at,
        start,
    };
    // Marks: at most one a case. Gaps: where the board has none, unless shapes vary.
    let mut marked = None;
    for (i, w) in case.cells.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        if let Written::Mark(_) = w {
            if let Some(first) = marked {
                let [fr, fc] = [first / cols, first % cols];
                return Err(reader.err(
                    case.at[i],
                    format!("a second goal mark: [{fr}, {fc}] is already marked"),
                ));
            }
            marked = Some(i);
        }
        if format.shape_per_case || format.size != Size::Fixed {
            continue;
        }
        match (board.cell_at(r, c), w) {
            (Some(_), Written::Gap) => {
                return Err(reader.err(
                    case.at[i],
                    format!(
                        "'{}' marks no cell, but [{r}, {c}] is a cell of the board",
                        symbols.gap()
                    ),
                ));
            }
            (None, Written::Cell(_) | Written::Mark(_)) => {
                return Err(reader.err(
                    case.at[i],
                    format!(
                        "[{r}, {c}] is not a cell of the board: write '{}' there",
                        symbols.gap()
                    ),
                ));
            }
            _ => {}
        }
    }
    if !format.shape_per_case
        && format.size != Size::Fixed
        && let Some(i) = case.cells.iter().position(|w| *w == Written::Gap)
    {
        return Err(reader.err(
            case.at[i],
            format!(
                "'{}' marks no cell, but the board's shape is fixed (set shape = \"per-case\" in [batch])",
                symbols.gap()
            ),
        ));
    }
    reader.tok = tok;
    Ok(case)
}

/// The compiled variant for a case, from the cache or built and planned now.
fn variant<R: Read>(
    cache: &mut HashMap<Key, Rc<Variant>>,
    program: &Program,
    case: &Case,
    reader: &mut Reader<R>,
    limits: &Limits,
    prefer: Preference,
) -> Result<Rc<Variant>> {
    let format = &program.puzzle().batch;
    let present: Option<Vec<bool>> = format
        .shape_per_case
        .then(|| case.cells.iter().map(|w| *w != Written::Gap).collect());
    let mark = case
        .cells
        .iter()
        .position(|w| matches!(w, Written::Mark(_)));
    let key: Key = (case.rows, case.cols, present, mark);
    if let Some(v) = cache.get(&key) {
        return Ok(Rc::clone(v));
    }
    let resized = format.size != Size::Fixed || format.shape_per_case;
    let mut puzzle = if resized {
        program
            .puzzle()
            .variant(case.rows, case.cols, key.2.as_deref(), mark.is_some())
            .map_err(|e| {
                let message = match &e {
                    Error::Input(d) => d.message.clone(),
                    other => other.to_string(),
                };
                reader.err(
                    case.start,
                    format!(
                        "the puzzle does not fit this {} x {} case: {message}",
                        case.rows, case.cols
                    ),
                )
            })?
    } else {
        program.puzzle().clone()
    };
    if let Some(i) = mark {
        let (r, c) = (i / case.cols, i % case.cols);
        let Some(cell) = puzzle.board.cell_at(r, c) else {
            return Err(reader.err(case.at[i], "the goal mark is not on a cell"));
        };
        let mut target = Bits::zeros(puzzle.board.cells());
        target.set(cell.0, true);
        let words = format!("one piece at {}", puzzle.board.label(cell));
        puzzle.goal = GoalRule::Targets(vec![(words, target)]);
    }
    let compiled = if resized || mark.is_some() {
        Program::compile(&puzzle, limits)?
    } else {
        program.clone()
    };
    let plan = solve_plan(&compiled, prefer, limits)?;
    let solver = Prepared::new(&compiled, plan, limits)?;
    let v = Rc::new(Variant {
        program: compiled,
        solver,
    });
    cache.insert(key, Rc::clone(&v));
    Ok(v)
}

/// The case's cells as a state of the variant's board.
fn state(program: &Program, case: &Case) -> Bits {
    let board = program.board();
    let mut state = Bits::zeros(board.cells());
    for (i, w) in case.cells.iter().enumerate() {
        if let Written::Cell(true) | Written::Mark(true) = w
            && let Some(cell) = board.cell_at(i / case.cols, i % case.cols)
        {
            state.set(cell.0, true);
        }
    }
    state
}

/// Solves one case: an optimal answer, chosen by the tie-break.
fn solve_case(v: &Variant, start: &Bits, tie: TieBreak, limits: &Limits) -> Result<Outcome> {
    let outcome = match (v.solver.linear(), tie) {
        (Some(linear), TieBreak::Lexicographic) => {
            first_in_order(&v.program, linear, start, limits)?
        }
        _ => v.solver.solve(&v.program, start, limits)?,
    };
    if let Outcome::Solved(s) = &outcome
        && !s.optimal
    {
        return Err(limits.exceeded(
            "coset-work",
            "the walk that proves a press set the fewest",
            u128::from(limits.coset_work) + 1,
            "a judge answer must be optimal: raise coset-work to walk the whole coset",
        ));
    }
    Ok(outcome)
}

/// The fewest presses over every target, and among those the first in press order.
fn first_in_order(
    program: &Program,
    linear: &Linear,
    start: &Bits,
    limits: &Limits,
) -> Result<Outcome> {
    let Goal::Targets(targets) = program.goal() else {
        return Err(Error::Usage(
            "the lexicographic tie-break needs a target goal".into(),
        ));
    };
    let mut best: Option<Bits> = None;
    for target in targets {
        let mut b = start.clone();
        b.xor_assign(target);
        if let Ok(x) = linear.solve(program, &b) {
            let x = first_fewest_presses(&x, linear.null_space(), linear.nullity(), limits)?;
            let better = best.as_ref().is_none_or(|b| {
                let (w, bw) = (x.count_ones(), b.count_ones());
                w < bw || (w == bw && crate::engines::linear::lex_less(&x, b))
            });
            if better {
                best = Some(x);
            }
        }
    }
    let Some(x) = best else {
        // No target is reachable: the usual solver gives the proof.
        return solve_linear(program, linear, start, limits);
    };
    pressed(program, start, x, true)
}
