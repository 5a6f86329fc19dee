//! Stage 4: the flags as machine words, then mirror symmetry.
//!
//! The problem: count the solutions, fast. The state of a row is three
//! words of `n` bits (bit `c` is column `c`): the columns taken, the
//! squares of this row attacked along "\" diagonals, and those attacked
//! along "/" diagonals. Going one row down shifts the diagonal words by one
//! place, and the free squares of a row are one expression, so each node
//! costs a handful of instructions and visiting the free squares skips the
//! attacked ones altogether. Mirror symmetry then halves the tree.

use crate::MAX_N;

// ANCHOR: mask
/// A word with the low `n` bits set: one bit per column. Panics when `n`
/// exceeds [`MAX_N`].
pub fn full_mask(n: usize) -> u32 {
    todo!(
        "the low n bits set; careful with n == 0 and n == 32 (book: \
         n_queens/bits.md)"
    )
}
// ANCHOR_END: mask

// ANCHOR: count_bits
/// The number of solutions for `n` queens (`n <= 32`), with bitboards.
pub fn count_bits(n: usize) -> u64 {
    todo!(
        "count below the empty board: no column or diagonal taken yet (book: \
         n_queens/bits.md)"
    )
}

/// Solutions that complete a board whose filled rows took the columns in
/// `cols` and attack the next row along `left` ("\") and `right` ("/")
/// diagonals. `all` has one bit per column.
pub fn count_below(all: u32, cols: u32, left: u32, right: u32) -> u64 {
    todo!(
        "all columns taken counts 1; else loop over the free bits, lowest \
         first, and descend with the diagonals shifted (book: \
         n_queens/bits.md)"
    )
}
// ANCHOR_END: count_bits

// ANCHOR: count_mirror
/// The same count as [`count_bits`], searching half of the tree. The mirror
/// image of a solution (column `c` becomes `n - 1 - c`) is another
/// solution, with its first-row queen on the other side of the middle, so
/// counting the boards whose first queen is in the left half and doubling
/// counts them all. With an odd `n` the middle column is its own mirror
/// image: its boards are counted once, on their own.
pub fn count_mirror(n: usize) -> u64 {
    todo!(
        "count the first-row queens in the left half, double, and add the \
         middle column once when n is odd (book: n_queens/bits.md)"
    )
}
// ANCHOR_END: count_mirror
