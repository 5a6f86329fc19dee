//! The worked examples of the chapter's later pages, one figure each.
//!
//! The problem: the naive, propagation, unique, general and generator pages
//! each teach a step (the scan of `allowed`, the singles filled before a
//! guess, a second solution, a smaller board, carving), and a reader should
//! see that step done on a real grid, with numbers the reference computes,
//! not typed. Each function below runs the reference on one puzzle and
//! writes one grid figure; the colours follow the chapter's palette (see
//! `book/src/assets/bt.css`): givens tinted and bold, digits the search
//! wrote in the link colour, guesses and differences orange, the cell being
//! decided ringed. Each costs a few solves of one puzzle.

use super::{PUZZLE, at, digits, name};
use crate::bitmask::Masks;
use crate::naive::allowed;
use crate::propagate::propagate;
use crate::{Board, Grid, count_solutions, generate, solve_general, solve_propagation};
use book_trace::Out;

/// The chapter's puzzle as nine rows of text, '.' for a blank: how a quiz
/// or caption states it, so it needs no picture from another page.
pub fn rows(puzzle: &Grid) -> String {
    let line = puzzle.line();
    let text: Vec<&str> = (0..9).filter_map(|r| line.get(9 * r..9 * r + 9)).collect();
    text.join(" ")
}

/// Every figure of this file.
pub fn figures(out: &mut Out) {
    let puzzle = Grid::from_literal(PUZZLE);
    allowed_figure(out, &puzzle);
    propagated_figure(out, &puzzle);
    two_solutions_figure(out);
    general_figure(out);
    carved_figure(out);
}

/// Writes the givens of `grid` as bold, tinted cells.
fn givens(out: &mut Out, grid: &Grid) {
    for (i, &d) in grid.cells.iter().enumerate().filter(|c| *c.1 != 0) {
        out.cell(i / 9, i % 9, &d.to_string(), "given");
    }
}

/// The naive page: one call of `allowed` per digit at the first blank,
/// reading the 20 cells that share its row, column or box.
fn allowed_figure(out: &mut Out, puzzle: &Grid) {
    let Some(first) = (0..81).find(|&i| puzzle.cells[i] == 0) else {
        return;
    };
    let (row, col) = at(first);
    let fits: Vec<u8> = (1..=9u8)
        .filter(|&d| allowed(puzzle, row, col, d))
        .collect();
    let Some((&first_fit, later)) = fits.split_first() else {
        return;
    };
    let peers = |i: usize| {
        let (r, c) = at(i);
        i != first && (r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3))
    };
    let seen: Vec<u8> = (0..81)
        .filter(|&i| peers(i) && puzzle.cells[i] != 0)
        .map(|i| puzzle.cells[i])
        .collect();
    let mut ruled: Vec<u8> = seen.clone();
    ruled.sort_unstable();
    ruled.dedup();

    out.rec(&[
        "figure",
        "allowed",
        "grid",
        "9",
        "9",
        "3",
        &format!(
            "The first blank in reading order is {}, ringed. allowed(grid, {row}, {col}, digit) reads the 20 shaded cells of its row, column and box: their {} givens hold {}, so the digits left are the ones drawn small in the blank. The naive search writes {first_fit} there and moves on to the next blank; it tries {} only if the rest cannot be solved.",
            name(first),
            seen.len(),
            list(&ruled),
            list(later),
        ),
    ]);
    for i in (0..81).filter(|&i| peers(i) && puzzle.cells[i] == 0) {
        out.cell(i / 9, i % 9, "", "read");
    }
    for (i, &d) in puzzle.cells.iter().enumerate().filter(|c| *c.1 != 0) {
        let class = if peers(i) { "given read" } else { "given" };
        out.cell(i / 9, i % 9, &d.to_string(), class);
    }
    let fits: String = fits.iter().map(|d| char::from(b'0' + d)).collect();
    out.cell(row, col, &fits, "cand cur");
}

