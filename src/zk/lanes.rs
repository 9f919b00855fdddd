//! Residues modulo a small k (at most 128) one per byte, added a row at a time so the compiler vectorizes it.
//!
//! Two residues below k ≤ 128 sum to at most 254, so a sum is reduced with
//! one wrapping subtraction and a minimum: `min(s, s - k)` is `s` when
//! `s < k` (the subtraction wraps past it) and `s - k` otherwise. Both are
//! byte-wise vector instructions on every x86-64 and ARM machine; with AVX2
//! the loops run 32 residues at a time.

/// The largest modulus byte lanes hold.
pub(crate) const MAX_LANE_MODULUS: u64 = 128;

/// `dst += src` (mod k), byte by byte.
#[inline]
pub(crate) fn add(dst: &mut [u8], src: &[u8], k: u8) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just checked to have AVX2.
        return unsafe { add_avx2(dst, src, k) };
    }
    add_plain(dst, src, k)
}

#[inline(always)]
fn add_plain(dst: &mut [u8], src: &[u8], k: u8) {
    for (d, &s) in dst.iter_mut().zip(src) {
        let t = *d + s;
        *d = t.min(t.wrapping_sub(k));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_avx2(dst: &mut [u8], src: &[u8], k: u8) {
    add_plain(dst, src, k)
}

/// `Σ (a + b mod k)`: the press count of `a + b`, without writing it.
#[inline]
pub(crate) fn sum_of_sum(a: &[u8], b: &[u8], k: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just checked to have AVX2.
        return unsafe { sum_of_sum_avx2(a, b, k) };
    }
    sum_of_sum_plain(a, b, k)
}

#[inline(always)]
fn sum_of_sum_plain(a: &[u8], b: &[u8], k: u8) -> u64 {
    // 256 residues below 128 sum to under 2^15: a block adds in 16 bits.
    a.chunks(256)
        .zip(b.chunks(256))
        .map(|(a, b)| {
            let block: u16 = a
                .iter()
                .zip(b)
                .map(|(&x, &y)| {
                    let t = x + y;
                    u16::from(t.min(t.wrapping_sub(k)))
                })
                .sum();
            u64::from(block)
        })
        .sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sum_of_sum_avx2(a: &[u8], b: &[u8], k: u8) -> u64 {
    sum_of_sum_plain(a, b, k)
}

/// Residues a block of [`gather`] holds: two AVX2 registers.
pub(crate) const BLOCK: usize = 64;

/// `dst = step · Σ a · src` (mod k) over the pairs `(src, a)`, each `src`
/// as long as `dst`: a block at a time in registers, so each source is read
/// once and `dst` written once.
pub(crate) fn gather(dst: &mut [u8], srcs: &[(&[u8], u8)], step: u8, k: u8) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just checked to have AVX2.
        return unsafe { gather_avx2(dst, srcs, step, k) };
    }
    gather_plain(dst, srcs, step, k)
}

