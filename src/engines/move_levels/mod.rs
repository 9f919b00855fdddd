//! Fewest moves, where a move is a chain of jumps by one piece: bidirectional breadth-first iterative deepening (BFIDA*) by move levels, bounded by Merson regions and peg types, cut by pagoda functions, up to symmetry.
//!
//! Peg players count a **move** as one or more consecutive jumps by the same
//! peg. Every solution of a peg board has the same number of jumps, but not
//! the same number of moves, so the fewest moves need their own search.
//!
//! Level `n` forward is a set of positions reached from the start in `n`
//! moves and no fewer; level `n` backward from a target, of positions that
//! reach it in `n` moves and no fewer. A backward move is a chain of
//! reversed jumps by one peg: the peg jumps back over a hole, which gets a
//! peg, into a hole. Forward positions are kept up to the symmetries that fix
//! the start, backward ones up to those that fix their target, so that
//! levels are orbits.
//!
//! A search has a bound `L` and keeps a position only when its level and a
//! lower bound on the moves still needed come to at most `L`: ahead, the
//! Merson regions (`merson.rs`) it fills and the nearest target does
//! not; behind, those the start fills and it does not; or the moves the
//! peg types demand (`peg_types.rs`), whichever counts more. Pagoda
//! functions (`pagoda.rs`), learnt from the levels, also cut off positions
//! that cannot reach the other end at all. The puzzle's `bounds` choose
//! among them. When a fewest-moves
//! solution has at most `L` moves, every position of it passes at its own
//! level, so when forward levels `0..=a` and backward levels `0..=b` with
//! `a + b >= L` show no meeting, no solution has `L` moves or fewer. The
//! bound starts at the lower bound on the start and grows by one; a meeting
//! within it is the answer. The search that finds none grows one level more,
//! where a meeting one move past the bound is the answer once every target
//! shows none within it. The forward levels are shared; each target (one
//! per orbit under the start's symmetries, and only those in the start's
//! position class) is searched back from on its own, because backward levels
//! from many targets at once grow far faster than from one. A known solution
//! in jumps, cut into moves, ends the bounds, and its target goes first.
//! With the limit `beam`, a beam search (`beam.rs`) first looks for a
//! shorter one; when a limit then stops the levels, its solution is the
//! answer, unproved.
//!
//! With the bound `frontier` (not in the default set), each side's
//! positions are also bounded toward the other side's last level, as Barker
//! and Korf carry their bounds across the two frontiers: a position that one
//! side adds at depth `d` while the other's last level is at depth `e` needs
//! `e` moves more than the regions and peg types count toward that level's
//! positions (see [`Bounded::run_toward`]). One target is searched alone;
//! several share the forward levels, bounded toward all their levels at
//! once and cut to what some target's own bound keeps; where those do not
//! fit in `max-memory`, the bound is searched again one target at a time,
//! each with forward levels of its own, bounded toward that target's levels
//! alone. It cuts the
//! levels of a search that finds nothing far more, but gives up the level
//! past the bound, so the search with the answer's bound runs in full.
//!
//! One level grows at a time, on the side with less work to do: a level's
//! parents, counted once forward (its levels serve every target still to
//! search) and once per target still to search backward. The level that
//! brings the two sides' depths to what the search needs is checked for
//! meetings and counted, but not entered in the map of earlier levels
//! (forward, only when no target is left to search after this one): nothing
//! looks it up, and it is usually the largest. When it would not fit, it
//! is checked in parts as it grows ([`Side::grow`]).
//!
//! The solution itself is rebuilt from the levels: from the meeting position,
//! a chain back into the previous forward level, and so on to the start (the
//! only position of its orbit, since every symmetry used fixes it); then a
//! chain on into the next backward level, to a target.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

mod beam;
mod jumps;
mod side;
mod span;
mod store;

use beam::Beam;
use jumps::Jumps;
use side::{Ahead, Prune, Side};
use span::Span;

use crate::engines::merson::Regions;
use crate::engines::pagoda::Pagodas;
use crate::engines::peg_types::PegTypes;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::Levels;
use crate::program::{Goal, Program};
use crate::query::{Event, Observer};
use crate::symmetry::Symmetries;
use crate::word::Word;

/// Parents expanded at a time while a level grows.
pub(super) const CHUNK: usize = 1 << 18;

/// Successors per parent allowed for while a chunk is expanded: chains from
/// every peg, most of them found again from other parents.
pub(super) const SUCCESSORS_PER_PARENT: u64 = 64;

/// The parents sampled to estimate the work of a side's next level.
const SAMPLED: usize = 2048;

/// A fewest-moves answer: the moves, each a chain of jumps, and how
/// optimality was established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSolution {
    /// The moves in order; each is the program's jump indices, in order, all
    /// by one peg.
    pub moves: Vec<Vec<usize>>,
    /// The levels searched.
    pub levels: Levels,
}

/// What a fewest-moves search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The fewest moves, proved.
    Solved(MoveSolution),
    /// With a beam (the limit `beam`), the shortest solution found, when a
    /// limit stopped the levels before they proved it the fewest: its
    /// levels are what they proved, and the reason is the limit's error.
    Unproved(MoveSolution, String),
    /// No sequence of moves reaches a target: one side ran out of positions.
    Unsolvable(Levels),
}

/// The fewest moves from `start` to the goal of `program` (every move a
/// jump; the goal a set of targets), proved by bounded levels searched both
/// ways. The answer's chains are replayed by the caller's check. Refused past
/// the limit `max-memory`.
///
/// The search is breadth-first iterative deepening on a bound of moves (as
/// Barker and Korf's BFIDA*): for a bound `L`, a level keeps only the
/// positions whose moves so far and the lower bound (Merson regions, peg
/// types) on the moves still needed come to at most `L`, and that no pagoda
/// function cuts off. Every position of a fewest-moves solution passes at
/// its own level when that solution has at most `L` moves, so the search
/// finds one; when it finds none, no solution has `L` moves or fewer. The
/// bound starts at the lower bound on the start and grows by one.
///
/// `known`, when given, is a solution in jumps from `start` (it must reach a
/// target): its moves end the bounds, its target is searched first, and it
/// is the answer when nothing shorter exists. With `limits.beam` above 0, a
/// beam of that many positions a level first looks for a solution of fewer
/// moves, which then ends the bounds instead; and a limit that stops the
/// levels gives the shortest solution found as [`MoveOutcome::Unproved`]
/// rather than the limit's error.
///
/// The forward levels are shared by every target (with the bound
/// `frontier`, unless they do not fit: see [`Levels::apart`]); each target
/// (one per orbit under the symmetries that fix the start) gets backward
/// levels of its own, searched only for meetings shorter than the best so
/// far.
pub fn fewest_moves<W: Word>(
    program: &Program,
    start: W,
    known: Option<&[usize]>,
    limits: &Limits,
    observer: Option<&Observer>,
) -> Result<MoveOutcome> {
    let outcome = prove_fewest(program, start, known, limits, observer, false);
    // What this search proved says nothing of the next run's.
    crate::memory::note_proved(String::new());
    outcome
}

