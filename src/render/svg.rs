//! An answer as one SVG picture: the start and the board after each move, in the board's own geometry.

use super::describe_move;
use crate::bits::Bits;
use crate::outcome::{Outcome, Proof};
use crate::program::{MoveKind, Program};

/// The most panels (the start and one per move) one SVG picture draws (`svg-panels`).
pub const SVG_PANELS: usize = 400;

/// The most cells a board may have to be drawn as SVG (`svg-cells`).
pub const SVG_CELLS: usize = 10_000;

/// Size of one cell in the SVG picture, in pixels.
pub const CELL: usize = 28;

/// The start and the board after each move, side by side in rows of panels,
/// as one SVG image. Toggle puzzles draw cells as tiles with the pressed cell
/// ringed; jump puzzles draw holes and pegs, with the jumping peg's path as an
/// arrow and the jumped peg crossed out. Shaped boards draw only their cells.
/// An impossible board is drawn with its certificate cells marked.
pub fn svg(program: &Program, start: &Bits, outcome: &Outcome) -> crate::Result<String> {
    let puzzle = program.puzzle();
    let board = &puzzle.board;
    if board.cells() > SVG_CELLS {
        return Err(crate::limits::Limits::exceeded_bound(
            "svg-cells",
            "the number of cells to draw",
            board.cells() as u128,
            SVG_CELLS as u128,
            "a picture of a board this large would not be readable",
        ));
    }
    // Each panel: (caption, board, the move that led to it, cells to mark).
    let mut panels: Vec<(String, Bits, Option<usize>, Option<Bits>)> = Vec::new();
    match outcome {
        Outcome::Solved(solution) => {
            if solution.moves.len() + 1 > SVG_PANELS {
                return Err(crate::limits::Limits::exceeded_bound(
                    "svg-panels",
                    "the number of panels to draw",
                    solution.moves.len() as u128 + 1,
                    SVG_PANELS as u128,
                    "one panel is drawn per move",
                ));
            }
            let states = program.trace(start, &solution.moves).unwrap_or_default();
            panels.push(("start".into(), start.clone(), None, None));
            for (i, (m, state)) in solution.moves.iter().zip(states.iter().skip(1)).enumerate() {
                let caption = format!("{}. {}", i + 1, describe_move(program, m));
                panels.push((caption, state.clone(), Some(m), None));
            }
        }
        Outcome::Unsolvable(proof) => {
            panels.push(("impossible".into(), start.clone(), None, None));
            if let Proof::Parity(certificates) = proof {
                for c in certificates {
                    let caption = format!("certificate vs {}", puzzle.board_text(&c.target));
                    panels.push((caption, start.clone(), None, Some(c.cells.clone())));
                }
            }
        }
    }
    let pegs = program.moves().iter().any(|m| m.kind == MoveKind::Jump);
    let (spots, bw, bh) = layout(board);
    let sheet = Sheet::new(bw, bh, panels.iter().map(|p| p.0.as_str()));
    let mut out = sheet.header();
    let centre = |cell: crate::CellId, x0: usize, y0: usize| {
        let (x, y) = spots[cell.0];
        (x0 + x, y0 + y)
    };
    for (k, (caption, state, mv, marked)) in panels.iter().enumerate() {
        let (x0, y0) = sheet.corner(k);
        out.push_str(&format!(
            "<text x=\"{x0}\" y=\"{}\">{}</text>\n",
            y0 - 8,
            escape(caption)
        ));
        if let crate::board::Lattice::Graph(links) = board.lattice() {
            for (a, l) in links.iter().enumerate() {
                for b in l.iter().filter(|b| b.0 > a) {
                    let (ax, ay) = centre(crate::CellId(a), x0, y0);
                    let (bx, by) = centre(*b, x0, y0);
                    out.push_str(&format!(
                        "<line x1=\"{ax}\" y1=\"{ay}\" x2=\"{bx}\" y2=\"{by}\" \
                         stroke=\"#b8b2a4\" stroke-width=\"2\"/>\n"
                    ));
                }
            }
        }
        for cell in (0..board.cells()).map(crate::CellId) {
            let (cx, cy) = centre(cell, x0, y0);
            let on = state.get(cell.0);
            if pegs {
                out.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"5\" fill=\"#d8d2c4\"/>\n"
                ));
                if on {
                    out.push_str(&format!(
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"10\" fill=\"#3b5b92\"/>\n"
                    ));
                }
            } else {
                let fill = if on { "#2b2b2b" } else { "#f1efe8" };
                out.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{fill}\" \
                     stroke=\"#999\"/>\n",
                    cx - CELL / 2 + 1,
                    cy - CELL / 2 + 1,
                    CELL - 2,
                    CELL - 2
                ));
            }
            if marked.as_ref().is_some_and(|q| q.get(cell.0)) {
                out.push_str(&format!(
                    "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-size=\"16\" \
                     font-weight=\"bold\" fill=\"#d62728\">#</text>\n",
                    cy + 6
                ));
            }
        }
        if let Some((kind, cells)) = mv.and_then(|m| program.move_cells(m)) {
            match kind {
                MoveKind::Toggle => {
                    let (cx, cy) = centre(cells[0], x0, y0);
                    out.push_str(&format!(
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" \
                         stroke=\"#d62728\" stroke-width=\"3\"/>\n",
                        CELL / 2 - 3
                    ));
                }
                MoveKind::Jump => {
                    let (fx, fy) = centre(cells[0], x0, y0);
                    let (ox, oy) = centre(cells[1], x0, y0);
                    let (tx, ty) = centre(cells[2], x0, y0);
                    out.push_str(&format!(
                        "<line x1=\"{fx}\" y1=\"{fy}\" x2=\"{tx}\" y2=\"{ty}\" stroke=\"#e8850c\" \
                         stroke-width=\"3\" stroke-linecap=\"round\"/>\n\
                         <circle cx=\"{tx}\" cy=\"{ty}\" r=\"12\" fill=\"none\" stroke=\"#e8850c\" \
                         stroke-width=\"3\"/>\n\
                         <path d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"#d62728\" \
                         stroke-width=\"3\"/>\n",
                        ox - 6,
                        oy - 6,
                        ox + 6,
                        oy + 6,
                        ox - 6,
                        oy + 6,
                        ox + 6,
                        oy - 6
                    ));
                }
            }
        }
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// Where each cell's centre is drawn, in pixels from the panel's corner, and
/// the board's width and height: grid cells in rows, a triangular lattice
/// with each row shifted half a cell, a graph's nodes around a circle. Cells
/// are [`CELL`] pixels apart. The SVG picture and `pegflip serve`'s page both
/// draw boards this way.
///
/// ```
/// let puzzle = pegflip::catalogue::find("merlin").unwrap();
/// let puzzle = pegflip::Puzzle::parse(puzzle.text, "merlin.toml")?;
/// let (centres, width, height) = pegflip::render::layout(&puzzle.board);
/// assert_eq!((centres[0], width, height), ((14, 14), 84, 84));
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn layout(board: &crate::Board) -> (Vec<(usize, usize)>, usize, usize) {
    use crate::board::Lattice;
    let n = board.cells();
    let unit = CELL as f64;
    let points: Vec<(f64, f64)> = match board.lattice() {
        Lattice::Square => (0..n)
            .map(|i| {
                let [r, c] = board.coord(crate::CellId(i));
                (c as f64, r as f64)
            })
            .collect(),
        Lattice::Triangular => (0..n)
            .map(|i| {
                let [r, c] = board.coord(crate::CellId(i));
                (c as f64 - r as f64 / 2.0, r as f64 * 0.866)
            })
            .collect(),
        Lattice::Graph(_) => {
            let radius = (n as f64 * 1.3 / std::f64::consts::TAU).max(1.0);
            (0..n)
                .map(|i| {
                    let angle =
                        std::f64::consts::TAU * i as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
                    (radius * angle.cos(), radius * angle.sin())
                })
                .collect()
        }
    };
    let min_x = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let min_y = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let spots: Vec<(usize, usize)> = points
        .iter()
        .map(|&(x, y)| {
            (
                ((x - min_x) * unit + unit / 2.0).round() as usize,
                ((y - min_y) * unit + unit / 2.0).round() as usize,
            )
        })
        .collect();
    let width = spots.iter().map(|s| s.0).max().unwrap_or(0) + CELL / 2;
    let height = spots.iter().map(|s| s.1).max().unwrap_or(0) + CELL / 2;
    (spots, width, height)
}

