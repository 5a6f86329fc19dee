//! Stage 6: a lazy iterator of solutions.
//!
//! The problem: hand out solutions one at a time, doing only the search
//! needed for the next one, so `solutions(8).next()` stops at the first
//! board instead of finding all 92. The state that recursion kept on the
//! call stack moves into the iterator: the queens placed so far, their
//! flags, and the column to try next in the current row. Each call to
//! `next` resumes the depth-first search where the last one stopped; the
//! whole iteration visits the same nodes as [`crate::count_flags`].

use crate::flags::Flags;

// ANCHOR: solutions
/// The solutions for `n` queens, lazily, as column lists (`cols[r]` is the
/// column of the queen in row `r`), in lexicographic order: the order of
/// [`crate::solve_all`]. `solutions(0)` yields one empty list.
pub fn solutions(n: usize) -> Solutions {
    todo!(
        "a Solutions with no queen placed, fresh flags, from = 0, not done \
         (book: n_queens/iterator.md)"
    )
}

/// The paused search behind [`solutions`].
#[derive(Debug, Clone)]
pub struct Solutions {
    n: usize,
    /// The queens placed so far, one per row from the top.
    cols: Vec<usize>,
    flags: Flags,
    /// The first column not yet tried in row `cols.len()`.
    from: usize,
    done: bool,
    /// Queens placed so far, over the whole iteration.
    nodes: u64,
}

impl Solutions {
    /// How many queens the search has placed so far (every placement
    /// counts, also those taken back later): the nodes visited.
    pub fn nodes_visited(&self) -> u64 {
        self.nodes
    }

    /// Takes the top queen back and moves on to the column after it; with
    /// no queen left, the search is over.
    fn backtrack(&mut self) {
        todo!(
            "pop the top queen, clear its flags and set from to its column + \
             1; with no queen left, set done (book: n_queens/iterator.md)"
        )
    }
}

impl Iterator for Solutions {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        todo!(
            "loop: a full board is returned (after a backtrack), else place \
             the first free column from `from` on, else backtrack (book: \
             n_queens/iterator.md)"
        )
    }
}
// ANCHOR_END: solutions
