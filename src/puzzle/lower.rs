//! Lowering the rest of a [`Spec`]: board, goal, symbols, limits and batch format, each checked against the file.

use std::ops::Range;

use toml::Spanned;

use super::{GoalRule, Puzzle, Src};
use crate::bits::Bits;
use crate::board::{Board, CellId, Lattice};
use crate::error::Result;
use crate::limits::Limits;
use crate::spec::{Amount, BoardSpec, GoalSpec, Names, NodeRef, Nodes, Spec, SymbolsSpec};
use crate::symbols::Symbols;

impl Puzzle {
    pub(super) fn build_goal(&self, src: &Src, goal: &Spanned<GoalSpec>) -> Result<GoalRule> {
        let g = goal.get_ref();
        let given = [
            g.target.is_some(),
            g.any.is_some(),
            g.fewest.is_some(),
            g.one_piece.is_some(),
        ];
        if given.iter().filter(|&&b| b).count() != 1 {
            return Err(src.err(
                goal.span(),
                "[goal] takes exactly one of `target`, `any`, `fewest` or `one-piece`",
            ));
        }
        if self.colours() > 2 {
            return self.build_colour_goal(src, goal);
        }
        if let Some(t) = &g.target
            && t.get_ref() == "all-same"
        {
            let n = self.board.cells();
            return Ok(GoalRule::Targets(vec![
                ("all-on".into(), Bits::ones(n)),
                ("all-off".into(), Bits::zeros(n)),
            ]));
        }
        if let Some(one) = &g.one_piece {
            let n = self.board.cells();
            let single = |cell: CellId| {
                let mut b = Bits::zeros(n);
                b.set(cell.0, true);
                (format!("one piece at {}", self.board.label(cell)), b)
            };
            if one.get_ref() == "anywhere" {
                if n as u128 * n as u128 > u128::from(src.limits.goal_bits) {
                    return Err(src.err(
                        one.span(),
                        format!(
                            "one piece anywhere makes {n} targets of {n} cells, past the limit \
                             goal-bits = {}",
                            src.limits.goal_bits
                        ),
                    ));
                }
                return Ok(GoalRule::Targets(
                    (0..n).map(|c| single(CellId(c))).collect(),
                ));
            }
            let cell = self.cell_named(src, one.get_ref(), one.span().start + 1)?;
            return Ok(GoalRule::Targets(vec![single(cell)]));
        }
        if let Some(fewest) = &g.fewest {
            if fewest.get_ref() != "pieces" {
                return Err(src.err(fewest.span(), "expected `fewest = \"pieces\"`"));
            }
            return Ok(GoalRule::FewestPieces);
        }
        let targets: Vec<&Spanned<String>> = match (&g.target, &g.any) {
            (Some(t), _) => vec![t],
            (_, Some(any)) if any.get_ref().is_empty() => {
                return Err(src.err(any.span(), "`any` needs at least one target"));
            }
            (_, Some(any)) => any.get_ref().iter().collect(),
            _ => unreachable!("exactly one goal key is set"),
        };
        targets
            .into_iter()
            .map(|t| Ok((t.get_ref().clone(), self.read_spanned(src, t)?)))
            .collect::<Result<Vec<_>>>()
            .map(GoalRule::Targets)
    }
}

