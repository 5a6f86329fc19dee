//! May a queen stand on `(row, col)`? The attack check, in three stages.
//!
//! The problem: a queen attacks along its row, its column and both
//! diagonals, as far as the board goes. The check walks from the square
//! outwards in each direction until it meets a queen (not safe) or leaves
//! the board. The state is one walking square `(ty, tx)`; each direction
//! costs at most 7 steps, so the full check is O(8 * 7) = O(N).
//!
//! The three functions tell the story of how the check is written: one
//! direction first, then three directions copied from it, then the single
//! loop over all (dy, dx) that the copies were hiding.

use crate::board::{Board, N};

// ANCHOR: in_board
/// Whether `(row, col)` is on the board. The arguments are signed because a
/// walk off the top or the left edge goes below zero.
pub fn in_board(row: isize, col: isize) -> bool {
    todo!(
        "both coordinates must lie in 0..8 (they are signed, so check the \
         lower end too) (book: eight_queens/attack.md#stage-1-one-direction)"
    )
}
// ANCHOR_END: in_board

// ANCHOR: one_direction
/// Stage 1: whether no queen stands up and to the left of `(row, col)`, on
/// the diagonal towards square `(0, 0)`. The other seven directions are not
/// looked at yet.
pub fn is_safe_one_direction(board: &Board, row: usize, col: usize) -> bool {
    todo!(
        "step (-1, -1) from the square until you leave the board or meet a \
         queen (book: eight_queens/attack.md#stage-1-one-direction)"
    )
}
// ANCHOR_END: one_direction

// ANCHOR: three_loops
/// Stage 2: whether no queen stands up-left, straight up or up-right of
/// `(row, col)`. Three copies of the stage 1 walk, differing only in `dx`.
pub fn is_safe_three_loops(board: &Board, row: usize, col: usize) -> bool {
    todo!(
        "copy the one-direction walk three times, for (dy, dx) = (-1, -1), \
         (-1, 0) and (-1, 1) (book: \
         eight_queens/attack.md#stage-2-three-copied-loops)"
    )
}
// ANCHOR_END: three_loops

// ANCHOR: is_safe
/// Stage 3: whether a queen on `(row, col)` would be attacked by no other
/// queen, in any of the 8 directions. A queen already standing on
/// `(row, col)` itself does not count: the walk starts one step away.
pub fn is_safe(board: &Board, row: usize, col: usize) -> bool {
    todo!(
        "loop dy and dx over -1..=1, skip (0, 0), and walk each direction as \
         before (book: eight_queens/attack.md#stage-3-one-loop-over-dy-dx)"
    )
}
// ANCHOR_END: is_safe
