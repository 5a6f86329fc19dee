//! The code learners are given or never see: the board type, the answer
//! format and the row-by-row search the book compares against.
//!
//! The graded suite only tests the exercises; these tests make sure the
//! rest of the crate is right too. Each is a few boards, O(milliseconds).

use eight_queens_solution::rows::solve_by_rows;
use eight_queens_solution::{Board, answer, count_completions, is_safe, solve};

fn valid(board: &Board) -> bool {
    let queens = board.queens();
    queens.len() == 8 && queens.iter().all(|&(r, c)| is_safe(board, r, c))
}

#[test]
fn a_board_draws_as_eight_lines_and_lists_its_queens() {
    let board = Board::from_queens(&[(0, 1), (7, 7)]);
    assert_eq!(board.queens(), vec![(0, 1), (7, 7)]);
    assert_eq!(board.queen_count(), 2);
    let text = board.to_string();
    assert_eq!(text.lines().count(), 8);
    assert!(text.starts_with(".Q......\n"));
    assert!(text.ends_with(".......Q\n"));
    assert!(!board.has_queen(8, 0) && !board.has_queen(0, 8));
}

#[test]
fn place_and_remove_undo_each_other() {
    let mut board = Board::empty();
    board.place(3, 4);
    assert!(board.has_queen(3, 4));
    board.remove(3, 4);
    assert_eq!(board, Board::empty());
}

#[test]
fn the_answer_is_the_board_or_no_answer() {
    let board = Board::from_queens(&[(2, 2)]);
    assert_eq!(answer(Some(&board)), board.to_string());
    assert_eq!(answer(None), "No Answer\n");
}

#[test]
fn the_row_search_agrees_with_the_square_search_on_every_single_queen() {
    for square in 0..64 {
        let given = Board::from_queens(&[(square / 8, square % 8)]);
        let (by_rows, stats) = solve_by_rows(&given);
        assert_eq!(
            by_rows.is_some(),
            solve(&given).is_some(),
            "square {square}"
        );
        assert_eq!(by_rows.is_some(), count_completions(&given) > 0);
        if let Some(b) = by_rows {
            assert!(valid(&b) && b.has_queen(square / 8, square % 8), "{b:?}");
        }
        assert!(stats.backtracks < stats.nodes);
    }
}

#[test]
fn the_row_search_rejects_attacking_and_doubled_rows() {
    assert_eq!(
        solve_by_rows(&Board::from_queens(&[(0, 0), (5, 5)])).0,
        None
    );
    assert_eq!(
        solve_by_rows(&Board::from_queens(&[(4, 1), (4, 6)])).0,
        None
    );
}

#[test]
fn on_the_empty_board_both_searches_find_the_same_first_solution() {
    // Both try the leftmost free square of the first unfilled row first,
    // and the square search fills rows in order, so they agree here.
    let (by_rows, _) = solve_by_rows(&Board::empty());
    assert_eq!(by_rows, solve(&Board::empty()));
}
