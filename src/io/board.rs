//! Board text: rows of symbols, joined by `/` on one line or one row per line.

use crate::board::Board;
use crate::error::{Diagnostic, Error, Result};
use crate::symbols::{Sym, Symbols};

/// What is wrong with row `row` of a board, which has `cells` cells where `cols` are expected.
pub(crate) fn short_row(row: usize, cells: usize, cols: usize) -> String {
    let s = if cells == 1 { "" } else { "s" };
    format!("row {row} has {cells} cell{s}, expected {cols}")
}

/// A problem found in one row, at a byte offset within the row's text.
#[derive(Debug)]
pub(crate) struct RowIssue {
    pub at: usize,
    pub message: String,
}

/// Reads row `row` of the bounding grid from `text`, calling `set(cell)` for
/// every set cell. Returns a warning when surplus empty cells past the end of
/// the row were dropped; a surplus piece, a short row, a foreign character, or
/// a cell where the shape has none (or the reverse) is an error.
#[inline]
pub(crate) fn read_row(
    text: &str,
    row: usize,
    board: &Board,
    symbols: &Symbols,
    mut set: impl FnMut(usize),
) -> Result<Option<RowIssue>, RowIssue> {
    let cols = board.cols();
    let mut col = 0;
    let mut surplus_at = None;
    for (at, ch) in text.char_indices() {
        let Some(sym) = symbols.classify(ch) else {
            return Err(RowIssue {
                at,
                message: format!(
                    "unexpected character '{}': expected {}",
                    ch.escape_debug(),
                    symbols.describe(board.has_gaps())
                ),
            });
        };
        if col >= cols {
            if sym == Sym::On {
                return Err(RowIssue {
                    at,
                    message: format!(
                        "surplus piece past the end of the row: the board has {cols} columns"
                    ),
                });
            }
            surplus_at.get_or_insert(at);
        } else {
            match (board.cell_at(row, col), sym) {
                (Some(cell), Sym::On) => set(cell.0),
                (Some(_), Sym::Off) | (None, Sym::Gap) => {}
                (Some(_), Sym::Gap) => {
                    return Err(RowIssue {
                        at,
                        message: format!(
                            "'{ch}' marks no cell, but [{row}, {col}] is a cell of the board"
                        ),
                    });
                }
                (None, _) => {
                    return Err(RowIssue {
                        at,
                        message: format!(
                            "[{row}, {col}] is not a cell of the board: write '{}' there",
                            symbols.gap()
                        ),
                    });
                }
            }
        }
        col += 1;
    }
    if col < cols {
        return Err(RowIssue {
            at: text.len(),
            message: short_row(row, col, cols),
        });
    }
    Ok(surplus_at.map(|at| RowIssue {
        at,
        message: format!(
            "dropped {} surplus empty cells past the end of the row (the board has {cols} columns)",
            col - cols
        ),
    }))
}

/// A board read from text, with any warnings about what was dropped.
#[derive(Debug)]
pub struct ReadBoard {
    /// The cells that are set.
    pub state: crate::Bits,
    /// What was accepted but dropped on the way.
    pub warnings: Vec<Diagnostic>,
}

/// Reads board text whose rows are `rows`: each a `(byte offset, text)` pair
/// within `source`, so that errors can point into the file they came from.
pub(crate) fn read_rows<'a>(
    rows: impl IntoIterator<Item = (usize, &'a str)>,
    end: usize,
    board: &Board,
    symbols: &Symbols,
    file: &str,
    source: &str,
) -> Result<ReadBoard> {
    let mut state = crate::Bits::zeros(board.cells());
    let mut warnings = Vec::new();
    let mut count = 0;
    for (offset, text) in rows {
        if count == board.rows() {
            return Err(Error::input(
                file,
                source,
                offset,
                format!("too many rows: the board has {}", board.rows()),
            ));
        }
        match read_row(text, count, board, symbols, |cell| state.set(cell, true)) {
            Ok(None) => {}
            Ok(Some(w)) => {
                warnings.push(Diagnostic::warning(file, source, offset + w.at, w.message))
            }
            Err(e) => return Err(Error::input(file, source, offset + e.at, e.message)),
        }
        count += 1;
    }
    if count < board.rows() {
        return Err(Error::input(
            file,
            source,
            end,
            format!("found {count} rows, expected {}", board.rows()),
        ));
    }
    Ok(ReadBoard { state, warnings })
}

/// A board of k colours read from text: each cell's colour, its place in
/// the puzzle's `states`.
#[derive(Debug)]
pub struct ReadColours {
    /// Each cell's colour, in cell order.
    pub digits: Vec<u64>,
    /// What was accepted but dropped on the way.
    pub warnings: Vec<Diagnostic>,
}

