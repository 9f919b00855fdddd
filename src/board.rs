//! The board as a graph (petgraph): a square or triangular grid, or any graph, with optional cell names.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

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

    /// The six steps of the triangular lattice, in skewed grid coordinates:
    /// row `r` is shifted half a cell left of row `r - 1`, so `[1, 1]` is
    /// down-right and `[1, 0]` down-left.
    pub const TRIANGULAR: [Dir; 6] = [
        Dir { dr: -1, dc: 0 },
        Dir { dr: 1, dc: 0 },
        Dir { dr: 0, dc: -1 },
        Dir { dr: 0, dc: 1 },
        Dir { dr: -1, dc: -1 },
        Dir { dr: 1, dc: 1 },
    ];

    /// The four orthogonal steps.
    pub const ORTHOGONAL: [Dir; 4] = [
        Dir { dr: -1, dc: 0 },
        Dir { dr: 1, dc: 0 },
        Dir { dr: 0, dc: -1 },
        Dir { dr: 0, dc: 1 },
    ];

    /// The label of every edge of a graph board, which has no directions.
    pub const LINK: Dir = Dir { dr: 0, dc: 0 };
}

/// How the cells of a board are joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lattice {
    /// A square grid: eight king steps, of which the four orthogonal ones
    /// make a cell's neighbourhood.
    Square,
    /// A triangular lattice on a skewed grid: six steps ([`Dir::TRIANGULAR`]),
    /// all of them neighbours.
    Triangular,
    /// An arbitrary graph: per cell, its neighbours, ascending. Drawn as one
    /// row of cells in board text.
    Graph(Vec<Vec<CellId>>),
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
    lattice: Lattice,
    names: Option<Arc<Names>>,
    graph: OnceLock<DiGraph<Coord, Dir>>,
}