/// [`fewest_moves`], noting what it has proved as it goes
/// ([`crate::memory::note_proved`]); with the bound `frontier`, the targets
/// one at a time from the first bound when `apart`, else only where the
/// shared forward levels do not fit.
fn prove_fewest<W: Word>(
    program: &Program,
    start: W,
    known: Option<&[usize]>,
    limits: &Limits,
    observer: Option<&Observer>,
    apart: bool,
) -> Result<MoveOutcome> {
    let jumps: Jumps<W> = Jumps::new(program)?;
    let Goal::Targets(targets) = program.goal() else {
        return Err(Error::Usage(
            "the moves metric needs a goal of target boards, not fewest pieces".into(),
        ));
    };
    let fixing_start = Symmetries::wide(program, &[start], limits)?;
    // Jumps keep a position in its class (its cosets of the span of the jumps'
    // flips): only the targets in the start's class are searched back from.
    let class = Span::new(&jumps.masks.flip);
    let in_class: Vec<W> = targets
        .iter()
        .filter_map(W::from_bits)
        .filter(|&t| class.contains(t ^ start))
        .collect();
    let mut targets: Vec<W> = in_class.iter().map(|&t| fixing_start.least(t)).collect();
    targets.sort_unstable();
    targets.dedup();
    let mut known: Option<(Vec<Vec<usize>>, W)> = known.map(|k| jumps.chains(start, k));
    // The jump search's target goes first (a beam's solution leaves the order as it is).
    if let Some((_, end)) = &known {
        let end = fixing_start.least(*end);
        if let Some(i) = targets.iter().position(|&t| t == end) {
            targets[..=i].rotate_right(1);
        }
    }
    let bounds = program.puzzle().bounds;
    let candidates = if bounds.regions {
        Regions::candidates(program.cells(), &jumps.lines)
    } else {
        Vec::new()
    };
    let types = PegTypes::new(program.cells(), &jumps.lines).filter(|_| bounds.types);
    let packing = Regions::disjoint(&candidates);
    let ahead = Regions::pack_with(&packing, &candidates, &in_class, types.as_ref());
    let groups: Vec<Symmetries<W>> = targets
        .iter()
        .map(|&t| Symmetries::wide(program, &[t], limits))
        .collect::<Result<_>>()?;
    // Ahead of a position, the regions it fills and the nearest target does
    // not (`ahead`, above); behind one, see `behind`.
    let behind = behind(&groups, start, (&packing, &candidates), types.as_ref());
    // A beam's solution, when it has fewer moves, ends the bounds sooner.
    if limits.beam > 0 {
        let width = usize::try_from(limits.beam).unwrap_or(usize::MAX);
        // A solution shorter than the one known passes none of the positions
        // that the regions' bound leaves farther from the start.
        let within = known
            .as_ref()
            .map_or(start.count_ones(), |k| (k.0.len() as u32).saturating_sub(1));
        let behind = first_levels(
            &jumps,
            (&targets, &groups),
            &behind,
            (within, width),
            limits,
            observer,
        );
        let mut sorted = in_class.clone();
        sorted.sort_unstable();
        let beam = Beam {
            cells: program.cells(),
            jumps: &jumps,
            group: &fixing_start,
            ahead: &ahead,
            targets: &sorted,
            behind_bytes: behind.iter().map(Side::bytes).sum(),
            behind: &behind,
            observer,
        };
        if let Some(moves) = beam.search(start, width, limits)? {
            let flat: Vec<usize> = moves.into_iter().flatten().collect();
            let found = jumps.chains(start, &flat);
            if known.as_ref().is_none_or(|k| found.0.len() < k.0.len()) {
                known = Some(found);
            }
        }
    }
    let incumbent: Option<u32> = known.as_ref().map(|(chains, _)| chains.len() as u32);
    // The pagoda functions each side learns serve the searches with larger bounds.
    let ahead_pagodas = Mutex::new(Pagodas::new(
        program.cells(),
        &jumps.lines,
        &in_class,
        true,
        &fixing_start,
    ));
    let behind_pagodas: Vec<Mutex<Pagodas<W>>> = groups
        .iter()
        .map(|g| {
            Mutex::new(Pagodas::new(
                program.cells(),
                &jumps.lines,
                &[start],
                false,
                g,
            ))
        })
        .collect();
    // With a beam, the levels stop at seven eighths of max-memory: their own
    // check then ends them (and the beam's solution is the answer) before the
    // process's ceiling, which would end the run, is reached.
    let levels_limits = Limits {
        max_memory: match limits.beam {
            0 => limits.max_memory,
            _ => limits.max_memory / 8 * 7,
        },
        ..limits.clone()
    };
    // A bound toward a level holds for every image of its positions.
    let whole = match bounds.frontier {
        true => Some(Symmetries::wide(program, &[], limits)?),
        false => None,
    };
    let search = Bounded {
        frontier: bounds.frontier,
        apart,
        bounded_toward: AtomicBool::new(false),
        packing: &packing,
        candidates: &candidates,
        types: types.as_ref(),
        whole: whole.as_ref(),
        ahead_pagodas: Some(&ahead_pagodas).filter(|_| bounds.pagoda),
        behind_pagodas: Some(&behind_pagodas[..]).filter(|_| bounds.pagoda),
        jumps: &jumps,
        start,
        targets: &targets,
        groups: &groups,
        fixing_start: &fixing_start,
        ahead: &ahead,
        behind: &behind,
        limits: &levels_limits,
        observer,
    };
    let lower = ahead.ahead(start);
    // Every jump removes a peg, so no solution has more moves than the start has pegs.
    let most = incumbent.unwrap_or(start.count_ones());
    let mut proof = Levels {
        targets: targets.len(),
        forward_symmetries: fixing_start.len(),
        backward_symmetries: groups.iter().map(Symmetries::len).min().unwrap_or(1),
        regions: ahead.len(),
        lower,
        types: types.is_some(),
        pagoda: bounds.pagoda,
        ..Levels::default()
    };
    crate::memory::note_proved(proved_text(&proof));
    for bound in lower..=most {
        if incumbent == Some(bound) {
            break;
        }
        let searched = if u64::from(bound) > limits.max_bound {
            let stop = limits.exceeded(
                "max-bound",
                "the bound on moves of the next search",
                u128::from(bound),
                "raise --set limits.max-bound to search further",
            );
            Err(so_far(stop, &proof))
        } else {
            search.run(bound, &proof)
        };
        let run = match searched {
            Err(stopped @ Error::Limit { .. }) if limits.beam > 0 => {
                if let Some((moves, _)) = known {
                    return Ok(MoveOutcome::Unproved(
                        MoveSolution {
                            moves,
                            levels: proof,
                        },
                        stopped.to_string(),
                    ));
                }
                return Err(stopped);
            }
            run => run?,
        };
        match run {
            Search::Met {
                meeting,
                fore,
                back,
                proof: this,
            } => {
                let (f, g, at) = meeting;
                let moves = rebuild(&jumps, &fore, &back, at, f, g, start)?;
                return Ok(MoveOutcome::Solved(MoveSolution {
                    moves,
                    levels: this.unwrap_or(proof),
                }));
            }
            Search::None(levels) => {
                proof = levels;
                crate::memory::note_proved(proved_text(&proof));
            }
        }
    }
    Ok(match known {
        Some((moves, _)) => MoveOutcome::Solved(MoveSolution {
            moves,
            levels: proof,
        }),
        None => MoveOutcome::Unsolvable(proof),
    })
}

/// What one bounded search needs: the jumps, the two ends and their
/// symmetries, and the regions that bound the moves.
struct Bounded<'a, W: Word> {
    /// Whether each side is bounded toward the other's last level (the
    /// bound `frontier`), the forward levels shared by the targets.
    frontier: bool,
    /// Whether, with `frontier`, the targets are searched one at a time from
    /// the first (else only where the shared forward levels do not fit).
    apart: bool,
    /// Whether a bound toward a level was built in the search running now
    /// (not where the board's packing is too large for its table).
    bounded_toward: AtomicBool,
    /// The board's packing of regions, the regions that may bound, the peg
    /// types, and the board's symmetries: what a bound toward a level is
    /// built from.
    packing: &'a [W],
    candidates: &'a [W],
    types: Option<&'a PegTypes<W>>,
    whole: Option<&'a Symmetries<W>>,
    jumps: &'a Jumps<W>,
    start: W,
    targets: &'a [W],
    groups: &'a [Symmetries<W>],
    fixing_start: &'a Symmetries<W>,
    ahead: &'a Regions<W>,
    behind: &'a [Regions<W>],
    /// The pagoda functions learnt so far, forward and per target backward,
    /// when they bound.
    ahead_pagodas: Option<&'a Mutex<Pagodas<W>>>,
    behind_pagodas: Option<&'a [Mutex<Pagodas<W>>]>,
    limits: &'a Limits,
    /// Told of each level as it is complete.
    observer: Option<&'a Observer>,
}

/// What one bounded search found: the fewest moves, with the levels to
/// rebuild them from and the levels that prove them (`None`: those of the
/// searches before), or the levels that show none within the bound. Made
/// once per bound, so its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Search<'a, W: Word> {
    Met {
        meeting: Meeting<W>,
        fore: Side<'a, W>,
        back: Side<'a, W>,
        proof: Option<Levels>,
    },
    None(Levels),
}

impl<'a, W: Word> Bounded<'a, W> {
    /// Keeps what a side (forward, or backward from target `i`) learnt, for
    /// the searches after it.
    fn keep(&self, side: &Side<W>, target: Option<usize>) {
        let shared = match target {
            None => self.ahead_pagodas,
            Some(i) => self.behind_pagodas.and_then(|b| b.get(i)),
        };
        if let (Some(shared), Some(pagodas)) = (shared, &side.pagodas) {
            *learnt(shared) = pagodas.clone();
        }
    }

    /// The most pagoda functions any side has found so far.
    fn pagodas_found(&self) -> usize {
        let ahead = self.ahead_pagodas.map_or(0, |p| learnt(p).found());
        let behind = self.behind_pagodas.unwrap_or(&[]).iter();
        behind.map(|p| learnt(p).found()).fold(ahead, usize::max)
    }

