//! Stage 4 again, on boards of any size: n²×n² cells, n×n boxes.
//!
//! The problem: the same rules with digits 1..=n² (4x4 with n = 2 up to
//! 25x25 with n = 5). The state is the board and one mask per unit, now
//! `u32` because a 25x25 board has 25 digits. The search is the bitmask +
//! fewest-candidates search of stage 4 unchanged, so on a 9x9 board it
//! visits exactly the same nodes; a node costs O(n⁴) to find its blank.

use crate::{Grid, Stats};
use std::fmt;

/// A square board of side `box_size²`: `cells[side * row + col]` is 0 for
/// a blank or a digit 1..=side.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    box_size: usize,
    cells: Vec<u8>,
}

/// Why [`Board::new`] refused its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Boxes must be 2x2 to 5x5 (boards 4x4 to 25x25).
    BoxSize(usize),
    /// The number of cells is not side².
    CellCount { expected: usize, found: usize },
    /// A digit larger than the side, at this cell index.
    Digit { cell: usize, digit: u8 },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BoxSize(n) => {
                write!(f, "box size {n}: boards go from 2 (4x4) to 5 (25x25)")
            }
            BoardError::CellCount { expected, found } => {
                write!(f, "{found} cells, expected {expected}")
            }
            BoardError::Digit { cell, digit } => {
                write!(f, "digit {digit} at cell {cell} is larger than the side")
            }
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// A board with boxes of `box_size`x`box_size`, checked.
    pub fn new(box_size: usize, cells: Vec<u8>) -> Result<Board, BoardError> {
        if !(2..=5).contains(&box_size) {
            return Err(BoardError::BoxSize(box_size));
        }
        let side = box_size * box_size;
        if cells.len() != side * side {
            return Err(BoardError::CellCount {
                expected: side * side,
                found: cells.len(),
            });
        }
        if let Some((cell, &digit)) = cells
            .iter()
            .enumerate()
            .find(|&(_, &d)| usize::from(d) > side)
        {
            return Err(BoardError::Digit { cell, digit });
        }
        Ok(Board { box_size, cells })
    }

    /// The 9x9 grid as a board with 3x3 boxes.
    pub fn from_grid(grid: &Grid) -> Board {
        Board {
            box_size: 3,
            cells: grid.cells.to_vec(),
        }
    }

    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The side: the number of rows, of columns, and of digits.
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The row, column and box unit indexes of `cell` (rows first, then
    /// columns, then boxes, each `side` long).
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        let (n, side) = (self.box_size, self.side());
        let (r, c) = (cell / side, cell % side);
        [r, side + c, 2 * side + r / n * n + c / n]
    }
}

impl fmt::Display for Board {
    /// One line per row; digits above 9 as letters A-P, `.` for a blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.side()) {
            let text: String = row
                .iter()
                .map(|&d| match d {
                    0 => '.',
                    1..=9 => char::from(b'0' + d),
                    _ => char::from(b'A' + d - 10),
                })
                .collect();
            writeln!(f, "{text}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {}x{}:\n{self}", self.side(), self.side())
    }
}

/// What [`solve_general`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralOutcome {
    pub solution: Option<Board>,
    pub stats: Stats,
}

// ANCHOR: solve_general
/// Solves `puzzle` with one `u32` mask per unit and the blank with the
/// fewest free digits first (first in reading order on a tie, digits in
/// increasing order); givens that clash mean no solution. Stats as in
/// [`crate::solve_fewest`], which this matches node for node on 9x9.
pub fn solve_general(puzzle: &Board) -> GeneralOutcome {
    todo!(
        "one u32 mask per unit (3 * side of them); reject clashing givens; \
         then branch (book: sudoku/general.md)"
    )
}

/// The digits still free at `cell`, as bits 1..=side.
fn free_general(board: &Board, used: &[u32], cell: usize) -> u32 {
    todo!(
        "NOT of the three unit masks, kept to bits 1..=side (book: \
         sudoku/general.md)"
    )
}

fn branch_general(board: &mut Board, used: &mut [u32], stats: &mut Stats) -> bool {
    todo!(
        "stage 4's branch, on a Vec of cells and a slice of masks (book: \
         sudoku/general.md)"
    )
}
// ANCHOR_END: solve_general
