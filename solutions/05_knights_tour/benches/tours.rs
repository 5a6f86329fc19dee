//! Criterion benchmarks: the chapter's targets (an open tour of 1000x1000
//! under 0.2 s, all 1,728 tours of 5x5 under 0.6 s) and the closed tour of
//! 1000x1000, each beside baselines measured in the same run.
//!
//! The machine is shared and noisy, so figures are read as ratios against
//! the baselines: the seed's plain DFS on 6x6 (1,277,375 attempts, the
//! chapter's first program), and for the big board the `warnsdorff`
//! exercise (one greedy pass on a `Board`, Pohl's tie-break).
//! Run: `cargo bench -p knights_tour_solution --bench tours -- --warm-up-time 1 --measurement-time 3`.

use criterion::{Criterion, criterion_group, criterion_main};
use knights_tour_solution::closed::closed_tour;
use knights_tour_solution::{SEED_MOVES, count_open_tours, open_tour, seed_dfs, warnsdorff};
use std::hint::black_box;
use std::time::Duration;

fn tours(c: &mut Criterion) {
    let mut group = c.benchmark_group("tours");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("baseline: seed_dfs(6)", |b| {
        b.iter(|| seed_dfs(black_box(6)).attempts)
    });
    group.bench_function("baseline: warnsdorff(1000), one Board pass", |b| {
        b.iter(|| warnsdorff(black_box(1000), (999, 999), &SEED_MOVES).is_some())
    });
    group.bench_function("open_tour(1000) from the seed's corner", |b| {
        b.iter(|| open_tour(black_box(1000), (999, 999)).is_some())
    });
    group.bench_function("open_tour(1000) from the centre", |b| {
        b.iter(|| open_tour(black_box(1000), (500, 500)).is_some())
    });
    group.bench_function("closed_tour(1000)", |b| {
        b.iter(|| closed_tour(black_box(1000)).is_some())
    });
    group.bench_function("count_open_tours(5)", |b| {
        b.iter(|| count_open_tours(black_box(5)))
    });
    group.finish();
}

criterion_group!(benches, tours);
criterion_main!(benches);
