//! A written answer checked as it is read: its moves replayed one at a time, never all held.

use std::fmt;
use std::io::{BufRead, BufReader, Read};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{CheckError, Replay, read_start, verify_certificates};
use crate::answer::{Answer, CertificateCells, LevelSizes, Step};
use crate::bits::Bits;
use crate::error::{Diagnostic, Error, Result, Severity};
use crate::program::Program;

/// Checks an answer written by `solve --json` as it is read from `input`
/// (named `file` in messages), as [`verify`](super::verify) checks one held
/// whole: each move is replayed as it arrives and then dropped, so a
/// million moves take the memory of one. The answer's `start` (and its
/// `metric`, when it has one) must come before its `moves`, as `solve
/// --json` writes them.
///
/// The outer error is input that is not JSON, or not an answer, located at
/// its line and column; the inner one is an answer that does not hold.
///
/// ```
/// let program = pegflip::Puzzle::from_file("puzzles/pebble12.toml")?.compile()?;
/// let answer = r#"{"puzzle": "Pebble Solitaire", "start": "-oo---------", "solvable": true,
///   "length": 1, "optimal": true, "moves": [{"kind": "jump", "cells": [[0, 2], [0, 1], [0, 0]]}],
///   "final": "o-----------", "pieces": 1}"#;
/// let verdict = pegflip::check::verify_from(&program, answer.as_bytes(), "answer.json")?;
/// assert_eq!(verdict.unwrap(), "1 legal moves leave 1 pieces, as claimed");
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn verify_from(
    program: &Program,
    input: impl Read,
    file: &str,
) -> Result<Result<String, CheckError>> {
    let mut tracked = Tracked::new(input);
    let read = {
        let mut de = serde_json::Deserializer::from_reader(&mut tracked);
        AnswerSeed { program }
            .deserialize(&mut de)
            .and_then(|verdict| de.end().map(|()| verdict))
    };
    read.map_err(|e| tracked.error(file, &e))
}

/// The longest line of typed moves read; one move a line has no limit.
pub const MAX_MOVES_LINE: usize = 1 << 24;

/// Checks moves typed as text (see [`read_moves`](crate::answer::read_moves))
/// as they are read from `input`, a line at a time, from `start`: each is
/// replayed as it is read and then dropped. The outer error is a move that
/// does not read, located at its line and column; the inner one is moves
/// that do not hold.
///
/// ```
/// let puzzle = pegflip::Puzzle::from_file("puzzles/english33.toml")?;
/// let program = puzzle.compile()?;
/// let start = puzzle.start.clone().unwrap();
/// let verdict = pegflip::check::verify_moves_from(&program, &start, &b"46-44\n65-45\n"[..], "<moves>")?;
/// assert!(verdict.unwrap_err().to_string().ends_with("which is not a target"));
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn verify_moves_from(
    program: &Program,
    start: &Bits,
    input: impl Read,
    file: &str,
) -> Result<Result<String, CheckError>> {
    let puzzle = program.puzzle();
    let chained = puzzle.metric == crate::Metric::Moves;
    let metric = chained.then(|| crate::Metric::Moves.name().to_string());
    let mut replay = match Replay::new(program, start, metric.as_deref()) {
        Ok(replay) => replay,
        Err(e) => return Ok(Err(e)),
    };
    let mut input = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    let io = |source| Error::Io {
        path: file.to_string(),
        source,
    };
    for no in 1.. {
        line.clear();
        let read = (&mut input)
            .take(MAX_MOVES_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(io)?;
        if read == 0 {
            break;
        }
        let quote = |col: usize, text: &str, message: String| {
            let text = text.trim_end_matches('\n');
            Error::Input(Box::new(Diagnostic::in_line(
                Severity::Error,
                file,
                no,
                col,
                text,
                0,
                false,
                message,
            )))
        };
        if line.len() > MAX_MOVES_LINE {
            let text = String::from_utf8_lossy(&line[..256]);
            return Err(quote(
                0,
                &text,
                format!(
                    "the line is longer than {MAX_MOVES_LINE} bytes: write the moves one a line"
                ),
            ));
        }
        let text = match std::str::from_utf8(&line) {
            Ok(text) => text,
            Err(e) => {
                let text = String::from_utf8_lossy(&line);
                let col = String::from_utf8_lossy(&line[..e.valid_up_to()])
                    .chars()
                    .count();
                return Err(quote(col, &text, "input is not valid UTF-8".into()));
            }
        };
        let text = match no {
            1 => text.strip_prefix(crate::io::BOM).unwrap_or(text),
            _ => text,
        };
        crate::answer::read_moves_line(program, text, |jumps| {
            if chained {
                replay.step(&crate::answer::chain_step(program, jumps));
            } else {
                jumps.iter().for_each(|jump| replay.step(jump));
            }
        })
        .map_err(|(at, message)| quote(text[..at].chars().count(), text, message))?;
    }
    let (steps, end) = replay.played();
    let answer = Answer {
        modulus: None,
        puzzle: puzzle.name.clone(),
        start: puzzle.board_text(start),
        solvable: true,
        metric,
        length: Some(steps),
        optimal: None,
        moves: None,
        final_board: Some(puzzle.board_text(end)),
        pieces: matches!(program.goal(), crate::program::Goal::FewestPieces)
            .then(|| end.count_ones()),
        proof: None,
        levels: None,
        certificate: None,
    };
    Ok(replay.finish(&answer, start))
}

struct AnswerSeed<'p> {
    program: &'p Program,
}

