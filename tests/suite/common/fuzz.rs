//! Generated inputs for robustness tests: mutated puzzle files, boards, batch input and
//! `--set` overrides, each from a seed. Shared by `tests/suite/fuzz.rs` (a few thousand under
//! proptest) and `examples/fuzz.rs` (millions).

use std::panic::{AssertUnwindSafe, catch_unwind};

use pegflip::{Bits, Error, Limits, Override, Preference, Puzzle};

/// A small, fast, seeded generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Seed puzzle texts: the shipped puzzles and a few variants.
pub const PUZZLES: [&str; 10] = [
    include_str!("../../../puzzles/flip4x4.toml"),
    include_str!("../../../puzzles/pebble12.toml"),
    include_str!("../../../puzzles/lights-out.toml"),
    include_str!("../../../puzzles/lights-out-torus.toml"),
    include_str!("../../../puzzles/merlin.toml"),
    include_str!("../../../puzzles/petersen.toml"),
    include_str!("../../../puzzles/triangle15.toml"),
    include_str!("../../../puzzles/english33.toml"),
    "name = \"c\"\nstart = \"empty but t\"\n[board]\nnodes = [\"t\", \"n\", \"s\"]\n\
     edges = [[\"t\", \"n\"], [1, 2]]\n[[moves]]\ntoggle = \"open\"\nwhen = \"on\"\n\
     [[moves]]\npress = \"s\"\nflips = \"oo-\"\n[goal]\none-piece = \"anywhere\"\n",
    "name = \"s\"\nstart = \"..o../.ooo./ooooo\"\n[board]\nshape = [\"..o..\", \".ooo.\", \"ooooo\"]\n\
     [[moves]]\njump = \"all\"\n[[moves]]\noffsets = [[0, 0], [0, 2]]\n[goal]\ntarget = \"all-off\"\n",
];

/// Fragments that make mutations interesting to a TOML parser and to validation.
const FRAGMENTS: [&str; 44] = [
    "lattice = \"triangular\"\n",
    "nodes = ",
    "edges = [[",
    "names = \"chess\"\n",
    "names = [\"",
    "press = \"",
    "flips = \"",
    "when = \"on\"\n",
    "one-piece = \"",
    "full but ",
    "target = \"all-same\"\n",
    "toggle = \"row-and-column\"\n",
    "[",
    "]",
    "[[",
    "]]",
    "=",
    "\"",
    "'",
    ",",
    "\n",
    " ",
    "#",
    ".",
    "-",
    "o",
    "/",
    "0",
    "-1",
    "99999999999999999999",
    "4294967296",
    "1e9",
    "true",
    "[board]",
    "[[moves]]",
    "[goal]",
    "rows = ",
    "cols = ",
    "shape = ",
    "toggle = \"",
    "jump = \"",
    "offsets = [[",
    "\u{a0}",
    "é",
];

/// A puzzle text: a seed text with a few random edits.
pub fn puzzle_text(rng: &mut Rng) -> String {
    let mut text: Vec<char> = PUZZLES[rng.below(PUZZLES.len())].chars().collect();
    for _ in 0..rng.below(4) {
        let at = rng.below(text.len() + 1);
        match rng.below(4) {
            0 => {
                let end = (at + rng.below(12)).min(text.len());
                text.drain(at..end);
            }
            1 | 2 => {
                let frag: Vec<char> = rng.pick(&FRAGMENTS).chars().collect();
                text.splice(at..at, frag);
            }
            _ => {
                // Swap a digit for a large or odd number.
                if let Some(i) = text.iter().skip(at).position(|c| c.is_ascii_digit()) {
                    let n: Vec<char> = rng
                        .pick(&["0", "65", "4097", "100000", "-3"])
                        .chars()
                        .collect();
                    let i = at + i;
                    text.splice(i..i + 1, n);
                }
            }
        }
    }
    text.into_iter().collect()
}

/// A board text (rows joined by `/`), mostly near-valid.
pub fn board_text(rng: &mut Rng) -> String {
    let alphabet = [
        "b", "w", "B", "W", "o", "-", ".", "#", "/", "x", " ", "\u{a0}", "é", "oo",
    ];
    (0..rng.below(40)).map(|_| rng.pick(&alphabet)).collect()
}

/// Batch input: a count or not, rows of symbols, stray whitespace.
pub fn batch_input(rng: &mut Rng) -> Vec<u8> {
    let alphabet = [
        "b",
        "w",
        "o",
        "-",
        "oooo",
        "bwbw",
        "----oo------",
        "\n",
        " ",
        "\t",
        "\u{a0}",
        "3",
        "x",
        "\r\n",
    ];
    let mut text = String::new();
    if rng.below(2) == 0 {
        text.push_str(&format!("{}\n", rng.below(6)));
    }
    for _ in 0..rng.below(60) {
        text.push_str(rng.pick(&alphabet));
    }
    let mut bytes = text.into_bytes();
    if rng.below(20) == 0 {
        let at = rng.below(bytes.len() + 1);
        bytes.insert(at, 0xff);
    }
    bytes
}

