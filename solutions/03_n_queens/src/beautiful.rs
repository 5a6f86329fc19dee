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
    assert!(
        n <= 64,
        "count_beautiful({n}): at most 64 numbers fit the mask"
    );
    arrange(n, n, 0)
}

/// The orders that complete `used` (bit k - 1 set when the number k is
/// placed) by filling the positions `position`, `position - 1`, ..., 1.
fn arrange(n: usize, position: usize, used: u64) -> u64 {
    if position == 0 {
        return 1;
    }
    (1..=n)
        .filter(|&k| used & (1 << (k - 1)) == 0)
        .filter(|&k| k.is_multiple_of(position) || position.is_multiple_of(k))
        .map(|k| arrange(n, position - 1, used | 1 << (k - 1)))
        .sum()
}
// ANCHOR_END: count_beautiful
