//! The characters of board text: which one means a set cell, a clear cell, or no cell; or, on a
//! puzzle of k colours, which colour.

/// What one character of board text stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sym {
    /// A set cell: a piece, a lit light, a black side.
    On,
    /// A clear cell.
    Off,
    /// A position of the bounding grid that is not a cell.
    Gap,
}

/// The puzzle's symbols, with a lookup table for ASCII input.
#[derive(Clone, Debug)]
pub struct Symbols {
    on: char,
    off: char,
    gap: char,
    ignore_case: bool,
    /// The colours in cycle order: `[off, on]` on a two-colour puzzle.
    states: Vec<char>,
    ascii: [Option<Sym>; 128],
    /// Per byte: 1 for on, 0 for off, 2 for anything else.
    row_bits: [u8; 256],
}

impl Symbols {
    /// Symbols from their characters. The caller checks they are distinct.
    pub fn new(on: char, off: char, gap: char, ignore_case: bool) -> Symbols {
        Symbols::with_states(vec![off, on], gap, ignore_case)
    }

    /// Symbols for a puzzle of `states.len()` colours (at least two), in
    /// cycle order; the first is the clear colour and the second the set one.
    /// The caller checks they are distinct.
    pub fn with_states(states: Vec<char>, gap: char, ignore_case: bool) -> Symbols {
        assert!(states.len() >= 2, "a puzzle has at least two colours");
        let mut symbols = Symbols {
            on: states[1],
            off: states[0],
            gap,
            ignore_case,
            states,
            ascii: [None; 128],
            row_bits: [2; 256],
        };
        for code in 0u8..128 {
            let sym = symbols.classify_slow(code as char);
            symbols.ascii[code as usize] = sym;
            symbols.row_bits[code as usize] = match sym {
                Some(Sym::On) => 1,
                Some(Sym::Off) => 0,
                _ => 2,
            };
        }
        symbols
    }

    /// The character written for a set cell.
    pub fn on(&self) -> char {
        self.on
    }

    /// The character written for a clear cell.
    pub fn off(&self) -> char {
        self.off
    }

    /// The character written where the grid has no cell.
    pub fn gap(&self) -> char {
        self.gap
    }

    /// Whether letters match in either case.
    pub fn ignore_case(&self) -> bool {
        self.ignore_case
    }

    /// The colours in cycle order: `[off, on]` on a two-colour puzzle.
    pub fn states(&self) -> &[char] {
        &self.states
    }

    /// The number of colours, k.
    pub fn colours(&self) -> usize {
        self.states.len()
    }

    /// The colour `c` stands for (its place in [`Symbols::states`]), or
    /// `None` for the gap or a foreign character.
    pub fn digit(&self, c: char) -> Option<usize> {
        let same = |a: char, b: char| {
            a == b || (self.ignore_case && a.to_lowercase().eq(b.to_lowercase()))
        };
        self.states.iter().position(|&s| same(c, s))
    }

    /// The colours in words, for error messages: `'-', 'r' or 'g'`.
    pub fn describe_states(&self, with_gap: bool) -> String {
        let mut list: Vec<String> = self.states.iter().map(|c| format!("'{c}'")).collect();
        if with_gap {
            list.push(format!("'{}' (no cell)", self.gap));
        }
        let last = list.pop().unwrap_or_default();
        let mut text = format!("{} or {last}", list.join(", "));
        if self.ignore_case {
            text.push_str(", in either case");
        }
        text
    }

    /// What `c` stands for, or `None` for a foreign character.
    #[inline]
    pub fn classify(&self, c: char) -> Option<Sym> {
        if c.is_ascii() {
            self.ascii[c as usize]
        } else {
            self.classify_slow(c)
        }
    }

    /// What the ASCII byte `b` stands for; `None` for foreign or non-ASCII bytes.
    #[inline]
    pub fn classify_ascii(&self, b: u8) -> Option<Sym> {
        self.ascii.get(b as usize).copied().flatten()
    }

    /// The set cells of a row of at most 64 ASCII on/off symbols, as a mask
    /// (bit `i` for byte `i`); `None` if any byte is something else. Branch-free.
    #[inline]
    pub fn row_mask(&self, row: &[u8]) -> Option<u64> {
        debug_assert!(row.len() <= 64);
        let (mut mask, mut bad) = (0u64, 0u8);
        for (i, &b) in row.iter().enumerate() {
            let v = self.row_bits[b as usize];
            bad |= v;
            mask |= u64::from(v & 1) << i;
        }
        (bad & 2 == 0).then_some(mask)
    }

    /// The character for a symbol.
    pub fn char_of(&self, sym: Sym) -> char {
        match sym {
            Sym::On => self.on,
            Sym::Off => self.off,
            Sym::Gap => self.gap,
        }
    }

    /// The symbols in words, for error messages: `'b' (on), 'w' (off)`.
    pub fn describe(&self, with_gap: bool) -> String {
        let mut text = format!("'{}' (on) or '{}' (off)", self.on, self.off);
        if with_gap {
            text = format!(
                "'{}' (on), '{}' (off) or '{}' (no cell)",
                self.on, self.off, self.gap
            );
        }
        if self.ignore_case {
            text.push_str(", in either case");
        }
        text
    }

    fn classify_slow(&self, c: char) -> Option<Sym> {
        let same = |a: char, b: char| {
            a == b || (self.ignore_case && a.to_lowercase().eq(b.to_lowercase()))
        };
        [Sym::On, Sym::Off, Sym::Gap]
            .into_iter()
            .find(|&s| same(c, self.char_of(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_folding_only_when_asked() {
        let s = Symbols::new('b', 'w', '.', true);
        assert_eq!(s.classify('B'), Some(Sym::On));
        assert_eq!(s.classify('W'), Some(Sym::Off));
        assert_eq!(s.classify('x'), None);
        let s = Symbols::new('b', 'w', '.', false);
        assert_eq!(s.classify('B'), None);
        assert_eq!(s.classify_ascii(b'.'), Some(Sym::Gap));
    }
}
