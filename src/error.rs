//! Typed errors, and diagnostics that point at a file, line and column.

use std::fmt;

/// How serious a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The input was rejected.
    Error,
    /// The input was accepted, but something in it was dropped or guessed.
    Warning,
}

/// A message about one place in a text: `FILE:LINE:COL: error: MESSAGE`,
/// then the offending line, then a caret under the spot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file name as the user gave it (`<stdin>` for standard input).
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub col: usize,
    /// The text of the offending line, without its line ending; of a line
    /// past [`WINDOW`] characters, only the window around the column that
    /// the message shows.
    pub text: String,
    /// How many characters of the line come before `text` (0 when it starts the line).
    pub text_from: usize,
    /// Whether the line goes on past `text`.
    pub text_cut: bool,
    /// A short lowercase message.
    pub message: String,
}

impl Diagnostic {
    /// An error at byte `offset` of `source` (clamped to the source's length).
    pub fn error(file: &str, source: &str, offset: usize, message: impl Into<String>) -> Self {
        Self::at(Severity::Error, file, source, offset, message.into())
    }

    /// A warning at byte `offset` of `source`.
    pub fn warning(file: &str, source: &str, offset: usize, message: impl Into<String>) -> Self {
        Self::at(Severity::Warning, file, source, offset, message.into())
    }

    fn at(severity: Severity, file: &str, source: &str, offset: usize, message: String) -> Self {
        let mut offset = offset.min(source.len());
        while !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[offset..]
            .find('\n')
            .map_or(source.len(), |i| offset + i);
        let text = source[line_start..line_end].trim_end_matches('\r');
        let line = source[..line_start].matches('\n').count() + 1;
        let col = source[line_start..offset].chars().count();
        Self::in_line(severity, file, line, col, text, 0, false, message)
    }

    /// A diagnostic at 0-based character `col` of line `line`, of which
    /// `text` is what is known: the line's characters from `from` on, with
    /// more after it when `continues`. Only the window around the column is kept.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn in_line(
        severity: Severity,
        file: &str,
        line: usize,
        col: usize,
        text: &str,
        from: usize,
        continues: bool,
        message: String,
    ) -> Self {
        let text = text.trim_end_matches('\r');
        let len = text.chars().count();
        let at = col.saturating_sub(from).min(len);
        let (skip, take) = match len <= WINDOW {
            true => (0, len),
            false => (at.saturating_sub(WINDOW / 2).min(len - WINDOW), WINDOW),
        };
        Diagnostic {
            severity,
            file: file.to_string(),
            line,
            col: col + 1,
            text: text.chars().skip(skip).take(take).collect(),
            text_from: from + skip,
            text_cut: continues || skip + take < len,
            message,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(
            f,
            "{}:{}:{}: {kind}: {}",
            self.file, self.line, self.col, self.message
        )?;
        // A long line is shown as the window kept, marked at the cut ends.
        let len = self.text.chars().count();
        let col = self.col.saturating_sub(1 + self.text_from).min(len);
        let before = if self.text_from > 0 { "…" } else { "" };
        let after = if self.text_cut { "…" } else { "" };
        writeln!(f, "{before}{}{after}", self.text)?;
        // Keep tabs so that the caret lines up under tab-indented text.
        let pad: String = before
            .chars()
            .map(|_| ' ')
            .chain(
                self.text
                    .chars()
                    .take(col)
                    .map(|c| if c == '\t' { '\t' } else { ' ' }),
            )
            .collect();
        write!(f, "{pad}^")
    }
}

/// The most characters of a line an error shows: past this, a window around the column.
pub const WINDOW: usize = 120;

/// Everything that can go wrong in pegflip's library.
///
/// "No solution exists" is not an error: it is
/// [`Outcome::Unsolvable`](crate::Outcome::Unsolvable).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input at a known place: a puzzle file, a board, batch input.
    #[error("{0}")]
    Input(Box<Diagnostic>),
    /// A file could not be read. What the system said is the error's
    /// source (`{:#}` in anyhow prints it after the path).
    #[error("cannot read {path}")]
    Io {
        /// The path as given.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file or directory could not be written. What the system said is the
    /// error's source.
    #[error("cannot write {path}")]
    Write {
        /// The path as given.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A named limit was exceeded; the message says what would be needed.
    #[error("{what} is {value}, past the limit {name} = {limit}; {hint}")]
    Limit {
        /// What was measured, in words.
        what: String,
        /// The setting's name.
        name: &'static str,
        /// The value found.
        value: u128,
        /// The setting's value.
        limit: u128,
        /// What would be needed instead.
        hint: String,
    },
    /// A request that does not fit the puzzle (no start position, say).
    #[error("{0}")]
    Usage(String),
    /// The engine produced an answer that failed its own check. A bug.
    #[error("internal error: {0}; please report this puzzle and board")]
    Internal(String),
}

impl Error {
    /// An [`Error::Input`] at byte `offset` of `source`.
    pub fn input(file: &str, source: &str, offset: usize, message: impl Into<String>) -> Error {
        Error::Input(Box::new(Diagnostic::error(file, source, offset, message)))
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_column() {
        for (len, at) in [
            (121, 0),
            (121, 120),
            (10_000, 0),
            (10_000, 5_000),
            (10_000, 9_999),
            (500, 70),
        ] {
            let line: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            let d = Diagnostic::error("f", &line, at, "bad");
            let shown = d.to_string();
            let lines: Vec<&str> = shown.lines().collect();
            assert_eq!(lines.len(), 3, "{shown}");
            assert!(lines[1].chars().count() <= WINDOW + 2, "{len} {at}");
            // The caret stands under the character the error is at.
            let caret = lines[2].chars().count() - 1;
            assert_eq!(lines[2].chars().last(), Some('^'));
            assert_eq!(
                lines[1].chars().nth(caret),
                line.chars().nth(at),
                "{len} {at}"
            );
            assert_eq!(lines[1].starts_with('…'), at > WINDOW / 2, "{len} {at}");
        }
        // A short line is shown whole.
        let d = Diagnostic::error("f", "abc", 2, "bad");
        assert_eq!(d.to_string(), "f:1:3: error: bad\nabc\n  ^");
    }

    #[test]
    fn diagnostic_points_at_line_and_column() {
        let src = "a = 1\nbb = x\n";
        let d = Diagnostic::error("f.toml", src, 11, "bad value");
        assert_eq!((d.line, d.col), (2, 6));
        assert_eq!(
            d.to_string(),
            "f.toml:2:6: error: bad value\nbb = x\n     ^"
        );
    }

    #[test]
    fn diagnostic_at_end_of_input_is_on_last_line() {
        let d = Diagnostic::error("in", "ab\n", 3, "missing");
        assert_eq!((d.line, d.col, d.text.as_str()), (2, 1, ""));
    }
}
