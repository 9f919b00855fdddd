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
//!
//! The ends may also be a whole level of a search, every image of its
//! positions ([`Regions::toward`]): the regions' bound by the board's packing
//! is then looked up in a table over the sets of its regions.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::engines::peg_types::{MOST_TYPES, PegTypes, demands};
use crate::symmetry::Symmetries;
use crate::word::Word;

/// The largest region looked for, in holes: a hexagon of the triangular
/// lattice (a hole and its six neighbours) is a region, and the interiors of
/// the triangular boards pack them.
const MOST_HOLES: usize = 7;

/// The largest region that is always a candidate. A larger one is opened
/// sooner, so it weakens the bound where it stands in a packing for smaller
/// ones: the larger regions are candidates only on a board where they
/// enlarge the packing.
const SMALL_HOLES: usize = 4;

/// The most connected sets of one size that [`Regions::candidates`] grows
/// into the next size (on a board of many neighbours a hole, past it, no
/// larger regions are looked for).
const LAYER_BUDGET: usize = 1 << 20;

/// Branches tried while packing regions; past it the best packing found so far
/// is used (it is still a valid bound, only maybe a weaker one).
const PACKING_BUDGET: u64 = 1 << 20;

/// The most regions a packing, or the pool of regions that bound, keeps: a
/// position's full ones are a set of their indices in one `u64`.
const MOST_REGIONS: usize = 64;

/// The regions that bound (the board's packing of disjoint ones, and those
/// a position may pack of its own), and the ends that bound with them: the
/// targets ahead of a position, or the starts behind it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Regions<W: Word = u64> {
    /// The regions that bound, smallest first: sets of regions are sets of
    /// their indices here.
    pool: Pool,
    /// The board's packing.
    packing: u64,
    /// Per end (deduplicated), the regions of the packing it fills.
    ends: Vec<u64>,
    /// The candidates no end fills (for the bound ahead).
    open_at_ends: u64,
    /// The candidates every end fills (for the bound behind).
    full_at_ends: u64,
    /// The peg types and what the ends hold of each, when they bound too.
    types: Option<Typed<W>>,
    /// With the ends of a whole level ([`Regions::toward`]), the regions'
    /// bound by the board's packing, as a table (`ends` is then empty).
    nearest: Option<Nearest>,
}

/// The regions' bound against many ends at once, as a table over the sets
/// of the board's packing's regions (each region by its rank in the packing).
#[derive(Clone, Debug)]
struct Nearest {
    rank: [u8; 64],
    packing: u64,
    least: Vec<u8>,
}

/// The most regions in a packing for which [`Nearest`] is built: a byte for
/// each set of them, 4 MiB at most.
const MOST_NEAREST: u32 = 22;

impl Nearest {
    /// No ends marked yet, for a packing of the regions `packing` (a `u64`
    /// over the pool).
    fn marks(packing: u64) -> Nearest {
        let mut rank = [0u8; 64];
        let mut bits = packing;
        let mut r = 0u8;
        while bits != 0 {
            rank[bits.trailing_zeros() as usize] = r;
            bits &= bits - 1;
            r += 1;
        }
        Nearest {
            rank,
            packing,
            least: vec![u8::MAX; 1 << r],
        }
    }

