//! Stage 3: the `O(1)` safety check.
//!
//! The problem is the one of [`crate::naive`]; the state gains three sets
//! of flags, one per column, one per "/" diagonal (`row + col` constant,
//! `2n - 1` of them) and one per "\" diagonal (`row - col` constant, also
//! `2n - 1`, shifted by `n - 1` to index from 0). A square is safe when
//! its three lines are all free, which costs `O(1)` instead of `O(n)`.
//! The number of nodes the search visits does not change, and neither
//! does the `O(S·n²)` cost of drawing the boards.

use crate::naive::{Board, draw};

// ANCHOR: flags
/// Which columns and diagonals of an `n`×`n` board already hold a queen.
#[derive(Debug, Clone)]
pub struct Flags {
    n: usize,
    col: Vec<bool>,
    sum: Vec<bool>,
    diff: Vec<bool>,
}

impl Flags {
    /// No line taken yet on an `n`×`n` board.
    pub fn new(n: usize) -> Self {
        todo!(
            "one flag per column and 2n-1 per diagonal direction, all false \
             (book: n_queens/flags.md)"
        )
    }

    /// Whether the square (`row`, `col`) is attacked by no queen recorded
    /// so far: its column and both of its diagonals are free.
    pub fn is_free(&self, row: usize, col: usize) -> bool {
        todo!(
            "free when the column, the row+col diagonal and the row-col \
             diagonal are all unflagged (book: n_queens/flags.md)"
        )
    }

    /// Records (`taken = true`) or forgets (`false`) a queen on
    /// (`row`, `col`): its column and both diagonals.
    pub fn set(&mut self, row: usize, col: usize, taken: bool) {
        todo!(
            "write `taken` into the column flag and both diagonal flags (book: \
             n_queens/flags.md)"
        )
    }
}
// ANCHOR_END: flags

// ANCHOR: solve_all_flags
/// The same boards as [`crate::solve_all`], in the same order, with the
/// `O(1)` check.
pub fn solve_all_flags(n: usize) -> Vec<Board> {
    todo!(
        "the naive search with is_free instead of is_valid, setting and \
         clearing flags around the recursion (book: n_queens/flags.md)"
    )
}

/// The search of [`crate::naive`], with the flags kept in step with `cols`:
/// set when a queen goes down, cleared when it is taken back.
fn search_flags(n: usize, cols: &mut Vec<usize>, flags: &mut Flags, boards: &mut Vec<Board>) {
    todo!(
        "like search, but ask flags.is_free(row, col) and set / clear the \
         flags around the recursive call (book: n_queens/flags.md)"
    )
}
// ANCHOR_END: solve_all_flags

// ANCHOR: count_flags
/// The same number as [`crate::count`], with the `O(1)` check. Without
/// boards to draw, the check is most of the work, so here it pays.
pub fn count_flags(n: usize) -> u64 {
    todo!("count from row 0 with fresh flags (book: n_queens/flags.md)")
}

/// Solutions that complete rows `row..n` given the queens in `flags`.
fn count_flags_from(n: usize, row: usize, flags: &mut Flags) -> u64 {
    todo!(
        "row == n counts 1; else sum over the free columns, setting and \
         clearing the flags (book: n_queens/flags.md)"
    )
}
// ANCHOR_END: count_flags
