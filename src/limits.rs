//! Every limit on pegflip's work: named, defaulted, settable, and the one place a limit error is built.
//!
//! A limit is set in a puzzle file's `[limits]` table (`max-states = 1000000`),
//! with `--set limits.max-states=1000000`, or for `max-memory` with
//! `--max-memory 2G` on any command. Sizes take the suffixes K, M and G.
//! Passing one is never silent: [`Limits::exceeded`] (or, for a bound that
//! is not a setting, [`Limits::exceeded_bound`]) builds the error that names
//! the limit, the value found and what to change; nothing else builds one.
//!
//! A few bounds are not settings but facts of a representation, and are
//! listed here as constants: [`SEARCH_CELLS`], [`WIDE_SEARCH_CELLS`] and
//! [`TABLE_CELLS`].

use crate::error::Error;

/// The most cells a search state may have: one 64-bit word.
pub const SEARCH_CELLS: usize = 64;

/// The most cells the peg engines that take two words may have: fewest
/// moves (the move levels) and the jump search keep a state of a larger
/// board in one 128-bit word.
pub const WIDE_SEARCH_CELLS: usize = 128;

/// The most cells an answer table may have: one byte per state, 2^26 bytes.
pub const TABLE_CELLS: usize = 26;

macro_rules! limits {
    ($( $(#[doc = $doc:literal])* $field:ident: $name:literal = $default:expr; )*) => {
        /// The limits in force, each a named setting with a documented default.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Limits {
            $( $(#[doc = $doc])* pub $field: u64, )*
        }

        impl Default for Limits {
            fn default() -> Self {
                Limits { $( $field: $default, )* }
            }
        }

        impl Limits {
            /// Every limit's name, as written in `[limits]` and in messages.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// The value of the limit called `name`.
            pub fn get(&self, name: &str) -> Option<u64> {
                match name {
                    $( $name => Some(self.$field), )*
                    _ => None,
                }
            }

            /// Each limit at most `ceiling`'s: what a file may ask for where
            /// another party sets the bounds (the page's server).
            pub fn at_most(&self, ceiling: &Limits) -> Limits {
                Limits { $( $field: self.$field.min(ceiling.$field), )* }
            }

            /// Sets the limit called `name`; false when there is no such limit.
            pub fn set(&mut self, name: &str, value: u64) -> bool {
                match name {
                    $( $name => { self.$field = value; true } )*
                    _ => false,
                }
            }
        }
    };
}

limits! {
    /// The most memory one run may plan to use, in bytes; default 60% of the
    /// machine's memory (8 GiB where it cannot be read). The planner refuses
    /// a query whose estimated peak passes it; engines whose work is not
    /// known before they run (searches, levels, layers) stop with the limit
    /// error when what they hold would pass it.
    max_memory: "max-memory" = default_max_memory();
    /// The most states one search may visit; default 2^25.
    max_states: "max-states" = 1 << 25;
    /// The most 64-bit word operations dense GF(2) elimination may be
    /// estimated to take; default 2^35, about half a minute here.
    gf2_work: "gf2-work" = 1 << 35;
    /// The most residue operations elimination or light chasing modulo k
    /// (a puzzle of k colours) may be estimated to take; default 2^36, about
    /// half a minute here.
    zk_work: "zk-work" = 1 << 36;
    /// The most work `generate` may spend, in word operations: on counting
    /// every state to draw from a layer (the planner's estimate), or on the
    /// candidates drawn and tested for one board; default 2^30, a few seconds.
    generate_work: "generate-work" = 1 << 30;
    /// The most word operations spent walking a solution coset for the fewest
    /// presses; default 2^32. Past it the answer is the best found, marked not optimal.
    coset_work: "coset-work" = 1 << 32;
    /// The positions each level keeps in the beam search that looks for a
    /// short solution by moves before the levels prove the fewest; default
    /// 0, no beam. With a beam, a proof stopped by a limit answers with the
    /// shortest solution found, marked not proven fewest.
    beam: "beam" = 0;
    /// The largest bound on moves the move levels search with; default no
    /// limit. Past it they stop with this limit's error, which says what the
    /// searches before proved (with a beam, the beam's solution is the answer).
    max_bound: "max-bound" = u64::MAX;
    /// The most positions a grid's bounding rectangle may have; default 2^27,
    /// room for a 10,000 x 10,000 board.
    grid_positions: "grid-positions" = 1 << 27;
    /// The most nodes a graph board may have; default 2^20.
    graph_nodes: "graph-nodes" = 1 << 20;
    /// The largest offset or direction component a move rule may use; default 2^20.
    offset_range: "offset-range" = 1 << 20;
    /// The most cell entries the listed moves may hold together (the cells
    /// each move flips, summed); default 2^28.
    move_entries: "move-entries" = 1 << 28;
    /// The most bits the goal's targets may hold together (targets x cells); default 2^30.
    goal_bits: "goal-bits" = 1 << 30;
    /// The most automorphisms `--symmetry` works with; default 4,096.
    symmetries: "symmetries" = 4096;
    /// The most states `graph` draws; default 10,000.
    graph_states: "graph-states" = 10_000;
}

impl Limits {
    /// The error for a value past the limit `name`: `what` says what was
    /// measured (or estimated), `hint` what to change.
    pub fn exceeded(
        &self,
        name: &'static str,
        what: impl Into<String>,
        value: u128,
        hint: impl Into<String>,
    ) -> Error {
        Limits::exceeded_bound(
            name,
            what,
            value,
            self.get(name).map_or(0, u128::from),
            hint,
        )
    }

    /// The error for a value past a bound that is not one of these settings
    /// as it stands: a representation bound ([`SEARCH_CELLS`]), an engine's
    /// fixed capacity, or a worker's share of `max-memory`. `name` is the
    /// limit the user would change.
    pub fn exceeded_bound(
        name: &'static str,
        what: impl Into<String>,
        value: u128,
        limit: u128,
        hint: impl Into<String>,
    ) -> Error {
        Error::Limit {
            what: what.into(),
            name,
            value,
            limit,
            hint: hint.into(),
        }
    }

    /// `Err` when `value` is past the limit `name`.
    pub fn check(
        &self,
        name: &'static str,
        what: impl Into<String>,
        value: u128,
        hint: impl Into<String>,
    ) -> Result<(), Error> {
        match self.get(name) {
            Some(limit) if value > u128::from(limit) => Err(self.exceeded(name, what, value, hint)),
            _ => Ok(()),
        }
    }
}

/// `Err` naming the bound `name` when `cells` is past `bound`, one of the
/// representation bounds above ([`SEARCH_CELLS`], [`WIDE_SEARCH_CELLS`],
/// [`TABLE_CELLS`]).
pub fn require_cells(
    name: &'static str,
    bound: usize,
    cells: usize,
    hint: impl Into<String>,
) -> Result<(), Error> {
    if cells > bound {
        return Err(Limits::exceeded_bound(
            name,
            "the number of cells",
            cells as u128,
            bound as u128,
            hint,
        ));
    }
    Ok(())
}

/// 60% of the machine's memory (8 GiB where it cannot be read).
pub fn default_max_memory() -> u64 {
    machine_memory().map_or(8 << 30, |t| t / 10 * 6)
}

/// The machine's memory, where the system tells it.
pub fn machine_memory() -> Option<u64> {
    let m = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The memory this process holds (its resident set), where the system tells it.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Reads a size or count: digits with an optional K, M or G (powers of 1024),
/// or `2^N`. `Err` says what was expected.
pub fn parse_amount(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if let Some(exp) = t.strip_prefix("2^") {
        return match exp.parse::<u32>() {
            Ok(e) if e < 64 => Ok(1 << e),
            _ => Err(format!("expected 2^N with N from 0 to 63, found '{text}'")),
        };
    }
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("expected a number (with K, M or G), found '{text}'"))?;
    let scale: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        _ => return Err(format!("unknown unit '{unit}' in '{text}': use K, M or G")),
    };
    n.checked_mul(scale)
        .ok_or_else(|| format!("'{text}' is too large"))
}

/// Bytes in words: `1.5 GiB`, `300 MiB`, `12 KiB`, `512 bytes`.
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [(&str, u128); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit}", bytes as f64 / size as f64);
        }
    }
    format!("{bytes} bytes")
}

