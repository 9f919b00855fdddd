//! Reproducible judge-format inputs for benchmarks: random boards from a seeded ChaCha8 stream.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// `count` random boards for `puzzle` in its judge format: `flip4x4`, `pebble12`,
/// `poj1222`, `fliptile` and `painter` (15 x 15 cases), or `peg-game` (7 x 7 boards
/// with blocked holes, 2 to 9 pegs and a marked goal hole).
pub fn judge_input(puzzle: &str, count: usize, seed: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count * 21);
    match puzzle {
        "flip4x4" => {
            for _ in 0..count {
                let bits = rng.next_u32();
                for r in 0..4 {
                    for c in 0..4 {
                        out.push(if bits >> (r * 4 + c) & 1 == 1 {
                            b'b'
                        } else {
                            b'w'
                        });
                    }
                    out.push(b'\n');
                }
            }
        }
        "pebble12" => {
            out.extend_from_slice(format!("{count}\n").as_bytes());
            for _ in 0..count {
                let bits = rng.next_u32();
                for i in 0..12 {
                    out.push(if bits >> i & 1 == 1 { b'o' } else { b'-' });
                }
                out.push(b'\n');
            }
        }
        "poj1222" | "fliptile" | "painter" => {
            let (rows, cols) = if puzzle == "poj1222" {
                (5, 6)
            } else {
                (15, 15)
            };
            if puzzle != "fliptile" {
                out.extend_from_slice(format!("{count}\n").as_bytes());
            }
            for _ in 0..count {
                match puzzle {
                    "fliptile" => out.extend_from_slice(format!("{rows} {cols}\n").as_bytes()),
                    "painter" => out.extend_from_slice(format!("{rows}\n").as_bytes()),
                    _ => {}
                }
                for _ in 0..rows {
                    let bits = rng.next_u32();
                    for c in 0..cols {
                        let on = bits >> c & 1 == 1;
                        if puzzle == "painter" {
                            out.push(if on { b'w' } else { b'y' });
                        } else {
                            if c > 0 {
                                out.push(b' ');
                            }
                            out.push(if on { b'1' } else { b'0' });
                        }
                    }
                    out.push(b'\n');
                }
            }
        }
        "peg-game" => {
            out.extend_from_slice(format!("{count}\n").as_bytes());
            for _ in 0..count {
                let mut cells = [b'e'; 49];
                for cell in cells.iter_mut() {
                    if rng.next_u32() % 6 == 0 {
                        *cell = b'x';
                    }
                }
                let open: Vec<usize> = (0..49).filter(|&i| cells[i] != b'x').collect();
                if open.is_empty() {
                    cells[0] = b'e';
                }
                let open = if open.is_empty() { vec![0] } else { open };
                let pick = |rng: &mut ChaCha8Rng| open[rng.next_u32() as usize % open.len()];
                let goal = pick(&mut rng);
                if rng.next_u32() % 2 == 0 {
                    // Random pegs: mostly hopeless boards, refuted by parity or search.
                    for _ in 0..2 + rng.next_u32() % 8 {
                        let i = pick(&mut rng);
                        cells[i] = b'o';
                    }
                } else {
                    // Played backwards from the goal, up to 16 jumps: a board that can be won.
                    cells[goal] = b'o';
                    let mut jumps = 1 + rng.next_u32() % 16;
                    for _ in 0..400 {
                        if jumps == 0 {
                            break;
                        }
                        let i = pick(&mut rng);
                        let (r, c) = ((i / 7) as i32, (i % 7) as i32);
                        let (dr, dc) =
                            [(0, 1), (0, -1), (1, 0), (-1, 0)][rng.next_u32() as usize % 4];
                        let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                        if !(0..7).contains(&r2) || !(0..7).contains(&c2) {
                            continue;
                        }
                        let over = ((r + dr) * 7 + c + dc) as usize;
                        let from = (r2 * 7 + c2) as usize;
                        if cells[i] == b'o' && cells[over] == b'e' && cells[from] == b'e' {
                            cells[i] = b'e';
                            cells[over] = b'o';
                            cells[from] = b'o';
                            jumps -= 1;
                        }
                    }
                }
                cells[goal] = if cells[goal] == b'o' { b'O' } else { b'E' };
                for row in cells.chunks(7) {
                    for (c, &b) in row.iter().enumerate() {
                        if c > 0 {
                            out.push(b' ');
                        }
                        out.push(b);
                    }
                    out.push(b'\n');
                }
            }
        }
        other => panic!("no generator for {other}"),
    }
    out
}
