//! `pegflip._native`: the pegflip library for Python, each long call run off the interpreter so that Ctrl-C interrupts it.
//!
//! The Python package (`pegflip/__init__.py`) wraps this module: it turns
//! boards given as lists or numpy arrays into what [`Board`] reads, and the
//! JSON and tuples returned here into its classes. Every call goes through
//! the library's planner under the puzzle's limits, as the command line does.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use pegflip::{Bits, Output, Override, Program, Puzzle, Request};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

create_exception!(
    _native,
    PegflipError,
    PyException,
    "Every error pegflip raises; `message` says what went wrong."
);
create_exception!(
    _native,
    InputError,
    PegflipError,
    "Bad input: a puzzle file, board, override or answer; `file`, `line` and `col` locate it."
);
create_exception!(
    _native,
    LimitError,
    PegflipError,
    "A limit would be passed: `limit` names it, `value` is the estimate or count, `maximum` the limit."
);
create_exception!(
    _native,
    UsageError,
    PegflipError,
    "A request that does not fit the puzzle (no start, an engine that does not apply)."
);
create_exception!(
    _native,
    InternalError,
    PegflipError,
    "An answer failed pegflip's own check: a bug, please report it."
);

/// How often a waiting call looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// States a listing sends at a time.
const STATES_BATCH: usize = 1024;

/// A library error as the Python exception of its kind, with its fields.
fn raise(py: Python<'_>, error: pegflip::Error) -> PyErr {
    let message = error.to_string();
    let (err, fields): (PyErr, Vec<(&str, Py<PyAny>)>) = match &error {
        pegflip::Error::Input(d) => (
            InputError::new_err(message.clone()),
            vec![
                (
                    "file",
                    d.file
                        .clone()
                        .into_pyobject(py)
                        .unwrap()
                        .into_any()
                        .unbind(),
                ),
                (
                    "line",
                    d.line.into_pyobject(py).unwrap().into_any().unbind(),
                ),
                ("col", d.col.into_pyobject(py).unwrap().into_any().unbind()),
                (
                    "reason",
                    d.message
                        .clone()
                        .into_pyobject(py)
                        .unwrap()
                        .into_any()
                        .unbind(),
                ),
            ],
        ),
        pegflip::Error::Limit {
            name, value, limit, ..
        } => (
            LimitError::new_err(message.clone()),
            vec![
                ("limit", name.into_pyobject(py).unwrap().into_any().unbind()),
                (
                    "value",
                    value.into_pyobject(py).unwrap().into_any().unbind(),
                ),
                (
                    "maximum",
                    limit.into_pyobject(py).unwrap().into_any().unbind(),
                ),
            ],
        ),
        pegflip::Error::Internal(_) => (InternalError::new_err(message.clone()), vec![]),
        _ => (UsageError::new_err(message.clone()), vec![]),
    };
    let value = err.value(py);
    let _ = value.setattr("message", message);
    for (name, field) in fields {
        let _ = value.setattr(name, field);
    }
    err
}

/// Runs `work` on a thread of its own, the interpreter free meanwhile, and
/// raises KeyboardInterrupt (or what a signal handler raises) within
/// [`SIGNAL_POLL`] of Ctrl-C. The work abandoned then runs on to its end in
/// the background, within the puzzle's limits.
fn off_interpreter<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> pegflip::Result<T> + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("pegflip".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| PegflipError::new_err(format!("cannot start a thread: {e}")))?;
    let mut rx = rx;
    loop {
        let waited;
        (rx, waited) = wait(py, rx);
        match waited {
            Ok(result) => return result.map_err(|e| raise(py, e)),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(InternalError::new_err(
                    "the work stopped without an answer (a panic); please report it",
                ));
            }
        }
    }
}

/// Waits up to [`SIGNAL_POLL`] for a message with the interpreter free; the
/// receiver goes in and comes back out, as a receiver can move between
/// threads but not be shared.
fn wait<T: Send>(py: Python<'_>, rx: Receiver<T>) -> (Receiver<T>, Result<T, RecvTimeoutError>) {
    py.detach(move || {
        let waited = rx.recv_timeout(SIGNAL_POLL);
        (rx, waited)
    })
}

