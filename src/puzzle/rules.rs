//! Move rules as written to [`MoveRule`]s: presets as tables, offsets and directions checked.

use toml::Spanned;

use super::{Guard, MoveRule, Puzzle, Src};
use crate::board::{CellId, Dir};
use crate::error::Result;
use crate::spec::MoveSpec;

/// A preset's offsets on a board of `rows` x `cols`.
type Offsets = fn(i64, i64) -> Vec<Dir>;

/// The toggle presets: each gives its offsets on a board of `rows` x `cols`
/// (`row-and-column` reaches across the whole board). `open` and `closed`
/// are the board's own neighbourhoods, not offsets.
const TOGGLE_PRESETS: &[(&str, Offsets)] = &[
    ("self", |_, _| vec![d(0, 0)]),
    ("plus", |_, _| {
        vec![d(0, 0), d(-1, 0), d(1, 0), d(0, -1), d(0, 1)]
    }),
    ("x", |_, _| {
        vec![d(0, 0), d(-1, -1), d(-1, 1), d(1, -1), d(1, 1)]
    }),
    ("square", |_, _| {
        (-1..=1)
            .flat_map(|r| (-1..=1).map(move |c| d(r, c)))
            .collect()
    }),
    ("knight", |_, _| {
        vec![
            d(-2, -1),
            d(-2, 1),
            d(-1, -2),
            d(-1, 2),
            d(1, -2),
            d(1, 2),
            d(2, -1),
            d(2, 1),
        ]
    }),
    ("row-and-column", |rows, cols| {
        std::iter::once(d(0, 0))
            .chain((1..cols).flat_map(|k| [d(0, -k), d(0, k)]))
            .chain((1..rows).flat_map(|k| [d(-k, 0), d(k, 0)]))
            .collect()
    }),
];

/// The jump presets: the directions a piece may jump along.
const JUMP_PRESETS: &[(&str, &[Dir])] = &[
    ("orthogonal", &Dir::ORTHOGONAL),
    ("diagonal", &[d(-1, -1), d(-1, 1), d(1, -1), d(1, 1)]),
    ("all", &Dir::KING),
    ("triangular", &Dir::TRIANGULAR),
];

const fn d(dr: i64, dc: i64) -> Dir {
    Dir { dr, dc }
}

/// A preset table's names, for messages: `a, b, c`.
fn names<T>(table: &[(&str, T)]) -> String {
    let list: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
    match list.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => list.join(""),
    }
}