    /// The fewest moves if they are at most `bound + 1`; the searches with
    /// smaller bounds found none within `bound - 1`. `proved` is what they
    /// showed.
    ///
    /// Every meeting within `bound` is an answer at once. Past the bound, each
    /// target's levels grow one more level until one meets there (Barker and
    /// Korf's way to skip the last iteration): that meeting has `bound + 1`
    /// moves, and is the answer once every target's levels show nothing
    /// within `bound`.
    /// It is usually found, since few positions of a solution have no slack
    /// in the regions' bound; when it is not, the next bound searches again.
    fn run(&self, bound: u32, proved: &Levels) -> Result<Search<'a, W>> {
        if self.frontier {
            return self.run_toward(bound, proved);
        }
        let prune = |regions: &Regions<W>| Some(Prune::new(Arc::new(regions.clone()), bound));
        let mut fore = Side::new(
            self.jumps,
            &[self.start],
            true,
            self.fixing_start,
            prune(self.ahead),
        );
        fore.pagodas = self.ahead_pagodas.map(|p| learnt(p).clone());
        let mut backward: Vec<u64> = Vec::new();
        let mut in_parts = false;
        let mut spare: Option<(Meeting<W>, Side<'a, W>)> = None;
        let cases = self.targets.iter().zip(self.groups).zip(self.behind);
        for (i, ((&target, group), behind)) in cases.enumerate() {
            let remaining = (self.targets.len() - i) as f64;
            let mut back = Side::new(self.jumps, &[target], false, group, prune(behind));
            back.pagodas = self.behind_pagodas.map(|p| learnt(&p[i]).clone());
            let mut found: Option<Meeting<W>> = (0..group.len())
                .map(|k| group.apply(k, target))
                .find_map(|image| fore.level(image).map(|f| (f, 0, image)));
            loop {
                if let Some(meeting) = found.filter(|&m| total(m) <= bound) {
                    self.keep(&fore, None);
                    self.keep(&back, Some(i));
                    return Ok(Search::Met {
                        meeting,
                        fore,
                        back,
                        proof: None,
                    });
                }
                let (a, b) = (fore.depth(), back.depth());
                let reach = if spare.is_none() { bound + 1 } else { bound };
                if found.is_some() || a + b >= reach || fore.last.is_empty() || back.last.is_empty()
                {
                    break;
                }
                let budget = self.limits.max_memory;
                let hint = |e| so_far(e, proved);
                // The work of a level is about its parents'; forward levels serve every
                // target still to search, backward ones only this one.
                if fore.last.len() as f64 <= back.last.len() as f64 * remaining {
                    // The forward levels are kept for the targets still to search.
                    let kept = a + 1 + b < reach || remaining > 1.0;
                    found =
                        grow_ahead(self.jumps, &mut fore, &back, budget, kept, 0).map_err(hint)?;
                    tell(self.observer, Some(bound), None, &fore);
                } else {
                    let kept = a + b + 1 < reach;
                    found =
                        grow_behind(self.jumps, &mut back, &fore, budget, kept, 0).map_err(hint)?;
                    tell(self.observer, Some(bound), Some(i), &back);
                }
            }
            self.keep(&back, Some(i));
            in_parts |= back.in_parts;
            add_sizes(&mut backward, &back.sizes);
            if let Some(meeting) = found {
                spare = Some((meeting, back));
            }
        }
        self.keep(&fore, None);
        let levels = Levels {
            forward: fore.sizes.clone(),
            pagodas: self.pagodas_found(),
            apart: false,
            backward,
            none_within: Some(bound),
            in_parts: in_parts || fore.in_parts,
            ..proved.clone()
        };
        Ok(match spare {
            Some((meeting, back)) => Search::Met {
                meeting,
                fore,
                back,
                proof: Some(levels),
            },
            None => Search::None(levels),
        })
    }

