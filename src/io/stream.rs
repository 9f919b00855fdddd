//! Text read as a stream of whitespace-separated words, each with its line and column, holding only the lines a message may quote.
//!
//! [`Words`] reads any [`Read`] a chunk at a time, so an input of any size
//! takes a fixed amount of memory: one chunk, the word being read, and the
//! text of at most three lines (the current one, the last one that held a
//! word, and those from one marked by the reader on, up to [`MARKED`]
//! bytes), each cut to its last [`KEEP`] bytes.
//! Errors and warnings quote those lines as [`Diagnostic`] does a whole text;
//! a warning waits for the end of its line, so that it quotes all of it.

use std::io::Read;

use crate::error::{Diagnostic, Error, Result, Severity};

/// Where a word starts: the 1-based line and the 0-based column, in characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 0-based column, in characters.
    pub col: usize,
}

impl Pos {
    /// The place `chars` characters to the right.
    pub fn plus(self, chars: usize) -> Pos {
        Pos {
            line: self.line,
            col: self.col + chars,
        }
    }

    /// The place `byte` bytes into `word`, a word that starts here.
    pub fn within(self, word: &str, byte: usize) -> Pos {
        let before = word.get(..byte).unwrap_or(word);
        Pos {
            line: self.line,
            col: self.col + before.chars().count(),
        }
    }
}

/// The bytes read from the input at a time.
const CHUNK: usize = 1 << 16;

/// The most bytes of one line held to quote; a longer line keeps its last half of this.
pub(crate) const KEEP: usize = 1 << 16;

/// The most bytes of the lines from the marked one on that are held.
pub(crate) const MARKED: usize = 1 << 20;

/// The known text of one line.
#[derive(Clone, Debug, Default)]
struct Line {
    no: usize,
    text: String,
    /// Characters of the line dropped from the front of `text`.
    from: usize,
    /// Whether the whole rest of the line is in `text`.
    done: bool,
}

impl Line {
    fn new(no: usize) -> Line {
        Line {
            no,
            ..Line::default()
        }
    }

    fn push(&mut self, piece: &str) {
        self.text.push_str(piece);
        if self.text.len() > KEEP {
            let mut cut = self.text.len() - KEEP / 2;
            while !self.text.is_char_boundary(cut) {
                cut += 1;
            }
            self.from += self.text[..cut].chars().count();
            self.text.drain(..cut);
        }
    }
}

/// The whitespace-separated words of a text read from `R`; any Unicode
/// whitespace separates, as in board text.
pub(crate) struct Words<R> {
    input: R,
    file: String,
    /// Bytes read but not yet decoded: the start of a character split by a chunk.
    raw: Vec<u8>,
    /// The decoded chunk, and how far it has been read.
    text: String,
    pos: usize,
    /// The input went wrong after `text`: not UTF-8 there.
    invalid: bool,
    eof: bool,
    first: bool,
    line: usize,
    col: usize,
    current: Line,
    current_has_word: bool,
    /// The line of the last word, and where that word ends.
    last: Line,
    last_end: Pos,
    /// The marked line (0: none), and the lines since, while they fit
    /// [`MARKED`]: the first `marked_len` of `marked` (the rest are kept
    /// for their buffers).
    marked_from: usize,
    marked: Vec<Line>,
    marked_len: usize,
    marked_bytes: usize,
    pending: Vec<(Pos, String)>,
    ready: Vec<Diagnostic>,
}

impl<R: Read> Words<R> {
    /// Words of `input`, named `file` in messages. A byte-order mark at the
    /// start is skipped.
    pub fn new(input: R, file: &str) -> Words<R> {
        Words {
            input,
            file: file.to_string(),
            raw: Vec::new(),
            text: String::new(),
            pos: 0,
            invalid: false,
            eof: false,
            first: true,
            line: 1,
            col: 0,
            current: Line::new(1),
            current_has_word: false,
            last: Line::new(0),
            last_end: Pos { line: 1, col: 0 },
            marked_from: 0,
            marked: Vec::new(),
            marked_len: 0,
            marked_bytes: 0,
            pending: Vec::new(),
            ready: Vec::new(),
        }
    }

    /// The next word, into `word` (cleared first), and where it starts;
    /// `None` at the end of the input.
    pub fn next_word(&mut self, word: &mut String) -> Result<Option<Pos>> {
        word.clear();
        let Some(start) = self.next_pos()? else {
            return Ok(None);
        };
        loop {
            let n = word_len(&self.text[self.pos..]);
            let piece = &self.text[self.pos..self.pos + n];
            word.push_str(piece);
            self.take_word(n);
            if self.pos < self.text.len() || !self.refill()? {
                break;
            }
        }
        self.current_has_word = true;
        self.last_end = Pos {
            line: self.line,
            col: self.col,
        };
        Ok(Some(start))
    }

