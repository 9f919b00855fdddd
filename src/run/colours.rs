//! Running a puzzle of k colours: the planned elimination built once, boards solved with the fewest presses, facts and counts, all checked.

use crate::check::check_colour_outcome;
use crate::engines::{zk_chase::ChaseSolver, zk_dense::Dense};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::outcome::{ColourCertificate, ColourOutcome, ColourSolution};
use crate::plan::{ColourSolver, Plan, colour_plan};
use crate::program::colours::ColourProgram;
use crate::zk::lanes::MAX_LANE_MODULUS;
use crate::zk::{Order, prime_powers, walk};

/// A puzzle of k colours, eliminated by its planned engine: what solving,
/// `analyze` and `states` ask of it.
#[derive(Debug)]
pub struct Eliminated {
    program: ColourProgram,
    engine: Engine,
    /// Generators of the quiet patterns, each with its order, found the
    /// first time they are needed.
    kernel: std::sync::OnceLock<Result<Kernel>>,
}

/// Generators of the quiet patterns, each with its order: one residue a
/// byte where the modulus fits byte lanes, wide past them.
#[derive(Debug)]
enum Kernel {
    Bytes(Vec<(Vec<u8>, u64)>),
    Wide(Vec<(Vec<u64>, u64)>),
}

impl Kernel {
    /// The order of each generator.
    fn orders(&self) -> Vec<u64> {
        match self {
            Kernel::Bytes(g) => g.iter().map(|&(_, o)| o).collect(),
            Kernel::Wide(g) => g.iter().map(|&(_, o)| o).collect(),
        }
    }

    /// The generators with wide residues.
    fn wide(&self) -> std::borrow::Cow<'_, [(Vec<u64>, u64)]> {
        match self {
            Kernel::Bytes(g) => g
                .iter()
                .map(|(v, o)| (v.iter().map(|&r| u64::from(r)).collect(), *o))
                .collect(),
            Kernel::Wide(g) => g.as_slice().into(),
        }
    }
}

#[derive(Debug)]
enum Engine {
    Chase(ChaseSolver),
    Dense(Dense),
}

/// A generator of the image: a board as `(cell, amount)`, with its order.
type Generator = (Vec<(usize, u64)>, u64);

/// What `analyze` says of a puzzle of k colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourFacts {
    /// The modulus, k.
    pub modulus: u64,
    /// The number of presses (columns of the move matrix).
    pub presses: usize,
    /// The rank over GF(k), for prime k.
    pub rank: Option<usize>,
    /// Presses minus rank, for prime k.
    pub nullity: Option<usize>,
    /// How many boards the presses reach from one board: the solvable
    /// boards for each target.
    pub solvable: Order,
    /// How many press counts change nothing.
    pub quiet: Order,
    /// Generators of the quiet patterns (one count per press), each with its order.
    pub quiet_patterns: Vec<(Vec<u64>, u64)>,
}

impl Eliminated {
    /// Eliminates `program` with the engine `plan` names.
    pub fn new(program: &ColourProgram, plan: &Plan<ColourSolver>) -> Result<Eliminated> {
        let k = program.modulus();
        let engine = match plan.engine {
            ColourSolver::Chase => {
                let stencil = program.stencil().ok_or_else(|| {
                    Error::Internal("a chase was planned for a puzzle with no stencil".into())
                })?;
                Engine::Chase(ChaseSolver::new(stencil, k).ok_or_else(|| {
                    Error::Internal("a chase was planned for a stencil it cannot chase".into())
                })?)
            }
            ColourSolver::Dense => {
                let a = program.matrix().ok_or_else(|| {
                    Error::Internal("dense elimination was planned on unlisted moves".into())
                })?;
                Engine::Dense(Dense::new(k, a, program.move_count())?)
            }
        };
        Ok(Eliminated {
            program: program.clone(),
            engine,
            kernel: std::sync::OnceLock::new(),
        })
    }

    /// Generators of the quiet patterns, each with its order.
    fn kernel(&self) -> Result<&Kernel> {
        let kernel = self.kernel.get_or_init(|| match &self.engine {
            Engine::Chase(chase) => chase.kernel().map(Kernel::Bytes),
            // Byte lanes wherever the modulus fits them, whichever engine.
            Engine::Dense(dense) if self.program.modulus() <= MAX_LANE_MODULUS => {
                Ok(Kernel::Bytes(
                    dense
                        .kernel()
                        .into_iter()
                        .map(|(g, o)| (g.into_iter().map(|r| r as u8).collect(), o))
                        .collect(),
                ))
            }
            Engine::Dense(dense) => Ok(Kernel::Wide(dense.kernel())),
        });
        match kernel {
            Ok(k) => Ok(k),
            Err(e) => Err(Error::Internal(format!("the quiet patterns: {e}"))),
        }
    }

