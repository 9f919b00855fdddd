//! Every board of k colours that can reach a target, breadth-first from the targets: layers by fewest presses.
//!
//! A press undone is the same button pressed k − 1 more times, so the
//! boards at distance d from the targets are those d presses from them (a
//! button pressed t times counting t); the search adds each press once to
//! each board of the layer before.

use rustc_hash::FxHashSet;

use crate::error::Result;
use crate::program::colours::ColourProgram;

/// Visits every board from which a target can be reached, layer by layer,
/// with its distance. The caller checks the count against its limits first.
pub(crate) fn layers(
    program: &ColourProgram,
    mut visit: impl FnMut(u32, &[u64]) -> Result<()>,
) -> Result<()> {
    let k = program.modulus() as u8;
    let moves = program.moves();
    let mut seen: FxHashSet<Vec<u8>> = FxHashSet::default();
    let mut layer: Vec<Vec<u8>> = Vec::new();
    for (_, t) in program.targets() {
        let board: Vec<u8> = t.iter().map(|&v| v as u8).collect();
        if seen.insert(board.clone()) {
            layer.push(board);
        }
    }
    let mut distance = 0u32;
    let mut digits: Vec<u64> = Vec::new();
    while !layer.is_empty() {
        let mut next = Vec::new();
        for board in &layer {
            digits.clear();
            digits.extend(board.iter().map(|&v| u64::from(v)));
            visit(distance, &digits)?;
            for m in moves {
                let mut after = board.clone();
                for &(cell, a) in &m.adds {
                    // Back from a target: the board before a press is the press taken off.
                    let v = u64::from(after[cell.0]) + u64::from(k) - a;
                    after[cell.0] = (v % u64::from(k)) as u8;
                }
                if !seen.contains(&after) {
                    seen.insert(after.clone());
                    next.push(after);
                }
            }
        }
        layer = next;
        distance += 1;
    }
    Ok(())
}
