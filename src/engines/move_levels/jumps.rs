//! The jumps of a program by the cells a peg leaves and lands on, and the chains of jumps by one peg that make a move.

use crate::error::{Error, Result};
use crate::program::masks::Masks;
use crate::program::{MoveKind, Program};
use crate::symmetry::Symmetries;
use crate::word::Word;

/// The jumps of a program, by the cell a peg leaves and the cell it lands on.
pub(super) struct Jumps<W: Word> {
    pub(super) masks: Masks<W>,
    /// Per jump: the cell it leaves and the cell it lands on.
    pub(super) from: Vec<usize>,
    pub(super) to: Vec<usize>,
    /// Per jump: the cell it leaves, the cell it jumps over and the cell it lands on.
    pub(super) lines: Vec<[usize; 3]>,
    /// Per cell: the jumps leaving it, with their landing cell.
    pub(super) leaving: Vec<Vec<(usize, usize)>>,
    /// Per cell: the jumps landing on it, with the cell they leave.
    pub(super) landing: Vec<Vec<(usize, usize)>>,
    /// The jumps as the successor search takes them: played forward by the
    /// peg that leaves a cell, and reversed by the peg that landed on one.
    ahead: Steps<W>,
    behind: Steps<W>,
}

/// One jump as a step of a chain: the bits of its three cells, which of
/// them must hold pegs for it to be played (the rest must be holes), and
/// the cell the moving peg stands on after it.
#[derive(Clone, Copy)]
struct Step<W: Word> {
    line: W,
    need: W,
    next: u32,
    /// The jump's index, for its images.
    jump: u32,
}

/// The steps a peg on each cell can take, all cells' in one array.
struct Steps<W: Word> {
    steps: Vec<Step<W>>,
    /// The steps of cell `c` are `steps[first[c]..first[c + 1]]`.
    first: Vec<u32>,
    /// The steps grouped by their shape, when few shapes cover them all.
    patterns: Option<Vec<Pattern<W>>>,
}

/// Steps of one shape: the other two cells of the line at the same offsets
/// from the moving peg, each a peg or a hole alike. Where they can be taken
/// in a position is one AND of shifted copies of it.
struct Pattern<W: Word> {
    /// The cells a peg takes such a step from.
    anchors: W,
    /// The other two cells, as offsets from the anchor.
    offsets: [i32; 2],
    /// Whether each of them must hold a peg (else a hole).
    pegs: [bool; 2],
    /// Per anchor, the index of its step.
    step_of: Vec<u32>,
}

/// The positions a parent's chains have gone on from, each with the cell of
/// the moving peg, up to `most` of them: past it a chain is not gone on
/// from, and `truncated` says that successors were lost.
struct Seen<W: Word> {
    set: rustc_hash::FxHashSet<(W, u32)>,
    most: usize,
    truncated: bool,
}

impl<W: Word> Seen<W> {
    /// Whether `key` is new (and it is now held).
    #[inline]
    fn insert(&mut self, key: (W, u32)) -> bool {
        if self.set.len() < self.most {
            return self.set.insert(key);
        }
        self.truncated |= !self.set.contains(&key);
        false
    }

    /// Empties the set for the next parent.
    fn reset(&mut self) {
        if !self.set.is_empty() {
            // A parent with many chains leaves a large table: not cleared slot by slot.
            if self.set.capacity() > 1 << 12 {
                self.set = Default::default();
            } else {
                self.set.clear();
            }
        }
    }
}

/// The steps a chain takes before the positions it reaches are looked up in
/// [`Seen`]: two orders of the same two jumps by one peg cannot end on the
/// same cell where a jump passes over the middle of its line, and elsewhere
/// they only repeat a little work.
const SEEN_FROM: u32 = 3;

/// The most patterns tried at once; past it, steps are tried peg by peg.
const MAX_PATTERNS: usize = 32;

impl<W: Word> Pattern<W> {
    /// The anchors where the pattern's step can be taken in `state`.
    #[inline]
    fn legal(&self, state: W) -> W {
        let cell = |k: usize| {
            let word = if self.pegs[k] { state } else { !state };
            let d = self.offsets[k];
            if d >= 0 {
                word >> d as u32
            } else {
                word << (-d) as u32
            }
        };
        self.anchors & state & cell(0) & cell(1)
    }
}

