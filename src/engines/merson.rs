//! Merson regions: sets of holes that only a jump from inside can touch while they are full, and the lower bounds on moves they give.
//!
//! A region is a set of holes such that every jump over one of its holes
//! leaves from it or lands in it. While a region is full, no peg can land in
//! it and no peg from outside can jump over one of its pegs, so the first
//! jump that changes it is by a peg that stands in it; and since nothing has
//! landed there, that jump begins a new move. Disjoint regions so need
//! distinct moves: from a position, the moves to a target are at least the
//! regions full in the position but not in the target; to a position from a
//! start, at least the regions full in the start but not in the position.
//! The corners of a board, holes no jump passes over, are regions of one
//! hole. Barker and Korf (AAAI 2012) strengthen this bound with peg types
//! (`peg_types.rs`), and so does [`Regions::ahead`] here: a type that must
//! lose pegs demands a move by a type that can jump it, distinct from the
//! opening moves of the regions holding none of those types.
//!
//! Any family of disjoint regions gives a bound, so each position gets the
//! better of two: the most disjoint regions packed once for the board, and a
//! packing of its own, taken greedily (smallest regions first) among the
//! regions that count for it. The first is the stronger near the ends, where
//! most regions are full; the second in mid-game, where the regions the
//! board's packing holds have been opened but others overlapping them are
//! still full.

use rustc_hash::FxHashSet;

use crate::engines::peg_types::{MOST_TYPES, PegTypes, demands};
use crate::word::Word;

/// The largest region looked for, in holes.
const MOST_HOLES: usize = 4;

/// Branches tried while packing regions; past it the best packing found so far
/// is used (it is still a valid bound, only maybe a weaker one).
const PACKING_BUDGET: u64 = 1 << 20;

/// The most regions a packing keeps: a position's full ones are a set of
/// their indices in one `u64`.
const MOST_REGIONS: usize = 64;

/// A family of disjoint regions, as masks of holes, and the ends that bound
/// with them: the targets ahead of a position, or the starts behind it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Regions<W: Word = u64> {
    masks: Vec<W>,
    /// Per end (deduplicated), the regions it fills, as a set of region
    /// indices.
    ends: Vec<u64>,
    /// The candidates no end fills (for the bound ahead), smallest first.
    open_at_ends: Vec<W>,
    /// The candidates every end fills (for the bound behind), smallest first.
    full_at_ends: Vec<W>,
    /// The peg types and what the ends hold of each, when they bound too.
    types: Option<Typed<W>>,
}

/// Demands with disjoint remover types: how many, and the regions that
/// hold none of their remover types, of each pool.
#[derive(Clone, Debug)]
struct Demanded<W: Word> {
    count: u32,
    open: Vec<W>,
    full: Vec<W>,
}

/// The peg types as a bound beside the regions.
#[derive(Clone, Debug)]
struct Typed<W: Word> {
    types: PegTypes<W>,
    /// Per type, the most pegs of it an end holds (ahead: a position with
    /// more must lose some) and the fewest (behind: a position with fewer
    /// lost some).
    most_at_ends: [u8; MOST_TYPES],
    least_at_ends: [u8; MOST_TYPES],
    /// Per set of types losing pegs: for each set of its demands whose
    /// remover types are disjoint, their number and the regions of
    /// `open_at_ends` and of `full_at_ends` holding none of those types.
    by_losing: Vec<Vec<Demanded<W>>>,
    /// The most demands that share no remover type: what the types can add
    /// to the regions' bound at most.
    most_demands: u32,
}

impl<W: Word> Regions<W> {
    /// Every minimal connected region of at most [`MOST_HOLES`] holes on a
    /// board of `cells` holes with these jumps (from, over, to).
    pub fn candidates(cells: usize, jumps: &[[usize; 3]]) -> Vec<W> {
        let mut near = vec![W::ZERO; cells];
        for &[from, over, to] in jumps {
            near[from] |= W::bit(over);
            near[over] |= W::bit(from) | W::bit(to);
            near[to] |= W::bit(over);
        }
        let is_region = |r: W| {
            jumps
                .iter()
                .all(|&[from, over, to]| !r.has(over) || r.has(from) || r.has(to))
        };
        let mut found: Vec<W> = Vec::new();
        let mut layer: FxHashSet<W> = (0..cells).map(W::bit).collect();
        for _ in 0..MOST_HOLES {
            let mut sorted: Vec<W> = layer.iter().copied().collect();
            sorted.sort_unstable();
            for &r in &sorted {
                // Minimal: no smaller region found inside it.
                if is_region(r) && !found.iter().any(|&f| f & !r == W::ZERO) {
                    found.push(r);
                }
            }
            let mut next = FxHashSet::default();
            for r in sorted {
                let mut border = (0..cells)
                    .filter(|&c| r.has(c))
                    .fold(W::ZERO, |b, c| b | near[c])
                    & !r;
                while border != W::ZERO {
                    let c = border.trailing_zeros() as usize;
                    border = border.without_lowest();
                    next.insert(r | W::bit(c));
                }
            }
            layer = next;
        }
        found
    }

