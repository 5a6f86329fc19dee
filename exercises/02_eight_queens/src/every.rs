//! Practice for chapter 2: every completion of a board, listed.
//!
//! The problem (the judges' "print every solution", here with queens
//! given): list every board of eight non-attacking queens that keeps the
//! given ones, in the order the chapter's search meets them. The state is
//! the chapter's: the board so far, the next square to decide and the
//! queens still to come, plus the list of boards found. The tree is the
//! one [`count_completions`](crate::count_completions) walks, so the cost
//! is the same, a few thousand nodes on the empty board, plus one copy of
//! the board per completion (92 at most).

use crate::attack::is_safe;
use crate::board::{Board, N, SQUARES};

// ANCHOR: every_completion
/// Every board of eight non-attacking queens that keeps every queen of
/// `given`, in search order: a board whose first queen (in reading order)
/// comes earlier is listed first, then by the second queen, and so on.
/// The empty board gives all 92; given queens that attack give none.
pub fn every_completion(given: &Board) -> Vec<Board> {
    todo!(
        "copy the given board, start collecting from square 0 with N queens \
         left, return what was collected (book: \
         eight_queens/practice.md#solved-in-the-workbook-every-solution-listed)"
    )
}

/// Adds to `found` every completion of `board` over the squares
/// `square..64` with `left` queens still to come. The board is put back
/// as it was before returning.
fn collect_from(board: &mut Board, square: usize, left: usize, found: &mut Vec<Board>) {
    todo!(
        "the tree of count_from, but at a leaf with no queen left, push a copy \
         of the board (book: \
         eight_queens/practice.md#solved-in-the-workbook-every-solution-listed)"
    )
}
// ANCHOR_END: every_completion
