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
    loop {
        let mut changed = false;
        for cell in 0..81 {
            if grid.cells[cell] != 0 {
                continue;
            }
            let free = masks.free(cell);
            if free == 0 {
                return false;
            }
            if free.count_ones() == 1 {
                place(grid, masks, cell, free.trailing_zeros() as u8);
                changed = true;
            }
        }
        for u in 0..27 {
            for digit in 1..=9u8 {
                if unit_mask(masks, u) & 1 << digit != 0 {
                    continue;
                }
                let mut spots = unit_cells(u)
                    .into_iter()
                    .filter(|&c| grid.cells[c] == 0 && masks.free(c) & 1 << digit != 0);
                match (spots.next(), spots.next()) {
                    (None, _) => return false,
                    (Some(cell), None) => {
                        place(grid, masks, cell, digit);
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        if !changed {
            return true;
        }
    }
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
    stats.nodes += 1;
    let (mut grid, mut masks) = (grid, masks);
    if !propagate(&mut grid, &mut masks) {
        return;
    }
    let Some((cell, mut free)) = fewest_choices(&grid, &masks) else {
        found.push(grid);
        return;
    };
    while free != 0 && found.len() < limit {
        let digit = free.trailing_zeros() as u8;
        free &= free - 1;
        let (mut next, mut next_masks) = (grid, masks);
        place(&mut next, &mut next_masks, cell, digit);
        stats.guesses += 1;
        explore(next, next_masks, limit, found, stats);
    }
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
    solutions(puzzle, limit).0.len()
}
// ANCHOR_END: count_solutions