    /// As [`Regions::pack_with`], packing the regions first.
    #[cfg(test)]
    pub fn pack(candidates: &[W], ends: &[W], types: Option<&PegTypes<W>>) -> Regions<W> {
        Regions::pack_with(&Regions::disjoint(candidates), candidates, ends, types)
    }

    /// The most disjoint regions among `candidates`, searched exhaustively
    /// within [`PACKING_BUDGET`] branches: what [`Regions::pack_with`] takes,
    /// found once for every end of a search.
    pub fn disjoint(candidates: &[W]) -> Vec<W> {
        let mut best = Vec::new();
        let mut chosen = Vec::new();
        let mut budget = PACKING_BUDGET;
        pack_from(candidates, W::ZERO, &mut chosen, &mut best, &mut budget);
        // Fewer disjoint regions are still a bound.
        best.truncate(MOST_REGIONS);
        best.sort_unstable();
        best
    }

    /// The board's packing `best` (disjoint regions among `candidates`, from
    /// [`Regions::disjoint`]), with the boards at the far end of the bound:
    /// the targets for [`Regions::ahead`], the starts for the bound behind.
    ///
    /// With `types`, the bounds count their demands too (see [`Regions::ahead`]).
    pub fn pack_with(
        best: &[W],
        candidates: &[W],
        ends: &[W],
        types: Option<&PegTypes<W>>,
    ) -> Regions<W> {
        let best = best.to_vec();
        let mut by_size = candidates.to_vec();
        by_size.sort_unstable_by_key(|&r| (r.count_ones(), r));
        let open_at_ends: Vec<W> = by_size
            .iter()
            .copied()
            .filter(|&r| ends.iter().all(|&e| e & r != r))
            .collect();
        let full_at_ends: Vec<W> = by_size
            .iter()
            .copied()
            .filter(|&r| ends.iter().all(|&e| e & r == r))
            .collect();
        let typed = types.filter(|_| !ends.is_empty()).map(|types| {
            let (mut most, mut least) = ([0u8; MOST_TYPES], [u8::MAX; MOST_TYPES]);
            for &e in ends {
                for (t, n) in types.counts(e).into_iter().enumerate() {
                    most[t] = most[t].max(n);
                    least[t] = least[t].min(n);
                }
            }
            let without = |pool: &[W], movers: u8| -> Vec<W> {
                let kept = pool.iter().copied().filter(|&r| types.of(r) & movers == 0);
                kept.collect()
            };
            let by_losing: Vec<Vec<Demanded<W>>> = (0..1u32 << types.masks.len())
                .map(|losing| {
                    let (sets, n) = demands(types, losing as u8);
                    disjoint_unions(&sets[..n])
                        .into_iter()
                        .map(|(movers, count)| Demanded {
                            count,
                            open: without(&open_at_ends, movers),
                            full: without(&full_at_ends, movers),
                        })
                        .collect()
                })
                .collect();
            let most_demands = by_losing
                .iter()
                .flatten()
                .map(|d| d.count)
                .max()
                .unwrap_or(0);
            Typed {
                most_at_ends: most,
                least_at_ends: least,
                by_losing,
                most_demands,
                types: types.clone(),
            }
        });
        let mut regions = Regions {
            masks: best,
            ends: Vec::new(),
            open_at_ends,
            full_at_ends,
            types: typed,
        };
        let mut ends: Vec<u64> = ends.iter().map(|&e| regions.filled(e)).collect();
        ends.sort_unstable();
        ends.dedup();
        regions.ends = ends;
        regions
    }

