//! Estimates the size of each layer of the positions reachable from a start on a peg board, from a uniform sample.
//!
//! Layer `d` holds the positions reached in `d` jumps, each with `d` pegs
//! fewer than the start. Of the `C(cells, pegs)` positions with that many
//! pegs, a uniform sample is drawn and each one is tested: can the start
//! reach it? Played backwards a jump puts two pegs back, so the test is a
//! depth-first search from the position back to the start, with a budget of
//! positions; the ones it cannot settle within the budget are counted apart.
//! A layer's draws stop at enough reached or enough unsettled ([`Sampling`]),
//! or at the most asked for. Most draws cost nothing: a position
//! outside the start's position class (parities no jump changes) is not
//! reached, and only the others are searched.
//! The layer's estimate is `C(cells, pegs)` times the fraction reached, and
//! its upper bound the 95% Wilson bound with the unsettled ones counted as
//! reached. Plans use the upper bound; `docs/scale.md` reports both.

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use crate::program::Program;

/// One layer's estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerEstimate {
    /// Jumps from the start.
    pub depth: u32,
    /// Positions with this layer's number of pegs: `C(cells, pegs)`.
    pub space: u128,
    /// Positions drawn.
    pub sampled: u32,
    /// Drawn positions the start reaches.
    pub hits: u32,
    /// Drawn positions the test could not settle within its budget.
    pub unsettled: u32,
    /// The jumps open in the drawn positions the start reaches, in all: a
    /// layer's successors are about `estimate() * jumps / hits`.
    pub jumps: u64,
}

impl LayerEstimate {
    /// The estimated number of positions in the layer.
    pub fn estimate(&self) -> f64 {
        if self.depth == 0 {
            return 1.0;
        }
        self.space as f64 * f64::from(self.hits) / f64::from(self.sampled.max(1))
    }

    /// An upper bound at 95% confidence, counting unsettled tests as reached.
    pub fn high(&self) -> f64 {
        if self.depth == 0 {
            return 1.0;
        }
        let n = f64::from(self.sampled.max(1));
        let p = f64::from(self.hits + self.unsettled) / n;
        let z = 1.96f64;
        let centre = p + z * z / (2.0 * n);
        let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        let bound = ((centre + spread) / (1.0 + z * z / n)).min(1.0);
        self.space as f64 * bound
    }

    /// The mean number of jumps open in a position of the layer, from the
    /// reached positions drawn (0 when none was reached).
    pub fn branching(&self) -> f64 {
        self.jumps as f64 / f64::from(self.hits.max(1))
    }
}

/// How much to sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// The most positions drawn per layer.
    pub draws: u32,
    /// The positions one reachability test may visit before it gives up.
    pub budget: usize,
    /// A layer stops drawing once this many drawn positions are reached:
    /// 50 give about 15% precision.
    pub enough_reached: u32,
    /// A layer stops drawing once this many tests are unsettled: each costs
    /// a full budget.
    pub enough_unsettled: u32,
}

impl Default for Sampling {
    /// What a dataflow run samples before it starts: about a quarter of a
    /// second on the French board, on 2 cores.
    fn default() -> Sampling {
        Sampling {
            draws: 1000,
            budget: 20_000,
            enough_reached: 50,
            enough_unsettled: 20,
        }
    }
}

/// Estimates every layer of the positions reachable from `start` (a state
/// of at most 64 cells), as `sampling` says; the draws are the same on
/// every run. `None` unless every move of `program` is a jump and the board
/// has at most 64 cells.
pub fn layers(program: &Program, start: u64, sampling: Sampling) -> Option<Vec<LayerEstimate>> {
    layers_in_batches(
        program,
        start,
        sampling,
        4 * rayon::current_num_threads().max(1),
    )
}

