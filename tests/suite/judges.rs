//! The judge problems of the Flip Game family: published samples byte for byte, and random inputs against independent brute force.

fn check_sample(puzzle: &str, sample: &str) {
    let stderr = crate::common::check_sample(puzzle, sample);
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn poj1222_sample() {
    check_sample("poj1222", "poj1222");
}

#[test]
fn poj3279_fliptile_sample() {
    check_sample("fliptile", "fliptile-poj3279");
}

#[test]
fn poj1681_painter_sample() {
    check_sample("painter", "painter-poj1681");
}

/// The sample of POJ 1667 as the problem statement prints it (Greater New York 2003).
#[test]
fn poj1667_peg_game_sample() {
    check_sample("peg-game", "peg-game-poj1667");
}

/// A small deterministic generator (splitmix64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn run_batch(puzzle: &str, input: &str) -> String {
    let entry = pegflip::catalogue::find(puzzle).unwrap();
    let puzzle = pegflip::Puzzle::parse(entry.text, entry.name).unwrap();
    let program = puzzle.compile().unwrap();
    let out = pegflip::batch(
        &program,
        input.as_bytes(),
        "<input>",
        &puzzle.limits,
        Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}\ninput:\n{input}"));
    String::from_utf8(out.text).unwrap()
}

/// Lights out on a `rows` x `cols` grid by the classic method, independent of
/// elimination: every first-row press set, in lexicographic order of the row
/// read left to right, with the rest of the presses forced row by row. Returns
/// the fewest-press matrix (the first one among equals), or `None`.
fn first_row_brute_force(lit: &[Vec<bool>]) -> Option<Vec<Vec<bool>>> {
    let (rows, cols) = (lit.len(), lit[0].len());
    let mut best: Option<(usize, Vec<Vec<bool>>)> = None;
    for first in 0u32..1 << cols {
        let mut on = lit.to_vec();
        let mut press = vec![vec![false; cols]; rows];
        // Bit cols-1-c of `first` presses column c, so counting up is lexicographic order.
        for (c, p) in press[0].iter_mut().enumerate() {
            *p = first >> (cols - 1 - c) & 1 == 1;
        }
        for r in 0..rows {
            if r > 0 {
                press[r].copy_from_slice(&on[r - 1]);
            }
            for (c, &pressed) in press[r].iter().enumerate() {
                if pressed {
                    let mut flip = |rr: usize, cc: usize| on[rr][cc] = !on[rr][cc];
                    flip(r, c);
                    if r > 0 {
                        flip(r - 1, c);
                    }
                    if r + 1 < rows {
                        flip(r + 1, c);
                    }
                    if c > 0 {
                        flip(r, c - 1);
                    }
                    if c + 1 < cols {
                        flip(r, c + 1);
                    }
                }
            }
        }
        if on.iter().flatten().any(|&b| b) {
            continue;
        }
        let n = press.iter().flatten().filter(|&&b| b).count();
        if best.as_ref().is_none_or(|(m, _)| n < *m) {
            best = Some((n, press));
        }
    }
    best.map(|(_, p)| p)
}

fn random_grid(rng: &mut Rng, rows: usize, cols: usize) -> Vec<Vec<bool>> {
    (0..rows)
        .map(|_| (0..cols).map(|_| rng.below(2) == 1).collect())
        .collect()
}

fn matrix_text(m: &[Vec<bool>], on: char, off: char, sep: &str) -> String {
    let mut s = String::new();
    for row in m {
        let cells: Vec<String> = row
            .iter()
            .map(|&b| if b { on } else { off }.to_string())
            .collect();
        s.push_str(&cells.join(sep));
        s.push('\n');
    }
    s
}

#[test]
fn poj1222_random_cases_match_brute_force() {
    let mut rng = Rng(1222);
    let cases = 200;
    let mut input = format!("{cases}\n");
    let mut expected = String::new();
    for k in 1..=cases {
        let grid = random_grid(&mut rng, 5, 6);
        input.push_str(&matrix_text(&grid, '1', '0', " "));
        let press = first_row_brute_force(&grid).expect("5 x 6 lights out is always solvable");
        expected.push_str(&format!("PUZZLE #{k}\n"));
        expected.push_str(&matrix_text(&press, '1', '0', " "));
    }
    assert_eq!(run_batch("poj1222", &input), expected);
}

