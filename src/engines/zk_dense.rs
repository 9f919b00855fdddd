//! Dense elimination of a k-colour puzzle's whole move matrix: byte lanes over GF(p), the ring engine otherwise.

use super::zk_chase::is_prime;
use crate::error::Result;
use crate::zk::System;
use crate::zk::{field, lanes};

/// The move matrix, eliminated.
#[derive(Clone, Debug)]
pub(crate) enum Dense {
    /// A prime modulus that fits byte lanes.
    Field {
        a: Vec<Vec<u64>>,
        reduced: field::Reduced,
        p: u64,
    },
    /// Any other modulus: one prime power at a time ([`System`]).
    Ring(Box<System>),
}

impl Dense {
    /// Eliminates `a` (one row per cell, `cols` columns) modulo `k`.
    pub(crate) fn new(k: u64, a: Vec<Vec<u64>>, cols: usize) -> Result<Dense> {
        if is_prime(k) && k <= lanes::MAX_LANE_MODULUS {
            let reduced = field::Reduced::new(&a, cols, k as u8);
            return Ok(Dense::Field { a, reduced, p: k });
        }
        if a.is_empty() {
            // No cells: nothing to eliminate, and every press is quiet.
            return Ok(Dense::Ring(Box::new(System::new(k, &[vec![0; cols]])?)));
        }
        Ok(Dense::Ring(Box::new(System::new(k, &a)?)))
    }

    /// The estimated work in byte (or word) operations for `rows` x `cols` mod `k`.
    pub(crate) fn work(k: u64, rows: usize, cols: usize) -> u128 {
        let (r, c) = (rows as u128, cols as u128);
        let per = if is_prime(k) && k <= lanes::MAX_LANE_MODULUS {
            1
        } else {
            // u128 products and remainders, over each prime power and the transforms.
            16 * crate::zk::prime_powers(k).len() as u128
        };
        r * c * (r + c) * per
    }

    /// The estimated memory in bytes.
    pub(crate) fn memory(k: u64, rows: usize, cols: usize) -> u128 {
        let (r, c) = (rows as u128, cols as u128);
        if is_prime(k) && k <= lanes::MAX_LANE_MODULUS {
            r * c * 8 + r * (c + r + 1) * 2
        } else {
            (r * c + (r + c) * (r + c)) * 8 * (1 + crate::zk::prime_powers(k).len() as u128)
        }
    }

    /// Over the ring, press counts whose boards generate the image, each
    /// with its board's order ([`System::image_presses`]); `None` over a field.
    pub(crate) fn image_presses(&self) -> Option<Vec<(Vec<u64>, u64)>> {
        match self {
            Dense::Field { .. } => None,
            Dense::Ring(system) => Some(system.image_presses()),
        }
    }

    /// Presses with `A x = d`, or a certificate.
    pub(crate) fn solve(&self, d: &[u64]) -> std::result::Result<Vec<u64>, Vec<u64>> {
        match self {
            Dense::Field { a, p, .. } => field::solve(a, d, *p as u8),
            Dense::Ring(system) => system.solve(d),
        }
    }

    /// Generators of the kernel, each with its order.
    pub(crate) fn kernel(&self) -> Vec<(Vec<u64>, u64)> {
        match self {
            Dense::Field { reduced, p, .. } => {
                reduced.kernel().into_iter().map(|g| (g, *p)).collect()
            }
            Dense::Ring(system) => system.kernel(),
        }
    }
}
