//! The depth-first search over the 64 squares, carrying "queens left".
//!
//! The problem: complete a board with some queens given to eight queens
//! that do not attack each other, keeping every given queen. The state of
//! the search is the board so far, the next square to decide (0..64 in
//! reading order) and how many queens are still to be passed or placed.
//! Each empty square is a binary choice (queen or not) and each given queen
//! is forced, so the tree has at most 2^64 leaves in principle; the attack
//! check and the "queens left" count cut it to a few hundred thousand nodes
//! at worst on the boards of this chapter (see the book's table).

use crate::attack::is_safe;
use crate::board::{Board, N, SQUARES};

/// What one search did: the nodes it visited (calls of the recursive step)
/// and the backtracks (queens it placed and later had to take back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub nodes: u64,
    pub backtracks: u64,
}

// ANCHOR: search
/// One depth-first search over the squares of a board: the board being
/// filled in and the tally of what the search has done so far.
pub struct Search {
    pub board: Board,
    pub stats: SearchStats,
}

impl Search {
    /// A search that starts from the given queens, having done nothing yet.
    pub fn new(given: &Board) -> Self {
        Search {
            board: *given,
            stats: SearchStats::default(),
        }
    }

    /// Whether the squares `square..64` can take the `left` queens still to
    /// come. On `true` the board holds the completion; on `false` it is as
    /// it was. A given queen must stay and must be safe; an empty square is
    /// tried with a queen first, then without. Counts one node per call and
    /// one backtrack per queen placed and taken back.
    pub fn place_from(&mut self, square: usize, left: usize) -> bool {
        todo!(
            "stop with success when no queen is left, with failure past square \
             63; then decide this square (book: eight_queens/search.md)"
        )
    }
}
// ANCHOR_END: search

// ANCHOR: solve
/// The first completion of `given` in search order (queens as early in
/// reading order as possible), or `None` when there is none, which includes
/// given queens that already attack each other.
pub fn solve(given: &Board) -> Option<Board> {
    todo!(
        "start a Search from the given board and ask place_from(0, N) (book: \
         eight_queens/search.md)"
    )
}
// ANCHOR_END: solve

// ANCHOR: search_stats
/// The nodes and backtracks of the search that [`solve`] runs on `given`.
pub fn search_stats(given: &Board) -> SearchStats {
    todo!(
        "run the same search as solve and return its stats (book: \
         eight_queens/stats.md)"
    )
}
// ANCHOR_END: search_stats

// ANCHOR: count_completions
/// How many boards of eight non-attacking queens keep every queen of
/// `given`: 92 for the empty board, 0 when the given queens attack.
pub fn count_completions(given: &Board) -> u64 {
    todo!(
        "copy the given board and count the leaves from square 0 with N queens \
         left (book: eight_queens/search.md#counting-every-completion)"
    )
}

/// The completions of `board` over the squares `square..64` with `left`
/// queens still to come: the same tree as [`Search::place_from`], but both
/// branches are always explored and their leaves added up.
fn count_from(board: &mut Board, square: usize, left: usize) -> u64 {
    todo!(
        "the same two choices as place_from, but add up both branches instead \
         of stopping at the first success (book: \
         eight_queens/search.md#counting-every-completion)"
    )
}
// ANCHOR_END: count_completions
