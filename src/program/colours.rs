//! The compiled puzzle of k colours: each press as the amounts it adds to cells, modulo k.
//!
//! A press adds its amounts to the board modulo k, so pressing a button t
//! times adds t times its amounts, and the order of presses does not matter:
//! a board is solved by press counts `x` with `A x = target − board`
//! (mod k), column `j` of `A` being what press `j` adds. Any puzzle of
//! unguarded toggles compiles, a two-colour one too (k = 2), so the engines
//! for k colours can be checked against the GF(2) ones.

use std::sync::Arc;

use crate::board::{Board, CellId};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::puzzle::{GoalRule, Guard, MoveRule, Puzzle};

/// Where puzzles of more than two colours are answered, for the message
/// of a command that takes two colours only.
pub const WHERE_COLOURS_WORK: &str = "`solve`, `batch`, `verify`, `states`, `analyze`, `graph`, `check`, `list` and the page (`serve`) take puzzles of more colours";

/// One press: the cell pressed and what it adds to each cell it changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourMove {
    /// The pressed cell.
    pub cell: CellId,
    /// `(cell, amount)`, ascending by cell, each amount in `1..k`. A
    /// neighbourhood is a set: an offset that lands on a cell already in it
    /// (on a small torus) adds nothing, as on two colours.
    pub adds: Vec<(CellId, u64)>,
}

/// The stencil of a full rectangle (no wrap) pressed by one rule: each
/// offset with its amount, for light chasing modulo k.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourStencil {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// `(dr, dc, amount)`, distinct offsets, amounts in `1..k`.
    pub offsets: Vec<(isize, isize, u64)>,
}

#[derive(Debug)]
struct Inner {
    puzzle: Puzzle,
    k: u64,
    /// Whether the moves fit `move-entries`; they are listed on first use.
    listable: bool,
    moves: std::sync::OnceLock<Vec<ColourMove>>,
    targets: Vec<(String, Vec<u64>)>,
    stencil: Option<ColourStencil>,
}

/// A compiled puzzle of k colours. Immutable and cheap to clone.
#[derive(Clone, Debug)]
pub struct ColourProgram {
    inner: Arc<Inner>,
}

impl ColourProgram {
    /// Compiles a puzzle of unguarded toggles (of any number of colours)
    /// whose goal is a list of boards. Refused, naming what stands in the
    /// way, for guards, jumps, a fewest-pieces goal, and move lists past `move-entries`.
    ///
    /// ```
    /// let puzzle = pegflip::Puzzle::from_file("puzzles/lights-out-2000.toml")?;
    /// let program = pegflip::program::colours::ColourProgram::compile(&puzzle, &puzzle.limits)?;
    /// assert_eq!((program.modulus(), program.cells(), program.moves().len()), (3, 25, 25));
    /// # Ok::<(), pegflip::Error>(())
    /// ```
    pub fn compile(puzzle: &Puzzle, limits: &Limits) -> Result<ColourProgram> {
        let k = puzzle.colours() as u64;
        let refuse = |why: &str| {
            Err(Error::Usage(format!(
                "{} cannot be solved modulo {k}: {why}",
                puzzle.name
            )))
        };
        for rule in &puzzle.rules {
            match rule {
                MoveRule::Jump(_) => return refuse("it has jumps, which are not toggles"),
                MoveRule::Toggle { guard, .. }
                | MoveRule::Adjacent { guard, .. }
                | MoveRule::Press { guard, .. }
                    if *guard != Guard::Always =>
                {
                    return refuse("a guarded toggle is not a sum of presses");
                }
                _ => {}
            }
        }
        let n = puzzle.board.cells();
        let targets = match &puzzle.goal {
            GoalRule::Colours(targets) => targets.clone(),
            GoalRule::Targets(targets) => targets
                .iter()
                .map(|(words, bits)| {
                    (
                        words.clone(),
                        (0..n).map(|i| u64::from(bits.get(i))).collect(),
                    )
                })
                .collect(),
            GoalRule::FewestPieces => return refuse("its goal is the fewest pieces, not a board"),
        };
        let entries: u128 = puzzle
            .rules
            .iter()
            .map(|r| super::compile::entries(r, &puzzle.board))
            .sum();
        let stencil = stencil(puzzle);
        // A stencil's moves are only listed when they fit; chasing reads the stencil.
        let listable = limits.check(
            "move-entries",
            "an upper bound on the listed moves' size (the cells each move changes, summed)",
            entries,
            "use a smaller board, or toggles that change fewer cells",
        );
        let listable = match (listable, &stencil) {
            (Ok(()), _) => true,
            (Err(_), Some(_)) => false,
            (Err(e), None) => return Err(e),
        };
        Ok(ColourProgram {
            inner: Arc::new(Inner {
                puzzle: puzzle.clone(),
                k,
                listable,
                moves: std::sync::OnceLock::new(),
                targets,
                stencil,
            }),
        })
    }

