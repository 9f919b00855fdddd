//! Every flip4x4 and pebble12 board, checked against brute force written here, independently of the engine.

use crate::common::{pegflip, puzzle};
use pegflip::{Bits, Outcome, batch, solve};

/// Flip Game by brute force over all 2^16 press sets: the effect of a press
/// set is the XOR of its presses' plus shapes; a board is solved by a press
/// set whose effect is the board itself (all white) or its complement (all black).
fn flip_brute_force() -> Vec<Option<u32>> {
    let plus = |r: i32, c: i32| -> u32 {
        [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .map(|(dr, dc)| (r + dr, c + dc))
            .filter(|&(r, c)| (0..4).contains(&r) && (0..4).contains(&c))
            .map(|(r, c)| 1u32 << (r * 4 + c))
            .fold(0, |a, b| a ^ b)
    };
    let presses: Vec<u32> = (0..16).map(|i| plus(i / 4, i % 4)).collect();
    let mut fewest = vec![u32::MAX; 1 << 16];
    for set in 0u32..1 << 16 {
        let effect = (0..16)
            .filter(|i| set >> i & 1 == 1)
            .fold(0, |acc, i| acc ^ presses[i as usize]);
        fewest[effect as usize] = fewest[effect as usize].min(set.count_ones());
    }
    (0..1usize << 16)
        .map(|b| {
            let best = fewest[b].min(fewest[b ^ 0xFFFF]);
            (best != u32::MAX).then_some(best)
        })
        .collect()
}

fn flip_text(b: usize, sep: char) -> String {
    let mut s = String::new();
    for r in 0..4 {
        if r > 0 {
            s.push(sep);
        }
        for c in 0..4 {
            s.push(if b >> (r * 4 + c) & 1 == 1 { 'b' } else { 'w' });
        }
    }
    s
}

fn answer(a: Option<u32>) -> String {
    a.map_or("Impossible".to_string(), |n| n.to_string())
}

#[test]
fn flip4x4_every_board_through_the_cli_matches_brute_force() {
    let brute = flip_brute_force();
    assert_eq!(brute.iter().filter(|a| a.is_some()).count(), 4096);
    let input: String = (0..1 << 16).map(|b| flip_text(b, '\n') + "\n").collect();
    let out = pegflip(&["batch", "puzzles/flip4x4.toml"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let expected: String = brute.iter().map(|&a| answer(a) + "\n").collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

#[test]
fn flip4x4_search_matches_brute_force() {
    let brute = flip_brute_force();
    let p = puzzle("flip4x4");
    let program = p.compile().unwrap();
    // Every 7th board: a search per board explores up to 4096 states.
    for b in (0..1usize << 16).step_by(7) {
        let board = p.read_board(&flip_text(b, '/'), "<test>").unwrap().state;
        let got = match solve(&program, &board, &Default::default()).unwrap() {
            Outcome::Solved(s) => {
                assert!(program.is_target(&s.end));
                Some(s.moves.len() as u32)
            }
            Outcome::Unsolvable(_) => None,
        };
        assert_eq!(got, brute[b], "board {}", flip_text(b, '/'));
    }
}

/// Pebble Solitaire by memoised search over jumps: `oo-` becomes `--o`, `-oo` becomes `o--`.
fn pebble_brute_force() -> Vec<u32> {
    fn best(s: u32, memo: &mut [Option<u32>]) -> u32 {
        if let Some(v) = memo[s as usize] {
            return v;
        }
        let mut v = s.count_ones();
        for i in 0..10 {
            let w = s >> i & 7;
            if w == 0b011 || w == 0b110 {
                v = v.min(best(s ^ (7 << i), memo));
            }
        }
        memo[s as usize] = Some(v);
        v
    }
    let mut memo = vec![None; 1 << 12];
    (0..1u32 << 12).map(|s| best(s, &mut memo)).collect()
}

fn pebble_text(b: usize) -> String {
    (0..12)
        .map(|i| if b >> i & 1 == 1 { 'o' } else { '-' })
        .collect()
}

#[test]
fn pebble12_every_board_matches_brute_force() {
    let brute = pebble_brute_force();
    let p = puzzle("pebble12");
    let program = p.compile().unwrap();
    let mut input = format!("{}\n", 1 << 12);
    for (b, &want) in brute.iter().enumerate() {
        input += &pebble_text(b);
        input.push('\n');
        let board = p.read_board(&pebble_text(b), "<test>").unwrap().state;
        let Outcome::Solved(s) = solve(&program, &board, &Default::default()).unwrap() else {
            panic!("fewest pieces always has an answer");
        };
        assert_eq!(s.end.count_ones() as u32, want, "board {}", pebble_text(b));
    }
    let out = batch(
        &program,
        input.as_bytes(),
        "<test>",
        &Default::default(),
        pegflip::Preference::Auto,
    )
    .unwrap();
    let expected: String = brute.iter().map(|v| format!("{v}\n")).collect();
    assert_eq!(String::from_utf8(out.text).unwrap(), expected);
    assert!(out.warnings.is_empty());
}

#[test]
fn flip4x4_library_batch_matches_cli_shape() {
    // The declared goal's two targets, as the library sees them.
    let p = puzzle("flip4x4");
    let program = p.compile().unwrap();
    assert!(program.is_target(&Bits::zeros(16)));
    assert!(program.is_target(&Bits::ones(16)));
    assert_eq!(program.moves().len(), 16);
    assert!(program.is_linear());
}