impl<'de> DeserializeSeed<'de> for AnswerSeed<'_> {
    type Value = Result<String, CheckError>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

/// Sets a field read once, refusing it twice as serde's derive does.
fn once<T, E: de::Error>(slot: &mut Option<T>, value: T, name: &'static str) -> Result<(), E> {
    match slot {
        Some(_) => Err(E::duplicate_field(name)),
        None => {
            *slot = Some(value);
            Ok(())
        }
    }
}

impl<'de> Visitor<'de> for AnswerSeed<'_> {
    type Value = Result<String, CheckError>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an answer of `solve --json`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let program = self.program;
        let mut puzzle: Option<String> = None;
        let mut start: Option<String> = None;
        let mut solvable: Option<bool> = None;
        let mut metric: Option<Option<String>> = None;
        let mut length: Option<Option<usize>> = None;
        let mut optimal: Option<Option<bool>> = None;
        let mut final_board: Option<Option<String>> = None;
        let mut pieces: Option<Option<usize>> = None;
        let mut proof: Option<Option<String>> = None;
        let mut levels: Option<Option<LevelSizes>> = None;
        let mut certificate: Option<Option<Vec<CertificateCells>>> = None;
        // The moves as replayed: absent, refused before the first, or played.
        let mut moves: Option<Option<Result<Replay, CheckError>>> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "puzzle" => once(&mut puzzle, map.next_value()?, "puzzle")?,
                "start" => once(&mut start, map.next_value()?, "start")?,
                "solvable" => once(&mut solvable, map.next_value()?, "solvable")?,
                "metric" if moves.is_some() => {
                    return Err(de::Error::custom(
                        "\"metric\" comes after \"moves\": the moves are checked as they are \
                         read, so the metric they are counted in must come first, as `solve \
                         --json` writes it",
                    ));
                }
                "metric" => once(&mut metric, map.next_value()?, "metric")?,
                "length" => once(&mut length, map.next_value()?, "length")?,
                "optimal" => once(&mut optimal, map.next_value()?, "optimal")?,
                "final" => once(&mut final_board, map.next_value()?, "final")?,
                "pieces" => once(&mut pieces, map.next_value()?, "pieces")?,
                "proof" => once(&mut proof, map.next_value()?, "proof")?,
                "levels" => once(&mut levels, map.next_value()?, "levels")?,
                "certificate" => once(&mut certificate, map.next_value()?, "certificate")?,
                "moves" => {
                    if moves.is_some() {
                        return Err(de::Error::duplicate_field("moves"));
                    }
                    let Some(start) = &start else {
                        return Err(de::Error::custom(
                            "\"moves\" comes before \"start\": the moves are checked as they \
                             are read, so the board they start from must come first, as \
                             `solve --json` writes it",
                        ));
                    };
                    let begun = match solvable {
                        // An answer of no solution is checked by its certificates alone.
                        Some(false) => None,
                        _ => Some(read_start(program, start).and_then(|s| {
                            Replay::new(program, &s, metric.as_ref().and_then(|m| m.as_deref()))
                        })),
                    };
                    // Every move is read as a move, replayed or not.
                    moves = Some(match begun {
                        Some(Ok(replay)) => map
                            .next_value_seed(MovesSeed {
                                replay: Some(replay),
                            })?
                            .map(|replay| replay.ok_or(CheckError::Missing("\"moves\""))),
                        Some(Err(e)) => {
                            map.next_value_seed(MovesSeed { replay: None })?;
                            Some(Err(e))
                        }
                        None => {
                            map.next_value_seed(MovesSeed { replay: None })?;
                            None
                        }
                    });
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let answer = Answer {
            modulus: None,
            puzzle: puzzle.ok_or_else(|| de::Error::missing_field("puzzle"))?,
            start: start.ok_or_else(|| de::Error::missing_field("start"))?,
            solvable: solvable.ok_or_else(|| de::Error::missing_field("solvable"))?,
            metric: metric.flatten(),
            length: length.flatten(),
            optimal: optimal.flatten(),
            moves: None,
            final_board: final_board.flatten(),
            pieces: pieces.flatten(),
            proof: proof.flatten(),
            levels: levels.flatten(),
            certificate: certificate.flatten(),
        };
        Ok(verdict(program, &answer, moves.flatten()))
    }
}