pub(super) fn build_board(src: &Src, spec: &Spanned<BoardSpec>) -> Result<Board> {
    let b = spec.get_ref();
    let board = if let Some(nodes) = &b.nodes {
        build_graph(src, b, nodes)?
    } else {
        if let Some(edges) = &b.edges {
            return Err(src.err(
                edges.span(),
                "`edges` needs `nodes`: a graph board lists its nodes",
            ));
        }
        let lattice = match b.lattice.as_ref().map(|l| (l, l.get_ref().as_str())) {
            None | Some((_, "square")) => Lattice::Square,
            Some((_, "triangular")) => Lattice::Triangular,
            Some((l, other)) => {
                return Err(src.err(
                    l.span(),
                    format!("unknown lattice '{other}': expected square or triangular"),
                ));
            }
        };
        build_grid(src, spec)?.with_lattice(lattice)
    };
    let Some(names) = &b.names else {
        return Ok(board);
    };
    let list: Vec<String> = match names.get_ref() {
        Names::Scheme(scheme) => match scheme.as_str() {
            "numbers" => (1..=board.cells()).map(|i| i.to_string()).collect(),
            "chess" if board.is_graph() => {
                return Err(src.err(
                    names.span(),
                    "chess names need a grid: name a graph's cells with a list, or in `nodes`",
                ));
            }
            "chess" if board.cols() > 26 => {
                return Err(src.err(
                    names.span(),
                    format!(
                        "chess names give columns the letters a to z, but the board has {} columns",
                        board.cols()
                    ),
                ));
            }
            "chess" => (0..board.cells())
                .map(|c| {
                    let [r, c] = board.coord(CellId(c));
                    format!("{}{}", (b'a' + c as u8) as char, r + 1)
                })
                .collect(),
            other => {
                return Err(src.err(
                    names.span(),
                    format!(
                        "unknown naming '{other}': expected \"chess\", \"numbers\" or a list of \
                         names"
                    ),
                ));
            }
        },
        Names::List(list) => {
            if b.nodes
                .as_ref()
                .is_some_and(|n| matches!(n.get_ref(), Nodes::Named(_)))
            {
                return Err(src.err(names.span(), "the `nodes` list already names the cells"));
            }
            if list.len() != board.cells() {
                return Err(src.err(
                    names.span(),
                    format!(
                        "{} names for {} cells: give one per cell",
                        list.len(),
                        board.cells()
                    ),
                ));
            }
            check_names(src, list)?;
            list.iter().map(|n| n.get_ref().clone()).collect()
        }
    };
    Ok(board.with_names(list))
}

/// Names must be distinct words: not empty, no spaces, no commas.
pub(super) fn check_names(src: &Src, list: &[Spanned<String>]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for n in list {
        let name = n.get_ref();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ',') {
            return Err(src.err(
                n.span(),
                "a name is one word: not empty, with no spaces or commas",
            ));
        }
        if name == "anywhere" {
            return Err(src.err(
                n.span(),
                "'anywhere' is a keyword of `one-piece`; choose another name",
            ));
        }
        if !seen.insert(name.as_str()) {
            return Err(src.err(n.span(), format!("the name '{name}' is given twice")));
        }
    }
    Ok(())
}

pub(super) fn build_graph(src: &Src, b: &BoardSpec, nodes: &Spanned<Nodes>) -> Result<Board> {
    for (key, span) in [
        ("rows", b.rows.as_ref().map(|v| v.span())),
        ("cols", b.cols.as_ref().map(|v| v.span())),
        ("shape", b.shape.as_ref().map(|v| v.span())),
        ("lattice", b.lattice.as_ref().map(|v| v.span())),
    ] {
        if let Some(span) = span {
            return Err(src.err(
                span,
                format!("`{key}` describes a grid, but `nodes` makes this a graph board"),
            ));
        }
    }
    if b.wrap {
        return Err(src.err(
            nodes.span(),
            "a graph board cannot wrap: drop `wrap`, add the edges",
        ));
    }
    let (n, names) = match nodes.get_ref() {
        Nodes::Count(n) => (*n, None),
        Nodes::Named(list) => {
            check_names(src, list)?;
            (list.len() as i64, Some(list))
        }
    };
    if n < 1 {
        return Err(src.err(nodes.span(), "a graph board needs at least one node"));
    }
    if n as u128 > u128::from(src.limits.graph_nodes) {
        return Err(src.err(
            nodes.span(),
            format!(
                "{n} nodes is past the limit graph-nodes = {}",
                src.limits.graph_nodes
            ),
        ));
    }
    let n = n as usize;
    let mut edges = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for edge in b.edges.as_ref().map_or(&[][..], |e| e.get_ref().as_slice()) {
        let [a, z] = edge.get_ref().as_slice() else {
            return Err(src.err(
                edge.span(),
                "an edge is a pair of nodes, as [\"a\", \"b\"] or [0, 1]",
            ));
        };
        let node = |r: &Spanned<NodeRef>| -> Result<usize> {
            match (r.get_ref(), names) {
                (NodeRef::Index(i), _) if (0..n as i64).contains(i) => Ok(*i as usize),
                (NodeRef::Index(i), _) => Err(src.err(
                    r.span(),
                    format!("node {i} does not exist: nodes are numbered 0 to {}", n - 1),
                )),
                (NodeRef::Name(name), Some(list)) => list
                    .iter()
                    .position(|l| l.get_ref() == name)
                    .ok_or_else(|| src.err(r.span(), format!("no node is named '{name}'"))),
                (NodeRef::Name(name), None) => Err(src.err(
                    r.span(),
                    format!("no node is named '{name}': `nodes` is a count, so nodes are numbers"),
                )),
            }
        };
        let (a, z) = (node(a)?, node(z)?);
        if a == z {
            return Err(src.err(edge.span(), "an edge joins two different nodes"));
        }
        if !seen.insert((a.min(z), a.max(z))) {
            return Err(src.err(edge.span(), "this edge is listed twice"));
        }
        edges.push((a, z));
    }
    let board = Board::graph_of(n, &edges);
    Ok(match names {
        Some(list) => board.with_names(list.iter().map(|l| l.get_ref().clone()).collect()),
        None => board,
    })
}

