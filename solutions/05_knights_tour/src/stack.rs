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
    if start.0 >= n || start.1 >= n {
        return Search {
            tour: None,
            attempts: 1,
        };
    }
    let mut board = Board::new(n);
    let mut attempts = 1;
    board.set(start, 1);
    // Each frame is a square on the path and the index of its next move.
    let mut stack: Vec<(Square, usize)> = vec![(start, 0)];
    while let Some(frame) = stack.last_mut() {
        let (at, tried) = *frame;
        let Some(&(dr, dc)) = moves.get(tried) else {
            // All moves tried: done if the board is full, else back up.
            if stack.len() == n * n {
                return Search {
                    tour: Some(board),
                    attempts,
                };
            }
            board.set(at, 0);
            stack.pop();
            continue;
        };
        frame.1 += 1;
        attempts += 1;
        if let Some(to) = step(n, at, dr, dc).filter(|&to| board.get(to) == 0) {
            board.set(to, stack.len() as u32 + 1);
            stack.push((to, 0));
        }
    }
    // The start square was cleared when its frame was popped.
    Search {
        tour: None,
        attempts,
    }
}
// ANCHOR_END: stack_dfs

/// The square `(dr, dc)` away from `(row, col)`, if it is on the board.
fn step(n: usize, (row, col): Square, dr: isize, dc: isize) -> Option<Square> {
    let to = (row.checked_add_signed(dr)?, col.checked_add_signed(dc)?);
    (to.0 < n && to.1 < n).then_some(to)
}
