//! The comparison search: one queen per row, row by row.
//!
//! The problem is the same as [`crate::search`]'s: complete the given
//! queens to eight. The state is the board and the next row to fill; a row
//! with a given queen is forced, any other row tries its 8 columns. Knowing
//! that every row holds exactly one queen removes the "no queen here"
//! branch of the square-by-square search, so the tree has at most 8^8
//! leaves and in practice a few thousand nodes. Chapter 3 develops this
//! search for N queens; this copy exists only so the book can compare the
//! two on the same boards.

use crate::attack::is_safe;
use crate::board::{Board, N};
use crate::search::SearchStats;

// ANCHOR: rows
/// The first completion found row by row (leftmost column first), with the
/// nodes and backtracks it took, counted as in [`crate::Search`].
pub fn solve_by_rows(given: &Board) -> (Option<Board>, SearchStats) {
    let mut search = RowSearch {
        board: *given,
        stats: SearchStats::default(),
    };
    let found = search.place_row(0);
    (found.then_some(search.board), search.stats)
}

struct RowSearch {
    board: Board,
    stats: SearchStats,
}

impl RowSearch {
    /// Whether rows `row..8` can each take one queen.
    fn place_row(&mut self, row: usize) -> bool {
        self.stats.nodes += 1;
        if row == N {
            return true;
        }
        // A given queen fixes the row; a second given queen on the same
        // row is an attack that `is_safe` reports.
        if let Some(col) = (0..N).find(|&c| self.board.has_queen(row, c)) {
            return is_safe(&self.board, row, col) && self.place_row(row + 1);
        }
        for col in 0..N {
            if !is_safe(&self.board, row, col) {
                continue;
            }
            self.board.place(row, col);
            if self.place_row(row + 1) {
                return true;
            }
            self.board.remove(row, col);
            self.stats.backtracks += 1;
        }
        false
    }
}
// ANCHOR_END: rows
