//! Layered enumeration of boards up to symmetry at memory speed: moves generated bit-parallel on a grid word, layers deduplicated in cache-sized hash partitions.
//!
//! Three ideas make a layer of the English board cost a few nanoseconds per
//! successor:
//! - **A grid word.** Each cell gets the bit `row * cols + col` of its
//!   bounding grid, so that a move and the same move one cell over differ by
//!   a shift. Moves are grouped by that pattern; a group's legal moves in a
//!   state are one AND of shifted copies of the state (two pegs and a hole),
//!   masked by the anchors where the group has a move. Where the processor
//!   has BMI2 and AVX-512, the groups' legal moves are gathered into one
//!   word of 128 bits by `pext`, so that a state's moves are one loop.
//! - **Images by XOR.** A successor is its parent XOR the move's cells, and a
//!   symmetry maps XOR to XOR. So the images of a successor under every
//!   symmetry are the parent's images (computed once per parent) XOR the
//!   move's images (tabled once): its canonical form, the least image, is
//!   one XOR and one minimum per symmetry. With eight symmetries and compact
//!   keys, eight successors' images are eight vectors, reduced to their
//!   eight least images together ([`GridJumps::expand_eights`]).
//! - **Hash partitions.** Successors are scattered by a hash of their
//!   canonical form into [`PARTS`] partitions, each deduplicated in a hash
//!   set small enough for the cache, on rayon's threads. Parents are taken in
//!   rounds so that the scattered successors stay bounded and their buffers
//!   are reused; each thread files into buffers of its own, taking a
//!   round's pieces as it is free. Before a round's successors go in, each set's table is read
//!   through in order, so that its lines stream into the cache instead of
//!   each lookup waiting on memory. A layer is then its partitions, copied
//!   out of the sets (and sorted, when the layers are kept to be matched);
//!   the sets keep their tables for the next layer.
//! - **Compact keys.** Where the successors are gathered and the board has
//!   8 to 39 cells, a canonical form's cells (gathered by `pext`) are
//!   mixed by an odd multiplier: the mix's top bits choose the partition
//!   and the rest, 32 bits, is all the buffers and the sets hold
//!   ([`Filing`]). Half the bytes written and read per successor make the
//!   English board's enumeration about a tenth faster.
//!
//! Every phase runs on all of rayon's threads. The engine serves moves that
//! remove one piece each (so no state appears in two layers) on boards whose
//! grid word, or failing that whose cells in order, fit in 63 bits;
//! [`GridJumps::new`] says when it applies.

use std::sync::Mutex;

use rayon::prelude::*;

pub(crate) use crate::engines::parts::Layer;
use crate::engines::parts::{Filing, PARTS, Set, Slot, mix, part_of};
use crate::error::Result;
use crate::program::Program;
use crate::program::masks::Masks;

/// Parents expanded per round: their successors are buffered before they are
/// deduplicated.
const ROUND: usize = 1 << 21;

/// The bytes the successors of one round of parents take, estimated for a
/// board of `moves` jumps: eight on average per parent, at most `moves`, of
/// eight bytes each (compact keys take four: the estimate is the larger).
pub fn round_bytes(moves: u128) -> u128 {
    ROUND as u128 * moves.min(8) * 8
}

/// The most jumps a board may have for its successors to be gathered
/// ([`GridJumps::expand_gathered`]): one bit each in a word of 128 bits.
const MOST_GATHERED: usize = 128;

/// Pieces a thread takes per round, on average ([`GridJumps::run`]).
const PIECES_PER_THREAD: usize = 32;

/// Parents whose successors are computed before any is filed
/// ([`GridJumps::expand_staged`]).
const STAGED_PARENTS: usize = 8;

/// The most jump patterns worth grouping: past it the per-state cost of one
/// AND chain per pattern outweighs trying moves one by one.
const MAX_PATTERNS: usize = 64;

/// The most symmetries the engine takes: images are kept on the stack.
const MAX_ORDER: usize = 48;

/// The cells a piece of [`GridJumps`]' cell tables covers.
const CELL_BITS: usize = 4;

/// The image widths the engine is compiled for: a group of `order`
/// symmetries uses the least width at or above it, padded with the identity
/// (which leaves every least image as it is).
const WIDTHS: [usize; 6] = [1, 2, 4, 8, 16, MAX_ORDER];

/// Calls `engine.method::<N>(args)` with `N` the engine's width.
macro_rules! by_width {
    ($engine:ident, $method:ident($($arg:expr),*)) => {
        match $engine.width {
            1 => $engine.$method::<1>($($arg),*),
            2 => $engine.$method::<2>($($arg),*),
            4 => $engine.$method::<4>($($arg),*),
            8 => $engine.$method::<8>($($arg),*),
            16 => $engine.$method::<16>($($arg),*),
            _ => $engine.$method::<MAX_ORDER>($($arg),*),
        }
    };
}

/// Jumps that share a pattern up to a shift of the grid word.
#[cfg_attr(test, derive(Clone))]
struct Pattern {
    /// The anchors (lowest cell of the three) where the pattern has a jump.
    anchors: u64,
    /// Where the two pegs are, above the anchor.
    pegs: [u32; 2],
    /// Where the hole is, above the anchor.
    hole: u32,
    /// The number of the pattern's first jump: a pattern's jumps are
    /// numbered in the order of their anchors, pattern after pattern.
    first: usize,
    /// Per anchor, the number of its jump after `first`.
    rank: [u8; 64],
}