/// A board as Python gives it.
#[derive(FromPyObject)]
enum Board {
    /// Board text: rows joined by `/`, or one row a line.
    Text(String),
    /// One list a grid row, one 0 or 1 a position (positions that are not
    /// cells are not read).
    Grid(Vec<Vec<i64>>),
}

/// A compiled puzzle.
#[pyclass(frozen, module = "pegflip._native")]
struct NativePuzzle {
    puzzle: Puzzle,
    program: Program,
}

/// Parses each `KEY=VALUE` override.
fn overrides(py: Python<'_>, sets: &[String]) -> PyResult<Vec<Override>> {
    sets.iter()
        .map(|s| Override::parse(s).map_err(|e| raise(py, e)))
        .collect()
}

/// Compiles `puzzle`.
fn compiled(py: Python<'_>, puzzle: pegflip::Result<Puzzle>) -> PyResult<NativePuzzle> {
    let puzzle = puzzle.map_err(|e| raise(py, e))?;
    let program = puzzle.compile().map_err(|e| raise(py, e))?;
    Ok(NativePuzzle { puzzle, program })
}

/// A puzzle from a file, or a shipped puzzle by name where no such file exists.
#[pyfunction]
fn load(py: Python<'_>, name_or_path: &str, sets: Vec<String>) -> PyResult<NativePuzzle> {
    let sets = overrides(py, &sets)?;
    if !std::path::Path::new(name_or_path).exists()
        && let Some(entry) = pegflip::catalogue::find(name_or_path)
    {
        let file = format!("{}.toml (shipped)", entry.name);
        return compiled(py, Puzzle::parse_with(entry.text, &file, &sets));
    }
    match Puzzle::from_file_with(name_or_path, &sets) {
        Err(pegflip::Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Err(UsageError::new_err(format!(
                "cannot read {name_or_path}: no such file, and no shipped puzzle has that name \
                 (pegflip.shipped() lists them)"
            )))
        }
        other => compiled(py, other),
    }
}

/// A puzzle from TOML text; `file` names it in errors.
#[pyfunction]
fn from_toml(py: Python<'_>, text: &str, file: &str, sets: Vec<String>) -> PyResult<NativePuzzle> {
    let sets = overrides(py, &sets)?;
    compiled(py, Puzzle::parse_with(text, file, &sets))
}

/// The names of the shipped puzzles.
#[pyfunction]
fn shipped() -> Vec<&'static str> {
    pegflip::catalogue::PUZZLES.iter().map(|e| e.name).collect()
}

#[pymethods]
impl NativePuzzle {
    /// The puzzle's name, about line, cells, moves, whether it is linear,
    /// its metric, and its start as board text (or None).
    fn facts(
        &self,
    ) -> (
        String,
        String,
        usize,
        usize,
        bool,
        &'static str,
        Option<String>,
    ) {
        let p = &self.puzzle;
        (
            p.name.clone(),
            p.about.clone(),
            self.program.cells(),
            self.program.move_count(),
            self.program.is_linear(),
            p.metric.name(),
            p.start.as_ref().map(|s| p.board_text(s)),
        )
    }

    /// A board given as text or a grid, or the start for None.
    fn board(&self, py: Python<'_>, board: Option<Board>) -> PyResult<String> {
        let state = self.read(py, board)?;
        Ok(self.puzzle.board_text(&state))
    }

    /// Solves a board: `solve --json`'s text, `solve`'s text, and whether it is solved.
    fn solve(&self, py: Python<'_>, board: Option<Board>) -> PyResult<(String, String, bool)> {
        let start = self.read(py, board)?;
        let program = self.program.clone();
        off_interpreter(py, move || {
            let limits = &program.puzzle().limits;
            let outcome = pegflip::solve(&program, &start, limits)?;
            let mut json = Vec::new();
            pegflip::write_json(&mut json, &program, &start, &outcome, limits)?;
            let text = pegflip::render::text(&program, &start, &outcome);
            let solved = matches!(outcome, pegflip::Outcome::Solved(_));
            Ok((String::from_utf8_lossy(&json).into_owned(), text, solved))
        })
    }

