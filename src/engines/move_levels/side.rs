//! One side of the search: its levels, grown one at a time and deduplicated against the store, pruned by the regions' bound.

use rayon::prelude::*;

use super::Meeting;
use super::jumps::Jumps;
use super::store::{LevelMap, mix, unmix};
use super::{CHUNK, SUCCESSORS_PER_PARENT};
use crate::engines::merson::Regions;
use crate::error::{Error, Result};
use crate::symmetry::{Canon, Symmetries};

/// One direction's levels (forward from the start, or backward from one
/// target): each position's level, and the last level, up to the side's
/// own symmetries.
pub(super) struct Side<'a> {
    pub(super) level_of: LevelMap,
    pub(super) last: Vec<u64>,
    pub(super) sizes: Vec<u64>,
    pub(super) forward: bool,
    pub(super) group: &'a Symmetries,
    pub(super) prune: Option<Prune<'a>>,
    /// Whether the last level is in the level map, so that the side can grow.
    pub(super) open: bool,
}

/// Deduplicates `next`, the new positions of a growing level, when `check`
/// (that they fit) fails and they have grown by an eighth since they last
/// were (`settled` of them), so that the sorting does not repeat for little;
/// the check's answer after that, or its error when they have not grown.
pub(super) fn settle(
    next: &mut Vec<u64>,
    settled: &mut usize,
    check: impl Fn(&Vec<u64>) -> Result<()>,
) -> Result<()> {
    let Err(e) = check(next) else {
        return Ok(());
    };
    if next.len() - *settled < *settled / 8 {
        return Err(e);
    }
    next.par_sort_unstable_by_key(|&t| mix(t));
    next.dedup();
    next.shrink_to_fit();
    *settled = next.len();
    check(next)
}

/// Which positions a bounded search keeps: those whose moves so far and the
/// regions' lower bound on the moves still needed come to at most `bound`.
#[derive(Clone, Copy)]
pub(super) struct Prune<'a> {
    pub(super) regions: &'a Regions,
    pub(super) bound: u32,
}

impl Prune<'_> {
    /// Whether a position `depth` moves from the side's sources is kept:
    /// forward, the regions full in it must still be opened; backward, the
    /// regions it has opened took a move each.
    pub(super) fn keeps(&self, forward: bool, depth: u32, position: u64) -> bool {
        let still = if forward {
            self.regions.ahead(position)
        } else {
            self.regions.behind(position)
        };
        depth + still <= self.bound
    }
}

impl<'a> Side<'a> {
    pub(super) fn new(
        sources: &[u64],
        forward: bool,
        group: &'a Symmetries,
        prune: Option<Prune<'a>>,
    ) -> Side<'a> {
        let mut sources: Vec<u64> = sources.iter().map(|&s| group.canon(s)).collect();
        sources.sort_unstable_by_key(|&s| mix(s));
        sources.dedup();
        let mut level_of = LevelMap::new();
        level_of.insert_sorted(&sources, 0);
        Side {
            level_of,
            sizes: vec![sources.len() as u64],
            last: sources,
            forward,
            group,
            prune,
            open: true,
        }
    }

    /// The level of a position (any image of it), if it has one yet.
    pub(super) fn level(&self, position: u64) -> Option<u32> {
        self.level_of.get(self.group.canon(position))
    }

    pub(super) fn depth(&self) -> u32 {
        self.sizes.len() as u32 - 1
    }

    /// The bytes this side holds: its level map (slots of a key and a
    /// level, with the table's control bytes) and its last level.
    pub(super) fn bytes(&self) -> u64 {
        self.level_of.bytes() + self.last.capacity() as u64 * 8
    }

    /// Adds the next level (only the positions the side's bound keeps), on
    /// rayon's threads: parents a chunk at a time, so that their successors
    /// (most of them found many times) stay bounded before they are
    /// deduplicated against the earlier levels. The new positions of all the
    /// chunks are deduplicated among themselves at the end (or sooner, when
    /// they would not fit), and go into the level map at once. Returns the
    /// meeting `meets` finds among them with the fewest moves (the least
    /// position among those).
    ///
    /// A level that is not `kept` (the side's last) is counted and checked
    /// for meetings, but not entered in the level map: no look-up asks for
    /// it, and the rebuilt solution needs only the levels before a meeting.
    /// The side grows no further.
    ///
    /// Refused when what is held beside `other_bytes` would pass
    /// `max_memory`, before a chunk is expanded.
    pub(super) fn grow(
        &mut self,
        jumps: &Jumps,
        other_bytes: u64,
        max_memory: u64,
        kept: bool,
        meets: &(dyn Fn(&[u64]) -> Option<Meeting> + Sync),
    ) -> Result<Option<Meeting>> {
        if !self.open {
            return Err(Error::Internal(
                "a side of the move levels grew past its last level".into(),
            ));
        }
        let canon: &dyn Canon = self.group;
        let depth = self.depth() + 1;
        let mut next: Vec<u64> = Vec::new();
        // How many positions of `next` were deduplicated when it last was.
        let mut settled = 0;
        let last = std::mem::take(&mut self.last);
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
        let held = |next: &Vec<u64>| {
            other_bytes + self.bytes() + last.len() as u64 * 8 + next.capacity() as u64 * 8
        };
        for chunk in last.chunks(CHUNK) {
            let successors = chunk.len() as u64 * SUCCESSORS_PER_PARENT * 8;
            settle(&mut next, &mut settled, |next| fits(held(next), successors))?;
            let mut found: Vec<u64> = chunk
                .par_chunks(256)
                .flat_map_iter(|part| {
                    let mut out = Vec::new();
                    for &s in part {
                        // The bound holds for any image of a position: it is checked before
                        // the canonical form is taken.
                        let mut push = |t: u64, _: &[usize]| {
                            if self.prune.is_none_or(|p| p.keeps(self.forward, depth, t)) {
                                out.push(mix(canon.canon(t)));
                            }
                            true
                        };
                        if self.forward {
                            jumps.forward(s, &mut push);
                        } else {
                            jumps.backward(s, &mut push);
                        }
                    }
                    out
                })
                .collect();
            // Held as their mixes (a bijection, so equal positions still
            // meet) and sorted, the successors are looked up in the level
            // map's order.
            found.par_sort_unstable();
            found.dedup();
            // Most successors were found at an earlier level: only the new ones are kept.
            let known = &self.level_of;
            let fresh: Vec<u64> = found
                .into_par_iter()
                .filter(|&key| known.get_mixed(key).is_none())
                .map(unmix)
                .collect();
            // Found again by other chunks, the new positions are deduplicated at the end
            // of the level, or sooner if they would not fit.
            let extra = fresh.len() as u64 * 8;
            settle(&mut next, &mut settled, |next| fits(held(next), extra))?;
            next.extend(fresh);
        }
        next.par_sort_unstable_by_key(|&t| mix(t));
        next.dedup();
        if kept {
            fits(held(&next), LevelMap::bytes_for(next.len()))?;
            self.level_of.insert_sorted(&next, level);
        } else {
            self.open = false;
        }
        next.shrink_to_fit();
        let met = meets(&next);
        self.sizes.push(next.len() as u64);
        self.last = next;
        Ok(met)
    }
}
