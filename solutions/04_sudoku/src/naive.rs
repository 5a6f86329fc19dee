//! Stage 1: the naive depth-first search of the seeds.
//!
//! The problem: fill the blanks in reading order, trying 1-9 in each. The
//! state is the grid itself and the index of the next blank; a digit is
//! allowed when a scan of its row, its column and its box does not find it.
//! The cost is up to 27 reads per digit tried, times a search tree that
//! can reach millions of nodes on a hard puzzle, because the order of the
//! blanks is fixed however bad it is.

use crate::{Grid, Outcome, Stats};

// ANCHOR: allowed
/// Whether `digit` may go at (`row`, `col`): no cell of the row, the column
/// or the 3x3 box already holds it.
pub fn allowed(grid: &Grid, row: usize, col: usize, digit: u8) -> bool {
    let (box_row, box_col) = (row / 3 * 3, col / 3 * 3);
    (0..9).all(|i| {
        grid.cells[9 * row + i] != digit
            && grid.cells[9 * i + col] != digit
            && grid.cells[9 * (box_row + i / 3) + box_col + i % 3] != digit
    })
}
// ANCHOR_END: allowed

// ANCHOR: solve_naive
/// Solves `puzzle` by trying 1-9 in each blank, in reading order, checking
/// each digit by scanning (see [`allowed`]). Stats: one node per call of the
/// search, one guess per digit written.
pub fn solve_naive(puzzle: &Grid) -> Outcome {
    let mut stats = Stats::default();
    if !puzzle.givens_agree() {
        return Outcome {
            solution: None,
            stats,
        };
    }
    let blanks: Vec<usize> = (0..81).filter(|&i| puzzle.cells[i] == 0).collect();
    let mut grid = *puzzle;
    let solved = fill(&mut grid, &blanks, &mut stats);
    Outcome {
        solution: solved.then_some(grid),
        stats,
    }
}

/// Fills `blanks[0]`, then the rest by recursion; undoes its digit when
/// every choice below it failed.
fn fill(grid: &mut Grid, blanks: &[usize], stats: &mut Stats) -> bool {
    stats.nodes += 1;
    let Some((&cell, rest)) = blanks.split_first() else {
        return true;
    };
    for digit in 1..=9 {
        if allowed(grid, cell / 9, cell % 9, digit) {
            grid.cells[cell] = digit;
            stats.guesses += 1;
            if fill(grid, rest, stats) {
                return true;
            }
        }
    }
    grid.cells[cell] = 0;
    false
}
// ANCHOR_END: solve_naive
