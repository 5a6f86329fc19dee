//! A narrated run of the square-by-square search, for the book's drawing.
//!
//! The problem: show a reader what [`crate::Search::place_from`] does on a
//! small search, step by step. The state is the search's own (board, square,
//! queens left) plus the list of steps said so far. It repeats the search
//! with a line per decision, so it costs what the search costs; it is meant
//! for boards where only a few queens are missing.

use crate::attack::is_safe;
use crate::board::{Board, N, SQUARES};

/// The steps of the search on `given`, one line each, indented by the
/// number of queens placed so far (8 minus "queens left"), which is the
/// depth of the search tree.
pub fn trace(given: &Board) -> Vec<String> {
    let mut board = *given;
    let mut lines = Vec::new();
    walk(&mut board, 0, N, &mut lines);
    lines
}

fn walk(board: &mut Board, square: usize, left: usize, lines: &mut Vec<String>) -> bool {
    let depth = "    ".repeat(N - left);
    let name = |s: usize| format!("square {s:2} ({}, {})", s / N, s % N);
    if left == 0 {
        lines.push(format!("{depth}no queen left: solved"));
        return true;
    }
    if square == SQUARES {
        lines.push(format!(
            "{depth}past the last square with {left} left: fail"
        ));
        return false;
    }
    let (row, col) = (square / N, square % N);
    if board.has_queen(row, col) {
        let safe = is_safe(board, row, col);
        let verdict = if safe { "keep it" } else { "attacked: fail" };
        lines.push(format!("{depth}{}: given queen, {verdict}", name(square)));
        return safe && walk(board, square + 1, left - 1, lines);
    }
    if is_safe(board, row, col) {
        lines.push(format!(
            "{depth}{}: place a queen ({} left)",
            name(square),
            left - 1
        ));
        board.place(row, col);
        if walk(board, square + 1, left - 1, lines) {
            return true;
        }
        board.remove(row, col);
        lines.push(format!("{depth}{}: take the queen back", name(square)));
    }
    walk(board, square + 1, left, lines)
}
