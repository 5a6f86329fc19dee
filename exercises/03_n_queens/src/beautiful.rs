//! Practice for chapter 3: counting "beautiful" arrangements.
//!
//! The problem: in how many orders can the numbers 1..=n fill the
//! positions 1..=n so that at every position the number divides the
//! position or the position divides the number? It is the queens' search
//! with another check: one position per level instead of one row, and a
//! bitmask of the numbers already used instead of the taken columns. The
//! state is the next position to fill and that mask. Filling from the last
//! position down puts the large positions first, which have the fewest
//! numbers to choose from, so dead ends show early; the tree's leaves are
//! the arrangements, a few thousand for n = 13.

// ANCHOR: count_beautiful
/// The number of orders of 1..=n in which, at every position `i` (from 1),
/// the number there divides `i` or `i` divides it. `n = 0` has one order,
/// the empty one. `n` is at most 64, one bit of the mask per number; the
/// search itself is slow long before that (past n = 20 or so).
pub fn count_beautiful(n: usize) -> u64 {
    todo!(
        "count the arrangements from position n down with no number used yet \
         (book: \
         n_queens/practice.md#solved-in-the-workbook-beautiful-arrangements)"
    )
}

/// The orders that complete `used` (bit k - 1 set when the number k is
/// placed) by filling the positions `position`, `position - 1`, ..., 1.
fn arrange(n: usize, position: usize, used: u64) -> u64 {
    todo!(
        "position 0 counts 1; else sum over the unused numbers that divide the \
         position or that it divides (book: \
         n_queens/practice.md#solved-in-the-workbook-beautiful-arrangements)"
    )
}
// ANCHOR_END: count_beautiful