/// [`layers`], its draws tested `batch` at a time on rayon's threads and
/// then counted in order: a layer stops at the same draw as when they are
/// tested one by one, and the generator goes on from where that draw left
/// it, so the estimate does not depend on `batch`.
fn layers_in_batches(
    program: &Program,
    start: u64,
    sampling: Sampling,
    batch: usize,
) -> Option<Vec<LayerEstimate>> {
    let cells = program.cells();
    if cells > 64 {
        return None;
    }
    let jumps = backward_jumps(program)?;
    let classes = Classes::new(&jumps, cells);
    let search = Search::new(&jumps, cells);
    let pegs = start.count_ones();
    let mut random = SplitMix(start ^ 0x5eed_0f1a_7e75);
    // The tables of the tests, one for each test under way, kept from test to test.
    let tables: std::sync::Mutex<Vec<Seen>> = Default::default();
    let mut out = vec![LayerEstimate {
        depth: 0,
        space: 1,
        sampled: 1,
        hits: 1,
        unsettled: 0,
        jumps: open_jumps(&jumps, start),
    }];
    for depth in 1..pegs {
        let left = pegs - depth;
        let mut layer = LayerEstimate {
            depth,
            space: binomial(cells as u32, left),
            sampled: 0,
            hits: 0,
            unsettled: 0,
            jumps: 0,
        };
        let enough = |layer: &LayerEstimate| {
            layer.sampled >= sampling.draws
                || layer.hits >= sampling.enough_reached
                || layer.unsettled >= sampling.enough_unsettled
        };
        while !enough(&layer) {
            // Draws with the generator as each leaves it, up to `batch` of
            // them in the start's class (the others cost nothing to test).
            let mut next = random.clone();
            let mut drawn: Vec<(SplitMix, u64)> = Vec::new();
            let mut in_class = 0;
            while in_class < batch.max(1)
                && layer.sampled as usize + drawn.len() < sampling.draws as usize
            {
                let position = next.subset(cells, left as usize);
                in_class += usize::from(classes.of(position) == classes.of(start));
                drawn.push((next.clone(), position));
            }
            let tested: Vec<Option<Option<bool>>> = drawn
                .par_iter()
                .with_max_len(1)
                .map(|&(_, position)| {
                    (classes.of(position) == classes.of(start)).then(|| {
                        let kept = tables.lock().ok().and_then(|mut t| t.pop());
                        let mut seen = kept.unwrap_or_else(|| {
                            Seen::with_capacity_and_hasher(sampling.budget + 1, Default::default())
                        });
                        let reached = search.reaches(position, start, sampling.budget, &mut seen);
                        if let Ok(mut t) = tables.lock() {
                            t.push(seen);
                        }
                        reached
                    })
                })
                .collect();
            for ((after, position), test) in drawn.into_iter().zip(tested) {
                if enough(&layer) {
                    break;
                }
                random = after;
                layer.sampled += 1;
                match test {
                    Some(Some(true)) => {
                        layer.hits += 1;
                        layer.jumps += open_jumps(&jumps, position);
                    }
                    Some(None) => layer.unsettled += 1,
                    Some(Some(false)) | None => {}
                }
            }
        }
        out.push(layer);
    }
    Some(out)
}

/// A jump played backwards, as masks: the landing cell must hold a peg and
/// the other two be empty; then all three flip.
struct Backward {
    peg: u64,
    holes: u64,
}

/// How many jumps `position` can make forwards: both pegs there, the hole empty.
fn open_jumps(jumps: &[Backward], position: u64) -> u64 {
    jumps
        .iter()
        .filter(|j| position & j.holes == j.holes && position & j.peg == 0)
        .count() as u64
}

/// Every move as a backward jump, or `None` when a move is not a jump.
fn backward_jumps(program: &Program) -> Option<Vec<Backward>> {
    let mask = |cells: &[crate::board::CellId]| cells.iter().fold(0u64, |m, c| m | 1 << c.0);
    program
        .moves()
        .iter()
        .map(|m| {
            let jump = m.need_on.len() == 2 && m.need_off.len() == 1 && m.flip.len() == 3;
            jump.then(|| Backward {
                peg: mask(&m.need_off),
                holes: mask(&m.need_on),
            })
        })
        .collect()
}

/// The position classes of the board: parities that no jump changes. A
/// jump flips its three cells, so every mask meeting each jump's three
/// cells an even number of times is one (`u · flip = 0` over GF(2)); these
/// masks form the null space of the jumps, kept here as a basis.
struct Classes(Vec<u64>);

impl Classes {
    fn new(jumps: &[Backward], cells: usize) -> Classes {
        // Reduce the flips to echelon form, then solve for the null space.
        let mut rows: Vec<u64> = Vec::new();
        for j in jumps {
            let mut r = j.peg | j.holes;
            for &b in &rows {
                r = r.min(r ^ b);
            }
            if r != 0 {
                // Keep rows reduced against one another, by leading bit.
                rows.iter_mut().for_each(|b| *b = (*b).min(*b ^ r));
                rows.push(r);
            }
        }
        let lead = |r: u64| 63 - r.leading_zeros();
        let pivots: u64 = rows.iter().fold(0, |m, &r| m | 1 << lead(r));
        // Each cell that is not a pivot gives one null vector.
        let basis = (0..cells)
            .filter(|&c| pivots >> c & 1 == 0)
            .map(|free| {
                let mut v = 1u64 << free;
                for &r in &rows {
                    if r >> free & 1 == 1 {
                        v |= 1 << lead(r);
                    }
                }
                v
            })
            .collect();
        Classes(basis)
    }