/// The bytes of the running program that its heap does not show: its code,
/// its threads' stacks and the allocator's own pages and arenas (6 to 8 MiB
/// measured with GNU time before an engine holds anything).
pub const PROCESS_BYTES: u128 = 8 << 20;

/// The least `max-memory` there is: the program itself (its code, stacks
/// and the allocator's own pages) takes 6 to 8 MiB before it holds anything,
/// so a smaller limit could not be kept.
pub const MIN_MEMORY: u64 = 16 << 20;

/// Reads a `max-memory` value, as [`parse_amount`] does, refusing one under
/// [`MIN_MEMORY`].
pub fn parse_memory(text: &str) -> Result<u64, String> {
    let bytes = parse_amount(text)?;
    if bytes < MIN_MEMORY {
        return Err(format!(
            "max-memory must be at least 16M ({MIN_MEMORY} bytes), not '{}': the program \
             itself takes 6 to 8 MiB",
            text.trim()
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips() {
        let mut limits = Limits::default();
        for (i, name) in Limits::NAMES.iter().enumerate() {
            assert!(limits.set(name, i as u64 + 7));
            assert_eq!(limits.get(name), Some(i as u64 + 7));
        }
        assert!(!limits.set("no-such-limit", 1));
    }

    #[test]
    fn amounts() {
        assert_eq!(parse_amount("100M"), Ok(100 << 20));
        assert_eq!(parse_amount("2^25"), Ok(1 << 25));
        assert_eq!(parse_amount("4g"), Ok(4 << 30));
        assert!(parse_amount("2^64").is_err());
        assert!(parse_amount("99999999999999999999G").is_err());
        assert!(parse_amount("12X").is_err());
        assert!(parse_amount("").is_err());
        assert_eq!(parse_memory("16M"), Ok(16 << 20));
        assert!(parse_memory("15M").unwrap_err().contains("at least 16M"));
        assert!(parse_memory("0").is_err());
    }
}
