//! The `pegflip` command line: parses arguments, calls the library, prints, and picks the exit code.

mod analyze;
mod batch;
mod check;
mod colours;
mod common;
mod completions;
mod generate;
mod graph;
mod help;
mod list;
mod new;
#[cfg(feature = "serve")]
mod serve;
mod solve;
mod states;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit status for an answer that was found and printed.
const OK: u8 = 0;
/// Exit status of `solve` when the board is proven impossible.
const IMPOSSIBLE: u8 = 1;
/// Exit status for bad input or usage.
const BAD_INPUT: u8 = 2;
/// Exit status when an answer failed the engine's own check (a bug).
const INTERNAL: u8 = 3;

/// Solve lights-out style toggle puzzles and peg-solitaire style jump puzzles
/// defined in TOML files.
#[derive(Parser)]
#[command(
    name = "pegflip",
    version,
    disable_help_subcommand = true,
    after_help = "\
Examples:
  pegflip solve puzzles/flip4x4.toml bwwb/bbwb/bwwb/bwww
  pegflip batch puzzles/pebble12.toml < tests/data/pebble12-uva10651.in
  pegflip check puzzles/flip4x4.toml
  pegflip analyze puzzles/lights-out.toml
  pegflip solve puzzles/lights-out.toml --json > answer.json
  pegflip verify puzzles/lights-out.toml answer.json
  pegflip states puzzles/flip4x4.toml --histogram
  pegflip generate flip4x4 --distance 5 --count 10 --seed 1
  pegflip list
  pegflip solve triangle15
  pegflip new --like triangle15 my-triangle
  pegflip serve            (play, explore and edit puzzles in the browser)
  pegflip help format      (the puzzle file reference)

Exit status: 0 success, 1 `solve` proved the board impossible (or `verify`
found the answer does not hold), 2 bad input or usage, 3 internal error,
130 interrupted."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Solve(solve::Args),
    Batch(batch::Args),
    Check(check::Args),
    Analyze(analyze::Args),
    Verify(verify::Args),
    States(states::Args),
    Graph(graph::Args),
    Generate(generate::Args),
    List(list::Args),
    New(new::Args),
    #[cfg(feature = "serve")]
    Serve(serve::Args),
    /// One request of `serve`'s page, JSON on stdin and stdout (used by `serve` itself).
    #[cfg(feature = "serve")]
    #[command(hide = true)]
    ServeWorker,
    Completions(completions::Args),
    Help(help::Args),
}

/// Exit status after Ctrl-C, as shells report a SIGINT.
const INTERRUPTED: i32 = 130;

/// Every allocation is counted, so that `--max-memory` bounds the process
/// (see [`bound_memory`]).
#[global_allocator]
static METER: pegflip::memory::Meter = pegflip::memory::Meter;

/// Bounds the process at `max_memory` bytes: an allocation past it ends
/// the process with the limit error and exit status 2.
pub fn bound_memory(max_memory: u64) {
    pegflip::memory::bound(max_memory, over_memory);
}

/// What the process does when an allocation would pass `--max-memory`:
/// removes its scratch files, reports the limit and exits with status 2.
fn over_memory(over: pegflip::memory::Over) -> ! {
    remove_scratch();
    let _ = report(&over.error().into());
    std::process::exit(BAD_INPUT.into())
}

/// Removes the files a run writes only for itself (a dataflow's spill),
/// when the process ends before the run could.
pub fn remove_scratch() {
    #[cfg(feature = "dataflow")]
    pegflip::remove_spill_files(None);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Ctrl-C ends the program with 130. Output is written in whole pieces and flushed
    // as each is done, so what was printed before stays printed. `serve` stops
    // its server on Ctrl-C itself.
    #[cfg(feature = "serve")]
    let own_handler = matches!(cli.command, Command::Serve(_));
    #[cfg(not(feature = "serve"))]
    let own_handler = false;
    if !own_handler {
        let _ = ctrlc::set_handler(|| {
            remove_scratch();
            std::process::exit(INTERRUPTED)
        });
    }
    let result = match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Check(args) => check::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Verify(args) => verify::run(args),
        Command::States(args) => states::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Generate(args) => generate::run(args),
        Command::List(args) => list::run(args),
        Command::New(args) => new::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
        #[cfg(feature = "serve")]
        Command::ServeWorker => serve::worker::run(),
        Command::Completions(args) => completions::run(args),
        Command::Help(args) => help::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => report(&err),
    }
}