/// Reads rows of a board of k colours, as [`read_rows`] reads two: each row a
/// `(byte offset, text)` pair within `source`.
pub(crate) fn read_colour_rows<'a>(
    rows: impl IntoIterator<Item = (usize, &'a str)>,
    end: usize,
    board: &Board,
    symbols: &Symbols,
    file: &str,
    source: &str,
) -> Result<ReadColours> {
    let mut digits = vec![0u64; board.cells()];
    let mut warnings = Vec::new();
    let (rows_wanted, cols) = (board.rows(), board.cols());
    let mut count = 0;
    for (offset, text) in rows {
        let err = |at: usize, message: String| Error::input(file, source, offset + at, message);
        if count == rows_wanted {
            return Err(err(
                0,
                format!("too many rows: the board has {rows_wanted}"),
            ));
        }
        let (row, mut col, mut surplus_at) = (count, 0, None);
        for (at, ch) in text.char_indices() {
            let digit = symbols.digit(ch);
            let is_gap = digit.is_none() && symbols.classify(ch) == Some(Sym::Gap);
            if digit.is_none() && !is_gap {
                return Err(err(
                    at,
                    format!(
                        "unexpected character '{}': expected {}",
                        ch.escape_debug(),
                        symbols.describe_states(board.has_gaps())
                    ),
                ));
            }
            if col >= cols {
                if digit.is_some_and(|d| d != 0) {
                    return Err(err(
                        at,
                        format!(
                            "surplus coloured cell past the end of the row: the board has {cols} \
                             columns"
                        ),
                    ));
                }
                surplus_at.get_or_insert(at);
            } else {
                match (board.cell_at(row, col), digit) {
                    (Some(cell), Some(d)) => digits[cell.0] = d as u64,
                    (None, None) => {}
                    (Some(_), None) => {
                        return Err(err(
                            at,
                            format!(
                                "'{ch}' marks no cell, but [{row}, {col}] is a cell of the board"
                            ),
                        ));
                    }
                    (None, Some(_)) => {
                        return Err(err(
                            at,
                            format!(
                                "[{row}, {col}] is not a cell of the board: write '{}' there",
                                symbols.gap()
                            ),
                        ));
                    }
                }
            }
            col += 1;
        }
        if col < cols {
            return Err(err(text.len(), short_row(row, col, cols)));
        }
        if let Some(at) = surplus_at {
            warnings.push(Diagnostic::warning(
                file,
                source,
                offset + at,
                format!(
                    "dropped {} surplus clear cells past the end of the row (the board has \
                     {cols} columns)",
                    col - cols
                ),
            ));
        }
        count += 1;
    }
    if count < rows_wanted {
        return Err(Error::input(
            file,
            source,
            end,
            format!("found {count} rows, expected {rows_wanted}"),
        ));
    }
    Ok(ReadColours { digits, warnings })
}

/// Reads a board of k colours with rows joined by `/`, found at byte
/// `offset` of `source`.
pub(crate) fn read_colours_slashed(
    text: &str,
    offset: usize,
    board: &Board,
    symbols: &Symbols,
    file: &str,
    source: &str,
) -> Result<ReadColours> {
    read_colour_rows(
        slashed_rows(text, offset),
        offset + text.len(),
        board,
        symbols,
        file,
        source,
    )
}

/// Writes a board of k colours as text, rows joined by `sep`.
pub fn write_colours(digits: &[u64], board: &Board, symbols: &Symbols, sep: &str) -> String {
    let states = symbols.states();
    let (rows, cols) = (board.rows(), board.cols());
    let mut out = String::with_capacity(rows * (cols + sep.len()));
    for r in 0..rows {
        if r > 0 {
            out.push_str(sep);
        }
        for c in 0..cols {
            out.push(match board.cell_at(r, c) {
                Some(cell) => states[digits[cell.0] as usize],
                None => symbols.gap(),
            });
        }
    }
    out
}

/// Reads board text with rows joined by `/` (`bwwb/bbwb/bwwb/bwww`), found
/// at byte `offset` of `source`.
pub(crate) fn read_slashed(
    text: &str,
    offset: usize,
    board: &Board,
    symbols: &Symbols,
    file: &str,
    source: &str,
) -> Result<ReadBoard> {
    read_rows(
        slashed_rows(text, offset),
        offset + text.len(),
        board,
        symbols,
        file,
        source,
    )
}

/// The rows of board text joined by `/`, each with its byte offset in the
/// source (`text` starting at `offset`).
fn slashed_rows(text: &str, offset: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut start = offset;
    text.split('/').map(move |row| {
        let at = start;
        start += row.len() + 1;
        (at, row)
    })
}