    /// An upper bound on the listed moves' entries (the cells each changes, summed).
    pub fn entries(&self) -> u128 {
        self.puzzle()
            .rules
            .iter()
            .map(|r| super::compile::entries(r, self.board()))
            .sum()
    }

    /// Why the moves are not listed, when they are not: the `move-entries` error.
    pub fn moves_refusal(&self, limits: &Limits) -> Option<String> {
        if self.inner.listable {
            return None;
        }
        let entries = self.entries();
        limits
            .check(
                "move-entries",
                "an upper bound on the listed moves' size (the cells each move changes, summed)",
                entries,
                "use a smaller board, or toggles that change fewer cells",
            )
            .err()
            .map(|e| e.to_string())
    }

    /// The puzzle this program was compiled from.
    pub fn puzzle(&self) -> &Puzzle {
        &self.inner.puzzle
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.inner.puzzle.board
    }

    /// The modulus: the number of colours.
    pub fn modulus(&self) -> u64 {
        self.inner.k
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.inner.puzzle.board.cells()
    }

    /// The presses, in rule order (a toggle rule gives one per cell, so
    /// with a stencil press `i` presses cell `i`), listed the first time
    /// they are asked for; empty when they are past `move-entries` and a
    /// stencil stands in for them.
    pub fn moves(&self) -> &[ColourMove] {
        self.inner.moves.get_or_init(|| {
            if self.inner.listable {
                list_moves(&self.inner.puzzle)
            } else {
                Vec::new()
            }
        })
    }

    /// Whether the moves can be listed (within `move-entries`).
    pub fn is_listed(&self) -> bool {
        self.inner.listable
    }

    /// The number of presses, listed or not.
    pub fn move_count(&self) -> usize {
        match &self.inner.stencil {
            Some(_) => self.cells(),
            None => self.moves().len(),
        }
    }

    /// The goal's boards, each with the words it was given in.
    pub fn targets(&self) -> &[(String, Vec<u64>)] {
        &self.inner.targets
    }

    /// The grid stencil, when one rule presses every cell of a full
    /// rectangle that does not wrap; press `i` then presses cell `i`.
    pub fn stencil(&self) -> Option<&ColourStencil> {
        self.inner.stencil.as_ref()
    }

    /// The cell press `index` presses, listed or not.
    pub fn pressed_cell(&self, index: usize) -> Option<CellId> {
        match &self.inner.stencil {
            Some(_) => (index < self.cells()).then_some(CellId(index)),
            None => self.moves().get(index).map(|m| m.cell),
        }
    }

