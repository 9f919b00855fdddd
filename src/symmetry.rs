//! The symmetries of a puzzle: board-graph automorphisms that map moves to moves and the goal to itself.

use rustc_hash::FxHashSet;

use crate::board::CellId;
use crate::error::Result;
use crate::limits::Limits;
use crate::program::{Goal, Program};
use crate::word::Word;

/// A canonical form for states (the least image under a group of symmetries),
/// or the identity.
pub trait Canon: Sync {
    /// The canonical representative of `state`.
    fn canon(&self, state: u64) -> u64;

    /// Whether every state is its own representative.
    fn is_identity(&self) -> bool {
        false
    }
}

/// No symmetry: every state is its own representative.
pub struct Identity;

impl Canon for Identity {
    #[inline]
    fn canon(&self, state: u64) -> u64 {
        state
    }

    fn is_identity(&self) -> bool {
        true
    }
}

/// A group of cell permutations, with byte tables to apply them to a
/// one-word state (a `u64`, or a `u128` past 64 cells) quickly.
pub struct Symmetries<W: Word = u64> {
    perms: Vec<Vec<usize>>,
    /// Per permutation, per byte of the state, per byte value: the image bits.
    tables: Vec<Vec<[W; 256]>>,
    /// The same, eight permutations at a time: per group of eight, per byte,
    /// per byte value, the eight images (a group is padded with the identity).
    packed: Vec<Vec<[[W; 8]; 256]>>,
}

impl Symmetries {
    /// The puzzle's symmetries: automorphisms of its board graph (found from
    /// the graph, not assumed) that map every move to a move and the goal's
    /// targets onto themselves, and fix every state of `fixed`. Refused when
    /// the board has more than the limit `symmetries`.
    pub fn of(program: &Program, fixed: &[u64], limits: &Limits) -> Result<Symmetries> {
        Symmetries::wide(program, fixed, limits)
    }
}

impl<W: Word> Symmetries<W> {
    /// As [`Symmetries::of`], on states of `W` (a `u128` takes boards of up
    /// to 128 cells).
    pub fn wide(program: &Program, fixed: &[W], limits: &Limits) -> Result<Symmetries<W>> {
        let puzzle = program.puzzle();
        let max = usize::try_from(limits.symmetries).unwrap_or(usize::MAX);
        let all = puzzle.board.automorphisms(max.saturating_add(1));
        if all.len() > max {
            return Err(limits.exceeded(
                "symmetries",
                "the number of board automorphisms found before stopping",
                all.len() as u128,
                "orbits are counted with the whole group, applied to every state; drop --symmetry",
            ));
        }
        let moves: FxHashSet<(Vec<CellId>, Vec<CellId>, Vec<CellId>)> = program
            .moves()
            .iter()
            .map(|m| (m.need_on.clone(), m.need_off.clone(), m.flip.clone()))
            .collect();
        let map = |p: &[usize], cells: &[CellId]| {
            let mut out: Vec<CellId> = cells.iter().map(|c| CellId(p[c.0])).collect();
            out.sort_unstable();
            out
        };
        let targets: Option<FxHashSet<W>> = match program.goal() {
            Goal::Targets(t) => Some(t.iter().filter_map(W::from_bits).collect()),
            Goal::FewestPieces => None,
        };
        let perms: Vec<Vec<usize>> = all
            .into_iter()
            .filter(|p| {
                program.moves().iter().all(|m| {
                    moves.contains(&(map(p, &m.need_on), map(p, &m.need_off), map(p, &m.flip)))
                })
            })
            .filter(|p| {
                targets
                    .as_ref()
                    .is_none_or(|t| t.iter().all(|&s| t.contains(&permute(p, s))))
            })
            .filter(|p| fixed.iter().all(|&s| permute(p, s) == s))
            .collect();
        let bytes = program.cells().div_ceil(8);
        let tables = perms
            .iter()
            .map(|p| {
                (0..bytes)
                    .map(|byte| {
                        let mut table = [W::ZERO; 256];
                        for (v, slot) in table.iter_mut().enumerate() {
                            *slot = permute(p, W::from_u64(v as u64) << (8 * byte as u32));
                        }
                        table
                    })
                    .collect()
            })
            .collect::<Vec<Vec<[W; 256]>>>();
        let identity: Vec<usize> = (0..program.cells()).collect();
        let packed = perms
            .chunks(8)
            .map(|group| {
                (0..bytes)
                    .map(|byte| {
                        let mut table = [[W::ZERO; 8]; 256];
                        for (v, slot) in table.iter_mut().enumerate() {
                            for (k, image) in slot.iter_mut().enumerate() {
                                let p = group.get(k).unwrap_or(&identity);
                                *image = permute(p, W::from_u64(v as u64) << (8 * byte as u32));
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        Ok(Symmetries {
            perms,
            tables,
            packed,
        })
    }

    /// The number of symmetries, the identity included.
    pub fn len(&self) -> usize {
        self.perms.len()
    }

    /// The symmetries, as cell permutations (`perm[cell]` is its image).
    pub fn perms(&self) -> &[Vec<usize>] {
        &self.perms
    }

    /// Whether only the identity is left.
    pub fn is_empty(&self) -> bool {
        self.perms.len() <= 1
    }

    /// The image of `state` under symmetry `k`.
    #[inline]
    pub fn apply(&self, k: usize, state: W) -> W {
        self.tables[k]
            .iter()
            .enumerate()
            .fold(W::ZERO, |acc, (byte, table)| acc | table[state.byte(byte)])
    }

    /// The images of `state` under the first eight symmetries (the
    /// identity past the group's end), from the packed tables at once.
    #[inline]
    pub fn first_eight(&self, state: W) -> [W; 8] {
        let mut images = [W::ZERO; 8];
        if let Some(group) = self.packed.first() {
            for (byte, table) in group.iter().enumerate() {
                let row = &table[state.byte(byte)];
                for k in 0..8 {
                    images[k] |= row[k];
                }
            }
        }
        images
    }

    /// How many symmetries map `state` to itself: its orbit has
    /// `len() / stabilizer(state)` states.
    #[inline]
    pub fn stabilizer(&self, state: W) -> usize {
        let mut count = 0;
        for (g, group) in self.packed.iter().enumerate() {
            let mut images = [W::ZERO; 8];
            for (byte, table) in group.iter().enumerate() {
                let row = &table[state.byte(byte)];
                for k in 0..8 {
                    images[k] |= row[k];
                }
            }
            // The last group is padded with the identity.
            let real = (self.perms.len() - 8 * g).min(8);
            count += images[..real].iter().filter(|&&i| i == state).count();
        }
        count
    }

    /// The least image: each byte of the state looks up its images under
    /// eight symmetries at once.
    #[inline]
    pub fn least(&self, state: W) -> W {
        let mut best = state;
        for group in &self.packed {
            let mut images = [W::ZERO; 8];
            for (byte, table) in group.iter().enumerate() {
                let row = &table[state.byte(byte)];
                for k in 0..8 {
                    images[k] |= row[k];
                }
            }
            best = images.iter().fold(best, |b, &i| b.min(i));
        }
        best
    }
}

impl Canon for Symmetries {
    #[inline]
    fn canon(&self, state: u64) -> u64 {
        self.least(state)
    }
}

/// The image of a state under a permutation, bit by bit.
fn permute<W: Word>(p: &[usize], state: W) -> W {
    let mut out = W::ZERO;
    let mut rest = state;
    while rest != W::ZERO {
        let i = rest.trailing_zeros() as usize;
        rest = rest.without_lowest();
        if i < p.len() {
            out |= W::bit(p[i]);
        }
    }
    out
}
