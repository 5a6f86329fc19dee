//! What the book shows of chapter 2: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch [`crate::Search::place_from`] complete
//! the contest's first sample (three queens given): square by square, put
//! a queen where it is safe, skip an attacked square saying who attacks it,
//! and take a queen back when the squares after it cannot hold the rest.
//! The state is the search's own (board, square, queens left) plus the
//! records written. One `try` event per call of the search, so the
//! player's node counter is the reference's `nodes`, which the tests
//! check; it costs what the search costs. The records are the plain
//! tab-separated lines `workbook book build` reads
//! (workbook/src/book/records.rs).

use crate::{Board, N, SQUARES, count_completions, is_safe, search_stats, solve};
use book_trace::Out;

/// A square's number as (row, column).
fn rc(square: usize) -> (usize, usize) {
    (square / N, square % N)
}

/// The contest's first sample: queens at (2, 7), (4, 2) and (6, 1).
pub const SAMPLE_ONE: [(usize, usize); 3] = [(2, 7), (4, 2), (6, 1)];
/// The sample with no answer: three queens that do not attack each other.
pub const NO_ANSWER: [(usize, usize); 3] = [(5, 7), (6, 4), (7, 1)];

/// Every record of the chapter: the player, figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    trace(&mut out);
    attack_figure(&mut out);
    solved_figure(&mut out);
    no_answer_figure(&mut out);
    quiz(&mut out);
    cut_quiz(&mut out);
    out.into_text()
}

fn trace(out: &mut Out) {
    out.rec(&[
        "trace",
        "sample-one",
        "Eight queens: the first sample, three queens given",
    ]);
    out.rec(&["board", "grid", "8", "8", "0"]);
    for (r, c) in SAMPLE_ONE {
        out.rec(&["given", &r.to_string(), &c.to_string(), "♛"]);
    }
    let mut board = Board::from_queens(&SAMPLE_ONE);
    let solved = walk(&mut board, 0, N, out);
    let end = if solved {
        "Eight queens stand and none attacks another: that is the answer."
    } else {
        "No Answer."
    };
    out.ev("found", None, "", 0, end);
}

/// [`crate::Search::place_from`], one `try` per call and one event per
/// decision. The depth is the number of queens placed, given ones included.
fn walk(board: &mut Board, square: usize, left: usize, out: &mut Out) -> bool {
    let depth = N - left;
    if left == 0 {
        out.ev(
            "try",
            None,
            "",
            depth,
            "No queen left to place: the board is complete.",
        );
        return true;
    }
    if square == SQUARES {
        out.ev("try", None, "", depth, "Past the last square.");
        out.ev(
            "reject",
            None,
            "",
            depth,
            &format!("{left} queens are still missing and no square is left: fail, back up."),
        );
        return false;
    }
    let (row, col) = (square / N, square % N);
    let at = format!("square {square} (row {row}, column {col})");
    if board.has_queen(row, col) {
        out.ev(
            "try",
            Some(rc(square)),
            "♛",
            depth,
            &format!("{at} holds a given queen."),
        );
        if !is_safe(board, row, col) {
            let why = attacker(board, row, col);
            out.ev(
                "reject",
                Some(rc(square)),
                "♛",
                depth,
                &format!("The given queen is attacked {why}: fail."),
            );
            return false;
        }
        out.ev(
            "place",
            Some(rc(square)),
            "♛",
            depth + 1,
            &format!("It is safe: keep it, {} left.", left - 1),
        );
        return walk(board, square + 1, left - 1, out);
    }
    if !is_safe(board, row, col) {
        out.ev(
            "try",
            Some(rc(square)),
            "",
            depth,
            &format!("{at}: can a queen go here?"),
        );
        let why = attacker(board, row, col);
        out.ev(
            "reject",
            Some(rc(square)),
            "",
            depth,
            &format!("No: attacked {why}. Skip it."),
        );
        return walk(board, square + 1, left, out);
    }
    out.ev(
        "try",
        Some(rc(square)),
        "♛",
        depth,
        &format!("{at} is safe: place a queen."),
    );
    board.place(row, col);
    out.ev(
        "place",
        Some(rc(square)),
        "♛",
        depth + 1,
        &format!("{} queens left to place after this one.", left - 1),
    );
    if walk(board, square + 1, left - 1, out) {
        return true;
    }
    board.remove(row, col);
    out.ev(
        "undo", Some(rc(square)),
        "",
        depth,
        &format!("The squares after {square} cannot take {} more: take this queen back and leave {at} empty.", left - 1),
    );
    walk(board, square + 1, left, out)
}

/// Which queen attacks (row, col), and along what, in words.
fn attacker(board: &Board, row: usize, col: usize) -> String {
    for (r, c) in board.queens() {
        if (r, c) == (row, col) {
            continue;
        }
        let line = if r == row {
            "along the row"
        } else if c == col {
            "along the column"
        } else if r.abs_diff(row) == c.abs_diff(col) {
            "along a diagonal"
        } else {
            continue;
        };
        return format!("{line} by the queen at ({r}, {c})");
    }
    "by no queen (this cannot happen)".to_string()
}

