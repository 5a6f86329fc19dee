//! Closed tours: a tour whose last square is a knight's move from its first.
//!
//! The problem: a closed tour on every even board from 6 x 6 up (odd boards
//! have none: the book proves it by colouring). The state is an open tour
//! as a path of squares, plus where each square sits on it. We close it with
//! Pósa's rotations: if the path's end E is a knight's move from the square
//! at position i, then the path p0 .. pi, E, ..., p(i+1) (the tail reversed)
//! is again a tour, with a new end. Rotating until the end touches the start
//! closes the path. Each rotation costs O(length of the tail) <= n², and
//! the number of rotations grows roughly with n², so this is practical to a
//! few hundred squares on a side.

use crate::board::{Board, Square, is_knight_move};
use crate::warnsdorff::open_tour;

/// The largest side length [`closed_tour`] attempts.
pub const MAX_CLOSED: usize = 200;

/// A closed tour of the n x n board, numbered from its first square: `None`
/// for odd n (there is none), for n < 6 (none either) and above
/// [`MAX_CLOSED`] (too slow this way).
pub fn closed_tour(n: usize) -> Option<Board> {
    todo!(
        "take an open tour from the middle, then rotate its end until it is a knight's move from the start (book: knights_tour/closed.md#closing-an-open-tour)"
    )
}

/// Positions i of the end's knight-move neighbours that allow a rotation
/// (not the end's own predecessor).
fn pivots(n: usize, path: &[Square], pos: &[usize]) -> Vec<usize> {
    let last = path.len() - 1;
    crate::board::knight_moves(n, path[last], &crate::board::SEED_MOVES)
        .into_iter()
        .map(|(r, c)| pos[r * n + c])
        .filter(|&i| i + 1 < last)
        .collect()
}

/// Reverses the path from position `from` to the end, keeping `pos` right.
fn rotate(path: &mut [Square], pos: &mut [usize], n: usize, from: usize) {
    path[from..].reverse();
    for (i, &(r, c)) in path.iter().enumerate().skip(from) {
        pos[r * n + c] = i;
    }
}

/// The same closed tour renumbered so that `start` holds 1 (a closed tour
/// can begin anywhere on its cycle). A board that is not a full tour, or a
/// start off it, comes back unchanged.
pub fn renumber_from(board: &Board, start: Square) -> Board {
    let n = board.size();
    if start.0 >= n || start.1 >= n || board.get(start) == 0 {
        return board.clone();
    }
    let total = (n * n) as u32;
    let shift = board.get(start) - 1;
    let mut out = Board::new(n);
    for row in 0..n {
        for col in 0..n {
            let k = board.get((row, col));
            out.set((row, col), (k + total - 1 - shift) % total + 1);
        }
    }
    out
}
