//! Boards generated to order: the planned generator run, and every board solved at its distance before it is handed on.

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::solve::Prepared;
use super::states::enumerate;
use crate::bits::Bits;
use crate::engines::draw::{BackwardPlay, CosetDraw, Proposal};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::{Drawn, Generated, Outcome};
use crate::plan::{Generator, generate_plan, solve_plan};
use crate::program::{Goal, Program};
use crate::puzzle::Metric;
use crate::query::{Order, Output, Request};

/// The word operations one coset draw is counted as against the limit
/// `generate-work`, per word of its board and per member of the cosets it
/// walks: about what a draw takes here, measured as the limits' other word
/// operations are.
const DRAW_COST: u128 = 256;

/// Boards at `order.distance` from the goal, drawn as the planner says:
/// uniformly from the layer where every state can be counted, uniformly by
/// rejection for a larger linear puzzle, by backward play for a larger peg
/// puzzle. Every board is solved, and its distance checked, before it is
/// returned. The same seed gives the same boards.
///
/// ```
/// let program = pegflip::Puzzle::from_file("puzzles/flip4x4.toml")?.compile()?;
/// let order = pegflip::Order { distance: Some(5), boards: 3, seed: 1 };
/// let generated = pegflip::generate(&program, &order, &Default::default())?;
/// assert_eq!(generated.boards.len(), 3);
/// assert!(generated.drawn.uniform());
/// for board in &generated.boards {
///     let pegflip::Outcome::Solved(s) = pegflip::solve(&program, board, &Default::default())?
///     else { panic!("a generated board is solvable") };
///     assert_eq!(s.length(), 5);
/// }
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn generate(program: &Program, order: &Order, limits: &Limits) -> Result<Generated> {
    let plan = generate_plan(program, order.distance, order.boards, limits)?;
    let mut rng = ChaCha8Rng::seed_from_u64(order.seed);
    let judge = Judge::new(program, limits)?;
    let generated = match plan.engine {
        Generator::Layers(_) => by_layers(program, order, limits, &mut rng)?,
        Generator::Coset(_) => by_coset(program, order, &judge, limits, &mut rng)?,
        Generator::Backward(_) => by_backward(program, order, &judge, limits, &mut rng)?,
    };
    // Backward play kept only boards it had solved at the distance.
    let solved = matches!(generated.drawn, Drawn::Backward { .. });
    for board in generated.boards.iter().filter(|_| !solved) {
        let found = judge.distance(program, board, limits)?;
        if found != Some(generated.distance) {
            return Err(Error::Internal(format!(
                "a board drawn at distance {} solves at {found:?}",
                generated.distance
            )));
        }
    }
    Ok(generated)
}

/// The planned solver, built once, that gives each board its distance.
struct Judge(Prepared);

impl Judge {
    fn new(program: &Program, limits: &Limits) -> Result<Judge> {
        let plan = solve_plan(program, Default::default(), limits)?;
        Ok(Judge(Prepared::new(program, plan, limits)?))
    }

    /// The board's distance (for fewest pieces, the fewest pieces), proved;
    /// `None` when no target can be reached.
    fn distance(&self, program: &Program, board: &Bits, limits: &Limits) -> Result<Option<u32>> {
        match self.0.solve(program, board, limits)? {
            Outcome::Unsolvable(_) => Ok(None),
            Outcome::Solved(s) if !s.optimal => Err(Error::Usage(
                "a board drawn could not be proved at its distance: its solution coset is past \
                 the limit coset-work"
                    .into(),
            )),
            Outcome::Solved(s) => Ok(Some(match program.goal() {
                Goal::FewestPieces => s.end.count_ones() as u32,
                Goal::Targets(_) => s.length() as u32,
            })),
        }
    }
}

