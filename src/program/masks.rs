//! Word masks: a program of at most 64 cells (128 for the engines that take two words) with each move's guard and flip as one word.

use crate::error::Result;
use crate::limits::{SEARCH_CELLS, WIDE_SEARCH_CELLS};
use crate::program::Program;
use crate::word::Word;

/// A program's moves as single-word masks, for the search solvers.
#[derive(Clone, Debug)]
pub(crate) struct Masks<W: Word = u64> {
    pub need_on: Vec<W>,
    pub need_off: Vec<W>,
    pub flip: Vec<W>,
}

impl Masks {
    /// The masks of `program`, or the limit error when it has more than 64 cells.
    pub fn new(program: &Program) -> Result<Masks> {
        require_cells(program.cells())?;
        Ok(Masks::of(program))
    }
}

impl<W: Word> Masks<W> {
    /// The masks of `program` in words of `W`, or the limit error when its
    /// cells do not fit in one (the engines that take `u128` words name
    /// [`WIDE_SEARCH_CELLS`]).
    pub fn wide(program: &Program) -> Result<Masks<W>> {
        if W::BITS as usize <= SEARCH_CELLS {
            require_cells(program.cells())?;
        } else {
            require_wide_cells(program.cells())?;
        }
        Ok(Masks::of(program))
    }

    /// The masks of a program whose cells fit in `W`.
    fn of(program: &Program) -> Masks<W> {
        let word = |cells: &[crate::CellId]| cells.iter().fold(W::ZERO, |w, c| w | W::bit(c.0));
        let moves = program.moves();
        Masks {
            need_on: moves.iter().map(|m| word(&m.need_on)).collect(),
            need_off: moves.iter().map(|m| word(&m.need_off)).collect(),
            flip: moves.iter().map(|m| word(&m.flip)).collect(),
        }
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.flip.len()
    }

    /// Whether move `m` is legal in state `s`.
    #[inline]
    pub fn legal(&self, s: W, m: usize) -> bool {
        s & self.need_on[m] == self.need_on[m] && s & self.need_off[m] == W::ZERO
    }
}

/// Refuses more than [`SEARCH_CELLS`] cells, with the limit error.
pub fn require_cells(cells: usize) -> Result<()> {
    crate::limits::require_cells(
        "search-cells",
        SEARCH_CELLS,
        cells,
        "the search engines keep a state in one 64-bit word; a larger puzzle needs toggles \
         only, which elimination answers at any size",
    )
}

/// Refuses more than [`WIDE_SEARCH_CELLS`] cells, with the limit error.
pub fn require_wide_cells(cells: usize) -> Result<()> {
    crate::limits::require_cells(
        "wide-search-cells",
        WIDE_SEARCH_CELLS,
        cells,
        "fewest moves and the jump search keep a state in one 128-bit word; a larger \
         puzzle needs toggles only, which elimination answers at any size",
    )
}
