//! Answers as JSON (`solve --json`): built and checked by the checker of `verify`, or streamed when large.

use crate::answer::{Answer, BYTES_PER_STEP, STEP_BOARDS_LIMIT, kind_name};
use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::outcome::{Outcome, Proof};
use crate::program::notation::describe_move;
use crate::program::{Goal, MoveKind, Program};

/// Writes the answer for `outcome` as JSON, the same document
/// [`checked_answer`] gives. A large solution (more than
/// [`STEP_BOARDS_LIMIT`] cells times moves, whose moves carry no boards) is
/// streamed a move a line, with no object per move: half a million presses
/// in a few hundredths of a second. Smaller answers are built, checked by the
/// checker of `verify`, and pretty-printed.
pub fn write_json(
    out: &mut dyn std::io::Write,
    program: &Program,
    start: &Bits,
    outcome: &Outcome,
    limits: &crate::limits::Limits,
) -> Result<()> {
    let io = |e: std::io::Error| Error::Write {
        path: "<stdout>".into(),
        source: e,
    };
    let Outcome::Solved(solution) = outcome else {
        let answer = checked_answer(program, start, outcome, limits)?;
        return writeln!(out, "{}", to_pretty(&answer)?).map_err(io);
    };
    if solution.moves.len().saturating_mul(program.cells()) <= STEP_BOARDS_LIMIT {
        let answer = checked_answer(program, start, outcome, limits)?;
        return writeln!(out, "{}", to_pretty(&answer)?).map_err(io);
    }
    let puzzle = program.puzzle();
    let board = &puzzle.board;
    let json = |s: &str| serde_json::to_string(s).expect("a string is JSON");
    let mut line = Vec::with_capacity(128);
    write!(
        out,
        "{{\n  \"puzzle\": {},\n  \"start\": {},\n  \"solvable\": true,\n  \"length\": {},\n  \
         \"optimal\": {},\n  \"moves\": [",
        json(&puzzle.name),
        json(&puzzle.board_text(start)),
        solution.moves.len(),
        solution.optimal
    )
    .map_err(io)?;
    for (i, m) in solution.moves.iter().enumerate() {
        line.clear();
        line.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
        let (kind, cells) = program
            .move_cells(m)
            .unwrap_or((MoveKind::Toggle, Vec::new()));
        line.extend_from_slice(b"{\"kind\": \"");
        line.extend_from_slice(kind_name(kind).as_bytes());
        line.extend_from_slice(b"\", \"cells\": [");
        for (k, c) in cells.iter().enumerate() {
            let [r, col] = board.coord(*c);
            if k > 0 {
                line.extend_from_slice(b", ");
            }
            line.push(b'[');
            push_number(&mut line, r);
            line.extend_from_slice(b", ");
            push_number(&mut line, col);
            line.push(b']');
        }
        line.extend_from_slice(b"], \"text\": ");
        match (kind, cells.as_slice()) {
            // The text of a press on an unnamed grid, without formatting machinery.
            (MoveKind::Toggle, [c]) if !board.has_names() && !board.is_graph() => {
                let [r, col] = board.coord(*c);
                line.extend_from_slice(b"\"press [");
                push_number(&mut line, r);
                line.extend_from_slice(b", ");
                push_number(&mut line, col);
                line.extend_from_slice(b"]\"");
            }
            _ => line.extend_from_slice(json(&describe_move(program, m)).as_bytes()),
        }
        line.push(b'}');
        out.write_all(&line).map_err(io)?;
    }
    write!(
        out,
        "\n  ],\n  \"final\": {}",
        json(&puzzle.board_text(&solution.end))
    )
    .map_err(io)?;
    if matches!(program.goal(), Goal::FewestPieces) {
        write!(out, ",\n  \"pieces\": {}", solution.end.count_ones()).map_err(io)?;
    }
    writeln!(out, "\n}}").map_err(io)
}

/// The answer for `outcome`, checked as written by the same checker as
/// `pegflip verify` ([`crate::check::verify`]) when it carries what that
/// checker reads (moves or certificates) and the board has at most
/// [`STEP_BOARDS_LIMIT`] cells; a failure is a bug ([`Error::Internal`]).
///
/// Refused, before it is built, when its moves would pass `max-memory`
/// (about [`BYTES_PER_STEP`] bytes each while built and written).
pub fn checked_answer(
    program: &Program,
    start: &Bits,
    outcome: &Outcome,
    limits: &crate::limits::Limits,
) -> Result<Answer> {
    if let Outcome::Solved(solution) = outcome {
        limits.check(
            "max-memory",
            format!(
                "the memory to write {} moves as JSON (estimated)",
                solution.moves.len()
            ),
            solution.moves.len() as u128 * BYTES_PER_STEP
                + crate::limits::PROCESS_BYTES
                + 8 * program.cells() as u128,
            "the text answer needs no per-move objects: drop --json, or raise --max-memory",
        )?;
    }
    let answer = Answer::new(program, start, outcome);
    let checkable = !matches!(
        outcome,
        Outcome::Unsolvable(Proof::Search | Proof::Rank | Proof::MoveLevels(_))
    ) && program.cells() <= STEP_BOARDS_LIMIT;
    if checkable && let Err(reason) = crate::check::verify(program, &answer) {
        return Err(Error::Internal(format!(
            "the answer fails verification: {reason}"
        )));
    }
    Ok(answer)
}

fn to_pretty(answer: &Answer) -> Result<String> {
    serde_json::to_string_pretty(answer).map_err(|e| Error::Internal(format!("JSON: {e}")))
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}