    /// Rank, nullity, the elimination's name, and the quiet patterns as board text.
    fn analyze(&self, py: Python<'_>) -> PyResult<(usize, usize, String, Vec<String>)> {
        let program = self.program.clone();
        off_interpreter(py, move || {
            let linear = pegflip::analyze(&program, &program.puzzle().limits)?;
            let quiet = linear
                .null_space()
                .iter()
                .map(|q| {
                    let cells = pegflip::render::pressed_cells(&program, q.ones_iter());
                    program.puzzle().board_text(&cells)
                })
                .collect();
            let method = format!("{:?}", linear.method()).to_lowercase();
            Ok((linear.rank(), linear.nullity(), method, quiet))
        })
    }

    /// The solvable states' count as `mult x 2^shift` (mult in decimal).
    fn count(&self, py: Python<'_>) -> PyResult<(String, u32)> {
        let program = self.program.clone();
        off_interpreter(py, move || {
            let request = Request {
                output: Output::Count,
                ..Default::default()
            };
            let summary = pegflip::enumerate(&program, &request, &program.puzzle().limits, None)?;
            Ok((summary.count.mult.to_string(), summary.count.shift))
        })
    }

    /// The solvable states per distance, counts in decimal.
    fn histogram(&self, py: Python<'_>) -> PyResult<Vec<(u32, String)>> {
        let program = self.program.clone();
        off_interpreter(py, move || {
            let request = Request {
                output: Output::Histogram,
                ..Default::default()
            };
            let summary = pegflip::enumerate(&program, &request, &program.puzzle().limits, None)?;
            Ok(summary
                .histogram
                .into_iter()
                .map(|(d, n)| (d, n.to_string()))
                .collect())
        })
    }

    /// Every solvable state, as board text, streamed from a thread.
    fn states(&self) -> States {
        let (tx, rx) = mpsc::sync_channel::<pegflip::Result<Vec<String>>>(2);
        let program = self.program.clone();
        std::thread::spawn(move || {
            let puzzle = program.puzzle();
            let request = Request {
                output: Output::List,
                ..Default::default()
            };
            let mut batch = Vec::with_capacity(STATES_BATCH);
            let mut open = true;
            let mut visit = |s: &Bits, _: Option<u32>| {
                batch.push(puzzle.board_text(s));
                if batch.len() == STATES_BATCH {
                    open = tx.send(Ok(std::mem::take(&mut batch))).is_ok();
                }
                open
            };
            let done = pegflip::enumerate(&program, &request, &puzzle.limits, Some(&mut visit));
            if open {
                let _ = tx.send(Ok(batch));
                if let Err(e) = done {
                    let _ = tx.send(Err(e));
                }
            }
        });
        States {
            rx: Mutex::new(Some(rx)),
            buffer: Mutex::new(VecDeque::new()),
        }
    }

    /// Checks a written answer (`solve --json`'s text): whether it holds, and why.
    fn verify(&self, py: Python<'_>, answer: String) -> PyResult<(bool, String)> {
        let program = self.program.clone();
        off_interpreter(py, move || {
            Ok(
                match pegflip::check::verify_from(&program, answer.as_bytes(), "<answer>")? {
                    Ok(summary) => (true, summary),
                    Err(reason) => (false, reason.to_string()),
                },
            )
        })
    }

    /// Judge-format input to judge-format output, and the warnings.
    fn batch(&self, py: Python<'_>, input: String) -> PyResult<(String, Vec<String>)> {
        let program = self.program.clone();
        off_interpreter(py, move || {
            let limits = &program.puzzle().limits;
            let out = pegflip::batch(
                &program,
                input.as_bytes(),
                "<input>",
                limits,
                Default::default(),
            )?;
            let warnings = out.warnings.iter().map(ToString::to_string).collect();
            Ok((String::from_utf8_lossy(&out.text).into_owned(), warnings))
        })
    }