/// Every state counted by distance, then each board the `i`-th of its layer
/// for a uniform `i`, all found in one more pass.
fn by_layers(
    program: &Program,
    order: &Order,
    limits: &Limits,
    rng: &mut ChaCha8Rng,
) -> Result<Generated> {
    let counted = Request {
        output: Output::Histogram,
        ..Default::default()
    };
    let histogram = enumerate(program, &counted, limits, None)?.histogram;
    let distance = match order.distance {
        Some(d) => d,
        None => *histogram
            .keys()
            .next_back()
            .ok_or_else(|| Error::Usage("no board of this puzzle can reach the goal".into()))?,
    };
    let Some(&layer) = histogram.get(&distance).filter(|&&n| n > 0) else {
        return Err(no_board(distance, &histogram));
    };
    // Wanted indices in listing order, each with the place of its board.
    let mut wanted: Vec<(u128, usize)> = (0..order.boards)
        .map(|i| (rng.random_range(0..layer), i))
        .collect();
    wanted.sort_unstable();
    let mut boards: Vec<Option<Bits>> = vec![None; order.boards];
    let (mut seen, mut next, mut unknown) = (0u128, 0usize, 0u128);
    let listed = Request {
        output: Output::List,
        distances: true,
        ..Default::default()
    };
    let mut visit = |state: &Bits, d: Option<u32>| {
        unknown += u128::from(d.is_none());
        if d == Some(distance) {
            while next < wanted.len() && wanted[next].0 == seen {
                boards[wanted[next].1] = Some(state.clone());
                next += 1;
            }
            seen += 1;
        }
        next < wanted.len()
    };
    enumerate(program, &listed, limits, Some(&mut visit))?;
    if unknown > 0 && next < wanted.len() {
        // A linear puzzle's listing gives each state its distance by walking its
        // solution coset, and leaves it out past coset-work.
        return Err(limits.exceeded(
            "coset-work",
            "the walk of each listed board's solution coset, which gives it its distance (word \
             operations)",
            u128::from(limits.coset_work) + 1,
            format!(
                "{unknown} boards were listed without their distance; raise the limit with \
                 --set limits.coset-work=N"
            ),
        ));
    }
    let boards = boards
        .into_iter()
        .collect::<Option<Vec<Bits>>>()
        .ok_or_else(|| {
            Error::Internal(format!(
                "the listing has {seen} boards at distance {distance}, the count {layer}"
            ))
        })?;
    Ok(Generated {
        boards,
        distance,
        drawn: Drawn::Layer { boards: layer },
    })
}

/// No board at `distance`: the distances there are, in ranges.
fn no_board(distance: u32, histogram: &BTreeMap<u32, u128>) -> Error {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for &d in histogram.keys() {
        match ranges.last_mut() {
            Some((_, end)) if *end + 1 == d => *end = d,
            _ => ranges.push((d, d)),
        }
    }
    let ranges: Vec<String> = ranges
        .iter()
        .map(|&(a, b)| match a == b {
            true => a.to_string(),
            false => format!("{a} to {b}"),
        })
        .collect();
    Error::Usage(match ranges.is_empty() {
        true => "no board of this puzzle can reach the goal".into(),
        false => format!(
            "no board is at distance {distance}: every board that can reach the goal is at {}",
            ranges.join(", ")
        ),
    })
}

/// The distance asked for and the goal's targets, which the planner gives
/// `method` only when both are there.
fn distance_and_targets<'a>(
    program: &'a Program,
    order: &Order,
    method: &str,
) -> Result<(u32, &'a [Bits])> {
    match (order.distance, program.goal()) {
        (Some(distance), Goal::Targets(targets)) => Ok((distance, targets)),
        _ => Err(Error::Internal(format!(
            "{method} planned without a distance or targets"
        ))),
    }
}