/// Digits as words: [2, 5, 6] -> "2, 5 and 6".
fn list(digits: &[u8]) -> String {
    let words: Vec<String> = digits.iter().map(u8::to_string).collect();
    match words.split_last() {
        None => "none".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The propagation page: what `propagate` fills at the first node, before
/// the search guesses anything.
fn propagated_figure(out: &mut Out, puzzle: &Grid) {
    let (mut grid, mut masks) = (*puzzle, Masks::of(puzzle));
    if !propagate(&mut grid, &mut masks) {
        return;
    }
    let filled = (0..81)
        .filter(|&i| puzzle.cells[i] == 0 && grid.cells[i] != 0)
        .count();
    let left = (0..81).filter(|&i| grid.cells[i] == 0).count();
    out.rec(&[
        "figure",
        "propagated",
        "grid",
        "9",
        "9",
        "3",
        &format!(
            "The chapter's puzzle after propagate at the first node: singles alone fill {filled} blanks (in the link colour), each forced by one before it, with no guess. The {left} blanks left show their candidates, two or more each: only there does the search guess.",
        ),
    ]);
    givens(out, puzzle);
    for i in 0..81 {
        if puzzle.cells[i] == 0 && grid.cells[i] != 0 {
            out.cell(i / 9, i % 9, &grid.cells[i].to_string(), "on");
        } else if grid.cells[i] == 0 {
            out.cell(i / 9, i % 9, &digits(masks.free(i)), "cand");
        }
    }
}

/// A second solution of `puzzle` besides `first`, found by forcing each
/// blank in turn to another digit and solving: at most 8 solves a blank.
fn second_solution(puzzle: &Grid, first: &Grid) -> Option<Grid> {
    (0..81)
        .filter(|&i| puzzle.cells[i] == 0)
        .flat_map(|i| (1..=9u8).map(move |d| (i, d)))
        .filter(|&(i, d)| d != first.cells[i])
        .find_map(|(i, d)| {
            let mut forced = *puzzle;
            forced.cells[i] = d;
            solve_propagation(&forced).solution
        })
}

/// The unique page: the puzzle less its first given has two solutions;
/// the cells where they differ are what a second given must pin down.
fn two_solutions_figure(out: &mut Out) {
    let fewer = Grid::from_literal(&PUZZLE.replacen('1', ".", 1));
    let Some(first) = solve_propagation(&fewer).solution else {
        return;
    };
    let Some(second) = second_solution(&fewer, &first) else {
        return;
    };
    let differ: Vec<usize> = (0..81)
        .filter(|&i| first.cells[i] != second.cells[i])
        .collect();
    out.rec(&[
        "figure",
        "two-solutions",
        "grid",
        "9",
        "9",
        "3",
        &format!(
            "The chapter's puzzle without its first given (the 1 at (0, 0)): count_solutions(&puzzle, 2) stops at 2. Two of its solutions agree on every cell but the {} shaded ones, which read first solution / second; the given the puzzle lost is what told them apart.",
            differ.len()
        ),
    ]);
    givens(out, &fewer);
    for i in (0..81).filter(|&i| fewer.cells[i] == 0) {
        if differ.contains(&i) {
            let text = format!("{}/{}", first.cells[i], second.cells[i]);
            out.cell(i / 9, i % 9, &text, "guess");
        } else {
            out.cell(i / 9, i % 9, &first.cells[i].to_string(), "");
        }
    }
    debug_assert_eq!(count_solutions(&fewer, 2), 2);
}

/// The suite's 4x4 puzzle (boxes of 2 x 2), row by row, 0 for a blank.
const SMALL: [u8; 16] = [1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2];

/// The general page: a board with boxes of 2 x 2, before and after
/// `solve_general`, side by side with a gap of two columns (so the second
/// board's thick box lines fall on its own boxes).
fn general_figure(out: &mut Out) {
    let Ok(board) = Board::new(2, SMALL.to_vec()) else {
        return;
    };
    let outcome = solve_general(&board);
    let Some(solved) = outcome.solution else {
        return;
    };
    out.rec(&[
        "figure",
        "general-4",
        "grid",
        "4",
        "10",
        "2",
        &format!(
            "A board with boxes of 2 x 2: side 4, digits 1 to 4, 12 units. Left, the puzzle (its {} givens tinted); right, what solve_general writes, fewest candidates first: {} nodes, {} guesses.",
            SMALL.iter().filter(|&&d| d != 0).count(),
            outcome.stats.nodes,
            outcome.stats.guesses
        ),
    ]);
    for (i, (&given, &digit)) in SMALL.iter().zip(solved.cells()).enumerate() {
        let (r, c) = (i / 4, i % 4);
        if given != 0 {
            out.cell(r, c, &given.to_string(), "given");
            out.cell(r, c + 6, &digit.to_string(), "given");
        } else {
            out.cell(r, c + 6, &digit.to_string(), "on");
        }
    }
    for r in 0..4 {
        for c in 4..6 {
            out.cell(r, c, "", "gap");
        }
    }
}

/// The generator page: the full grid `generate(1, 0)` carved, which is the
/// puzzle's one solution; the givens it kept are the cells whose removal
/// let in a second solution.
fn carved_figure(out: &mut Out) {
    let puzzle = generate(1, 0);
    let Some(full) = solve_propagation(&puzzle).solution else {
        return;
    };
    out.rec(&[
        "figure",
        "carved",
        "grid",
        "9",
        "9",
        "3",
        &format!(
            "generate(1, 0): the full grid it carved (the puzzle's one solution). The {} tinted, bold givens are the cells it put back, because removing any of them let in a second solution; the {} faint digits were removed for good.",
            puzzle.givens(),
            81 - puzzle.givens()
        ),
    ]);
    for (i, &d) in full.cells.iter().enumerate() {
        let class = if puzzle.cells[i] != 0 {
            "given"
        } else {
            "gone"
        };
        out.cell(i / 9, i % 9, &d.to_string(), class);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_solution_is_another_solution_of_the_same_puzzle() {
        let fewer = Grid::from_literal(&PUZZLE.replacen('1', ".", 1));
        let first = solve_propagation(&fewer).solution.expect("solvable");
        let second = second_solution(&fewer, &first).expect("two solutions");
        assert_ne!(first, second);
        for grid in [first, second] {
            // A solution keeps every given and is itself a full, valid grid.
            assert!((0..81).all(|i| fewer.cells[i] == 0 || fewer.cells[i] == grid.cells[i]));
            assert_eq!(grid.givens(), 81);
            assert!(grid.givens_agree());
        }
        // The original puzzle, one given more, is unique again.
        assert_eq!(count_solutions(&Grid::from_literal(PUZZLE), 2), 1);
    }

    #[test]
    fn the_figures_show_the_reference_s_numbers() {
        let mut out = Out::default();
        figures(&mut out);
        let text = out.into_text();
        let givens = generate(1, 0).givens();
        assert!(text.contains(&format!("The {givens} tinted, bold givens")));
        // The 4x4 board's solution is the reference's, cell for cell.
        let board = Board::new(2, SMALL.to_vec()).expect("valid");
        let solved = solve_general(&board).solution.expect("solvable");
        for (i, d) in solved.cells().iter().enumerate() {
            assert!(text.contains(&format!("cell\t{}\t{}\t{d}\t", i / 4, i % 4 + 6)));
        }
        assert_eq!(list(&[2, 5, 6]), "2, 5 and 6");
        assert_eq!(list(&[9]), "9");
    }
}
