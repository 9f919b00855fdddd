//! The memory bandwidth of this machine, one core and both: reading and writing a buffer of
//! 512 MiB in order, far past every cache. The enumeration benches (`peers -- english`) are read
//! against it: docs/benchmarks.md gives bytes moved per position beside these figures.
//! `cargo bench --bench stream`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use std::hint::black_box;

const WORDS: usize = 64 << 20;

fn stream(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream");
    group.sample_size(10);
    group.throughput(Throughput::Bytes((WORDS * 8) as u64));
    let mut buffer: Vec<u64> = (0..WORDS as u64).collect();
    group.bench_function("read_one_core", |b| {
        b.iter(|| black_box(buffer.iter().fold(0u64, |a, &w| a.wrapping_add(w))))
    });
    group.bench_function("write_one_core", |b| {
        b.iter(|| {
            buffer
                .iter_mut()
                .enumerate()
                .for_each(|(i, w)| *w = i as u64);
            black_box(&buffer);
        })
    });
    group.bench_function("read_all_cores", |b| {
        b.iter(|| {
            black_box(
                buffer
                    .par_chunks(1 << 20)
                    .map(|c| c.iter().fold(0u64, |a, &w| a.wrapping_add(w)))
                    .sum::<u64>(),
            )
        })
    });
    group.bench_function("write_all_cores", |b| {
        b.iter(|| {
            buffer.par_chunks_mut(1 << 20).for_each(|c| {
                c.iter_mut().enumerate().for_each(|(i, w)| *w = i as u64);
            });
            black_box(&buffer);
        })
    });
    group.finish();
}

criterion_group!(benches, stream);
criterion_main!(benches);