pub(super) fn build_grid(src: &Src, spec: &Spanned<BoardSpec>) -> Result<Board> {
    let b = spec.get_ref();
    let mut mask: Option<Vec<Vec<bool>>> = None;
    if let Some(shape) = &b.shape {
        let mut rows = Vec::new();
        for line in shape.get_ref() {
            let mut row = Vec::new();
            for (i, ch) in line.get_ref().char_indices() {
                row.push(match ch {
                    'o' => true,
                    '.' => false,
                    _ => {
                        return Err(src.err_at(
                            line.span().start + 1 + i,
                            format!(
                                "unexpected '{ch}' in shape: expected 'o' (a cell) or '.' (no cell)"
                            ),
                        ));
                    }
                });
            }
            if let Some(first) = rows.first().map(Vec::len)
                && first != row.len()
            {
                return Err(src.err(
                    line.span(),
                    format!(
                        "shape row has {} positions, the first has {first}",
                        row.len()
                    ),
                ));
            }
            rows.push(row);
        }
        if rows.iter().flatten().all(|&c| !c) {
            return Err(src.err(shape.span(), "the shape has no cell: mark cells with 'o'"));
        }
        mask = Some(rows);
    }
    let shape_dims = mask.as_ref().map(|m| (m.len(), m[0].len()));
    let dim = |value: &Option<Spanned<usize>>, key: &str, from_shape: Option<usize>| match (
        value, from_shape,
    ) {
        (Some(v), Some(s)) if *v.get_ref() != s => Err(src.err(
            v.span(),
            format!(
                "{key} = {} disagrees with the shape, which has {s}",
                v.get_ref()
            ),
        )),
        (Some(v), _) if *v.get_ref() == 0 => {
            Err(src.err(v.span(), format!("{key} must be at least 1")))
        }
        (Some(v), _) => Ok(*v.get_ref()),
        (None, Some(s)) => Ok(s),
        (None, None) => Err(src.err(spec.span(), format!("[board] needs `{key}` (or a `shape`)"))),
    };
    let rows = dim(&b.rows, "rows", shape_dims.map(|d| d.0))?;
    let cols = dim(&b.cols, "cols", shape_dims.map(|d| d.1))?;
    let max = src.limits.grid_positions;
    if rows as u128 * cols as u128 > u128::from(max) {
        return Err(src.err(
            spec.span(),
            format!(
                "the grid has {rows} x {cols} positions, past the limit grid-positions = {max}"
            ),
        ));
    }
    Ok(match mask {
        Some(m) => Board::grid(rows, cols, b.wrap, |r, c| m[r][c]),
        None => Board::rectangle(rows, cols, b.wrap),
    })
}

