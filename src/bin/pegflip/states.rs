//! `pegflip states`: list, count or histogram every solvable (or reachable) state.

use std::io::{BufWriter, IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pegflip::Output;
use pegflip::{Bits, Goal};
use pegflip::{Request, enumerate};

/// List every solvable state: those from which the goal can be reached.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip states puzzles/flip4x4.toml --count
  pegflip states puzzles/flip4x4.toml --histogram
  pegflip states puzzles/pebble12.toml | head
  pegflip states puzzles/english33.toml --from start --reachable --count --symmetry

The distance in a histogram is the fewest moves to the goal, or with
--reachable the fewest moves from the start. For a fewest-pieces puzzle every
state is listed with its answer, and --histogram groups states by answer.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// Keep only states reachable from BOARD (`start`: the puzzle's declared start).
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    from: Option<String>,
    /// Every state reachable from --from, whether or not it can reach the goal.
    #[arg(long)]
    reachable: bool,
    /// Print only the number of states.
    #[arg(long, conflicts_with = "histogram")]
    count: bool,
    /// Print `DISTANCE COUNT` lines.
    #[arg(long)]
    histogram: bool,
    /// Count and list states up to the puzzle's symmetries (found from its board graph).
    #[arg(long)]
    symmetry: bool,
    /// Hold every position itself, not one per class of the start's
    /// symmetries weighted by its size: slower and bigger, the same counts by
    /// an independent road (peg boards counted from a start).
    #[arg(long, conflicts_with = "symmetry")]
    no_orbits: bool,
    /// How states are written.
    #[arg(long, value_enum, default_value_t = Format::Board)]
    format: Format,
    /// Estimate each layer's size from a sample instead of counting: `DEPTH
    /// ESTIMATE HIGH` lines (HIGH: a 95% upper bound), then the total
    /// (peg boards, `--from BOARD --reachable`).
    #[arg(long, conflicts_with_all = ["count", "histogram", "workers", "processes"])]
    estimate: bool,
    /// The most positions drawn per layer by --estimate (a layer stops
    /// sooner at 50 reached or 200 unsettled); from 1 to 10,000,000.
    #[arg(long, value_name = "N", default_value_t = 2000, requires = "estimate",
        value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    samples: u32,
    /// The positions one --estimate test may visit before it gives up (it
    /// then counts as unsettled: reached, for the upper bound); from 1 to 100,000,000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20_000,
        requires = "estimate",
        value_parser = clap::value_parser!(u64).range(1..=100_000_000)
    )]
    test_budget: u64,
    /// Print the plan (engine, estimated memory and work) to stderr first.
    #[arg(long)]
    explain: bool,
    /// Count on W worker threads as a timely dataflow, each layer
    /// partitioned across them (peg boards, `--from BOARD --reachable`); at
    /// most 4 per core of the machine.
    #[arg(long, value_name = "W")]
    workers: Option<usize>,
    /// The number of processes of a distributed run; each runs the same
    /// command with its own --process, and --hostfile lists their addresses.
    #[arg(long, value_name = "N", requires_all = ["process", "hostfile"])]
    processes: Option<usize>,
    /// This process's index in a distributed run, from 0.
    #[arg(long, value_name = "I", requires = "processes")]
    process: Option<usize>,
    /// A file of `host:port` lines, one per process, in process order.
    #[arg(long, value_name = "FILE", requires = "processes")]
    hostfile: Option<String>,
    /// With --workers or --processes, list the states into DIR: one file per
    /// worker (`states-I.txt`, I its index), each layer by layer; `cat
    /// DIR/states-*.txt` gives every state once.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["count", "histogram", "json"])]
    output_dir: Option<std::path::PathBuf>,
    /// With --workers or --processes, let each worker spill its layers to DIR
    /// as sorted runs, merged without repeats, keeping its layer and sets to a
    /// quarter of its share of max-memory; the disk it needs is estimated and
    /// checked first.
    #[arg(long, value_name = "DIR")]
    spill_dir: Option<std::path::PathBuf>,
    /// Print the dataflow's estimate and one line per layer (with each
    /// worker's share) to stderr, even when stderr is not a terminal.
    #[arg(long)]
    progress: bool,
    /// Print one JSON object: `{"count": ...}`, `{"histogram": [...]}`, or
    /// `{"states": [...]}` (each state as with `--format json`).
    #[arg(long)]
    json: bool,
}