#[test]
fn fliptile_random_sizes_match_brute_force_with_lexicographic_ties() {
    let mut rng = Rng(3279);
    let mut input = String::new();
    let mut expected = String::new();
    let mut impossible = 0;
    let mut sizes = vec![(1, 1), (1, 15), (15, 1), (15, 15), (4, 4), (5, 5), (9, 9)];
    sizes.extend((0..60).map(|_| (1 + rng.below(15), 1 + rng.below(15))));
    for (rows, cols) in sizes {
        let grid = random_grid(&mut rng, rows, cols);
        input.push_str(&format!("{rows} {cols}\n"));
        input.push_str(&matrix_text(&grid, '1', '0', " "));
        match first_row_brute_force(&grid) {
            Some(press) => expected.push_str(&matrix_text(&press, '1', '0', " ")),
            None => {
                impossible += 1;
                expected.push_str("IMPOSSIBLE\n");
            }
        }
    }
    assert_eq!(run_batch("fliptile", &input), expected);
    assert!(
        impossible > 0,
        "the random boards should include impossible ones"
    );
}

/// Boards with many equally short answers, where only the tie-break decides:
/// 4 x 4 has a null space of dimension 4, so every solvable board has 16 answers.
#[test]
fn fliptile_ties_on_4x4_match_brute_force() {
    let mut rng = Rng(44);
    let mut input = String::new();
    let mut expected = String::new();
    for _ in 0..200 {
        let grid = random_grid(&mut rng, 4, 4);
        input.push_str("4 4\n");
        input.push_str(&matrix_text(&grid, '1', '0', " "));
        match first_row_brute_force(&grid) {
            Some(press) => expected.push_str(&matrix_text(&press, '1', '0', " ")),
            None => expected.push_str("IMPOSSIBLE\n"),
        }
    }
    assert_eq!(run_batch("fliptile", &input), expected);
}

#[test]
fn painter_random_walls_match_brute_force() {
    let mut rng = Rng(1681);
    let sides: Vec<usize> = (1..=15).chain((0..30).map(|_| 1 + rng.below(15))).collect();
    let mut input = format!("{}\n", sides.len());
    let mut expected = String::new();
    for n in sides {
        let grid = random_grid(&mut rng, n, n);
        input.push_str(&format!("{n}\n"));
        input.push_str(&matrix_text(&grid, 'w', 'y', ""));
        match first_row_brute_force(&grid) {
            Some(press) => {
                let count = press.iter().flatten().filter(|&&b| b).count();
                expected.push_str(&format!("{count}\n"));
            }
            None => expected.push_str("inf\n"),
        }
    }
    assert_eq!(run_batch("painter", &input), expected);
}

/// A peg board of 7 x 7 as the test's own simulator sees it: cells, pegs, goal.
struct PegCase {
    cell: [[bool; 7]; 7],
    peg: [[bool; 7]; 7],
    goal: (usize, usize),
}

/// Whether one peg can be left on the goal: an independent depth-first
/// search, remembering positions already found to fail.
fn peg_solvable(case: &PegCase) -> bool {
    fn bit(r: usize, c: usize) -> u64 {
        1 << (r * 7 + c)
    }
    let mut cells = 0u64;
    let mut pegs = 0u64;
    for r in 0..7 {
        for c in 0..7 {
            if case.cell[r][c] {
                cells |= bit(r, c);
            }
            if case.peg[r][c] {
                pegs |= bit(r, c);
            }
        }
    }
    let goal = bit(case.goal.0, case.goal.1);
    fn go(pegs: u64, cells: u64, goal: u64, failed: &mut std::collections::HashSet<u64>) -> bool {
        if pegs == goal {
            return true;
        }
        if failed.contains(&pegs) {
            return false;
        }
        for r in 0..7i32 {
            for c in 0..7i32 {
                for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    let (r1, c1, r2, c2) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
                    if !(0..7).contains(&r2) || !(0..7).contains(&c2) {
                        continue;
                    }
                    let (a, b, t) = (
                        bit(r as usize, c as usize),
                        bit(r1 as usize, c1 as usize),
                        bit(r2 as usize, c2 as usize),
                    );
                    if pegs & a != 0
                        && pegs & b != 0
                        && pegs & t == 0
                        && cells & t != 0
                        && go(pegs ^ a ^ b ^ t, cells, goal, failed)
                    {
                        return true;
                    }
                }
            }
        }
        failed.insert(pegs);
        false
    }
    go(pegs, cells, goal, &mut Default::default())
}