/// A board's jumps and symmetries on its grid word.
#[cfg_attr(test, derive(Clone))]
pub struct GridJumps {
    /// The grid-word bit of each cell.
    place: Vec<u32>,
    /// The cells, as grid-word bits.
    board: u64,
    patterns: Vec<Pattern>,
    /// Symmetries (the identity first).
    order: usize,
    /// `orbit[f]` is the size of the orbit of a word that `f` of the
    /// symmetries fix, `order / f` (0 for `f = 0`, which no word has):
    /// a table, so that weighing a parent by its orbit takes no division.
    orbit: [u64; MAX_ORDER + 1],
    /// Images per word, `order` padded with the identity: one of [`WIDTHS`].
    width: usize,
    /// Per grid-word byte, per byte value, its `width` images.
    tables: Vec<Vec<u64>>,
    /// Per jump, by number, the `width` images of its three cells.
    move_images: Vec<u64>,
    /// Per piece of [`CELL_BITS`] of the board's cells in order (a state's
    /// cells gathered by `pext`), per value, its `width` images: with
    /// eight images, a table of 9 KB for 33 cells, which stays in the
    /// first-level cache where the tables by grid-word byte (112 KB) do not.
    cell_tables: Vec<u64>,
    /// [`GridJumps::cell_tables`] with each image's cells gathered too:
    /// images in the board's cell order, which keeps the order of grid
    /// words (so the least image is the same), for [`GridJumps::expand_eights`].
    cell_images: Vec<u64>,
    /// [`GridJumps::move_images`] in the board's cell order.
    move_cells: Vec<u64>,
    /// Whether the successors are gathered a state at a time, by code
    /// compiled for AVX-512 and BMI2 ([`GridJumps::gathers`]).
    gathered: bool,
    /// How the layers file their positions: compact keys of 32 bits where
    /// the successors are gathered (AVX-512 and BMI2) and the board has at
    /// most 39 cells, else whole words.
    filing: Filing,
}