/// Reads board text with one row per whitespace-separated token (as on
/// standard input, one row per line).
pub(crate) fn read_tokens(
    source: &str,
    board: &Board,
    symbols: &Symbols,
    file: &str,
) -> Result<ReadBoard> {
    let rows = tokens(source);
    read_rows(rows, source.len(), board, symbols, file, source)
}

/// The whitespace-separated tokens of `source` with their byte offsets.
/// Any Unicode whitespace separates, the no-break space included.
pub(crate) fn tokens(source: &str) -> Tokens<'_> {
    Tokens { source, pos: 0 }
}

/// Iterator over `(byte offset, token)`.
#[derive(Clone)]
pub(crate) struct Tokens<'a> {
    source: &'a str,
    pos: usize,
}

/// Byte classes for the tokenizer: part of a token, ASCII whitespace, or the
/// first byte of a non-ASCII character (which may be whitespace, like U+00A0).
const TOKEN: u8 = 0;
const SPACE: u8 = 1;
const WIDE: u8 = 2;

const CLASS: [u8; 256] = {
    let mut table = [TOKEN; 256];
    // The ASCII members of char::is_whitespace.
    table[b'\t' as usize] = SPACE;
    table[b'\n' as usize] = SPACE;
    table[0x0b] = SPACE;
    table[0x0c] = SPACE;
    table[b'\r' as usize] = SPACE;
    table[b' ' as usize] = SPACE;
    let mut b = 0x80;
    while b < 256 {
        table[b] = WIDE;
        b += 1;
    }
    table
};

impl<'a> Tokens<'a> {
    /// The length of the whitespace character at `at`, or 0 if it is not whitespace.
    #[inline]
    fn space_len(&self, at: usize) -> usize {
        match CLASS[self.source.as_bytes()[at] as usize] {
            SPACE => 1,
            TOKEN => 0,
            _ => match self.source[at..].chars().next() {
                Some(c) if c.is_whitespace() => c.len_utf8(),
                _ => 0,
            },
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a str);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.source.as_bytes();
        let mut pos = self.pos;
        // Skip whitespace.
        loop {
            match bytes.get(pos) {
                None => {
                    self.pos = pos;
                    return None;
                }
                Some(&b) if CLASS[b as usize] == TOKEN => break,
                Some(_) => match self.space_len(pos) {
                    0 => break,
                    n => pos += n,
                },
            }
        }
        let start = pos;
        // Take token bytes; a non-ASCII character ends the token only if it is whitespace.
        while let Some(&b) = bytes.get(pos) {
            match CLASS[b as usize] {
                TOKEN => pos += 1,
                SPACE => break,
                _ => {
                    if self.space_len(pos) > 0 {
                        break;
                    }
                    pos += self.source[pos..].chars().next().map_or(1, char::len_utf8);
                }
            }
        }
        self.pos = pos;
        Some((start, &self.source[start..pos]))
    }
}

/// Writes a state as board text, rows joined by `sep`.
pub fn write_board(state: &crate::Bits, board: &Board, symbols: &Symbols, sep: &str) -> String {
    picture(
        state,
        board,
        symbols.on(),
        symbols.off(),
        symbols.gap(),
        sep,
    )
}

/// A state as rows of text: `on` where a cell is set, `off` where it is
/// clear and `gap` where the grid has no cell; rows joined by `sep`.
pub(crate) fn picture(
    state: &crate::Bits,
    board: &Board,
    on: char,
    off: char,
    gap: char,
    sep: &str,
) -> String {
    let (rows, cols) = (board.rows(), board.cols());
    if board.is_rectangular() && on.is_ascii() && off.is_ascii() {
        // One byte a cell, straight from the words: a board of 10^8 cells in a blink.
        let symbol = [off as u8, on as u8];
        let words = state.words();
        let mut out = Vec::with_capacity(rows * (cols + sep.len()));
        for r in 0..rows {
            if r > 0 {
                out.extend_from_slice(sep.as_bytes());
            }
            out.extend(
                (r * cols..(r + 1) * cols)
                    .map(|i| symbol[(words[i / 64] >> (i % 64) & 1) as usize]),
            );
        }
        return String::from_utf8(out).expect("ASCII symbols and a UTF-8 separator");
    }
    let mut out = String::with_capacity(rows * (cols + sep.len()));
    for r in 0..rows {
        if r > 0 {
            out.push_str(sep);
        }
        for c in 0..cols {
            out.push(match board.cell_at(r, c) {
                Some(cell) if state.get(cell.0) => on,
                Some(_) => off,
                None => gap,
            });
        }
    }
    out
}
