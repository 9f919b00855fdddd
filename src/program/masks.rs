//! Word masks: a program of at most 64 cells with each move's guard and flip as one 64-bit word.

use crate::error::Result;
use crate::limits::SEARCH_CELLS;
use crate::program::Program;

/// A program's moves as single-word masks, for the search solvers.
#[derive(Clone, Debug)]
pub(crate) struct Masks {
    pub need_on: Vec<u64>,
    pub need_off: Vec<u64>,
    pub flip: Vec<u64>,
}

impl Masks {
    /// The masks of `program`, or the limit error when it has more than 64 cells.
    pub fn new(program: &Program) -> Result<Masks> {
        require_cells(program.cells())?;
        let word = |cells: &[crate::CellId]| cells.iter().fold(0u64, |w, c| w | 1 << c.0);
        let moves = program.moves();
        Ok(Masks {
            need_on: moves.iter().map(|m| word(&m.need_on)).collect(),
            need_off: moves.iter().map(|m| word(&m.need_off)).collect(),
            flip: moves.iter().map(|m| word(&m.flip)).collect(),
        })
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.flip.len()
    }

    /// Whether move `m` is legal in state `s`.
    #[inline]
    pub fn legal(&self, s: u64, m: usize) -> bool {
        s & self.need_on[m] == self.need_on[m] && s & self.need_off[m] == 0
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