#[inline(always)]
fn gather_plain(dst: &mut [u8], srcs: &[(&[u8], u8)], step: u8, k: u8) {
    #[inline(always)]
    fn add_block(acc: &mut [u8; BLOCK], x: &[u8; BLOCK], k: u8) {
        for (a, &b) in acc.iter_mut().zip(x) {
            let t = *a + b;
            *a = t.min(t.wrapping_sub(k));
        }
    }
    // c · x by doubling and adding, c below k.
    #[inline(always)]
    fn times_block(x: &mut [u8; BLOCK], mut c: u8, k: u8) {
        if c == 1 {
            return;
        }
        let mut power = *x;
        *x = [0; BLOCK];
        while c > 0 {
            if c & 1 == 1 {
                add_block(x, &power, k);
            }
            c >>= 1;
            if c > 0 {
                let copy = power;
                add_block(&mut power, &copy, k);
            }
        }
    }
    let full = dst.len() / BLOCK * BLOCK;
    for start in (0..full).step_by(BLOCK) {
        let mut acc = [0u8; BLOCK];
        for &(src, a) in srcs {
            let Ok(x) = <&[u8; BLOCK]>::try_from(&src[start..start + BLOCK]) else {
                unreachable!("a block of BLOCK residues")
            };
            if a == 1 {
                add_block(&mut acc, x, k);
            } else {
                let mut x = *x;
                times_block(&mut x, a, k);
                add_block(&mut acc, &x, k);
            }
        }
        times_block(&mut acc, step, k);
        dst[start..start + BLOCK].copy_from_slice(&acc);
    }
    // The tail, shorter than a block.
    let n = dst.len() - full;
    if n > 0 {
        let mut acc = [0u8; BLOCK];
        for &(src, a) in srcs {
            let mut x = [0u8; BLOCK];
            x[..n].copy_from_slice(&src[full..]);
            times_block(&mut x, a, k);
            add_block(&mut acc, &x, k);
        }
        times_block(&mut acc, step, k);
        dst[full..].copy_from_slice(&acc[..n]);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn gather_avx2(dst: &mut [u8], srcs: &[(&[u8], u8)], step: u8, k: u8) {
    gather_plain(dst, srcs, step, k)
}

/// `c · src` (mod k) into `dst`, by doubling and adding: a few vector
/// passes, however large `c` is.
pub(crate) fn scaled(dst: &mut Vec<u8>, src: &[u8], c: u64, k: u8) {
    let mut c = c % u64::from(k);
    dst.clear();
    if c == 1 {
        dst.extend_from_slice(src);
        return;
    }
    if c == u64::from(k) - 1 {
        // -x is k - x, and 0 stays 0: the same minimum as in `add`.
        dst.extend(src.iter().map(|&x| {
            let t = k - x;
            t.min(t.wrapping_sub(k))
        }));
        return;
    }
    dst.resize(src.len(), 0);
    let mut power = src.to_vec();
    while c > 0 {
        if c & 1 == 1 {
            add(dst, &power, k);
        }
        c >>= 1;
        if c > 0 {
            let copy = power.clone();
            add(&mut power, &copy, k);
        }
    }
}

/// `-x` (mod k), for one residue.
#[inline]
pub(crate) fn neg(x: u8, k: u8) -> u8 {
    if x == 0 { 0 } else { k - x }
}

/// The inverse of `a` modulo `k`, when `a` is a unit.
pub(crate) fn inverse(a: u64, k: u64) -> Option<u64> {
    let (mut r0, mut r1) = (i128::from(k), i128::from(a % k));
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    (r0 == 1).then(|| t0.rem_euclid(i128::from(k)) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_agree_with_plain_arithmetic_for_every_modulus() {
        for k in 2..=128u64 {
            let a: Vec<u8> = (0..300u64).map(|i| (i * 7 % k) as u8).collect();
            let b: Vec<u8> = (0..300u64).map(|i| (i * 13 + 5) as u8 % k as u8).collect();
            let mut sum = a.clone();
            add(&mut sum, &b, k as u8);
            let total: u64 = a.iter().zip(&b).map(|(&x, &y)| u64::from(x + y) % k).sum();
            assert_eq!(sum_of_sum(&a, &b, k as u8), total);
            for (ca, cb, step) in [(1, 1, 1), (2 % k, 1, k - 1), (k - 1, k / 2, 3 % k)] {
                let mut out = vec![0u8; 300];
                gather(
                    &mut out,
                    &[(&a, ca as u8), (&b, cb as u8)],
                    step as u8,
                    k as u8,
                );
                for i in 0..300 {
                    let sum = u64::from(a[i]) * ca + u64::from(b[i]) * cb;
                    assert_eq!(u64::from(out[i]), sum * step % k, "{k} {ca} {cb} {step}");
                }
            }
            for i in 0..300 {
                assert_eq!(u64::from(sum[i]), (u64::from(a[i]) + u64::from(b[i])) % k);
            }
            for c in [0, 1, 2, k - 1, k, 3 * k + 2] {
                let mut out = Vec::new();
                scaled(&mut out, &a, c, k as u8);
                for i in 0..300 {
                    assert_eq!(u64::from(out[i]), u64::from(a[i]) * c % k, "{k} {c}");
                }
            }
            for x in 0..k {
                match inverse(x, k) {
                    Some(y) => assert_eq!(x * y % k, 1),
                    None => assert!((1..k).all(|y| x * y % k != 1)),
                }
            }
        }
    }
}