/// A `--set` argument.
pub fn override_arg(rng: &mut Rng) -> String {
    let keys = [
        "board.rows",
        "board.cols",
        "board.wrap",
        "board.shape",
        "moves.0.toggle",
        "moves.1.jump",
        "moves.0",
        "goal.target",
        "goal.any",
        "symbols.on",
        "symbols.gap",
        "batch.header",
        "name.x",
        "",
        "a..b",
        "start",
    ];
    let values = [
        "3",
        "0",
        "-1",
        "70000",
        "true",
        "\"plus\"",
        "x",
        "[\"oo\", \"o.\"]",
        "[[0, 1]]",
        "\"all-on\"",
        "",
        "=",
        "\"count\"",
    ];
    let key = rng.pick(&keys);
    if rng.below(10) == 0 {
        return key.to_string();
    }
    format!("{key}={}", rng.pick(&values))
}

/// What one generated case did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub cases: u64,
    pub accepted: u64,
    pub rejected: u64,
}

/// An error a user may see: bad input with its place, a named limit, or a usage error.
fn acceptable(e: &Error) -> Result<(), String> {
    match e {
        Error::Input(d) if d.line >= 1 && d.col >= 1 && !d.message.is_empty() => Ok(()),
        Error::Limit { .. } | Error::Usage(_) => Ok(()),
        other => Err(format!("unexpected error: {other}")),
    }
}

/// Runs one seeded case through parsing, overrides, boards, solving and batch.
/// `Err` says what went wrong: a panic or an error of the wrong kind.
pub fn run_case(seed: u64) -> Result<Tally, String> {
    catch_unwind(AssertUnwindSafe(|| case(seed))).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("seed {seed}: panic: {what}"))
    })
}

fn case(seed: u64) -> Result<Tally, String> {
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut note = |r: &Result<(), String>| {
        tally.cases += 1;
        match r {
            Ok(()) => tally.accepted += 1,
            Err(_) => tally.rejected += 1,
        }
    };
    let text = puzzle_text(&mut rng);
    let overrides: Vec<Override> = (0..rng.below(3))
        .filter_map(|_| {
            let arg = override_arg(&mut rng);
            match Override::parse(&arg) {
                Ok(o) => Some(o),
                Err(e) => {
                    note(&Err(String::new()));
                    acceptable(&e)
                        .err()
                        .map(|_| unreachable!("override errors are input errors"))
                }
            }
        })
        .collect();
    let puzzle = match Puzzle::parse_with(&text, "fuzz.toml", &overrides) {
        Ok(p) => {
            note(&Ok(()));
            p
        }
        Err(e) => {
            note(&Err(String::new()));
            acceptable(&e).map_err(|m| format!("seed {seed}: puzzle: {m}"))?;
            return Ok(tally);
        }
    };
    // Boards, in both forms.
    let board = board_text(&mut rng);
    for read in [
        puzzle.read_board(&board, "<board>"),
        puzzle.read_board_lines(&board.replace('/', "\n"), "<stdin>"),
    ] {
        match read {
            Ok(_) => note(&Ok(())),
            Err(e) => {
                note(&Err(String::new()));
                acceptable(&e).map_err(|m| format!("seed {seed}: board: {m}"))?;
            }
        }
    }
    if puzzle.board.cells() > 20 {
        return Ok(tally);
    }
    let program = puzzle
        .compile()
        .map_err(|e| format!("seed {seed}: compile: {e}"))?;
    let limits = Limits {
        max_states: 1 << 16,
        ..Default::default()
    };
    let start = Bits::from_u64(
        program.cells(),
        rng.next() & ((1u64 << program.cells()) - 1),
    );
    for kind in [Preference::Auto, Preference::Search, Preference::Gf2] {
        match pegflip::solve_with(&program, &start, &limits, kind) {
            Ok(_) => note(&Ok(())),
            Err(e) => {
                note(&Err(String::new()));
                acceptable(&e).map_err(|m| format!("seed {seed}: solve: {m}"))?;
            }
        }
    }
    let input = batch_input(&mut rng);
    match pegflip::batch(&program, &input, "<stdin>", &limits, Preference::Auto) {
        Ok(_) => note(&Ok(())),
        Err(e) => {
            note(&Err(String::new()));
            acceptable(&e).map_err(|m| format!("seed {seed}: batch: {m}"))?;
        }
    }
    Ok(tally)
}
