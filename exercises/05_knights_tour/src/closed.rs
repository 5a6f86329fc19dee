//! Closed tours: a tour whose last square is a knight's move from its first.
//!
//! The problem: a closed tour on every even board from 6 x 6 up (odd boards
//! have none: the book proves it by colouring). The method is a divide and
//! conquer in the spirit of Parberry (1997): cut the board into rectangles
//! of 6 to 12 squares a side, give each a small closed tour found by a
//! backtracking search with a few edges forced near its corners, then join
//! the rectangles four at a time by swapping four edges around each point
//! where four of them meet. The state is the tour as a cycle: each square's
//! two neighbours on it. O(n²) time and memory, no recursion: the searches
//! run once per rectangle size (at most 9 sizes, about 100 squares each),
//! each join costs 8 edge changes, and one walk around the cycle numbers
//! the board.

use crate::board::{Board, SEED_MOVES, Square};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// The largest side length the sweep example proves [`closed_tour`] on
/// (it succeeds on every even n in 6..=MAX_CLOSED); the binary's limit.
pub const MAX_CLOSED: usize = 1000;

/// Sides at least this long are cut in two (both halves are then >= 6).
const SPLIT: usize = 12;

/// No neighbour yet in a [`Cycle`] slot.
const NONE: u32 = u32::MAX;

/// A rectangle of the board: its top-left square and its size.
#[derive(Debug, Clone, Copy)]
struct Rect {
    top: usize,
    left: usize,
    rows: usize,
    cols: usize,
}

// ANCHOR: closed_tour
/// A closed tour of the n x n board, numbered from the top-left corner:
/// `None` for odd n and for n < 6, where none exists.
///
/// Rectangles with both sides >= 12 are cut into four, each side into two
/// even halves as equal as possible (14 into 6 + 8, 16 into 8 + 8), and the
/// point where the four quarters meet is remembered. Smaller rectangles
/// (6 to 12 a side, the sides differing by at most 2) get a structured
/// tour from [`structured`]. Then every remembered point is joined.
pub fn closed_tour(n: usize) -> Option<Board> {
    todo!(
        "cut rectangles with both sides >= 12 into four (remember the centre), \
         give smaller ones a `structured` tour, then join every centre and \
         walk the cycle (book: knights_tour/closed.md#divide-and-conquer)"
    )
}

/// An even side cut into two even parts, equal or differing by 2.
fn halves(side: usize) -> (usize, usize) {
    let half = side / 2;
    if half.is_multiple_of(2) {
        (half, half)
    } else {
        (half - 1, half + 1)
    }
}
// ANCHOR_END: closed_tour

// ANCHOR: cycle
/// A closed tour under construction: for each square (row-major), its two
/// neighbours on the cycle, [`NONE`] where there is none yet.
pub struct Cycle {
    n: usize,
    link: Vec<[u32; 2]>,
}

impl Cycle {
    fn new(n: usize) -> Self {
        Cycle {
            n,
            link: vec![[NONE; 2]; n * n],
        }
    }

    fn index(&self, (row, col): Square) -> u32 {
        (row * self.n + col) as u32
    }

    /// Adds the edge a-b; `None` if either square already has two.
    fn connect(&mut self, a: Square, b: Square) -> Option<()> {
        let (a, b) = (self.index(a), self.index(b));
        for (from, to) in [(a, b), (b, a)] {
            let slot = self.link[from as usize].iter_mut().find(|s| **s == NONE)?;
            *slot = to;
        }
        Some(())
    }

    /// Removes the edge a-b; `None` if the cycle does not have it.
    fn disconnect(&mut self, a: Square, b: Square) -> Option<()> {
        let (a, b) = (self.index(a), self.index(b));
        for (from, to) in [(a, b), (b, a)] {
            let slot = self.link[from as usize].iter_mut().find(|s| **s == to)?;
            *slot = NONE;
        }
        Some(())
    }

    /// Copies a closed tour of a `rect`-sized board (`tour`, in its own
    /// coordinates) into the rectangle.
    fn place(&mut self, rect: Rect, tour: &[Square]) -> Option<()> {
        let shift = |(r, c): Square| (rect.top + r, rect.left + c);
        for (k, &square) in tour.iter().enumerate() {
            let next = tour[(k + 1) % tour.len()];
            self.connect(shift(square), shift(next))?;
        }
        Some(())
    }

    /// Joins the four closed tours that meet where rows `a - 1`, `a` and
    /// columns `b - 1`, `b` meet into one, by swapping four edges.
    ///
    /// Each quarter gives up one edge next to the centre: the top-left and
    /// bottom-right ones an edge of their corner square, the other two the
    /// edge that every structured tour has there. That leaves four paths,
    /// whose eight ends are joined by four new jumps in a ring:
    /// top-left -> top-right -> bottom-right -> bottom-left -> top-left.
    pub fn join(&mut self, (a, b): Square) -> Option<()> {
        todo!(
            "disconnect one edge per quarter next to the centre, then connect \
             the eight loose ends in a ring of four jumps (book: \
             knights_tour/closed.md#divide-and-conquer)"
        )
    }

    /// Walks the cycle from the top-left corner and numbers the board;
    /// `None` unless it is one cycle through every square.
    fn board(&self) -> Option<Board> {
        let total = self.link.len();
        let mut numbers = vec![0u32; total];
        let (mut prev, mut at) = (NONE, 0u32);
        for k in 1..=total as u32 {
            if numbers[at as usize] != 0 {
                return None; // a shorter cycle
            }
            numbers[at as usize] = k;
            let [x, y] = self.link[at as usize];
            let next = if x != prev { x } else { y };
            (prev, at) = (at, next);
            if at == NONE {
                return None;
            }
        }
        let rows: Vec<Vec<u32>> = numbers.chunks(self.n).map(<[u32]>::to_vec).collect();
        (at == 0).then(|| Board::from_rows(&rows)).flatten()
    }
}
// ANCHOR_END: cycle