/// The `[limits]` table over the defaults: every name known, every value a
/// count or a size (`100M`, `2^25`).
pub(super) fn build_limits(src: &Src, spec: &Spec) -> Result<Limits> {
    let mut limits = Limits::default();
    for (name, value) in &spec.limits {
        let amount = match value.get_ref() {
            Amount::Count(n) => {
                u64::try_from(*n).map_err(|_| format!("expected a count of 0 or more, found {n}"))
            }
            Amount::Text(text) => crate::limits::parse_amount(text),
        }
        .and_then(|amount| match (name.get_ref().as_str(), value.get_ref()) {
            ("max-memory", Amount::Text(text)) => crate::limits::parse_memory(text),
            ("max-memory", Amount::Count(_)) => crate::limits::parse_memory(&amount.to_string()),
            _ => Ok(amount),
        })
        .map_err(|m| src.err(value.span(), m))?;
        if !limits.set(name.get_ref(), amount) {
            return Err(src.err(
                name.span(),
                format!(
                    "unknown limit '{}': expected one of {}",
                    name.get_ref(),
                    Limits::NAMES.join(", ")
                ),
            ));
        }
    }
    Ok(limits)
}

pub(super) fn build_symbols(src: &Src, spec: &SymbolsSpec) -> Result<Symbols> {
    let one = |s: &Spanned<String>, key: &str| -> Result<char> {
        let mut chars = s.get_ref().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_whitespace() && c != '/' => Ok(c),
            _ => Err(src.err(
                s.span(),
                format!("`{key}` must be one character, not whitespace and not '/'"),
            )),
        }
    };
    let or =
        |s: &Option<Spanned<String>>, default: char, key: &str| -> Result<(char, Range<usize>)> {
            match s {
                None => Ok((default, 0..0)),
                Some(s) => Ok((one(s, key)?, s.span())),
            }
        };
    let same =
        |a: char, b: char| a == b || (spec.ignore_case && a.to_lowercase().eq(b.to_lowercase()));
    let (gap, gap_span) = or(&spec.gap, '.', "gap")?;
    let states: Vec<(char, Range<usize>)> = match &spec.states {
        Some(states) => {
            if let Some(key) = spec.on.as_ref().or(spec.off.as_ref()) {
                return Err(src.err(
                    key.span(),
                    "`states` lists every colour, the clear one first: leave out `on` and `off`",
                ));
            }
            let list = states.get_ref();
            if list.len() < 2 {
                return Err(src.err(
                    states.span(),
                    format!(
                        "`states` lists the colours a cell cycles through: give at least two, \
                         found {}",
                        list.len()
                    ),
                ));
            }
            if list.len() as u64 > crate::zk::MAX_MODULUS {
                return Err(src.err(
                    states.span(),
                    format!("at most {} colours", crate::zk::MAX_MODULUS),
                ));
            }
            list.iter()
                .map(|s| Ok((one(s, "states")?, s.span())))
                .collect::<Result<_>>()?
        }
        None => {
            let (on, on_span) = or(&spec.on, 'o', "on")?;
            let (off, off_span) = or(&spec.off, '-', "off")?;
            vec![(off, off_span), (on, on_span)]
        }
    };
    for (i, (c, span)) in states.iter().enumerate() {
        let Some(j) = states[..i].iter().position(|&(d, _)| same(*c, d)) else {
            continue;
        };
        let (message, at) = if spec.states.is_some() {
            (
                format!("'{c}' is listed twice in `states`, as colours {j} and {i}"),
                span.clone(),
            )
        } else {
            let (off, on) = (&states[0], &states[1]);
            let at = if off.1.is_empty() {
                on.1.clone()
            } else {
                off.1.clone()
            };
            (
                format!("`on` '{}' and `off` '{}' are the same symbol", on.0, off.0),
                at,
            )
        };
        return Err(src.err(at, message));
    }
    if states.iter().any(|&(c, _)| same(gap, c)) {
        return Err(src.err(
            gap_span,
            format!("`gap` '{gap}' is also used for a cell: set a different `gap`"),
        ));
    }
    Ok(Symbols::with_states(
        states.into_iter().map(|(c, _)| c).collect(),
        gap,
        spec.ignore_case,
    ))
}
