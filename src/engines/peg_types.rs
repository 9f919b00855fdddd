//! Peg types: the classes of holes a peg never leaves, which pegs can remove which, and the moves that counting them forces.
//!
//! A jump moves a peg from one hole to another of the same type: the types
//! are the classes of holes joined by the jumps' from and to holes (on a
//! square grid, the parities of the two coordinates; on a triangle, of the
//! row and the column). A peg keeps its type for the whole game, so the pegs
//! of a type only ever become fewer, and each one removed was jumped by a
//! peg of a type that can jump over it: one of its **removers**.
//!
//! So when a position has more pegs of a type than any target, some peg of a
//! remover type must still make a move; when a start had more pegs of a type
//! than a position, one already made one. Such demands, with remover sets
//! that share no type, need distinct moves, and so do they and the Merson
//! regions (`merson.rs`) whose holes are of none of those types: a region's
//! first opening move is by a peg standing in it. Barker and Korf (AAAI 2012)
//! strengthen the regions' bound this way.

/// The most types counted; a board with more is bounded by its regions alone.
pub(crate) const MOST_TYPES: usize = 8;

use crate::word::Word;

/// A board's peg types: their holes, and for each, the types of the pegs
/// that can jump over it.
#[derive(Clone, Debug)]
pub(crate) struct PegTypes<W: Word = u64> {
    /// Per type, its holes.
    pub(crate) masks: Vec<W>,
    /// Per type, the set of types that can remove one of its pegs.
    pub(crate) removers: Vec<u8>,
}

impl<W: Word> PegTypes<W> {
    /// The types of a board of `cells` holes with these jumps (from, over,
    /// to); `None` past [`MOST_TYPES`] types.
    pub(crate) fn new(cells: usize, jumps: &[[usize; 3]]) -> Option<PegTypes<W>> {
        let mut parent: Vec<usize> = (0..cells).collect();
        fn root(parent: &mut [usize], mut c: usize) -> usize {
            while parent[c] != c {
                parent[c] = parent[parent[c]];
                c = parent[c];
            }
            c
        }
        for &[from, _, to] in jumps {
            let (a, b) = (root(&mut parent, from), root(&mut parent, to));
            parent[a.max(b)] = a.min(b);
        }
        let mut roots: Vec<usize> = (0..cells).map(|c| root(&mut parent, c)).collect();
        let type_of = roots.clone();
        roots.sort_unstable();
        roots.dedup();
        if roots.len() > MOST_TYPES {
            return None;
        }
        let index = |c: usize| roots.binary_search(&type_of[c]).unwrap_or(0);
        let mut masks = vec![W::ZERO; roots.len()];
        for c in 0..cells {
            masks[index(c)] |= W::bit(c);
        }
        let mut removers = vec![0u8; roots.len()];
        for &[from, over, _] in jumps {
            removers[index(over)] |= 1 << index(from);
        }
        Some(PegTypes { masks, removers })
    }

    /// The types of the holes of `mask`, as a set.
    pub(crate) fn of(&self, mask: W) -> u8 {
        self.masks
            .iter()
            .enumerate()
            .filter(|&(_, &m)| m & mask != W::ZERO)
            .fold(0, |set, (t, _)| set | 1 << t)
    }

    /// The pegs of each type in `position`.
    #[inline]
    pub(crate) fn counts(&self, position: W) -> [u8; MOST_TYPES] {
        let mut n = [0u8; MOST_TYPES];
        for (slot, &m) in n.iter_mut().zip(&self.masks) {
            *slot = (position & m).count_ones() as u8;
        }
        n
    }
}

/// The remover sets of `losing` types (a set), each once, smallest first:
/// the demands for a move by one of their types.
#[inline]
pub(crate) fn demands<W: Word>(types: &PegTypes<W>, losing: u8) -> ([u8; MOST_TYPES], usize) {
    let mut out = [0u8; MOST_TYPES];
    let mut n = 0;
    for (t, &r) in types.removers.iter().enumerate() {
        if losing >> t & 1 == 1 && r != 0 && !out[..n].contains(&r) {
            out[n] = r;
            n += 1;
        }
    }
    out[..n].sort_unstable_by_key(|r| r.count_ones());
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The jumps of a `rows` x `cols` rectangle, orthogonal.
    fn grid(rows: usize, cols: usize) -> Vec<[usize; 3]> {
        let mut jumps = Vec::new();
        let at = |r: usize, c: usize| r * cols + c;
        for r in 0..rows {
            for c in 0..cols {
                if c + 2 < cols {
                    jumps.push([at(r, c), at(r, c + 1), at(r, c + 2)]);
                    jumps.push([at(r, c + 2), at(r, c + 1), at(r, c)]);
                }
                if r + 2 < rows {
                    jumps.push([at(r, c), at(r + 1, c), at(r + 2, c)]);
                    jumps.push([at(r + 2, c), at(r + 1, c), at(r, c)]);
                }
            }
        }
        jumps
    }

    #[test]
    fn a_grid_has_four_types_by_parity() {
        let types: PegTypes = PegTypes::new(16, &grid(4, 4)).unwrap();
        assert_eq!(types.masks.len(), 4);
        let type_of = |c: usize| types.masks.iter().position(|m| m >> c & 1 == 1).unwrap();
        for c in 0..16 {
            let (r, k) = (c / 4, c % 4);
            for d in 0..16 {
                let same = (r % 2, k % 2) == (d / 4 % 2, d % 4 % 2);
                assert_eq!(type_of(c) == type_of(d), same, "{c} {d}");
            }
        }
        // A peg on (even, even) is jumped only by pegs on (odd, even) or (even, odd).
        let corner = type_of(0);
        assert_eq!(
            types.removers[corner],
            1 << type_of(1) | 1 << type_of(4),
            "{types:?}"
        );
        assert_eq!(types.counts(0xffff)[..4], [4, 4, 4, 4]);
        // Losing (even, even) and (odd, odd) pegs both demand a move by the other two.
        let (d, n) = demands(&types, 1 << corner | 1 << type_of(5));
        assert_eq!(&d[..n], &[1 << type_of(1) | 1 << type_of(4)]);
    }

    #[test]
    fn a_row_has_two_types() {
        let jumps: Vec<[usize; 3]> = (0..4)
            .flat_map(|i| [[i, i + 1, i + 2], [i + 2, i + 1, i]])
            .collect();
        let types: PegTypes = PegTypes::new(6, &jumps).unwrap();
        assert_eq!(types.masks, [0b010101, 0b101010]);
        assert_eq!(types.removers, [0b10, 0b01]);
        assert_eq!(types.of(0b11), 0b11);
    }
}
