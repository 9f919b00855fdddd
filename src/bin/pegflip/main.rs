//! The `pegflip` command line: parses arguments, calls the library, prints, and picks the exit code.

mod analyze;
mod batch;
mod check;
mod common;
mod solve;
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
    after_help = "\
Examples:
  pegflip solve puzzles/flip4x4.toml bwwb/bbwb/bwwb/bwww
  pegflip batch puzzles/pebble12.toml < tests/data/pebble12-uva10651.in
  pegflip check puzzles/flip4x4.toml
  pegflip analyze puzzles/lights-out.toml
  pegflip solve puzzles/lights-out.toml --json > answer.json
  pegflip verify puzzles/lights-out.toml answer.json

Exit status: 0 success, 1 `solve` proved the board impossible (or `verify`
found the answer does not hold), 2 bad input or usage, 3 internal error."
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Check(args) => check::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Verify(args) => verify::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => report(&err),
    }
}

/// Prints an error and picks its exit status. A closed pipe is not an error.
fn report(err: &anyhow::Error) -> ExitCode {
    if let Some(io) = err.downcast_ref::<std::io::Error>()
        && io.kind() == std::io::ErrorKind::BrokenPipe
    {
        return ExitCode::from(OK);
    }
    let code = match err.downcast_ref::<pegflip::Error>() {
        Some(pegflip::Error::Internal(_)) => INTERNAL,
        _ => BAD_INPUT,
    };
    match err.downcast_ref::<pegflip::Error>() {
        Some(pegflip::Error::Input(d)) => eprintln!("{d}"),
        _ => eprintln!("pegflip: error: {err:#}"),
    }
    ExitCode::from(code)
}

/// Prints warnings about dropped input to stderr.
fn warn(warnings: &[pegflip::Diagnostic]) {
    let mut err = std::io::stderr().lock();
    for w in warnings {
        let _ = writeln!(err, "{w}");
    }
}

/// Reads a file, or standard input for `-` or no path; returns the bytes and
/// the name to use in messages.
fn read_input(path: Option<&str>) -> anyhow::Result<(Vec<u8>, String)> {
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
