//! `pegflip batch`: judge-format input to judge-format output, byte for byte.

use std::io::Write;

use clap::Parser;

/// Answer every case of a judge-format input, in the judge's output format.
#[derive(Parser)]
#[command(after_help = "\
Example:
  pegflip batch puzzles/flip4x4.toml < tests/data/flip4x4-seed004.in

The input format is the puzzle's [batch] section: cases one after another
(header = \"none\") or a count first (header = \"count\"), each with its own
size, shape and goal cell when the format says so; rows or cells separated by
any whitespace. The answers are counts, press matrices or move lists
(`pegflip help format`, section [batch]). In the seeds' format (a row a
word, a count a line) surplus empty cells past the end of a row are dropped
with a warning on stderr; a surplus piece, or any surplus cell in the other
formats, is an error.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// The input file; standard input when absent or `-`.
    input: Option<String>,
    /// Which solver answers.
    #[arg(long, value_enum, default_value_t)]
    solver: crate::common::SolverArg,
    /// Print one JSON object: the answers and the warnings.
    #[arg(long)]
    json: bool,
    /// Print the plan (engine, estimated memory and work) to stderr first.
    #[arg(long)]
    explain: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    let program = puzzle.compile()?;
    let (input, name) = crate::read_input(args.input.as_deref())?;
    let out = pegflip::batch(&program, &input, &name, &puzzle.limits, args.solver.into())?;
    if args.explain {
        crate::common::explain(&out.plan);
    }
    let mut stdout = std::io::stdout().lock();
    if args.json {
        let text = String::from_utf8_lossy(&out.text);
        let warnings: Vec<_> = out
            .warnings
            .iter()
            .map(|w| serde_json::json!({ "file": w.file, "line": w.line, "col": w.col, "message": w.message }))
            .collect();
        let v = serde_json::json!({ "answers": text.lines().collect::<Vec<_>>(), "warnings": warnings });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        stdout.flush()?;
        return Ok(crate::OK);
    }
    crate::warn(&out.warnings);
    stdout.write_all(&out.text)?;
    stdout.flush()?;
    Ok(crate::OK)
}