    /// As [`Bounded::run`], with each side bounded toward the other's last
    /// level (the bound `frontier`), and without the level past the bound.
    ///
    /// The searches with smaller bounds found nothing, so a solution within
    /// `bound` has exactly `bound` moves, and its position `n` moves from
    /// the start is in forward level `n` and backward level `bound - n`. A
    /// position that one side adds at depth `d`, while the other side's last
    /// level is at depth `e` and `d + e <= bound`, is so at least `e` moves
    /// from the other end if it is on such a solution (nearer, it would be in
    /// a level of the other side already, a meeting), and its chain to that
    /// end passes a position of the other side's last level. So it is kept
    /// only if `d + e` and the bound toward that level (the regions and the
    /// peg types, against every image of its positions) come to at most
    /// `bound`: the regions the other side's far positions still fill, which
    /// the ends themselves do not, no longer count against the bound.
    ///
    /// One target is searched alone ([`Bounded::toward_target`]). Several
    /// share the forward levels ([`Bounded::run_shared`]); when those do not
    /// fit in seven eighths of `max-memory`, the bound is searched again with
    /// the targets one at a time ([`Bounded::run_apart`]) in the whole of it.
    fn run_toward(&self, bound: u32, proved: &Levels) -> Result<Search<'a, W>> {
        self.bounded_toward.store(false, Ordering::Relaxed);
        let budget = self.limits.max_memory;
        match (self.apart, self.targets.len()) {
            (true, _) | (false, 1) => return self.run_apart(bound, proved),
            (false, 0) => return self.run_shared(bound, proved, budget),
            _ => {}
        }
        // Seven eighths, so that the levels' own check, not the process's
        // ceiling, stops shared levels that do not fit.
        match self.run_shared(bound, proved, budget / 8 * 7) {
            Err(Error::Limit {
                name: "max-memory", ..
            }) => {
                crate::memory::give_back_past(0);
                self.run_apart(bound, proved)
            }
            searched => searched,
        }
    }

    /// [`Bounded::run_toward`] with the targets sharing the forward levels,
    /// within `budget` bytes.
    ///
    /// The targets share the forward levels. Each target's backward side
    /// grows while its next level looks smaller (by the growth of its last)
    /// than the forward side's, and never to the bound; then the forward side
    /// grows a level, bounded toward the union of the last levels of the
    /// targets not yet searched, at the least depth among them, and checked
    /// against every target's levels. A target whose depths that level brings
    /// to the bound is searched; the level that does so for every target left
    /// is the last, and is not kept. Any other level is then cut to the
    /// positions some target's own bound keeps (the bound it would have grown
    /// its own forward side with): so the shared levels hold the union of
    /// what the targets would each have grown, each position once.
    fn run_shared(&self, bound: u32, proved: &Levels, budget: u64) -> Result<Search<'a, W>> {
        let hint = |e| so_far(e, proved);
        let mut fore = Side::new(self.jumps, &[self.start], true, self.fixing_start, None);
        fore.pagodas = self.ahead_pagodas.map(|p| learnt(p).clone());
        let cases = self.targets.iter().zip(self.groups).enumerate();
        let mut backs: Vec<Side<'a, W>> = cases
            .map(|(i, (&target, group))| {
                let mut back = Side::new(self.jumps, &[target], false, group, None);
                back.pagodas = self.behind_pagodas.map(|p| learnt(&p[i]).clone());
                back
            })
            .collect();
        let met = |meeting: Meeting<W>, fore, mut backs: Vec<Side<'a, W>>| {
            let (_, g, at) = meeting;
            let i = backs.iter().position(|b| b.level(at) == Some(g));
            let back = i.map(|i| backs.swap_remove(i)).ok_or_else(|| {
                Error::Internal("a meeting of the shared forward levels has no target".into())
            })?;
            Ok(Search::Met {
                meeting,
                fore,
                back,
                proof: None,
            })
        };
        // The fewest moves through each new forward position, within the bound.
        let meets = |fresh: &[W], depth: u32, aheads: &[Ahead<W>]| {
            fresh
                .par_iter()
                .filter_map(|&s| {
                    let (g, image) = aheads
                        .iter()
                        .filter_map(|ahead| ahead.level(s))
                        .filter(|&(g, _)| depth + g <= bound)
                        .min_by_key(|&(g, _)| g)?;
                    Some((depth, g, image))
                })
                .min_by_key(order)
        };
        // The start may be a target already.
        if let Some(meeting) = meets(&fore.last, 0, &aheads(&backs, self.fixing_start)) {
            return met(meeting, fore, backs);
        }
        let mut searched = vec![false; backs.len()];
        loop {
            let a = fore.depth();
            let held: u64 = backs.iter().map(Side::bytes).sum();
            for (i, behind) in self.behind.iter().enumerate() {
                let beside = held - backs[i].bytes();
                let back = &mut backs[i];
                while !searched[i]
                    && !back.last.is_empty()
                    && a + back.depth() + 1 < bound
                    && next_size(&back.sizes) < next_size(&fore.sizes)
                {
                    back.prune = Some(self.toward(&fore.last, false, bound, a, behind));
                    let found =
                        grow_behind(self.jumps, back, &fore, budget, true, beside).map_err(hint)?;
                    tell(self.observer, Some(bound), Some(i), back);
                    if let Some(meeting) = found {
                        self.keep(&fore, None);
                        self.keep(back, Some(i));
                        return met(meeting, fore, backs);
                    }
                }
            }
            let on: Vec<usize> = (0..backs.len())
                .filter(|&i| !searched[i] && !backs[i].last.is_empty())
                .collect();
            if on.is_empty() || fore.last.is_empty() {
                break;
            }
            // The targets whose depths the next level brings to the bound.
            let (ending, still): (Vec<usize>, Vec<usize>) =
                on.iter().partition(|&&i| a + backs[i].depth() + 1 == bound);
            let last = still.is_empty();
            let depth = on.iter().map(|&i| backs[i].depth()).min().unwrap_or(0);
            let union: Vec<W> = on
                .iter()
                .flat_map(|&i| backs[i].last.iter().copied())
                .collect();
            fore.prune = Some(self.toward(&union, true, bound, depth, self.ahead));
            drop(union);
            let held: u64 = backs.iter().map(Side::bytes).sum();
            let looked_up = aheads(&backs, self.fixing_start);
            let found = fore
                .grow(self.jumps, held, budget, !last, &|fresh| {
                    meets(fresh, a + 1, &looked_up)
                })
                .map_err(hint)?;
            drop(looked_up);
            if let Some(meeting) = found {
                tell(self.observer, Some(bound), None, &fore);
                self.keep(&fore, None);
                return met(meeting, fore, backs);
            }
            for &i in &ending {
                searched[i] = true;
            }
            if last {
                tell(self.observer, Some(bound), None, &fore);
                break;
            }
            if on.len() > 1 {
                // The union's bound is weaker than each target's own.
                let prunes: Vec<Prune<W>> = still
                    .iter()
                    .map(|&i| {
                        let back = &backs[i];
                        self.toward(&back.last, true, bound, back.depth(), self.ahead)
                    })
                    .collect();
                fore.cut_last(|p| prunes.iter().any(|prune| prune.keeps(true, a + 1, p)));
            }
            tell(self.observer, Some(bound), None, &fore);
        }
        self.keep(&fore, None);
        let mut backward: Vec<u64> = Vec::new();
        for (i, back) in backs.iter().enumerate() {
            self.keep(back, Some(i));
            for (n, &size) in back.sizes.iter().enumerate() {
                match backward.get_mut(n) {
                    Some(sum) => *sum += size,
                    None => backward.push(size),
                }
            }
        }
        Ok(Search::None(Levels {
            forward: fore.sizes.clone(),
            pagodas: self.pagodas_found(),
            frontier: self.bounded_toward.load(Ordering::Relaxed),
            apart: false,
            in_parts: fore.in_parts || backs.iter().any(|b| b.in_parts),
            backward,
            none_within: Some(bound),
            ..proved.clone()
        }))
    }

    /// [`Bounded::run_toward`] with the targets searched one at a time, each
    /// with forward levels of its own: toward one target's last level the
    /// bound cuts more than toward the union of every target's, and only one
    /// target's levels are held at once, but the forward levels that the
    /// targets would share are grown again for each. The levels reported are
    /// summed over the targets.
    fn run_apart(&self, bound: u32, proved: &Levels) -> Result<Search<'a, W>> {
        let (mut forward, mut backward) = (Vec::new(), Vec::new());
        let mut in_parts = false;
        for i in 0..self.targets.len() {
            let (fore, back) = match self.toward_target(bound, proved, i)? {
                Ok(met) => return Ok(met),
                Err(sides) => sides,
            };
            add_sizes(&mut forward, &fore.sizes);
            add_sizes(&mut backward, &back.sizes);
            in_parts |= fore.in_parts || back.in_parts;
        }
        Ok(Search::None(Levels {
            forward,
            pagodas: self.pagodas_found(),
            frontier: self.bounded_toward.load(Ordering::Relaxed),
            apart: self.targets.len() > 1,
            in_parts,
            backward,
            none_within: Some(bound),
            ..proved.clone()
        }))
    }

    /// The search of [`Bounded::run_apart`] toward target `i` alone: its
    /// meeting within `bound`, or the two sides that show there is none.
    ///
    /// The side whose next level would generate fewer successors grows
    /// ([`Side::work_ahead`], by the bounds it last grew with), the forward
    /// side on a tie; the backward side never to the bound. The forward
    /// level that brings the depths to the bound is the last, and is not
    /// kept.
    #[allow(clippy::type_complexity)]
    fn toward_target(
        &self,
        bound: u32,
        proved: &Levels,
        i: usize,
    ) -> Result<std::result::Result<Search<'a, W>, (Side<'a, W>, Side<'a, W>)>> {
        let budget = self.limits.max_memory;
        let hint = |e| so_far(e, proved);
        let mut fore = Side::new(self.jumps, &[self.start], true, self.fixing_start, None);
        fore.pagodas = self.ahead_pagodas.map(|p| learnt(p).clone());
        let mut back = Side::new(self.jumps, &[self.targets[i]], false, &self.groups[i], None);
        back.pagodas = self.behind_pagodas.map(|p| learnt(&p[i]).clone());
        let met = |meeting, fore, back| {
            self.keep(&fore, None);
            self.keep(&back, Some(i));
            Ok(Ok(Search::Met {
                meeting,
                fore,
                back,
                proof: None,
            }))
        };
        // The start may be the target already.
        if let Some(meeting) = within(&fore.last, 0, &Ahead::new(&back, fore.group), bound) {
            return met(meeting, fore, back);
        }
        loop {
            let (a, b) = (fore.depth(), back.depth());
            if fore.last.is_empty() || back.last.is_empty() {
                break;
            }
            let behind_first = a + b + 1 < bound
                && back.work_ahead(self.jumps, SAMPLED) < fore.work_ahead(self.jumps, SAMPLED);
            if behind_first {
                back.prune = Some(self.toward(&fore.last, false, bound, a, &self.behind[i]));
                let found =
                    grow_behind(self.jumps, &mut back, &fore, budget, true, 0).map_err(hint)?;
                tell(self.observer, Some(bound), Some(i), &back);
                if let Some(meeting) = found {
                    return met(meeting, fore, back);
                }
                continue;
            }
            let last = a + b + 1 == bound;
            fore.prune = Some(self.toward(&back.last, true, bound, b, self.ahead));
            let ahead = Ahead::new(&back, self.fixing_start);
            let found = fore
                .grow(self.jumps, back.bytes(), budget, !last, &|fresh| {
                    within(fresh, a + 1, &ahead, bound)
                })
                .map_err(hint)?;
            tell(self.observer, Some(bound), Some(i), &fore);
            if let Some(meeting) = found {
                return met(meeting, fore, back);
            }
            if last {
                break;
            }
        }
        self.keep(&fore, None);
        self.keep(&back, Some(i));
        Ok(Err((fore, back)))
    }

    /// The bounds on a side's positions: toward `ends`, the side's far end
    /// (`ahead`: the targets; else the start), within `bound`; and toward
    /// `level`, the other side's last level, `depth` moves from that end,
    /// within `bound - depth` (when the board's packing is small enough for
    /// its table).
    fn toward(
        &self,
        level: &[W],
        ahead: bool,
        bound: u32,
        depth: u32,
        ends: &Regions<W>,
    ) -> Prune<W> {
        let mut prune = Prune::new(Arc::new(ends.clone()), bound);
        let Some(whole) = self.whole.filter(|_| depth > 0) else {
            return prune;
        };
        let regions = Regions::toward(
            self.packing,
            self.candidates,
            level,
            whole,
            self.types,
            ahead,
        );
        if let Some(regions) = regions {
            prune.bounds.insert(0, (Arc::new(regions), bound - depth));
            self.bounded_toward.store(true, Ordering::Relaxed);
        }
        prune
    }
}

/// The pagoda functions learnt so far for one side (a poisoned lock still
/// holds valid functions: each is checked when it is added).
fn learnt<W: Word>(shared: &Mutex<Pagodas<W>>) -> std::sync::MutexGuard<'_, Pagodas<W>> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A limit error from growing a level, with what the searches with smaller
/// bounds proved.
fn so_far(e: Error, proved: &Levels) -> Error {
    let Error::Limit {
        what,
        name,
        value,
        limit,
        hint,
    } = e
    else {
        return e;
    };
    Limits::exceeded_bound(
        name,
        what,
        value,
        limit,
        format!("{hint} (searched so far: {})", proved_text(proved)),
    )
}

/// What the searches with smaller bounds `proved`, in words.
fn proved_text(proved: &Levels) -> String {
    match proved.none_within {
        Some(n) => format!("no solution has {n} moves or fewer"),
        None => format!("every solution has at least {} moves", proved.lower),
    }
}

/// Grows the forward side `fore` by a level (entered in its map if `kept`), and the
/// meeting of its new positions with `back`'s levels with the fewest moves; `beside`
/// is what else is held, in bytes. A forward position stands for its orbit under the
/// start's symmetries, which need not fix the target: see [`Ahead`].
fn grow_ahead<W: Word>(
    jumps: &Jumps<W>,
    fore: &mut Side<W>,
    back: &Side<W>,
    budget: u64,
    kept: bool,
    beside: u64,
) -> Result<Option<Meeting<W>>> {
    let depth = fore.depth() + 1;
    let ahead = Ahead::new(back, fore.group);
    let meets = |fresh: &[W]| {
        fresh
            .par_iter()
            .filter_map(|&s| ahead.level(s).map(|(g, image)| (depth, g, image)))
            .min_by_key(order)
    };
    fore.grow(jumps, back.bytes() + beside, budget, kept, &meets)
}

/// Grows the backward side `back` by a level, and its meeting with `fore`'s levels; `beside`
/// is what else is held, in bytes. A backward position stands for its orbit under the
/// target's symmetries, which the forward levels do not share: every image is looked up.
fn grow_behind<W: Word>(
    jumps: &Jumps<W>,
    back: &mut Side<W>,
    fore: &Side<W>,
    budget: u64,
    kept: bool,
    beside: u64,
) -> Result<Option<Meeting<W>>> {
    let depth = back.depth() + 1;
    let group = back.group;
    let meets = |fresh: &[W]| {
        fresh
            .par_iter()
            .flat_map_iter(|&s| (0..group.len()).map(move |k| group.apply(k, s)))
            .filter_map(|image| fore.level(image).map(|f| (f, depth, image)))
            .min_by_key(order)
    };
    back.grow(jumps, fore.bytes() + beside, budget, kept, &meets)
}

