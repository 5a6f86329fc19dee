//! Chapter 3: N queens, every board and the count.
//!
//! The problem: put `n` queens on an `n`×`n` board so that no two share a
//! row, a column or a diagonal; list every such board (LeetCode "N-Queens")
//! or only count them ("N-Queens II"). The state of the search is the list
//! of columns of the queens placed so far, one per row from the top; a
//! search that tries each column of the next row and keeps only the safe
//! ones visits a tree whose leaves are the `S` solutions. Drawing each
//! solution costs `n²`, so listing costs at least `O(S·n²)` on top of the
//! search.
//!
//! The chapter moves in stages, each a module and an exercise:
//! [`naive`] (an `O(n)` safety check), [`flags`] (an `O(1)` check with
//! column and diagonal flags), [`bits`] (the flags as machine words, then
//! mirror symmetry), [`robot`] (the same tree walked without recursion by a
//! robot that only knows up, right and down), [`iter`] (a lazy iterator of
//! solutions) and [`parallel`] (the count split across threads).
//!
//! `n = 0` has exactly one solution, the empty board: zero queens on a
//! board with no squares attack nobody (OEIS A000170 starts with a 1).

pub mod beautiful;
pub mod bits;
pub mod flags;
pub mod iter;
pub mod naive;
pub mod parallel;
pub mod robot;

pub use beautiful::count_beautiful;
pub use bits::{count_bits, count_mirror};
pub use flags::{Flags, count_flags, solve_all_flags};
pub use iter::{Solutions, solutions};
pub use naive::{Board, count, draw, is_valid, solve_all};
pub use parallel::count_parallel;
pub use robot::{
    Counted, QueensTree, Robot, Tree, robot_solutions, walk_all, walk_around, walk_leaves,
};

/// The largest `n` the bitboard counters accept: one bit per column of a
/// `u32`.
pub const MAX_N: usize = 32;