    /// The class of a position: one parity per basis mask.
    fn of(&self, position: u64) -> u64 {
        self.0.iter().enumerate().fold(0, |c, (i, &v)| {
            c | u64::from((v & position).count_ones() & 1) << i
        })
    }
}

/// The positions a reachability test has seen.
type Seen = FxHashSet<u64>;

/// The backward jumps of a board, with what closes them by the cells they
/// need: on a board of at most 128 jumps, a position's open jumps are then
/// found a byte of the position at a time.
struct Search<'j> {
    jumps: &'j [Backward],
    /// For each byte of a position, for each value of that byte, the jumps
    /// it closes: those whose peg is a hole there, or whose holes meet a peg
    /// there. Empty past 128 jumps.
    closed: Vec<[u128; 256]>,
    /// Every jump, as a set.
    all: u128,
}

impl<'j> Search<'j> {
    fn new(jumps: &'j [Backward], cells: usize) -> Search<'j> {
        let mut closed = Vec::new();
        let mut all = 0u128;
        if jumps.len() <= 128 {
            closed = vec![[0u128; 256]; cells.div_ceil(8)];
            for (k, j) in jumps.iter().enumerate() {
                all |= 1 << k;
                for (byte, table) in closed.iter_mut().enumerate() {
                    let (peg, holes) = (j.peg >> (8 * byte) & 0xff, j.holes >> (8 * byte) & 0xff);
                    for (value, closes) in table.iter_mut().enumerate() {
                        let value = value as u64;
                        if (peg != 0 && value & peg == 0) || value & holes != 0 {
                            *closes |= 1 << k;
                        }
                    }
                }
            }
        }
        Search { jumps, closed, all }
    }

    /// Whether `start` reaches `position`: a search backwards from
    /// `position`; `None` past `budget` positions. `seen` is emptied first
    /// and kept for the next test. The jumps are tried in the board's
    /// order, so the search is the same whichever way they are found.
    fn reaches(&self, position: u64, start: u64, budget: usize, seen: &mut Seen) -> Option<bool> {
        let goal = start.count_ones();
        seen.clear();
        let mut stack = vec![position];
        while let Some(p) = stack.pop() {
            if p.count_ones() == goal {
                if p == start {
                    return Some(true);
                }
                continue;
            }
            let mut visit = |j: &Backward| {
                if p & j.peg != 0 && p & j.holes == 0 {
                    let q = p ^ j.peg ^ j.holes;
                    if seen.insert(q) {
                        if seen.len() > budget {
                            return false;
                        }
                        stack.push(q);
                    }
                }
                true
            };
            if self.closed.is_empty() {
                // Past 128 jumps: every one is tried.
                if !self.jumps.iter().all(&mut visit) {
                    return None;
                }
                continue;
            }
            // A jump is open where its peg is a peg of `p` and both its
            // other cells are holes: where no byte of `p` closes it.
            let mut open = self.all;
            for (byte, table) in self.closed.iter().enumerate() {
                open &= !table[(p >> (8 * byte) & 0xff) as usize];
            }
            while open != 0 {
                let k = open.trailing_zeros() as usize;
                open &= open - 1;
                if !visit(&self.jumps[k]) {
                    return None;
                }
            }
        }
        Some(false)
    }
}

/// Whether `start` reaches `position`, trying every jump in turn: the plain
/// search [`Search::reaches`] is checked against.
#[cfg(test)]
fn reaches(jumps: &[Backward], position: u64, start: u64, budget: usize) -> Option<bool> {
    let goal = start.count_ones();
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    let mut stack = vec![position];
    while let Some(p) = stack.pop() {
        if p.count_ones() == goal {
            if p == start {
                return Some(true);
            }
            continue;
        }
        for j in jumps {
            if p & j.peg != 0 && p & j.holes == 0 {
                let q = p ^ j.peg ^ j.holes;
                if seen.insert(q) {
                    if seen.len() > budget {
                        return None;
                    }
                    stack.push(q);
                }
            }
        }
    }
    Some(false)
}

/// `C(n, k)`, exactly.
pub(crate) fn binomial(n: u32, k: u32) -> u128 {
    let k = k.min(n - k.min(n));
    (0..k).fold(1u128, |c, i| c * u128::from(n - i) / u128::from(i + 1))
}

/// SplitMix64: a small generator, written out so that an estimate (and so a
/// plan) is the same on every process and every build.
#[derive(Clone)]
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Below `n`, uniformly (for `n` far below 2^64 the bias is negligible).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// A uniform `k`-subset of `0..n`, as a mask (Floyd's algorithm).
    fn subset(&mut self, n: usize, k: usize) -> u64 {
        let mut mask = 0u64;
        for j in n - k..n {
            let t = self.below(j + 1);
            mask |= if mask & (1 << t) == 0 { 1 << t } else { 1 << j };
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(37, 17), 15_905_368_710);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(5, 5), 1);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
    }

    #[test]
    fn classes_are_kept_by_every_jump() {
        // A row of 5 cells, every jump of three in a line both ways.
        let jumps: Vec<Backward> = (0..3)
            .flat_map(|a| {
                [
                    Backward {
                        peg: 1 << (a + 2),
                        holes: 0b11 << a,
                    },
                    Backward {
                        peg: 1 << a,
                        holes: 0b110 << a,
                    },
                ]
            })
            .collect();
        let classes = Classes::new(&jumps, 5);
        // Three flips of rank 3 leave a null space of dimension 2.
        assert_eq!(classes.0.len(), 2);
        for j in &jumps {
            for v in &classes.0 {
                assert_eq!((v & (j.peg | j.holes)).count_ones() % 2, 0);
            }
        }
    }

    #[test]
    fn subsets_have_k_members() {
        let mut r = SplitMix(7);
        for k in 0..=37 {
            assert_eq!(r.subset(37, k).count_ones() as usize, k);
        }
        assert_eq!(r.subset(64, 64), u64::MAX);
    }

    /// The test by the byte tables of closed jumps answers as the plain one,
    /// budget and all, on every board that has positions of each kind.
    #[test]
    fn the_indexed_search_answers_as_the_plain_one() {
        for name in ["english33", "french37", "triangle15", "pebble12"] {
            let entry = crate::catalogue::find(name).unwrap();
            let program = crate::Puzzle::parse(entry.text, name)
                .unwrap()
                .compile()
                .unwrap();
            let cells = program.cells();
            let jumps = backward_jumps(&program).unwrap();
            let search = Search::new(&jumps, cells);
            // The path for boards past 128 jumps, which tries every jump.
            let every = Search {
                jumps: &jumps,
                closed: Vec::new(),
                all: 0,
            };
            let full = if cells == 64 { !0 } else { (1u64 << cells) - 1 };
            let mut random = SplitMix(11);
            let mut seen = Seen::default();
            let mut answers = [0; 3];
            for _ in 0..400 {
                let start = full ^ 1 << random.below(cells);
                // A random position, or one played from the start at random.
                let left = 1 + random.below(cells - 2);
                let mut position = random.subset(cells, left);
                if random.below(2) == 0 {
                    position = start;
                    for _ in 0..random.below(cells) {
                        let open: Vec<&Backward> = jumps
                            .iter()
                            .filter(|j| position & j.holes == j.holes && position & j.peg == 0)
                            .collect();
                        if open.is_empty() {
                            break;
                        }
                        let j = open[random.below(open.len())];
                        position ^= j.peg ^ j.holes;
                    }
                }
                for budget in [50, 2_000] {
                    let plain = reaches(&jumps, position, start, budget);
                    for s in [&search, &every] {
                        assert_eq!(
                            s.reaches(position, start, budget, &mut seen),
                            plain,
                            "{name} {position:#x} from {start:#x}"
                        );
                    }
                    answers[match plain {
                        Some(true) => 0,
                        Some(false) => 1,
                        None => 2,
                    }] += 1;
                }
            }
            assert!(answers.iter().all(|&n| n > 0), "{name}: {answers:?}");
        }
    }

    #[test]
    fn an_estimate_does_not_depend_on_how_many_draws_are_tested_at_once() {
        let entry = crate::catalogue::find("english33").unwrap();
        let program = crate::Puzzle::parse(entry.text, "english33")
            .unwrap()
            .compile()
            .unwrap();
        // Every hole full but the centre.
        let start = ((1u64 << 33) - 1) ^ 1 << 16;
        let sampling = Sampling {
            draws: 300,
            budget: 2_000,
            enough_reached: 20,
            enough_unsettled: 5,
        };
        let one = layers_in_batches(&program, start, sampling, 1).unwrap();
        assert_eq!(one.len(), 32);
        assert!(one.iter().any(|l| l.unsettled > 0) && one.iter().any(|l| l.hits > 1));
        for batch in [3, 16, 1000] {
            assert_eq!(
                layers_in_batches(&program, start, sampling, batch).unwrap(),
                one
            );
        }
    }
}
