//! `pegflip solve`: one board, its fewest moves and the boards along the way.

use std::io::Write;

use clap::Parser;
use pegflip::{Outcome, render};

/// Solve one board: the fewest moves (or Impossible), then each move and the board after it.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip solve puzzles/flip4x4.toml bwwb/bbwb/bwwb/bwww
  pegflip solve puzzles/pebble12.toml -- -o--o-oo----
  printf 'bwwb\\nbbwb\\nbwwb\\nbwww\\n' | pegflip solve puzzles/flip4x4.toml - --json
  pegflip solve puzzles/lights-out.toml --svg lights-out.svg

The first line is what `batch` would print for the board. Coordinates are
0-based [row, col]. Exit status 1 means the board is proven impossible.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// The board: rows joined by `/`; `all-on`, `all-off`, `full but CELL, ...`
    /// or `empty but CELL, ...` (named cells); or `-` to read one row per line
    /// from stdin. Absent: the puzzle's declared start. A board may begin
    /// with `-` (peg boards often do): `pegflip solve pebble12 -o--o-oo----`.
    #[arg(allow_hyphen_values = true)]
    board: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw the start and every step in one SVG picture, written to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Which solver answers.
    #[arg(long, value_enum, default_value_t)]
    solver: crate::common::SolverArg,
    /// Word operations allowed for walking the solution coset (gf2's fewest
    /// presses); past it the answer is the best found, marked not optimal.
    /// Default 2^32; same as `--set limits.coset-work=N`.
    #[arg(long, value_name = "N", value_parser = pegflip::limits::parse_amount)]
    coset_work: Option<u64>,
    /// With the moves metric, first look for a short solution by a beam
    /// search keeping N positions a level; when a limit then stops the
    /// proof, the answer is the shortest found, marked not proven fewest.
    /// Default 0 (no beam); same as `--set limits.beam=N`.
    #[arg(long, value_name = "N", value_parser = pegflip::limits::parse_amount)]
    beam: Option<u64>,
    /// Print the plan (engine, estimated memory and work) to stderr first.
    #[arg(long)]
    explain: bool,
    /// With the moves metric, print a line to stderr as each level by moves
    /// is complete (its search's bound, its side, its positions, the time and
    /// the memory held), and as the beam finds each shorter solution.
    #[arg(long)]
    progress: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let mut puzzle = args.puzzle.load()?;
    if let Some(work) = args.coset_work {
        puzzle.limits.coset_work = work;
    }
    if let Some(width) = args.beam {
        puzzle.limits.beam = width;
    }
    if puzzle.limits.beam > 0 && puzzle.metric != pegflip::Metric::Moves {
        return Err(pegflip::Error::Usage(
            "the beam looks for a short solution by moves: it needs metric = \"moves\" \
             (--metric moves)"
                .into(),
        )
        .into());
    }
    if puzzle.colours() > 2 {
        return crate::colours::solve(
            &puzzle,
            args.board.as_deref(),
            &args.puzzle.puzzle,
            args.json,
            args.svg.as_deref(),
            args.explain,
        );
    }
    let program = puzzle.compile()?;
    let start = match args.board.as_deref() {
        Some("-") => {
            let (bytes, name) = crate::read_input(None)?;
            let text = String::from_utf8_lossy(&bytes);
            let read = puzzle.read_board_lines(&text, &name)?;
            crate::warn(&read.warnings);
            read.state
        }
        Some(text) => {
            let read = puzzle
                .read_board(text, "<board>")
                .map_err(|err| crate::option_as_board(text, "solve", None).unwrap_or(err.into()))?;
            crate::warn(&read.warnings);
            read.state
        }
        None => puzzle.start.clone().ok_or_else(|| {
            pegflip::Error::Usage(format!(
                "no BOARD given, and {} declares no start position",
                args.puzzle.puzzle
            ))
        })?,
    };
    let limits = &puzzle.limits;
    let plan = pegflip::plan::solve_plan(&program, args.solver.into(), limits)?;
    if args.explain {
        crate::common::explain(&plan.erase());
    }
    let spinner = indicatif::ProgressBar::hidden();
    crate::common::spin_after_a_second(&spinner, "solving");
    let observer = args.progress.then(|| report_levels(&spinner));
    let outcome = pegflip::run_solve(&program, &plan, &start, limits, observer.as_ref());
    spinner.finish_and_clear();
    // The library checked the answer (replayed, or its certificate checked) before returning it.
    let outcome = outcome?;
    if let Some(path) = &args.svg {
        let picture = render::svg(&program, &start, &outcome)?;
        std::fs::write(path, picture).map_err(|source| pegflip::Error::Write {
            path: path.clone(),
            source,
        })?;
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        pegflip::write_json(&mut stdout, &program, &start, &outcome, limits)?;
    } else {
        render::write_text(&mut stdout, &program, &start, &outcome)?;
    }
    stdout.flush()?;
    Ok(match outcome {
        Outcome::Solved(_) => crate::OK,
        Outcome::Unsolvable(_) => crate::IMPOSSIBLE,
    })
}

/// `--progress`: a line to stderr for each level by moves as it is
/// complete, and for each shorter solution the beam finds, printed above
/// the `spinner` when it shows.
fn report_levels(spinner: &indicatif::ProgressBar) -> pegflip::Observer {
    let started = std::time::Instant::now();
    let spinner = spinner.clone();
    let report = move |event: &pegflip::Event| {
        let seconds = started.elapsed().as_secs_f64();
        let line = match event {
            pegflip::Event::MoveLevel {
                bound,
                target,
                toward,
                depth,
                positions,
                held,
            } => {
                let search = match bound {
                    Some(bound) => format!("bound {bound}"),
                    None => "beam".to_string(),
                };
                let side = match (target, toward) {
                    (Some(i), _) => format!("backward from target {}", i + 1),
                    (None, Some(i)) => format!("forward toward target {}", i + 1),
                    (None, None) => "forward".to_string(),
                };
                let held = held.map_or(String::new(), |b| {
                    format!(", {} held", pegflip::limits::human_bytes(u128::from(b)))
                });
                let noun = if *positions == 1 {
                    "position"
                } else {
                    "positions"
                };
                format!("{search}, {side}, level {depth}: {positions} {noun}, {seconds:.1} s{held}")
            }
            pegflip::Event::BeamSolution { moves } => {
                format!("beam: a solution of {moves} moves found, {seconds:.1} s")
            }
            _ => return,
        };
        spinner.suspend(|| {
            let _ = writeln!(std::io::stderr(), "{line}");
        });
    };
    pegflip::Observer(std::sync::Arc::new(report))
}