impl GridJumps {
    /// The engine for `program` with the symmetry group `perms` (cell
    /// permutations, the identity included), or `None` when it does not
    /// apply: a move that is not a jump (two pegs and a hole, all three
    /// flipped), more than 63 cells, more than
    /// 64 jump patterns, or more than 48 symmetries (`MAX_PATTERNS`, `MAX_ORDER`).
    pub fn new(program: &Program, perms: &[Vec<usize>]) -> Option<GridJumps> {
        let masks = Masks::new(program).ok()?;
        let board = &program.puzzle().board;
        let cols = board.cols().max(1);
        let grid: Vec<u32> = (0..program.cells())
            .map(|c| {
                let [r, col] = board.coord(crate::board::CellId(c));
                u32::try_from(r * cols + col).unwrap_or(u32::MAX)
            })
            .collect();
        // A board whose grid is too wide for the word (a 9x9 cross) takes
        // its cells in order: a jump is then a shift by the lengths of the
        // rows between its cells, the same for every jump between the same rows.
        let place: Vec<u32> = if board.is_graph() || grid.iter().any(|&p| p >= 63) {
            (0..program.cells() as u32).collect()
        } else {
            grid
        };
        if place.iter().any(|&p| p >= 63) {
            return None;
        }
        let to_grid = |word: u64| -> u64 {
            let mut out = 0;
            let mut rest = word;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out |= 1 << place[c];
            }
            out
        };
        let board_word = to_grid(if program.cells() == 64 {
            !0
        } else {
            (1u64 << program.cells()) - 1
        });
        let mut patterns: Vec<Pattern> = Vec::new();
        let mut flips: Vec<Vec<(u32, u64)>> = Vec::new();
        for m in 0..masks.len() {
            let (on, off, flip) = (
                to_grid(masks.need_on[m]),
                to_grid(masks.need_off[m]),
                to_grid(masks.flip[m]),
            );
            if on.count_ones() != 2 || off.count_ones() != 1 || flip != on | off {
                return None;
            }
            let anchor = flip.trailing_zeros();
            let (on, hole) = (on >> anchor, (off >> anchor).trailing_zeros());
            let pegs = [on.trailing_zeros(), 63 - on.leading_zeros()];
            let p = match patterns
                .iter()
                .position(|p| p.pegs == pegs && p.hole == hole)
            {
                Some(p) => p,
                None if patterns.len() == MAX_PATTERNS => return None,
                None => {
                    patterns.push(Pattern {
                        anchors: 0,
                        pegs,
                        hole,
                        first: 0,
                        rank: [0; 64],
                    });
                    flips.push(Vec::new());
                    patterns.len() - 1
                }
            };
            patterns[p].anchors |= 1 << anchor;
            flips[p].push((anchor, flip));
        }
        let order = perms.len();
        let width = *WIDTHS.iter().find(|&&w| w >= order)?;
        // Grid-word permutations, padded with the identity up to `width`.
        let identity: Vec<usize> = (0..program.cells()).collect();
        let grid_perms: Vec<Vec<u32>> = (0..width)
            .map(|k| {
                let p = perms.get(k).unwrap_or(&identity);
                let mut g: Vec<u32> = (0..64).collect();
                for (c, &to) in p.iter().enumerate() {
                    g[place[c] as usize] = place[to];
                }
                g
            })
            .collect();
        let image = |k: usize, word: u64| -> u64 {
            let mut out = 0;
            let mut rest = word;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out |= 1 << grid_perms[k][b];
            }
            out
        };
        let bytes = (64 - board_word.leading_zeros() as usize).div_ceil(8);
        let tables = (0..bytes)
            .map(|byte| {
                let mut table = vec![0u64; 256 * width];
                for v in 0..256u64 {
                    for k in 0..width {
                        table[v as usize * width + k] = image(k, (v << (8 * byte)) & board_word);
                    }
                }
                table
            })
            .collect();
        let cells: Vec<u32> = (0..64).filter(|&b| board_word >> b & 1 == 1).collect();
        let mut cell_tables = Vec::new();
        for piece in cells.chunks(CELL_BITS) {
            for v in 0..1u64 << CELL_BITS {
                let word = piece
                    .iter()
                    .enumerate()
                    .fold(0, |w, (i, &b)| w | (v >> i & 1) << b);
                cell_tables.extend((0..width).map(|k| image(k, word)));
            }
        }
        let gathered = |word: u64| {
            cells
                .iter()
                .enumerate()
                .fold(0, |out, (i, &b)| out | (word >> b & 1) << i)
        };
        let cell_images = cell_tables.iter().map(|&w| gathered(w)).collect();
        let mut move_images = Vec::new();
        for (p, list) in patterns.iter_mut().zip(&mut flips) {
            p.first = move_images.len() / width;
            // The same jump given twice is one jump.
            list.sort_unstable();
            list.dedup();
            for (rank, &(anchor, flip)) in list.iter().enumerate() {
                p.rank[anchor as usize] = rank as u8;
                move_images.extend((0..width).map(|k| image(k, flip)));
            }
        }
        let mut engine = GridJumps {
            place,
            board: board_word,
            patterns,
            order,
            orbit: std::array::from_fn(|f| order.checked_div(f).unwrap_or(0) as u64),
            width,
            tables,
            move_cells: move_images.iter().map(|&w| gathered(w)).collect(),
            move_images,
            cell_tables,
            cell_images,
            gathered: false,
            filing: Filing::Words,
        };
        engine.gathered = engine.can_gather();
        if engine.gathers() {
            engine.filing = Filing::compact(board_word).unwrap_or_default();
        }
        Some(engine)
    }

    /// A program state (bit `c` for cell `c`) as a grid word.
    pub fn to_grid(&self, state: u64) -> u64 {
        let mut out = 0;
        let mut rest = state;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= 1 << self.place[c];
        }
        out
    }

    /// A grid word as a program state: the inverse of [`GridJumps::to_grid`].
    #[cfg(feature = "dataflow")]
    pub fn to_state(&self, word: u64) -> u64 {
        self.place
            .iter()
            .enumerate()
            .fold(0, |state, (c, &at)| state | (word >> at & 1) << c)
    }

    /// The complement of a grid word within the board.
    pub fn complement(&self, word: u64) -> u64 {
        !word & self.board
    }

    /// The `N` images of `word` (`N` is the engine's width).
    #[inline]
    fn images<const N: usize>(&self, word: u64) -> [u64; N] {
        let mut out = [0; N];
        for (byte, table) in self.tables.iter().enumerate() {
            let v = (word >> (8 * byte) & 0xff) as usize;
            let row: &[u64; N] = table[v * N..(v + 1) * N]
                .try_into()
                .expect("a table row holds the engine's width");
            for k in 0..N {
                out[k] |= row[k];
            }
        }
        out
    }

    /// The `N` images of `word`, from its cells gathered by `pext` and
    /// looked up [`CELL_BITS`] at a time: inlined only into functions
    /// compiled for BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn images_gathered<const N: usize>(&self, word: u64) -> [u64; N] {
        // SAFETY: inlined only into functions compiled for BMI2.
        let mut cells = unsafe { std::arch::x86_64::_pext_u64(word, self.board) };
        let mut out = [0; N];
        for rows in self.cell_tables.chunks_exact(N << CELL_BITS) {
            let v = (cells & ((1 << CELL_BITS) - 1)) as usize;
            cells >>= CELL_BITS;
            let row: &[u64; N] = rows[v * N..(v + 1) * N]
                .try_into()
                .expect("a table row holds the engine's width");
            for k in 0..N {
                out[k] |= row[k];
            }
        }
        out
    }

    /// Folds `f` over the images of `word` under the `order` symmetries.
    fn fold_images<T>(&self, word: u64, init: T, f: impl Fn(T, u64) -> T) -> T {
        fn fold<const N: usize, T>(
            engine: &GridJumps,
            word: u64,
            init: T,
            f: impl Fn(T, u64) -> T,
        ) -> T {
            engine.images::<N>(word)[..engine.order]
                .iter()
                .fold(init, |acc, &i| f(acc, i))
        }
        match self.width {
            1 => fold::<1, T>(self, word, init, f),
            2 => fold::<2, T>(self, word, init, f),
            4 => fold::<4, T>(self, word, init, f),
            8 => fold::<8, T>(self, word, init, f),
            16 => fold::<16, T>(self, word, init, f),
            _ => fold::<MAX_ORDER, T>(self, word, init, f),
        }
    }

    /// The canonical form of a grid word: its least image.
    pub fn canon(&self, word: u64) -> u64 {
        self.fold_images(word, word, u64::min)
    }

    /// How many symmetries map `word` to itself: its orbit has
    /// `order / stabilizer` words.
    pub fn stabilizer(&self, word: u64) -> usize {
        #[cfg(target_arch = "x86_64")]
        if self.gathers() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { self.stabilizer_avx512(word) };
        }
        self.fold_images(word, 0, |n, i| n + usize::from(i == word))
    }

    /// [`GridJumps::stabilizer`] compiled for AVX-512: the images are a
    /// few vector ORs, compared with the word in one instruction each.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,bmi1,bmi2,popcnt")]
    fn stabilizer_avx512(&self, word: u64) -> usize {
        self.fold_images(word, 0, |n, i| n + usize::from(i == word))
    }

    /// The number of symmetries, the identity included.
    pub fn order(&self) -> usize {
        self.order
    }

    /// Whether the successors are gathered a state at a time
    /// ([`GridJumps::expand_gathered`]): on a processor with AVX-512 and
    /// BMI2, for a board of at most 128 jumps.
    fn gathers(&self) -> bool {
        self.gathered
    }

    /// [`GridJumps::gathers`], found out.
    fn can_gather(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("bmi2")
        {
            return self.move_images.len() <= MOST_GATHERED * self.width;
        }
        false
    }

    /// How the engine's layers file their positions.
    pub(crate) fn filing(&self) -> Filing {
        self.filing
    }

    /// Pushes the canonical form of every successor of every state of
    /// `parents` into its partition of `parts` ([`part_of`]): gathered a
    /// state at a time where the engine can ([`GridJumps::gathers`];
    /// docs/benchmarks.md has the gain), else pattern by pattern.
    #[cfg(test)]
    pub(crate) fn expand(&self, parents: &[u64], parts: &mut [Vec<u64>]) {
        self.expand_tallied(parents, parts, None);
    }

    /// [`GridJumps::expand`], and with a `tally`, the size of each parent's
    /// orbit added to it.
    fn expand_tallied(&self, parents: &[u64], parts: &mut [Vec<u64>], tally: Option<&mut Orbits>) {
        #[cfg(target_arch = "x86_64")]
        if self.gathers() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { self.expand_words_avx512(parents, parts, tally) };
        }
        self.expand_any(parents, parts, tally);
    }

    /// [`GridJumps::expand`] compiled for AVX-512, whose unsigned 64-bit
    /// minimum takes a successor's least image in a few instructions, and
    /// BMI2, whose `pext` numbers a state's legal jumps in one word.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,bmi1,bmi2,popcnt")]
    fn expand_words_avx512(
        &self,
        parents: &[u64],
        parts: &mut [Vec<u64>],
        tally: Option<&mut Orbits>,
    ) {
        let file = |best: u64| parts[part_of(best)].push(best);
        self.expand_staged(parents, |best| best, file, tally);
    }

    /// [`GridJumps::expand`] for any processor.
    #[inline(always)]
    fn expand_any(&self, parents: &[u64], parts: &mut [Vec<u64>], tally: Option<&mut Orbits>) {
        let put = |best: u64| parts[part_of(best)].push(best);
        by_width!(self, expand_n(parents, put, tally))
    }

    /// Pushes the compact key of every successor of every state of
    /// `parents` into its partition of `parts`, by the engine's compact
    /// filing.
    ///
    /// # Panics
    /// When the filing is not compact: it is only where the engine gathers.
    fn expand_compact(&self, parents: &[u64], parts: &mut [Vec<u32>], tally: Option<&mut Orbits>) {
        #[cfg(target_arch = "x86_64")]
        if self.gathers() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { self.expand_compact_avx512(parents, parts, tally) };
        }
        let _ = (parents, parts, tally);
        unreachable!("a compact filing is chosen only where the engine gathers")
    }

    /// [`GridJumps::expand_compact`] compiled for AVX-512 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,bmi1,bmi2,popcnt")]
    fn expand_compact_avx512(
        &self,
        parents: &[u64],
        parts: &mut [Vec<u32>],
        tally: Option<&mut Orbits>,
    ) {
        let Filing::Compact { board, cells } = self.filing else {
            unreachable!("only a compact filing has compact keys")
        };
        let shift = cells - PARTS.trailing_zeros();
        let low = (1u64 << shift) - 1;
        let file = |mixed: u64| parts[(mixed >> shift) as usize].push((mixed & low) as u32);
        if self.width == 8 {
            return self.expand_eights(parents, cells, file, tally);
        }
        self.expand_staged(parents, |best| mix(best, board, cells), file, tally);
    }

    /// Pushes the key of every successor of every state of `parents` into
    /// its partition of `parts`: the grid word itself for whole words, the
    /// compact key for a compact filing, as the engine files its own layers.
    #[cfg(feature = "dataflow")]
    pub(crate) fn expand_keys<K: Filed>(&self, parents: &[u64], parts: &mut [Vec<K>]) {
        K::expand(self, parents, parts, None);
    }

    /// The canonical form of the successor by jump number `jump` of a
    /// state with the `images`: the least of their images XOR the jump's.
    #[inline(always)]
    fn least<const N: usize>(&self, images: &[u64; N], jump: usize) -> u64 {
        let at = jump * N;
        let jump: &[u64; N] = self.move_images[at..at + N]
            .try_into()
            .expect("a move-image row holds the engine's width");
        let mut best = u64::MAX;
        for k in 0..N {
            best = best.min(images[k] ^ jump[k]);
        }
        best
    }

    /// How many symmetries map `word`, whose `images` these are, to
    /// itself: the images padded with the identity are not counted.
    #[inline(always)]
    fn fixing<const N: usize>(&self, images: &[u64; N], word: u64) -> usize {
        images.iter().filter(|&&i| i == word).count() - (N - self.order)
    }

    /// [`GridJumps::fixing`] for [`GridJumps::expand_gathered`], inlined only
    /// into functions compiled for AVX-512: eight images compared with the
    /// word in one instruction and the matches counted from its mask, where
    /// the portable count took one mask bit out at a time.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn fixing_gathered<const N: usize>(&self, images: &[u64; N], word: u64) -> usize {
        use std::arch::x86_64::{_mm512_cmpeq_epi64_mask, _mm512_loadu_si512, _mm512_set1_epi64};
        if !N.is_multiple_of(8) {
            return self.fixing(images, word);
        }
        let mut matches = 0;
        for eight in images.chunks_exact(8) {
            // SAFETY: inlined only into functions compiled for AVX-512, and
            // the chunk holds the eight words read.
            let mask = unsafe {
                let images = _mm512_loadu_si512(eight.as_ptr().cast());
                _mm512_cmpeq_epi64_mask(images, _mm512_set1_epi64(word as i64))
            };
            matches += mask.count_ones() as usize;
        }
        matches - (N - self.order)
    }

    /// Expands pattern by pattern, `put`ting each successor's canonical
    /// form: one loop over each pattern's legal jumps. With a `tally`, the
    /// size of each parent's orbit (found from its stabilizer's) is added to it.
    #[inline(always)]
    fn expand_n<const N: usize>(
        &self,
        parents: &[u64],
        mut put: impl FnMut(u64),
        mut tally: Option<&mut Orbits>,
    ) {
        for &state in parents {
            let images = self.images::<N>(state);
            if let Some(tally) = tally.as_deref_mut() {
                *tally += self.orbit[self.fixing(&images, state)];
            }
            let holes = !state;
            for p in &self.patterns {
                let mut legal =
                    p.anchors & state >> p.pegs[0] & state >> p.pegs[1] & holes >> p.hole;
                while legal != 0 {
                    let anchor = legal.trailing_zeros() as usize;
                    legal &= legal - 1;
                    put(self.least(&images, p.first + usize::from(p.rank[anchor])));
                }
            }
        }
    }

    /// [`GridJumps::expand_gathered`] in chunks of [`STAGED_PARENTS`]
    /// parents: a chunk's successors are first computed, each canonical
    /// form turned into what is filed by `stage`, into a small array, and
    /// only then `file`d one by one. Filing a successor stores into its
    /// partition's buffer and its length, which the next successor's
    /// filing loads; interleaved with the computing, each successor
    /// waited on the one before. With the two apart, the English board's
    /// enumeration is about a tenth faster (docs/benchmarks.md).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn expand_staged(
        &self,
        parents: &[u64],
        stage: impl Fn(u64) -> u64,
        mut file: impl FnMut(u64),
        mut tally: Option<&mut Orbits>,
    ) {
        let mut staged = [0u64; STAGED_PARENTS * MOST_GATHERED];
        for chunk in parents.chunks(STAGED_PARENTS) {
            let mut n = 0;
            let put = |best: u64| {
                staged[n] = stage(best);
                n += 1;
            };
            by_width!(self, expand_gathered(chunk, put, tally.as_deref_mut()));
            staged[..n].iter().for_each(|&s| file(s));
        }
    }

    /// A parent's eight images in the board's cell order (from `rows`, the
    /// engine's cell images), which of them equal it, a bit each, and its
    /// legal jumps, for [`GridJumps::expand_eights`].
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn prepare_eight(&self, rows: &[u64], state: u64) -> (std::arch::x86_64::__m512i, u8, u128) {
        use std::arch::x86_64::*;
        // SAFETY (every block): inlined only into functions compiled for
        // AVX-512 F and BMI2; each load reads a whole row of eight words.
        let mut word = unsafe { _pext_u64(state, self.board) };
        let own = word;
        let mut images = unsafe { _mm512_setzero_si512() };
        for piece in rows.chunks_exact(8 << CELL_BITS) {
            let v = (word & ((1 << CELL_BITS) - 1)) as usize;
            word >>= CELL_BITS;
            let row = &piece[v * 8..v * 8 + 8];
            images = unsafe { _mm512_or_si512(images, _mm512_loadu_si512(row.as_ptr().cast())) };
        }
        let fixed = unsafe { _mm512_cmpeq_epi64_mask(images, _mm512_set1_epi64(own as i64)) };
        let holes = !state;
        let mut legal = 0u128;
        for p in &self.patterns {
            let at = p.anchors & state >> p.pegs[0] & state >> p.pegs[1] & holes >> p.hole;
            legal |= u128::from(unsafe { _pext_u64(at, p.anchors) }) << p.first;
        }
        (images, fixed, legal)
    }

    /// Expands a compact filing's parents with eight symmetries, `file`ing
    /// each successor's mix ([`mix`], within `cells` bits), eight
    /// successors at a time: each successor's eight images are one vector
    /// (its parent's images XOR its jump's, all in the board's cell order,
    /// so the cells need no gathering), and eight such vectors are reduced
    /// to their eight least images together, by halves swapped between
    /// them, where each alone took its least by halves of its own. Chunks
    /// of [`STAGED_PARENTS`] are staged before they are filed, as in
    /// [`GridJumps::expand_staged`]; the last eight may be padded with
    /// copies of a successor, which the sets take once. A `tally` counts
    /// the parents as [`GridJumps::expand_n`]'s does.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn expand_eights(
        &self,
        parents: &[u64],
        cells: u32,
        mut file: impl FnMut(u64),
        tally: Option<&mut Orbits>,
    ) {
        use std::arch::x86_64::*;
        let pieces = self.board.count_ones().div_ceil(CELL_BITS as u32) as usize;
        let rows = &self.cell_images[..pieces * (8 << CELL_BITS)];
        // SAFETY (every block below): inlined only into functions compiled
        // for AVX-512 (F, DQ) and BMI2; each load reads eight words of a
        // table row, checked in bounds by the slice taken.
        let (mixer, low) = unsafe {
            (
                _mm512_set1_epi64(crate::engines::parts::MIX as i64),
                _mm512_set1_epi64(((1u64 << cells) - 1) as i64),
            )
        };
        let mut ring = [unsafe { _mm512_setzero_si512() }; 8];
        let mut n = 0;
        let mut staged = [0u64; STAGED_PARENTS * MOST_GATHERED + 8];
        let mut weighed = 0;
        let mut prepared = [(unsafe { _mm512_setzero_si512() }, 0u8, 0u128); STAGED_PARENTS];
        for chunk in parents.chunks(STAGED_PARENTS) {
            let mut m = 0;
            // The chunk's images and legal jumps first, in a loop with no
            // branch that varies, then its successors.
            for (p, &state) in prepared.iter_mut().zip(chunk) {
                *p = self.prepare_eight(rows, state);
            }
            for &(images, fixed, mut legal) in &prepared[..chunk.len()] {
                if tally.is_some() {
                    weighed += self.orbit[fixed.count_ones() as usize - (8 - self.order)];
                }
                while legal != 0 {
                    let jump = legal.trailing_zeros() as usize;
                    legal &= legal - 1;
                    let row = &self.move_cells[jump * 8..jump * 8 + 8];
                    ring[n] = unsafe {
                        _mm512_xor_si512(images, _mm512_loadu_si512(row.as_ptr().cast()))
                    };
                    n += 1;
                    if n == 8 {
                        let mixed = unsafe { mixed_least(&ring, mixer, low) };
                        unsafe { _mm512_storeu_si512(staged[m..m + 8].as_mut_ptr().cast(), mixed) };
                        m += 8;
                        n = 0;
                    }
                }
            }
            staged[..m].iter().for_each(|&s| file(s));
        }
        if n > 0 {
            for k in n..8 {
                ring[k] = ring[0];
            }
            let mixed = unsafe { mixed_least(&ring, mixer, low) };
            unsafe { _mm512_storeu_si512(staged[..8].as_mut_ptr().cast(), mixed) };
            staged[..8].iter().for_each(|&s| file(s));
        }
        if let Some(tally) = tally {
            *tally += weighed;
        }
    }

    /// Expands with a state's legal jumps gathered into one word of 128
    /// bits, bit `j` for jump number `j`, each pattern's by `pext`: one loop
    /// a state, whose end is the only branch that varies, instead of one a
    /// pattern. The board has at most 128 jumps. A `tally` counts the
    /// parents as [`GridJumps::expand_n`]'s does.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn expand_gathered<const N: usize>(
        &self,
        parents: &[u64],
        mut put: impl FnMut(u64),
        tally: Option<&mut Orbits>,
    ) {
        use std::arch::x86_64::_pext_u64;
        // The parents' orbit sizes, summed here and added to the tally once.
        let mut weighed = 0;
        for &state in parents {
            let images = self.images_gathered::<N>(state);
            if tally.is_some() {
                weighed += self.orbit[self.fixing_gathered(&images, state)];
            }
            let holes = !state;
            let mut legal = 0u128;
            for p in &self.patterns {
                let at = p.anchors & state >> p.pegs[0] & state >> p.pegs[1] & holes >> p.hole;
                // SAFETY: inlined only into functions compiled for BMI2.
                legal |= u128::from(unsafe { _pext_u64(at, p.anchors) }) << p.first;
            }
            while legal != 0 {
                let jump = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                put(self.least(&images, jump));
            }
        }
        if let Some(tally) = tally {
            *tally += weighed;
        }
    }

    /// Runs the layered search from `sources` (canonical grid words), calling
    /// `layer(depth, layer, counted)` for each layer once it is expanded;
    /// `layer` returns false to stop. `counted` is the layer's positions,
    /// or with `weigh`, the positions their orbits hold: each parent's
    /// orbit is weighed as it is expanded, from the images its successors'
    /// canonical forms are taken from.
    /// With `keep`, every layer is kept, its partitions sorted (for
    /// [`Layer::common_sum`]), and returned; without, a layer is let go
    /// once the next has been expanded from it. The memory of the layers kept, the one
    /// at hand and the one being built, with the `held` bytes the caller
    /// keeps, is checked against `max_memory` before each round of parents:
    /// past it, the run stops with the limit error.
    ///
    /// The sets and the successor buffers are reused from layer to layer;
    /// a buffer is allocated again only when a round needs it larger. A layer costs 8 bytes a position, and the sets that
    /// build the next about 11 bytes a position of it (5.5 with compact
    /// keys).
    pub fn run(
        &self,
        sources: &[u64],
        max_memory: u64,
        keep: bool,
        weigh: bool,
        held: u64,
        layer: impl FnMut(usize, &Layer, u128) -> bool,
    ) -> Result<Vec<Layer>> {
        match self.filing {
            Filing::Words => self.run_filed::<u64>(sources, max_memory, keep, weigh, held, layer),
            Filing::Compact { .. } => {
                self.run_filed::<u32>(sources, max_memory, keep, weigh, held, layer)
            }
        }
    }

    /// [`GridJumps::run`] with the sets holding keys `K` by the engine's filing.
    fn run_filed<K: Filed>(
        &self,
        sources: &[u64],
        max_memory: u64,
        keep: bool,
        weigh: bool,
        held: u64,
        mut layer: impl FnMut(usize, &Layer, u128) -> bool,
    ) -> Result<Vec<Layer>> {
        let mut kept: Vec<Layer> = Vec::new();
        let mut kept_bytes = 0;
        let mut current = Layer::from_keys(sources.to_vec(), self.filing);
        let threads = rayon::current_num_threads().max(1);
        // Each thread files into buffers of its own, taking the round's
        // pieces as it is free: many small pieces keep both threads busy
        // to the end of a round.
        let pieces_per_round = threads * PIECES_PER_THREAD;
        let mut buffers: Vec<Mutex<(Vec<Vec<K>>, Orbits)>> = (0..threads)
            .map(|_| Mutex::new((vec![Vec::new(); PARTS], 0)))
            .collect();
        let mut sets: Vec<Set<K>> = (0..PARTS).map(|_| Set::with_capacity(0)).collect();
        // The last layer's growth, to size the sets for the next.
        let mut growth = 2.0f64;
        // Successors per parent in the last round, to size the buffers for the next.
        let mut rate = 8.0f64;
        let mut depth = 0;
        while !current.is_empty() {
            buffers.iter_mut().for_each(|b| lock(b).1 = 0);
            let expected = (current.len() as f64 * growth.clamp(0.5, 4.0)) as usize / PARTS;
            sets.par_iter_mut().for_each(|set| set.reset(expected));
            let pieces = current.pieces(ROUND / pieces_per_round);
            for round in pieces.chunks(pieces_per_round) {
                // Each buffer is sized for its share of the round's
                // successors at the last round's rate, so that it does not
                // grow by copies (and fault on every copy's pages).
                let parents: usize = round.iter().flatten().map(|p| p.len()).sum();
                let want = (parents as f64 * rate * 1.2 / (threads * PARTS) as f64) as usize + 16;
                // What is held now: the buffers keep their capacity from round to round.
                let buffered: u64 = buffers
                    .iter_mut()
                    .map(|b| {
                        let parts = &mut lock(b).0;
                        for part in parts.iter_mut() {
                            part.clear();
                            if part.capacity() < want {
                                *part = Vec::with_capacity(want);
                            }
                        }
                        parts
                            .iter()
                            .map(|b| (b.capacity() * std::mem::size_of::<K>()) as u64)
                            .sum::<u64>()
                    })
                    .sum();
                let set_bytes: u64 = sets.iter().map(Set::bytes).sum();
                let total = held + kept_bytes + current.bytes() + set_bytes + buffered;
                if total > max_memory {
                    return Err(crate::limits::Limits::exceeded_bound(
                        "max-memory",
                        "the memory for the next layer (so far)",
                        u128::from(total),
                        u128::from(max_memory),
                        "raise --max-memory if the machine has room",
                    ));
                }
                round.par_iter().for_each(|piece| {
                    let me = rayon::current_thread_index().unwrap_or(0) % threads;
                    let mut mine = buffers[me].lock().unwrap_or_else(|e| e.into_inner());
                    let (parts, tally) = &mut *mine;
                    for parents in piece {
                        K::expand(self, parents, parts, weigh.then_some(&mut *tally));
                    }
                });
                let filled: Vec<&Vec<Vec<K>>> = buffers.iter_mut().map(|b| &lock(b).0).collect();
                let successors: usize = filled
                    .iter()
                    .flat_map(|parts| parts.iter().map(Vec::len))
                    .sum();
                rate = successors as f64 / parents.max(1) as f64;
                sets.par_iter_mut().enumerate().for_each(|(p, set)| {
                    set.warm();
                    for parts in &filled {
                        set.extend(&parts[p]);
                    }
                });
            }
            drop(pieces);
            let counted = if weigh {
                buffers.iter_mut().map(|b| u128::from(lock(b).1)).sum()
            } else {
                current.len() as u128
            };
            if !layer(depth, &current, counted) {
                break;
            }
            let size = current.len();
            // A layer not kept is let go before the next is copied out of the sets.
            let done = std::mem::take(&mut current);
            if keep {
                kept_bytes += done.bytes();
                kept.push(done);
            } else {
                drop(done);
            }
            current = K::layer(self, &mut sets, keep);
            growth = current.len() as f64 / size as f64;
            depth += 1;
        }
        if keep && !current.is_empty() {
            kept.push(current);
        }
        Ok(kept)
    }
}