impl<W: Word> Steps<W> {
    /// `by_cell[c]`: the steps of a peg on cell `c`.
    fn new(by_cell: Vec<Vec<Step<W>>>) -> Steps<W> {
        let mut first = vec![0];
        let mut steps = Vec::new();
        for cell in by_cell {
            steps.extend(cell);
            first.push(steps.len() as u32);
        }
        let mut patterns: Vec<Pattern<W>> = Vec::new();
        for (cell, range) in first.windows(2).enumerate() {
            for i in range[0]..range[1] {
                let step = steps[i as usize];
                let others = step.line & !W::bit(cell);
                let (u, v) = (
                    others.trailing_zeros(),
                    W::BITS - 1 - others.leading_zeros(),
                );
                let offsets = [u as i32 - cell as i32, v as i32 - cell as i32];
                let pegs = [step.need.has(u as usize), step.need.has(v as usize)];
                let at = match patterns
                    .iter()
                    .position(|p| p.offsets == offsets && p.pegs == pegs)
                {
                    Some(at) => at,
                    None => {
                        patterns.push(Pattern {
                            anchors: W::ZERO,
                            offsets,
                            pegs,
                            step_of: vec![0; W::BITS as usize],
                        });
                        patterns.len() - 1
                    }
                };
                patterns[at].anchors |= W::bit(cell);
                patterns[at].step_of[cell] = i;
            }
        }
        Steps {
            steps,
            first,
            patterns: (patterns.len() <= MAX_PATTERNS).then_some(patterns),
        }
    }

    /// Calls `emit` with every position a chain of steps by the peg on
    /// `cell` reaches from `state` (every chain and every prefix of one,
    /// as often as chains reach it).
    #[inline]
    fn chain(&self, state: W, cell: usize, emit: &mut impl FnMut(W)) {
        let (from, to) = (self.first[cell] as usize, self.first[cell + 1] as usize);
        for step in &self.steps[from..to] {
            if state & step.line == step.need {
                let next = state ^ step.line;
                emit(next);
                self.chain(next, step.next as usize, emit);
            }
        }
    }

    /// As [`Steps::chain`], with the position's `N` images carried along:
    /// each step XORs its line's images into them (a symmetry maps XOR to
    /// XOR), and `emit` gets the position and its least image. A position
    /// with the peg on a cell that `seen` holds (reached by another order of
    /// the same jumps) is not gone on from again: what follows depends on
    /// nothing else, and without this the chains of a large, nearly empty (or
    /// nearly full) board grow exponentially. `taken` steps lead to `state`:
    /// chains of fewer than [`SEEN_FROM`] steps are not looked up, since two
    /// orders of so few jumps rarely meet and the look-up costs more.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn chain_images<const N: usize>(
        &self,
        state: W,
        images: &[W; N],
        cell: usize,
        taken: u32,
        lines: &[[W; N]],
        seen: &mut Seen<W>,
        emit: &mut impl FnMut(W, W),
    ) {
        let (from, to) = (self.first[cell] as usize, self.first[cell + 1] as usize);
        for step in &self.steps[from..to] {
            if state & step.line == step.need
                && (taken + 1 < SEEN_FROM || seen.insert((state ^ step.line, step.next)))
            {
                self.take_images(state, images, step, taken, lines, seen, emit);
            }
        }
    }

    /// Takes `step` (legal in `state`, after `taken` steps) and every chain
    /// on from it, with the images carried as [`Steps::chain_images`] does.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn take_images<const N: usize>(
        &self,
        state: W,
        images: &[W; N],
        step: &Step<W>,
        taken: u32,
        lines: &[[W; N]],
        seen: &mut Seen<W>,
        emit: &mut impl FnMut(W, W),
    ) {
        let next = state ^ step.line;
        let line = &lines[step.jump as usize];
        let mut after = *images;
        let mut least = W::MAX;
        for k in 0..N {
            after[k] ^= line[k];
            least = least.min(after[k]);
        }
        emit(next, least);
        let cell = step.next as usize;
        self.chain_images(next, &after, cell, taken + 1, lines, seen, emit);
    }

    /// Every chain from every peg of `state`, as [`Steps::chain_images`]:
    /// the first steps found a pattern at a time when the steps have few.
    #[inline]
    fn moves_images<const N: usize>(
        &self,
        state: W,
        images: &[W; N],
        lines: &[[W; N]],
        seen: &mut Seen<W>,
        emit: &mut impl FnMut(W, W),
    ) {
        match &self.patterns {
            Some(patterns) => {
                for p in patterns {
                    let mut legal = p.legal(state);
                    while legal != W::ZERO {
                        let anchor = legal.trailing_zeros() as usize;
                        legal = legal.without_lowest();
                        let step = &self.steps[p.step_of[anchor] as usize];
                        self.take_images(state, images, step, 0, lines, seen, emit);
                    }
                }
            }
            None => {
                let mut pegs = state;
                while pegs != W::ZERO {
                    let cell = pegs.trailing_zeros() as usize;
                    pegs = pegs.without_lowest();
                    self.chain_images(state, images, cell, 0, lines, seen, emit);
                }
            }
        }
    }
}