/// How `states` writes a state.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Board text, rows joined by `/`.
    Board,
    /// One 0 or 1 per cell, in cell order.
    Bits,
    /// The state as an integer: bit i is cell i.
    Int,
    /// One JSON object per line.
    Json,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    if puzzle.colours() > 2 {
        let other = args.from.is_some()
            || args.reachable
            || args.symmetry
            || args.no_orbits
            || args.estimate
            || args.workers.is_some()
            || args.processes.is_some()
            || args.output_dir.is_some()
            || args.spill_dir.is_some()
            || args.format != Format::Board;
        if other {
            anyhow::bail!(pegflip::Error::Usage(format!(
                "{} has {} colours: `states` on it takes --count, --histogram, --json and \
                 --explain (every board that can reach the goal)",
                puzzle.name,
                puzzle.colours()
            )));
        }
        return crate::colours::states(
            &puzzle,
            args.count,
            args.histogram,
            args.json,
            args.explain,
        );
    }
    let program = puzzle.compile()?;
    let from = match args.from.as_deref() {
        None => None,
        Some("start") => Some(puzzle.start.clone().ok_or_else(|| {
            pegflip::Error::Usage(format!("{} declares no start position", args.puzzle.puzzle))
        })?),
        Some(text) => {
            let read = puzzle.read_board(text, "--from").map_err(|err| {
                crate::option_as_board(text, "states", Some("--from")).unwrap_or(err.into())
            })?;
            crate::warn(&read.warnings);
            Some(read.state)
        }
    };
    let output = if args.count {
        Output::Count
    } else if args.histogram {
        Output::Histogram
    } else {
        Output::List
    };
    if args.estimate {
        return estimate(args, &program, from.as_ref());
    }
    let cluster = cluster(args)?;
    if cluster.as_ref().is_some_and(|c| c.processes() > 1) {
        quiet_lost_connections();
    }
    let (request, written) = match prepare(args, &puzzle, &program, from, output, cluster.clone()) {
        Ok(prepared) => prepared,
        Err(e) => {
            // The other processes learn of a refusal here at once, not after their wait.
            #[cfg(feature = "dataflow")]
            if let Some(c) = &cluster {
                pegflip::tell_refusal(c, &format!("{e:#}"));
            }
            return Err(e);
        }
    };
    let limits = &puzzle.limits;
    let objective = matches!(program.goal(), Goal::FewestPieces);
    let listing = !args.count && !args.histogram && written.is_none();
    let progress = Progress::new();
    // Not locked for the whole run: the workers of a dataflow may print too.
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout());
    let mut failed: Option<std::io::Error> = None;
    let cells = program.cells();
    let format = if args.json { Format::Json } else { args.format };
    let mut first = true;
    if args.json && listing {
        out.write_all(b"{\"states\": [")?;
    }
    let mut visit = |state: &Bits, d: Option<u32>| -> bool {
        progress.tick();
        if !listing {
            return true;
        }
        let text = match format {
            Format::Board => puzzle.board_text(state),
            Format::Bits => (0..cells)
                .map(|i| if state.get(i) { '1' } else { '0' })
                .collect(),
            Format::Int => state.to_decimal(),
            Format::Json => {
                let key = if objective { "answer" } else { "distance" };
                serde_json::json!({ "board": puzzle.board_text(state), key: d }).to_string()
            }
        };
        let line = match (objective, format, d) {
            (true, Format::Board | Format::Bits | Format::Int, Some(a)) => format!("{text} {a}\n"),
            _ if args.json => {
                let sep = if first { "\n  " } else { ",\n  " };
                first = false;
                format!("{sep}{text}")
            }
            _ => format!("{text}\n"),
        };
        match out.write_all(line.as_bytes()) {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    };
    let summary = if listing {
        enumerate(&program, &request, limits, Some(&mut visit))?
    } else {
        if request.observer.is_none() {
            progress.spin();
        }
        enumerate(&program, &request, limits, None)?
    };
    progress.finish();
    if let Some(files) = written {
        let _ = writeln!(
            std::io::stderr(),
            "pegflip: {} states listed; this process wrote {}",
            summary.count,
            files.join(", ")
        );
        return Ok(crate::OK);
    }
    if let Some(e) = failed {
        return Err(e.into());
    }
    if args.json {
        let value = if listing {
            out.write_all(b"\n]}\n")?;
            None
        } else if args.count {
            Some(serde_json::json!({
                "count": summary.count.to_string(),
                "symmetries": summary.symmetries,
            }))
        } else {
            let levels: Vec<_> = summary
                .histogram
                .iter()
                .map(|(d, n)| serde_json::json!({ "distance": d, "count": n.to_string() }))
                .collect();
            Some(serde_json::json!({
                "histogram": levels,
                "count": summary.count.to_string(),
                "symmetries": summary.symmetries,
            }))
        };
        if let Some(value) = value {
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
    } else if args.count {
        writeln!(out, "{}", summary.count)?;
    } else if args.histogram {
        for (d, n) in &summary.histogram {
            writeln!(out, "{d} {n}")?;
        }
    }
    out.flush()?;
    Ok(crate::OK)
}

/// The request of a run, from its flags, and the files a dataflow listing
/// will write; refused when the flags do not fit together or a directory
/// cannot be used.
fn prepare(
    args: &Args,
    puzzle: &pegflip::Puzzle,
    program: &pegflip::Program,
    from: Option<Bits>,
    output: Output,
    cluster: Option<pegflip::Cluster>,
) -> anyhow::Result<(Request, Option<Vec<String>>)> {
    let listing = match (&cluster, &args.output_dir, output) {
        (Some(c), Some(dir), Output::List) => Some(listing(puzzle, dir, args.format, c.workers())?),
        (Some(_), None, Output::List) => anyhow::bail!(
            "a listing by --workers or --processes writes one file per worker: give --output-dir \
             DIR (or --count or --histogram)"
        ),
        (None, Some(_), _) => {
            anyhow::bail!("--output-dir is for listings by --workers or --processes")
        }
        _ if cluster.is_none() && args.spill_dir.is_some() => {
            anyhow::bail!("--spill-dir is for --workers or --processes")
        }
        _ => None,
    };
    if let Some(dir) = &args.spill_dir {
        std::fs::create_dir_all(dir).map_err(|source| pegflip::Error::Write {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let observer = cluster
        .as_ref()
        .filter(|_| args.progress || std::io::stderr().is_terminal())
        .map(|_| report_progress());
    let written = listing.as_ref().zip(cluster.as_ref()).map(|(l, c)| {
        let first = c.process * c.threads;
        (first..first + c.threads)
            .map(|i| l.file(i, c.workers()).display().to_string())
            .collect::<Vec<_>>()
    });
    let request = Request {
        from,
        reachable: args.reachable,
        symmetry: args.symmetry,
        explicit: args.no_orbits,
        output,
        cluster,
        observer,
        listing,
        spill: args.spill_dir.clone(),
        // Only JSON listings print a target puzzle's distances.
        distances: args.json || args.format == Format::Json,
    };
    if args.explain {
        let plan = pegflip::plan(
            program,
            &request.query(),
            Default::default(),
            &puzzle.limits,
        )?;
        crate::common::explain(&plan);
    }
    Ok((request, written))
}

/// How a dataflow run writes its states into `dir`: a line each, as `format`
/// says (JSON: one object per line, with the depth).
fn listing(
    puzzle: &pegflip::Puzzle,
    dir: &std::path::Path,
    format: Format,
    workers: usize,
) -> anyhow::Result<pegflip::Listing> {
    std::fs::create_dir_all(dir).map_err(|source| pegflip::Error::Write {
        path: dir.display().to_string(),
        source,
    })?;
    // The run replaces its own workers' files whole; any other listing file
    // is an earlier run's, and `cat DIR/states-*.txt` would list it too.
    let ours = pegflip::Listing {
        dir: dir.to_path_buf(),
        write: std::sync::Arc::new(|_: &Bits, _: u32, _: &mut dyn Write| Ok(())),
    };
    let expected: Vec<std::ffi::OsString> = (0..workers)
        .filter_map(|i| ours.file(i, workers).file_name().map(Into::into))
        .collect();
    let entries = std::fs::read_dir(dir).map_err(|source| pegflip::Error::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let mut stale: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .filter(|n| {
            let n = n.to_string_lossy();
            n.starts_with("states-") && n.ends_with(".txt")
        })
        .filter(|n| !expected.contains(n))
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    if !stale.is_empty() {
        stale.sort();
        return Err(pegflip::Error::Usage(format!(
            "{} holds an earlier listing's files ({}) that this run of {workers} workers would \
             not replace: remove them, or give an empty --output-dir",
            dir.display(),
            stale.join(", ")
        ))
        .into());
    }
    let puzzle = std::sync::Arc::new(puzzle.clone());
    let write = move |state: &Bits, depth: u32, out: &mut dyn Write| -> std::io::Result<()> {
        match format {
            Format::Board => writeln!(out, "{}", puzzle.board_text(state)),
            Format::Bits => {
                let bits: String = (0..state.len())
                    .map(|i| if state.get(i) { '1' } else { '0' })
                    .collect();
                writeln!(out, "{bits}")
            }
            Format::Int => writeln!(out, "{}", state.to_decimal()),
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({ "board": puzzle.board_text(state), "distance": depth })
            ),
        }
    };
    Ok(pegflip::Listing {
        dir: dir.to_path_buf(),
        write: std::sync::Arc::new(write),
    })
}

/// Prints a dataflow's estimate, then a line per layer with each worker's
/// share, to stderr.
fn report_progress() -> pegflip::Observer {
    let started = Instant::now();
    let report = move |event: &pegflip::Event| {
        use pegflip::Event;
        let gib = |b: u64| pegflip::limits::human_bytes(u128::from(b));
        let line = match event {
            Event::Estimate {
                bytes,
                high,
                budget,
                disk,
            } => {
                let mut line = format!(
                    "pegflip: each worker is estimated to hold {} at its peak ({} at the sample's \
                     95% bound), of its {} share of max-memory",
                    gib(*bytes),
                    gib(*high),
                    gib(*budget)
                );
                if let Some((spilled, free)) = disk {
                    line += &format!(
                        "; with the spill, {} on disk at its peak ({} free)",
                        gib(*spilled),
                        gib(*free)
                    );
                }
                line
            }
            Event::Layer { depth, positions } => {
                let total: u64 = positions.iter().sum();
                let shares = if positions.len() <= 8 {
                    positions
                        .iter()
                        .enumerate()
                        .map(|(w, n)| format!("w{w} {n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                } else {
                    let least = positions.iter().min().copied().unwrap_or(0);
                    let most = positions.iter().max().copied().unwrap_or(0);
                    format!("{} workers, {least} to {most} each", positions.len())
                };
                format!(
                    "layer {depth}: {total} positions held ({shares}), {:.1} s",
                    started.elapsed().as_secs_f64()
                )
            }
            // A dataflow tells of layers, not of levels by moves.
            Event::MoveLevel { .. } | Event::BeamSolution { .. } => return,
        };
        let _ = writeln!(std::io::stderr(), "{line}");
    };
    pegflip::Observer(std::sync::Arc::new(report))
}

/// `--estimate`: each layer's estimated size, from a sample.
fn estimate(args: &Args, program: &pegflip::Program, from: Option<&Bits>) -> anyhow::Result<u8> {
    let start = from
        .filter(|_| args.reachable)
        .ok_or_else(|| pegflip::Error::Usage("--estimate needs --from BOARD --reachable".into()))?;
    let sampling = pegflip::Sampling {
        draws: args.samples.max(1),
        budget: usize::try_from(args.test_budget).unwrap_or(usize::MAX),
        enough_reached: 50,
        enough_unsettled: 200,
    };
    let layers = pegflip::estimate_layers(program, start, sampling).ok_or_else(|| {
        pegflip::Error::Usage(
            "--estimate needs a peg board: every move a jump, at most 64 cells".into(),
        )
    })?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "# depth estimate high(95%) sampled reached unsettled branching, from at most {} positions \
         drawn per layer",
        args.samples.max(1)
    )?;
    let (mut total, mut high) = (0.0, 0.0);
    for layer in &layers {
        writeln!(
            out,
            "{} {:.0} {:.0} {} {} {} {:.2}",
            layer.depth,
            layer.estimate(),
            layer.high(),
            layer.sampled,
            layer.hits,
            layer.unsettled,
            layer.branching()
        )?;
        total += layer.estimate();
        high += layer.high();
    }
    writeln!(out, "# total {total:.3e} high {high:.3e}")?;
    Ok(crate::OK)
}

/// Ends the process with one clear error when a connection to another process
/// of the dataflow is lost. Timely's threads panic then, and a second panic
/// while a worker unwinds would abort the process, so the first one, in the
/// panic hook, prints the error and exits with status 2; any other thread's
/// lost-connection panic waits for that exit, so the error is printed once.
fn quiet_lost_connections() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if pegflip::is_lost_connection(message) {
            // Several of timely's threads panic at once when a peer goes: the
            // first reports and exits, the others wait for the exit.
            static REPORTED: std::sync::atomic::AtomicBool =
                std::sync::atomic::AtomicBool::new(false);
            if REPORTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
                loop {
                    std::thread::park();
                }
            }
            let _ = writeln!(
                std::io::stderr().lock(),
                "pegflip: error: the dataflow stopped: the connection to another process was \
                 lost, so the layers cannot be completed (timely reported: {message})"
            );
            crate::remove_scratch();
            std::process::exit(i32::from(crate::BAD_INPUT));
        }
        default(info);
    }));
}

