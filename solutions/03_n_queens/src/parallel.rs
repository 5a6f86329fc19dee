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
    let all = full_mask(n);
    if n < 2 {
        return 1;
    }
    let tasks: Vec<(u32, u32, u64)> = (0..n.div_ceil(2))
        .flat_map(|c| {
            // The middle column of an odd board is its own mirror image.
            let weight = if 2 * c + 1 == n { 1 } else { 2 };
            let first = 1u32 << c;
            let attacked = first | first << 1 | first >> 1;
            (0..n)
                .map(|d| 1u32 << d)
                .filter(move |&second| second & attacked == 0)
                .map(move |second| (first, second, weight))
        })
        .collect();
    tasks
        .into_par_iter()
        .map(|(first, second, weight)| {
            let cols = first | second;
            let left = (first << 2 | second << 1) & all;
            let right = first >> 2 | second >> 1;
            weight * count_below(all, cols, left, right)
        })
        .sum()
}
// ANCHOR_END: count_parallel
