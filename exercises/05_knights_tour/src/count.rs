//! Counting every knight's tour, not just finding one.
//!
//! The problem: how many open tours start on a given square, and how many
//! directed open tours does the whole board have (304 from a 5 x 5 corner,
//! 1,728 on the 5 x 5 board)? The state is a bitmask of visited squares and
//! the knight's square; each square's knight moves are precomputed as a
//! mask too, so a step is a few bit operations. The search never stops at the
//! first tour, so it walks the whole tree: exponential in n². Two cuts keep
//! 5 x 5 quick: a start of the wrong colour on an odd board has no tour at
//! all, and a branch ends as soon as two free squares could only be the
//! path's last square. With them, all of 5 x 5 takes about 60,000 steps
//! instead of 19 million; beyond 6 x 6 it is still hopeless.

use crate::board::{SEED_MOVES, Square, knight_moves};

// ANCHOR: count
/// The number of open tours on an n x n board whose first square is
/// `start` (every order of visiting counts once). 0 for a start off the
/// board. Boards above 8 x 8 do not fit the 64-bit mask and give 0.
pub fn count_tours_from(n: usize, start: Square) -> u64 {
    todo!(
        "precompute each square's jump mask, then count complete paths from \
         the start (book: knights_tour/counting.md)"
    )
}

/// Every directed open tour on the board: the sum over all start squares.
/// A tour and its reverse are two directed tours. The board's 8 symmetries
/// (rotations and reflections) map tours to tours, so squares in one orbit
/// have equal counts and each orbit is counted once.
pub fn count_open_tours(n: usize) -> u64 {
    todo!(
        "add up the counts of all start squares (symmetric squares have equal \
         counts) (book: knights_tour/counting.md)"
    )
}

/// The smallest of a square's images under the 8 symmetries of the board.
fn canonical(n: usize, (r, c): Square) -> Square {
    let (s, t) = (n - 1 - r, n - 1 - c);
    [
        (r, c),
        (c, r),
        (s, c),
        (c, s),
        (r, t),
        (t, r),
        (s, t),
        (t, s),
    ]
    .into_iter()
    .min()
    .unwrap_or((r, c))
}

/// Tours that extend the path ending on `at` with `visited` behind it.
fn count_from(jumps: &[u64], at: usize, visited: u64, full: u64) -> u64 {
    todo!(
        "a full mask counts 1, a stranded one 0; otherwise sum the counts \
         through every free jump (book: knights_tour/counting.md)"
    )
}

/// Whether the free squares can no longer be strung on one path from `at`.
///
/// On such a path every free square but the last has two neighbours, each
/// a free square or `at`. So a free square with at most one of those "ways"
/// can only be the last square, and two such squares cannot both be last.
fn stranded(jumps: &[u64], at: usize, visited: u64, full: u64) -> bool {
    todo!(
        "count each free square's ways (free jumps, plus 1 if `at` jumps to \
         it); 0 ways, or two squares with at most 1, is hopeless (book: \
         knights_tour/counting.md)"
    )
}

/// For each square (row-major index), the mask of squares a knight reaches.
fn jump_masks(n: usize) -> Vec<u64> {
    (0..n * n)
        .map(|i| {
            knight_moves(n, (i / n, i % n), &SEED_MOVES)
                .into_iter()
                .fold(0, |mask, (r, c)| mask | 1 << (r * n + c))
        })
        .collect()
}
// ANCHOR_END: count