/// Tells the `observer`, if any, that the last level of `side` of the search
/// with `bound` is complete: backward, from target `i`; forward, toward
/// target `i` alone (the targets one at a time), or toward every target.
fn tell<W: Word>(
    observer: Option<&Observer>,
    bound: Option<u32>,
    i: Option<usize>,
    side: &Side<W>,
) {
    if let Some(observer) = observer {
        (observer.0)(&Event::MoveLevel {
            bound,
            target: i.filter(|_| !side.forward),
            toward: i.filter(|_| side.forward),
            depth: side.depth(),
            positions: side.sizes.last().copied().unwrap_or(0),
            held: crate::memory::held(),
        });
    }
}

/// The meeting with the fewest moves of the positions `fresh`, `depth`
/// moves from the start, with a backward side's levels, within `bound`.
fn within<W: Word>(fresh: &[W], depth: u32, ahead: &Ahead<W>, bound: u32) -> Option<Meeting<W>> {
    fresh
        .par_iter()
        .filter_map(|&s| {
            let (g, image) = ahead.level(s).filter(|&(g, _)| depth + g <= bound)?;
            Some((depth, g, image))
        })
        .min_by_key(order)
}

/// The lookups of forward positions, canonical under `start`, in each of
/// the backward sides `backs`.
fn aheads<'s, 'a, W: Word>(
    backs: &'s [Side<'a, W>],
    start: &'a Symmetries<W>,
) -> Vec<Ahead<'s, 'a, W>> {
    backs.iter().map(|b| Ahead::new(b, start)).collect()
}

/// Adds a side's level `sizes` to the sums over several sides, level by level.
fn add_sizes(sums: &mut Vec<u64>, sizes: &[u64]) {
    for (n, &size) in sizes.iter().enumerate() {
        match sums.get_mut(n) {
            Some(sum) => *sum += size,
            None => sums.push(size),
        }
    }
}

/// The size of a side's next level, guessed from its last two (as many
/// times the last as the last is the one before).
fn next_size(sizes: &[u64]) -> f64 {
    match sizes {
        [.., before, last] if *before > 0 => *last as f64 * (*last as f64 / *before as f64),
        [.., last] => *last as f64,
        [] => 0.0,
    }
}

/// A meeting of the two searches: its forward level, its backward level,
/// and the position.
pub(super) type Meeting<W> = (u32, u32, W);

/// The moves of a solution through a meeting.
fn total<W: Word>(meeting: Meeting<W>) -> u32 {
    meeting.0 + meeting.1
}

/// Which of two meetings is taken: the fewer moves, then the lesser position.
fn order<W: Word>(meeting: &Meeting<W>) -> (u32, W) {
    (total(*meeting), meeting.2)
}

/// The moves of a fewest solution through `meeting` (forward level `f`,
/// backward level `g`), as actual positions from `start`.
fn rebuild<W: Word>(
    jumps: &Jumps<W>,
    fore: &Side<W>,
    back: &Side<W>,
    meeting: W,
    f: u32,
    g: u32,
    start: W,
) -> Result<Vec<Vec<usize>>> {
    let lost =
        || Error::Internal("a fewest-moves solution could not be rebuilt from its levels".into());
    let mut before: Vec<Vec<usize>> = Vec::new();
    let mut at = meeting;
    for level in (0..f).rev() {
        let mut step = None;
        jumps.backward(at, &mut |prev, chain| {
            if fore.level(prev) == Some(level) {
                step = Some((prev, chain.iter().rev().copied().collect()));
                return false;
            }
            true
        });
        let (prev, chain) = step.ok_or_else(lost)?;
        before.push(chain);
        at = prev;
    }
    if at != start {
        return Err(lost());
    }
    before.reverse();
    before.extend(to_target(jumps, back, meeting, g)?);
    Ok(before)
}

/// The moves from `at`, in level `g` of the backward side `back`, to its
/// target: each into the level below.
fn to_target<W: Word>(
    jumps: &Jumps<W>,
    back: &Side<W>,
    mut at: W,
    g: u32,
) -> Result<Vec<Vec<usize>>> {
    let mut moves = Vec::new();
    for level in (0..g).rev() {
        let mut step = None;
        jumps.forward(at, &mut |next, chain| {
            if back.level(next) == Some(level) {
                step = Some((next, chain.to_vec()));
                return false;
            }
            true
        });
        let (next, chain) = step.ok_or_else(|| {
            Error::Internal("a solution could not be rebuilt from the backward levels".into())
        })?;
        moves.push(chain);
        at = next;
    }
    Ok(moves)
}

/// The bounds behind a position, from each target's side (one per group of
/// the targets' symmetries): the regions the nearest image of the start
/// under the target's symmetries fills and it does not, since a backward
/// position stands for its orbit; from the board's packing and candidates.
fn behind<W: Word>(
    groups: &[Symmetries<W>],
    start: W,
    (packing, candidates): (&[W], &[W]),
    types: Option<&PegTypes<W>>,
) -> Vec<Regions<W>> {
    groups
        .iter()
        .map(|g| {
            let starts: Vec<W> = (0..g.len()).map(|k| g.apply(k, start)).collect();
            Regions::pack_with(packing, candidates, &starts, types)
        })
        .collect()
}

/// Each target's first levels backward (bounded by `behind`, the regions
/// toward the start, within `within` moves) for a beam of `width`
/// positions a level to meet: grown a level at a time, each target in turn,
/// while the next looks like it keeps them all within eight times `width`
/// positions and a quarter of `--max-memory`. A level refused by the memory
/// is left out, and its side grows no more: the levels before it stand.
fn first_levels<'a, W: Word>(
    jumps: &Jumps<W>,
    (targets, groups): (&[W], &'a [Symmetries<W>]),
    behind: &[Regions<W>],
    (within, width): (u32, usize),
    limits: &Limits,
    observer: Option<&Observer>,
) -> Vec<Side<'a, W>> {
    let most = width.saturating_mul(8) as f64;
    let budget = limits.max_memory / 4;
    let mut sides: Vec<Side<'a, W>> = (targets.iter().zip(groups).zip(behind))
        .map(|((&t, g), regions)| {
            let prune = Prune::new(Arc::new(regions.clone()), within);
            Side::new(jumps, &[t], false, g, Some(prune))
        })
        .collect();
    // The sides whose next level was refused.
    let mut refused = vec![false; sides.len()];
    loop {
        let mut grew = false;
        for i in 0..sides.len() {
            let held: u64 = sides.iter().map(Side::bytes).sum();
            let count: f64 = sides
                .iter()
                .map(|s| s.sizes.iter().sum::<u64>() as f64)
                .sum();
            let side = &mut sides[i];
            if refused[i] || side.last.is_empty() || count + next_size(&side.sizes) > most {
                continue;
            }
            let beside = held - side.bytes();
            let nothing = |_: &[W]| None;
            // A refused level leaves the side's levels as they were.
            let grown = side.grow(jumps, beside, budget, true, &nothing).is_ok();
            if grown {
                tell(observer, None, Some(i), side);
            }
            refused[i] = !grown;
            grew |= grown;
        }
        if !grew {
            return sides;
        }
    }
}

/// Levels by moves, each to the end: forward from `from` (the positions
/// reached in `n` moves and no fewer), or, without `from`, backward from the
/// goal's targets (the positions that reach a target in `n` moves and no
/// fewer). Counted as orbits with `symmetry`, else as positions (each orbit
/// by its size). Refused past the limit `max-memory`.
pub fn histogram<W: Word>(
    program: &Program,
    from: Option<W>,
    symmetry: bool,
    limits: &Limits,
) -> Result<crate::outcome::Summary> {
    let jumps: Jumps<W> = Jumps::new(program)?;
    let (sources, forward, fixed): (Vec<W>, bool, Vec<W>) = match from {
        Some(start) => (vec![start], true, vec![start]),
        None => {
            let Goal::Targets(targets) = program.goal() else {
                return Err(Error::Usage(
                    "levels by moves back from the goal need target boards, not fewest pieces"
                        .into(),
                ));
            };
            (
                targets.iter().filter_map(W::from_bits).collect(),
                false,
                Vec::new(),
            )
        }
    };
    let group = Symmetries::wide(program, &fixed, limits)?;
    let mut side = Side::new(&jumps, &sources, forward, &group, None);
    let mut summary = crate::outcome::Summary {
        symmetries: if symmetry { group.len() } else { 1 },
        ..Default::default()
    };
    let mut depth = 0;
    while !side.last.is_empty() {
        let n: u128 = if symmetry {
            side.last.len() as u128
        } else {
            side.last
                .par_iter()
                .map(|&s| (group.len() / group.stabilizer(s)) as u128)
                .sum()
        };
        summary.histogram.insert(depth, n);
        summary.count.add(n);
        side.grow(&jumps, 0, limits.max_memory, true, &|_| None)?;
        depth += 1;
    }
    Ok(summary)
}

