//! Listing and counting states at scale: every solvable state, or every state reachable from a start.
//!
//! Three engines:
//! - linear puzzles: the solvable states are the cosets `target + span(moves)`,
//!   walked in Gray-code order over a basis of the span (no search);
//! - search puzzles: layered breadth-first search ([`layers`]) backwards from
//!   the targets, or forwards from a start, on both cores;
//! - fewest-pieces puzzles: every state has an answer, from an [`AnswerTable`].
//!
//! With symmetry, states are counted and listed up to the puzzle's symmetries
//! ([`symmetry::Symmetries`]): one representative per orbit.

pub mod layers;
pub mod symmetry;

use std::collections::BTreeMap;

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::program::{Goal, Program};
use crate::puzzle::Puzzle;
use crate::solve::{AnswerTable, Limits, Linear};
use layers::{Canon, Direction, Identity};
use symmetry::Symmetries;

/// What to enumerate.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Keep only states reachable from this board.
    pub from: Option<Bits>,
    /// Every state reachable from `from` (which must be set), whether or not
    /// it can reach the goal; distances count from `from`.
    pub reachable: bool,
    /// Count and list states up to the puzzle's symmetries.
    pub symmetry: bool,
    /// Refuse work estimated to need more memory than this, in bytes.
    pub max_memory: u64,
}

/// What an enumeration found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// How many states (or orbits, with symmetry).
    pub count: u128,
    /// States per distance (or per answer, for fewest pieces), when known.
    pub histogram: BTreeMap<u32, u128>,
    /// The number of symmetries used (1 without).
    pub symmetries: usize,
}

/// One state as it is visited: the state and its distance (to the goal, or
/// from the start with `reachable`; the answer, for fewest pieces).
pub type Visit<'a> = &'a mut dyn FnMut(u64, Option<u32>) -> bool;

/// A default memory limit: 60% of the machine's memory (8 GiB if unknown).
pub fn default_max_memory() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    });
    total.map_or(8 << 30, |t| t / 10 * 6)
}

/// Enumerates states, calling `visit` for each one (stop by returning false)
/// unless `count_only`, in which case only the summary is built. Linear
/// puzzles counted without a start need no search at all.
pub fn enumerate(
    puzzle: &Puzzle,
    program: &Program,
    request: &Request,
    want_distances: bool,
    visit: Option<Visit>,
) -> Result<Summary> {
    if request.reachable && request.from.is_none() {
        return Err(Error::Usage(
            "--reachable needs a start: give --from BOARD or --from start".into(),
        ));
    }
    let fixed: Vec<u64> = request.from.iter().filter_map(Bits::to_u64).collect();
    let symmetries = if request.symmetry {
        require_small(program)?;
        Some(Symmetries::of(puzzle, program, &fixed)?)
    } else {
        None
    };
    let canon: &dyn Canon = match &symmetries {
        Some(s) => s,
        None => &Identity,
    };
    let mut summary = Summary {
        symmetries: symmetries.as_ref().map_or(1, Symmetries::len),
        ..Summary::default()
    };
    let mut visit = visit;
    // A whole layer at one distance, counted at once when nothing is listed.
    let listing = visit.is_some();
    let mut record = |s: u64, d: Option<u32>, summary: &mut Summary| -> bool {
        summary.count += 1;
        if let Some(d) = d {
            *summary.histogram.entry(d).or_default() += 1;
        }
        visit.as_mut().is_none_or(|v| v(s, d))
    };
    match program.goal() {
        Goal::FewestPieces => {
            let table = AnswerTable::build(program)?;
            let answer = |s: u64| table.answer(s);
            match &request.from {
                Some(from) => {
                    let start = canon.canon(from.to_u64().unwrap_or(0));
                    layers::run(
                        program,
                        Direction::Forward,
                        vec![start],
                        canon,
                        request.max_memory,
                        |_, layer| layer.iter().all(|&s| record(s, answer(s), &mut summary)),
                    )?;
                }
                None => {
                    for s in 0..1u64 << program.cells() {
                        if canon.canon(s) == s && !record(s, answer(s), &mut summary) {
                            break;
                        }
                    }
                }
            }
        }
        Goal::Targets(targets) => {
            if program.is_linear()
                && request.from.is_none()
                && !want_distances
                && symmetries.is_none()
            {
                return linear_states(program, targets, &mut |s, _| record(s, None, &mut summary))
                    .map(|count| Summary {
                        count,
                        ..summary.clone()
                    });
            }
            require_small(program)?;
            let sources: Vec<u64> = {
                let mut t: Vec<u64> = targets
                    .iter()
                    .filter_map(|t| t.to_u64())
                    .map(|t| canon.canon(t))
                    .collect();
                t.sort_unstable();
                t.dedup();
                t
            };
            // A layer at distance d: counted at once when nothing is listed.
            let mut on_layer = |d: usize, layer: &[u64]| {
                if !listing {
                    summary.count += layer.len() as u128;
                    *summary.histogram.entry(d as u32).or_default() += layer.len() as u128;
                    return true;
                }
                layer
                    .iter()
                    .all(|&s| record(s, Some(d as u32), &mut summary))
            };
            match (&request.from, request.reachable) {
                (None, _) => {
                    layers::run(
                        program,
                        Direction::Backward,
                        sources,
                        canon,
                        request.max_memory,
                        &mut on_layer,
                    )?;
                }
                (Some(from), true) => {
                    let start = canon.canon(from.to_u64().unwrap_or(0));
                    layers::run(
                        program,
                        Direction::Forward,
                        vec![start],
                        canon,
                        request.max_memory,
                        &mut on_layer,
                    )?;
                }
                (Some(from), false) => {
                    // The states reachable from the start, then backwards from the
                    // targets through those states only.
                    let start = canon.canon(from.to_u64().unwrap_or(0));
                    let reached = Reached::collect(program, start, canon, request.max_memory)?;
                    let sources: Vec<u64> = sources
                        .into_iter()
                        .filter(|&t| reached.contains(t))
                        .collect();
                    layers::run_within(
                        program,
                        sources,
                        canon,
                        request.max_memory,
                        &|s| reached.contains(s),
                        &mut on_layer,
                    )?;
                }
            }
        }
    }
    Ok(summary)
}

