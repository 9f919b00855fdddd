//! Arguments every command shares: the puzzle file, `--set` overrides, and the solver choice.

use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pegflip::{Override, Puzzle, SolverKind};

/// The puzzle file and its overrides.
#[derive(Args)]
pub struct PuzzleArgs {
    /// The puzzle file, or the name of a shipped puzzle (`pegflip list`).
    pub puzzle: String,
    /// Override a key of the puzzle file, as in `--set board.rows=7`; repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl PuzzleArgs {
    /// Reads, overrides and validates the puzzle.
    pub fn load(&self) -> anyhow::Result<Puzzle> {
        let overrides = self
            .set
            .iter()
            .map(|arg| Override::parse(arg))
            .collect::<Result<Vec<_>, _>>()?;
        load(&self.puzzle, &overrides)
    }
}

/// Reads a puzzle file; a name that is no file but a shipped puzzle's loads
/// the built-in copy.
pub fn load(path: &str, overrides: &[Override]) -> anyhow::Result<Puzzle> {
    if !std::path::Path::new(path).exists()
        && let Some(entry) = pegflip::catalogue::find(path)
    {
        let file = format!("{}.toml (shipped)", entry.name);
        return Ok(Puzzle::parse_with(entry.text, &file, overrides)?);
    }
    match Puzzle::from_file_with(path, overrides) {
        Err(pegflip::Error::Io { path, source })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            anyhow::bail!(
                "cannot read {path}: no such file, and no shipped puzzle has that name \
                 (`pegflip list` shows them)"
            )
        }
        other => Ok(other?),
    }
}

/// `--solver`.
#[derive(Clone, Copy, Default, ValueEnum)]
pub enum SolverArg {
    /// gf2 for linear puzzles with targets, bfs otherwise.
    #[default]
    Auto,
    /// Breadth-first search: fewest moves, at most 64 cells.
    Bfs,
    /// Elimination over GF(2): toggle-only puzzles of any size.
    Gf2,
}

impl From<SolverArg> for SolverKind {
    fn from(arg: SolverArg) -> SolverKind {
        match arg {
            SolverArg::Auto => SolverKind::Auto,
            SolverArg::Bfs => SolverKind::Bfs,
            SolverArg::Gf2 => SolverKind::Gf2,
        }
    }
}

/// Turns `bar` into a spinner saying `what` with the elapsed time, drawn on
/// stderr once the work has lasted a second (never when stderr is not a
/// terminal). Finish the bar to remove it.
pub fn spin_after_a_second(bar: &ProgressBar, what: &str) {
    let bar = bar.clone();
    bar.set_style(
        ProgressStyle::with_template(&format!("{{spinner}} {what}, {{elapsed}}"))
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(1));
        if !bar.is_finished() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    });
}
