//! Arguments every command shares: the puzzle file, `--set` overrides, limits, and the solver choice.

use std::io::Write;
use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pegflip::{Override, Plan, Preference, Puzzle};

/// The puzzle file, its overrides and the memory limit.
#[derive(Args)]
pub struct PuzzleArgs {
    /// The puzzle file, or the name of a shipped puzzle (`pegflip list`).
    pub puzzle: String,
    /// Override a key of the puzzle file, as in `--set board.rows=7` or
    /// `--set limits.max-states=2^28`; repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Refuse work estimated to need more memory, in bytes (suffixes K, M, G);
    /// default 60% of the machine's memory. Same as `--set limits.max-memory=BYTES`.
    #[arg(long, value_name = "BYTES", value_parser = pegflip::limits::parse_memory)]
    pub max_memory: Option<u64>,
    /// How solutions are counted: `jumps` (every move counts) or `moves` (a
    /// chain of jumps by one piece counts once). Same as `--set metric=NAME`.
    #[arg(long, value_name = "NAME", value_parser = ["jumps", "moves"])]
    pub metric: Option<String>,
}

impl PuzzleArgs {
    /// Reads, overrides and validates the puzzle; `--max-memory` goes into its limits.
    pub fn load(&self) -> anyhow::Result<Puzzle> {
        let metric = self
            .metric
            .as_ref()
            .map(|m| format!("metric=\"{}\"", m.replace(['"', '\\'], "")));
        let overrides = self
            .set
            .iter()
            .chain(&metric)
            .map(|arg| Override::parse(arg))
            .collect::<Result<Vec<_>, _>>()?;
        // The file is read under the limit the command line gives (or the
        // default), then the work runs under the one in force.
        crate::bound_memory(
            self.max_memory
                .unwrap_or_else(pegflip::limits::default_max_memory),
        );
        let mut puzzle = load(&self.puzzle, &overrides)?;
        if let Some(bytes) = self.max_memory {
            puzzle.limits.max_memory = bytes;
        }
        crate::bound_memory(puzzle.limits.max_memory);
        Ok(puzzle)
    }
}

/// Prints the plan to stderr: `plan: ENGINE: ...`.
pub fn explain(plan: &Plan) {
    let _ = writeln!(std::io::stderr(), "plan: {}", plan.describe());
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
    /// Search (breadth-first, or depth-first for peg solitaire): fewest moves, at most 64 cells.
    Bfs,
    /// Elimination over GF(2): toggle-only puzzles of any size.
    Gf2,
}

impl From<SolverArg> for Preference {
    fn from(arg: SolverArg) -> Preference {
        match arg {
            SolverArg::Auto => Preference::Auto,
            SolverArg::Bfs => Preference::Search,
            SolverArg::Gf2 => Preference::Gf2,
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
