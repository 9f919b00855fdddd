//! Boards and goals of a puzzle of more than two colours: board text in the puzzle's `states`.

use toml::Spanned;

use super::{GoalRule, Puzzle, Src};
use crate::error::Result;
use crate::io::board::{
    ReadColours, read_colour_rows, read_colours_slashed, tokens, write_colours,
};
use crate::spec::GoalSpec;

impl Puzzle {
    /// The number of colours a cell cycles through: 2 unless `[symbols]`
    /// lists more `states`.
    pub fn colours(&self) -> usize {
        self.symbols.colours()
    }

    /// Reads a board of this puzzle's colours written with rows joined by
    /// `/`, or in words: `all-off`, `all-on` (every cell the second colour)
    /// or `all-X` (every cell colour `X`); `file` names it in errors.
    ///
    /// ```
    /// let puzzle = pegflip::Puzzle::from_file("puzzles/lights-out-2000.toml")?;
    /// let board = puzzle.read_colours("rg---/-----/-----/-----/-----", "<board>")?.digits;
    /// assert_eq!(&board[..3], &[1, 2, 0]);
    /// # Ok::<(), pegflip::Error>(())
    /// ```
    pub fn read_colours(&self, text: &str, file: &str) -> Result<ReadColours> {
        let src = Src {
            file,
            text,
            limits: self.limits.clone(),
        };
        if let Some(digits) = self.colour_keyword(&src, text, 0) {
            return Ok(ReadColours {
                digits: digits?,
                warnings: Vec::new(),
            });
        }
        read_colours_slashed(text, 0, &self.board, &self.symbols, file, text)
    }

    /// Reads a board of this puzzle's colours written one row per line (or
    /// per whitespace-separated token).
    pub fn read_colours_lines(&self, text: &str, file: &str) -> Result<ReadColours> {
        read_colour_rows(
            tokens(text),
            text.len(),
            &self.board,
            &self.symbols,
            file,
            text,
        )
    }

    /// Writes a board of this puzzle's colours as text, rows joined by `/`.
    pub fn colour_text(&self, digits: &[u64]) -> String {
        write_colours(digits, &self.board, &self.symbols, "/")
    }

    /// A uniform board named in words: `all-off`, `all-on` or `all-X`.
    fn colour_keyword(&self, src: &Src, text: &str, at: usize) -> Option<Result<Vec<u64>>> {
        let name = text.strip_prefix("all-")?;
        let n = self.board.cells();
        let digit = match name {
            "off" => Some(0),
            "on" => Some(1),
            _ => {
                let mut chars = name.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => self.symbols.digit(c),
                    _ => None,
                }
            }
        };
        Some(match digit {
            Some(d) => Ok(vec![d as u64; n]),
            None => Err(src.err_at(
                at,
                format!(
                    "unknown board '{text}': expected all-off, all-on, or all- followed by one \
                     colour ({})",
                    self.symbols.describe_states(false)
                ),
            )),
        })
    }

    /// A board of colours written in the file, as a goal, a start or a press's `flips`.
    pub(super) fn read_colours_spanned(
        &self,
        src: &Src,
        text: &Spanned<String>,
    ) -> Result<Vec<u64>> {
        let offset = text.span().start + 1;
        if let Some(digits) = self.colour_keyword(src, text.get_ref(), offset) {
            return digits;
        }
        let read = read_colours_slashed(
            text.get_ref(),
            offset,
            &self.board,
            &self.symbols,
            src.file,
            src.text,
        )?;
        super::words::refuse_warnings(read.warnings)?;
        Ok(read.digits)
    }

    /// The goal of a puzzle of more than two colours: targets only, where
    /// `all-same` is every board of one colour.
    pub(super) fn build_colour_goal(
        &self,
        src: &Src,
        goal: &Spanned<GoalSpec>,
    ) -> Result<GoalRule> {
        let g = goal.get_ref();
        let k = self.colours();
        if let Some(key) = g.fewest.as_ref().or(g.one_piece.as_ref()) {
            return Err(src.err(
                key.span(),
                format!(
                    "this puzzle has {k} colours (`states`): its goal is a `target` or `any` \
                     board, or `target = \"all-same\"` (every cell one colour, any colour)"
                ),
            ));
        }
        let n = self.board.cells();
        if let Some(t) = &g.target
            && t.get_ref() == "all-same"
        {
            let states = self.symbols.states();
            return Ok(GoalRule::Colours(
                (0..k)
                    .map(|d| (format!("all-{}", states[d]), vec![d as u64; n]))
                    .collect(),
            ));
        }
        let targets: Vec<&Spanned<String>> = match (&g.target, &g.any) {
            (Some(t), _) => vec![t],
            (_, Some(any)) if any.get_ref().is_empty() => {
                return Err(src.err(any.span(), "`any` needs at least one target"));
            }
            (_, Some(any)) => any.get_ref().iter().collect(),
            _ => unreachable!("build_goal checked that one goal key is set"),
        };
        targets
            .into_iter()
            .map(|t| Ok((t.get_ref().clone(), self.read_colours_spanned(src, t)?)))
            .collect::<Result<Vec<_>>>()
            .map(GoalRule::Colours)
    }
}
