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

// ANCHOR: closed_tour
/// A closed tour of the n x n board, numbered from its first square: `None`
/// for odd n (there is none), for n < 6 (none either) and above
/// [`MAX_CLOSED`] (too slow this way).
pub fn closed_tour(n: usize) -> Option<Board> {
    if n < 6 || n % 2 == 1 || n > MAX_CLOSED {
        return None;
    }
    // Start in the middle: a square with 8 neighbours is easy to close onto.
    let mut path = open_tour(n, (n / 2, n / 2))?.path()?;
    let mut pos = vec![0; n * n];
    for (i, &(r, c)) in path.iter().enumerate() {
        pos[r * n + c] = i;
    }
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..64 * n * n {
        let end = path[path.len() - 1];
        if is_knight_move(end, path[0]) {
            return Some(Board::from_path(n, &path));
        }
        let pivots = pivots(n, &path, &pos);
        // Prefer a rotation whose new end touches the start: it closes now.
        let closing = pivots
            .iter()
            .find(|&&i| is_knight_move(path[i + 1], path[0]));
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let pick = closing.or_else(|| pivots.get(rng as usize % pivots.len().max(1)));
        match pick {
            Some(&i) => rotate(&mut path, &mut pos, n, i + 1),
            // The end's only neighbour is its predecessor: work on the other end.
            None => rotate(&mut path, &mut pos, n, 0),
        }
        if rng.is_multiple_of(8) {
            rotate(&mut path, &mut pos, n, 0);
        }
    }
    None
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
// ANCHOR_END: closed_tour

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