/// The least word of each of eight vectors, in the order 0, 4, 1, 5, 2,
/// 6, 3, 7: three rounds of halves swapped between pairs of vectors and
/// their minima taken, seven minima in all, where eight vectors reduced
/// one by one take twenty-one.
///
/// # Safety
/// The processor has AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn least_of_eight(v: &[std::arch::x86_64::__m512i; 8]) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    // SAFETY: the caller's processor has AVX-512 F.
    unsafe {
        // Each pair's halves of 256 bits: a vector with four minima of each.
        let halves = |a, b| {
            _mm512_min_epu64(
                _mm512_shuffle_i64x2(a, b, 0x44),
                _mm512_shuffle_i64x2(a, b, 0xEE),
            )
        };
        // Each pair of those: a lane of 128 bits with two minima of each of four.
        let quarters = |a, b| {
            _mm512_min_epu64(
                _mm512_shuffle_i64x2(a, b, 0x88),
                _mm512_shuffle_i64x2(a, b, 0xDD),
            )
        };
        let low = quarters(halves(v[0], v[1]), halves(v[2], v[3]));
        let high = quarters(halves(v[4], v[5]), halves(v[6], v[7]));
        _mm512_min_epu64(
            _mm512_unpacklo_epi64(low, high),
            _mm512_unpackhi_epi64(low, high),
        )
    }
}