    /// The program eliminated.
    pub fn program(&self) -> &ColourProgram {
        &self.program
    }

    /// Presses `x` with `A x = d`, or a certificate.
    fn particular(&self, d: &[u64]) -> Result<std::result::Result<Vec<u64>, Vec<u64>>> {
        match &self.engine {
            Engine::Chase(chase) => chase.solve(d),
            Engine::Dense(dense) => Ok(dense.solve(d)),
        }
    }

    /// How many press counts change nothing.
    pub fn quiet(&self) -> Result<Order> {
        let mut exponents: Vec<(u64, u64)> = Vec::new();
        for order in self.kernel()?.orders() {
            for (p, e) in prime_powers(order) {
                match exponents.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, total)) => *total += u64::from(e),
                    None => exponents.push((p, u64::from(e))),
                }
            }
        }
        exponents.sort_unstable();
        Ok(Order(exponents))
    }

    /// How many boards the presses reach from one board: `k^presses / quiet`.
    pub fn solvable(&self) -> Result<Order> {
        let presses = self.program.move_count() as u64;
        let quiet = self.quiet()?;
        let mut out: Vec<(u64, u64)> = prime_powers(self.program.modulus())
            .into_iter()
            .map(|(p, e)| {
                let minus = quiet.0.iter().find(|(q, _)| *q == p).map_or(0, |&(_, x)| x);
                (p, u64::from(e) * presses - minus)
            })
            .filter(|&(_, e)| e > 0)
            .collect();
        out.sort_unstable();
        Ok(Order(out))
    }

    /// How many boards can reach a target: the image's size for each
    /// distinct coset of targets (two targets share one when the presses
    /// take one to the other).
    pub fn solvable_boards(&self) -> Result<Order> {
        let classes = self.target_classes()?;
        let mut order = self.solvable()?;
        for (p, e) in prime_powers(classes.len() as u64) {
            match order.0.iter_mut().find(|(q, _)| *q == p) {
                Some((_, x)) => *x += u64::from(e),
                None => order.0.push((p, u64::from(e))),
            }
        }
        order.0.sort_unstable();
        Ok(order)
    }

    /// One target of each class: two targets share a class when the
    /// presses take one to the other.
    fn target_classes(&self) -> Result<Vec<&[u64]>> {
        let k = self.program.modulus();
        let mut classes: Vec<&[u64]> = Vec::new();
        for (_, t) in self.program.targets() {
            let mut known = false;
            for c in &classes {
                let d: Vec<u64> = t.iter().zip(*c).map(|(&a, &b)| (a + k - b) % k).collect();
                if self.particular(&d)?.is_ok() {
                    known = true;
                    break;
                }
            }
            if !known {
                classes.push(t);
            }
        }
        Ok(classes)
    }

    /// Generators of the image, each a board as `(cell, amount)` with its
    /// order. Over the ring (dense elimination of a composite modulus), the
    /// boards of the Smith form's press counts; for a prime modulus, the
    /// columns of `A` outside a pivot set of the quiet patterns
    /// (independent, and as many as the rank).
    fn image_basis(&self) -> Result<Vec<Generator>> {
        let k = self.program.modulus();
        if let Engine::Dense(dense) = &self.engine
            && let Some(presses) = dense.image_presses()
        {
            let clear = vec![0u64; self.program.cells()];
            return Ok(presses
                .into_iter()
                .map(|(w, order)| {
                    let board = self.program.apply(&clear, &w);
                    let sparse = board
                        .into_iter()
                        .enumerate()
                        .filter(|&(_, v)| v != 0)
                        .collect();
                    (sparse, order)
                })
                .collect());
        }
        let presses = self.program.move_count();
        let Kernel::Bytes(kernel) = self.kernel()? else {
            return Err(Error::Internal(
                "a modulus within byte lanes gave wide quiet patterns".into(),
            ));
        };
        let mut rows: Vec<Vec<u8>> = kernel.iter().map(|(g, _)| g.clone()).collect();
        let mut free = vec![true; presses];
        for j in crate::zk::field::rref(&mut rows, presses, k as u8) {
            free[j] = false;
        }
        Ok((0..presses)
            .filter(|&j| free[j])
            .map(|j| (self.program.press_adds(j), k))
            .collect())
    }

    /// Visits every board that can reach a target once, holding one board:
    /// for each class of targets, the target plus every combination of the
    /// image's generators, each below its order, walked as a mixed-radix
    /// counter. For a composite modulus that was chased, the values off the
    /// chase's last row are walked, and on that row the image of its small
    /// system. `visit` may stop the walk with an error.
    pub fn list_boards(&self, mut visit: impl FnMut(&[u64]) -> Result<()>) -> Result<()> {
        let k = self.program.modulus();
        if let Engine::Chase(chase) = &self.engine
            && prime_powers(k) != [(k, 1)]
        {
            return self.list_chased(chase, visit);
        }
        let basis = self.image_basis()?;
        for class in self.target_classes()? {
            let mut board = class.to_vec();
            let mut digits = vec![0u64; basis.len()];
            visit(&board)?;
            // Raise digit i; the digits below it go from their order - 1
            // back to 0, which is their generator added once more.
            while let Some(i) = (0..basis.len()).find(|&i| digits[i] + 1 < basis[i].1) {
                for (j, (column, _)) in basis.iter().enumerate().take(i + 1) {
                    digits[j] = if j == i { digits[j] + 1 } else { 0 };
                    for &(cell, a) in column {
                        board[cell] = (board[cell] + a) % k;
                    }
                }
                visit(&board)?;
            }
        }
        Ok(())
    }

    /// [`Eliminated::list_boards`] for a chased composite modulus: what the
    /// presses must add, `d = target − board`, is any values on the cells
    /// off the chase's last row, and on that row `−last_values` of them plus
    /// any member of the small system's image. One chase per choice off the
    /// last row, then the image walked on the row.
    fn list_chased(
        &self,
        chase: &ChaseSolver,
        mut visit: impl FnMut(&[u64]) -> Result<()>,
    ) -> Result<()> {
        let k = self.program.modulus();
        let n = self.program.cells();
        let (last, image) = chase.last_row_and_image()?;
        let mut on_last = vec![false; n];
        for &c in &last {
            on_last[c] = true;
        }
        let rest: Vec<usize> = (0..n).filter(|&c| !on_last[c]).collect();
        let mut board = vec![0u64; n];
        for class in self.target_classes()? {
            let mut d = vec![0u64; n];
            let mut digits = vec![0u64; rest.len()];
            loop {
                for &c in &last {
                    d[c] = 0;
                }
                let base = chase.last_values(&d);
                let mut row: Vec<u64> = base.iter().map(|&v| (k - v) % k).collect();
                let mut inner = vec![0u64; image.len()];
                let mut emit = |row: &[u64], d: &mut Vec<u64>| {
                    for (&c, &v) in last.iter().zip(row) {
                        d[c] = v;
                    }
                    for ((b, &t), &x) in board.iter_mut().zip(class).zip(d.iter()) {
                        *b = (t + k - x) % k;
                    }
                    visit(&board)
                };
                emit(&row, &mut d)?;
                while let Some(i) = (0..image.len()).find(|&i| inner[i] + 1 < image[i].1) {
                    for (j, (u, _)) in image.iter().enumerate().take(i + 1) {
                        inner[j] = if j == i { inner[j] + 1 } else { 0 };
                        for (v, &a) in row.iter_mut().zip(u) {
                            *v = (*v + a) % k;
                        }
                    }
                    emit(&row, &mut d)?;
                }
                let Some(i) = digits.iter().position(|&x| x + 1 < k) else {
                    break;
                };
                for (j, &cell) in rest.iter().enumerate().take(i + 1) {
                    digits[j] = if j == i { digits[j] + 1 } else { 0 };
                    d[cell] = digits[j];
                }
            }
        }
        Ok(())
    }

    /// The facts `analyze` prints.
    pub fn facts(&self) -> Result<ColourFacts> {
        let k = self.program.modulus();
        let presses = self.program.move_count();
        let prime = prime_powers(k) == [(k, 1)];
        let kernel = self.kernel()?;
        let nullity = prime.then_some(kernel.orders().len());
        Ok(ColourFacts {
            modulus: k,
            presses,
            rank: nullity.map(|n| presses - n),
            nullity,
            solvable: self.solvable()?,
            quiet: self.quiet()?,
            quiet_patterns: kernel.wide().into_owned(),
        })
    }

    /// Solves `board`: the fewest presses to any target (pressing a button
    /// t times counts t), found by walking each target's solution coset
    /// whole (past `coset-work`, by a descent, and marked not optimal); or
    /// a certificate for every target. Checked before it is returned.
    pub fn solve(&self, board: &[u64], limits: &Limits) -> Result<ColourOutcome> {
        let program = &self.program;
        let k = program.modulus();
        let mut best: Option<(u128, usize, Vec<u64>)> = None;
        let mut certificates = Vec::new();
        let mut optimal = true;
        for (t, (_, target)) in program.targets().iter().enumerate() {
            let d: Vec<u64> = target
                .iter()
                .zip(board)
                .map(|(&t, &b)| (t + k - b % k) % k)
                .collect();
            match self.particular(&d)? {
                Err(weights) => certificates.push(ColourCertificate { target: t, weights }),
                Ok(x) => {
                    let (x, exact) = self.fewest(x, limits)?;
                    optimal &= exact;
                    let cost = x.iter().map(|&v| u128::from(v)).sum::<u128>();
                    if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                        best = Some((cost, t, x));
                    }
                }
            }
        }
        let outcome = match best {
            Some((_, target, x)) => ColourOutcome::Solved(ColourSolution {
                end: program.apply(board, &x),
                presses: x
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| v != 0)
                    .map(|(i, &v)| (i, v))
                    .collect(),
                target,
                optimal,
            }),
            None => ColourOutcome::Unsolvable(certificates),
        };
        check_colour_outcome(program, board, &outcome)
            .map_err(|e| Error::Internal(format!("an answer failed its check: {e}")))?;
        Ok(outcome)
    }

    /// The member of `x`'s solution coset with the fewest presses, and
    /// whether it is proven so: the whole coset is walked when its size
    /// times the presses is within `coset-work`; past it, a descent (add
    /// a multiple of a quiet pattern while that lowers the count) gives the
    /// answer, not proven the fewest.
    fn fewest(&self, x: Vec<u64>, limits: &Limits) -> Result<(Vec<u64>, bool)> {
        let kernel = self.kernel()?;
        let orders = kernel.orders();
        if orders.is_empty() {
            return Ok((x, true));
        }
        let k = self.program.modulus();
        let cost = |x: &[u64]| x.iter().map(|&t| u128::from(t)).sum::<u128>();
        let size = orders
            .iter()
            .try_fold(1u128, |n, &order| n.checked_mul(u128::from(order)));
        let work = size.map_or(u128::MAX, |n| n.saturating_mul(x.len().max(1) as u128));
        if work > u128::from(limits.coset_work) {
            let x = match kernel {
                Kernel::Bytes(g) => descend(&x, g, k as u8),
                Kernel::Wide(g) => descend_wide(x, g, k),
            };
            return Ok((x, false));
        }
        let mut best_cost = cost(&x);
        let mut best = x.clone();
        walk(&x, &kernel.wide(), k, |member| {
            let c = cost(member);
            if c < best_cost {
                (best, best_cost) = (member.to_vec(), c);
            }
        });
        Ok((best, true))
    }
}