/// The most symmetries whose images are carried along the chains; a larger
/// group takes each successor's canonical form by its tables.
const MAX_ORDER: usize = 16;

/// The images of every jump's cells under a group of symmetries, padded
/// with the identity to a width the expansion is compiled for, so that a
/// successor's canonical form is its parent's images XOR the chain's.
pub(super) enum Images<W: Word> {
    /// No more than [`MAX_ORDER`] symmetries, padded to 1, 2, 4, 8 or 16.
    W1(Vec<[W; 1]>),
    W2(Vec<[W; 2]>),
    W4(Vec<[W; 4]>),
    W8(Vec<[W; 8]>),
    W16(Vec<[W; 16]>),
    /// A larger group.
    Tables,
}

impl<W: Word> Images<W> {
    pub(super) fn new(jumps: &Jumps<W>, group: &Symmetries<W>) -> Images<W> {
        fn lines<W: Word, const N: usize>(jumps: &Jumps<W>, group: &Symmetries<W>) -> Vec<[W; N]> {
            jumps
                .masks
                .flip
                .iter()
                .map(|&line| std::array::from_fn(|k| image(group, k, line)))
                .collect()
        }
        match group.len() {
            0 | 1 => Images::W1(lines(jumps, group)),
            2 => Images::W2(lines(jumps, group)),
            3 | 4 => Images::W4(lines(jumps, group)),
            5..=8 => Images::W8(lines(jumps, group)),
            9..=MAX_ORDER => Images::W16(lines(jumps, group)),
            _ => Images::Tables,
        }
    }
}

/// The image of `state` under symmetry `k` of `group`, the identity past its end.
#[inline]
fn image<W: Word>(group: &Symmetries<W>, k: usize, state: W) -> W {
    if k < group.len() {
        group.apply(k, state)
    } else {
        state
    }
}

impl<W: Word> Jumps<W> {
    pub(super) fn new(program: &Program) -> Result<Jumps<W>> {
        let masks = Masks::wide(program)?;
        let cells = program.cells();
        let mut leaving = vec![Vec::new(); cells];
        let mut landing = vec![Vec::new(); cells];
        let (mut from_cells, mut to_cells, mut lines) = (Vec::new(), Vec::new(), Vec::new());
        for (j, m) in program.moves().iter().enumerate() {
            let from_over_to = m.kind == MoveKind::Jump && m.cells.len() == 3;
            if !from_over_to {
                return Err(Error::Usage(
                    "the moves metric counts chains of jumps by one piece; this puzzle has \
                     moves that are not jumps"
                        .into(),
                ));
            }
            let (from, to) = (m.cells[0].0, m.cells[2].0);
            lines.push([from, m.cells[1].0, to]);
            leaving[from].push((j, to));
            landing[to].push((j, from));
            from_cells.push(from);
            to_cells.push(to);
        }
        let steps = |reversed: bool| {
            let mut by_cell = vec![Vec::new(); cells];
            for (j, &[from, over, to]) in lines.iter().enumerate() {
                let bit = W::bit;
                let line = bit(from) | bit(over) | bit(to);
                let (at, need, next) = if reversed {
                    (to, bit(to), from)
                } else {
                    (from, bit(from) | bit(over), to)
                };
                by_cell[at].push(Step {
                    line,
                    need,
                    next: next as u32,
                    jump: j as u32,
                });
            }
            Steps::new(by_cell)
        };
        Ok(Jumps {
            masks,
            from: from_cells,
            to: to_cells,
            ahead: steps(false),
            behind: steps(true),
            lines,
            leaving,
            landing,
        })
    }

