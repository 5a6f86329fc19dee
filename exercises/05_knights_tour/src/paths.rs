//! Practice for chapter 5: paths that cover every open square.
//!
//! The problem: a map is a text, one row per line, with one start `S`, one end
//! `E`, open squares `.` and walls (any other character, and everything
//! past a row's end). Count the walks from the start to the end that step
//! between squares sharing a side and stand on every open square, the
//! start and the end exactly once. It is the chapter's count of every
//! tour with four moves instead of eight and a fixed last square: the
//! state is the square the walk stands on, the marks of the squares it has
//! used, and how many squares are still to visit; each step marks, recurses
//! and rubs the mark out. Up to 4^cells walks in principle, but the marks
//! cut it to a few thousand steps on the judges' maps of up to 20 squares.

/// Where the walk begins.
pub const START: u8 = b'S';
/// Where the walk must end, as its last square.
pub const END: u8 = b'E';
/// A square the walk must stand on once.
pub const OPEN: u8 = b'.';

// ANCHOR: count_full_paths
/// The number of walks from `S` to `E` through side-sharing squares that
/// stand on every square of `map` (one row per line) that is not a wall
/// exactly once. A map without exactly one `S` and one `E` has none.
pub fn count_full_paths(map: &str) -> u64 {
    todo!(
        "find the one S and the one E, count the squares to stand on, then \
         walk from S with nothing marked (book: \
         knights_tour/practice.md#solved-in-the-workbook-paths-over-every-square)"
    )
}

/// Whether (`row`, `col`) is on the map and not a wall.
fn is_open(rows: &[Vec<u8>], row: usize, col: usize) -> bool {
    matches!(
        rows.get(row).and_then(|r| r.get(col)),
        Some(&(OPEN | START | END))
    )
}

/// The walks that go on from `at` (not yet marked), with `left` squares
/// still to stand on, `at` included. Leaves `used` as it found it.
fn walk(rows: &[Vec<u8>], at: (usize, usize), left: usize, used: &mut [Vec<bool>]) -> u64 {
    todo!(
        "at E count 1 if it is the last square left; else mark, walk to each \
         open unmarked neighbour, unmark (book: \
         knights_tour/practice.md#solved-in-the-workbook-paths-over-every-square)"
    )
}
// ANCHOR_END: count_full_paths
