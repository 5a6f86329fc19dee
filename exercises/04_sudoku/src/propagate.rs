//! Stage 5: propagation before every guess, and counting solutions.
//!
//! The problem is the same; now each node first fills every blank that
//! logic alone decides. A naked single is a blank with one free digit; a
//! hidden single is a digit with one free blank left in a row, column or
//! box. Filling one can create others, so the node repeats both rules until
//! neither fires, then branches (fewest candidates first) on a copy of its
//! state, so undoing a guess is just dropping the copy. A node costs a few
//! passes over the grid, and most easy puzzles need no guess at all.
//!
//! Counting solutions is the same search that does not stop at the first
//! one: a puzzle is proper when the count, capped at 2, is exactly 1.

use crate::bitmask::Masks;
use crate::fewest::fewest_choices;
use crate::{Grid, Outcome, Stats};

/// The nine cells of unit `u`: rows 0-8, columns 9-17, boxes 18-26.
pub fn unit_cells(u: usize) -> [usize; 9] {
    std::array::from_fn(|k| match u {
        0..=8 => 9 * u + k,
        9..=17 => 9 * k + (u - 9),
        _ => {
            let b = u - 18;
            9 * (b / 3 * 3 + k / 3) + b % 3 * 3 + k % 3
        }
    })
}

/// The digits unit `u` already holds, as bits 1-9.
fn unit_mask(masks: &Masks, u: usize) -> u16 {
    match u {
        0..=8 => masks.rows[u],
        9..=17 => masks.cols[u - 9],
        _ => masks.boxes[u - 18],
    }
}

// ANCHOR: propagate
/// Fills naked and hidden singles until neither rule fires. Returns false
/// on a contradiction: a blank with no free digit, or a digit that a unit
/// lacks and can no longer place anywhere.
pub fn propagate(grid: &mut Grid, masks: &mut Masks) -> bool {
    todo!(
        "repeat: fill naked singles, then hidden singles per unit and digit, \
         until nothing changes (book: sudoku/propagation.md)"
    )
}

fn place(grid: &mut Grid, masks: &mut Masks, cell: usize, digit: u8) {
    grid.cells[cell] = digit;
    masks.toggle(cell, digit);
}
// ANCHOR_END: propagate

// ANCHOR: explore
/// One node: propagate a copy of the state, then either record a solution
/// or branch on the blank with the fewest candidates, until `limit`
/// solutions are found.
fn explore(grid: Grid, masks: Masks, limit: usize, found: &mut Vec<Grid>, stats: &mut Stats) {
    todo!(
        "count the node, propagate, then record a solution or branch on a copy \
         per digit (book: sudoku/propagation.md)"
    )
}
// ANCHOR_END: explore

/// Up to `limit` solutions of `puzzle`, in search order, and the stats.
fn solutions(puzzle: &Grid, limit: usize) -> (Vec<Grid>, Stats) {
    let mut stats = Stats::default();
    let mut found = Vec::new();
    if limit > 0 && puzzle.givens_agree() {
        explore(*puzzle, Masks::of(puzzle), limit, &mut found, &mut stats);
    }
    (found, stats)
}

// ANCHOR: solve_propagation
/// Solves `puzzle` with propagation at every node and fewest candidates
/// first. Stats: one node per state propagated, one guess per digit tried
/// at a branch (after propagation every blank has two or more free digits).
pub fn solve_propagation(puzzle: &Grid) -> Outcome {
    let (found, stats) = solutions(puzzle, 1);
    Outcome {
        solution: found.first().copied(),
        stats,
    }
}
// ANCHOR_END: solve_propagation

// ANCHOR: count_solutions
/// The number of solutions of `puzzle`, counted up to `limit`: with
/// `limit` 2, 0 means none, 1 unique and 2 "more than one".
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    todo!(
        "run the search without stopping at the first solution, up to limit \
         (book: sudoku/unique.md)"
    )
}
// ANCHOR_END: count_solutions
