//! Boards in words (`all-on`, `full but d4, e4`, `empty but ...`) and cells by name.

use toml::Spanned;

use super::{Puzzle, Src};
use crate::bits::Bits;
use crate::board::CellId;
use crate::error::{Error, Result};
use crate::io::board::read_slashed;

impl Puzzle {
    /// The board named by `all-on`, `all-off`, `full but CELLS` or `empty but
    /// CELLS`; `at` is the offset of `text` in `src`.
    pub(super) fn keyword(&self, src: &Src, text: &str, at: usize) -> Option<Result<Bits>> {
        let n = self.board.cells();
        let (full, rest, word_len) = match text {
            "all-on" => return Some(Ok(Bits::ones(n))),
            "all-off" => return Some(Ok(Bits::zeros(n))),
            _ => {
                if let Some(rest) = text.strip_prefix("full but ") {
                    (true, rest, "full but ".len())
                } else if let Some(rest) = text.strip_prefix("empty but ") {
                    (false, rest, "empty but ".len())
                } else {
                    return None;
                }
            }
        };
        let mut state = if full { Bits::ones(n) } else { Bits::zeros(n) };
        let mut offset = at + word_len;
        for part in rest.split(',') {
            let lead = part.len() - part.trim_start().len();
            let name = part.trim();
            let cell = match self.cell_named(src, name, offset + lead) {
                Ok(cell) => cell,
                Err(e) => return Some(Err(e)),
            };
            state.set(cell.0, !full);
            offset += part.len() + 1;
        }
        Some(Ok(state))
    }

    /// The cell called `name`; `at` is where the name starts in `src`.
    pub(super) fn cell_named(&self, src: &Src, name: &str, at: usize) -> Result<CellId> {
        if let Some(cell) = self.board.find(name) {
            return Ok(cell);
        }
        if !self.board.has_names() {
            return Err(src.err_at(
                at,
                format!(
                    "cell '{name}': this puzzle names no cells; add `names = \"chess\"` (or \
                     \"numbers\", or a list) to [board]"
                ),
            ));
        }
        let first = self.board.name(CellId(0)).unwrap_or_default();
        let last = self
            .board
            .name(CellId(self.board.cells() - 1))
            .unwrap_or_default();
        Err(src.err_at(
            at,
            format!("no cell is named '{name}': the cells are named {first} ... {last}"),
        ))
    }

    pub(super) fn read_spanned(&self, src: &Src, text: &Spanned<String>) -> Result<Bits> {
        // The span covers the quotes; the text starts one byte in.
        let offset = text.span().start + 1;
        if let Some(state) = self.keyword(src, text.get_ref(), offset) {
            return state;
        }
        let read = read_slashed(
            text.get_ref(),
            offset,
            &self.board,
            &self.symbols,
            src.file,
            src.text,
        )?;
        refuse_warnings(read.warnings)?;
        Ok(read.state)
    }
}

/// In a puzzle file nothing is dropped: the first warning of a board
/// read there (surplus cells past a row's end) is an error.
pub(super) fn refuse_warnings(warnings: Vec<crate::Diagnostic>) -> Result<()> {
    match warnings.into_iter().next() {
        Some(w) => Err(Error::Input(Box::new(crate::Diagnostic {
            severity: crate::error::Severity::Error,
            message: w.message.replace("dropped", "found"),
            ..w
        }))),
        None => Ok(()),
    }
}