/// Replays a printed answer, "K. (x, y) to (x, y)" with x the column and y the
/// row from 1, and says whether it leaves one peg on the goal.
fn peg_replay(case: &PegCase, lines: &[&str]) -> Result<(), String> {
    let mut peg = case.peg;
    for (k, line) in lines.iter().enumerate() {
        let nums: Vec<usize> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let prefix = format!("{}. (", k + 1);
        if nums.len() != 5 || nums[0] != k + 1 || !line.starts_with(&prefix) {
            return Err(format!("line {line:?} is not move {}", k + 1));
        }
        let (c0, r0, c2, r2) = (nums[1] - 1, nums[2] - 1, nums[3] - 1, nums[4] - 1);
        let (r1, c1) = ((r0 + r2) / 2, (c0 + c2) / 2);
        let step = r0.abs_diff(r2) + c0.abs_diff(c2);
        if step != 2 || (r0 != r2 && c0 != c2) {
            return Err(format!("{line:?} is not a jump of two holes"));
        }
        if !peg[r0][c0] || !peg[r1][c1] || peg[r2][c2] || !case.cell[r2][c2] {
            return Err(format!("{line:?} is not legal here"));
        }
        peg[r0][c0] = false;
        peg[r1][c1] = false;
        peg[r2][c2] = true;
    }
    let left: Vec<(usize, usize)> = (0..7)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .filter(|&(r, c)| peg[r][c])
        .collect();
    if left == [case.goal] {
        Ok(())
    } else {
        Err(format!(
            "the moves leave {left:?}, not one peg at {:?}",
            case.goal
        ))
    }
}

#[test]
fn peg_game_random_boards_match_brute_force_and_replay() {
    let mut rng = Rng(1667);
    let mut cases = Vec::new();
    while cases.len() < 150 {
        let mut case = PegCase {
            cell: [[true; 7]; 7],
            peg: [[false; 7]; 7],
            goal: (0, 0),
        };
        for r in 0..7 {
            for c in 0..7 {
                case.cell[r][c] = rng.below(6) != 0;
            }
        }
        let holes: Vec<(usize, usize)> = (0..7)
            .flat_map(|r| (0..7).map(move |c| (r, c)))
            .filter(|&(r, c)| case.cell[r][c])
            .collect();
        if holes.len() < 3 {
            continue;
        }
        let pegs = 2 + rng.below(7);
        for _ in 0..pegs {
            let (r, c) = holes[rng.below(holes.len())];
            case.peg[r][c] = true;
        }
        case.goal = holes[rng.below(holes.len())];
        // Half the boards are built backwards from the goal, so that many are solvable.
        if rng.below(2) == 0 {
            case.peg = [[false; 7]; 7];
            case.peg[case.goal.0][case.goal.1] = true;
            let (mut done, want) = (0, 1 + rng.below(8));
            for _ in 0..400 {
                if done == want {
                    break;
                }
                let (r, c) = holes[rng.below(holes.len())];
                let (dr, dc) = [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)][rng.below(4)];
                let (r1, c1) = (r as i32 + dr, c as i32 + dc);
                let (r2, c2) = (r as i32 + 2 * dr, c as i32 + 2 * dc);
                let inside = |r: i32, c: i32| (0..7).contains(&r) && (0..7).contains(&c);
                if !inside(r2, c2) {
                    continue;
                }
                let (r1, c1, r2, c2) = (r1 as usize, c1 as usize, r2 as usize, c2 as usize);
                // Un-jump: a peg at (r, c) came from (r2, c2) over (r1, c1).
                if case.peg[r][c]
                    && case.cell[r1][c1]
                    && case.cell[r2][c2]
                    && !case.peg[r1][c1]
                    && !case.peg[r2][c2]
                {
                    case.peg[r][c] = false;
                    case.peg[r1][c1] = true;
                    case.peg[r2][c2] = true;
                    done += 1;
                }
            }
        }
        if case.peg.iter().flatten().filter(|&&p| p).count() >= 2 {
            cases.push(case);
        }
    }
    let mut input = format!("{}\n", cases.len());
    for case in &cases {
        for r in 0..7 {
            let row: Vec<&str> = (0..7)
                .map(
                    |c| match (case.cell[r][c], case.peg[r][c], case.goal == (r, c)) {
                        (false, _, _) => "x",
                        (true, true, true) => "O",
                        (true, false, true) => "E",
                        (true, true, false) => "o",
                        (true, false, false) => "e",
                    },
                )
                .collect();
            input.push_str(&row.join(" "));
            input.push('\n');
        }
    }
    let out = run_batch("peg-game", &input);
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(blocks.len(), cases.len());
    let mut solvable = 0;
    for (k, (block, case)) in blocks.iter().zip(&cases).enumerate() {
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines[0], format!("Dataset {}:", k + 1));
        if peg_solvable(case) {
            solvable += 1;
            peg_replay(case, &lines[1..]).unwrap_or_else(|e| panic!("dataset {}: {e}", k + 1));
        } else {
            assert_eq!(&lines[1..], ["No solution."], "dataset {}", k + 1);
        }
    }
    assert!(
        solvable > 20 && solvable < cases.len(),
        "{solvable} solvable"
    );
}