/// Panels of one board each, side by side in rows, as one SVG picture.
pub(crate) struct Sheet {
    panel_w: usize,
    panel_h: usize,
    per_row: usize,
    rows: usize,
}

impl Sheet {
    /// The sheet for a board `bw` x `bh` pixels and one panel per caption:
    /// each panel wide enough for the board and its caption (about 7 px a
    /// character), at most 1,200 px and 8 panels a row.
    pub(crate) fn new<'a>(bw: usize, bh: usize, captions: impl Iterator<Item = &'a str>) -> Sheet {
        let (mut count, mut caption_w) = (0, 0);
        for caption in captions {
            count += 1;
            caption_w = caption_w.max(caption.chars().count() * 7);
        }
        let panel_w = bw.max(caption_w).max(120) + 24;
        let per_row = (1200 / panel_w).clamp(1, 8).min(count.max(1));
        Sheet {
            panel_w,
            panel_h: bh + 44,
            per_row,
            rows: count.div_ceil(per_row),
        }
    }

    /// The opening of the SVG document, white background included.
    pub(crate) fn header(&self) -> String {
        let (width, height) = (self.per_row * self.panel_w, self.rows * self.panel_h);
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        )
    }

    /// Where panel `k`'s board starts, its caption 8 px above.
    pub(crate) fn corner(&self, k: usize) -> (usize, usize) {
        (
            (k % self.per_row) * self.panel_w + 12,
            (k / self.per_row) * self.panel_h + 24,
        )
    }
}

/// Text made safe inside SVG.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
