//! The chapter's ladder under criterion: every stage on the same small set.
//!
//! The set is our own (the seeds' two examples and `generate(1..=8, 0)`), so
//! this bench needs no downloaded data. Read the results as ratios between
//! the stages of one run; the book's table comes from the `figures` example.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use sudoku_solution::{Grid, STAGES, fast, generate};

fn set() -> Vec<Grid> {
    let mut set = vec![
        Grid::from_literal(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ),
        Grid::from_literal(
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107",
        ),
    ];
    set.extend((1..=8).map(|seed| generate(seed, 0)));
    set
}

fn ladder(c: &mut Criterion) {
    let set = set();
    let mut group = c.benchmark_group("ladder");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, solve) in STAGES {
        group.bench_function(name, |b| {
            b.iter(|| {
                set.iter()
                    .map(|g| solve(black_box(g)).stats.nodes)
                    .sum::<u64>()
            })
        });
    }
    group.bench_function("fast (counts to 2)", |b| {
        b.iter(|| {
            set.iter()
                .map(|g| fast::solve_count(black_box(g)).0)
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, ladder);
criterion_main!(benches);