    /// Boards at a distance (None: the greatest): the boards as text, the
    /// distance, whether uniform, and the method in words.
    fn generate(
        &self,
        py: Python<'_>,
        distance: Option<u32>,
        count: usize,
        seed: u64,
    ) -> PyResult<(Vec<String>, u32, bool, String)> {
        let program = self.program.clone();
        off_interpreter(py, move || {
            let order = pegflip::Order {
                distance,
                boards: count,
                seed,
            };
            let generated = pegflip::generate(&program, &order, &program.puzzle().limits)?;
            let puzzle = program.puzzle();
            Ok((
                generated
                    .boards
                    .iter()
                    .map(|b| puzzle.board_text(b))
                    .collect(),
                generated.distance,
                generated.drawn.uniform(),
                generated.drawn.describe(),
            ))
        })
    }
}

impl NativePuzzle {
    /// Reads a board: text as the command line takes it, or a grid of 0/1.
    fn read(&self, py: Python<'_>, board: Option<Board>) -> PyResult<Bits> {
        let puzzle = &self.puzzle;
        match board {
            None => puzzle.start.clone().ok_or_else(|| {
                UsageError::new_err(format!(
                    "no board given, and {} declares no start position",
                    puzzle.name
                ))
            }),
            Some(Board::Text(text)) => {
                let read = match text.trim_end().contains('\n') {
                    true => puzzle.read_board_lines(&text, "<board>"),
                    false => puzzle.read_board(&text, "<board>"),
                };
                read.map(|r| r.state).map_err(|e| raise(py, e))
            }
            Some(Board::Grid(rows)) => self.read_grid(&rows),
        }
    }

    /// A board from one list a grid row: every cell's position must hold 0 or 1.
    fn read_grid(&self, rows: &[Vec<i64>]) -> PyResult<Bits> {
        let board = &self.puzzle.board;
        let (height, width) = (board.rows(), board.cols());
        if rows.len() != height || rows.iter().any(|r| r.len() != width) {
            let found = match rows.iter().map(Vec::len).max() {
                Some(longest) => format!("{} rows of up to {longest}", rows.len()),
                None => "no rows".into(),
            };
            return Err(UsageError::new_err(format!(
                "a board of this puzzle is {height} rows of {width} (0 or 1 each); got {found}"
            )));
        }
        let mut state = Bits::zeros(board.cells());
        for cell in 0..board.cells() {
            let [r, c] = board.coord(pegflip::CellId(cell));
            match rows[r][c] {
                0 => {}
                1 => state.set(cell, true),
                v => {
                    return Err(UsageError::new_err(format!(
                        "row {r}, column {c} holds {v}: a cell is 0 (off) or 1 (on)"
                    )));
                }
            }
        }
        Ok(state)
    }
}

/// A stream of states from a listing on another thread; dropping it stops the listing.
#[pyclass(module = "pegflip._native")]
struct States {
    /// The listing's channel; `None` once it has ended.
    rx: Mutex<Option<Receiver<pegflip::Result<Vec<String>>>>>,
    buffer: Mutex<VecDeque<String>>,
}

#[pymethods]
impl States {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<String>> {
        loop {
            if let Some(next) = self.buffer.lock().unwrap().pop_front() {
                return Ok(Some(next));
            }
            let Some(rx) = self.rx.lock().unwrap().take() else {
                return Ok(None);
            };
            let (rx, waited) = wait(py, rx);
            match waited {
                Ok(Ok(batch)) => self.buffer.lock().unwrap().extend(batch),
                Ok(Err(e)) => return Err(raise(py, e)),
                Err(RecvTimeoutError::Timeout) => {
                    *self.rx.lock().unwrap() = Some(rx);
                    py.check_signals()?;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
            *self.rx.lock().unwrap() = Some(rx);
        }
    }
}

/// Python's dict of the exceptions, for the package to re-export.
fn exceptions(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("PegflipError", py.get_type::<PegflipError>())?;
    dict.set_item("InputError", py.get_type::<InputError>())?;
    dict.set_item("LimitError", py.get_type::<LimitError>())?;
    dict.set_item("UsageError", py.get_type::<UsageError>())?;
    dict.set_item("InternalError", py.get_type::<InternalError>())?;
    Ok(dict)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(from_toml, m)?)?;
    m.add_function(wrap_pyfunction!(shipped, m)?)?;
    m.add_class::<NativePuzzle>()?;
    m.add_class::<States>()?;
    for (name, value) in exceptions(m.py())?.iter() {
        m.add(name.extract::<String>()?, value)?;
    }
    Ok(())
}