// ANCHOR: structured
/// A structured closed tour of a rows x cols board, as its squares in
/// order from the top-left corner: besides the two edges every closed tour
/// has at each corner (a corner square has only two jumps), it has, at
/// each corner, the jump from the square beside the corner along the edge
/// row to the square two rows in: (0, 1)-(2, 0) at the top-left corner, and
/// its mirror images at the others. Those are the edges [`Cycle::join`]
/// swaps out.
///
/// Backtracking on an explicit stack with Warnsdorff's order, plus three
/// cuts: a forced edge must be taken as soon as one of its squares is
/// reached; the start's second neighbour is kept for the last step; and a
/// free square left with fewer than two ways in or out (one for that last
/// square) ends the branch. `None` if there is no such tour, and at once
/// for sides below 6 (the corners' edges would overlap) and an odd number
/// of squares (no closed tour: the colouring argument).
pub fn structured(rows: usize, cols: usize) -> Option<Vec<Square>> {
    if rows < 6 || cols < 6 || (rows * cols) % 2 == 1 {
        return None;
    }
    Structured::new(rows, cols).search()
}

/// The state of the search in [`structured`]; squares are row-major
/// indices.
struct Structured {
    cols: usize,
    /// Each square's jumps.
    jumps: Vec<Vec<usize>>,
    /// Each square's forced partner, if it has one.
    forced: Vec<Option<usize>>,
    taken: Vec<bool>,
    /// Free jumps left from each square.
    degree: Vec<usize>,
    path: Vec<usize>,
}

impl Structured {
    fn new(rows: usize, cols: usize) -> Self {
        let at = |r: usize, c: usize| r * cols + c;
        let jumps: Vec<Vec<usize>> = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                (SEED_MOVES.iter())
                    .filter_map(|&(dr, dc)| {
                        let (r, c) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
                        (r < rows && c < cols).then(|| at(r, c))
                    })
                    .collect()
            })
            .collect();
        let mut forced = vec![None; rows * cols];
        let (r, c) = (rows - 1, cols - 1);
        for (x, y) in [
            (at(0, 1), at(2, 0)),
            (at(0, c - 1), at(2, c)),
            (at(r, 1), at(r - 2, 0)),
            (at(r, c - 1), at(r - 2, c)),
        ] {
            (forced[x], forced[y]) = (Some(y), Some(x));
        }
        let degree = jumps.iter().map(Vec::len).collect();
        Structured {
            cols,
            jumps,
            forced,
            taken: vec![false; rows * cols],
            degree,
            path: Vec::with_capacity(rows * cols),
        }
    }

    fn take(&mut self, at: usize) {
        self.taken[at] = true;
        self.path.push(at);
        for &j in &self.jumps[at] {
            self.degree[j] -= 1;
        }
    }

    fn untake(&mut self) {
        if let Some(at) = self.path.pop() {
            self.taken[at] = false;
            for &j in &self.jumps[at] {
                self.degree[j] += 1;
            }
        }
    }

    fn search(mut self) -> Option<Vec<Square>> {
        let total = self.jumps.len();
        self.take(0);
        let mut stack = vec![self.candidates()];
        while let Some(choices) = stack.last_mut() {
            if self.path.len() == total {
                return Some(self.squares());
            }
            match choices.pop() {
                Some(next) => {
                    self.take(next);
                    let more = if self.stranded() {
                        Vec::new()
                    } else {
                        self.candidates()
                    };
                    stack.push(more);
                }
                None => {
                    stack.pop();
                    self.untake();
                }
            }
        }
        None
    }

    /// The squares the path may go to next, best last (for `pop`).
    fn candidates(&self) -> Vec<usize> {
        let end = self.path[self.path.len() - 1];
        let prev = self.path.len().checked_sub(2).map(|i| self.path[i]);
        let last = self.path.len() + 1 == self.jumps.len();
        let must = self.forced[end].filter(|&f| Some(f) != prev);
        let mut next: Vec<usize> = (self.jumps[end].iter().copied())
            .filter(|&j| !self.taken[j] && must.is_none_or(|f| f == j))
            .filter(|&j| self.forced[j].is_none_or(|f| f == end || !self.taken[f]))
            .filter(|&j| self.closes(j) == last)
            .collect();
        // Fewest free jumps first; a stable sort keeps move order in ties.
        next.sort_by_key(|&j| self.degree[j]);
        next.reverse();
        next
    }

    /// Whether `square` is the start's second neighbour, the one kept for
    /// the last step (the start is a corner with exactly two jumps).
    fn closes(&self, square: usize) -> bool {
        self.path.len() >= 2 && self.jumps[0].contains(&square) && self.path[1] != square
    }

    /// Whether a free square next to the end or to the square before it
    /// (the only ones whose ways in just changed) is left with too few.
    fn stranded(&self) -> bool {
        let end = self.path[self.path.len() - 1];
        if self.path.len() == self.jumps.len() {
            return false;
        }
        let prev = self.path[self.path.len() - 2];
        (self.jumps[end].iter().chain(&self.jumps[prev])).any(|&j| {
            let ways = self.degree[j] + usize::from(self.jumps[end].contains(&j));
            !self.taken[j] && ways < if self.closes(j) { 1 } else { 2 }
        })
    }

    fn squares(&self) -> Vec<Square> {
        let cols = self.cols;
        self.path.iter().map(|&i| (i / cols, i % cols)).collect()
    }
}
// ANCHOR_END: structured

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
