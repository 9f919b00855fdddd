//! `pegflip new`: start a new puzzle file from a commented copy of a shipped one.

use std::io::Write;

use anyhow::Context;
use clap::Parser;

/// Write NAME.toml, a commented copy of a shipped puzzle to edit into a new variant.
#[derive(Parser)]
#[command(after_help = "\
Example:
  pegflip new --like triangle15 my-triangle
  pegflip check my-triangle.toml")]
pub struct Args {
    /// The shipped puzzle to copy (`pegflip list` shows them).
    #[arg(long, value_name = "PUZZLE")]
    like: String,
    /// The new puzzle's name; it is written to NAME.toml (or to NAME, when it ends in .toml).
    name: String,
    /// Overwrite the file if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let Some(entry) = pegflip::catalogue::find(&args.like) else {
        let names: Vec<&str> = pegflip::catalogue::PUZZLES.iter().map(|e| e.name).collect();
        anyhow::bail!(
            "no shipped puzzle is named '{}': choose one of {}",
            args.like,
            names.join(", ")
        );
    };
    let stem = args.name.strip_suffix(".toml").unwrap_or(&args.name);
    let file = std::path::Path::new(stem).file_name();
    if stem.trim().is_empty()
        || stem.ends_with(std::path::is_separator)
        || file.is_none_or(|f| f.to_string_lossy().trim().is_empty())
    {
        return Err(pegflip::Error::Usage(format!(
            "`{}` names no file: give the new puzzle a name, such as my-{}",
            args.name, entry.name
        ))
        .into());
    }
    let path = if args.name.ends_with(".toml") {
        args.name.clone()
    } else {
        format!("{}.toml", args.name)
    };
    let title = std::path::Path::new(&path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(&args.name)
        .to_string();
    let text = copy(entry, &title);
    // The copy must itself be a valid puzzle.
    pegflip::Puzzle::parse(&text, &path)?;
    if !args.force && std::path::Path::new(&path).exists() {
        anyhow::bail!(
            "{path} already exists: choose another name, or pass --force to overwrite it"
        );
    }
    std::fs::write(&path, &text).with_context(|| format!("cannot write {path}"))?;
    writeln!(
        std::io::stdout().lock(),
        "wrote {path}, a copy of {}; next: edit it, then `pegflip check {path}`",
        entry.name
    )?;
    Ok(crate::OK)
}

/// The shipped text under a header that explains every section, with the
/// `name` line renamed.
fn copy(entry: &pegflip::catalogue::Entry, title: &str) -> String {
    let mut out = format!(
        "# {title}: a new pegflip puzzle, started from the shipped puzzle `{}`.
#
# The sections, all described with examples by `pegflip help format`:
#   name, about, start  the title, one line on the puzzle, and the declared start
#                       (board text with rows joined by '/', all-on, all-off,
#                       \"full but CELL\" or \"empty but CELL\").
#   [board]     rows and cols, or a shape of 'o' (cell) and '.' (no cell); wrap = true
#               for a torus; lattice = \"triangular\"; or nodes and edges for a graph;
#               names = \"chess\", \"numbers\" or a list, to name cells.
#   [symbols]   the characters for a set cell, a clear cell and a gap.
#   [[moves]]   one or more rules: toggle = self, plus, x, square, knight,
#               row-and-column, open or closed; offsets = [[row, col], ...];
#               press = CELL with flips = board text; when = \"on\" for lit-only
#               presses; jump = orthogonal, diagonal, all or triangular;
#               directions = [[row, col], ...].
#   [goal]      target = board text, all-on, all-off or all-same; any = [...];
#               one-piece = \"anywhere\" or CELL; fewest = \"pieces\".
#   [batch]     the judge's format: header = \"count\" when input starts with the number
#               of cases; size, cells, shape, answer, title and move for other judges.
#
# Check it with `pegflip check {title}.toml`; solve it with `pegflip solve {title}.toml`.

",
        entry.name
    );
    let mut renamed = false;
    for line in entry.text.lines() {
        if !renamed && line.starts_with("name = ") {
            out.push_str(&format!("name = {}\n", toml_string(title)));
            renamed = true;
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}
