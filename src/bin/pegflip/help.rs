//! `pegflip help [TOPIC | COMMAND]`: the reference documents built into the binary, and each command's help.

use std::io::Write;

use clap::{CommandFactory, Parser};

/// The documents built in, by topic: what `pegflip help TOPIC` prints.
const TOPICS: &[(&str, &str, &str)] = &[
    (
        "format",
        "the puzzle file: every key, with examples",
        include_str!("../../../docs/format.md"),
    ),
    (
        "json",
        "what --json writes, for every command that takes it",
        include_str!("../../../docs/json.md"),
    ),
];

/// Print the help of a command, or a reference document.
#[derive(Parser)]
#[command(after_help = "\
Topics:
  format   the puzzle file: every key, with examples
  json     what --json writes, for every command that takes it

Examples:
  pegflip help format
  pegflip help solve")]
pub struct Args {
    /// A topic (format, json) or a command (solve, batch, ...).
    topic: Option<String>,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let mut cli = crate::Cli::command();
    // Building sets each command's usage line to `pegflip COMMAND`.
    cli.build();
    let Some(topic) = &args.topic else {
        cli.print_long_help()?;
        return Ok(crate::OK);
    };
    if let Some((_, _, text)) = TOPICS.iter().find(|(name, _, _)| name == topic) {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
        return Ok(crate::OK);
    }
    if let Some(command) = cli.find_subcommand_mut(topic) {
        command.print_long_help()?;
        return Ok(crate::OK);
    }
    let commands: Vec<String> = cli
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let topics: Vec<&str> = TOPICS.iter().map(|(name, _, _)| *name).collect();
    anyhow::bail!(
        "no help topic or command '{topic}': topics are {}; commands are {}",
        topics.join(", "),
        commands.join(", ")
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn topics_are_the_docs() {
        for (name, about, text) in super::TOPICS {
            assert!(text.starts_with('#'), "{name}");
            assert!(!about.is_empty());
        }
    }
}