    /// Whether another word follows, read ahead without taking it.
    pub fn at_end(&mut self) -> Result<bool> {
        loop {
            if self.pos == self.text.len() {
                if !self.refill()? {
                    self.end_of_input();
                    return Ok(true);
                }
                continue;
            }
            let skip = space_len(&self.text[self.pos..]);
            self.consume(skip);
            if self.pos < self.text.len() {
                return Ok(false);
            }
        }
    }

    /// Where the next word starts, read ahead without taking it; `None` at
    /// the end of the input.
    pub fn next_pos(&mut self) -> Result<Option<Pos>> {
        Ok((!self.at_end()?).then_some(Pos {
            line: self.line,
            col: self.col,
        }))
    }

    /// Just past the last word read: where a message about the end of the
    /// input points.
    pub fn end(&self) -> Pos {
        self.last_end
    }

    /// Keeps the lines from that of `pos` on to quote, once they are behind,
    /// until the next mark.
    pub fn mark(&mut self, pos: Pos) {
        if self.marked_from != pos.line {
            self.marked_from = pos.line;
            self.marked_len = 0;
            self.marked_bytes = 0;
        }
    }

    /// An input error at `pos`, quoting its line.
    pub fn error(&mut self, pos: Pos, message: impl Into<String>) -> Error {
        if pos.line == self.line {
            // Reading stops here: the rest of the line can be read to quote it.
            let _ = self.read_rest_of_line();
        }
        Error::Input(Box::new(self.quote(Severity::Error, pos, message.into())))
    }

    /// A warning at `pos`: ready once its line has been read to the end.
    pub fn warn(&mut self, pos: Pos, message: impl Into<String>) {
        let message = message.into();
        if pos.line < self.line || (pos.line == self.line && self.current.done) {
            let d = self.quote(Severity::Warning, pos, message);
            self.ready.push(d);
        } else {
            self.pending.push((pos, message));
        }
    }

