//! The board: which of the 64 squares hold a queen.
//!
//! The problem (AtCoder ARC001 C) gives a board with a few queens on it and
//! asks for all eight. The state is one flag per square, rows numbered 0 to
//! 7 from the top and columns 0 to 7 from the left, so a square is
//! `(row, col)` or, read like text, the number `8 * row + col` in 0..64.
//! Every operation here is O(1) except listing and drawing, which are O(64).

use std::fmt;

/// The side of the board, and the number of queens a finished board holds.
pub const N: usize = 8;

/// The number of squares, in the order the search of this chapter visits
/// them: left to right along row 0, then row 1, and so on.
pub const SQUARES: usize = N * N;

// ANCHOR: board
/// An 8x8 board; each square holds a queen or is empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    queens: [[bool; N]; N],
}
// ANCHOR_END: board

impl Board {
    /// A board with no queen on it.
    pub fn empty() -> Self {
        Self::default()
    }

    /// A board with a queen on each listed `(row, col)` square.
    ///
    /// # Panics
    ///
    /// If a row or column is 8 or more: the squares come from code, never
    /// from a user (user input goes through `parse_board`).
    pub fn from_queens(squares: &[(usize, usize)]) -> Self {
        let mut board = Self::empty();
        for &(row, col) in squares {
            board.place(row, col);
        }
        board
    }

    /// Whether a queen stands on `(row, col)`; squares off the board hold none.
    pub fn has_queen(&self, row: usize, col: usize) -> bool {
        row < N && col < N && self.queens[row][col]
    }

    /// Puts a queen on `(row, col)` (panics if the square is off the board).
    pub fn place(&mut self, row: usize, col: usize) {
        self.queens[row][col] = true;
    }

    /// Takes the queen off `(row, col)` (panics if the square is off the board).
    pub fn remove(&mut self, row: usize, col: usize) {
        self.queens[row][col] = false;
    }

    /// Every queen's `(row, col)`, in reading order.
    pub fn queens(&self) -> Vec<(usize, usize)> {
        (0..SQUARES)
            .map(|s| (s / N, s % N))
            .filter(|&(row, col)| self.queens[row][col])
            .collect()
    }

    /// How many queens stand on the board.
    pub fn queen_count(&self) -> usize {
        self.queens.iter().flatten().filter(|&&q| q).count()
    }
}

/// The contest's picture: eight lines of `Q` and `.`, each ending in a newline.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in &self.queens {
            let line: String = row.iter().map(|&q| if q { 'Q' } else { '.' }).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// Debug output is the picture too, so a failing assertion shows the board.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}
