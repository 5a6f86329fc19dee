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
    Solutions {
        n,
        cols: Vec::with_capacity(n),
        flags: Flags::new(n),
        from: 0,
        done: false,
        nodes: 0,
    }
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
        match self.cols.pop() {
            Some(c) => {
                self.flags.set(self.cols.len(), c, false);
                self.from = c + 1;
            }
            None => self.done = true,
        }
    }
}

impl Iterator for Solutions {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        while !self.done {
            let row = self.cols.len();
            if row == self.n {
                let found = self.cols.clone();
                // Resume past this board on the next call.
                self.backtrack();
                return Some(found);
            }
            match (self.from..self.n).find(|&c| self.flags.is_free(row, c)) {
                Some(c) => {
                    self.flags.set(row, c, true);
                    self.cols.push(c);
                    self.from = 0;
                    self.nodes += 1;
                }
                None => self.backtrack(),
            }
        }
        None
    }
}
// ANCHOR_END: solutions