    /// What press `index` adds, `(cell, amount)` by cell, listed or not:
    /// column `index` of the move matrix.
    pub fn press_adds(&self, index: usize) -> Vec<(usize, u64)> {
        if let Some(s) = &self.inner.stencil {
            let (r, c) = ((index / s.cols) as isize, (index % s.cols) as isize);
            let mut adds: Vec<(usize, u64)> = s
                .offsets
                .iter()
                .filter_map(|&(dr, dc, a)| {
                    let (rr, cc) = (r + dr, c + dc);
                    ((0..s.rows as isize).contains(&rr) && (0..s.cols as isize).contains(&cc))
                        .then(|| (rr as usize * s.cols + cc as usize, a))
                })
                .collect();
            adds.sort_unstable();
            return adds;
        }
        self.moves()
            .get(index)
            .map(|m| m.adds.iter().map(|&(c, a)| (c.0, a)).collect())
            .unwrap_or_default()
    }

    /// Adds `times` presses of every press to `board`: `board + A x` (mod k).
    /// `presses` has one count per press.
    pub fn apply(&self, board: &[u64], presses: &[u64]) -> Vec<u64> {
        let k = self.inner.k;
        // Counts are mostly below k already: no division for them.
        let residue = |v: u64| if v < k { v } else { v % k };
        let mut out: Vec<u64> = board.iter().map(|&v| residue(v)).collect();
        if let Some(s) = &self.inner.stencil {
            // A row of presses at a time: each offset adds press row r,
            // shifted by its columns, to board row r + dr.
            let presses: Vec<u64> = presses.iter().map(|&t| residue(t)).collect();
            let cols = s.cols;
            for &(dr, dc, a) in &s.offsets {
                let shift = dc.unsigned_abs().min(cols);
                for (r, from) in presses.chunks_exact(cols).enumerate() {
                    let Some(rr) = r.checked_add_signed(dr).filter(|&rr| rr < s.rows) else {
                        continue;
                    };
                    let to = &mut out[rr * cols..][..cols];
                    let (to, from) = if dc >= 0 {
                        (&mut to[shift..], &from[..cols - shift])
                    } else {
                        (&mut to[..cols - shift], &from[shift..])
                    };
                    // Both below k: one subtraction reduces the sum.
                    let reduce = |v: u64| if v >= k { v - k } else { v };
                    if a == 1 {
                        for (o, &t) in to.iter_mut().zip(from) {
                            *o = reduce(*o + t);
                        }
                    } else {
                        for (o, &t) in to.iter_mut().zip(from) {
                            *o = reduce(*o + mul(a, t, k));
                        }
                    }
                }
            }
            return out;
        }
        for (m, &t) in self.moves().iter().zip(presses) {
            if t % k == 0 {
                continue;
            }
            for &(cell, a) in &m.adds {
                out[cell.0] = (out[cell.0] + mul(a, t % k, k)) % k;
            }
        }
        out
    }

    /// `y A` (mod k): for each press, the weighted sum of what it adds,
    /// weighted by `y` (one weight per cell). Zero for every press when `y`
    /// is a certificate's weights.
    pub fn weigh_presses(&self, y: &[u64]) -> Vec<u64> {
        let k = self.inner.k;
        let weigh = |adds: &mut dyn Iterator<Item = (usize, u64)>| {
            adds.fold(0u64, |s, (cell, a)| (s + mul(y[cell] % k, a, k)) % k)
        };
        if let Some(s) = &self.inner.stencil {
            let (rows, cols) = (s.rows as isize, s.cols as isize);
            return (0..self.cells())
                .map(|i| {
                    let (r, c) = ((i / s.cols) as isize, (i % s.cols) as isize);
                    weigh(&mut s.offsets.iter().filter_map(|&(dr, dc, a)| {
                        let (rr, cc) = (r + dr, c + dc);
                        ((0..rows).contains(&rr) && (0..cols).contains(&cc))
                            .then(|| ((rr * cols + cc) as usize, a))
                    }))
                })
                .collect();
        }
        self.moves()
            .iter()
            .map(|m| weigh(&mut m.adds.iter().map(|&(c, a)| (c.0, a))))
            .collect()
    }

