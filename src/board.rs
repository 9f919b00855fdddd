//! The board as a graph: one node per cell, edges labelled by grid direction.

use std::sync::OnceLock;

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

/// A cell's index: bit `CellId.0` of a state. Cells are numbered in
/// row-major order of the bounding grid, skipping positions outside the shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub usize);

/// A position `[row, col]` in the board's bounding grid, 0-based.
pub type Coord = [usize; 2];

/// A step on the grid: rows down and columns right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dir {
    /// Rows down (negative: up).
    pub dr: i64,
    /// Columns right (negative: left).
    pub dc: i64,
}

impl Dir {
    /// The eight king steps: every edge of a grid board carries one of them.
    pub const KING: [Dir; 8] = [
        Dir { dr: -1, dc: 0 },
        Dir { dr: 1, dc: 0 },
        Dir { dr: 0, dc: -1 },
        Dir { dr: 0, dc: 1 },
        Dir { dr: -1, dc: -1 },
        Dir { dr: -1, dc: 1 },
        Dir { dr: 1, dc: -1 },
        Dir { dr: 1, dc: 1 },
    ];
}

/// A board: cells, their grid coordinates, and the direction-labelled graph
/// joining each cell to its king neighbours.
///
/// A rectangular board numbers its cells `row * cols + col` and stores no
/// per-cell data; a shaped one keeps an index. The graph is built the first
/// time it is asked for.
#[derive(Clone, Debug)]
pub struct Board {
    rows: usize,
    cols: usize,
    wrap: bool,
    shape: Option<Shape>,
    graph: OnceLock<DiGraph<Coord, Dir>>,
}

/// The cells of a non-rectangular board.
#[derive(Clone, Debug)]
struct Shape {
    index: Vec<Option<CellId>>,
    coords: Vec<Coord>,
}

impl Board {
    /// A `rows` x `cols` grid. `present(r, c)` says which positions are
    /// cells; with `wrap`, steps leaving one side come back on the other.
    pub fn grid(
        rows: usize,
        cols: usize,
        wrap: bool,
        present: impl Fn(usize, usize) -> bool,
    ) -> Board {
        let mut index = vec![None; rows * cols];
        let mut coords = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if present(r, c) {
                    index[r * cols + c] = Some(CellId(coords.len()));
                    coords.push([r, c]);
                }
            }
        }
        let shape = (coords.len() < rows * cols).then_some(Shape { index, coords });
        Board {
            rows,
            cols,
            wrap,
            shape,
            graph: OnceLock::new(),
        }
    }

    /// A full `rows` x `cols` grid, with no per-cell storage.
    pub fn rectangle(rows: usize, cols: usize, wrap: bool) -> Board {
        Board {
            rows,
            cols,
            wrap,
            shape: None,
            graph: OnceLock::new(),
        }
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.shape
            .as_ref()
            .map_or(self.rows * self.cols, |s| s.coords.len())
    }

    /// Rows of the bounding grid.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the bounding grid.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether the grid wraps around.
    pub fn wraps(&self) -> bool {
        self.wrap
    }

    /// Whether every position of the bounding grid is a cell.
    pub fn is_rectangular(&self) -> bool {
        self.shape.is_none()
    }

    /// The coordinates of a cell.
    pub fn coord(&self, cell: CellId) -> Coord {
        match &self.shape {
            Some(s) => s.coords[cell.0],
            None => [cell.0 / self.cols, cell.0 % self.cols],
        }
    }

    /// The cell at a position of the bounding grid, if there is one.
    pub fn cell_at(&self, row: usize, col: usize) -> Option<CellId> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        match &self.shape {
            Some(s) => s.index[row * self.cols + col],
            None => Some(CellId(row * self.cols + col)),
        }
    }

    /// The cell reached from `cell` by the offset `dir`, by coordinates
    /// (wrapping on a torus). `None` when it falls off the board or on a gap.
    pub fn offset(&self, cell: CellId, dir: Dir) -> Option<CellId> {
        let [r, c] = self.coord(cell);
        let (r, c) = (r as i64 + dir.dr, c as i64 + dir.dc);
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        let (r, c) = if self.wrap {
            (r.rem_euclid(rows), c.rem_euclid(cols))
        } else if (0..rows).contains(&r) && (0..cols).contains(&c) {
            (r, c)
        } else {
            return None;
        };
        self.cell_at(r as usize, c as usize)
    }

    /// The neighbour of `cell` along the graph edge labelled `dir`.
    pub fn neighbour(&self, cell: CellId, dir: Dir) -> Option<CellId> {
        self.graph()
            .edges(NodeIndex::new(cell.0))
            .find(|e| *e.weight() == dir)
            .map(|e| CellId(e.target().index()))
    }

    /// The automorphisms of the board graph that keep orthogonal edges
    /// orthogonal and diagonal ones diagonal, found by VF2 (petgraph); each is
    /// a permutation `p` with cell `i` going to cell `p[i]`. The identity comes
    /// first. At most `limit` are returned.
    pub fn automorphisms(&self, limit: usize) -> Vec<Vec<usize>> {
        let g = self.graph();
        let mut node_match = |_: &Coord, _: &Coord| true;
        let mut edge_match = |a: &Dir, b: &Dir| a.dr.abs() + a.dc.abs() == b.dr.abs() + b.dc.abs();
        let mut found: Vec<Vec<usize>> = vec![(0..self.cells()).collect()];
        if let Some(iter) = petgraph::algo::isomorphism::subgraph_isomorphisms_iter(
            &g,
            &g,
            &mut node_match,
            &mut edge_match,
        ) {
            for perm in iter.take(limit) {
                if perm.iter().enumerate().any(|(i, &p)| i != p) {
                    found.push(perm);
                }
            }
        }
        found
    }

    /// The board graph: node `i` is cell `i`, weighted by its coordinates.
    pub fn graph(&self) -> &DiGraph<Coord, Dir> {
        self.graph.get_or_init(|| {
            let mut graph = DiGraph::with_capacity(self.cells(), 8 * self.cells());
            for a in 0..self.cells() {
                graph.add_node(self.coord(CellId(a)));
            }
            for a in 0..self.cells() {
                for dir in Dir::KING {
                    if let Some(b) = self.offset(CellId(a), dir)
                        && b.0 != a
                    {
                        graph.add_edge(NodeIndex::new(a), NodeIndex::new(b.0), dir);
                    }
                }
            }
            graph
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_edges_follow_directions() {
        let b = Board::grid(3, 3, false, |_, _| true);
        let centre = b.cell_at(1, 1).unwrap();
        assert_eq!(b.graph().edges(NodeIndex::new(centre.0)).count(), 8);
        let right = Dir { dr: 0, dc: 1 };
        assert_eq!(b.neighbour(centre, right), b.cell_at(1, 2));
        assert_eq!(b.neighbour(b.cell_at(1, 2).unwrap(), right), None);
    }

    #[test]
    fn shape_skips_gaps_and_torus_wraps() {
        let b = Board::grid(2, 3, false, |r, c| !(r == 0 && c == 1));
        assert_eq!(b.cells(), 5);
        assert_eq!(b.cell_at(0, 1), None);
        assert_eq!(b.coord(CellId(1)), [0, 2]);
        let t = Board::grid(1, 3, true, |_, _| true);
        let left = Dir { dr: 0, dc: -1 };
        assert_eq!(t.neighbour(CellId(0), left), Some(CellId(2)));
        // A one-row torus has no vertical edges: up and down lead back to the cell itself.
        assert_eq!(t.neighbour(CellId(0), Dir { dr: 1, dc: 0 }), None);
    }
}
