//! One side of the search: its levels, grown one at a time and deduplicated against the store, pruned by the regions' bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::Meeting;
use super::jumps::{Images, Jumps};
use super::store::{LevelMap, SortedIndex, mix, part_bounds, retain_absent_in, unmix};
use super::{CHUNK, SUCCESSORS_PER_PARENT};
use crate::engines::merson::Regions;
use crate::engines::pagoda::Pagodas;
use crate::error::{Error, Result};
use crate::symmetry::Symmetries;
use crate::word::Word;

/// One direction's levels (forward from the start, or backward from one
/// target), up to the side's own symmetries: each position's level, the
/// last level held once, in `last` (sorted by mix and indexed), and the
/// levels before it in the level map.
pub(super) struct Side<'a, W: Word> {
    level_of: LevelMap<W>,
    /// The last level, sorted by mix (or, once the side is closed, its last part).
    pub(super) last: Vec<W>,
    /// The index of `last` while it is a whole level.
    last_index: SortedIndex,
    pub(super) sizes: Vec<u64>,
    pub(super) forward: bool,
    pub(super) group: &'a Symmetries<W>,
    /// The jumps' images under `group`, for the successors' canonical forms.
    images: Images<W>,
    pub(super) prune: Option<Prune<W>>,
    /// The pagoda functions that cut off positions that cannot meet the
    /// other side's ends, learnt from the levels as they grow.
    pub(super) pagodas: Option<Pagodas<W>>,
    /// The fewest positions of a level that the pagoda functions learn from.
    pub(super) learning_level: usize,
    /// Whether `last` is a whole level, looked up by [`Side::level`], so that
    /// the side can grow; a level that is not kept closes it.
    open: bool,
    /// Parents expanded at a time while a level grows ([`CHUNK`]).
    pub(super) chunk: usize,
    /// Whether the last level was too large to hold and was checked in
    /// parts as it grew (see [`Side::grow`]).
    pub(super) in_parts: bool,
}

/// A backward side's levels, as the forward side looks its positions up in
/// them. A forward position stands for its images under the start's
/// symmetries, and a target's levels for their images under the target's;
/// where the start's symmetries do not fix the target, one image of a
/// forward position can lead to the target while another leads elsewhere.
/// So every image that the target's symmetries do not reach from another is
/// looked up.
pub(super) struct Ahead<'s, 'a, W: Word> {
    back: &'s Side<'a, W>,
    start: &'a Symmetries<W>,
    /// Symmetries of `start`, one of each class that the target's own
    /// symmetries do not reach from the identity or from one before.
    others: Vec<usize>,
}

impl<'s, 'a, W: Word> Ahead<'s, 'a, W> {
    /// The lookups of forward positions, canonical under `start`, in `back`.
    pub(super) fn new(back: &'s Side<'a, W>, start: &'a Symmetries<W>) -> Self {
        let target = back.group.perms();
        // `a` and `b` give images that the target's symmetries reach from
        // each other when `a = h ∘ b` for one of them, `h`.
        let reached = |a: &[usize], b: &[usize]| {
            let mut h = vec![0; b.len()];
            for (cell, &image) in b.iter().enumerate() {
                h[image] = a[cell];
            }
            target.contains(&h)
        };
        let cells = start.perms().first().map_or(0, Vec::len);
        let identity: Vec<usize> = (0..cells).collect();
        let mut seen: Vec<&[usize]> = vec![&identity];
        let mut others = Vec::new();
        for (k, perm) in start.perms().iter().enumerate() {
            if !seen.iter().any(|b| reached(perm, b)) {
                seen.push(perm);
                others.push(k);
            }
        }
        Ahead {
            back,
            start,
            others,
        }
    }