/// Candidates drawn over a linear puzzle's solvable boards, kept by
/// rejection, within `generate-work` for each board found.
fn by_coset(
    program: &Program,
    order: &Order,
    judge: &Judge,
    limits: &Limits,
    rng: &mut ChaCha8Rng,
) -> Result<Generated> {
    let (distance, targets) = distance_and_targets(program, order, "coset draws")?;
    let linear = judge
        .0
        .linear()
        .ok_or_else(|| Error::Internal("coset draws planned for a search".into()))?;
    let moves = program.move_count();
    if distance as usize > moves {
        return Err(Error::Usage(format!(
            "no board is at distance {distance}: this puzzle has {moves} moves, and the fewest \
             presses press each move at most once"
        )));
    }
    let draw = CosetDraw::new(program, linear, targets, limits)?;
    let proposal = draw.proposal(distance);
    let words = (program.cells() + moves).div_ceil(64).max(1) as u128;
    let walked = targets.len() as u128 * (1u128 << linear.nullity());
    let most = (u128::from(limits.generate_work) / (DRAW_COST * words * walked)).max(1);
    let mut boards = Vec::with_capacity(order.boards);
    let (mut draws, mut since) = (0u64, 0u64);
    while boards.len() < order.boards {
        if u128::from(since) >= most {
            return Err(limits.exceeded(
                "generate-work",
                format!(
                    "no board at distance {distance} was found in the last {since} boards drawn \
                     ({} of {} found before): the work of drawing one more (word operations)",
                    boards.len(),
                    order.boards
                ),
                u128::from(since + 1) * DRAW_COST * words * walked,
                format!(
                    "boards at that distance, if any, are rarer than about 3 in {since} of \
                     those drawn; raise the limit with --set limits.generate-work=N, or ask \
                     for another distance (`pegflip states PUZZLE --histogram` counts the \
                     boards at each one where every state can be counted)"
                ),
            ));
        }
        draws += 1;
        since += 1;
        let (board, class) = draw.propose(rng, proposal, distance);
        let judged = draw.judge(&board, class, distance)?;
        let keep = judged.distance == distance
            && match proposal {
                Proposal::Solvable => true,
                Proposal::Presses => rng.random_range(0..judged.ways.max(1)) == 0,
            };
        if keep {
            boards.push(board);
            since = 0;
        }
    }
    Ok(Generated {
        boards,
        distance,
        drawn: Drawn::Coset {
            any_solvable: proposal == Proposal::Solvable,
            draws,
        },
    })
}

/// Boards played backwards from the targets, kept when solving them gives
/// the distance; at most [`BACKWARD_DRAWS`] tries a board.
fn by_backward(
    program: &Program,
    order: &Order,
    judge: &Judge,
    limits: &Limits,
    rng: &mut ChaCha8Rng,
) -> Result<Generated> {
    let (distance, targets) = distance_and_targets(program, order, "backward play")?;
    let pieces = targets.first().map_or(0, Bits::count_ones);
    let room = program.cells().saturating_sub(pieces);
    if distance as usize > room {
        return Err(Error::Usage(format!(
            "no board is at distance {distance}: a target has {pieces} pieces and the board \
             {} cells, so a board is at most {room} moves from it",
            program.cells()
        )));
    }
    let words: Vec<u64> = targets
        .iter()
        .map(|t| {
            t.to_u64()
                .ok_or_else(|| Error::Internal("backward play on more than 64 cells".into()))
        })
        .collect::<Result<_>>()?;
    let play = BackwardPlay::new(program)?;
    // By jumps, `distance` jumps back give a board at that distance. By moves
    // a chain of them may count once, so the jumps played back follow what
    // solving finds: one more after a board too near, one fewer after one too far.
    let by_moves = program.puzzle().metric == Metric::Moves;
    let mut jumps = distance;
    let most = (order.boards as u64).saturating_mul(BACKWARD_DRAWS);
    let mut boards = Vec::with_capacity(order.boards);
    let mut draws = 0u64;
    while boards.len() < order.boards {
        if draws >= most {
            return Err(Error::Usage(format!(
                "{} of {} boards at distance {distance} found in {draws} boards played back \
                 from the targets ({BACKWARD_DRAWS} a board): boards at that distance are rare \
                 or none, and backward play cannot tell which; ask for another distance",
                boards.len(),
                order.boards
            )));
        }
        draws += 1;
        let target = words[rng.random_range(0..words.len())];
        let Some(board) = play.play(rng, target, jumps) else {
            jumps = jumps.saturating_sub(1).max(distance);
            continue;
        };
        let board = Bits::from_u64(program.cells(), board);
        let found = judge.distance(program, &board, limits)?;
        match found {
            Some(d) if d == distance => boards.push(board),
            Some(d) if by_moves && d < distance && (jumps as usize) < room => jumps += 1,
            Some(_) if by_moves => jumps = jumps.saturating_sub(1).max(distance),
            _ => {}
        }
    }
    Ok(Generated {
        boards,
        distance,
        drawn: Drawn::Backward { draws },
    })
}

