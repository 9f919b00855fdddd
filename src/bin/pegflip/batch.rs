//! `pegflip batch`: judge-format input to judge-format output, byte for byte.

use std::io::{BufWriter, Write};

use serde_json::json;

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
    if puzzle.colours() > 2 {
        return crate::colours::batch(&puzzle, args.input.as_deref(), args.json, args.explain);
    }
    let program = puzzle.compile()?;
    let (input, name) = crate::open_input(args.input.as_deref())?;
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let limits = &puzzle.limits;
    let solver = args.solver.into();
    let plan = if args.json {
        out.write_all(b"{\n  \"answers\": [")?;
        let mut lines = JsonLines {
            out: &mut out,
            line: Vec::new(),
            first: true,
        };
        let mut warnings = Vec::new();
        let mut more = 0u64;
        let plan = pegflip::batch_to(
            &program,
            input,
            &name,
            limits,
            solver,
            &mut lines,
            &mut |w| {
                if warnings.len() < JSON_WARNINGS {
                    warnings.push(json!({ "file": w.file, "line": w.line, "col": w.col, "message": w.message }));
                } else {
                    more += 1;
                }
            },
        )?;
        let first = lines.first;
        out.write_all(if first { b"]" } else { b"\n  ]" })?;
        let list = serde_json::to_string_pretty(&warnings)?.replace('\n', "\n  ");
        write!(out, ",\n  \"warnings\": {list}")?;
        if more > 0 {
            write!(out, ",\n  \"more_warnings\": {more}")?;
        }
        out.write_all(b"\n}\n")?;
        plan
    } else {
        pegflip::batch_to(&program, input, &name, limits, solver, &mut out, &mut |w| {
            crate::warn(&[w])
        })?
    };
    out.flush()?;
    if args.explain {
        crate::common::explain(&plan);
    }
    Ok(crate::OK)
}

/// The most warnings `--json` lists; past it, `more_warnings` counts the rest.
const JSON_WARNINGS: usize = 1000;

/// Answers as the JSON list `--json` writes: each line of the judge's
/// output becomes one string, as it comes.
struct JsonLines<W: Write> {
    out: W,
    line: Vec<u8>,
    first: bool,
}

impl<W: Write> Write for JsonLines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for part in buf.split_inclusive(|&b| b == b'\n') {
            match part.split_last() {
                Some((b'\n', line)) => {
                    self.line.extend_from_slice(line);
                    let sep: &[u8] = if self.first { b"\n    " } else { b",\n    " };
                    self.first = false;
                    self.out.write_all(sep)?;
                    let text = String::from_utf8_lossy(&self.line);
                    serde_json::to_writer(&mut self.out, &text)?;
                    self.line.clear();
                }
                _ => self.line.extend_from_slice(part),
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