    /// The least level of the backward side that holds an image of the
    /// forward position `s`, and that image.
    pub(super) fn level(&self, s: W) -> Option<(u32, W)> {
        let mut best = self.back.level(s).map(|g| (g, s));
        for &k in &self.others {
            let image = self.start.apply(k, s);
            if let Some(g) = self.back.level(image)
                && best.is_none_or(|(b, _)| g < b)
            {
                best = Some((g, image));
            }
        }
        best
    }
}

/// A growing level's new positions, as their mixes, in buckets by the
/// mix's top bits: the buckets in order, each sorted, are the level sorted
/// by mix. Each chunk's new positions go to their buckets, and the buckets
/// are deduplicated at the end of the level (or sooner, when they would not
/// fit), each on its own and in cache.
pub(super) struct Fresh<W: Word> {
    pub(super) bits: u32,
    pub(super) buckets: Vec<Vec<W>>,
    /// How many positions the buckets held when they were last deduplicated.
    settled: usize,
}

impl<W: Word> Fresh<W> {
    /// Buckets of `bits` top bits.
    pub(super) fn new(bits: u32) -> Fresh<W> {
        Fresh {
            bits,
            buckets: vec![Vec::new(); 1 << bits],
            settled: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum()
    }

    /// The bytes the buckets hold.
    pub(super) fn bytes(&self) -> u64 {
        let size = std::mem::size_of::<W>() as u64;
        self.buckets
            .iter()
            .map(|b| b.capacity() as u64 * size)
            .sum()
    }

    /// Adds the mixes of a chunk's new positions, bucket by bucket. What a
    /// bucket holds is counted by its capacity, so it runs at most a quarter
    /// ahead of its length: a bucket grows by a quarter at a time, not twice,
    /// and takes no more room than its first keys need.
    pub(super) fn extend(&mut self, by_bucket: Vec<Vec<W>>) {
        for (bucket, mut keys) in self.buckets.iter_mut().zip(by_bucket) {
            if bucket.is_empty() {
                keys.shrink_to_fit();
                *bucket = keys;
            } else {
                let len = bucket.len() + keys.len();
                if len > bucket.capacity() {
                    bucket.reserve_exact(len + len / 4 - bucket.len());
                }
                bucket.append(&mut keys);
            }
        }
    }

    /// Sorts and deduplicates every bucket.
    pub(super) fn dedup(&mut self) {
        // A bucket is a sorted run per chunk; an unstable sort takes no scratch
        // memory beside it, which a merging sort would.
        self.buckets.par_iter_mut().for_each(|b| {
            b.sort_unstable();
            b.dedup();
            b.shrink_to_fit();
        });
        self.settled = self.len();
    }

    /// Deduplicates the buckets when `check` (that they fit) fails and
    /// they have grown by an eighth since they last were, so that the
    /// sorting does not repeat for little; the check's answer after that, or
    /// its error when they have not grown.
    pub(super) fn settle(&mut self, check: impl Fn(&Fresh<W>) -> Result<()>) -> Result<()> {
        let Err(e) = check(self) else {
            return Ok(());
        };
        if !self.tidy() {
            return Err(e);
        }
        check(self)
    }

    /// Deduplicates the buckets if they have grown by an eighth since they
    /// last were; whether they were.
    fn tidy(&mut self) -> bool {
        let grown = self.len().saturating_sub(self.settled) >= self.settled / 8;
        if grown {
            self.dedup();
        }
        grown
    }

    /// Up to `most` positions, spread evenly over the buckets.
    fn sample(&self, most: usize) -> Vec<W> {
        let len = self.len();
        let step = len.div_ceil(most.max(1)).max(1);
        self.buckets
            .iter()
            .flatten()
            .step_by(step)
            .map(|&k| unmix(k))
            .collect()
    }

    /// Empties and frees every bucket.
    fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Vec::new());
        self.settled = 0;
    }

    /// The positions, sorted by mix, each bucket emptied and freed once read.
    fn take_positions(&mut self) -> Vec<W> {
        let mut out = Vec::with_capacity(self.len());
        for bucket in &mut self.buckets {
            out.extend(bucket.iter().map(|&k| unmix(k)));
            *bucket = Vec::new();
        }
        self.settled = 0;
        out
    }
}

