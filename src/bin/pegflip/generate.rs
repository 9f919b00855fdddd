//! `pegflip generate`: random boards at a chosen distance from the goal, one per line, each solved before it is printed.

use std::io::Write;

use clap::Parser;
use serde_json::json;

/// Print random boards at a chosen distance from the goal, one per line as a
/// board is written on the command line; each is solved before it is printed.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip generate flip4x4 --distance 5 --count 100 --seed 1
  pegflip generate lights-out --distance 12 --count 3
  pegflip generate english33 --distance 10 --seed 7
  pegflip generate pebble12 --distance max

The distance is the fewest moves to the goal in the puzzle's metric; for a
fewest-pieces goal, the fewest pieces a board can be left with (what `solve`
prints first). Boards are uniform among the boards at that distance where
every state can be counted (within the limit generate-work) and for linear
puzzles of any size; a larger peg puzzle's boards are played backwards from a
target, which is said. The same seed gives the same boards; without --seed one
is picked and printed to stderr.")]
pub struct Args {
    #[command(flatten)]
    puzzle: crate::common::PuzzleArgs,
    /// How far from the goal: a number of moves, or `max` for the greatest
    /// distance any board has.
    #[arg(long, value_name = "D|max", value_parser = parse_distance)]
    distance: Distance,
    /// How many boards, each drawn on its own (two may be the same).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    count: u64,
    /// The seed of the draws: the same seed gives the same boards.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Print one JSON object: the boards, their distance, the seed and the method.
    #[arg(long)]
    json: bool,
    /// Print the plan (engine, estimated memory and work) to stderr first.
    #[arg(long)]
    explain: bool,
}

/// A distance as given: a number or the greatest.
#[derive(Clone, Copy, Debug)]
struct Distance(Option<u32>);

fn parse_distance(text: &str) -> Result<Distance, String> {
    if text == "max" {
        return Ok(Distance(None));
    }
    text.parse::<u32>()
        .map(|d| Distance(Some(d)))
        .map_err(|_| format!("expected a number of moves from 0 to {} or `max`", u32::MAX))
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    let puzzle = args.puzzle.load()?;
    let program = puzzle.compile()?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = clock_seed();
            let _ = writeln!(
                std::io::stderr(),
                "pegflip: seed {seed} (--seed {seed} draws the same boards again)"
            );
            seed
        }
    };
    let boards = usize::try_from(args.count)?;
    let order = pegflip::Order {
        distance: args.distance.0,
        boards,
        seed,
    };
    if args.explain {
        let plan = pegflip::plan(&program, &order.query(), Default::default(), &puzzle.limits)?;
        crate::common::explain(&plan);
    }
    let generated = pegflip::generate(&program, &order, &puzzle.limits)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let value = json!({
            "puzzle": puzzle.name,
            "distance": generated.distance,
            "seed": seed,
            "uniform": generated.drawn.uniform(),
            "method": generated.drawn.describe(),
            "boards": generated.boards.iter().map(|b| puzzle.board_text(b)).collect::<Vec<_>>(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        for board in &generated.boards {
            writeln!(out, "{}", puzzle.board_text(board))?;
        }
    }
    out.flush()?;
    Ok(crate::OK)
}

/// A seed from the clock, for a run that names none.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 ^ u64::from(std::process::id()))
}
