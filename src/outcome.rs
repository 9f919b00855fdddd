//! What the engines return: outcomes of one board, their proofs, and the counts of an enumeration.
//!
//! These types are the contract between the engines, which build them, the
//! checker, which checks them, and the answer format and renderers, which
//! write them. They hold no engine and know no planner.

use std::collections::BTreeMap;

use crate::bits::Bits;

/// Why no solution exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// An exhaustive search visited every reachable state.
    Search,
    /// One parity certificate per target.
    Parity(Vec<Certificate>),
    /// Elimination showed the board is outside the moves' span, but the move
    /// matrix is too large to produce a certificate.
    Rank,
    /// By moves: the levels searched both ways with every bound up to this
    /// many moves meet nowhere, and no solution could have more (each move
    /// removes a piece).
    MoveLevels(u32),
}

/// The moves of a solution, in the order they are played: a list, or for a
/// linear puzzle the set of moves pressed (presses commute), played in
/// ascending order. A set of 10^8 presses takes 12.5 MB, not 800.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayedMoves {
    /// Indices into [`Program::moves`](crate::Program::moves), in order.
    List(Vec<usize>),
    /// The moves pressed, as a set over the move indices.
    Presses(Bits),
}

impl PlayedMoves {
    /// The number of moves.
    pub fn len(&self) -> usize {
        match self {
            PlayedMoves::List(list) => list.len(),
            PlayedMoves::Presses(set) => set.count_ones(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The move indices in the order played.
    pub fn iter(&self) -> Box<dyn Iterator<Item = usize> + '_> {
        match self {
            PlayedMoves::List(list) => Box::new(list.iter().copied()),
            PlayedMoves::Presses(set) => Box::new(set.ones_iter()),
        }
    }

    /// The move indices in the order played, as a list.
    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }
}

impl<'a> IntoIterator for &'a PlayedMoves {
    type Item = usize;
    type IntoIter = Box<dyn Iterator<Item = usize> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl From<Vec<usize>> for PlayedMoves {
    fn from(list: Vec<usize>) -> PlayedMoves {
        PlayedMoves::List(list)
    }
}

/// A checked answer for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The moves, in the order played.
    pub moves: PlayedMoves,
    /// The state the moves reach.
    pub end: Bits,
    /// Whether no shorter sequence (or, for fewest pieces, no better end) exists.
    pub optimal: bool,
    /// With the moves metric: how the jumps group into moves, and how the
    /// count was proved the fewest.
    pub chains: Option<Chains>,
}

impl Solution {
    /// The solution's length in the puzzle's metric: its moves (chains of
    /// jumps by one piece) when it has chains, else its moves as played.
    pub fn length(&self) -> usize {
        match &self.chains {
            Some(chains) => chains.lengths.len(),
            None => self.moves.len(),
        }
    }
}

/// The moves of a solution counted as players count them: each a chain of
/// consecutive jumps by one piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chains {
    /// The number of jumps in each move, in order; they add up to the
    /// solution's jumps.
    pub lengths: Vec<usize>,
    /// The levels searched both ways, which prove the count the fewest, or,
    /// when `stopped`, what they proved before a limit stopped them.
    pub levels: Levels,
    /// Why the levels did not prove this solution the fewest: the error of
    /// the limit that stopped them. Only a solution found by a beam (the
    /// limit `beam`) is given unproved; it is then marked not optimal.
    pub stopped: Option<String>,
}

impl Chains {
    /// The solution's jumps (`jumps`, in order) grouped into moves.
    pub fn group<'a>(&'a self, jumps: &'a [usize]) -> impl Iterator<Item = &'a [usize]> + 'a {
        let mut at = 0;
        self.lengths.iter().map(move |&n| {
            let chain = &jumps[at.min(jumps.len())..(at + n).min(jumps.len())];
            at += n;
            chain
        })
    }
}

/// The result of solving one board. Impossibility is an answer, not an error.
// Made once per board solved, so the solution's size beside a proof's does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The goal can be reached (for fewest pieces: always, possibly with no move).
    Solved(Solution),
    /// No sequence of moves reaches a target, with the proof.
    Unsolvable(Proof),
}