/// The parts of a level checked for meetings as it grew: their positions,
/// and the meeting they found with the fewest moves.
type Parts<W> = Option<(u64, Option<Meeting<W>>)>;

/// Makes what a growing level holds pass `check`: by deduplicating its new
/// positions `next` (see [`Fresh::settle`]), or else, for a level that is not
/// `kept`, by checking them for meetings, adding them to `parts`, and letting
/// them go (see [`Side::grow`]).
fn make_room<W: Word>(
    next: &mut Fresh<W>,
    kept: bool,
    parts: &mut Parts<W>,
    meets: &(dyn Fn(&[W]) -> Option<Meeting<W>> + Sync),
    max_memory: u64,
    check: impl Fn(&Fresh<W>) -> Result<()>,
) -> Result<()> {
    let Err(e) = next.settle(&check) else {
        return Ok(());
    };
    if kept || next.len() == 0 {
        return Err(e);
    }
    next.dedup();
    // Bucket by bucket, in place, so that checking takes no room.
    let met = next
        .buckets
        .par_iter_mut()
        .filter_map(|bucket| {
            bucket.iter_mut().for_each(|k| *k = unmix(*k));
            meets(bucket)
        })
        .min_by_key(super::order);
    let (checked, found) = parts.get_or_insert((0, None));
    *checked += next.len() as u64;
    *found = [*found, met].into_iter().flatten().min_by_key(super::order);
    next.clear();
    crate::memory::give_back_past(max_memory / 2);
    check(next)
}

/// Mixes split by their top `bits` bits: `keys` in bucket order, and where
/// each bucket begins (a counting sort).
struct Split<W: Word> {
    keys: Vec<W>,
    first: Vec<usize>,
}

impl<W: Word> Split<W> {
    fn new(keys: &[W], bits: u32) -> Split<W> {
        let bucket = |k: W| k.top(bits);
        let mut first = vec![0usize; (1 << bits) + 1];
        for &k in keys {
            first[bucket(k) + 1] += 1;
        }
        for b in 1..first.len() {
            first[b] += first[b - 1];
        }
        let mut at = first.clone();
        let mut out = vec![W::ZERO; keys.len()];
        for &k in keys {
            let b = bucket(k);
            out[at[b]] = k;
            at[b] += 1;
        }
        Split { keys: out, first }
    }

    fn bucket(&self, b: usize) -> &[W] {
        &self.keys[self.first[b]..self.first[b + 1]]
    }
}

/// Positions of each new level handed to the pagoda functions as witnesses.
const WITNESSES: usize = 32;

/// The fewest positions of a level that the pagoda functions learn from:
/// smaller levels cost little to keep.
const LEARNING_LEVEL: usize = 1 << 10;

/// Successors a task adds between its looks at what the chunk holds.
const ADDED: usize = 1 << 12;

/// Parents expanded by one task while a chunk grows.
pub(super) const PART: usize = 1 << 12;

/// Which positions a bounded search keeps: those whose moves so far and the
/// lower bound on the moves still needed (the regions', or the peg types'
/// where it counts more) come to at most `bound`, for each pair of regions
/// and bound given (each a valid bound on its own, so all must hold).
#[derive(Clone)]
pub(super) struct Prune<W: Word> {
    pub(super) bounds: Vec<(Arc<Regions<W>>, u32)>,
}

impl<W: Word> Prune<W> {
    /// Regions bounding within `bound`.
    pub(super) fn new(regions: Arc<Regions<W>>, bound: u32) -> Prune<W> {
        Prune {
            bounds: vec![(regions, bound)],
        }
    }