/// The error for a board that did not read and is the name of an option:
/// a board may begin with `-`, so clap takes the word after `flag` (or, for
/// `None`, an option `command` does not know, as in `solve --histogram`)
/// for the board. `None` when `text` names no option (with `flag` `None`,
/// no option of another command).
fn option_as_board(text: &str, command: &str, flag: Option<&str>) -> Option<anyhow::Error> {
    use clap::CommandFactory;
    let name = text.strip_prefix("--")?.split('=').next()?;
    let owners: Vec<String> = Cli::command()
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && (flag.is_some() || sub.get_name() != command))
        .filter(|sub| sub.get_arguments().any(|arg| arg.get_long() == Some(name)))
        .map(|sub| format!("`pegflip {}`", sub.get_name()))
        .collect();
    let owners = match owners.split_last()? {
        (last, []) => last.clone(),
        (last, rest) => format!("{} and {last}", rest.join(", ")),
    };
    let message = match flag {
        None => format!(
            "`--{name}` is an option of {owners}, not of `pegflip {command}` (`pegflip \
             {command} --help` lists its options); it was read as the BOARD"
        ),
        Some(flag) => format!("`{flag}` takes a BOARD, and the option `--{name}` was read as it"),
    };
    Some(pegflip::Error::Usage(message).into())
}

/// Prints an error and picks its exit status. A closed pipe is not an error.
fn report(err: &anyhow::Error) -> ExitCode {
    let io = err
        .downcast_ref::<std::io::Error>()
        .or(match err.downcast_ref() {
            Some(pegflip::Error::Io { source, .. } | pegflip::Error::Write { source, .. }) => {
                Some(source)
            }
            _ => None,
        });
    if io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
        return ExitCode::from(OK);
    }
    let code = match err.downcast_ref::<pegflip::Error>() {
        Some(pegflip::Error::Internal(_)) => INTERNAL,
        _ => BAD_INPUT,
    };
    let mut stderr = anstream::stderr().lock();
    let _ = match err.downcast_ref::<pegflip::Error>() {
        Some(pegflip::Error::Input(d)) => writeln!(stderr, "{}", styled(d)),
        _ => {
            let red = anstyle::AnsiColor::Red.on_default().bold();
            writeln!(stderr, "pegflip: {red}error{red:#}: {err:#}")
        }
    };
    ExitCode::from(code)
}

/// Prints warnings about dropped input to stderr.
fn warn(warnings: &[pegflip::Diagnostic]) {
    let mut stderr = anstream::stderr().lock();
    for w in warnings {
        let _ = writeln!(stderr, "{}", styled(w));
    }
}

/// A diagnostic with its kind and caret in colour. anstream drops the colour
/// when stderr is not a terminal or NO_COLOR is set.
fn styled(d: &pegflip::Diagnostic) -> String {
    let plain = d.to_string();
    let (kind, colour) = match d.severity {
        pegflip::error::Severity::Error => ("error", anstyle::AnsiColor::Red),
        pegflip::error::Severity::Warning => ("warning", anstyle::AnsiColor::Yellow),
    };
    let style = colour.on_default().bold();
    let mut lines: Vec<String> = plain.lines().map(str::to_string).collect();
    if let Some(first) = lines.first_mut() {
        *first = first.replacen(
            &format!(": {kind}: "),
            &format!(": {style}{kind}{style:#}: "),
            1,
        );
    }
    if let Some(caret) = lines.last_mut() {
        *caret = caret.replace('^', &format!("{style}^{style:#}"));
    }
    lines.join("\n")
}

/// Reads a file, or standard input for `-` or no path; returns the bytes and
/// the name to use in messages.
fn read_input(path: Option<&str>) -> anyhow::Result<(Vec<u8>, String)> {
    let (mut bytes, name) = read_bytes(path)?;
    // A UTF-8 byte-order mark, as some editors write, is not part of the input.
    if bytes.starts_with(pegflip::io::BOM.as_bytes()) {
        bytes.drain(..pegflip::io::BOM.len());
    }
    Ok((bytes, name))
}

/// Opens a file, or standard input for `-` or no path, to read as it
/// comes; with the name to use in messages.
fn open_input(path: Option<&str>) -> anyhow::Result<(Box<dyn std::io::Read>, String)> {
    match path {
        None | Some("-") => Ok((Box::new(std::io::stdin().lock()), "<stdin>".into())),
        Some(p) => {
            let file = std::fs::File::open(p).map_err(|source| pegflip::Error::Io {
                path: p.into(),
                source,
            })?;
            Ok((Box::new(file), p.into()))
        }
    }
}

fn read_bytes(path: Option<&str>) -> anyhow::Result<(Vec<u8>, String)> {
    match path {
        None | Some("-") => {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map_err(
                |source| pegflip::Error::Io {
                    path: "<stdin>".into(),
                    source,
                },
            )?;
            Ok((bytes, "<stdin>".into()))
        }
        Some(p) => {
            let bytes = std::fs::read(p).map_err(|source| pegflip::Error::Io {
                path: p.into(),
                source,
            })?;
            Ok((bytes, p.into()))
        }
    }
}
