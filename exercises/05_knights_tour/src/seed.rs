//! The seed's plain depth-first search, attempt for attempt.
//!
//! The problem: find the first open tour from a start square, trying the
//! eight moves in a fixed order and backing up from every dead end. The
//! state is the board of move numbers, the knight's square and the next
//! move number; the recursion depth is at most n². Nothing prunes the
//! search, so it costs up to 8 attempts per node of a tree that grows
//! exponentially: 410,537 attempts for 5 x 5, 593,790 for 7 x 7, and far
//! beyond patience for 8 x 8 from the seed's corner.

use crate::board::{Board, SEED_MOVES, Square, Step};

/// What a search found and how hard it worked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The first tour found, or `None` if there is none from this start.
    pub tour: Option<Board>,
    /// Every attempted move, counted the way the seed counts them.
    pub attempts: u64,
}

/// The seed's run: an n x n board, start in the bottom-right corner,
/// [`SEED_MOVES`] in order.
pub fn seed_dfs(n: usize) -> Search {
    plain_dfs(n, (n.saturating_sub(1), n.saturating_sub(1)), &SEED_MOVES)
}

// ANCHOR: plain_dfs
/// Depth-first search for the first open tour from `start`, trying `moves`
/// in order at every square.
///
/// Attempts are counted as the seed counts calls of its `visit`: 1 for
/// placing the knight on `start`, then 1 for every move tried from every
/// square the search stands on, whether the target is off the board,
/// already visited or free, including the moves tried (and refused) from
/// the last square of the finished tour. A `start` off the board (or
/// `n == 0`) costs its one attempt and finds nothing.
pub fn plain_dfs(n: usize, start: Square, moves: &[Step]) -> Search {
    todo!(
        "count the start as 1 attempt, number it 1, then let `extend` search \
         from it (book: \
         knights_tour/plain-dfs.md#the-seeds-search-move-by-move)"
    )
}

/// The search's state, so the recursion only passes what changes.
struct Plain<'a> {
    n: usize,
    moves: &'a [Step],
    board: Board,
    attempts: u64,
}

impl Plain<'_> {
    /// Tries every move from `at`, where the knight has just placed move
    /// `next - 1`; true once the board is full.
    fn extend(&mut self, at: Square, next: u32) -> bool {
        todo!(
            "try every move in order (each one is an attempt), recurse on free \
             squares, undo on failure (book: \
             knights_tour/plain-dfs.md#the-seeds-search-move-by-move)"
        )
    }

    fn step(&self, (row, col): Square, dr: isize, dc: isize) -> Option<Square> {
        let to = (row.checked_add_signed(dr)?, col.checked_add_signed(dc)?);
        (to.0 < self.n && to.1 < self.n).then_some(to)
    }
}
// ANCHOR_END: plain_dfs
