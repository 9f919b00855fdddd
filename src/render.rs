//! Solutions and proofs as text for people and as JSON for programs.

use crate::bits::Bits;
use crate::program::{Goal, MoveKind, Program};
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, Proof};

// Past this many cells times moves, text output shows the pressed cells and
// the final board instead of every intermediate board.
pub use crate::answer::STEP_BOARDS_LIMIT;

/// The character marking a cell of a certificate or a pressed cell in pictures.
const MARK: char = '#';

/// A move in words: `press [1, 2]`, or `jump [0, 3] over [0, 4] to [0, 5]`.
/// On a board with cell names: `press b3`, and jumps in peg-solitaire
/// notation, from and to: `d2-d4`.
pub fn describe_move(puzzle: &Puzzle, program: &Program, index: usize) -> String {
    let Some((kind, cells)) = program.move_cells(index) else {
        return format!("move {index} (no such move)");
    };
    let board = &puzzle.board;
    let at = |i: usize| board.label(cells[i]);
    match kind {
        MoveKind::Toggle => format!("press {}", at(0)),
        MoveKind::Jump if board.has_names() => format!("{}-{}", at(0), at(2)),
        MoveKind::Jump => format!("jump {} over {} to {}", at(0), at(1), at(2)),
    }
}

/// The answer line that `batch` prints for this outcome: the number of moves,
/// the puzzle's impossible word, or for fewest pieces the pieces left.
pub fn answer_line(puzzle: &Puzzle, program: &Program, outcome: &Outcome) -> String {
    match (outcome, program.goal()) {
        (Outcome::Unsolvable(_), _) => puzzle.batch.impossible.clone(),
        (Outcome::Solved(s), Goal::FewestPieces) => s.end.count_ones().to_string(),
        (Outcome::Solved(s), Goal::Targets(_)) => s.moves.len().to_string(),
    }
}

/// A picture of the board with the cells of `marked` drawn as `#`.
pub fn marked_picture(puzzle: &Puzzle, marked: &Bits) -> String {
    let board = &puzzle.board;
    let mut out = String::new();
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            out.push(match board.cell_at(r, c) {
                Some(cell) if marked.get(cell.0) => MARK,
                Some(_) => puzzle.symbols.off(),
                None => puzzle.symbols.gap(),
            });
        }
        out.push('\n');
    }
    out
}

/// The cells pressed or moved from by a list of moves, as a set (a cell pressed
/// twice cancels out).
pub fn pressed_cells(program: &Program, moves: &[usize]) -> Bits {
    let mut cells = Bits::zeros(program.cells());
    for &m in moves {
        if let Some((_, moved)) = program.move_cells(m) {
            let c = moved[0].0;
            cells.set(c, !cells.get(c));
        }
    }
    cells
}