    /// Whether a position `depth` moves from the side's sources is kept:
    /// forward, the regions full in it must still be opened; backward, the
    /// regions it has opened took a move each.
    pub(super) fn keeps(&self, forward: bool, depth: u32, position: W) -> bool {
        self.bounds.iter().all(|(regions, bound)| {
            depth <= *bound && regions.within(position, forward, bound - depth)
        })
    }
}

impl<'a, W: Word> Side<'a, W> {
    pub(super) fn new(
        jumps: &Jumps<W>,
        sources: &[W],
        forward: bool,
        group: &'a Symmetries<W>,
        prune: Option<Prune<W>>,
    ) -> Side<'a, W> {
        let mut keys: Vec<W> = sources.iter().map(|&s| mix(group.least(s))).collect();
        keys.sort_unstable();
        keys.dedup();
        let sources: Vec<W> = keys.iter().map(|&k| unmix(k)).collect();
        Side {
            level_of: LevelMap::new(),
            sizes: vec![sources.len() as u64],
            last_index: SortedIndex::new(&sources),
            last: sources,
            forward,
            group,
            images: Images::new(jumps, group),
            prune,
            pagodas: None,
            learning_level: LEARNING_LEVEL,
            open: true,
            chunk: CHUNK,
            in_parts: false,
        }
    }

    /// The level of a position (any image of it), if it has one yet.
    pub(super) fn level(&self, position: W) -> Option<u32> {
        let least = self.group.least(position);
        self.level_of.get(least).or_else(|| {
            (self.open && self.last_index.holds(&self.last, least)).then(|| self.depth())
        })
    }

    /// Keeps of the last level only the positions `keeps` keeps; the others
    /// stay known at their level, in the level map, so that they are not
    /// found again.
    pub(super) fn cut_last(&mut self, keeps: impl Fn(W) -> bool + Sync) {
        debug_assert!(self.open, "only a whole level is cut");
        let level = std::mem::take(&mut self.last);
        let keep: Vec<bool> = level.par_iter().map(|&p| keeps(p)).collect();
        let (mut kept, mut cut) = (Vec::new(), Vec::new());
        for (p, keep) in level.into_iter().zip(keep) {
            if keep { kept.push(p) } else { cut.push(p) }
        }
        let depth = self.depth();
        self.level_of.insert(&cut, depth as u8);
        self.sizes[depth as usize] = kept.len() as u64;
        self.last_index = SortedIndex::new(&kept);
        self.last = kept;
    }

    /// The successors the next level's growth would generate, estimated
    /// from a sample of `most` parents spread over the last level, each
    /// parent's successors kept by the side's bounds and counted once: the
    /// work of that growth, and a bound on its size.
    pub(super) fn work_ahead(&self, jumps: &Jumps<W>, most: usize) -> f64 {
        if self.last.is_empty() {
            return 0.0;
        }
        let step = self.last.len().div_ceil(most.max(1)).max(1);
        let sample: Vec<W> = self.last.iter().step_by(step).copied().collect();
        let depth = self.depth() + 1;
        let prune = self.prune.as_ref();
        let counted: usize = sample
            .par_iter()
            .map(|&parent| {
                let mut kept = Vec::new();
                let mut keep = |t: W, canonical: W| {
                    if prune.is_none_or(|p| p.keeps(self.forward, depth, t)) {
                        kept.push(canonical);
                    }
                };
                jumps.expand(
                    &[parent],
                    self.forward,
                    self.group,
                    &self.images,
                    1 << 16,
                    &mut keep,
                );
                kept.sort_unstable();
                kept.dedup();
                kept.len()
            })
            .sum();
        counted as f64 / sample.len() as f64 * self.last.len() as f64
    }

    pub(super) fn depth(&self) -> u32 {
        self.sizes.len() as u32 - 1
    }

    /// The bytes this side holds: its level map (a key and a level a
    /// position, and the indexes) and its last level with its index.
    pub(super) fn bytes(&self) -> u64 {
        let last = (self.last.capacity() * std::mem::size_of::<W>()) as u64;
        self.level_of.bytes() + last + self.last_index.bytes()
    }

    /// Adds the next level (only the positions the side's bound keeps), on
    /// rayon's threads: parents a chunk at a time, so that their successors
    /// (most of them found many times) stay bounded before they are
    /// deduplicated against the earlier levels. The new positions of all the
    /// chunks are deduplicated among themselves at the end (or sooner, when
    /// they would not fit), and become the last level, while the parents go
    /// into the level map. Returns the meeting `meets` finds among them with
    /// the fewest moves (the least position among those).
    ///
    /// A level that is not `kept` (the side's last) is counted and checked
    /// for meetings, but not looked up: no look-up asks for it, and the
    /// rebuilt solution needs only the levels before a meeting. The side
    /// grows no further. When its new positions would not fit, those
    /// found so far are checked for meetings and let go, and the level goes on
    /// in parts: it is then `in_parts`, its count is the sum of its parts'
    /// (a position found in two parts counts in each, so the level has at
    /// most that many), and `last` holds only its last part.
    ///
    /// A chunk of parents for whose successors there is not room is expanded
    /// in halves. Refused when what is held beside `other_bytes` would pass
    /// `max_memory` even so (before a chunk of a task's parents is expanded),
    /// or when the successors of such a chunk pass the room they were
    /// allowed; a refused level leaves the side's levels as they were (and
    /// keeps the pagoda functions it learnt).
    pub(super) fn grow(
        &mut self,
        jumps: &Jumps<W>,
        other_bytes: u64,
        max_memory: u64,
        kept: bool,
        meets: &(dyn Fn(&[W]) -> Option<Meeting<W>> + Sync),
    ) -> Result<Option<Meeting<W>>> {
        if !self.open {
            return Err(Error::Internal(
                "a side of the move levels grew past its last level".into(),
            ));
        }
        let mut last = std::mem::take(&mut self.last);
        let mut pagodas = self.pagodas.take();
        let grown = self.grow_from(
            &mut last,
            &mut pagodas,
            jumps,
            other_bytes,
            max_memory,
            kept,
            meets,
        );
        if grown.is_err() {
            self.last = last;
        }
        // Proved whether or not the level was refused, the pagoda functions
        // learnt stay.
        self.pagodas = pagodas;
        grown
    }

    /// [`Side::grow`] from the parents `last` and with the pagoda functions
    /// `pagodas`, both taken out of the side: on success the parents are in
    /// the level map and `last` is empty; refused, the levels and `last` are
    /// as they were.
    #[allow(clippy::too_many_arguments)]
    fn grow_from(
        &mut self,
        last: &mut Vec<W>,
        pagodas: &mut Option<Pagodas<W>>,
        jumps: &Jumps<W>,
        other_bytes: u64,
        max_memory: u64,
        kept: bool,
        meets: &(dyn Fn(&[W]) -> Option<Meeting<W>> + Sync),
    ) -> Result<Option<Meeting<W>>> {
        let (group, images) = (self.group, &self.images);
        let depth = self.depth() + 1;
        // The buckets are the level map's partitions.
        let mut next = Fresh::new(self.level_of.bits());
        // What is held beside `extra` bytes more must fit.
        let fits = |held: u64, extra: u64| {
            if held + extra <= max_memory {
                return Ok(());
            }
            Err(crate::limits::Limits::exceeded_bound(
                "max-memory",
                "the memory of the move levels searched so far, and the next chunk \
                       (estimated)",
                u128::from(held + extra),
                u128::from(max_memory),
                "raise --max-memory if the machine has room",
            ))
        };
        let level = u8::try_from(depth)
            .map_err(|_| Error::Internal(format!("a move level past 255: {depth}")))?;
        // What is held: the level map, the parents, and the new positions so far.
        let size = std::mem::size_of::<W>() as u64;
        let mut parts_so_far: Parts<W> = None;
        // Where the process's allocator counts the heap, that count covers
        // what this one leaves out (the bounds' tables, the other engines').
        let held = |next: &Fresh<W>| {
            let counted = other_bytes + self.bytes() + last.len() as u64 * size + next.bytes();
            counted.max(crate::memory::held().unwrap_or(0))
        };
        let (forward, prune) = (self.forward, self.prune.clone());
        // Where each of the map's partitions begins among the parents.
        let parents_by_part = part_bounds(last, next.bits);
        // The parents' ranges still to expand, the next last.
        let mut pending: Vec<std::ops::Range<usize>> = (0..last.len())
            .step_by(self.chunk.max(1))
            .map(|at| at..(at + self.chunk.max(1)).min(last.len()))
            .rev()
            .collect();
        // A chunk that does not fit is expanded in halves instead.
        let halve = |pending: &mut Vec<std::ops::Range<usize>>, range: std::ops::Range<usize>| {
            let half = range.start + range.len() / 2;
            pending.push(half..range.end);
            pending.push(range.start..half);
        };
        while let Some(range) = pending.pop() {
            let chunk = &last[range.clone()];
            // The successors, and those of the tasks running, again while they are split.
            let running = (rayon::current_num_threads() * PART).min(chunk.len());
            let successors = (chunk.len() + running) as u64 * SUCCESSORS_PER_PARENT * size;
            let check = |next: &Fresh<W>| fits(held(next), successors);
            // Down to a task's parents, a smaller chunk before a level in parts.
            if chunk.len() > PART && next.settle(check).is_err() {
                halve(&mut pending, range);
                continue;
            }
            make_room(&mut next, kept, &mut parts_so_far, meets, max_memory, check)?;
            // Each task's successors, as mixes split into the level's buckets. The
            // bound holds for any image of a position: it is checked before the
            // canonical form is taken. Chains far longer than allowed for can give
            // a chunk more than fits: a successor is held in its task's vector (up
            // to twice, as it doubles) and once split, so past a quarter of the
            // room left the tasks stop adding them; and the positions a parent's
            // chains go on from (a table of each task's, three entries' room for
            // one as it grows) stop at what is left. Either way successors were
            // lost: down to a task's parents, the chunk is expanded again in
            // halves, once the new positions so far are deduplicated if that
            // frees room; past that, the level is refused.
            let left = max_memory.saturating_sub(held(&next));
            let room = left / size / 4;
            let threads = rayon::current_num_threads() as u64;
            let entry = std::mem::size_of::<(W, u32)>() as u64 * 3;
            let most = (left / threads / entry).max(1 << 12) as usize;
            let added = AtomicU64::new(0);
            let lost = AtomicBool::new(false);
            let parts: Vec<Split<W>> = chunk
                .par_chunks(PART)
                .map(|part| {
                    let mut out = Vec::with_capacity(part.len() * 16);
                    let mut full = false;
                    let mut keep = |t: W, canonical: W| {
                        if !full && prune.as_ref().is_none_or(|p| p.keeps(forward, depth, t)) {
                            out.push(mix(canonical));
                            if out.len() % ADDED == 0 {
                                full = added.fetch_add(ADDED as u64, Relaxed) >= room;
                            }
                        }
                    };
                    let whole = jumps.expand(part, forward, group, images, most, &mut keep);
                    if full || !whole {
                        lost.store(true, Relaxed);
                    }
                    Split::new(&out, next.bits)
                })
                .collect();
            if lost.into_inner() {
                if chunk.len() > PART {
                    drop(parts);
                    crate::memory::give_back_past(max_memory / 2);
                    next.tidy();
                    halve(&mut pending, range);
                    continue;
                }
                let tables = (most as u64 + 1) * entry * threads;
                let successors = added.into_inner() * size * 4;
                return Err(crate::limits::Limits::exceeded_bound(
                    "max-memory",
                    "the memory of the move levels searched so far, and the successors of the \
                     next chunk and the positions their chains of jumps go on from (estimated)",
                    // What was lost needed more still: past the limit in any case.
                    (u128::from(held(&next)) + u128::from(tables.max(successors)))
                        .max(u128::from(max_memory) + 1),
                    u128::from(max_memory),
                    "raise --max-memory if the machine has room",
                ));
            }
            // Bucket by bucket, in cache: sorted, deduplicated, and only the
            // positions no earlier level holds are kept.
            let known = &self.level_of;
            let fresh: Vec<Vec<W>> = (0..next.buckets.len())
                .into_par_iter()
                .map(|b| {
                    let mut keys: Vec<W> =
                        Vec::with_capacity(parts.iter().map(|p| p.bucket(b).len()).sum());
                    for p in &parts {
                        keys.extend_from_slice(p.bucket(b));
                    }
                    keys.sort_unstable();
                    keys.dedup();
                    known.retain_absent(&mut keys);
                    let parents = &last[parents_by_part[b]..parents_by_part[b + 1]];
                    retain_absent_in(parents.len(), |at| mix(parents[at]), &mut keys);
                    if let Some(pagodas) = pagodas.as_ref() {
                        keys.retain(|&k| pagodas.keeps(unmix(k)));
                    }
                    keys
                })
                .collect();
            drop(parts);
            // Found again by other chunks, the new positions are deduplicated at the end
            // of the level, or sooner if they would not fit.
            let extra = fresh.iter().map(|f| f.len() as u64 * size).sum();
            let check = |next: &Fresh<W>| fits(held(next), extra);
            make_room(&mut next, kept, &mut parts_so_far, meets, max_memory, check)?;
            next.extend(fresh);
            // The chunk's small buffers, freed, stay resident between the buckets
            // as they grow: given back once past half the limit.
            crate::memory::give_back_past(max_memory / 2);
        }
        next.dedup();
        if let Some(pagodas) = pagodas
            .as_mut()
            .filter(|_| next.len() >= self.learning_level)
        {
            // Positions spread over the level, as witnesses: functions that cut
            // them off are found, and cut the level and those after it.
            let witnesses = next.sample(WITNESSES);
            if pagodas.learn(&witnesses) > 0 {
                let pagodas = &*pagodas;
                next.buckets
                    .par_iter_mut()
                    .for_each(|b| b.retain(|&k| pagodas.keeps(unmix(k))));
            }
        }
        // The positions are copied out of their buckets, which are freed only
        // as they are read, and indexed if kept; the parents go into the
        // level map first, and are freed once in.
        let copy = |next: &Fresh<W>| {
            let index = if kept { next.len() as u64 / 2 } else { 0 };
            next.len() as u64 * size + index
        };
        if !kept {
            let check = |next: &Fresh<W>| fits(held(next), copy(next));
            make_room(&mut next, kept, &mut parts_so_far, meets, max_memory, check)?;
        }
        let map = LevelMap::<W>::bytes_for(last.len());
        fits(held(&next), map)?;
        fits(held(&next) - last.len() as u64 * size, map + copy(&next))?;
        self.level_of.insert(last, level - 1);
        *last = Vec::new();
        self.open = kept;
        let mut count = next.len() as u64;
        let next = next.take_positions();
        self.last_index = if kept {
            SortedIndex::new(&next)
        } else {
            SortedIndex::default()
        };
        // And so do the buckets and the store's partitions it replaced.
        crate::memory::give_back_past(max_memory / 2);
        let mut met = meets(&next);
        if let Some((checked, found)) = parts_so_far {
            count += checked;
            met = [met, found].into_iter().flatten().min_by_key(super::order);
            self.in_parts = true;
        }
        self.sizes.push(count);
        self.last = next;
        Ok(met)
    }
}