impl Puzzle {
    pub(super) fn build_rule(&self, src: &Src, spec: &Spanned<MoveSpec>) -> Result<MoveRule> {
        let m = spec.get_ref();
        let given = [
            m.toggle.is_some(),
            m.offsets.is_some(),
            m.press.is_some(),
            m.jump.is_some(),
            m.directions.is_some(),
        ];
        if given.iter().filter(|&&b| b).count() != 1 {
            return Err(src.err(
                spec.span(),
                "each [[moves]] rule takes exactly one of `toggle`, `offsets`, `press`, `jump` \
                 or `directions`",
            ));
        }
        if let (Some(flips), None) = (&m.flips, &m.press) {
            return Err(src.err(
                flips.span(),
                "`flips` goes with `press`: name the pressed cell",
            ));
        }
        let guard = match &m.when {
            None => Guard::Always,
            Some(w) if m.jump.is_some() || m.directions.is_some() => {
                return Err(src.err(
                    w.span(),
                    "`when` guards toggles; a jump already needs its own cells set and clear",
                ));
            }
            Some(w) => match w.get_ref().as_str() {
                "on" => Guard::On,
                "off" => Guard::Off,
                other => {
                    return Err(src.err(
                        w.span(),
                        format!(
                            "unknown guard '{other}': expected \"on\" (press only a lit cell) or \
                             \"off\""
                        ),
                    ));
                }
            },
        };
        let k = self.symbols.colours() as u64;
        let is_jump = m.jump.is_some() || m.directions.is_some();
        if k > 2 {
            let refused = match (&m.when, &m.jump, &m.directions) {
                (Some(w), _, _) => Some((w.span(), "a guard")),
                (_, Some(j), _) => Some((j.span(), "jumps")),
                (_, _, Some(d)) => Some((d.span(), "jumps")),
                _ => None,
            };
            if let Some((span, what)) = refused {
                return Err(src.err(
                    span,
                    format!(
                        "this puzzle has {k} colours (`states`), and {what} needs two: a puzzle \
                         of more colours takes unguarded toggles only"
                    ),
                ));
            }
        }
        for (key, value) in [("amount", &m.amount), ("centre", &m.centre)] {
            if let Some(value) = value
                && (is_jump || m.press.is_some())
            {
                let why = if is_jump {
                    "a jump moves a piece; amounts go with toggles"
                } else {
                    "a press's amounts are the colours written in its `flips`"
                };
                return Err(src.err(value.span(), format!("`{key}` does not go here: {why}")));
            }
        }
        let amount = match &m.amount {
            None => 1,
            Some(a) => match a.get_ref().rem_euclid(k as i64) as u64 {
                0 => {
                    return Err(src.err(
                        a.span(),
                        format!(
                            "amount {} is a whole number of turns of the {k} colours: a press \
                             would change nothing",
                            a.get_ref()
                        ),
                    ));
                }
                r => r,
            },
        };
        let centre = m
            .centre
            .as_ref()
            .map(|c| c.get_ref().rem_euclid(k as i64) as u64);
        let board = &self.board;
        let graph = board.is_graph();
        if let Some(cell) = &m.press {
            let Some(flips) = &m.flips else {
                return Err(src.err(
                    spec.span(),
                    "a `press` rule needs `flips`: the board text of the cells it toggles",
                ));
            };
            let cell = self.cell_named(src, cell.get_ref(), cell.span().start + 1)?;
            let (flips, amounts): (Vec<CellId>, Vec<u64>) = if k > 2 {
                self.read_colours_spanned(src, flips)?
                    .into_iter()
                    .enumerate()
                    .filter(|&(_, a)| a != 0)
                    .map(|(c, a)| (CellId(c), a))
                    .unzip()
            } else {
                self.read_spanned(src, flips)?
                    .ones_iter()
                    .map(|c| (CellId(c), 1))
                    .unzip()
            };
            if flips.is_empty() {
                return Err(src.err(
                    m.flips.as_ref().map_or(spec.span(), |f| f.span()),
                    "`flips` toggles no cell: mark at least one",
                ));
            }
            return Ok(MoveRule::Press {
                cell,
                flips,
                amounts,
                guard,
            });
        }
        if let Some(name) = &m.toggle {
            let name_str = name.get_ref().as_str();
            if let "open" | "closed" = name_str {
                if let (Some(c), "open") = (&m.centre, name_str) {
                    return Err(src.err(
                        c.span(),
                        "`centre` goes with a pattern that holds the pressed cell: an `open` \
                         toggle leaves it alone (use `closed`)",
                    ));
                }
                let centre = centre.unwrap_or(amount);
                return Ok(MoveRule::Adjacent {
                    closed: name_str == "closed" && centre != 0,
                    amounts: [centre, amount],
                    guard,
                });
            }
            if graph && name_str != "self" {
                return Err(src.err(
                    name.span(),
                    format!(
                        "toggle '{name_str}' needs a grid; on a graph board a toggle is `open`, \
                         `closed` or `self`, or a per-cell `press`"
                    ),
                ));
            }
            let Some(&(_, offsets)) = TOGGLE_PRESETS.iter().find(|(n, _)| *n == name_str) else {
                return Err(src.err(
                    name.span(),
                    format!(
                        "unknown toggle preset '{name_str}': expected {}, open or closed",
                        TOGGLE_PRESETS
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            };
            let mut offsets = offsets(board.rows() as i64, board.cols() as i64);
            let mut amounts = vec![amount; offsets.len()];
            if let Some(centre) = centre {
                match offsets.iter().position(|&o| o == d(0, 0)) {
                    Some(i) => amounts[i] = centre,
                    None => {
                        offsets.push(d(0, 0));
                        amounts.push(centre);
                    }
                }
            }
            let (offsets, amounts) = offsets
                .into_iter()
                .zip(amounts)
                .filter(|&(_, a)| a != 0)
                .unzip();
            return Ok(MoveRule::Toggle {
                offsets,
                amounts,
                guard,
            });
        }
        let lattice_steps = board.steps();
        if let Some(name) = &m.jump {
            if graph {
                return Err(src.err(
                    name.span(),
                    "jumps need a grid board: a graph has no lines of three cells to jump along",
                ));
            }
            let Some(&(_, dirs)) = JUMP_PRESETS.iter().find(|(n, _)| n == name.get_ref()) else {
                return Err(src.err(
                    name.span(),
                    format!(
                        "unknown jump preset '{}': expected {}",
                        name.get_ref(),
                        names(JUMP_PRESETS)
                    ),
                ));
            };
            let dirs = dirs.to_vec();
            if let Some(bad) = dirs.iter().find(|d| !lattice_steps.contains(d)) {
                return Err(src.err(
                    name.span(),
                    format!(
                        "jump preset '{}' steps [{}, {}], which is not a step of the triangular \
                         lattice: use `jump = \"triangular\"`",
                        name.get_ref(),
                        bad.dr,
                        bad.dc
                    ),
                ));
            }
            return Ok(MoveRule::Jump(dirs));
        }
        let (list, is_jump) = match (&m.offsets, &m.directions) {
            (Some(list), _) => (list, false),
            (_, Some(list)) => (list, true),
            _ => unreachable!("exactly one move key is set"),
        };
        if graph {
            return Err(src.err(
                list.span(),
                "a graph board has no grid offsets: use `toggle = \"open\"` or \"closed\", or \
                 a per-cell `press`",
            ));
        }
        if list.get_ref().is_empty() {
            return Err(src.err(
                list.span(),
                "the list is empty: give at least one [row, col]",
            ));
        }
        if let (Some(c), false) = (&m.centre, is_jump) {
            return Err(src.err(
                c.span(),
                "`centre` goes with a preset: in `offsets`, give the pressed cell as [0, 0, amount]",
            ));
        }
        let mut dirs: Vec<Dir> = Vec::new();
        let mut amounts: Vec<u64> = Vec::new();
        let range = src.limits.offset_range;
        for item in list.get_ref() {
            let (dr, dc, own) = match *item.get_ref().as_slice() {
                [dr, dc] => (dr, dc, amount),
                [dr, dc, a] if !is_jump => (dr, dc, a.rem_euclid(k as i64) as u64),
                _ => {
                    let expected = if is_jump {
                        "a pair [row, col]"
                    } else {
                        "[row, col] or [row, col, amount]"
                    };
                    return Err(src.err(
                        item.span(),
                        format!(
                            "expected {expected}, found {} numbers",
                            item.get_ref().len()
                        ),
                    ));
                }
            };
            if dr.unsigned_abs() > range || dc.unsigned_abs() > range {
                return Err(src.err(
                    item.span(),
                    format!("offset [{dr}, {dc}] is past the limit offset-range = ±{range}"),
                ));
            }
            let dir = d(dr, dc);
            if is_jump && (dr.abs() > 1 || dc.abs() > 1 || (dr, dc) == (0, 0)) {
                return Err(src.err(
                    item.span(),
                    "a jump direction is one step to a neighbour: row and col in -1..=1, not both 0",
                ));
            }
            if is_jump && !lattice_steps.contains(&dir) {
                return Err(src.err(
                    item.span(),
                    format!(
                        "[{dr}, {dc}] is not a step of the triangular lattice: its steps are \
                         [0, ±1], [±1, 0], [1, 1] and [-1, -1]"
                    ),
                ));
            }
            if dirs.contains(&dir) {
                return Err(src.err(item.span(), format!("[{dr}, {dc}] is listed twice")));
            }
            dirs.push(dir);
            amounts.push(own);
        }
        if is_jump {
            return Ok(MoveRule::Jump(dirs));
        }
        let (offsets, amounts): (Vec<Dir>, Vec<u64>) = dirs
            .into_iter()
            .zip(amounts)
            .filter(|&(_, a)| a != 0)
            .unzip();
        if offsets.is_empty() {
            return Err(src.err(
                list.get_ref()[0].span(),
                format!(
                    "every amount is a whole number of turns of the {k} colours: a press would \
                     change nothing"
                ),
            ));
        }
        Ok(MoveRule::Toggle {
            offsets,
            amounts,
            guard,
        })
    }
}
