//! Criterion benchmarks: the square-by-square search against the row-by-row
//! one, on the chapter's boards.
//!
//! Run with `cargo bench -p eight_queens_solution --bench search`. Compare
//! the two functions within one run (the machine is shared and noisy): the
//! ratio is what the book reports, not the absolute times.

use criterion::{Criterion, criterion_group, criterion_main};
use eight_queens_solution::rows::solve_by_rows;
use eight_queens_solution::{Board, solve};
use std::hint::black_box;
use std::time::Duration;

fn boards() -> [(&'static str, Board); 3] {
    [
        ("empty", Board::empty()),
        ("sample_one", Board::from_queens(&[(2, 7), (4, 2), (6, 1)])),
        ("no_answer", Board::from_queens(&[(5, 7), (6, 4), (7, 1)])),
    ]
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, board) in boards() {
        group.bench_function(format!("squares/{name}"), |b| {
            b.iter(|| solve(black_box(&board)))
        });
        group.bench_function(format!("rows/{name}"), |b| {
            b.iter(|| solve_by_rows(black_box(&board)))
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
