//! Criterion benchmarks of the chapter's stages.
//!
//! The problem: how much each step of the chapter buys. The groups compare
//! the stages on the same input in the same run, so the figures to quote
//! are the ratios, not the absolute times (the machine is shared). Cost:
//! a few seconds per group with the settings below.
//!
//! Run: `cargo bench -p apples_solution --bench stages`.

use apples_solution::{
    count_checked, count_exact, count_exact_multiplicative, count_memo, count_naive, distributions,
    traced_calls,
};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// Every counting stage on one small square, where the naive recursion
/// still finishes: the baseline is `count_naive`.
fn stages(c: &mut Criterion) {
    let (n, m) = (12, 12);
    let mut group = c.benchmark_group("count_12x12");
    group.bench_function("naive", |b| {
        b.iter(|| count_naive(black_box(n), black_box(m)))
    });
    group.bench_function("naive_traced", |b| {
        b.iter(|| traced_calls(black_box(n), black_box(m)))
    });
    group.bench_function("memo", |b| {
        b.iter(|| count_memo(black_box(n), black_box(m)))
    });
    group.bench_function("checked", |b| {
        b.iter(|| count_checked(black_box(n), black_box(m)))
    });
    group.bench_function("exact", |b| {
        b.iter(|| count_exact(black_box(n), black_box(m)))
    });
    group.bench_function("distributions", |b| {
        b.iter(|| distributions(black_box(n), black_box(m)).count())
    });
    group.finish();
}

/// The big case: the multiplicative formula against the factorisation.
fn exact_100k(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact_100000x100000");
    group.sample_size(10);
    group.bench_function("multiplicative", |b| {
        b.iter(|| count_exact_multiplicative(black_box(100_000), black_box(100_000)))
    });
    group.bench_function("factorised", |b| {
        b.iter(|| count_exact(black_box(100_000), black_box(100_000)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = stages, exact_100k
}
criterion_main!(benches);
