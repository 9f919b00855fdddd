//! The gf2 solver: toggle-only puzzles as linear algebra over GF(2), by light chasing or dense elimination.
//!
//! A linear puzzle is `A x = b`: column `j` of `A` is the set of cells move
//! `j` flips, `x` is a press set, and `b` is the board XOR the target. Two
//! engines build the same facts (a particular solution, the null space, and a
//! certificate when there is no solution):
//!
//! - **light chasing** ([`crate::engines::chase`]), for rectangular grids where
//!   every cell's toggle is one stencil that reaches the row before (in chase
//!   order) only at the cell directly beside: the presses of each row are
//!   forced by the row before, so every cell is an affine function of the
//!   first row's presses, and only a `cols x cols` system remains;
//! - **dense elimination** of `[Aᵀ | I]` ([`crate::gf2::Solver`]) otherwise.
//!
//! The fewest presses come from the solution coset `x + null(A)`, walked in
//! Gray-code order so that each candidate costs one XOR.

use crate::bits::Bits;
use crate::engines::chase::GridLinear;
use crate::error::{Error, Result};
use crate::gf2::{self, Solver};
use crate::limits::Limits;
use crate::program::Program;

/// How a linear puzzle is being solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elimination {
    /// Light chasing row by row, then a `cols x cols` system.
    Chase,
    /// Dense elimination of the whole move matrix.
    Dense,
}

/// A linear puzzle, eliminated once, ready to answer any board.
#[derive(Clone, Debug)]
pub struct Linear {
    moves: usize,
    rank: usize,
    null: Vec<Bits>,
    eliminated: Eliminated,
}

#[derive(Clone, Debug)]
enum Eliminated {
    Dense(Solver),
    Chase(Box<GridLinear>),
}

/// Refuses a program with guarded moves: the gf2 solver would answer it wrongly.
pub fn require_linear(program: &Program) -> Result<()> {
    if !program.is_linear() {
        return Err(Error::Usage(
            "the gf2 solver needs every move to be an unconditional toggle, but this puzzle has \
             jumps or guarded toggles: use --solver bfs"
                .into(),
        ));
    }
    Ok(())
}

impl Linear {
    /// Eliminates a linear program: by light chasing where it has a stencil,
    /// otherwise densely (refused past the limits).
    pub fn new(program: &Program, limits: &Limits) -> Result<Linear> {
        require_linear(program)?;
        match program.stencil() {
            Some(_) => Linear::chase(program, limits),
            None => Linear::dense(program, limits),
        }
    }

    /// Dense elimination of `[Aᵀ | I]`, whatever the board (refused past
    /// `max-memory` and `gf2-work`).
    pub fn dense(program: &Program, limits: &Limits) -> Result<Linear> {
        require_linear(program)?;
        if let Some(reason) = program.unlisted_reason() {
            return Err(Error::Usage(reason.to_string()));
        }
        let (n, m) = (program.cells(), program.moves().len());
        dense_cost(n, m, limits)?;
        let columns: Vec<Vec<usize>> = program
            .moves()
            .iter()
            .map(|mv| mv.flip.iter().map(|c| c.0).collect())
            .collect();
        let solver = Solver::new(n, &columns);
        let null = solver
            .null_space()
            .into_iter()
            .map(|words| bits_from_words(m, &words))
            .collect();
        Ok(Linear {
            moves: m,
            rank: solver.rank(),
            null,
            eliminated: Eliminated::Dense(solver),
        })
    }

    /// Light chasing the program's stencil. Quiet patterns are expanded to
    /// whole boards only as far as the coset walk can use them
    /// (`coset-work`), so that a large null space never fills memory.
    /// Dense elimination when the program has no stencil.
    pub fn chase(program: &Program, limits: &Limits) -> Result<Linear> {
        let Some(stencil) = program.stencil() else {
            return Linear::dense(program, limits);
        };
        let grid = stencil.eliminate();
        let words = program.cells().div_ceil(64).max(1) as u64;
        let walkable = (limits.coset_work / words).max(1).ilog2() as usize;
        // Pressed-cell sets are press sets: move i presses cell i.
        Ok(Linear {
            moves: program.cells(),
            rank: grid.rank(),
            null: grid.quiet_patterns(walkable.min(grid.nullity())),
            eliminated: Eliminated::Chase(Box::new(grid)),
        })
    }

    /// Which engine eliminated the puzzle.
    pub fn method(&self) -> Elimination {
        match self.eliminated {
            Eliminated::Dense(_) => Elimination::Dense,
            Eliminated::Chase(_) => Elimination::Chase,
        }
    }

    /// The rank of the move matrix: 2^rank states are solvable.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The dimension of the null space: press sets that change nothing.
    pub fn nullity(&self) -> usize {
        self.moves - self.rank
    }

    /// A basis of the null space (the quiet patterns), as press sets over
    /// moves. After chasing a very large board, only the first of them (as
    /// many as the coset walk can use); [`Linear::nullity`] counts them all.
    pub fn null_space(&self) -> &[Bits] {
        &self.null
    }

