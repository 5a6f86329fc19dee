//! Stage 4: branch on the blank with the fewest candidates.
//!
//! The problem is the same; the order changes. At every node the search
//! looks at all blanks, counts each one's free digits (one popcount on the
//! bitmasks of stage 3) and branches on the blank with the fewest, the
//! first in reading order on a tie (seed 002's `get_least_choices_grid`).
//! A blank with no free digit ends the branch at once, and a blank with one
//! is filled without a guess. A node now costs O(81) instead of O(1), but
//! the tree shrinks by orders of magnitude: the order of the choices
//! matters far more than the speed of the check.

use crate::bitmask::Masks;
use crate::{Grid, Outcome, Stats};

// ANCHOR: fewest_choices
/// The blank with the fewest free digits, first in reading order on a tie,
/// with its free digits as bits 1-9; `None` when the grid is full. A blank
/// with no free digit is returned at once: that branch is dead.
pub fn fewest_choices(grid: &Grid, masks: &Masks) -> Option<(usize, u16)> {
    todo!(
        "keep the blank with the fewest free digits, first in reading order on \
         a tie; stop early at 0 or 1 (book: sudoku/fewest.md)"
    )
}
// ANCHOR_END: fewest_choices

// ANCHOR: solve_fewest
/// Solves `puzzle` by always branching on [`fewest_choices`], digits in
/// increasing order. Stats: one node per call; a guess per digit written
/// into a blank that had two or more free digits.
pub fn solve_fewest(puzzle: &Grid) -> Outcome {
    todo!("check the givens, build the masks, branch (book: sudoku/fewest.md)")
}

fn branch(grid: &mut Grid, masks: &mut Masks, stats: &mut Stats) -> bool {
    todo!(
        "count the node, pick fewest_choices, try its digits in increasing \
         order (book: sudoku/fewest.md)"
    )
}
// ANCHOR_END: solve_fewest