/// The most boards backward play tries for each board asked for.
const BACKWARD_DRAWS: u64 = 200;

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::puzzle::Puzzle;

    /// Pearson's statistic of `counts` against equal odds over `cells`
    /// categories, and the 99.95% point of chi-squared with `cells - 1`
    /// degrees of freedom (Wilson and Hilferty).
    fn chi_squared(counts: &HashMap<Bits, u64>, cells: usize) -> (f64, f64) {
        let total: u64 = counts.values().sum();
        let expected = total as f64 / cells as f64;
        let seen: f64 = counts
            .values()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum();
        let unseen = (cells - counts.len()) as f64 * expected;
        let df = (cells - 1) as f64;
        let z = 3.29;
        let a = 2.0 / (9.0 * df);
        (seen + unseen, df * (1.0 - a + z * a.sqrt()).powi(3))
    }

    /// Flip Game, its limits, and its solver.
    fn flip() -> (Program, Limits, Judge) {
        let program = Puzzle::from_file("puzzles/flip4x4.toml")
            .unwrap()
            .compile()
            .unwrap();
        let limits = Limits::default();
        let judge = Judge::new(&program, &limits).unwrap();
        (program, limits, judge)
    }

    /// Draws `draws` boards at distance `d` of flip4x4 by coset draws, with
    /// the proposal the planner would use, and tests them for uniformity
    /// over the layer the histogram counts.
    fn coset_draws_are_uniform(d: u32, proposal: Proposal, draws: usize) {
        let (program, limits, judge) = flip();
        let Goal::Targets(targets) = program.goal() else {
            unreachable!()
        };
        let draw = CosetDraw::new(&program, judge.0.linear().unwrap(), targets, &limits).unwrap();
        assert_eq!(draw.proposal(d), proposal);
        let order = Order {
            distance: Some(d),
            boards: draws,
            seed: u64::from(d),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(order.seed);
        let generated = by_coset(&program, &order, &judge, &limits, &mut rng).unwrap();
        let counted = Request {
            output: Output::Histogram,
            ..Default::default()
        };
        let layer = enumerate(&program, &counted, &limits, None)
            .unwrap()
            .histogram[&d];
        let mut counts: HashMap<Bits, u64> = HashMap::new();
        for b in &generated.boards {
            assert_eq!(judge.distance(&program, b, &limits).unwrap(), Some(d));
            *counts.entry(b.clone()).or_default() += 1;
        }
        assert!(counts.len() as u128 <= layer);
        let (statistic, critical) = chi_squared(&counts, layer as usize);
        assert!(
            statistic < critical,
            "distance {d}: chi-squared {statistic:.1} over {layer} boards, past {critical:.1}"
        );
    }

    #[test]
    fn coset_draws_by_presses_are_uniform_though_boards_have_several_press_sets() {
        // 228 boards at distance 2; some are reached by several pairs of presses.
        coset_draws_are_uniform(2, Proposal::Presses, 228 * 60);
    }

    #[test]
    fn coset_draws_over_solvable_boards_are_uniform() {
        // 256 boards at distance 6, drawn from the 4,096 solvable ones.
        coset_draws_are_uniform(6, Proposal::Solvable, 256 * 60);
    }

    #[test]
    fn a_skewed_draw_fails_the_test() {
        // The test has power: keeping every board drawn by presses, without
        // the 1/M odds, is caught.
        let (program, limits, judge) = flip();
        let Goal::Targets(targets) = program.goal() else {
            unreachable!()
        };
        let draw = CosetDraw::new(&program, judge.0.linear().unwrap(), targets, &limits).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut counts: HashMap<Bits, u64> = HashMap::new();
        while counts.values().sum::<u64>() < 228 * 60 {
            let (board, class) = draw.propose(&mut rng, Proposal::Presses, 2);
            if draw.judge(&board, class, 2).unwrap().distance == 2 {
                *counts.entry(board).or_default() += 1;
            }
        }
        let (statistic, critical) = chi_squared(&counts, 228);
        assert!(statistic > critical, "{statistic:.1} <= {critical:.1}");
    }
}
