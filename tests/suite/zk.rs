//! Linear algebra modulo k: the nullity of the n x n plus board over GF(3), GF(5) and GF(7), n = 1..16, by Smith normal form and by light chasing, which must agree.

use pegflip::zk::{Order, System};

/// The n x n plus board: one row per cell, one column per button.
fn plus(n: usize) -> Vec<Vec<u64>> {
    let mut a = vec![vec![0u64; n * n]; n * n];
    for r in 0..n {
        for c in 0..n {
            for (dr, dc) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                if (0..n as i64).contains(&nr) && (0..n as i64).contains(&nc) {
                    a[r * n + c][nr as usize * n + nc as usize] = 1;
                }
            }
        }
    }
    a
}

/// The rank of a matrix over GF(p), by plain Gaussian elimination.
fn rank(mut m: Vec<Vec<u64>>, p: u64) -> usize {
    let inverse = |a: u64| (1..p).find(|&x| a * x % p == 1).unwrap();
    let cols = m.first().map_or(0, Vec::len);
    let mut rank = 0;
    for c in 0..cols {
        let Some(pivot) = (rank..m.len()).find(|&r| m[r][c] != 0) else {
            continue;
        };
        m.swap(rank, pivot);
        let inv = inverse(m[rank][c]);
        let row: Vec<u64> = m[rank].iter().map(|&x| x * inv % p).collect();
        for (r, other) in m.iter_mut().enumerate() {
            if r != rank && other[c] != 0 {
                let f = other[c];
                for (x, &y) in other.iter_mut().zip(&row) {
                    *x = (*x + (p - f) * y) % p;
                }
            }
        }
        m[rank] = row;
        rank += 1;
    }
    rank
}

/// The nullity by light chasing: with the first row's presses as unknowns,
/// each later row's presses are forced (press the cell below to bring each
/// cell back to zero), so every press is an affine form in the n unknowns;
/// the last row's cells left over give an n x n system, whose nullity is the
/// board's.
fn chased_nullity(n: usize, p: u64) -> usize {
    // presses[r][c]: the press count at (r, c) as coefficients of the n unknowns.
    let mut presses: Vec<Vec<Vec<u64>>> = vec![vec![vec![0; n]; n]; n];
    for (c, press) in presses[0].iter_mut().enumerate() {
        press[c] = 1;
    }
    // What cell (r, c) holds after the presses of rows 0..=r+1 around it.
    let total = |presses: &Vec<Vec<Vec<u64>>>, r: usize, c: usize| -> Vec<u64> {
        let mut sum = vec![0u64; n];
        let near = [
            (r, c),
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for (nr, nc) in near {
            if nr < n && nc < n {
                for (s, &x) in sum.iter_mut().zip(&presses[nr][nc]) {
                    *s = (*s + x) % p;
                }
            }
        }
        sum
    };
    for r in 0..n - 1 {
        for c in 0..n {
            // The cell (r, c) holds `total` with row r+1 not yet pressed; its
            // press below must cancel it.
            let held = total(&presses, r, c);
            presses[r + 1][c] = held.iter().map(|&x| (p - x) % p).collect();
        }
    }
    let last: Vec<Vec<u64>> = (0..n).map(|c| total(&presses, n - 1, c)).collect();
    n - rank(last, p)
}

#[test]
fn plus_board_nullities_over_gf3_gf5_gf7_agree_two_ways() {
    let mut table = Vec::new();
    for p in [3u64, 5, 7] {
        let row: Vec<usize> = (1..=16)
            .map(|n| {
                let snf = System::new(p, &plus(n)).unwrap().nullity().unwrap();
                assert_eq!(snf, chased_nullity(n, p), "GF({p}), {n} x {n}");
                snf
            })
            .collect();
        table.push(row);
    }
    // The table as both methods give it (rows GF(3), GF(5), GF(7); n = 1..16).
    assert_eq!(
        table,
        [
            [0, 1, 0, 2, 3, 0, 0, 4, 2, 0, 3, 6, 6, 7, 0, 0],
            [0, 0, 0, 2, 2, 0, 0, 0, 2, 0, 4, 6, 0, 6, 0, 0],
            [0, 0, 1, 2, 2, 0, 1, 0, 2, 0, 3, 0, 0, 2, 1, 0],
        ]
    );
    // Published: the 5 x 5 board (Lights Out 2000) has nullity 3 over GF(3), 2 over GF(5).
    assert_eq!(table[0][4], 3);
    assert_eq!(table[1][4], 2);
    // The two methods agreeing over GF(2) too, against OEIS A159257.
    let gf2: Vec<usize> = (1..=16)
        .map(|n| System::new(2, &plus(n)).unwrap().nullity().unwrap())
        .collect();
    assert_eq!(gf2, [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8]);
    assert_eq!(
        gf2,
        (1..=16).map(|n| chased_nullity(n, 2)).collect::<Vec<_>>()
    );
}

#[test]
fn lights_out_2000_has_nullity_3_over_gf3_and_2_over_gf5() {
    // Published: the 5 x 5 plus board mod 3 has nullity 3, so 3^22 boards are solvable.
    let three = System::new(3, &plus(5)).unwrap();
    assert_eq!(three.nullity(), Some(3));
    assert_eq!(three.image(), Order(vec![(3, 22)]));
    assert_eq!(three.image().to_string(), "31381059609");
    assert_eq!(System::new(5, &plus(5)).unwrap().nullity(), Some(2));
    assert_eq!(System::new(2, &plus(5)).unwrap().nullity(), Some(2));
}

#[test]
fn composite_moduli_join_their_prime_powers() {
    // Mod 6 the plus board is its mod-2 and mod-3 boards at once.
    let six = System::new(6, &plus(5)).unwrap();
    assert_eq!(six.image(), Order(vec![(2, 23), (3, 22)]));
    assert_eq!(six.kernel_size(), Order(vec![(2, 2), (3, 3)]));
    assert!(six.rank().is_none());
    // An all-dark 5 x 5 board mod 6 with one cell at 1: the fewest presses, or a certificate.
    let mut b = vec![0u64; 25];
    b[12] = 1;
    match six.fewest_presses(&b, &Default::default()).unwrap() {
        Ok(x) => assert_eq!(six.apply(&x), b),
        Err(y) => assert!(six.is_certificate(&y, &b)),
    }
}