    /// The number of regions.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// The regions `position` fills, as a set of region indices.
    #[inline]
    fn filled(&self, position: W) -> u64 {
        self.masks
            .iter()
            .enumerate()
            .filter(|&(_, &r)| position & r == r)
            .fold(0, |set, (i, _)| set | 1u64 << i)
    }

    /// What the peg types can add to the regions' bound at most.
    pub fn most_from_types(&self) -> u32 {
        self.types.as_ref().map_or(0, |t| t.most_demands)
    }

    /// A lower bound on the moves from `position` to the nearest target, by
    /// regions alone: the regions it fills that the target does not, packed
    /// once for the board or greedily for this position (among those no
    /// target fills), whichever counts more.
    #[inline]
    pub fn ahead_by_regions(&self, position: W) -> u32 {
        let full = self.filled(position);
        let least = self.ends.iter().map(|&t| (full & !t).count_ones()).min();
        let packed = greedy(&self.open_at_ends, |_, r| position & r == r);
        least.unwrap_or(0).max(packed)
    }

    /// A lower bound on the moves from `position` to the nearest target:
    /// the regions' bound, or the peg types', whichever counts more.
    #[inline]
    pub fn ahead(&self, position: W) -> u32 {
        self.ahead_by_regions(position)
            .max(self.ahead_by_types(position))
    }

    /// A lower bound on the moves from `position` to the nearest target, by
    /// the peg types: the demands of the types of which `position` has more
    /// pegs than any target, with the regions (packed greedily) whose holes
    /// are of none of their remover types. Zero without types.
    #[inline]
    pub fn ahead_by_types(&self, position: W) -> u32 {
        self.by_types(position, true)
    }

    /// A lower bound on the moves to `position` from the nearest start, by
    /// regions alone: the regions the start fills that `position` does not,
    /// packed once for the board or greedily for this position (among those
    /// every start fills), whichever counts more.
    #[inline]
    pub fn behind_by_regions(&self, position: W) -> u32 {
        let full = self.filled(position);
        let least = self.ends.iter().map(|&s| (s & !full).count_ones()).min();
        let packed = greedy(&self.full_at_ends, |_, r| position & r != r);
        least.unwrap_or(0).max(packed)
    }

    /// A lower bound on the moves to `position` from the nearest start: the
    /// regions' bound, or the peg types', whichever counts more. (The search
    /// asks for the two parts on their own, the types only near its bound.)
    #[cfg(test)]
    pub fn behind(&self, position: W) -> u32 {
        self.behind_by_regions(position)
            .max(self.behind_by_types(position))
    }

    /// A lower bound on the moves to `position` from the nearest start, by
    /// the peg types: the demands of the types of which `position` has
    /// fewer pegs than any start, with the regions opened since (packed
    /// greedily) whose holes are of none of their remover types. Zero
    /// without types.
    #[inline]
    pub fn behind_by_types(&self, position: W) -> u32 {
        self.by_types(position, false)
    }

    /// The peg types' bound ahead (the types `position` has more pegs of
    /// than any end, and the regions it fills) or behind (fewer than any
    /// end, and the regions it has opened).
    #[inline]
    fn by_types(&self, position: W, ahead: bool) -> u32 {
        let Some(typed) = &self.types else {
            return 0;
        };
        let n = typed.types.counts(position);
        let losing = (0..typed.types.masks.len())
            .filter(|&t| {
                if ahead {
                    n[t] > typed.most_at_ends[t]
                } else {
                    n[t] < typed.least_at_ends[t]
                }
            })
            .fold(0u8, |set, t| set | 1 << t);
        typed.with_demands(losing, ahead, |r| (position & r == r) == ahead)
    }
}

impl<W: Word> Typed<W> {
    /// The most, over sets of demands of the `losing` types whose remover
    /// types are disjoint, of their number and the regions that count among
    /// those holding none of the remover types (of the regions no end fills
    /// when `open`, else of those every end fills).
    #[inline]
    fn with_demands(&self, losing: u8, open: bool, counts: impl Fn(W) -> bool) -> u32 {
        self.by_losing[losing as usize]
            .iter()
            .map(|d| {
                let pool = if open { &d.open } else { &d.full };
                d.count + greedy(pool, |_, r| counts(r))
            })
            .max()
            .unwrap_or(0)
    }
}

