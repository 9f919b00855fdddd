//! The layered engine: states counted and listed by breadth-first layers, backward from the targets or forward from a start.
//!
//! For a fewest-pieces goal every state has an answer, read from an answer
//! table. States from a start that can still reach a target are the
//! reachable ones, searched back from the targets within them.

use crate::bits::Bits;
use crate::engines::layers::{self, Direction};
use crate::engines::table::AnswerTable;
use crate::error::Result;
use crate::limits::Limits;
use crate::outcome::Summary;
use crate::program::{Goal, Program};
use crate::query::{Request, Visit};
use crate::stateset::StateSet;
use crate::symmetry::{Canon, Identity, Symmetries};

/// Enumerates the states `request` asks for, layer by layer, calling `visit`
/// for each (stop by returning false); without `visit`, only counts them.
pub(crate) fn run(
    program: &Program,
    request: &Request,
    limits: &Limits,
    visit: Option<Visit>,
) -> Result<Summary> {
    let cells = program.cells();
    let fixed: Vec<u64> = request.from.iter().filter_map(Bits::to_u64).collect();
    let symmetries = if request.symmetry {
        Some(Symmetries::of(program, &fixed, limits)?)
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
    let listing = visit.is_some();
    let mut record = |s: u64, d: Option<u32>, summary: &mut Summary| -> bool {
        summary.count.add(1);
        if let Some(d) = d {
            *summary.histogram.entry(d).or_default() += 1;
        }
        visit
            .as_mut()
            .is_none_or(|v| v(&Bits::from_u64(cells, s), d))
    };
    let max_memory = limits.max_memory;
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
                        max_memory,
                        |_, layer| layer.iter().all(|&s| record(s, answer(s), &mut summary)),
                    )?;
                }
                None => {
                    for s in 0..1u64 << cells {
                        if canon.canon(s) == s && !record(s, answer(s), &mut summary) {
                            break;
                        }
                    }
                }
            }
        }
        Goal::Targets(targets) => {
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
                    summary.count.add(layer.len() as u128);
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
                        max_memory,
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
                        max_memory,
                        &mut on_layer,
                    )?;
                }
                (Some(from), false) => {
                    // The states reachable from the start, then backwards from the
                    // targets through those states only.
                    let start = canon.canon(from.to_u64().unwrap_or(0));
                    let reached = reached(program, start, canon, max_memory)?;
                    let sources: Vec<u64> = sources
                        .into_iter()
                        .filter(|&t| reached.contains(t))
                        .collect();
                    layers::run_within(
                        program,
                        sources,
                        canon,
                        max_memory,
                        &|s| reached.contains(s),
                        &mut on_layer,
                    )?;
                }
            }
        }
    }
    Ok(summary)
}

/// The states reachable from `start`: a bitmap up to
/// [`layers::BITMAP_CELLS`] cells, a sorted list past that.
fn reached(program: &Program, start: u64, canon: &dyn Canon, max_memory: u64) -> Result<StateSet> {
    let cells = program.cells();
    let mut bitmap = (cells <= layers::BITMAP_CELLS).then(|| StateSet::new(cells, cells));
    let mut list = Vec::new();
    layers::run(
        program,
        Direction::Forward,
        vec![start],
        canon,
        max_memory,
        |_, layer| {
            match &mut bitmap {
                Some(set) => layer.iter().for_each(|&s| {
                    set.insert(s);
                }),
                None => list.extend_from_slice(layer),
            }
            true
        },
    )?;
    Ok(bitmap.unwrap_or_else(|| StateSet::sorted(list)))
}