/// What a mutex holds, to one who holds it mutably: a thread that
/// panicked while filing has already ended the run.
fn lock<T>(m: &mut Mutex<T>) -> &mut T {
    m.get_mut().unwrap_or_else(|e| e.into_inner())
}

/// The mixes ([`mix`], by the multiplier `mixer` within the bits of `low`)
/// of the least words of the eight vectors `ring` ([`least_of_eight`]).
///
/// # Safety
/// The processor has AVX-512 F and DQ.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn mixed_least(
    ring: &[std::arch::x86_64::__m512i; 8],
    mixer: std::arch::x86_64::__m512i,
    low: std::arch::x86_64::__m512i,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::{_mm512_and_si512, _mm512_mullo_epi64};
    // SAFETY: the caller's processor has AVX-512 F and DQ.
    unsafe { _mm512_and_si512(_mm512_mullo_epi64(least_of_eight(ring), mixer), low) }
}

/// The positions the orbits of a thread's parents hold, summed: a layer
/// weighed by its orbits.
type Orbits = u64;

/// A key the layers' sets hold: a grid word, or a compact key of 32 bits.
pub(crate) trait Filed: Slot {
    /// Files the successors of `parents` into `parts` as such keys, and
    /// counts the parents in `tally` ([`GridJumps::expand_n`]).
    fn expand(
        engine: &GridJumps,
        parents: &[u64],
        parts: &mut [Vec<Self>],
        tally: Option<&mut Orbits>,
    );
    /// The layer the `sets` hold, as [`Layer::from_sets`].
    fn layer(engine: &GridJumps, sets: &mut [Set<Self>], sorted: bool) -> Layer;
}