    /// The warnings whose lines have been read, in order.
    pub fn take_warnings(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.ready)
    }

    /// Every warning, read to the end of the current line first.
    pub fn finish(&mut self) -> Vec<Diagnostic> {
        if !self.pending.is_empty() {
            let _ = self.read_rest_of_line();
            self.current.done = true;
            self.release_pending();
        }
        self.take_warnings()
    }

    fn quote(&self, severity: Severity, pos: Pos, message: String) -> Diagnostic {
        let line = [&self.current, &self.last]
            .into_iter()
            .chain(&self.marked[..self.marked_len])
            .find(|l| l.no == pos.line);
        match line {
            Some(l) => Diagnostic::in_line(
                severity, &self.file, pos.line, pos.col, &l.text, l.from, !l.done, message,
            ),
            None => Diagnostic::in_line(
                severity, &self.file, pos.line, pos.col, "", pos.col, true, message,
            ),
        }
    }

    /// Reads the current line up to its end (not past it), or to [`KEEP`] bytes.
    fn read_rest_of_line(&mut self) -> Result<()> {
        let mut read = 0;
        loop {
            if self.pos == self.text.len() && !self.refill()? {
                self.current.done = true;
                return Ok(());
            }
            let rest = &self.text[self.pos..];
            match rest.find('\n') {
                Some(n) => {
                    self.consume(n);
                    self.current.done = true;
                    return Ok(());
                }
                None => {
                    let n = rest.len();
                    self.consume(n);
                    read += n;
                    if read > KEEP {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Takes the next `n` bytes of the chunk: their lines and columns, and
    /// the text of the current line.
    fn consume(&mut self, n: usize) {
        let end = self.pos + n;
        while self.pos < end {
            let rest = &self.text.as_bytes()[self.pos..end];
            let (len, newline) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (rest.len(), false),
            };
            if !self.pending.is_empty() && self.current.text.len() + len > KEEP {
                // The line is about to lose its front: quote what is known now.
                self.release_pending();
            }
            let piece = &self.text[self.pos..self.pos + len];
            self.col += if piece.is_ascii() {
                len
            } else {
                piece.chars().count()
            };
            self.current.push(piece);
            self.pos += len;
            if newline {
                self.pos += 1;
                self.end_line();
            }
        }
    }

    /// Takes the next `n` bytes of the chunk, a piece of a word: no line ends.
    fn take_word(&mut self, n: usize) {
        if !self.pending.is_empty() && self.current.text.len() + n > KEEP {
            self.release_pending();
        }
        let piece = &self.text[self.pos..self.pos + n];
        self.col += if piece.is_ascii() {
            n
        } else {
            piece.chars().count()
        };
        self.current.push(piece);
        self.pos += n;
    }

    /// The current line is complete: its warnings are ready, and it is kept
    /// as the last word's line or the marked one.
    fn end_line(&mut self) {
        self.current.done = true;
        self.release_pending();
        let done = &self.current;
        if self.marked_from != 0
            && done.no >= self.marked_from
            && self.marked_bytes + done.text.len() <= MARKED
        {
            self.marked_bytes += done.text.len();
            if self.marked_len == self.marked.len() {
                self.marked.push(Line::default());
            }
            let kept = &mut self.marked[self.marked_len];
            kept.no = done.no;
            kept.from = done.from;
            kept.done = true;
            kept.text.clear();
            kept.text.push_str(&done.text);
            self.marked_len += 1;
        }
        // The first line is kept too until a word is read: a message about
        // an input of whitespace points there.
        if self.current_has_word || self.last.no == 0 {
            std::mem::swap(&mut self.current, &mut self.last);
        }
        // The next line reuses the buffer.
        self.current.no = self.line + 1;
        self.current.text.clear();
        self.current.from = 0;
        self.current.done = false;
        self.current_has_word = false;
        self.line += 1;
        self.col = 0;
    }

    fn end_of_input(&mut self) {
        self.current.done = true;
        self.release_pending();
    }

    fn release_pending(&mut self) {
        for (pos, message) in std::mem::take(&mut self.pending) {
            let d = self.quote(Severity::Warning, pos, message);
            self.ready.push(d);
        }
    }

    /// Reads and decodes the next chunk; false at the end of the input.
    fn refill(&mut self) -> Result<bool> {
        if self.invalid {
            let at = Pos {
                line: self.line,
                col: self.col,
            };
            // Quote the line as far as the chunk goes, the bad bytes shown as U+FFFD.
            let rest = String::from_utf8_lossy(&self.raw).into_owned();
            let (piece, ended) = match rest.find('\n') {
                Some(i) => (&rest[..i], true),
                None => (rest.as_str(), self.eof),
            };
            self.current.push(piece);
            self.current.done = ended;
            let d = self.quote(Severity::Error, at, "input is not valid UTF-8".into());
            return Err(Error::Input(Box::new(d)));
        }
        while !self.eof {
            let have = self.raw.len();
            self.raw.resize(have + CHUNK, 0);
            let n = loop {
                match self.input.read(&mut self.raw[have..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(source) => {
                        return Err(Error::Io {
                            path: self.file.clone(),
                            source,
                        });
                    }
                }
            };
            self.raw.truncate(have + n);
            if n == 0 {
                self.eof = true;
            }
            let valid = match std::str::from_utf8(&self.raw) {
                Ok(_) => self.raw.len(),
                Err(e) => {
                    if e.error_len().is_some() || self.eof {
                        self.invalid = true;
                    }
                    e.valid_up_to()
                }
            };
            let decoded = std::str::from_utf8(&self.raw[..valid]).unwrap_or_default();
            self.text.clear();
            self.text.push_str(decoded);
            self.raw.drain(..valid);
            self.pos = 0;
            if self.first && !self.text.is_empty() {
                self.first = false;
                if self.text.starts_with(crate::io::BOM) {
                    self.pos = crate::io::BOM.len();
                }
            }
            if self.pos < self.text.len() {
                return Ok(true);
            }
            if self.invalid {
                return self.refill();
            }
        }
        Ok(false)
    }
}

/// The bytes of whitespace at the start of `s`.
fn space_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if !is_ascii_space(b) {
                return i;
            }
            i += 1;
        } else {
            let c = s[i..].chars().next().unwrap_or('x');
            if !c.is_whitespace() {
                return i;
            }
            i += c.len_utf8();
        }
    }
    i
}

/// The ASCII members of `char::is_whitespace`.
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

/// The bytes of the word at the start of `s`: up to whitespace or the end.
fn word_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if is_ascii_space(b) {
                return i;
            }
            i += 1;
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            if c.is_whitespace() {
                return i;
            }
            i += c.len_utf8();
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::board::tokens;

    /// Reads every word of `text` in chunks of `chunk` bytes.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn words(text: &str, chunk: usize) -> Vec<(Pos, String)> {
        let mut w = Words::new(Trickle(text.as_bytes(), chunk), "t");
        let mut word = String::new();
        let mut out = Vec::new();
        while let Some(pos) = w.next_word(&mut word).unwrap() {
            out.push((pos, word.clone()));
        }
        out
    }

    #[test]
    fn words_and_places_match_the_whole_text_tokenizer_in_any_chunks() {
        let texts = [
            "",
            "a",
            "  ab  cd\nef\n\n  g ",
            "x\u{a0}y\u{3000}z é\r\nüü\tq",
            "\u{feff}4\n-o-\n",
        ];
        for text in texts {
            let body = text.strip_prefix(crate::io::BOM).unwrap_or(text);
            let expected: Vec<(Pos, String)> = tokens(body)
                .map(|(at, tok)| {
                    let d = Diagnostic::error("t", body, at, "");
                    (
                        Pos {
                            line: d.line,
                            col: d.col - 1,
                        },
                        tok.to_string(),
                    )
                })
                .collect();
            for chunk in [1, 2, 3, 7, 1000] {
                assert_eq!(
                    words(text, chunk),
                    expected,
                    "{text:?} in chunks of {chunk}"
                );
            }
        }
    }

    /// The characters random texts are made of: words, ASCII and wide
    /// whitespace, a carriage return, and characters of two and three bytes.
    const ALPHABET: [char; 10] = [
        'a', 'b', ' ', '\n', '\t', '\r', '\u{a0}', '\u{3000}', 'é', '€',
    ];

    proptest::proptest! {
        /// Any text in any chunking gives the words, places and error quotes
        /// of the whole-text tokenizer and `Diagnostic::error`.
        #[test]
        fn any_text_in_any_chunks_reads_as_the_whole_text(
            picks in proptest::collection::vec(0..ALPHABET.len(), 0..200),
            chunk in 1usize..9,
        ) {
            let text: String = picks.iter().map(|&i| ALPHABET[i]).collect();
            let expected: Vec<(Pos, String)> = tokens(&text)
                .map(|(at, tok)| {
                    let d = Diagnostic::error("t", &text, at, "");
                    (Pos { line: d.line, col: d.col - 1 }, tok.to_string())
                })
                .collect();
            proptest::prop_assert_eq!(&words(&text, chunk), &expected);
            // An error at any word quotes its line as the whole text would.
            for (k, (_, _)) in expected.iter().enumerate() {
                let mut w = Words::new(Trickle(text.as_bytes(), chunk), "t");
                let mut word = String::new();
                let mut at = Pos::default();
                for _ in 0..=k {
                    at = w.next_word(&mut word).unwrap().unwrap();
                }
                let Error::Input(d) = w.error(at, "bad") else {
                    panic!("an input error")
                };
                let offset = tokens(&text).nth(k).unwrap().0;
                proptest::prop_assert_eq!(*d, Diagnostic::error("t", &text, offset, "bad"));
            }
        }
    }

    #[test]
    fn an_error_quotes_its_line_as_a_whole_text_would() {
        let text = "3\nab cd ef\nxyz\n";
        for chunk in [1, 4, 100] {
            let mut w = Words::new(Trickle(text.as_bytes(), chunk), "in");
            let mut word = String::new();
            let mut at = Pos::default();
            for _ in 0..3 {
                at = w.next_word(&mut word).unwrap().unwrap();
            }
            let Error::Input(d) = w.error(at, "bad") else {
                panic!("an input error")
            };
            assert_eq!(*d, Diagnostic::error("in", text, 5, "bad"));
        }
    }

    #[test]
    fn a_warning_waits_for_its_line_and_a_long_line_keeps_a_window() {
        let long = "w ".repeat(100_000);
        let text = format!("a b\n{long}end\n");
        let mut w = Words::new(Trickle(text.as_bytes(), 999), "in");
        let mut word = String::new();
        let at = w.next_word(&mut word).unwrap().unwrap();
        w.warn(at, "first");
        assert!(w.take_warnings().is_empty(), "its line is not read yet");
        let mut last = at;
        while let Some(pos) = w.next_word(&mut word).unwrap() {
            last = pos;
        }
        let warnings = w.finish();
        assert_eq!(warnings[0], Diagnostic::warning("in", &text, 0, "first"));
        let Error::Input(d) = w.error(last, "here") else {
            panic!()
        };
        assert_eq!((d.line, d.col), (2, 200_001));
        assert!(d.text.len() <= crate::error::WINDOW);
        assert!(d.text.ends_with("end"), "{}", d.text);
    }

    #[test]
    fn bad_utf8_is_an_error_at_its_place() {
        let mut bytes = b"ab\ncd ".to_vec();
        bytes.push(0xff);
        let mut w = Words::new(Trickle(&bytes, 2), "in");
        let mut word = String::new();
        let err = loop {
            match w.next_word(&mut word) {
                Ok(Some(_)) => {}
                Ok(None) => panic!("no error"),
                Err(e) => break e,
            }
        };
        let Error::Input(d) = err else { panic!() };
        assert_eq!((d.line, d.col), (2, 4));
        assert_eq!(d.message, "input is not valid UTF-8");
    }
}
