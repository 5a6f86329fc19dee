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
    let mut board = *given;
    let mut found = Vec::new();
    collect_from(&mut board, 0, N, &mut found);
    found
}

/// Adds to `found` every completion of `board` over the squares
/// `square..64` with `left` queens still to come. The board is put back
/// as it was before returning.
fn collect_from(board: &mut Board, square: usize, left: usize, found: &mut Vec<Board>) {
    if left == 0 {
        found.push(*board);
        return;
    }
    if square == SQUARES {
        return;
    }
    let (row, col) = (square / N, square % N);
    if board.has_queen(row, col) {
        // A given queen is forced: it is checked, never skipped.
        if is_safe(board, row, col) {
            collect_from(board, square + 1, left - 1, found);
        }
        return;
    }
    if is_safe(board, row, col) {
        board.place(row, col);
        collect_from(board, square + 1, left - 1, found);
        board.remove(row, col);
    }
    collect_from(board, square + 1, left, found);
}
// ANCHOR_END: every_completion
