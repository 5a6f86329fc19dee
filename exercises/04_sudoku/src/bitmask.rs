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
    todo!(
        "set the flags of every given, then fill the blanks in reading order \
         (book: sudoku/flags.md#used-flags)"
    )
}

fn set_flags(used: &mut Flags, cell: usize, digit: u8, on: bool) {
    todo!(
        "set or clear the row, column and box flag of the digit (book: \
         sudoku/flags.md#used-flags)"
    )
}

fn fill_flags(grid: &mut Grid, used: &mut Flags, blanks: &[usize], stats: &mut Stats) -> bool {
    todo!(
        "the naive fill, with the check done by three flag lookups (book: \
         sudoku/flags.md#used-flags)"
    )
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
        todo!("toggle every given in (book: sudoku/flags.md#bitmasks)")
    }

    /// Adds `digit` at `cell` to its three units, or takes it away again
    /// (XOR is its own undo).
    pub fn toggle(&mut self, cell: usize, digit: u8) {
        todo!(
            "XOR the digit's bit into the row, column and box masks (book: \
             sudoku/flags.md#bitmasks)"
        )
    }

    /// The digits still free at `cell`, as bits 1-9.
    pub fn free(&self, cell: usize) -> u16 {
        todo!(
            "NOT of the OR of the three masks, kept to bits 1-9 (book: \
             sudoku/flags.md#bitmasks)"
        )
    }
}
// ANCHOR_END: masks

// ANCHOR: solve_bitmask
/// Solves `puzzle` in the naive order with the check done on bitmasks: the
/// free digits of a blank are one OR and one NOT, and the loop visits only
/// those. Same stats as [`crate::solve_naive`].
pub fn solve_bitmask(puzzle: &Grid) -> Outcome {
    todo!(
        "masks of the givens, then fill the blanks in reading order (book: \
         sudoku/flags.md#bitmasks)"
    )
}

fn fill_masks(grid: &mut Grid, masks: &mut Masks, blanks: &[usize], stats: &mut Stats) -> bool {
    todo!(
        "loop over the set bits of the free mask, lowest first (book: \
         sudoku/flags.md#bitmasks)"
    )
}
// ANCHOR_END: solve_bitmask
