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
    assert!(
        n <= MAX_N,
        "the bitboard counters handle n <= {MAX_N}, not {n}"
    );
    if n == 0 { 0 } else { u32::MAX >> (MAX_N - n) }
}
// ANCHOR_END: mask

// ANCHOR: count_bits
/// The number of solutions for `n` queens (`n <= 32`), with bitboards.
pub fn count_bits(n: usize) -> u64 {
    count_below(full_mask(n), 0, 0, 0)
}

/// Solutions that complete a board whose filled rows took the columns in
/// `cols` and attack the next row along `left` ("\") and `right` ("/")
/// diagonals. `all` has one bit per column.
pub fn count_below(all: u32, cols: u32, left: u32, right: u32) -> u64 {
    if cols == all {
        return 1;
    }
    let mut free = all & !(cols | left | right);
    let mut total = 0;
    while free != 0 {
        // The lowest set bit: x & -x in two's complement.
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += count_below(all, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    total
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
    let all = full_mask(n);
    if n == 0 {
        return 1;
    }
    let first = |bit: u32| count_below(all, bit, bit << 1, bit >> 1);
    let left_half: u64 = (0..n / 2).map(|c| first(1 << c)).sum();
    let middle = if n % 2 == 1 { first(1 << (n / 2)) } else { 0 };
    2 * left_half + middle
}
// ANCHOR_END: count_mirror
