//! Practice for chapter 4: numbers into k buckets of equal sum.
//!
//! The problem: can the numbers be split into `k` groups whose sums are
//! all the same (matchsticks into a square when k = 4)? It is a small
//! constraint puzzle with this chapter's search: each number is a blank to
//! fill, each bucket a digit it may take, and a bucket that would overflow
//! its share is a digit already used. The state is the buckets' sums so
//! far. Two of the chapter's ideas cut the tree: the most constrained item
//! first (the largest numbers, which fit the fewest buckets, go first) and
//! symmetry (the empty buckets are all alike, so only the first is tried).
//! The worst case stays exponential, k^n, but the pruned tree is small for
//! the judges' sizes (n up to 16).

// ANCHOR: can_partition
/// Whether `numbers` can be split into `k` groups, each number in exactly
/// one, whose sums are all equal. Zero groups hold only an empty list.
pub fn can_partition(numbers: &[u32], k: usize) -> bool {
    todo!(
        "handle k = 0, reject a total that k does not divide, sort the largest \
         first, then fill k empty buckets (book: \
         sudoku/practice.md#solved-in-the-workbook-k-buckets-of-equal-sum)"
    )
}

/// Whether the numbers `rest` fit into `buckets` (their sums so far)
/// without any bucket passing `share`. On success every bucket holds
/// exactly `share`, since the numbers add up to `k × share`.
fn fill_buckets(rest: &[u64], share: u64, buckets: &mut [u64]) -> bool {
    todo!(
        "every number placed is a success; else try the first number in each \
         bucket it fits, undoing on failure, and stop after the first empty \
         bucket (book: \
         sudoku/practice.md#solved-in-the-workbook-k-buckets-of-equal-sum)"
    )
}
// ANCHOR_END: can_partition