impl Filed for u64 {
    fn expand(
        engine: &GridJumps,
        parents: &[u64],
        parts: &mut [Vec<u64>],
        tally: Option<&mut Orbits>,
    ) {
        engine.expand_tallied(parents, parts, tally);
    }

    fn layer(_: &GridJumps, sets: &mut [Set<u64>], sorted: bool) -> Layer {
        Layer::from_sets(sets, sorted)
    }
}

impl Filed for u32 {
    fn expand(
        engine: &GridJumps,
        parents: &[u64],
        parts: &mut [Vec<u32>],
        tally: Option<&mut Orbits>,
    ) {
        engine.expand_compact(parents, parts, tally);
    }

    fn layer(engine: &GridJumps, sets: &mut [Set<u32>], sorted: bool) -> Layer {
        Layer::from_compact_sets(sets, sorted, engine.filing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::symmetry::Symmetries;

    fn engine(name: &str) -> (Program, Symmetries, GridJumps) {
        engine_of(crate::catalogue::find(name).unwrap().text, name)
    }

    /// A ring of 6 cavities (12 symmetries) and a 3 x 4 torus (48), for
    /// the widths of 16 and 48 images.
    fn wrapped(rows: usize, cols: usize) -> String {
        format!(
            "name = \"wrapped\"\n[board]\nrows = {rows}\ncols = {cols}\nwrap = true\n\
             [[moves]]\njump = \"orthogonal\"\n[goal]\nfewest = \"pieces\"\n"
        )
    }

    fn engine_of(text: &str, name: &str) -> (Program, Symmetries, GridJumps) {
        let program = crate::Puzzle::parse(text, name).unwrap().compile().unwrap();
        let group = Symmetries::of(&program, &[], &Limits::default()).unwrap();
        let engine = GridJumps::new(&program, group.perms()).unwrap();
        (program, group, engine)
    }

    /// Random states by xorshift, within `cells` bits.
    fn states(cells: usize, n: usize) -> Vec<u64> {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x & ((1u64 << cells) - 1)
            })
            .collect()
    }