/// One board figure: queens, and every square they attack shaded.
fn board_figure(out: &mut Out, id: &str, board: &Board, given: &[(usize, usize)], caption: &str) {
    out.rec(&["figure", id, "grid", "8", "8", "0", caption]);
    for r in 0..N {
        for c in 0..N {
            let (text, class) = if board.has_queen(r, c) {
                (
                    "♛",
                    if given.contains(&(r, c)) {
                        "given"
                    } else {
                        "queen"
                    },
                )
            } else if !is_safe(board, r, c) {
                ("", "attacked")
            } else {
                ("", "")
            };
            if !(text.is_empty() && class.is_empty()) {
                out.rec(&["cell", &r.to_string(), &c.to_string(), text, class]);
            }
        }
    }
}

fn attack_figure(out: &mut Out) {
    let board = Board::from_queens(&SAMPLE_ONE);
    let free = (0..SQUARES)
        .filter(|&s| !board.has_queen(s / N, s % N) && is_safe(&board, s / N, s % N))
        .count();
    board_figure(
        out,
        "sample-one-attacked",
        &board,
        &SAMPLE_ONE,
        &format!(
            "The first sample's three given queens and the squares they attack (shaded): {free} squares are still free for the other five."
        ),
    );
}

fn solved_figure(out: &mut Out) {
    let given = Board::from_queens(&SAMPLE_ONE);
    let Some(done) = solve(&given) else {
        return;
    };
    let stats = search_stats(&given);
    board_figure(
        out,
        "sample-one-solved",
        &done,
        &SAMPLE_ONE,
        &format!(
            "The answer solve() prints for the first sample: the given queens on lightly shaded squares, the five it placed on darker ones; {} nodes, {} backtracks.",
            stats.nodes, stats.backtracks
        ),
    );
}

fn no_answer_figure(out: &mut Out) {
    let board = Board::from_queens(&NO_ANSWER);
    let stats = search_stats(&board);
    board_figure(
        out,
        "no-answer-attacked",
        &board,
        &NO_ANSWER,
        &format!(
            "Three queens that do not attack each other, yet no completion exists (count_completions = {}): the search proves it in {} nodes.",
            count_completions(&board),
            stats.nodes
        ),
    );
}

fn quiz(out: &mut Out) {
    let board = Board::from_queens(&SAMPLE_ONE);
    let right = count_completions(&board);
    out.rec(&[
        "quiz",
        "sample-one-count",
        "The first sample has an answer. How many different completions of its three given queens exist?",
    ]);
    let mut choices = vec![right, right + 1, 92, 0];
    choices.sort();
    choices.dedup();
    for n in choices {
        out.rec(&["choice", if n == right { "1" } else { "0" }, &n.to_string()]);
    }
    out.rec(&[
        "explain",
        &format!(
            "count_completions says {right}: of the 92 eight-queen solutions, only {right} keep all three given queens where they stand. solve() stops at the first it meets; counting visits the whole tree."
        ),
    ]);
}

/// Which branch is cut: the first square the search refuses, and why.
fn cut_quiz(out: &mut Out) {
    let mut board = Board::from_queens(&SAMPLE_ONE);
    let first =
        (0..SQUARES).find(|&s| !board.has_queen(s / N, s % N) && is_safe(&board, s / N, s % N));
    let Some(first) = first else {
        return;
    };
    board.place(first / N, first % N);
    let refused = (first + 1..SQUARES)
        .find(|&s| !board.has_queen(s / N, s % N) && !is_safe(&board, s / N, s % N));
    let Some(refused) = refused else {
        return;
    };
    let why = attacker(&board, refused / N, refused % N);
    out.rec(&[
        "quiz",
        "first-refusal",
        &format!(
            "On the first sample the search places its first queen on square {first}. The next square it refuses is {refused} (row {}, column {}). Why?",
            refused / N,
            refused % N
        ),
    ]);
    for (text, right) in [
        (format!("It is attacked {why}"), true),
        ("A given queen stands there".to_string(), false),
        ("The search has no queen left to place".to_string(), false),
    ] {
        out.rec(&["choice", if right { "1" } else { "0" }, &text]);
    }
    out.rec(&[
        "explain",
        &format!("is_safe looks along the row, the column and both diagonals, and the queen just placed on square {first} sees square {refused}; the branch with a queen there is cut before it starts, and the search goes on with the square empty."),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_players_node_counter_ends_at_the_references_node_count() {
        let text = records();
        let player: Vec<&str> = text
            .lines()
            .take_while(|l| !l.starts_with("figure"))
            .collect();
        let tries = player.iter().filter(|l| l.starts_with("ev\ttry")).count() as u64;
        let undos = player.iter().filter(|l| l.starts_with("ev\tundo")).count() as u64;
        let stats = search_stats(&Board::from_queens(&SAMPLE_ONE));
        assert_eq!((tries, undos), (stats.nodes, stats.backtracks));
    }

    #[test]
    fn the_queens_left_on_the_players_board_are_the_answer() {
        let mut board = Board::from_queens(&SAMPLE_ONE);
        let mut out = Out::default();
        assert!(walk(&mut board, 0, N, &mut out));
        assert_eq!(Some(board), solve(&Board::from_queens(&SAMPLE_ONE)));
    }
}
