//! Criterion benchmarks: every stage of chapter 3 at n = 8, 12 and 14, and
//! the fast counters at n = 16.
//!
//! The problem is the chapter's; each benchmark runs one whole search. The
//! slow stages cost seconds at n = 14, so their groups take few samples.
//! Compare the stages as ratios within one run: the machine is shared.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use n_queens_solution::fast::{count_fast, count_fast_parallel};
use n_queens_solution::{
    count, count_bits, count_flags, count_mirror, count_parallel, robot_solutions, solutions,
    solve_all, solve_all_flags,
};
use std::hint::black_box;
use std::time::Duration;

type Stage = (&'static str, fn(usize) -> u64);

/// Every stage as a function from n to a number, so one loop benches all.
const STAGES: [Stage; 10] = [
    ("solve_all", |n| solve_all(n).len() as u64),
    ("solve_all_flags", |n| solve_all_flags(n).len() as u64),
    ("count", count),
    ("count_flags", count_flags),
    ("robot", |n| robot_solutions(n).len() as u64),
    ("solutions_iter", |n| solutions(n).count() as u64),
    ("count_bits", count_bits),
    ("count_mirror", count_mirror),
    ("count_parallel", count_parallel),
    ("count_fast", count_fast),
];

fn stages(c: &mut Criterion) {
    for n in [8usize, 12, 14] {
        let mut group = c.benchmark_group(format!("stages_n{n}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(if n == 14 { 8 } else { 3 }));
        for (name, stage) in STAGES {
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, &n| {
                b.iter(|| stage(black_box(n)))
            });
        }
        group.finish();
    }
}

fn fast_counters(c: &mut Criterion) {
    let mut group = c.benchmark_group("fast_n16");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    let fast: [Stage; 5] = [
        ("count_bits", count_bits),
        ("count_mirror", count_mirror),
        ("count_parallel", count_parallel),
        ("count_fast", count_fast),
        ("count_fast_parallel", count_fast_parallel),
    ];
    for (name, counter) in fast {
        group.bench_function(name, |b| b.iter(|| counter(black_box(16))));
    }
    group.finish();
}

criterion_group!(benches, stages, fast_counters);
criterion_main!(benches);