    /// The move matrix, one row per cell and one column per press, for
    /// dense elimination; `None` when the moves are not listed.
    pub fn matrix(&self) -> Option<Vec<Vec<u64>>> {
        if !self.inner.listable {
            return None;
        }
        let mut a = vec![vec![0u64; self.moves().len()]; self.cells()];
        for (j, m) in self.moves().iter().enumerate() {
            for &(cell, amount) in &m.adds {
                a[cell.0][j] = amount;
            }
        }
        Some(a)
    }

    /// A board as text, rows joined by `/`.
    pub fn board_text(&self, digits: &[u64]) -> String {
        self.puzzle().colour_text(digits)
    }
}

/// `a · b mod k`, without overflow for any modulus up to 2^32.
pub(crate) fn mul(a: u64, b: u64, k: u64) -> u64 {
    // Both below k ≤ 2^32: the product fits 64 bits.
    (a % k) * (b % k) % k
}

/// Every press of `puzzle`, in rule order.
fn list_moves(puzzle: &Puzzle) -> Vec<ColourMove> {
    let board = &puzzle.board;
    let n = board.cells();
    let mut moves = Vec::new();
    let mut push = |cell: CellId, pattern: Vec<(CellId, u64)>| {
        let mut adds: Vec<(CellId, u64)> = Vec::with_capacity(pattern.len());
        for (c, a) in pattern {
            // A neighbourhood is a set: the first offset to land on a cell counts.
            if !adds.iter().any(|&(d, _)| d == c) {
                adds.push((c, a));
            }
        }
        adds.sort_unstable();
        moves.push(ColourMove { cell, adds });
    };
    for rule in &puzzle.rules {
        match rule {
            MoveRule::Toggle {
                offsets, amounts, ..
            } => {
                for cell in (0..n).map(CellId) {
                    let pattern = offsets
                        .iter()
                        .zip(amounts)
                        .filter_map(|(&d, &a)| Some((board.offset(cell, d)?, a)))
                        .collect();
                    push(cell, pattern);
                }
            }
            MoveRule::Adjacent {
                closed, amounts, ..
            } => {
                for cell in (0..n).map(CellId) {
                    let mut pattern: Vec<(CellId, u64)> = Vec::new();
                    if *closed {
                        pattern.push((cell, amounts[0]));
                    }
                    pattern.extend(board.adjacent(cell).into_iter().map(|c| (c, amounts[1])));
                    push(cell, pattern);
                }
            }
            MoveRule::Press {
                cell,
                flips,
                amounts,
                ..
            } => push(
                *cell,
                flips.iter().copied().zip(amounts.iter().copied()).collect(),
            ),
            MoveRule::Jump(_) => unreachable!("compile refuses jumps"),
        }
    }
    moves
}

/// The stencil of a puzzle whose one rule presses every cell of a full
/// square-lattice rectangle that does not wrap.
fn stencil(puzzle: &Puzzle) -> Option<ColourStencil> {
    let board = &puzzle.board;
    if !board.is_rectangular() || *board.lattice() != crate::board::Lattice::Square || board.wraps()
    {
        return None;
    }
    let offsets: Vec<(isize, isize, u64)> = match puzzle.rules.as_slice() {
        [
            MoveRule::Toggle {
                offsets, amounts, ..
            },
        ] => offsets
            .iter()
            .zip(amounts)
            .map(|(d, &a)| (d.dr as isize, d.dc as isize, a))
            .collect(),
        [
            MoveRule::Adjacent {
                closed, amounts, ..
            },
        ] => {
            let mut o: Vec<(isize, isize, u64)> = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .map(|(dr, dc)| (dr, dc, amounts[1]))
                .collect();
            if *closed {
                o.push((0, 0, amounts[0]));
            }
            o
        }
        _ => return None,
    };
    Some(ColourStencil {
        rows: board.rows(),
        cols: board.cols(),
        offsets,
    })
}