    /// Calls `emit(position, canonical)` for every successor of each of
    /// `parents` (one move after it forward, one move before it backward),
    /// with the successor's canonical form under `group`; `images` are the
    /// jumps' images under the same group. The search's hot loop. A parent's
    /// chains keep at most `most` positions to go on from once each; `false`
    /// when one had more, and some successors were lost.
    pub(super) fn expand(
        &self,
        parents: &[W],
        forward: bool,
        group: &Symmetries<W>,
        images: &Images<W>,
        most: usize,
        emit: &mut impl FnMut(W, W),
    ) -> bool {
        fn carried<W: Word, const N: usize>(
            steps: &Steps<W>,
            parents: &[W],
            group: &Symmetries<W>,
            lines: &[[W; N]],
            most: usize,
            emit: &mut impl FnMut(W, W),
        ) -> bool {
            let mut seen = Seen {
                set: Default::default(),
                most,
                truncated: false,
            };
            for &state in parents {
                let images: [W; N] = if N <= 8 {
                    let eight = group.first_eight(state);
                    std::array::from_fn(|k| eight[k])
                } else {
                    std::array::from_fn(|k| image(group, k, state))
                };
                seen.reset();
                steps.moves_images(state, &images, lines, &mut seen, emit);
            }
            !seen.truncated
        }
        let steps = if forward { &self.ahead } else { &self.behind };
        match images {
            Images::W1(lines) => carried(steps, parents, group, lines, most, emit),
            Images::W2(lines) => carried(steps, parents, group, lines, most, emit),
            Images::W4(lines) => carried(steps, parents, group, lines, most, emit),
            Images::W8(lines) => carried(steps, parents, group, lines, most, emit),
            Images::W16(lines) => carried(steps, parents, group, lines, most, emit),
            Images::Tables => {
                for &state in parents {
                    self.successors(state, forward, &mut |t| emit(t, group.least(t)));
                }
                true
            }
        }
    }

    /// Calls `emit` with every position one move after `state` (forward)
    /// or one move before it (backward): every chain of jumps by one peg and
    /// every prefix of one, as often as chains reach it. The search's hot
    /// loop; [`Jumps::forward`] and [`Jumps::backward`] give the chains too.
    #[inline]
    pub(super) fn successors(&self, state: W, forward: bool, emit: &mut impl FnMut(W)) {
        let steps = if forward { &self.ahead } else { &self.behind };
        let mut pegs = state;
        while pegs != W::ZERO {
            let cell = pegs.trailing_zeros() as usize;
            pegs = pegs.without_lowest();
            steps.chain(state, cell, emit);
        }
    }

    /// A solution in jumps from `start` cut into moves (each run of jumps by
    /// one peg), with the position it ends on.
    pub(super) fn chains(&self, start: W, solution: &[usize]) -> (Vec<Vec<usize>>, W) {
        let mut moves: Vec<Vec<usize>> = Vec::new();
        let mut at = None;
        let mut state = start;
        for &j in solution {
            let from = self.from[j];
            match moves.last_mut() {
                Some(chain) if at == Some(from) => chain.push(j),
                _ => moves.push(vec![j]),
            }
            at = Some(self.to[j]);
            state ^= self.masks.flip[j];
        }
        (moves, state)
    }

    /// Calls `found(position, chain)` for every position one move after
    /// `state` (every chain of jumps by one peg, and every prefix of one),
    /// until `found` returns false.
    pub(super) fn forward(&self, state: W, found: &mut dyn FnMut(W, &[usize]) -> bool) -> bool {
        let mut chain = Vec::new();
        let mut pegs = state;
        while pegs != W::ZERO {
            let cell = pegs.trailing_zeros() as usize;
            pegs = pegs.without_lowest();
            if !self.chain_from(state, cell, &mut chain, found) {
                return false;
            }
        }
        true
    }

    pub(super) fn chain_from(
        &self,
        state: W,
        cell: usize,
        chain: &mut Vec<usize>,
        found: &mut dyn FnMut(W, &[usize]) -> bool,
    ) -> bool {
        for &(j, to) in &self.leaving[cell] {
            if self.masks.legal(state, j) {
                let next = state ^ self.masks.flip[j];
                chain.push(j);
                let go_on = found(next, chain) && self.chain_from(next, to, chain, found);
                chain.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    /// Calls `found(position, chain)` for every position one move before
    /// `state`, with the chain that leads from it to `state` given last
    /// jump first (reverse it for the order played), until `found` returns
    /// false.
    pub(super) fn backward(&self, state: W, found: &mut dyn FnMut(W, &[usize]) -> bool) -> bool {
        let mut chain = Vec::new();
        let mut pegs = state;
        while pegs != W::ZERO {
            let cell = pegs.trailing_zeros() as usize;
            pegs = pegs.without_lowest();
            if !self.chain_into(state, cell, &mut chain, found) {
                return false;
            }
        }
        true
    }

    /// Reversed jumps by the peg on `cell`; `chain` holds the jumps found so
    /// far, last played first.
    pub(super) fn chain_into(
        &self,
        state: W,
        cell: usize,
        chain: &mut Vec<usize>,
        found: &mut dyn FnMut(W, &[usize]) -> bool,
    ) -> bool {
        for &(j, from) in &self.landing[cell] {
            let before = state ^ self.masks.flip[j];
            if self.masks.legal(before, j) {
                chain.push(j);
                let go_on = found(before, chain) && self.chain_into(before, from, chain, found);
                chain.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}