fn require_small(program: &Program) -> Result<()> {
    crate::solve::search::Masks::new(program).map(|_| ())
}

/// The set of states reachable from a start: a bitmap up to
/// [`layers::BITMAP_CELLS`] cells, a sorted list past that.
enum Reached {
    Bitmap(Vec<u64>),
    Sorted(Vec<u64>),
}

impl Reached {
    fn collect(
        program: &Program,
        start: u64,
        canon: &dyn Canon,
        max_memory: u64,
    ) -> Result<Reached> {
        let cells = program.cells();
        let mut reached = if cells <= layers::BITMAP_CELLS {
            Reached::Bitmap(vec![0u64; ((1u128 << cells) / 64).max(1) as usize])
        } else {
            Reached::Sorted(Vec::new())
        };
        layers::run(
            program,
            Direction::Forward,
            vec![start],
            canon,
            max_memory,
            |_, layer| {
                match &mut reached {
                    Reached::Bitmap(bits) => {
                        for &s in layer {
                            bits[(s / 64) as usize] |= 1 << (s % 64);
                        }
                    }
                    Reached::Sorted(list) => list.extend_from_slice(layer),
                }
                true
            },
        )?;
        if let Reached::Sorted(list) = &mut reached {
            list.sort_unstable();
        }
        Ok(reached)
    }

    fn contains(&self, s: u64) -> bool {
        match self {
            Reached::Bitmap(bits) => bits[(s / 64) as usize] >> (s % 64) & 1 == 1,
            Reached::Sorted(list) => list.binary_search(&s).is_ok(),
        }
    }
}

/// The solvable states of a linear puzzle without search: each target's coset
/// `target + span(moves)`, walked in Gray-code order over a basis of the
/// span, one XOR per state. Cosets shared by two targets are walked once.
/// Returns the count (exact, whatever its size).
fn linear_states(
    program: &Program,
    targets: &[Bits],
    visit: &mut dyn FnMut(u64, Option<u32>) -> bool,
) -> Result<u128> {
    let limits = Limits::default();
    let linear = Linear::new(program, &limits)?;
    let rank = linear.rank();
    // Distinct cosets: a target whose difference from an earlier one lies in the span shares its coset.
    let mut cosets: Vec<&Bits> = Vec::new();
    for t in targets {
        let shared = cosets.iter().any(|c| {
            let mut d = (*c).clone();
            d.xor_assign(t);
            linear.solve(program, &d).is_ok()
        });
        if !shared {
            cosets.push(t);
        }
    }
    let count = (cosets.len() as u128)
        .checked_shl(rank as u32)
        .filter(|_| rank < 120)
        .ok_or_else(|| Error::Limit {
            what: "the rank".into(),
            name: "count rank",
            value: rank as u128,
            limit: 119,
            hint: "use `analyze` for the exact count of larger puzzles".into(),
        })?;
    let Some(basis) = span_basis(program, &linear)? else {
        return Ok(count);
    };
    for coset in cosets {
        let mut s = coset.to_u64().unwrap_or(0);
        if !visit(s, None) {
            return Ok(count);
        }
        for i in 1u64..1u64 << basis.len() {
            s ^= basis[i.trailing_zeros() as usize];
            if !visit(s, None) {
                return Ok(count);
            }
        }
    }
    Ok(count)
}

/// A basis of the span of the moves' flips, as one-word states: `None` for
/// puzzles past 64 cells (which can be counted, not listed).
fn span_basis(program: &Program, linear: &Linear) -> Result<Option<Vec<u64>>> {
    if program.cells() > 64 {
        return Ok(None);
    }
    let mut basis: Vec<u64> = Vec::new();
    for m in program.moves() {
        let mut v = m.flip.iter().fold(0u64, |w, c| w | 1 << c.0);
        for &b in &basis {
            v = v.min(v ^ b);
        }
        if v != 0 {
            basis.push(v);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    if basis.len() != linear.rank() {
        return Err(Error::Internal(format!(
            "the span has {} basis vectors, but elimination says rank {}",
            basis.len(),
            linear.rank()
        )));
    }
    Ok(Some(basis))
}