/// The unions of the subsets of `sets` (the first four) whose members share
/// no element, each with the subset's size (the empty one excluded).
fn disjoint_unions(sets: &[u8]) -> Vec<(u8, u32)> {
    let n = sets.len().min(4);
    (1u32..1 << n)
        .filter_map(|subset| {
            let mut union = 0u8;
            for (i, &s) in sets[..n].iter().enumerate() {
                if subset >> i & 1 == 1 {
                    if union & s != 0 {
                        return None;
                    }
                    union |= s;
                }
            }
            Some((union, subset.count_ones()))
        })
        .collect()
}

/// Disjoint regions among `pool` that `counts` (by index and mask), taken
/// greedily in order.
#[inline]
fn greedy<W: Word>(pool: &[W], counts: impl Fn(usize, W) -> bool) -> u32 {
    let mut used = W::ZERO;
    let mut n = 0;
    for (i, &r) in pool.iter().enumerate() {
        if r & used == W::ZERO && counts(i, r) {
            used |= r;
            n += 1;
        }
    }
    n
}

/// Packs the candidates not yet used: the lowest hole any remaining
/// candidate covers is either in one of them or in none.
fn pack_from<W: Word>(
    candidates: &[W],
    used: W,
    chosen: &mut Vec<W>,
    best: &mut Vec<W>,
    budget: &mut u64,
) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let open: Vec<W> = candidates
        .iter()
        .copied()
        .filter(|&r| r & used == W::ZERO)
        .collect();
    if chosen.len() > best.len() {
        *best = chosen.clone();
    }
    let Some(cell) = open.iter().map(|r| r.trailing_zeros()).min() else {
        return;
    };
    // At most one more region per hole still open.
    let holes = open.iter().fold(W::ZERO, |a, &r| a | r).count_ones() as usize;
    if chosen.len() + holes <= best.len() {
        return;
    }
    let cell = cell as usize;
    for &r in open.iter().filter(|&&r| r.has(cell)) {
        chosen.push(r);
        pack_from(&open, used | r, chosen, best, budget);
        chosen.pop();
    }
    pack_from(&open, used | W::bit(cell), chosen, best, budget);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The jumps of a row of `n` holes.
    fn row(n: usize) -> Vec<[usize; 3]> {
        (0..n.saturating_sub(2))
            .flat_map(|i| [[i, i + 1, i + 2], [i + 2, i + 1, i]])
            .collect()
    }

    #[test]
    fn a_row_has_its_ends_and_pairs_as_regions() {
        let candidates = Regions::<u64>::candidates(5, &row(5));
        // The ends, and any two neighbours (a jump over one of them comes from or lands on the other).
        assert!(candidates.contains(&0b00001));
        assert!(candidates.contains(&0b10000));
        assert!(candidates.contains(&0b00110));
        assert!(!candidates.contains(&0b00100));
        // Ahead of the full row, to one peg on hole 4: the regions the row fills and the target does not.
        let packed = Regions::pack(&candidates, &[0b10000], None);
        // 0, 1-2 (or 2-3), 4: three disjoint regions.
        assert_eq!(packed.len(), 3);
        assert_eq!(packed.ahead(0b11111), 2);
        assert_eq!(packed.ahead(0b10000), 0);
        // Behind one peg on hole 2, from the row full but hole 0.
        let packed = Regions::pack(&candidates, &[0b11110], None);
        assert_eq!(packed.behind(0b00100), 2);
        assert_eq!(packed.behind(0b11110), 0);
    }

    #[test]
    fn a_position_packs_regions_of_its_own() {
        let candidates = Regions::<u64>::candidates(5, &row(5));
        let packed = Regions::pack(&candidates, &[0b10000], None);
        // The board's packing holds one of the pairs 1-2 and 2-3; a position that
        // fills only the other still counts it.
        assert_eq!(packed.ahead(0b00110), 1);
        assert_eq!(packed.ahead(0b01100), 1);
        // Behind, from the full row: a position that has opened only one of
        // the pairs took a move to open it, whichever the board's packing holds.
        let packed = Regions::pack(&candidates, &[0b11111], None);
        assert_eq!(packed.behind(0b10111), 1);
        assert_eq!(packed.behind(0b11101), 1);
    }

    #[test]
    fn every_region_is_closed_to_jumps_from_outside() {
        let jumps = row(7);
        for r in Regions::<u64>::candidates(7, &jumps) {
            for &[from, over, to] in &jumps {
                if r >> over & 1 == 1 {
                    assert!(r >> from & 1 == 1 || r >> to & 1 == 1, "{r:b}");
                }
            }
        }
    }
}