    #[test]
    fn shipped_peg_boards_group_their_jumps_into_few_patterns() {
        for (name, patterns, order) in [
            ("english33", 4, 8),
            ("french37", 4, 8),
            ("triangle15", 6, 6),
            ("pebble12", 2, 2),
        ] {
            let (_, _, engine) = engine(name);
            assert_eq!(engine.patterns.len(), patterns, "{name}");
            assert_eq!(engine.order(), order, "{name}");
        }
    }

    /// The successors found bit-parallel, with canonical forms by XOR of
    /// images, are exactly the legal moves tried one by one, canonicalised
    /// image by image.
    #[test]
    fn successors_and_canonical_forms_agree_with_moves_tried_one_by_one() {
        let boards = ["english33", "french37", "triangle15", "pebble12"]
            .map(|name| (name, engine(name)))
            .into_iter()
            .chain(
                [
                    ("ring6", engine_of(&wrapped(1, 6), "ring6"), 16),
                    ("torus3x4", engine_of(&wrapped(3, 4), "torus3x4"), 48),
                ]
                .map(|(name, built, width)| {
                    assert_eq!(built.2.width, width, "{name}");
                    (name, built)
                }),
            );
        for (name, (program, group, engine)) in boards {
            let masks = Masks::new(&program).unwrap();
            for s in states(program.cells(), 2000) {
                let mut parts = vec![Vec::new(); PARTS];
                engine.expand(&[engine.to_grid(s)], &mut parts);
                let mut fast: Vec<u64> = parts.concat();
                fast.sort_unstable();
                // The path for any processor, whatever this one has.
                let mut any = vec![Vec::new(); PARTS];
                engine.expand_any(&[engine.to_grid(s)], &mut any, None);
                assert_eq!(any, parts, "{name} from {s:#x}");
                // A jump the program gives twice (on a torus of three rows,
                // from either side into the middle) is one jump.
                let mut distinct = std::collections::HashSet::new();
                let mut slow: Vec<u64> = (0..masks.len())
                    .filter(|&m| masks.legal(s, m))
                    .filter(|&m| {
                        distinct.insert((masks.need_on[m], masks.need_off[m], masks.flip[m]))
                    })
                    .map(|m| {
                        let t = s ^ masks.flip[m];
                        (0..group.len())
                            .map(|k| engine.to_grid(group.apply(k, t)))
                            .min()
                            .unwrap()
                    })
                    .collect();
                slow.sort_unstable();
                assert_eq!(fast, slow, "{name} from {s:#x}");
                for &t in &fast {
                    assert_eq!(
                        part_of(t),
                        parts.iter().position(|p| p.contains(&t)).unwrap()
                    );
                }
                let word = engine.to_grid(s);
                let orbit: Vec<u64> = (0..group.len())
                    .map(|k| engine.to_grid(group.apply(k, s)))
                    .collect();
                assert_eq!(engine.canon(word), *orbit.iter().min().unwrap());
                let fixed = orbit.iter().filter(|&&i| i == word).count();
                assert_eq!(engine.stabilizer(word), fixed, "{name} {s:#x}");
                assert_eq!(
                    engine.complement(word),
                    engine.to_grid(!s & masks_all(&program))
                );
            }
        }
    }