/// The full text answer: the answer line, then the start board, then each
/// move with the board after it. Boards are written one row per line.
pub fn text(puzzle: &Puzzle, program: &Program, start: &Bits, outcome: &Outcome) -> String {
    let mut out = answer_line(puzzle, program, outcome);
    out.push('\n');
    // Room for the three pictures of a large answer at once, so the text never regrows.
    let picture = puzzle.board.rows() * (puzzle.board.cols() + 1);
    out.reserve(3 * picture + 4096);
    let board = |state: &Bits| {
        crate::io::board::write_board(state, &puzzle.board, &puzzle.symbols, "\n") + "\n"
    };
    match outcome {
        Outcome::Unsolvable(proof) => {
            out.push_str("no sequence of moves reaches the goal from\n");
            out.push_str(&board(start));
            match proof {
                Proof::Search => {
                    out.push_str("proof: an exhaustive search visited every reachable state\n");
                }
                Proof::Rank => out.push_str(
                    "proof: elimination over GF(2) shows the board is outside the span of the \
                     moves (the puzzle is too large to print a certificate)\n",
                ),
                Proof::Parity(certificates) => {
                    for c in certificates {
                        out.push_str(&format!(
                            "\ncertificate for target {}:\n",
                            puzzle.board_text(&c.target)
                        ));
                        out.push_str(&marked_picture(puzzle, &c.cells));
                        let mut diff = start.clone();
                        diff.xor_assign(&c.target);
                        let odd = diff.ones_iter().filter(|&i| c.cells.get(i)).count();
                        out.push_str(&format!(
                            "every move flips an even number of the {} cells marked {MARK}, so \
                             the parity of the pieces on them never changes; the board and the \
                             target differ on {odd} of them, an odd number\n",
                            c.cells.count_ones()
                        ));
                    }
                }
            }
        }
        Outcome::Solved(solution) => {
            if matches!(program.goal(), Goal::FewestPieces) {
                let pieces = solution.end.count_ones();
                out.push_str(&format!(
                    "{pieces} {} left after {} {}\n",
                    plural(pieces, "piece"),
                    solution.moves.len(),
                    plural(solution.moves.len(), "move")
                ));
            }
            if !solution.optimal {
                out.push_str(
                    "not proven optimal: the solution coset was too large to walk in full \
                     (raise --coset-work to search further)\n",
                );
            }
            out.push_str("start\n");
            out.push_str(&board(start));
            if solution.moves.len().saturating_mul(program.cells()) > STEP_BOARDS_LIMIT {
                // Presses commute: past the limit a linear answer is its picture.
                let linear = program.is_linear();
                if !linear {
                    for (i, &m) in solution.moves.iter().enumerate() {
                        out.push_str(&format!(
                            "{}. {}\n",
                            i + 1,
                            describe_move(puzzle, program, m)
                        ));
                    }
                }
                if linear {
                    out.push_str(&format!("pressed cells, marked {MARK}\n"));
                    out.push_str(&marked_picture(
                        puzzle,
                        &pressed_cells(program, &solution.moves),
                    ));
                }
                out.push_str("final\n");
                out.push_str(&board(&solution.end));
            } else {
                let states = program.trace(start, &solution.moves).unwrap_or_default();
                for (i, (&m, state)) in solution.moves.iter().zip(states.iter().skip(1)).enumerate()
                {
                    out.push_str(&format!(
                        "{}. {}\n",
                        i + 1,
                        describe_move(puzzle, program, m)
                    ));
                    out.push_str(&board(state));
                }
            }
        }
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// The most panels (the start and one per move) one SVG picture draws (`svg-panels`).
pub const SVG_PANELS: usize = 400;

/// The most cells a board may have to be drawn as SVG (`svg-cells`).
pub const SVG_CELLS: usize = 10_000;

/// Size of one cell in the SVG picture, in pixels.
const CELL: usize = 28;

/// The start and the board after each move, side by side in rows of panels,
/// as one SVG image. Toggle puzzles draw cells as tiles with the pressed cell
/// ringed; jump puzzles draw holes and pegs, with the jumping peg's path as an
/// arrow and the jumped peg crossed out. Shaped boards draw only their cells.
/// An impossible board is drawn with its certificate cells marked.
pub fn svg(
    puzzle: &Puzzle,
    program: &Program,
    start: &Bits,
    outcome: &Outcome,
) -> crate::Result<String> {
    let board = &puzzle.board;
    if board.cells() > SVG_CELLS {
        return Err(crate::Error::Limit {
            what: "the number of cells to draw".into(),
            name: "svg-cells",
            value: board.cells() as u128,
            limit: SVG_CELLS as u128,
            hint: "a picture of a board this large would not be readable".into(),
        });
    }
    // Each panel: (caption, board, the move that led to it, cells to mark).
    let mut panels: Vec<(String, Bits, Option<usize>, Option<Bits>)> = Vec::new();
    match outcome {
        Outcome::Solved(solution) => {
            if solution.moves.len() + 1 > SVG_PANELS {
                return Err(crate::Error::Limit {
                    what: "the number of panels to draw".into(),
                    name: "svg-panels",
                    value: solution.moves.len() as u128 + 1,
                    limit: SVG_PANELS as u128,
                    hint: "one panel is drawn per move".into(),
                });
            }
            let states = program.trace(start, &solution.moves).unwrap_or_default();
            panels.push(("start".into(), start.clone(), None, None));
            for (i, (&m, state)) in solution.moves.iter().zip(states.iter().skip(1)).enumerate() {
                let caption = format!("{}. {}", i + 1, describe_move(puzzle, program, m));
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
    // Wide enough for the board and the longest caption (about 7 px a character).
    let caption_w = panels
        .iter()
        .map(|p| p.0.chars().count() * 7)
        .max()
        .unwrap_or(0);
    let panel_w = bw.max(caption_w).max(120) + 24;
    let panel_h = bh + 44;
    let per_row = (1200 / panel_w).clamp(1, 8).min(panels.len());
    let rows = panels.len().div_ceil(per_row);
    let (width, height) = (per_row * panel_w, rows * panel_h);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    );
    let centre = |cell: crate::CellId, x0: usize, y0: usize| {
        let (x, y) = spots[cell.0];
        (x0 + x, y0 + y)
    };
    for (k, (caption, state, mv, marked)) in panels.iter().enumerate() {
        let (x0, y0) = ((k % per_row) * panel_w + 12, (k / per_row) * panel_h + 24);
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
/// with each row shifted half a cell, a graph's nodes around a circle.
fn layout(board: &crate::Board) -> (Vec<(usize, usize)>, usize, usize) {
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

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