/// Cell names, both ways.
#[derive(Debug)]
struct Names {
    of: Vec<String>,
    index: HashMap<String, CellId>,
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
            lattice: Lattice::Square,
            names: None,
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
            lattice: Lattice::Square,
            names: None,
            graph: OnceLock::new(),
        }
    }

    /// A graph board of `nodes` cells joined by undirected `edges` (pairs of
    /// cell indices below `nodes`, no loops). Board text writes its cells as
    /// one row, in node order.
    ///
    /// ```
    /// // A square: four cells in a cycle.
    /// let b = pegflip::Board::graph_of(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]);
    /// assert_eq!(b.adjacent(pegflip::CellId(0)), vec![pegflip::CellId(1), pegflip::CellId(3)]);
    /// ```
    pub fn graph_of(nodes: usize, edges: &[(usize, usize)]) -> Board {
        let mut links = vec![Vec::new(); nodes];
        for &(a, b) in edges {
            assert!(
                a < nodes && b < nodes && a != b,
                "edge ({a}, {b}) is not between two cells"
            );
            links[a].push(CellId(b));
            links[b].push(CellId(a));
        }
        for l in &mut links {
            l.sort_unstable();
            l.dedup();
        }
        Board {
            rows: 1,
            cols: nodes,
            wrap: false,
            shape: None,
            lattice: Lattice::Graph(links),
            names: None,
            graph: OnceLock::new(),
        }
    }

    /// The same grid on another lattice (a graph board stays as it is).
    pub fn with_lattice(mut self, lattice: Lattice) -> Board {
        if !self.is_graph() {
            self.lattice = lattice;
            self.graph = OnceLock::new();
        }
        self
    }

    /// The same board with cell names, one per cell in cell order. Names
    /// must be distinct.
    pub fn with_names(mut self, names: Vec<String>) -> Board {
        assert_eq!(names.len(), self.cells(), "one name per cell");
        let index: HashMap<String, CellId> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), CellId(i)))
            .collect();
        assert_eq!(index.len(), names.len(), "cell names are distinct");
        self.names = Some(Arc::new(Names { of: names, index }));
        self
    }

    /// How the cells are joined.
    pub fn lattice(&self) -> &Lattice {
        &self.lattice
    }

    /// Whether this is a graph board (no grid geometry).
    pub fn is_graph(&self) -> bool {
        matches!(self.lattice, Lattice::Graph(_))
    }

    /// The steps along which cells are joined: king steps on a square grid,
    /// six on a triangular one, none on a graph board.
    pub fn steps(&self) -> &'static [Dir] {
        match self.lattice {
            Lattice::Square => &Dir::KING,
            Lattice::Triangular => &Dir::TRIANGULAR,
            Lattice::Graph(_) => &[],
        }
    }

    /// The cells next to `cell`, ascending: orthogonal steps on a square
    /// grid, the six steps on a triangular one, the edges of a graph board.
    pub fn adjacent(&self, cell: CellId) -> Vec<CellId> {
        let steps: &[Dir] = match &self.lattice {
            Lattice::Graph(links) => return links[cell.0].clone(),
            Lattice::Square => &Dir::ORTHOGONAL,
            Lattice::Triangular => &Dir::TRIANGULAR,
        };
        let mut out: Vec<CellId> = steps
            .iter()
            .filter_map(|&d| self.offset(cell, d))
            .filter(|&c| c != cell)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The name of a cell, when the puzzle declares names.
    pub fn name(&self, cell: CellId) -> Option<&str> {
        self.names.as_ref().map(|n| n.of[cell.0].as_str())
    }

    /// Whether the cells have names.
    pub fn has_names(&self) -> bool {
        self.names.is_some()
    }

    /// The cell with this name.
    pub fn find(&self, name: &str) -> Option<CellId> {
        self.names.as_ref()?.index.get(name).copied()
    }

    /// A cell in words: its name, or else `[row, col]` (graph boards: the
    /// node number).
    pub fn label(&self, cell: CellId) -> String {
        if let Some(name) = self.name(cell) {
            return name.to_string();
        }
        if self.is_graph() {
            return cell.0.to_string();
        }
        let [r, c] = self.coord(cell);
        format!("[{r}, {c}]")
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

    /// Whether the board is a full grid: every position of the bounding
    /// grid is a cell (false for graph boards).
    pub fn is_rectangular(&self) -> bool {
        self.shape.is_none() && !self.is_graph()
    }

    /// Whether some positions of the bounding grid are not cells.
    pub fn has_gaps(&self) -> bool {
        self.shape.is_some()
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
    /// (wrapping on a torus). `None` when it falls off the board or on a gap,
    /// and on graph boards for any offset but `[0, 0]` (the cell itself):
    /// a graph has no coordinates to step along.
    pub fn offset(&self, cell: CellId, dir: Dir) -> Option<CellId> {
        if self.is_graph() {
            return (dir == Dir { dr: 0, dc: 0 }).then_some(cell);
        }
        let [r, c] = self.coord(cell);
        let (r, c) = (
            (r as i64).checked_add(dir.dr)?,
            (c as i64).checked_add(dir.dc)?,
        );
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

    /// The automorphisms of the board graph, found by VF2 (petgraph); on a
    /// square grid they keep orthogonal edges orthogonal and diagonal ones
    /// diagonal. Each is
    /// a permutation `p` with cell `i` going to cell `p[i]`. The identity comes
    /// first. At most `limit` are returned.
    pub fn automorphisms(&self, limit: usize) -> Vec<Vec<usize>> {
        let g = self.graph();
        let mut node_match = |_: &Coord, _: &Coord| true;
        let square = self.lattice == Lattice::Square;
        let mut edge_match =
            |a: &Dir, b: &Dir| !square || a.dr.abs() + a.dc.abs() == b.dr.abs() + b.dc.abs();
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

    /// The board graph: node `i` is cell `i`, weighted by its coordinates;
    /// an edge per lattice step (graph boards: per declared edge, both ways,
    /// labelled [`Dir::LINK`]).
    pub fn graph(&self) -> &DiGraph<Coord, Dir> {
        self.graph.get_or_init(|| {
            let mut graph = DiGraph::with_capacity(self.cells(), 8 * self.cells());
            for a in 0..self.cells() {
                graph.add_node(self.coord(CellId(a)));
            }
            if let Lattice::Graph(links) = &self.lattice {
                for (a, l) in links.iter().enumerate() {
                    for b in l {
                        graph.add_edge(NodeIndex::new(a), NodeIndex::new(b.0), Dir::LINK);
                    }
                }
                return graph;
            }
            for a in 0..self.cells() {
                for &dir in self.steps() {
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
