//! Criterion benchmarks: an open tour of 1000x1000 and counting the 1,728
//! tours of 5x5, each beside a baseline measured in the same run.
//!
//! The machine is shared and noisy, so figures are read as ratios against a
//! baseline: for the big tour, one pass that computes every square's degree
//! (the least work any method that looks at each square's jumps must do);
//! for counting, the plain DFS's first 5x5 tour (410,537 attempts).
//! Run: `cargo bench -p knights_tour_solution --bench tours`.

use criterion::{Criterion, criterion_group, criterion_main};
use knights_tour_solution::{SEED_MOVES, count_open_tours, knight_moves, open_tour, seed_dfs};
use std::hint::black_box;
use std::time::Duration;

/// Baseline: every square's degree on an n x n board, one pass.
fn degree_pass(n: usize) -> usize {
    let mut total = 0;
    for row in 0..n {
        for col in 0..n {
            total += knight_moves(n, (row, col), &SEED_MOVES).len();
        }
    }
    total
}

fn big_tour(c: &mut Criterion) {
    let mut group = c.benchmark_group("open tour 1000x1000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("baseline: degree pass", |b| {
        b.iter(|| degree_pass(black_box(1000)))
    });
    group.bench_function("open_tour from the seed's corner", |b| {
        b.iter(|| open_tour(black_box(1000), (999, 999)).is_some())
    });
    group.bench_function("open_tour from the top-left corner", |b| {
        b.iter(|| open_tour(black_box(1000), (0, 0)).is_some())
    });
    group.finish();
}

fn counting(c: &mut Criterion) {
    let mut group = c.benchmark_group("count 5x5");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("baseline: seed_dfs(5)", |b| {
        b.iter(|| seed_dfs(black_box(5)).attempts)
    });
    group.bench_function("count_open_tours(5)", |b| {
        b.iter(|| count_open_tours(black_box(5)))
    });
    group.finish();
}

criterion_group!(benches, big_tour, counting);
criterion_main!(benches);
