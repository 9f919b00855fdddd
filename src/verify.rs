//! Checks an answer written by `solve --json`, independently of the solvers that wrote it.
//!
//! It reads only the answer's JSON and the puzzle: moves are found by the
//! cells they name and played with [`Program::apply_mut`], the one code path that
//! applies moves; certificates are checked against their definition using the
//! moves' flip lists. Nothing here calls a solver.

use serde_json::Value;

use crate::bits::Bits;
use crate::program::{Goal, Program};
use crate::puzzle::Puzzle;

/// Checks `answer` (the object `solve --json` prints) against the puzzle.
/// `Ok` carries a one-line summary of what was checked; `Err` the first
/// reason the answer does not hold.
pub fn verify(puzzle: &Puzzle, program: &Program, answer: &Value) -> Result<String, String> {
    let solvable = answer
        .get("solvable")
        .and_then(Value::as_bool)
        .ok_or("the answer has no boolean \"solvable\"")?;
    let start_text = answer
        .get("start")
        .and_then(Value::as_str)
        .ok_or("the answer has no \"start\" board")?;
    let start = board(puzzle, start_text, "start")?;
    if solvable {
        verify_solution(puzzle, program, answer, &start)
    } else {
        verify_certificates(puzzle, program, answer, &start)
    }
}

fn board(puzzle: &Puzzle, text: &str, what: &str) -> Result<Bits, String> {
    puzzle
        .read_board(text, what)
        .map(|read| read.state)
        .map_err(|e| format!("the {what} board does not read: {e}"))
}

fn cells_of(puzzle: &Puzzle, list: &Value, what: &str) -> Result<Vec<crate::CellId>, String> {
    let list = list
        .as_array()
        .ok_or(format!("{what}: \"cells\" is not a list"))?;
    list.iter()
        .map(|pair| {
            let rc = pair.as_array().filter(|p| p.len() == 2);
            let (r, c) = rc
                .and_then(|p| Some((p[0].as_u64()?, p[1].as_u64()?)))
                .ok_or(format!("{what}: {pair} is not a [row, col] pair"))?;
            puzzle
                .board
                .cell_at(r as usize, c as usize)
                .ok_or(format!("{what}: [{r}, {c}] is not a cell of the board"))
        })
        .collect()
}

fn verify_solution(
    puzzle: &Puzzle,
    program: &Program,
    answer: &Value,
    start: &Bits,
) -> Result<String, String> {
    let moves = answer
        .get("moves")
        .and_then(Value::as_array)
        .ok_or("a solvable answer needs its \"moves\"")?;
    let by_cells: rustc_hash::FxHashMap<&[crate::CellId], usize> = program
        .moves()
        .iter()
        .enumerate()
        .rev()
        .map(|(i, m)| (m.cells.as_slice(), i))
        .collect();
    let mut state = start.clone();
    for (i, step) in moves.iter().enumerate() {
        let what = format!("move {}", i + 1);
        let cells = cells_of(puzzle, step.get("cells").unwrap_or(&Value::Null), &what)?;
        let index = *by_cells.get(cells.as_slice()).ok_or(format!(
            "{what}: the puzzle has no move with cells {}",
            step["cells"]
        ))?;
        program
            .apply_mut(&mut state, index)
            .map_err(|_| format!("{what} is not legal on the board before it"))?;
        if let Some(claimed) = step.get("board").and_then(Value::as_str)
            && claimed != puzzle.board_text(&state)
        {
            return Err(format!(
                "{what}: the board after it is {}, not {claimed}",
                puzzle.board_text(&state)
            ));
        }
    }
    let length = answer.get("length").and_then(Value::as_u64);
    if length != Some(moves.len() as u64) {
        return Err(format!(
            "the claimed length is {}, but there are {} moves",
            length.map_or("missing".to_string(), |l| l.to_string()),
            moves.len()
        ));
    }
    let end = puzzle.board_text(&state);
    if answer.get("final").and_then(Value::as_str) != Some(end.as_str()) {
        return Err(format!(
            "the moves end on {end}, not on the claimed final board"
        ));
    }
    match program.goal() {
        Goal::Targets(_) if !program.is_target(&state) => {
            Err(format!("the moves end on {end}, which is not a target"))
        }
        Goal::Targets(_) => Ok(format!("{} legal moves reach a target", moves.len())),
        Goal::FewestPieces => {
            let pieces = state.count_ones() as u64;
            match answer.get("pieces").and_then(Value::as_u64) {
                Some(p) if p == pieces => Ok(format!(
                    "{} legal moves leave {pieces} pieces, as claimed",
                    moves.len()
                )),
                other => Err(format!(
                    "the moves leave {pieces} pieces, but the answer claims {}",
                    other.map_or("none".into(), |p| p.to_string())
                )),
            }
        }
    }
}

fn verify_certificates(
    puzzle: &Puzzle,
    program: &Program,
    answer: &Value,
    start: &Bits,
) -> Result<String, String> {
    let Goal::Targets(targets) = program.goal() else {
        return Err("a fewest-pieces puzzle always has an answer; none is impossible".into());
    };
    let Some(list) = answer.get("certificate").and_then(Value::as_array) else {
        return Err(
            "the answer claims no solution but gives no \"certificate\" to check (an \
             exhaustive search is not checkable from its output)"
                .into(),
        );
    };
    for (t, target) in targets.iter().enumerate() {
        let target_text = puzzle.board_text(target);
        let entry = list
            .iter()
            .find(|c| c.get("target").and_then(Value::as_str) == Some(target_text.as_str()))
            .ok_or(format!("no certificate rules out target {}", t + 1))?;
        let what = format!("certificate for {target_text}");
        let q = cells_of(puzzle, entry.get("cells").unwrap_or(&Value::Null), &what)?;
        let mut in_q = Bits::zeros(program.cells());
        for c in &q {
            in_q.set(c.0, true);
        }
        for (i, m) in program.moves().iter().enumerate() {
            let hits = m.flip.iter().filter(|c| in_q.get(c.0)).count();
            if hits % 2 == 1 {
                let [r, c] = puzzle.board.coord(m.cells[0]);
                return Err(format!(
                    "{what}: move {i} (at [{r}, {c}]) flips {hits} of its cells, an odd number"
                ));
            }
        }
        let differ = in_q
            .ones_iter()
            .filter(|&c| start.get(c) != target.get(c))
            .count();
        if differ % 2 == 0 {
            return Err(format!(
                "{what}: the start and the target differ on {differ} of its cells, an even number"
            ));
        }
    }
    Ok(format!(
        "{} certificate(s) hold: no sequence of moves reaches the goal",
        targets.len()
    ))
}
