//! Prints `count_fast(n)` beside OEIS A000170 for n = 0 to 18 (or to the
//! `N` given), and exits with status 1 if any differs.
//!
//! The problem: check the fast counter on the boards the test suite cannot
//! afford. The state is the table of known values; the cost is the counts
//! themselves, about half a minute for n = 18 on one core.
//!
//! `cargo run --release -p n_queens_solution --example n_queens_oeis [N]`

use n_queens_solution::fast::count_fast;
use std::process::ExitCode;
use std::time::Instant;

/// OEIS A000170: the number of ways to place n non-attacking queens on an
/// n×n board, n = 0..=18.
const A000170: [u64; 19] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624,
];

fn main() -> ExitCode {
    let last = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => A000170.len() - 1,
        Some(Ok(n)) if n < A000170.len() => n,
        Some(_) => {
            eprintln!("n_queens_oeis: N must be a board size from 0 to 18");
            return ExitCode::from(2);
        }
    };
    let mut wrong = 0;
    println!("| n | count_fast | A000170 | seconds |\n|---:|---:|---:|---:|");
    for (n, &known) in A000170.iter().enumerate().take(last + 1) {
        let start = Instant::now();
        let count = count_fast(n);
        let seconds = start.elapsed().as_secs_f64();
        let mark = if count == known { "" } else { " (differs)" };
        wrong += usize::from(count != known);
        println!("| {n} | {count}{mark} | {known} | {seconds:.3} |");
    }
    if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