    /// The index in the table of the packing regions of `set` (a `u64` over
    /// the pool).
    #[inline]
    fn index(&self, set: u64) -> usize {
        let mut index = 0usize;
        let mut bits = set & self.packing;
        while bits != 0 {
            index |= 1 << self.rank[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        index
    }

    /// The table, from the sets the ends fill (`ends[i]`: some end fills
    /// exactly the set of index `i`): ahead, per set, the fewest of its
    /// regions an end does not fill; behind, the fewest regions an end fills
    /// that the set does not.
    fn fill(mut self, ends: &[u64], ahead: bool) -> Nearest {
        let size = self.least.len();
        for (i, slot) in self.least.iter_mut().enumerate() {
            if ends[i / 64] >> (i % 64) & 1 == 1 {
                *slot = 0;
            }
        }
        // Ahead, every subset of an end is within it; behind, every superset
        // of an end holds it.
        let mut b = 1;
        while b < size {
            for set in 0..size {
                if self.least[set] == 0 && (set & b != 0) == ahead {
                    self.least[set ^ b] = 0;
                }
            }
            b <<= 1;
        }
        // Else one more than the nearest set that differs in one region:
        // ahead, a subset (a lesser index); behind, a superset (a greater one).
        let order: Box<dyn Iterator<Item = usize>> = if ahead {
            Box::new(0..size)
        } else {
            Box::new((0..size).rev())
        };
        for set in order {
            if self.least[set] == 0 {
                continue;
            }
            let mut near = if ahead { set } else { !set & (size - 1) };
            let mut best = u8::MAX;
            while near != 0 {
                let b = near & near.wrapping_neg();
                best = best.min(self.least[set ^ b]);
                near ^= b;
            }
            self.least[set] = best.saturating_add(1);
        }
        self
    }

    /// The bound for the regions `full` (a `u64` over the pool).
    #[inline]
    fn get(&self, full: u64) -> u32 {
        u32::from(self.least[self.index(full)])
    }
}

/// Demands with disjoint remover types: how many, and the regions that
/// hold none of their remover types, of the regions no end fills and of
/// those every end fills.
#[derive(Clone, Debug)]
struct Demanded {
    count: u32,
    open: u64,
    full: u64,
}

/// Up to 64 regions, as a set of their indices: per byte of a position,
/// the regions whose holes in that byte it fills, so that the regions a
/// position fills are a few look-ups ANDed; and per region, the regions it
/// overlaps, so that a greedy packing is one step per region taken.
#[derive(Clone, Debug, Default)]
struct Pool {
    /// Per byte holding holes of some region: its index, and per value of
    /// it, the regions with no hole of that byte empty.
    tables: Vec<(usize, Box<[u64; 256]>)>,
    /// Per region, the regions it overlaps, itself included.
    overlaps: Vec<u64>,
}

impl Pool {
    fn new<W: Word>(regions: &[W]) -> Pool {
        let union = regions.iter().fold(W::ZERO, |u, &r| u | r);
        let bytes = (W::BITS as usize).div_ceil(8);
        let tables = (0..bytes)
            .filter(|&k| union.byte(k) != 0)
            .map(|k| {
                let mut table = Box::new([0u64; 256]);
                for (value, set) in table.iter_mut().enumerate() {
                    for (i, &r) in regions.iter().enumerate() {
                        if r.byte(k) & !value == 0 {
                            *set |= 1 << i;
                        }
                    }
                }
                (k, table)
            })
            .collect();
        let overlaps = regions
            .iter()
            .map(|&r| {
                let others = regions.iter().enumerate();
                others
                    .filter(|&(_, &o)| o & r != W::ZERO)
                    .fold(0, |set, (i, _)| set | 1u64 << i)
            })
            .collect();
        Pool { tables, overlaps }
    }

    /// The regions `position` fills, as a set of their indices.
    #[inline]
    fn full<W: Word>(&self, position: W) -> u64 {
        let mut set = u64::MAX;
        for (k, table) in &self.tables {
            set &= table[position.byte(*k)];
        }
        set
    }

    /// How many disjoint regions of `set` are taken greedily, lowest index
    /// first, counted up to `cap`.
    #[inline]
    fn greedy(&self, mut set: u64, cap: u32) -> u32 {
        let mut n = 0;
        while set != 0 && n < cap {
            set &= !self.overlaps[set.trailing_zeros() as usize];
            n += 1;
        }
        n
    }
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
    by_losing: Vec<Vec<Demanded>>,
    /// The most demands that share no remover type: what the types can add
    /// to the regions' bound at most.
    most_demands: u32,
}

impl<W: Word> Regions<W> {
    /// Every minimal connected region of at most [`SMALL_HOLES`] holes on a
    /// board of `cells` holes with these jumps (from, over, to), and those of
    /// up to [`MOST_HOLES`] when they pack more disjoint regions than the
    /// small ones alone (the hexagons inside a triangle).
    pub fn candidates(cells: usize, jumps: &[[usize; 3]]) -> Vec<W> {
        let all: Vec<W> = Self::regions(cells, jumps);
        let small: Vec<W> = all
            .iter()
            .copied()
            .filter(|r| r.count_ones() as usize <= SMALL_HOLES)
            .collect();
        if small.len() < all.len() && Self::disjoint(&all).len() > Self::disjoint(&small).len() {
            all
        } else {
            small
        }
    }

    /// Every minimal connected region of at most [`MOST_HOLES`] holes, smallest first.
    fn regions(cells: usize, jumps: &[[usize; 3]]) -> Vec<W> {
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
        for size in 1..=MOST_HOLES {
            let mut sorted: Vec<W> = layer.iter().copied().collect();
            sorted.sort_unstable();
            for &r in &sorted {
                // Minimal: no smaller region found inside it.
                if is_region(r) && !found.iter().any(|&f| f & !r == W::ZERO) {
                    found.push(r);
                }
            }
            if size == MOST_HOLES {
                break;
            }
            let mut next = FxHashSet::default();
            for r in sorted {
                // Past the budget, no larger regions are looked for: fewer
                // candidates still bound.
                if next.len() > LAYER_BUDGET {
                    return found;
                }
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
        let open = |r: W| ends.iter().all(|&e| e & r != r);
        let full = |r: W| ends.iter().all(|&e| e & r == r);
        let counted = types.filter(|_| !ends.is_empty()).map(|types| {
            let (mut most, mut least) = ([0u8; MOST_TYPES], [u8::MAX; MOST_TYPES]);
            for &e in ends {
                for (t, n) in types.counts(e).into_iter().enumerate() {
                    most[t] = most[t].max(n);
                    least[t] = least[t].min(n);
                }
            }
            (types, most, least)
        });
        let mut regions = Regions::assemble(best, candidates, &open, &full, counted);
        let mut packed: Vec<u64> = ends
            .iter()
            .map(|&e| regions.pool.full(e) & regions.packing)
            .collect();
        packed.sort_unstable();
        packed.dedup();
        regions.ends = packed;
        regions
    }

    /// As [`Regions::pack_with`], with every image under `group` of the
    /// positions of `frontier` (one level of a search) as the ends, the
    /// bound looked up in a table: `ahead`, the bound on the moves from a
    /// position to the nearest of them; else from the nearest of them to a
    /// position. `None` when the packing has too many regions for a table.
    pub fn toward(
        best: &[W],
        candidates: &[W],
        frontier: &[W],
        group: &Symmetries<W>,
        types: Option<&PegTypes<W>>,
        ahead: bool,
    ) -> Option<Regions<W>> {
        if best.len() > MOST_NEAREST as usize || frontier.is_empty() {
            return None;
        }
        let images = |q: W| (0..group.len()).map(move |k| group.apply(k, q));
        // Per candidate: whether some end fills it, and whether every end does.
        let pools: Vec<(Pool, u64)> = candidates
            .chunks(64)
            .map(|c| (Pool::new(c), u64::MAX >> (64 - c.len())))
            .collect();
        let n = pools.len();
        type Seen = (Vec<u64>, Vec<u64>, [u8; MOST_TYPES], [u8; MOST_TYPES]);
        let none = || -> Seen {
            (
                vec![0; n],
                vec![u64::MAX; n],
                [0; MOST_TYPES],
                [u8::MAX; MOST_TYPES],
            )
        };
        // A few parts per thread, each with its own counts.
        let part = frontier
            .len()
            .div_ceil(rayon::current_num_threads() * 4)
            .max(1 << 10);
        let (any, all, most, least) = frontier
            .par_chunks(part)
            .map(|qs| {
                let mut seen = none();
                for e in qs.iter().flat_map(|&q| images(q)) {
                    for (i, (pool, mask)) in pools.iter().enumerate() {
                        let f = pool.full(e) & mask;
                        seen.0[i] |= f;
                        seen.1[i] &= f;
                    }
                    if let Some(types) = types {
                        for (t, c) in types.counts(e).into_iter().enumerate() {
                            seen.2[t] = seen.2[t].max(c);
                            seen.3[t] = seen.3[t].min(c);
                        }
                    }
                }
                seen
            })
            .reduce(none, |mut a, b| {
                for i in 0..n {
                    a.0[i] |= b.0[i];
                    a.1[i] &= b.1[i];
                }
                for t in 0..MOST_TYPES {
                    a.2[t] = a.2[t].max(b.2[t]);
                    a.3[t] = a.3[t].min(b.3[t]);
                }
                a
            });
        let index: FxHashMap<W, usize> = candidates
            .iter()
            .enumerate()
            .map(|(i, &r)| (r, i))
            .collect();
        let bit = |set: &[u64], r: W| {
            index
                .get(&r)
                .is_some_and(|&i| set[i / 64] >> (i % 64) & 1 == 1)
        };
        let open = |r: W| index.contains_key(&r) && !bit(&any, r);
        let full = |r: W| bit(&all, r);
        let counted = types.map(|types| (types, most, least));
        let mut regions = Regions::assemble(best, candidates, &open, &full, counted);
        // The sets of the packing's regions the ends fill, marked in a table.
        let nearest = Nearest::marks(regions.packing);
        let size = nearest.least.len();
        let words = size.div_ceil(64);
        let marked = frontier
            .par_chunks(part)
            .map(|qs| {
                let mut marks = vec![0u64; words];
                for e in qs.iter().flat_map(|&q| images(q)) {
                    let i = nearest.index(regions.pool.full(e));
                    marks[i / 64] |= 1 << (i % 64);
                }
                marks
            })
            .reduce(
                || vec![0u64; words],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x |= y);
                    a
                },
            );
        regions.ends = Vec::new();
        regions.nearest = Some(nearest.fill(&marked, ahead));
        Some(regions)
    }

    /// The regions that count among `candidates` (the packing `best`, and
    /// those that no end fills, `open`, or every end fills, `full`), and the
    /// peg types' demands with what the ends hold of each type (most,
    /// least); the ends' own sets are the caller's to fill in.
    fn assemble(
        best: &[W],
        candidates: &[W],
        open: &dyn Fn(W) -> bool,
        full: &dyn Fn(W) -> bool,
        counted: Option<(&PegTypes<W>, [u8; MOST_TYPES], [u8; MOST_TYPES])>,
    ) -> Regions<W> {
        // The regions that count: the packing's and those no end fills or every
        // end fills, smallest first, up to MOST_REGIONS (the packing's first).
        let mut pool: Vec<W> = candidates
            .iter()
            .copied()
            .filter(|&r| best.contains(&r) || open(r) || full(r))
            .collect();
        pool.sort_unstable_by_key(|&r| (!best.contains(&r), r.count_ones(), r));
        pool.truncate(MOST_REGIONS);
        pool.sort_unstable_by_key(|&r| (r.count_ones(), r));
        let set_of = |keep: &dyn Fn(W) -> bool| -> u64 {
            let kept = pool.iter().enumerate().filter(|&(_, &r)| keep(r));
            kept.fold(0, |set, (i, _)| set | 1u64 << i)
        };
        let open_at_ends = set_of(open);
        let full_at_ends = set_of(full);
        let typed = counted.map(|(types, most, least)| {
            let without = |movers: u8| set_of(&|r| types.of(r) & movers == 0);
            let by_losing: Vec<Vec<Demanded>> = (0..1u32 << types.masks.len())
                .map(|losing| {
                    let (sets, n) = demands(types, losing as u8);
                    disjoint_unions(&sets[..n])
                        .into_iter()
                        .map(|(movers, count)| Demanded {
                            count,
                            open: without(movers) & open_at_ends,
                            full: without(movers) & full_at_ends,
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
        let packing = set_of(&|r| best.contains(&r));
        Regions {
            pool: Pool::new(&pool),
            packing,
            nearest: None,
            ends: Vec::new(),
            open_at_ends,
            full_at_ends,
            types: typed,
        }
    }

    /// The number of regions in the board's packing.
    pub fn len(&self) -> usize {
        self.packing.count_ones() as usize
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
        self.parts(position, true).0
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
        self.parts(position, true).1
    }

    /// A lower bound on the moves to `position` from the nearest start, by
    /// regions alone: the regions the start fills that `position` does not,
    /// packed once for the board or greedily for this position (among those
    /// every start fills), whichever counts more.
    #[cfg(test)]
    pub fn behind_by_regions(&self, position: W) -> u32 {
        self.parts(position, false).0
    }

    /// A lower bound on the moves to `position` from the nearest start: the
    /// regions' bound, or the peg types', whichever counts more.
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
    #[cfg(test)]
    pub fn behind_by_types(&self, position: W) -> u32 {
        self.parts(position, false).1
    }

    /// Whether the bound ahead of `position` (or behind it), the regions'
    /// or the peg types', is at most `slack`. The search's test: each part
    /// is counted only as far as it needs, and the types only when they
    /// could count more than the regions past the slack.
    #[inline]
    pub fn within(&self, position: W, ahead: bool, slack: u32) -> bool {
        let full = self.pool.full(position);
        let by_regions = self.by_regions(full, ahead, slack + 1);
        if by_regions > slack {
            return false;
        }
        if by_regions + self.most_from_types() <= slack {
            return true;
        }
        // A demand counts past the slack only if its regions could: it is
        // packed only then.
        let Some((typed, losing)) = self.losing(position, ahead) else {
            return true;
        };
        let counting = if ahead { full } else { !full };
        typed.by_losing[losing as usize].iter().all(|d| {
            let of = counting & if ahead { d.open } else { d.full };
            d.count + of.count_ones() <= slack
                || d.count + self.pool.greedy(of, slack + 1 - d.count.min(slack + 1)) <= slack
        })
    }

    /// The peg types and the set of types `position` must lose pegs of
    /// (ahead: more than any end holds; behind: it holds fewer than any
    /// end), when the types bound.
    #[inline]
    fn losing(&self, position: W, ahead: bool) -> Option<(&Typed<W>, u8)> {
        let typed = self.types.as_ref()?;
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
        Some((typed, losing))
    }

    /// The bound ahead or behind by regions, or by peg types, on their own.
    #[inline]
    fn parts(&self, position: W, ahead: bool) -> (u32, u32) {
        let full = self.pool.full(position);
        let by_types = self.by_types(position, full, ahead);
        (self.by_regions(full, ahead, u32::MAX), by_types)
    }

    /// The regions' bound ahead (the regions a position fills, `full`, that
    /// the nearest end does not) or behind (those the nearest end fills that
    /// it does not), or `cap` if it is at least that.
    #[inline]
    fn by_regions(&self, full: u64, ahead: bool, cap: u32) -> u32 {
        let packed = full & self.packing;
        let least = if let Some(nearest) = &self.nearest {
            Some(nearest.get(packed))
        } else if ahead {
            self.ends.iter().map(|&t| (packed & !t).count_ones()).min()
        } else {
            self.ends.iter().map(|&s| (s & !packed).count_ones()).min()
        };
        let least = least.unwrap_or(0);
        if least >= cap {
            return cap;
        }
        let own = if ahead {
            self.pool.greedy(full & self.open_at_ends, cap)
        } else {
            self.pool.greedy(self.full_at_ends & !full, cap)
        };
        least.max(own)
    }

    /// The peg types' bound ahead (the types `position` has more pegs of
    /// than any end, and the regions it fills) or behind (fewer than any
    /// end, and the regions it has opened); `full` are the regions it fills.
    fn by_types(&self, position: W, full: u64, ahead: bool) -> u32 {
        let Some((typed, losing)) = self.losing(position, ahead) else {
            return 0;
        };
        let counting = if ahead { full } else { !full };
        let demands = typed.by_losing[losing as usize].iter();
        demands
            .map(|d| {
                let of = if ahead { d.open } else { d.full };
                d.count + self.pool.greedy(counting & of, u32::MAX)
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

    /// The jumps of the triangle of side `n`, hole `(r, c)` (`c <= r`) numbered row by row.
    fn triangle(n: usize) -> (usize, Vec<[usize; 3]>) {
        let at = |r: usize, c: usize| r * (r + 1) / 2 + c;
        let on = |r: isize, c: isize| r >= 0 && c >= 0 && c <= r && r < n as isize;
        let mut jumps = Vec::new();
        for r in 0..n as isize {
            for c in 0..=r {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1)] {
                    let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                    if on(r2, c2) {
                        let cell = |r: isize, c: isize| at(r as usize, c as usize);
                        jumps.push([cell(r, c), cell(r + dr, c + dc), cell(r2, c2)]);
                    }
                }
            }
        }
        (n * (n + 1) / 2, jumps)
    }

    #[test]
    fn the_triangles_pack_hexagons_inside_as_bells_bound_counts() {
        // Bell's lower bound on the moves of a triangle of side n counts
        // T((n - 4) / 3) regions inside it: hexagons, a hole and its six
        // neighbours, which no jump from outside touches while they are full.
        for n in 4..=11 {
            let (cells, jumps) = triangle(n);
            let all = Regions::<u128>::candidates(cells, &jumps);
            let small: Vec<u128> = all
                .iter()
                .copied()
                .filter(|r| r.count_ones() <= 4)
                .collect();
            let k = (n - 4) / 3;
            let inside = Regions::disjoint(&all).len() - Regions::disjoint(&small).len();
            assert_eq!(inside, k * (k + 1) / 2, "side {n}");
            for r in &all {
                for &[from, over, to] in &jumps {
                    if r >> over & 1 == 1 {
                        assert!(r >> from & 1 == 1 || r >> to & 1 == 1, "{r:b}");
                    }
                }
            }
        }
        // The hexagon around hole (4, 2) of the triangle of side 10.
        let (cells, jumps) = triangle(10);
        let hexagon = [(4, 2), (4, 1), (4, 3), (3, 1), (3, 2), (5, 2), (5, 3)]
            .iter()
            .fold(0u64, |h, &(r, c)| h | 1 << (r * (r + 1) / 2 + c));
        assert!(Regions::<u64>::candidates(cells, &jumps).contains(&hexagon));
    }

    #[test]
    fn boards_whose_small_regions_pack_as_well_keep_only_those() {
        // The English board: its corners and 2x2 blocks pack as many as any
        // larger minimal region would.
        let on =
            |r: usize, c: usize| r < 7 && c < 7 && ((2..5).contains(&r) || (2..5).contains(&c));
        let holes: Vec<(usize, usize)> = (0..7)
            .flat_map(|r| (0..7).map(move |c| (r, c)))
            .filter(|&(r, c)| on(r, c))
            .collect();
        let at = |r: usize, c: usize| holes.iter().position(|&h| h == (r, c)).unwrap();
        let mut jumps = Vec::new();
        for &(r, c) in &holes {
            for (dr, dc) in [(0, 1), (1, 0)] {
                let (r1, c1, r2, c2) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
                if on(r1, c1) && on(r2, c2) {
                    jumps.push([at(r, c), at(r1, c1), at(r2, c2)]);
                    jumps.push([at(r2, c2), at(r1, c1), at(r, c)]);
                }
            }
        }
        let candidates = Regions::<u64>::candidates(33, &jumps);
        assert!(candidates.iter().all(|r| r.count_ones() <= 4));
        let larger = Regions::<u64>::regions(33, &jumps);
        assert!(larger.iter().any(|r| r.count_ones() > 4));
        assert_eq!(
            Regions::disjoint(&larger).len(),
            Regions::disjoint(&candidates).len()
        );
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