    /// Every layer, filed compactly where the engine can, holds the same
    /// positions as filed by whole words, on boards from 12 cells to 37
    /// (and 7, below the compact filing's least), with and without their
    /// symmetries: the first 9 layers (a few million positions at most).
    #[test]
    fn compact_and_whole_word_filings_give_the_same_layers() {
        let small = "name = \"row7\"\n[board]\nrows = 1\ncols = 7\n[[moves]]\njump = \"orthogonal\"\n[goal]\nfewest = \"pieces\"\n";
        let boards = ["english33", "french37", "triangle15", "pebble12"]
            .map(|name| (name, engine(name)))
            .into_iter()
            .chain([("row7", engine_of(small, "row7"))]);
        for (name, (program, group, engine)) in boards {
            let cells = program.cells();
            let start = engine.to_grid(((1u64 << cells) - 1) & !(1 << (cells / 2)));
            let plain = GridJumps::new(&program, &[(0..cells).collect()]).unwrap();
            for engine in [engine, plain] {
                let sorted = |layers: Vec<Layer>| -> Vec<Vec<u64>> {
                    layers
                        .iter()
                        .map(|l| {
                            let mut v: Vec<u64> = l.par_states().collect();
                            v.sort_unstable();
                            v
                        })
                        .collect()
                };
                let source = [engine.canon(start)];
                let first = |depth: usize, _: &Layer, _| depth < 8;
                let filed = engine
                    .run(&source, u64::MAX, true, false, 0, first)
                    .unwrap();
                let words = GridJumps {
                    filing: Filing::Words,
                    ..engine.clone()
                };
                let whole = words.run(&source, u64::MAX, true, false, 0, first).unwrap();
                let compact = matches!(engine.filing, Filing::Compact { .. });
                if engine.gathers() {
                    assert_eq!(compact, cells >= 8, "{name}: filed {:?}", engine.filing);
                }
                for layer in &filed {
                    assert!(layer.par_states().all(|w| layer.contains(w)), "{name}");
                }
                let (filed, whole) = (sorted(filed), sorted(whole));
                assert!(filed.len() > 3, "{name}: {} layers", filed.len());
                assert_eq!(filed, whole, "{name} with {} symmetries", engine.order);
            }
            drop(group);
        }
    }

    /// The orbit weights counted as the parents are expanded equal those
    /// of [`GridJumps::stabilizer`], with the images padded (the triangle's
    /// 6 symmetries in 8 lanes, the row's 2) or not, gathered or pattern
    /// by pattern, on the first 8 layers.
    #[test]
    fn orbit_weights_counted_in_the_expansion_equal_the_stabilizers() {
        for name in ["english33", "french37", "triangle15", "pebble12"] {
            let (program, _, engine) = engine(name);
            let cells = program.cells();
            let start = engine.to_grid(((1u64 << cells) - 1) & !(1 << (cells / 2)));
            let by_pattern = GridJumps {
                gathered: false,
                filing: Filing::Words,
                ..engine.clone()
            };
            for engine in [engine, by_pattern] {
                let order = engine.order();
                let mut layers = 0;
                let check = |depth: usize, layer: &Layer, counted: u128| {
                    let orbits: u128 = layer
                        .par_states()
                        .map(|s| (order / engine.stabilizer(s)) as u128)
                        .sum();
                    assert_eq!(counted, orbits, "{name} layer {depth}");
                    assert!(counted >= layer.len() as u128);
                    layers += 1;
                    depth < 8
                };
                let source = [engine.canon(start)];
                engine
                    .run(&source, u64::MAX, false, true, 0, check)
                    .unwrap();
                assert!(layers > 3, "{name}: {layers} layers");
            }
        }
    }

    fn masks_all(program: &Program) -> u64 {
        (1u64 << program.cells()) - 1
    }

    #[test]
    fn sets_keep_each_word_once_through_growth() {
        let words = states(40, 50_000);
        let mut set = Set::with_capacity(1);
        for &w in words.iter().chain(&words) {
            set.insert(w);
        }
        assert_eq!(set.len(), {
            let mut unique = words.clone();
            unique.sort_unstable();
            unique.dedup();
            unique.len()
        });
        let mut keys = set.take();
        keys.sort_unstable();
        let mut expected = words.clone();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(keys, expected);
    }

    #[test]
    fn layers_find_their_states_and_sum_what_two_layers_share() {
        let a: Vec<u64> = states(30, 20_000);
        let b: Vec<u64> = states(30, 40_000)[10_000..].to_vec();
        let filings = [Filing::Words]
            .into_iter()
            .chain(Filing::compact((1 << 30) - 1))
            .chain(Filing::compact((1 << 41) - 1));
        for filing in filings {
            let (la, lb) = (
                Layer::from_keys(a.clone(), filing),
                Layer::from_keys(b.clone(), filing),
            );
            assert!(a.iter().all(|&w| la.contains(w)), "{filing:?}");
            assert!(!la.contains(1 << 40), "{filing:?}");
            let shared = a.iter().filter(|w| b.contains(w)).count();
            assert!(shared > 0);
            assert_eq!(la.common_sum(&lb, |_| 1), shared as u128, "{filing:?}");
            assert_eq!(
                lb.common_sum(&la, u128::from),
                a.iter()
                    .filter(|w| b.contains(w))
                    .map(|&w| u128::from(w))
                    .sum::<u128>()
            );
        }
    }
}
