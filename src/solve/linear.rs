//! The gf2 solver: toggle-only puzzles as linear algebra over GF(2), by light chasing or dense elimination.
//!
//! A linear puzzle is `A x = b`: column `j` of `A` is the set of cells move
//! `j` flips, `x` is a press set, and `b` is the board XOR the target. Two
//! engines build the same facts (a particular solution, the null space, and a
//! certificate when there is no solution):
//!
//! - **light chasing**, for rectangular grids where pressing a cell affects
//!   the row before it (in chase order) only at the cell directly beside it:
//!   the presses of each row are forced by the row before, so every cell is
//!   an affine function of the first row's presses, and only a `cols x cols`
//!   system remains;
//! - **dense elimination** of `[Aᵀ | I]` ([`crate::gf2::Solver`]) otherwise.
//!
//! The fewest presses come from the solution coset `x + null(A)`, walked in
//! Gray-code order so that each candidate costs one XOR.

use rayon::prelude::*;

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::gf2::{self, Solver};
use crate::program::Program;
use crate::solve::Limits;

/// A proof that a target cannot be reached: a set of cells `Q` such that every
/// move flips an even number of cells of `Q`, while the board and the target
/// differ on an odd number of cells of `Q`. Moves preserve the parity of the
/// pieces on `Q`, so no sequence of them joins the board to the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The target this certificate rules out.
    pub target: Bits,
    /// The cells of `Q`.
    pub cells: Bits,
}

impl Certificate {
    /// Checks the certificate against its definition: every move flips an
    /// even number of its cells, and `start` differs from the target on an
    /// odd number of them. Returns the first failure in words.
    pub fn check(&self, program: &Program, start: &Bits) -> std::result::Result<(), String> {
        for (i, m) in program.moves().iter().enumerate() {
            let hits = m.flip.iter().filter(|c| self.cells.get(c.0)).count();
            if hits % 2 == 1 {
                return Err(format!("move {i} flips {hits} cells of the certificate"));
            }
        }
        let mut diff = start.clone();
        diff.xor_assign(&self.target);
        let odd = diff.ones_iter().filter(|&c| self.cells.get(c)).count();
        if odd % 2 == 0 {
            return Err(format!(
                "board and target differ on {odd} cells of the certificate, an even number"
            ));
        }
        Ok(())
    }
}

/// How a linear puzzle is being solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
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
    engine: Engine,
}

#[derive(Clone, Debug)]
enum Engine {
    Dense(Solver),
    Chase(Box<Chase>),
}

/// Refuses a program with guarded moves: the gf2 solver would answer it wrongly.
pub fn require_linear(program: &Program) -> Result<()> {
    if let Some(i) = program.moves().iter().position(|m| !m.is_unguarded()) {
        return Err(Error::Usage(format!(
            "the gf2 solver needs every move to be an unconditional toggle, but move {i} has a \
             guard (it is a jump or a guarded toggle): use --solver bfs"
        )));
    }
    Ok(())
}

impl Linear {
    /// Eliminates a linear program: by light chasing where it applies,
    /// otherwise densely (refused past `limits.gf2_memory`).
    pub fn new(program: &Program, limits: &Limits) -> Result<Linear> {
        require_linear(program)?;
        match Linear::chase(program) {
            Some(linear) => Ok(linear),
            None => Linear::dense(program, limits),
        }
    }