/// The workers of `--workers`, `--processes`, `--process` and `--hostfile`.
fn cluster(args: &Args) -> anyhow::Result<Option<pegflip::Cluster>> {
    let threads = args.workers.unwrap_or(1);
    if !(1..=1024).contains(&threads) {
        anyhow::bail!("--workers must be from 1 to 1024, not {threads}");
    }
    let Some(processes) = args.processes else {
        return Ok(args.workers.map(|_| pegflip::Cluster::local(threads)));
    };
    let process = args.process.unwrap_or(0);
    if !(1..=1024).contains(&processes) || process >= processes {
        anyhow::bail!(
            "--processes must be from 1 to 1024 and --process from 0 to one less, not {processes} \
             and {process}"
        );
    }
    let path = args.hostfile.as_deref().unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|source| pegflip::Error::Io {
        path: path.into(),
        source,
    })?;
    Ok(Some(pegflip::Cluster::from_hostfile(
        &text, path, processes, process, threads,
    )?))
}

/// A spinner on stderr that appears once a run has lasted a second (never
/// when stderr is not a terminal).
struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: std::cell::Cell<bool>,
    seen: std::cell::Cell<u64>,
}

impl Progress {
    fn new() -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {human_pos} states, {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Progress {
            bar,
            started: Instant::now(),
            shown: false.into(),
            seen: 0.into(),
        }
    }

    fn tick(&self) {
        let n = self.seen.get() + 1;
        self.seen.set(n);
        if n.is_multiple_of(65536) {
            if !self.shown.get() && self.started.elapsed() > Duration::from_secs(1) {
                self.bar.set_draw_target(ProgressDrawTarget::stderr());
                self.shown.set(true);
            }
            self.bar.set_position(n);
        }
    }

    /// A spinner with the elapsed time, for runs that list nothing, shown after a second.
    fn spin(&self) {
        crate::common::spin_after_a_second(&self.bar, "enumerating");
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