    /// A press set whose flips XOR to `b`; or, when none exists, the cells of
    /// a certificate where one can be given (`None` when the move matrix is
    /// not symmetric and too large to eliminate densely).
    pub fn solve(&self, program: &Program, b: &Bits) -> std::result::Result<Bits, Option<Bits>> {
        match &self.eliminated {
            Eliminated::Dense(solver) => match solver.solve(b.words()) {
                Ok(x) => Ok(bits_from_words(self.moves, &x)),
                Err(y) => Err(Some(bits_from_words(program.cells(), &y))),
            },
            Eliminated::Chase(grid) => match grid.solve(b) {
                Some(presses) => Ok(presses),
                // A symmetric matrix: its left null space is the null space, the quiet
                // patterns; one of them has odd parity on b.
                None if grid.is_symmetric() => Err(self
                    .null
                    .iter()
                    .find(|q| q.ones_iter().filter(|&c| b.get(c)).count() % 2 == 1)
                    .cloned()),
                // Otherwise a certificate needs the left null space: eliminate densely
                // when the puzzle is small enough.
                None => Err(Linear::dense(program, &Limits::default())
                    .ok()
                    .and_then(|dense| dense.solve(program, b).err().flatten())),
            },
        }
    }
}

/// The estimated memory (bytes) and work (word operations) of eliminating
/// `m` moves over `n` cells densely, refused past `max-memory` or `gf2-work`.
pub(crate) fn dense_cost(n: usize, m: usize, limits: &Limits) -> Result<(u128, u128)> {
    let bytes = gf2::matrix_bytes(m, n + m);
    let hint = "light chasing would need a rectangular board with one toggle stencil that \
                reaches one row back only at the cell directly beside";
    limits.check(
        "max-memory",
        format!("the memory to eliminate {m} moves over {n} cells (estimated)"),
        bytes,
        format!("dense elimination needs moves x (cells + moves) bits; {hint}"),
    )?;
    // Four Russians: each of n/8 column blocks touches every row once.
    let work = m as u128 * (n + m).div_ceil(64) as u128 * n.div_ceil(8) as u128;
    limits.check(
        "gf2-work",
        format!("the work to eliminate {m} moves over {n} cells (estimated word operations)"),
        work,
        format!("dense elimination grows with the cube of the cells; {hint}"),
    )?;
    Ok((bytes, work))
}

/// The fewest-presses member of the coset `x + span(null)`, walking it in
/// Gray-code order (one XOR per candidate) when `null` is the whole basis of
/// the null space (`nullity` vectors) and the walk fits in `max_work` word
/// operations. Otherwise a walk would prove nothing, so a
/// cheap descent stands in for it: add any basis vector that lowers the
/// weight, until none does; the answer is then said not to be proven optimal.
pub fn fewest_presses(x: &Bits, null: &[Bits], nullity: usize, max_work: u64) -> (Bits, bool) {
    let words = x.words().len().max(1) as u64;
    let d = null.len();
    let complete = d == nullity && d < 64 && (1u64 << d).saturating_mul(words) <= max_work;
    if !complete {
        let mut best = x.clone();
        let mut weight = best.count_ones();
        let mut improved = true;
        let mut passes = 0;
        while improved && passes < 64 {
            improved = false;
            passes += 1;
            for q in null {
                let mut next = best.clone();
                next.xor_assign(q);
                let w = next.count_ones();
                if w < weight {
                    (best, weight, improved) = (next, w, true);
                }
            }
        }
        return (best, false);
    }
    (walk(x, null, |_, _| false), true)
}

/// The fewest-presses member of the coset `x + span(null)`, walked in
/// Gray-code order (one XOR per member); `tie(a, b)` says whether `a` beats
/// `b` among equally few presses.
fn walk(x: &Bits, null: &[Bits], tie: impl Fn(&Bits, &Bits) -> bool) -> Bits {
    let mut current = x.clone();
    let mut best = x.clone();
    let mut best_weight = x.count_ones();
    for i in 1u64..1u64 << null.len() {
        current.xor_assign(&null[i.trailing_zeros() as usize]);
        let w = current.count_ones();
        if w < best_weight || (w == best_weight && tie(&current, &best)) {
            best_weight = w;
            best.clone_from(&current);
        }
    }
    best
}

/// Whether `a` comes before `b` read as press lists from the first move: at
/// the first move where they differ, `a` does not press it.
pub fn lex_less(a: &Bits, b: &Bits) -> bool {
    for (x, y) in a.words().iter().zip(b.words()) {
        let d = x ^ y;
        if d != 0 {
            return x & (d & d.wrapping_neg()) == 0;
        }
    }
    false
}

/// The member of the coset `x + span(null)` with the fewest presses and,
/// among those, the first in press order ([`lex_less`]): the lexicographic
/// tie-break of judges such as POJ 3279. Exact: it walks the whole coset in
/// Gray-code order, so `null` must be the whole basis of the null space
/// (`nullity` vectors), and the walk is refused past the limit `coset-work`.
pub fn first_fewest_presses(
    x: &Bits,
    null: &[Bits],
    nullity: usize,
    limits: &crate::limits::Limits,
) -> crate::Result<Bits> {
    let d = null.len();
    let words = x.words().len().max(1) as u128;
    let work = 1u128
        .checked_shl(d as u32)
        .unwrap_or(u128::MAX)
        .saturating_mul(words);
    if d != nullity {
        return Err(crate::Error::Usage(format!(
            "the lexicographic tie-break needs the whole null space, but elimination kept \
             {d} of its {nullity} vectors"
        )));
    }
    limits.check(
        "coset-work",
        format!("the walk of 2^{d} equally good press sets for the lexicographic tie-break"),
        work,
        "the walk doubles with each vector of the null space",
    )?;
    Ok(walk(x, null, lex_less))
}

fn bits_from_words(len: usize, words: &[u64]) -> Bits {
    let mut bits = Bits::zeros(len);
    for i in gf2::ones(words).filter(|&i| i < len) {
        bits.set(i, true);
    }
    bits
}
