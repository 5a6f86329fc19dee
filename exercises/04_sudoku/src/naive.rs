//! Stage 1: the naive depth-first search of the seeds.
//!
//! The problem: fill the blanks in reading order, trying 1-9 in each. The
//! state is the grid itself and the index of the next blank; a digit is
//! allowed when a scan of its row, its column and its box does not find it.
//! The cost is up to 27 reads per digit tried, times a search tree that
//! can reach millions of nodes on a hard puzzle, because the order of the
//! blanks is fixed however bad it is.

use crate::{Grid, Outcome, Stats};

// ANCHOR: allowed
/// Whether `digit` may go at (`row`, `col`): no cell of the row, the column
/// or the 3x3 box already holds it.
pub fn allowed(grid: &Grid, row: usize, col: usize, digit: u8) -> bool {
    todo!(
        "scan the row, the column and the box for the digit (book: \
         sudoku/naive.md)"
    )
}
// ANCHOR_END: allowed

// ANCHOR: solve_naive
/// Solves `puzzle` by trying 1-9 in each blank, in reading order, checking
/// each digit by scanning (see [`allowed`]). Stats: one node per call of the
/// search, one guess per digit written.
pub fn solve_naive(puzzle: &Grid) -> Outcome {
    todo!(
        "check the givens, list the blanks in reading order, then fill them \
         (book: sudoku/naive.md)"
    )
}

/// Fills `blanks[0]`, then the rest by recursion; undoes its digit when
/// every choice below it failed.
fn fill(grid: &mut Grid, blanks: &[usize], stats: &mut Stats) -> bool {
    todo!(
        "count the node; fill the first blank with each allowed digit in turn \
         and recurse on the rest (book: sudoku/naive.md)"
    )
}
// ANCHOR_END: solve_naive