/// Passes over the quiet patterns a descent makes at most.
const DESCENT_PASSES: usize = 64;

/// Lowers the press count of `x` by adding multiples of the quiet patterns
/// while one lowers it (at most [`DESCENT_PASSES`] passes over them): a
/// local minimum, not proven the fewest. One residue a byte: a candidate
/// is priced in one pass that writes nothing.
fn descend(x: &[u64], kernel: &[(Vec<u8>, u64)], k: u8) -> Vec<u64> {
    use crate::zk::lanes;
    let mut now: Vec<u8> = x.iter().map(|&v| v as u8).collect();
    let mut best: u64 = now.iter().map(|&b| u64::from(b)).sum();
    let mut multiple = Vec::with_capacity(now.len());
    for _ in 0..DESCENT_PASSES {
        let mut improved = false;
        for (g, order) in kernel {
            // c · g for c = 1, 2, …: one more g each time.
            multiple.clear();
            multiple.extend_from_slice(g);
            for _ in 1..*order {
                let c = lanes::sum_of_sum(&now, &multiple, k);
                if c < best {
                    lanes::add(&mut now, &multiple, k);
                    best = c;
                    improved = true;
                }
                lanes::add(&mut multiple, g, k);
            }
        }
        if !improved {
            break;
        }
    }
    now.into_iter().map(u64::from).collect()
}