    /// Dense elimination of `[Aᵀ | I]`, whatever the board.
    pub fn dense(program: &Program, limits: &Limits) -> Result<Linear> {
        require_linear(program)?;
        let (n, m) = (program.cells(), program.moves().len());
        let bytes = gf2::matrix_bytes(m, n + m);
        if bytes > limits.gf2_memory as u128 {
            return Err(Error::Limit {
                what: format!("the memory to eliminate {m} moves over {n} cells (estimated)"),
                name: "gf2-memory",
                value: bytes,
                limit: limits.gf2_memory as u128,
                hint: "dense elimination needs moves x (cells + moves) bits; light chasing \
                       would need a rectangular board whose toggles reach one row ahead only \
                       at the cell directly beside"
                    .into(),
            });
        }
        // Four Russians: each of n/8 column blocks touches every row once.
        let work = m as u128 * (n + m).div_ceil(64) as u128 * n.div_ceil(8) as u128;
        if work > limits.gf2_work as u128 {
            return Err(Error::Limit {
                what: format!(
                    "the work to eliminate {m} moves over {n} cells (estimated word operations)"
                ),
                name: "gf2-work",
                value: work,
                limit: limits.gf2_work as u128,
                hint: "dense elimination grows with the cube of the cells; light chasing would \
                       need a rectangular board whose toggles reach one row ahead only at the \
                       cell directly beside"
                    .into(),
            });
        }
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
            engine: Engine::Dense(solver),
        })
    }

    /// Light chasing, when the program's moves allow it.
    pub fn chase(program: &Program) -> Option<Linear> {
        let chase = Chase::new(program)?;
        let null: Vec<Bits> = chase
            .system
            .null_space()
            .iter()
            .map(|z| chase.run(&Bits::zeros(program.cells()), z).0)
            .collect();
        Some(Linear {
            moves: program.moves().len(),
            rank: program.cells() - null.len(),
            null,
            engine: Engine::Chase(Box::new(chase)),
        })
    }

    /// Which engine eliminated the puzzle.
    pub fn method(&self) -> Method {
        match self.engine {
            Engine::Dense(_) => Method::Dense,
            Engine::Chase(_) => Method::Chase,
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

    /// A basis of the null space (the quiet patterns), as press sets over moves.
    pub fn null_space(&self) -> &[Bits] {
        &self.null
    }

    /// A press set whose flips XOR to `b`; or, when none exists, the cells of
    /// a certificate where one can be given (`None` when the move matrix is
    /// not symmetric and too large to eliminate densely).
    pub fn solve(&self, program: &Program, b: &Bits) -> std::result::Result<Bits, Option<Bits>> {
        match &self.engine {
            Engine::Dense(solver) => match solver.solve(b.words()) {
                Ok(x) => Ok(bits_from_words(self.moves, &x)),
                Err(y) => Err(Some(bits_from_words(program.cells(), &y))),
            },
            Engine::Chase(chase) => {
                let (_, residual) = chase.run(b, &[]);
                match chase.system.solve(residual.words()) {
                    Ok(first) => {
                        let (press, residual) = chase.run(b, &first);
                        debug_assert_eq!(residual.count_ones(), 0);
                        Ok(press)
                    }
                    Err(_) if chase.symmetric => {
                        // A symmetric matrix: its left null space is the null space, the
                        // quiet patterns; one of them has odd parity on b.
                        Err(self
                            .null
                            .iter()
                            .map(|q| chase.cells_of(q))
                            .find(|q| q.ones_iter().filter(|&c| b.get(c)).count() % 2 == 1))
                    }
                    Err(_) => Err(None),
                }
            }
        }
    }
}

/// The fewest-presses member of the coset `x + span(null)`, walking it in
/// Gray-code order (one XOR per candidate). Past `max_work` word operations
/// it walks only the span of the first vectors that fit, and says the answer
/// is not proven optimal.
pub fn fewest_presses(x: &Bits, null: &[Bits], max_work: u64) -> (Bits, bool) {
    let words = x.words().len().max(1) as u64;
    let mut d = null.len();
    while d > 0 && (1u64 << d.min(63)).saturating_mul(words) > max_work {
        d -= 1;
    }
    let complete = d == null.len();
    let mut current = x.clone();
    let mut best = x.clone();
    let mut best_weight = x.count_ones();
    for i in 1u64..1u64 << d {
        current.xor_assign(&null[i.trailing_zeros() as usize]);
        let w = current.count_ones();
        if w < best_weight {
            best_weight = w;
            best = current.clone();
        }
    }
    (best, complete)
}

fn bits_from_words(len: usize, words: &[u64]) -> Bits {
    let mut bits = Bits::zeros(len);
    for i in gf2::ones(words).filter(|&i| i < len) {
        bits.set(i, true);
    }
    bits
}

/// Light chasing on a rectangular grid with one toggle per cell.
#[derive(Clone, Debug)]
struct Chase {
    rows: usize,
    cols: usize,
    /// Whether chase order runs from the bottom row up.
    upward: bool,
    /// The move pressed at each cell.
    move_at: Vec<usize>,
    /// The cell pressed by each move.
    cell_of: Vec<usize>,
    /// Per move, the cells it flips as (rows ahead in chase order, column).
    flips: Vec<Vec<(isize, usize)>>,
    /// How many rows ahead of the pressed row a press reaches, at most.
    reach: usize,
    /// Whether move at a flips b exactly when move at b flips a.
    symmetric: bool,
    /// The last row's residual as a function of the first row's presses.
    system: Solver,
}

/// Whether light chasing applies: a full rectangle, exactly one unguarded
/// toggle pressed at each cell, and each press reaching the row before it (in
/// one of the two vertical chase orders) only at the cell directly beside it.
pub fn chase_applies(program: &Program) -> bool {
    Chase::layout(program).is_some()
}

/// `(move at each cell, cell of each move, upward)` when chasing applies.
type Layout = (Vec<usize>, Vec<usize>, bool);

impl Chase {
    fn layout(program: &Program) -> Option<Layout> {
        let [rows, cols] = program.grid()?;
        let n = program.cells();
        let mut move_at = vec![usize::MAX; n];
        let mut cell_of = Vec::with_capacity(n);
        for (i, m) in program.moves().iter().enumerate() {
            let &[cell] = m.cells.as_slice() else {
                return None;
            };
            if !m.is_unguarded() || move_at[cell.0] != usize::MAX {
                return None;
            }
            move_at[cell.0] = i;
            cell_of.push(cell.0);
        }
        if move_at.contains(&usize::MAX) {
            return None;
        }
        let upward = if Chase::fits(program, rows, cols, false) {
            false
        } else if Chase::fits(program, rows, cols, true) {
            true
        } else {
            return None;
        };
        Some((move_at, cell_of, upward))
    }

    fn new(program: &Program) -> Option<Chase> {
        let (move_at, cell_of, upward) = Chase::layout(program)?;
        let [rows, cols] = program.grid()?;
        let order = |r: usize| if upward { rows - 1 - r } else { r };
        let flips: Vec<Vec<(isize, usize)>> = program
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let t = order(cell_of[i] / cols) as isize;
                m.flip
                    .iter()
                    .map(|f| (order(f.0 / cols) as isize - t, f.0 % cols))
                    .collect()
            })
            .collect();
        let reach = flips
            .iter()
            .flatten()
            .map(|&(dt, _)| dt.max(0) as usize)
            .max()
            .unwrap_or(0);
        let symmetric = program.moves().iter().enumerate().all(|(i, m)| {
            m.flip.iter().all(|f| {
                program.moves()[move_at[f.0]]
                    .flip
                    .binary_search(&crate::CellId(cell_of[i]))
                    .is_ok()
            })
        });
        let mut chase = Chase {
            rows,
            cols,
            upward,
            move_at,
            cell_of,
            flips,
            reach,
            symmetric,
            system: Solver::new(0, &[]),
        };
        chase.system = chase.first_row_system();
        Some(chase)
    }

    /// Whether every press reaches the row before it (in chase order) only at
    /// the cell directly beside, and nothing further back.
    fn fits(program: &Program, rows: usize, cols: usize, upward: bool) -> bool {
        let order = |r: usize| if upward { rows - 1 - r } else { r };
        program.moves().iter().all(|m| {
            let (r, c) = (m.cells[0].0 / cols, m.cells[0].0 % cols);
            let t = order(r);
            let mut beside = false;
            for f in &m.flip {
                let (tf, cf) = (order(f.0 / cols), f.0 % cols);
                if tf + 1 < t || (tf + 1 == t && cf != c) {
                    return false;
                }
                beside |= tf + 1 == t && cf == c;
            }
            t == 0 || beside
        })
    }

    fn cell(&self, t: usize, x: usize) -> usize {
        let r = if self.upward { self.rows - 1 - t } else { t };
        r * self.cols + x
    }

    /// The cells pressed by a press set over moves.
    fn cells_of(&self, press: &Bits) -> Bits {
        let mut cells = Bits::zeros(press.len());
        for m in press.ones_iter() {
            cells.set(self.cell_of[m], true);
        }
        cells
    }

    /// The residual of the last row, linear in the first row's presses: the
    /// symbolic chase, one bit per first-row press, in blocks of 512 presses
    /// run on all cores.
    fn first_row_system(&self) -> Solver {
        const BLOCK: usize = 8; // words of variables per block
        let words = self.cols.div_ceil(64);
        let blocks: Vec<(usize, Vec<u64>)> = (0..words)
            .step_by(BLOCK)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|w0| {
                let wb = BLOCK.min(words - w0);
                (w0, self.symbolic(w0, wb))
            })
            .collect();
        // Column j of the system: the last-row cells whose residual has bit j.
        let mut columns = vec![Vec::new(); self.cols];
        for (w0, residual) in blocks {
            let wb = BLOCK.min(words - w0);
            for x in 0..self.cols {
                for j in gf2::ones(&residual[x * wb..(x + 1) * wb]) {
                    columns[w0 * 64 + j].push(x);
                }
            }
        }
        Solver::new(self.cols, &columns)
    }

    /// The symbolic chase for variables `64*w0 ..` over `wb` words: returns
    /// the last row's residual vectors, `cols x wb` words.
    fn symbolic(&self, w0: usize, wb: usize) -> Vec<u64> {
        let (rows, cols) = (self.rows, self.cols);
        let ring = self.reach + 2;
        let mut state = vec![0u64; ring * cols * wb];
        let mut press = vec![0u64; cols * wb];
        let slot = |t: usize| (t % ring) * cols * wb;
        for t in 0..rows {
            if t + self.reach < rows && t > 0 {
                let s = slot(t + self.reach);
                state[s..s + cols * wb].fill(0);
            }
            if t == 0 {
                for x in 0..cols {
                    let j = x as isize - (w0 * 64) as isize;
                    if (0..(wb * 64) as isize).contains(&j) {
                        let j = j as usize;
                        press[x * wb + j / 64] = 1 << (j % 64);
                    }
                }
            } else {
                let s = slot(t - 1);
                press.copy_from_slice(&state[s..s + cols * wb]);
            }
            for x in 0..cols {
                let p = &press[x * wb..(x + 1) * wb];
                if p.iter().all(|&w| w == 0) {
                    continue;
                }
                for &(dt, xf) in &self.flips[self.move_at[self.cell(t, x)]] {
                    let tf = (t as isize + dt) as usize;
                    let at = slot(tf) + xf * wb;
                    gf2::xor_into(&mut state[at..at + wb], p);
                }
            }
        }
        let s = slot(rows - 1);
        state[s..s + cols * wb].to_vec()
    }

    /// The concrete chase from board `b` with first-row presses `first`
    /// (words over `cols` bits; empty for none): the press set over moves,
    /// and the last row's residual over `cols` bits.
    fn run(&self, b: &Bits, first: &[u64]) -> (Bits, Bits) {
        let mut state = b.clone();
        let mut press = Bits::zeros(self.move_at.len());
        for t in 0..self.rows {
            for x in 0..self.cols {
                let pressed = if t == 0 {
                    first.get(x / 64).is_some_and(|w| w >> (x % 64) & 1 == 1)
                } else {
                    state.get(self.cell(t - 1, x))
                };
                if pressed {
                    let m = self.move_at[self.cell(t, x)];
                    press.set(m, true);
                    for &(dt, xf) in &self.flips[m] {
                        state.toggle(self.cell((t as isize + dt) as usize, xf));
                    }
                }
            }
        }
        let mut residual = Bits::zeros(self.cols);
        for x in 0..self.cols {
            residual.set(x, state.get(self.cell(self.rows - 1, x)));
        }
        (press, residual)
    }
}