/// What the answer comes to, once read.
fn verdict(
    program: &Program,
    answer: &Answer,
    moves: Option<Result<Replay, CheckError>>,
) -> Result<String, CheckError> {
    let start: Bits = read_start(program, &answer.start)?;
    if !answer.solvable {
        return verify_certificates(program, answer, &start);
    }
    match moves {
        None => Err(CheckError::Missing("\"moves\"")),
        Some(replay) => replay?.finish(answer, &start),
    }
}

/// The `moves` of an answer, each read as a move and replayed (with a
/// replay) as it is read; `None` for `null`.
struct MovesSeed<'p> {
    replay: Option<Replay<'p>>,
}

impl<'de, 'p> DeserializeSeed<'de> for MovesSeed<'p> {
    type Value = Option<Option<Replay<'p>>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de, 'p> Visitor<'de> for MovesSeed<'p> {
    type Value = Option<Option<Replay<'p>>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of moves")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Self::Value, A::Error> {
        while let Some(step) = seq.next_element::<Step>()? {
            if let Some(replay) = &mut self.replay {
                replay.step(&step);
            }
        }
        Ok(Some(self.replay))
    }
}

/// A reader that keeps the line being read (its last [`KEEP`] bytes), to
/// quote it in an error.
struct Tracked<R> {
    inner: BufReader<R>,
    line: usize,
    text: Vec<u8>,
    /// Bytes and characters of the line dropped from the front of `text`.
    dropped: usize,
    dropped_chars: usize,
    /// The line before, whole (within [`KEEP`]).
    previous: Vec<u8>,
    previous_from: usize,
}

/// The most bytes of a line kept to quote.
const KEEP: usize = crate::io::stream::KEEP;

impl<R: Read> Tracked<R> {
    fn new(input: R) -> Self {
        Tracked {
            inner: BufReader::with_capacity(1 << 16, input),
            line: 1,
            text: Vec::new(),
            dropped: 0,
            dropped_chars: 0,
            previous: Vec::new(),
            previous_from: 0,
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        for part in bytes.split_inclusive(|&b| b == b'\n') {
            match part.split_last() {
                Some((b'\n', line)) => {
                    self.text.extend_from_slice(line);
                    std::mem::swap(&mut self.previous, &mut self.text);
                    self.previous_from = self.dropped_chars;
                    self.text.clear();
                    self.dropped = 0;
                    self.dropped_chars = 0;
                    self.line += 1;
                }
                _ => self.text.extend_from_slice(part),
            }
            if self.text.len() > KEEP {
                let cut = self.text.len() - KEEP / 2;
                self.dropped_chars += String::from_utf8_lossy(&self.text[..cut]).chars().count();
                self.dropped += cut;
                self.text.drain(..cut);
            }
        }
    }

    /// A read or parse error of serde's, at its line and column, quoting the line.
    fn error(&mut self, file: &str, e: &serde_json::Error) -> Error {
        if e.is_io() {
            return Error::Io {
                path: file.to_string(),
                source: std::io::Error::other(e.to_string()),
            };
        }
        let message = match e.classify() {
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                format!("not JSON: {e}")
            }
            _ => format!("not an answer of `solve --json`: {e}"),
        };
        let at = e.column().saturating_sub(1);
        let (text, dropped, from, continues) = if e.line() + 1 == self.line {
            (self.previous.clone(), 0, self.previous_from, false)
        } else {
            // Reading stops here: the rest of the line can be read to quote it.
            let mut rest = Vec::new();
            let _ = (&mut self.inner)
                .take(KEEP as u64)
                .read_until(b'\n', &mut rest);
            let ends = rest.last() == Some(&b'\n') || rest.len() < KEEP;
            if rest.last() == Some(&b'\n') {
                rest.pop();
            }
            let mut text = self.text.clone();
            text.extend_from_slice(&rest);
            (text, self.dropped, self.dropped_chars, !ends)
        };
        let offset = at.saturating_sub(dropped).min(text.len());
        let col = from + String::from_utf8_lossy(&text[..offset]).chars().count();
        let text = String::from_utf8_lossy(&text);
        Error::Input(Box::new(Diagnostic::in_line(
            Severity::Error,
            file,
            e.line().max(1),
            col,
            &text,
            from,
            continues,
            message,
        )))
    }
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        match &buf[..n] {
            // serde reads a byte at a time.
            [b] if *b != b'\n' && self.text.len() < KEEP => self.text.push(*b),
            read => self.take(read),
        }
        Ok(n)
    }
}
