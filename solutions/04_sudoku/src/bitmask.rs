//! Stages 2 and 3: the same search, with the check made O(1).
//!
//! The problem and the order of the search are those of the naive stage;
//! only the check changes. The state adds what each row, column and box
//! already uses: first as flags (`row_used[r][d]`, the seeds' `rowUsed`),
//! then as one 9-bit mask per unit, where the digits still free in a cell
//! are `!(rows[r] | cols[c] | boxes[b])`. A check costs 3 reads instead of
//! 27, but the search tree is exactly the naive one: same nodes, same
//! guesses. That is the point of these two stages.

use crate::{Grid, Outcome, Stats};

/// The box (0-8) that holds (`row`, `col`).
pub fn box_of(row: usize, col: usize) -> usize {
    row / 3 * 3 + col / 3
}

/// Used-flags per unit: `row[r][d]` is true when row `r` holds digit `d`.
struct Flags {
    row: [[bool; 10]; 9],
    col: [[bool; 10]; 9],
    boxes: [[bool; 10]; 9],
}

// ANCHOR: solve_flags
/// Solves `puzzle` in the naive order (blanks in reading order, digits 1-9)
/// with the check done by looking up three flags. Same stats as
/// [`crate::solve_naive`].
pub fn solve_flags(puzzle: &Grid) -> Outcome {
    let mut stats = Stats::default();
    if !puzzle.givens_agree() {
        return Outcome {
            solution: None,
            stats,
        };
    }
    let mut used = Flags {
        row: [[false; 10]; 9],
        col: [[false; 10]; 9],
        boxes: [[false; 10]; 9],
    };
    for (i, &d) in puzzle.cells.iter().enumerate() {
        set_flags(&mut used, i, d, true);
    }
    let blanks: Vec<usize> = (0..81).filter(|&i| puzzle.cells[i] == 0).collect();
    let mut grid = *puzzle;
    let solved = fill_flags(&mut grid, &mut used, &blanks, &mut stats);
    Outcome {
        solution: solved.then_some(grid),
        stats,
    }
}

fn set_flags(used: &mut Flags, cell: usize, digit: u8, on: bool) {
    let (r, c, d) = (cell / 9, cell % 9, usize::from(digit));
    used.row[r][d] = on;
    used.col[c][d] = on;
    used.boxes[box_of(r, c)][d] = on;
}

fn fill_flags(grid: &mut Grid, used: &mut Flags, blanks: &[usize], stats: &mut Stats) -> bool {
    stats.nodes += 1;
    let Some((&cell, rest)) = blanks.split_first() else {
        return true;
    };
    let (r, c) = (cell / 9, cell % 9);
    for digit in 1..=9u8 {
        let d = usize::from(digit);
        if used.row[r][d] || used.col[c][d] || used.boxes[box_of(r, c)][d] {
            continue;
        }
        grid.cells[cell] = digit;
        set_flags(used, cell, digit, true);
        stats.guesses += 1;
        if fill_flags(grid, used, rest, stats) {
            return true;
        }
        set_flags(used, cell, digit, false);
    }
    grid.cells[cell] = 0;
    false
}
// ANCHOR_END: solve_flags

/// One 9-bit mask per unit: bit `d` (1-9) set when the unit holds `d`.
#[derive(Clone, Copy, Default)]
pub struct Masks {
    pub rows: [u16; 9],
    pub cols: [u16; 9],
    pub boxes: [u16; 9],
}

/// The bits of digits 1-9.
pub const ALL: u16 = 0b11_1111_1110;

// ANCHOR: masks
impl Masks {
    /// The masks of the digits already in `grid`.
    pub fn of(grid: &Grid) -> Masks {
        let mut masks = Masks::default();
        for (i, &d) in grid.cells.iter().enumerate() {
            if d != 0 {
                masks.toggle(i, d);
            }
        }
        masks
    }

    /// Adds `digit` at `cell` to its three units, or takes it away again
    /// (XOR is its own undo).
    pub fn toggle(&mut self, cell: usize, digit: u8) {
        let (r, c, bit) = (cell / 9, cell % 9, 1u16 << digit);
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[box_of(r, c)] ^= bit;
    }

    /// The digits still free at `cell`, as bits 1-9.
    pub fn free(&self, cell: usize) -> u16 {
        let (r, c) = (cell / 9, cell % 9);
        !(self.rows[r] | self.cols[c] | self.boxes[box_of(r, c)]) & ALL
    }
}
// ANCHOR_END: masks

// ANCHOR: solve_bitmask
/// Solves `puzzle` in the naive order with the check done on bitmasks: the
/// free digits of a blank are one OR and one NOT, and the loop visits only
/// those. Same stats as [`crate::solve_naive`].
pub fn solve_bitmask(puzzle: &Grid) -> Outcome {
    let mut stats = Stats::default();
    if !puzzle.givens_agree() {
        return Outcome {
            solution: None,
            stats,
        };
    }
    let mut masks = Masks::of(puzzle);
    let blanks: Vec<usize> = (0..81).filter(|&i| puzzle.cells[i] == 0).collect();
    let mut grid = *puzzle;
    let solved = fill_masks(&mut grid, &mut masks, &blanks, &mut stats);
    Outcome {
        solution: solved.then_some(grid),
        stats,
    }
}

fn fill_masks(grid: &mut Grid, masks: &mut Masks, blanks: &[usize], stats: &mut Stats) -> bool {
    stats.nodes += 1;
    let Some((&cell, rest)) = blanks.split_first() else {
        return true;
    };
    let mut free = masks.free(cell);
    while free != 0 {
        // The lowest set bit is the smallest free digit.
        let digit = free.trailing_zeros() as u8;
        free &= free - 1;
        grid.cells[cell] = digit;
        masks.toggle(cell, digit);
        stats.guesses += 1;
        if fill_masks(grid, masks, rest, stats) {
            return true;
        }
        masks.toggle(cell, digit);
    }
    grid.cells[cell] = 0;
    false
}
// ANCHOR_END: solve_bitmask