/// The cost of a search by levels: the levels are not known before the run,
/// which stops with the limit error when what it holds would pass the budget.
pub(crate) fn cost(program: &Program) -> (u128, u128) {
    let work = (1u128 << program.cells().min(127)).saturating_mul(program.moves().len() as u128);
    (0, work)
}

#[cfg(test)]
mod tests {
    use super::jumps::Images;
    use super::side::Fresh;
    use super::store::{LevelMap, by_part, mix, part_of};
    use super::*;

    /// English solitaire's program, its jumps, and its start.
    fn english() -> (Program, Jumps<u64>, u64) {
        let entry = crate::catalogue::find("english33").unwrap();
        let program = crate::Puzzle::parse(entry.text, "english33")
            .unwrap()
            .compile()
            .unwrap();
        let jumps = Jumps::new(&program).unwrap();
        let start = program.puzzle().start.as_ref().unwrap().to_u64().unwrap();
        (program, jumps, start)
    }

    #[test]
    fn a_level_map_finds_what_it_was_given() {
        let mut map: LevelMap<u64> = LevelMap::new();
        assert_eq!(map.get(0), None);
        // Enough positions for many buckets, and the extremes of the mix.
        let mut batch: Vec<u64> = (0..50_000u64)
            .map(|i| i * 7919)
            .chain([u64::MAX, 1u64.wrapping_neg().wrapping_mul(0x7)])
            .collect();
        batch.sort_unstable_by_key(|&p| mix(p));
        batch.dedup();
        let (first, second) = batch.split_at(20_000);
        // The second level is merged in between the keys of the first, and
        // the partitions split as the map grows: one, then two, then four.
        let one: Vec<u64> = first.iter().step_by(2).copied().collect();
        map.insert(&one, 3);
        assert_eq!(map.bits(), 0);
        let two: Vec<u64> = first.iter().skip(1).step_by(2).copied().collect();
        map.insert(&two, 4);
        assert_eq!(map.bits(), 1);
        map.insert(second, 5);
        assert_eq!(map.bits(), 2);
        assert_eq!(map.len(), batch.len());
        for (list, level) in [(&one, 3), (&two, 4), (&second.to_vec(), 5)] {
            for &p in list {
                assert_eq!(map.get(p), Some(level), "{p}");
            }
        }
        let absent: Vec<u64> = (0..50_000u64).map(|i| i * 7919 + 1).collect();
        for &p in &absent {
            assert_eq!(map.get(p), None);
        }
        // Held and absent keys of one partition, sorted: only the absent ones stay.
        let mut keys: Vec<u64> = batch.iter().chain(&absent).map(|&p| mix(p)).collect();
        keys.sort_unstable();
        for (p, mut kept) in by_part(&keys, map.bits()).into_iter().enumerate() {
            map.retain_absent(&mut kept);
            let mut expected: Vec<u64> = absent
                .iter()
                .map(|&a| mix(a))
                .filter(|&k| part_of(k, map.bits()) == p)
                .collect();
            expected.sort_unstable();
            assert_eq!(kept, expected, "partition {p}");
        }
        assert!(map.bytes() >= LevelMap::<u64>::bytes_for(batch.len()));
        map.insert(&[], 6);
        assert_eq!(map.len(), batch.len());
    }

    /// A sorted level's index finds exactly its positions, at every size from
    /// none to many buckets, and the walk that drops held keys keeps exactly
    /// the others, whether it walks or gallops.
    #[test]
    fn a_sorted_level_finds_what_it_holds_and_drops_it_from_keys() {
        use super::store::{SortedIndex, retain_absent_in};
        let none: [u64; 0] = [];
        assert!(!SortedIndex::new(&none).holds(&none, 3));
        for len in [0usize, 1, 2, 15, 16, 17, 1000, 40_000] {
            let mut level: Vec<u64> = (0..len as u64).map(|i| i * 7919 + 3).collect();
            level.push(u64::MAX);
            level.sort_unstable_by_key(|&p| mix(p));
            level.dedup();
            let index = SortedIndex::new(&level);
            assert!(level.iter().all(|&p| index.holds(&level, p)), "{len}");
            assert!(
                (0..len as u64).all(|i| !index.holds(&level, i * 7919 + 4)),
                "{len}"
            );
            // Keys of every held one, of every other one and of absent ones.
            for (step, more) in [(1, 0u64), (2, 10), (50, 3)] {
                let absent = (0..more + len as u64 / 10).map(|i| i * 7919 + 5);
                let mut keys: Vec<u64> = level
                    .iter()
                    .step_by(step)
                    .copied()
                    .chain(absent.clone())
                    .map(mix)
                    .collect();
                keys.sort_unstable();
                retain_absent_in(level.len(), |at| mix(level[at]), &mut keys);
                let mut expected: Vec<u64> = absent.map(mix).collect();
                expected.sort_unstable();
                assert_eq!(keys, expected, "{len} {step}");
            }
        }
    }

    #[test]
    fn new_positions_are_deduplicated_only_when_they_would_not_fit() {
        let fit = |most: usize| {
            move |fresh: &Fresh<u64>| {
                if fresh.len() <= most {
                    Ok(())
                } else {
                    Err(Error::Internal(format!("{} past {most}", fresh.len())))
                }
            }
        };
        let keys = |fresh: &Fresh<u64>| fresh.buckets.concat();
        let mut fresh = Fresh::new(1);
        // Two buckets by the top bit; each chunk adds a sorted run to each.
        let high = 1u64 << 63;
        fresh.extend(vec![vec![1, 3], vec![high | 1, high | 3]]);
        fresh.extend(vec![vec![1, 2], vec![high | 3]]);
        // It fits: left as it is.
        fresh.settle(fit(7)).unwrap();
        assert_eq!(keys(&fresh), [1, 3, 1, 2, high | 1, high | 3, high | 3]);
        // It does not: deduplicated, and then it fits.
        fresh.settle(fit(5)).unwrap();
        assert_eq!(keys(&fresh), [1, 2, 3, high | 1, high | 3]);
        // Still too many once deduplicated: the check's error.
        fresh.extend(vec![vec![4, 5], vec![high | 4]]);
        assert!(fresh.settle(fit(6)).is_err());
        assert_eq!(keys(&fresh), [1, 2, 3, 4, 5, high | 1, high | 3, high | 4]);
        // Grown by less than an eighth since: refused without sorting again.
        let mut fresh = Fresh::new(0);
        fresh.extend(vec![(1..=16).collect()]);
        fresh.dedup();
        fresh.extend(vec![vec![16]]);
        assert!(fresh.settle(fit(16)).is_err());
        assert_eq!(fresh.len(), 17);
        // Runs of keys with room to spare (as deduplicated chunks leave them):
        // the buckets' capacity stays within a quarter of what they hold.
        let mut fresh = Fresh::new(2);
        for run in 0..200u64 {
            let by_bucket = (0..4u64)
                .map(|b| {
                    let mut keys = Vec::with_capacity(64);
                    keys.extend((0..=run % 7).map(|k| b << 62 | run << 8 | k));
                    keys
                })
                .collect();
            fresh.extend(by_bucket);
            let len = fresh.len() as u64;
            assert!(fresh.bytes() <= (len + len / 4 + 4) * 8, "{run}");
        }
    }