/// A proof that a target cannot be reached: a set of cells `Q` such that every
/// move flips an even number of cells of `Q`, while the board and the target
/// differ on an odd number of cells of `Q`. Moves preserve the parity of the
/// pieces on `Q`, so no sequence of them joins the board to the target.
/// [`crate::check::check_certificate`] checks one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The target this certificate rules out.
    pub target: Bits,
    /// The cells of `Q`.
    pub cells: Bits,
}

/// How the fewest moves were proved: the lower bound from Merson regions
/// and peg types, and the bounded search that found no solution within one move less than
/// the answer, with the sizes of its levels in positions up to symmetry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    /// Positions per level forward from the start, in the last search that
    /// found nothing: entry `n` is the number kept of those reached in `n`
    /// moves. Empty when the lower bound on the start alone proves the answer.
    /// With the bound `frontier` too, the targets share these levels, unless
    /// `apart`.
    pub forward: Vec<u64>,
    /// Positions per level backward in that search, summed over the targets
    /// searched back from (each level `n` of each target: the positions kept
    /// of those that reach it in `n` moves).
    pub backward: Vec<u64>,
    /// The targets searched back from: those in the start's class, one per
    /// orbit under the symmetries that fix the start.
    pub targets: usize,
    /// The symmetries forward positions are taken up to: those that fix the
    /// start and map the targets onto targets.
    pub forward_symmetries: usize,
    /// The symmetries backward positions are taken up to: those that fix the
    /// target (with several targets, the fewest any of them has).
    pub backward_symmetries: usize,
    /// The disjoint Merson regions packed once for the board; the bound on a
    /// position counts these or a packing of its own, whichever counts more.
    pub regions: usize,
    /// The lower bound on the start (the regions full in it and not in the
    /// nearest target, or the peg types' demands with the regions that
    /// count beside them): every solution has at least this many moves.
    pub lower: u32,
    /// Whether the peg types' demands counted in the bound.
    pub types: bool,
    /// Whether pagoda functions cut off positions that cannot reach the
    /// other end.
    pub pagoda: bool,
    /// Whether the sides of the last search that found nothing were also
    /// bounded toward each other's last level (the bound `frontier`: its
    /// depth, and the regions and peg types toward its positions).
    pub frontier: bool,
    /// Whether that search, with the bound `frontier`, searched the targets
    /// one at a time, each with forward levels of its own (when the shared
    /// forward levels did not fit in `max-memory`); `forward` then sums
    /// their levels.
    pub apart: bool,
    /// The pagoda functions found by linear programming, on the side that
    /// found the most.
    pub pagodas: usize,
    /// The bound of the last search that found nothing: no solution has this
    /// many moves or fewer. A search keeps a position only when its moves so
    /// far and the lower bound on the moves still needed come to at most
    /// this. `None` when no search was needed.
    pub none_within: Option<u32>,
    /// Whether the last level of a side in that search was too large to
    /// hold, and was checked for meetings in parts as it grew instead: its
    /// entry then counts a position once in each part that found it.
    pub in_parts: bool,
}

/// What an enumeration found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// How many states (or orbits, with symmetry): exact, whatever its size.
    pub count: Count,
    /// States per distance (or per answer, for fewest pieces), when known.
    pub histogram: BTreeMap<u32, u128>,
    /// The number of symmetries used (1 without).
    pub symmetries: usize,
}

/// An exact count: `mult x 2^shift`, written in decimal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// The odd (or small) factor.
    pub mult: u128,
    /// The power of two.
    pub shift: u32,
}

impl Count {
    /// A plain number.
    pub fn new(n: u128) -> Count {
        Count { mult: n, shift: 0 }
    }

    /// The count as a `u128`, when it fits.
    pub fn to_u128(self) -> Option<u128> {
        self.mult
            .checked_shl(self.shift)
            .filter(|v| v >> self.shift == self.mult)
    }

    pub(crate) fn add(&mut self, n: u128) {
        let v = self.to_u128().unwrap_or(u128::MAX);
        *self = Count::new(v.saturating_add(n));
    }
}

/// Past this power of two a count is written as `2^N` (or `M x 2^N`), still
/// exact: its decimal digits would take quadratic time to write.
pub const DECIMAL_SHIFT_LIMIT: u32 = 1 << 16;

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.shift > DECIMAL_SHIFT_LIMIT, self.mult) {
            (true, 1) => write!(f, "2^{}", self.shift),
            (true, m) => write!(f, "{m} x 2^{}", self.shift),
            (false, m) => f.write_str(&times_power_of_two(m, self.shift as usize)),
        }
    }
}

