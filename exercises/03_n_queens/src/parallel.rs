//! Stage 7: the count, split across threads.
//!
//! The problem: use every core for the count. The subtrees below different
//! queens of the first two rows share nothing, so each pair of safe
//! first-row and second-row columns is an independent task; rayon spreads
//! the tasks over the cores and adds their counts. Mirror symmetry is kept
//! (first-row queens in the left half count twice), and there are about
//! `n²/2` tasks, enough for work stealing to even out their unequal sizes.

use crate::bits::{count_below, full_mask};
use rayon::prelude::*;

// ANCHOR: count_parallel
/// The number of solutions for `n` queens (`n <= 32`), counted on all
/// cores.
pub fn count_parallel(n: usize) -> u64 {
    todo!(
        "one task per safe pair of first- and second-row queens (left half of \
         the first row, weighted 2, the odd middle 1); count each with \
         count_below in a rayon par_iter and sum (book: n_queens/parallel.md)"
    )
}
// ANCHOR_END: count_parallel
