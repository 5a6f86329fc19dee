//! The seed's search without recursion.
//!
//! The problem: the same first tour, found with the same attempts, as
//! [`plain_dfs`](crate::seed::plain_dfs), but with a stack we own, so that no
//! board size can overflow the call stack. The state is the board plus one
//! frame per square on the current path: the square and how many of its
//! moves have been tried. Time is exactly the recursive search's; memory is
//! the board plus at most n² small frames on the heap.

use crate::board::{Board, Square, Step};
use crate::seed::Search;

// ANCHOR: stack_dfs
/// [`plain_dfs`](crate::seed::plain_dfs) on an explicit stack: the same
/// tour and the same attempt count for every `n`, `start` and `moves`.
pub fn stack_dfs(n: usize, start: Square, moves: &[Step]) -> Search {
    todo!(
        "keep a stack of (square, next move index) frames; push on a free \
         target, pop when all moves are tried (book: \
         knights_tour/plain-dfs.md#without-recursion)"
    )
}
// ANCHOR_END: stack_dfs

/// The square `(dr, dc)` away from `(row, col)`, if it is on the board.
fn step(n: usize, (row, col): Square, dr: isize, dc: isize) -> Option<Square> {
    let to = (row.checked_add_signed(dr)?, col.checked_add_signed(dc)?);
    (to.0 < n && to.1 < n).then_some(to)
}