/// `m x 2^n` in decimal, exactly.
///
/// ```
/// assert_eq!(pegflip::outcome::times_power_of_two(3, 100), "3802951800684688204490109616128");
/// ```
pub fn times_power_of_two(m: u128, n: usize) -> String {
    // m < 2^128 may not fit a limb's shift: add it in 64-bit halves.
    let mut number = crate::bits::Decimal::new(m >> 64);
    number.shift_add(32, 0);
    number.shift_add(32, m & u128::from(u64::MAX));
    let mut left = n;
    while left > 0 {
        let step = left.min(59);
        left -= step;
        number.shift_add(step as u32, 0);
    }
    number.to_string()
}

/// Boards `generate` found, each solved at the distance asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The boards, in the order drawn.
    pub boards: Vec<Bits>,
    /// Their distance from the goal (for fewest pieces: the fewest pieces).
    pub distance: u32,
    /// How they were drawn.
    pub drawn: Drawn,
}

/// How `generate` drew its boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// Uniformly from the layer at the distance, every state counted first.
    Layer {
        /// The boards at that distance.
        boards: u128,
    },
    /// Uniformly by rejection: candidates drawn over a linear puzzle's
    /// solvable boards, each kept with the odds that make every board at
    /// the distance as likely.
    Coset {
        /// Candidates drawn from every solvable board (`false`: from press
        /// sets of as many presses as the distance).
        any_solvable: bool,
        /// The candidates drawn.
        draws: u64,
    },
    /// Played backwards from a target, the distance then found by solving:
    /// every board can be solved, but they are not uniform.
    Backward {
        /// The boards played.
        draws: u64,
    },
}

impl Drawn {
    /// Whether every board at the distance was as likely.
    pub fn uniform(&self) -> bool {
        !matches!(self, Drawn::Backward { .. })
    }

    /// The method in words.
    pub fn describe(&self) -> String {
        match self {
            Drawn::Layer { boards } => format!(
                "uniformly among the {boards} boards at this distance, every solvable board \
                 counted first"
            ),
            Drawn::Coset {
                any_solvable: true,
                draws,
            } => format!(
                "uniformly, by rejection: {draws} boards drawn from all solvable boards, those \
                 at this distance kept"
            ),
            Drawn::Coset {
                any_solvable: false,
                draws,
            } => format!(
                "uniformly, by rejection: {draws} boards drawn as a target and that many \
                 presses, each at this distance kept with the odds that make every such board \
                 as likely"
            ),
            Drawn::Backward { draws } => format!(
                "by backward play from a target: {draws} boards played, those that solve in \
                 exactly this many kept; not uniform"
            ),
        }
    }
}

/// The checked answer for one board of a puzzle of k colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColourOutcome {
    /// The fewest presses to a target.
    Solved(ColourSolution),
    /// No presses reach any target: one certificate per target.
    Unsolvable(Vec<ColourCertificate>),
}

/// Press counts that solve a board of k colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourSolution {
    /// `(press, times)` in ascending press order, each `times` in `1..k`:
    /// the order does not matter, presses add.
    pub presses: Vec<(usize, u64)>,
    /// The target reached, an index into the goal's boards.
    pub target: usize,
    /// The board reached.
    pub end: Vec<u64>,
    /// Whether no press counts with fewer presses in all reach a target
    /// (pressing a button t times counts t).
    pub optimal: bool,
}

impl ColourSolution {
    /// The number of presses, a button pressed t times counting t.
    pub fn length(&self) -> u64 {
        self.presses.iter().map(|&(_, t)| t).sum()
    }
}

/// A certificate of impossibility modulo k: weights `y` on the cells with
/// `y A = 0` (every press adds a multiple of k to the weighted sum) and
/// `y · (target − board) ≠ 0`, so the weighted sum can never change by what
/// reaching the target needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourCertificate {
    /// The target it rules out, an index into the goal's boards.
    pub target: usize,
    /// One weight per cell, in `0..k`.
    pub weights: Vec<u64>,
}