    /// Every position's fewest moves to one of `ends` (forward: played
    /// forward; else from one of them), by plain breadth-first search over
    /// all `2^cells` positions; `u8::MAX` where there is none.
    fn distances(jumps: &Jumps<u64>, cells: usize, ends: &[u64], to_ends: bool) -> Vec<u8> {
        let mut dist = vec![u8::MAX; 1 << cells];
        let mut layer: Vec<u64> = ends.to_vec();
        for &e in ends {
            dist[e as usize] = 0;
        }
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &s in &layer {
                let mut visit = |t: u64, _: &[usize]| {
                    if dist[t as usize] == u8::MAX {
                        dist[t as usize] = d;
                        next.push(t);
                    }
                    true
                };
                if to_ends {
                    jumps.backward(s, &mut visit);
                } else {
                    jumps.forward(s, &mut visit);
                }
            }
            layer = next;
        }
        dist
    }

    #[test]
    fn regions_and_peg_types_never_count_more_moves_than_there_are() {
        let square = "name = \"square\"\n[board]\nrows = 4\ncols = 4\n[[moves]]\n\
                      jump = \"orthogonal\"\n[goal]\none-piece = \"anywhere\"\n";
        let row = "name = \"row\"\n[board]\nrows = 3\ncols = 5\n[[moves]]\n\
                   jump = \"orthogonal\"\n[goal]\none-piece = \"anywhere\"\n";
        let triangle = crate::catalogue::find("triangle15").unwrap().text;
        let mut counted = [0u64; 2];
        for (name, text) in [("square", square), ("rect", row), ("triangle15", triangle)] {
            let program = crate::Puzzle::parse(text, name).unwrap().compile().unwrap();
            let jumps = Jumps::new(&program).unwrap();
            let cells = program.cells();
            let types = PegTypes::new(cells, &jumps.lines).unwrap();
            let candidates = Regions::candidates(cells, &jumps.lines);
            let singles: Vec<u64> = (0..cells).map(|c| 1u64 << c).collect();
            // Ahead of every position that reaches one peg: at most its fewest moves.
            let ahead = Regions::pack(&candidates, &singles, Some(&types));
            let to_one = distances(&jumps, cells, &singles, true);
            for (p, &d) in to_one.iter().enumerate().filter(|&(_, &d)| d != u8::MAX) {
                let bound = ahead.ahead(p as u64);
                assert!(bound <= u32::from(d), "{name} {p:#b}: {bound} > {d}");
                // The search's test counts only as far as the slack needs.
                for slack in 0..=bound + 1 {
                    assert_eq!(ahead.within(p as u64, true, slack), bound <= slack);
                }
                counted[0] +=
                    u64::from(ahead.ahead_by_types(p as u64) > ahead.ahead_by_regions(p as u64));
            }
            // Behind every position reached from a single vacancy: at most its fewest moves.
            for vacancy in 0..cells {
                let start = ((1u64 << cells) - 1) & !(1 << vacancy);
                let behind = Regions::pack(&candidates, &[start], Some(&types));
                let from = distances(&jumps, cells, &[start], false);
                for (p, &d) in from.iter().enumerate().filter(|&(_, &d)| d != u8::MAX) {
                    let bound = behind.behind(p as u64);
                    assert!(
                        bound <= u32::from(d),
                        "{name} from {start:#b}, {p:#b}: {bound} > {d}"
                    );
                    for slack in 0..=bound + 1 {
                        assert_eq!(behind.within(p as u64, false, slack), bound <= slack);
                    }
                    counted[1] += u64::from(
                        behind.behind_by_types(p as u64) > behind.behind_by_regions(p as u64),
                    );
                }
            }
        }
        // The types count more than the regions somewhere, both ways.
        assert!(counted[0] > 0 && counted[1] > 0, "{counted:?}");
    }

    /// The bound toward a whole level, looked up in its table, is the bound toward every
    /// image of the level's positions counted one end at a time, ahead and behind.
    #[test]
    fn the_bound_toward_a_level_is_the_bound_toward_each_of_its_positions() {
        let (program, jumps, start) = english();
        let centre = !start & ((1u64 << program.cells()) - 1);
        let limits = Limits::default();
        let group = Symmetries::of(&program, &[start], &limits).unwrap();
        let whole = Symmetries::of(&program, &[], &limits).unwrap();
        let candidates = Regions::candidates(program.cells(), &jumps.lines);
        let packing = Regions::disjoint(&candidates);
        let types = PegTypes::new(program.cells(), &jumps.lines);
        let mut fore = Side::new(&jumps, &[start], true, &group, None);
        let mut back = Side::new(&jumps, &[centre], false, &group, None);
        let mut probes: Vec<u64> = Vec::new();
        for depth in 1..=6 {
            fore.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
            if depth <= 4 {
                back.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
            }
            probes.extend(&fore.last);
            probes.extend(&back.last);
        }
        let whole = &whole;
        for (level, ahead) in [(&back.last, true), (&fore.last, false)] {
            let images: Vec<u64> = level
                .iter()
                .flat_map(|&q| (0..whole.len()).map(move |k| whole.apply(k, q)))
                .collect();
            let one_by_one = Regions::pack_with(&packing, &candidates, &images, types.as_ref());
            let table = Regions::toward(&packing, &candidates, level, whole, types.as_ref(), ahead)
                .unwrap();
            assert!(images.len() > 1000);
            let bound = |p: u64| {
                if ahead {
                    table.ahead(p)
                } else {
                    table.behind(p)
                }
            };
            let counted = probes.iter().filter(|&&p| bound(p) > 0).count();
            assert!(counted >= 100, "{counted} of {}", probes.len());
            for &p in &probes {
                if ahead {
                    assert_eq!(table.ahead(p), one_by_one.ahead(p), "{p:#x}");
                } else {
                    assert_eq!(table.behind(p), one_by_one.behind(p), "{p:#x}");
                }
                for slack in 0..4 {
                    assert_eq!(
                        table.within(p, ahead, slack),
                        one_by_one.within(p, ahead, slack),
                        "{p:#x} {slack}"
                    );
                }
            }
        }
        assert!(probes.len() > 1000);
    }

    #[test]
    fn pagoda_functions_cut_only_positions_that_cannot_reach_the_target() {
        let (program, jumps, start) = english();
        let centre = !start & ((1u64 << program.cells()) - 1);
        let group = Symmetries::of(&program, &[start], &Limits::default()).unwrap();
        let mut plain = Side::new(&jumps, &[start], true, &group, None);
        let mut cut = Side::new(&jumps, &[start], true, &group, None);
        cut.pagodas = Some(Pagodas::new(
            program.cells(),
            &jumps.lines,
            &[centre],
            true,
            &group,
        ));
        cut.learning_level = 1;
        let mut gone = Vec::new();
        for _ in 0..8 {
            plain.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
            cut.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
            // The cut level is the plain one less what the functions cut off.
            let kept: std::collections::HashSet<u64> = cut.last.iter().copied().collect();
            assert!(kept.len() <= plain.last.len());
            gone.extend(
                plain
                    .last
                    .iter()
                    .copied()
                    .filter(|p| !kept.contains(p))
                    .step_by(29),
            );
            assert!(kept.iter().all(|&p| plain.level(p) == cut.level(p)));
        }
        assert!(
            cut.pagodas.as_ref().unwrap().found() > 0 && gone.len() >= 10,
            "{} cut off",
            gone.len()
        );
        // A level refused for memory keeps the functions learnt, proved either way.
        let learnt = cut.pagodas.as_ref().unwrap().found();
        assert!(cut.grow(&jumps, 0, cut.bytes(), true, &|_| None).is_err());
        assert_eq!(cut.pagodas.as_ref().map(Pagodas::found), Some(learnt));
        // Each position cut off (a sample) is shown dead by the jump search.
        for &p in gone.iter().take(40) {
            let found = crate::engines::dfs::dfs(&program, p, &[centre], &Limits::default());
            assert!(
                found.unwrap().is_none(),
                "{p:#x} was cut off but reaches the centre"
            );
        }
    }

    /// A 13-hole cross, a board with both a centre and corners, one peg left anywhere.
    const CROSS: &str = "name = \"cross\"\n[board]\nshape = [\"..o..\", \".ooo.\", \"ooooo\", \
                         \".ooo.\", \"..o..\"]\n[[moves]]\njump = \"orthogonal\"\n[goal]\n\
                         one-piece = \"anywhere\"\n";

    /// The same search in 128-bit words: the same fewest moves, through levels of the
    /// same sizes, from every single vacancy of two boards.
    #[test]
    fn wide_words_search_as_narrow_ones() {
        let triangle = crate::catalogue::find("triangle15").unwrap().text;
        let mut solved = 0;
        for (name, text) in [("triangle15", triangle), ("cross", CROSS)] {
            let program = crate::Puzzle::parse(text, name).unwrap().compile().unwrap();
            let cells = program.cells();
            for vacancy in 0..cells {
                let start = ((1u64 << cells) - 1) & !(1 << vacancy);
                let limits = Limits::default();
                let narrow = fewest_moves::<u64>(&program, start, None, &limits, None).unwrap();
                let wide =
                    fewest_moves::<u128>(&program, start.into(), None, &limits, None).unwrap();
                assert_eq!(narrow, wide, "{name} from vacancy {vacancy}");
                solved += usize::from(matches!(narrow, MoveOutcome::Solved(_)));
            }
        }
        assert!(solved > 10, "{solved}");
    }

    /// With the bound `frontier`, the targets searched one at a time (as
    /// where the shared forward levels do not fit) give the same fewest moves
    /// as the shared levels, from every vacancy of two boards, and say so.
    #[test]
    fn targets_one_at_a_time_give_what_shared_levels_give() {
        let triangle = crate::catalogue::find("triangle15").unwrap().text;
        let (mut solved, mut apart) = (0, 0);
        for (name, text) in [("triangle15", triangle), ("cross", CROSS)] {
            let mut puzzle = crate::Puzzle::parse(text, name).unwrap();
            puzzle.bounds.frontier = true;
            let program = puzzle.compile().unwrap();
            let cells = program.cells();
            for vacancy in 0..cells {
                let start = ((1u64 << cells) - 1) & !(1 << vacancy);
                let limits = Limits::default();
                let run = |apart| prove_fewest(&program, start, None, &limits, None, apart);
                let (shared, each) = (run(false).unwrap(), run(true).unwrap());
                let length = |o: &MoveOutcome| match o {
                    MoveOutcome::Solved(s) => Some(s.moves.len()),
                    MoveOutcome::Unsolvable(_) => None,
                    MoveOutcome::Unproved(..) => panic!("{name}: no limit was passed"),
                };
                assert_eq!(
                    length(&shared),
                    length(&each),
                    "{name} from vacancy {vacancy}"
                );
                if let MoveOutcome::Solved(s) = &each {
                    solved += 1;
                    // Where a search found nothing with more than one target, it says how.
                    let levels = &s.levels;
                    if levels.none_within.is_some() && levels.targets > 1 {
                        assert!(levels.apart && levels.frontier, "{name} {vacancy}");
                        apart += 1;
                    }
                }
                if let MoveOutcome::Solved(s) = &shared {
                    assert!(!s.levels.apart, "{name} {vacancy}");
                }
            }
        }
        assert!(solved > 10 && apart > 5, "{solved} {apart}");
    }

    /// A last level grown with too little room for it is checked in parts:
    /// the same meeting as with room to spare, and a count at least as large;
    /// with too little room for one chunk, the limit's error.
    #[test]
    fn a_last_level_that_does_not_fit_is_checked_in_parts() {
        let rows: Vec<String> = (1..=7)
            .map(|n| format!("\"{}{}\"", "o".repeat(n), ".".repeat(7 - n)))
            .collect();
        let text = format!(
            "name = \"t7\"\nmetric = \"moves\"\n[board]\nlattice = \"triangular\"\n\
             shape = [{}]\n[[moves]]\njump = \"triangular\"\n[goal]\none-piece = \"anywhere\"\n",
            rows.join(", ")
        );
        let program = crate::Puzzle::parse(&text, "t7.toml")
            .unwrap()
            .compile()
            .unwrap();
        let jumps: Jumps<u64> = Jumps::new(&program).unwrap();
        let start = ((1u64 << program.cells()) - 1) & !(1 << 3);
        let group = Symmetries::wide(&program, &[start], &Limits::default()).unwrap();
        // Levels 0 to 4 with room to spare, then level 5 (thousands of parents,
        // tens of thousands of positions) as the last.
        let side = || {
            let mut side = Side::new(&jumps, &[start], true, &group, None);
            // Few parents a chunk, so that the level grows in many.
            side.chunk = 1 << 8;
            for _ in 0..4 {
                side.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
            }
            side
        };
        // Meetings at some positions, the fewest moves and then the least first.
        let meets = |fresh: &[u64]| {
            let at = |p: u64| (5u32, (p % 5) as u32, p);
            fresh
                .iter()
                .filter(|&&p| p % 3 == 0)
                .map(|&p| at(p))
                .min_by_key(order)
        };
        let mut roomy = side();
        let parents = roomy.last.len();
        let met = roomy.grow(&jumps, 0, u64::MAX, false, &meets).unwrap();
        let count = roomy.sizes[5];
        assert!(!roomy.in_parts && met.is_some());
        assert!(
            parents > 4 * roomy.chunk && count > 4 * parents as u64,
            "{parents} {count}"
        );
        for share in [2, 4, 8, 16] {
            let mut tight = side();
            // What the earlier levels hold, a chunk's successors, and a share of the level.
            let held = tight.bytes() + parents as u64 * 8;
            let chunk = 2 * tight.chunk as u64 * SUCCESSORS_PER_PARENT * 8;
            let max_memory = held + chunk + count * 8 / share;
            let found = tight.grow(&jumps, 0, max_memory, false, &meets).unwrap();
            assert!(tight.in_parts, "{share}");
            assert_eq!(found, met, "{share}");
            assert!(tight.sizes[5] >= count, "{share}");
        }
        let mut starved = side();
        let held = starved.bytes() + parents as u64 * 8;
        assert!(matches!(
            starved.grow(&jumps, 0, held, false, &meets),
            Err(Error::Limit {
                name: "max-memory",
                ..
            })
        ));
        // Refused, the side's levels are as they were: its last level still
        // found at its depth, and grown again with room, the same level as the
        // roomy one's.
        let before = side();
        assert_eq!(starved.sizes, before.sizes);
        assert_eq!(starved.last, before.last);
        assert!(starved.last.iter().all(|&p| starved.level(p) == Some(4)));
        let again = starved.grow(&jumps, 0, u64::MAX, false, &meets).unwrap();
        assert_eq!((again, starved.sizes[5]), (met, count));
    }

    /// A level whose parents, in one chunk, leave too little room for the
    /// successors the chunk is allowed is grown in halves: the same level;
    /// with too little room even for a task's parents, refused as it was.
    #[test]
    fn a_chunk_that_does_not_fit_is_expanded_in_halves() {
        let (program, jumps, start) = english();
        let group = Symmetries::of(&program, &[start], &Limits::default()).unwrap();
        let side = || {
            let mut side = Side::new(&jumps, &[start], true, &group, None);
            while side.last.len() <= 4 * side::PART {
                side.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
            }
            side
        };
        let before = side();
        let parents = before.last.len() as u64;
        let mut whole = side();
        whole.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
        // What a chunk of all the parents is allowed for its successors.
        let running = (rayon::current_num_threads() * side::PART) as u64;
        let allowed = (parents + running.min(parents)) * SUCCESSORS_PER_PARENT * 8;
        let (mut halved, mut refused) = (0, 0);
        for share in 1..=32u64 {
            let mut tight = side();
            tight.chunk = tight.last.len();
            // The levels, the parents (held twice while the last is entered),
            // the new level and its index, and a share of what the chunk is allowed.
            let held = tight.bytes() + 2 * parents * 8;
            let max_memory = held + whole.sizes.last().unwrap() * 12 + allowed * share / 32;
            match tight.grow(&jumps, 0, max_memory, true, &|_| None) {
                Ok(_) => {
                    assert_eq!((&tight.sizes, &tight.last), (&whole.sizes, &whole.last));
                    // The whole chunk was not allowed its successors.
                    halved += u64::from(allowed > max_memory - before.bytes());
                }
                Err(Error::Limit {
                    name: "max-memory", ..
                }) => {
                    assert_eq!((&tight.sizes, &tight.last), (&before.sizes, &before.last));
                    refused += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert!(halved > 0 && refused > 0, "{halved} {refused}");
    }

    /// The last level is looked up where it is held, the levels before it in
    /// the map; a position of no level is found in neither, and a cut level
    /// keeps its cut positions known at their level.
    #[test]
    fn every_level_is_found_at_its_depth_once_grown() {
        let (program, jumps, start) = english();
        let group = Symmetries::of(&program, &[start], &Limits::default()).unwrap();
        let mut side = Side::new(&jumps, &[start], true, &group, None);
        let mut levels = vec![side.last.clone()];
        for _ in 0..5 {
            side.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
            levels.push(side.last.clone());
            for (depth, level) in levels.iter().enumerate() {
                for &p in level.iter().step_by(7) {
                    assert_eq!(side.level(p), Some(depth as u32), "{p:#x}");
                    // Any image of a position is found at its level.
                    assert_eq!(side.level(group.apply(3, p)), Some(depth as u32));
                }
            }
        }
        // A full board and the start's complement are no level's.
        assert_eq!(side.level((1 << program.cells()) - 1), None);
        assert_eq!(side.level(!start & ((1 << program.cells()) - 1)), None);
        // Half the last level cut: the kept half is the last level, the cut
        // half still known at depth 5.
        let last = side.last.clone();
        side.cut_last(|p| p.count_ones() % 2 == 0 || p % 2 == 0);
        assert!(side.last.len() < last.len() && side.sizes[5] == side.last.len() as u64);
        assert!(last.iter().all(|&p| side.level(p) == Some(5)));
        side.grow(&jumps, 0, u64::MAX, true, &|_| None).unwrap();
        assert!(last.iter().all(|&p| side.level(p) == Some(5)));
    }

    #[test]
    fn successors_with_their_canonical_forms_are_the_chains_moves() {
        for name in ["english33", "french37", "triangle15", "pebble12"] {
            let entry = crate::catalogue::find(name).unwrap();
            let program = crate::Puzzle::parse(entry.text, name)
                .unwrap()
                .compile()
                .unwrap();
            let jumps = Jumps::new(&program).unwrap();
            let group: Symmetries = Symmetries::of(&program, &[], &Limits::default()).unwrap();
            let images = Images::new(&jumps, &group);
            let cells = program.cells();
            let mut x = 0x2545_F491_4F6C_DD1Du64;
            for _ in 0..500 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let state = x & ((1u64 << cells) - 1);
                for forward in [true, false] {
                    let mut fast = Vec::new();
                    jumps.expand(
                        &[state],
                        forward,
                        &group,
                        &images,
                        usize::MAX,
                        &mut |t, c| fast.push((t, c)),
                    );
                    let mut slow = Vec::new();
                    let mut found = |t: u64, _: &[usize]| {
                        slow.push((t, group.least(t)));
                        true
                    };
                    if forward {
                        jumps.forward(state, &mut found);
                    } else {
                        jumps.backward(state, &mut found);
                    }
                    // Each successor at least once: chains that reach a position with
                    // the peg on the same cell are gone on from once.
                    fast.sort_unstable();
                    fast.dedup();
                    slow.sort_unstable();
                    slow.dedup();
                    assert_eq!(fast, slow, "{name} {state:#x} forward {forward}");
                }
            }
        }
    }
}