/// [`descend`] for a modulus past byte lanes.
fn descend_wide(mut x: Vec<u64>, kernel: &[(Vec<u64>, u64)], k: u64) -> Vec<u64> {
    let mut now = x.iter().map(|&t| u128::from(t)).sum::<u128>();
    for _ in 0..DESCENT_PASSES {
        let mut improved = false;
        for (g, order) in kernel {
            for c in 1..*order {
                // Residues below k ≤ 2^32: c · b fits 64 bits.
                let add = |a: u64, b: u64| (a + c * b % k) % k;
                let moved = x
                    .iter()
                    .zip(g)
                    .map(|(&a, &b)| u128::from(add(a, b)))
                    .sum::<u128>();
                if moved < now {
                    for (a, &b) in x.iter_mut().zip(g) {
                        *a = add(*a, b);
                    }
                    now = moved;
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
    x
}

/// Solves one board of a puzzle of k colours, planned within `limits`.
///
/// ```
/// let puzzle = pegflip::Puzzle::from_file("puzzles/lights-out-2000.toml")?;
/// let program = pegflip::program::colours::ColourProgram::compile(&puzzle, &puzzle.limits)?;
/// let board = puzzle.read_colours("r----/-----/-----/-----/-----", "<board>")?.digits;
/// match pegflip::solve_colours(&program, &board, &puzzle.limits)? {
///     pegflip::ColourOutcome::Solved(s) => assert!(s.optimal),
///     pegflip::ColourOutcome::Unsolvable(certificates) => assert_eq!(certificates.len(), 1),
/// }
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn solve_colours(
    program: &ColourProgram,
    board: &[u64],
    limits: &Limits,
) -> Result<ColourOutcome> {
    let plan = colour_plan(program, limits)?;
    Eliminated::new(program, &plan)?.solve(board, limits)
}

/// Visits every board of a puzzle of k colours that can reach a target,
/// with its distance (the fewest presses), nearest first: a breadth-first
/// search from the targets. Refused before it starts when the boards are
/// more than `max-states`, or their memory more than `max-memory`.
pub fn colour_layers(
    program: &ColourProgram,
    limits: &Limits,
    visit: impl FnMut(u32, &[u64]) -> Result<()>,
) -> Result<()> {
    let plan = colour_plan(program, limits)?;
    let total = Eliminated::new(program, &plan)?.solvable_boards()?;
    let count = total.to_u128().unwrap_or(u128::MAX);
    limits.check(
        "max-states",
        format!("the boards that can reach the goal ({total}), each listed or counted by distance"),
        count,
        "count them with --count, which needs no listing",
    )?;
    if !program.is_listed() {
        return Err(Error::Usage(
            program
                .moves_refusal(limits)
                .unwrap_or_else(|| "the moves are not listed".into()),
        ));
    }
    let bytes = count.saturating_mul(2 * program.cells() as u128 + 64);
    limits.check(
        "max-memory",
        "the memory of the boards held by the breadth-first search (estimated)",
        bytes + crate::limits::PROCESS_BYTES,
        "raise --max-memory if the machine has room, or count with --count",
    )?;
    crate::engines::zk_layers::layers(program, visit)
}

/// The boards of k colours reachable from `start`, joined by the presses
/// between them (edge weights are press indices), the start first. Their
/// number is the image's size, known before the search starts: refused past
/// `graph-states`, or when the moves are not listed.
pub fn colour_state_graph(
    program: &ColourProgram,
    start: &[u64],
    limits: &Limits,
) -> Result<petgraph::graph::DiGraph<Vec<u64>, usize>> {
    let plan = colour_plan(program, limits)?;
    let reachable = Eliminated::new(program, &plan)?.solvable()?;
    limits.check(
        "graph-states",
        "the number of boards reachable from the start",
        reachable.to_u128().unwrap_or(u128::MAX),
        "a drawing of more boards would not be readable; `pegflip states --count` counts them",
    )?;
    if let Some(reason) = program.moves_refusal(limits) {
        return Err(Error::Usage(reason));
    }
    Ok(crate::engines::graph::colour_graph(program, start))
}
