//! The chapter 2 suite: eight queens with some queens given (ARC001 C).
//!
//! One file checks both the learner's crate (`eight_queens`) and the
//! reference (`eight_queens_solution`, with `--features reference`). Each
//! module is one exercise; its `check` helper is the only place that calls
//! the function under test, so a failing case says what was called, what
//! came back, what was expected and where the book explains it.
//!
//! Nothing here trusts the code under test to judge itself: boards are
//! drawn with a local helper (not `parse_board`), attacks are decided from
//! coordinates, and the 92 solutions are enumerated independently below.

#[cfg(not(feature = "reference"))]
use eight_queens as subject;
#[cfg(feature = "reference")]
use eight_queens_solution as subject;

use proptest::prelude::*;
use rstest::rstest;

#[macro_use]
mod support;
use std::sync::OnceLock;
use subject::Board;
use support::{said, why};

/// A board drawn as 8 rows of `Q` and `.`, read without `parse_board` so
/// that only the exercise under test can fail a test.
fn draw(rows: [&str; 8]) -> Board {
    let mut queens = Vec::new();
    for (row, line) in rows.iter().enumerate() {
        assert_eq!(
            line.len(),
            8,
            "{}",
            say!("test board row {row} must have 8 squares", row)
        );
        queens.extend(line.match_indices('Q').map(|(col, _)| (row, col)));
    }
    Board::from_queens(&queens)
}

/// Whether two distinct squares share a row, a column or a diagonal.
fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
    a != b && (a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1))
}

/// The 92 solutions as queen lists, by a plain row-by-row enumeration that
/// shares no code with the crate under test.
fn all_solutions() -> &'static [Vec<(usize, usize)>] {
    static SOLUTIONS: OnceLock<Vec<Vec<(usize, usize)>>> = OnceLock::new();
    SOLUTIONS.get_or_init(|| {
        fn extend(partial: &mut Vec<(usize, usize)>, out: &mut Vec<Vec<(usize, usize)>>) {
            let row = partial.len();
            if row == 8 {
                out.push(partial.clone());
                return;
            }
            for col in 0..8 {
                if partial.iter().all(|&q| !attack(q, (row, col))) {
                    partial.push((row, col));
                    extend(partial, out);
                    partial.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(&mut Vec::new(), &mut out);
        assert_eq!(
            out.len(),
            92,
            "{}",
            say!("the independent enumeration is broken")
        );
        out
    })
}

/// How many of the 92 solutions keep every queen of `given`.
fn completions_of(given: &Board) -> usize {
    let queens = given.queens();
    all_solutions()
        .iter()
        .filter(|s| queens.iter().all(|q| s.contains(q)))
        .count()
}

/// Why `got` is not a valid answer for `given`, if it is not one.
fn invalid_completion(given: &Board, got: &Board) -> Option<String> {
    let queens = got.queens();
    if queens.len() != 8 {
        return Some(say!("it holds {count} queens, not 8", count = queens.len()));
    }
    if let Some(q) = given.queens().iter().find(|q| !got.has_queen(q.0, q.1)) {
        return Some(say!("the given queen on {q} is gone", ?q));
    }
    for (i, &a) in queens.iter().enumerate() {
        if let Some(&b) = queens[i + 1..].iter().find(|&&b| attack(a, b)) {
            return Some(say!("the queens on {a} and {b} attack each other", ?a, ?b));
        }
    }
    None
}

/// Random sets of given queens: mostly subsets of a solution (so half the
/// cases have an answer), sometimes with a stray queen, sometimes random.
fn any_given() -> impl Strategy<Value = Board> {
    let from_solution = (
        0..92usize,
        prop::collection::vec(any::<bool>(), 8),
        0..70usize,
    )
        .prop_map(|(s, keep, stray)| {
            let mut queens: Vec<_> = all_solutions()[s]
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(q, _)| *q)
                .collect();
            if stray < 64 {
                queens.push((stray / 8, stray % 8));
            }
            Board::from_queens(&queens)
        });
    let random = prop::collection::vec((0..8usize, 0..8usize), 0..=4)
        .prop_map(|queens| Board::from_queens(&queens));
    prop_oneof![3 => from_solution, 1 => random]
}

/// Random boards for the attack checks: up to 10 queens anywhere.
fn any_board() -> impl Strategy<Value = Board> {
    prop::collection::vec((0..8usize, 0..8usize), 0..=10)
        .prop_map(|queens| Board::from_queens(&queens))
}

/// The three-queen boards the chapter works with.
fn sample_one() -> Board {
    draw([
        "........", "........", ".......Q", "........", "..Q.....", "........", ".Q......",
        "........",
    ])
}

fn sample_two() -> Board {
    draw([
        "........", ".Q......", "........", "Q.......", "........", "....Q...", "........",
        "........",
    ])
}

/// Three queens that do not attack each other, yet no completion exists.
fn sample_no_answer() -> Board {
    draw([
        "........", "........", "........", "........", "........", ".......Q", "....Q...",
        ".Q......",
    ])
}

fn full_valid() -> Board {
    draw([
        "Q.......", "....Q...", ".......Q", ".....Q..", "..Q.....", "......Q.", ".Q......",
        "...Q....",
    ])
}

/// One queen per row and column, but two share a diagonal.
fn full_invalid() -> Board {
    draw([
        "Q.......", ".Q......", "..Q.....", "...Q....", "....Q...", ".....Q..", "......Q.",
        ".......Q",
    ])
}

fn attacking_pair() -> Board {
    draw([
        "........", "...Q....", "........", "........", "........", "........", "...Q....",
        "........",
    ])
}

/// A queen alone on row 0 and one on row 1 that is not attacked by it, yet
/// together they leave no way to fill the other rows.
fn blocking_pair() -> Board {
    draw([
        "Q.......", "..Q.....", "........", "........", "........", "........", "........",
        "........",
    ])
}

/// `what`, then the board it is about, for a guarded call's expected
/// value (a board's `Debug` starts on a new line).
fn on_board(what: impl std::fmt::Display, board: &Board) -> String {
    say!(
        "{what}, on the board{board}",
        what,
        board = format!("{board:?}").trim_end()
    )
}

mod parse_board {
    use super::*;
    use subject::{ParseError, ParseErrorKind, parse_board};

    const EMPTY: &str =
        "........\n........\n........\n........\n........\n........\n........\n........\n";

    const WHY: &str = why(
        "a board is 8 lines of 8 `Q` or `.`, at most 8 queens, and an error names \
                       the first bad line and column, both counted from 1 \
                       (book: chapter 2, \"Reading the board\")",
    );

    #[track_caller]
    fn check(text: &str, expected: Result<Board, ParseError>) {
        let call = format!("parse_board({text:?})");
        let got = crate::support::guard(&call, &format!("{expected:?}"), WHY, || parse_board(text));
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected {expected}: {why}",
                call,
                ?got,
                ?expected,
                why = said(WHY)
            )
        );
    }

    /// The empty board with line `row` (0-based) replaced by `line`.
    fn with_line(row: usize, line: &str) -> String {
        let mut lines: Vec<&str> = EMPTY.lines().collect();
        lines[row] = line;
        lines.join("\n") + "\n"
    }

    fn error(line: usize, column: usize, kind: ParseErrorKind) -> Result<Board, ParseError> {
        Err(ParseError { line, column, kind })
    }

    #[rstest]
    #[case::an_empty_board_has_no_queens(EMPTY.to_string(), Board::empty())]
    #[case::three_queens_stand_where_drawn(sample_one().to_string(), sample_one())]
    #[case::the_final_newline_is_optional(EMPTY.trim_end().to_string(), Board::empty())]
    #[case::windows_line_ends_are_accepted(sample_two().to_string().replace('\n', "\r\n"), sample_two())]
    #[case::a_full_board_is_read(full_valid().to_string(), full_valid())]
    fn reads_a_board(#[case] text: String, #[case] expected: Board) {
        check(&text, Ok(expected));
    }

    #[rstest]
    #[case::empty_input_has_no_lines("", error(1, 1, ParseErrorKind::TooFewLines { found: 0 }))]
    #[case::seven_lines_are_too_few(&EMPTY[9..], error(8, 1, ParseErrorKind::TooFewLines { found: 7 }))]
    #[case::a_ninth_line_is_too_many(&format!("{EMPTY}.\n"), error(9, 1, ParseErrorKind::TooManyLines))]
    #[case::a_blank_ninth_line_is_too_many(&format!("{EMPTY}\n"), error(9, 1, ParseErrorKind::TooManyLines))]
    #[case::a_short_line_is_reported_after_its_end(
        &with_line(2, "......."),
        error(3, 8, ParseErrorKind::LineTooShort { length: 7 })
    )]
    #[case::a_blank_line_is_a_short_line(
        &with_line(1, ""),
        error(2, 1, ParseErrorKind::LineTooShort { length: 0 })
    )]
    #[case::a_long_line_is_reported_at_column_nine(
        &with_line(0, ".........Q"),
        error(1, 9, ParseErrorKind::LineTooLong { length: 10 })
    )]
    #[case::a_lowercase_q_is_not_a_queen(
        &with_line(3, "....q..."),
        error(4, 5, ParseErrorKind::BadCharacter('q'))
    )]
    #[case::a_space_is_not_a_square(
        &with_line(0, ". ......"),
        error(1, 2, ParseErrorKind::BadCharacter(' '))
    )]
    #[case::a_lone_carriage_return_is_not_a_line_end(
        &with_line(0, "..\r....."),
        error(1, 3, ParseErrorKind::BadCharacter('\r'))
    )]
    #[case::columns_count_characters_not_bytes(
        &with_line(0, "é.♛....."),
        error(1, 1, ParseErrorKind::BadCharacter('é'))
    )]
    #[case::a_wide_character_is_reported_at_its_column(
        &with_line(5, "..♛....."),
        error(6, 3, ParseErrorKind::BadCharacter('♛'))
    )]
    #[case::a_ninth_queen_is_reported_where_it_stands(
        &with_line(0, "QQQQQQQQ").replacen("........", ".Q......", 1),
        error(2, 2, ParseErrorKind::TooManyQueens)
    )]
    fn names_the_first_problem(#[case] text: &str, #[case] expected: Result<Board, ParseError>) {
        check(text, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn a_drawn_board_reads_back(board in any_board()) {
            prop_assume!(board.queen_count() <= 8);
            let text = board.to_string();
            prop_assert_eq!(parse_board(&text), Ok(board), "{}", say!("parse_board({text}) must read back the board it draws: eight lines of eight `Q` or `.` (book: chapter 2, \"Reading the board\")", ?text));
        }

        #[test]
        fn any_text_is_answered_without_a_panic(text in "[Q.\\n\\r x]{0,90}") {
            // Ok or Err are both fine; reaching this line means no panic.
            let _ = parse_board(&text);
        }
    }
}

mod one_direction {
    use super::*;
    use subject::{in_board, is_safe_one_direction};

    const EDGES: &str = why(
        "the board's rows and columns are 0 to 7 (book: chapter 2, \"Stage 1: one direction\")",
    );
    const WHY: &str = why(
        "stage 1 looks only up and to the left, towards (0, 0), and stops at the \
                       edge (book: chapter 2, \"Stage 1: one direction\")",
    );

    #[track_caller]
    fn check_in_board(row: isize, col: isize, expected: bool) {
        let call = format!("in_board({row}, {col})");
        let got = crate::support::guard(&call, &expected.to_string(), EDGES, || in_board(row, col));
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected {expected}: {why}",
                call,
                got,
                expected,
                why = said(EDGES)
            )
        );
    }

    #[track_caller]
    fn check(board: &Board, row: usize, col: usize, expected: bool) {
        let call = format!("is_safe_one_direction(board, {row}, {col})");
        let got = crate::support::guard(&call, &on_board(expected, board), WHY, || {
            is_safe_one_direction(board, row, col)
        });
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected {expected} on {board}{why}",
                call,
                got,
                expected,
                ?board,
                why = said(WHY)
            )
        );
    }

    #[rstest]
    #[case::the_top_left_corner(0, 0, true)]
    #[case::the_bottom_right_corner(7, 7, true)]
    #[case::an_inner_square(3, 5, true)]
    #[case::above_the_top_edge(-1, 3, false)]
    #[case::left_of_the_left_edge(4, -1, false)]
    #[case::below_the_bottom_edge(8, 0, false)]
    #[case::right_of_the_right_edge(0, 8, false)]
    #[case::far_outside(-9, 20, false)]
    fn knows_the_edges(#[case] row: isize, #[case] col: isize, #[case] expected: bool) {
        check_in_board(row, col, expected);
    }

    #[rstest]
    #[case::a_queen_up_left_attacks((2, 2), (5, 5), false)]
    #[case::a_queen_in_the_far_corner_attacks((0, 0), (7, 7), false)]
    #[case::the_next_square_up_left_attacks((3, 3), (4, 4), false)]
    #[case::a_queen_straight_up_is_not_looked_at((0, 5), (5, 5), true)]
    #[case::a_queen_up_right_is_not_looked_at((2, 7), (4, 5), true)]
    #[case::a_queen_down_right_is_not_looked_at((7, 7), (5, 5), true)]
    #[case::a_queen_off_the_diagonal_is_harmless((1, 2), (5, 5), true)]
    #[case::the_queen_on_the_square_itself_does_not_count((4, 4), (4, 4), true)]
    #[case::the_top_left_corner_has_nothing_up_left((3, 3), (0, 0), true)]
    #[case::the_top_row_stops_at_once((1, 1), (0, 6), true)]
    fn looks_up_and_to_the_left(
        #[case] queen: (usize, usize),
        #[case] square: (usize, usize),
        #[case] expected: bool,
    ) {
        check(&Board::from_queens(&[queen]), square.0, square.1, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_the_up_left_diagonal(board in any_board(), row in 0..8usize, col in 0..8usize) {
            let expected = !board.queens().iter().any(|&(r, c)| r < row && row - r == col.wrapping_sub(c));
            check(&board, row, col, expected);
        }
    }
}

mod three_directions {
    use super::*;
    use subject::is_safe_three_loops;

    const WHY: &str = why(
        "stage 2 looks up-left, straight up and up-right, and nowhere else \
                       (book: chapter 2, \"Stage 2: three copied loops\")",
    );

    #[track_caller]
    fn check(board: &Board, row: usize, col: usize, expected: bool) {
        let call = format!("is_safe_three_loops(board, {row}, {col})");
        let got = crate::support::guard(&call, &on_board(expected, board), WHY, || {
            is_safe_three_loops(board, row, col)
        });
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected {expected} on {board}{why}",
                call,
                got,
                expected,
                ?board,
                why = said(WHY)
            )
        );
    }

    #[rstest]
    #[case::a_queen_up_left_attacks((1, 1), (4, 4), false)]
    #[case::a_queen_straight_up_attacks((0, 4), (4, 4), false)]
    #[case::a_queen_up_right_attacks((2, 6), (4, 4), false)]
    #[case::the_square_just_above_attacks((3, 4), (4, 4), false)]
    #[case::a_queen_on_the_same_row_is_not_looked_at((4, 0), (4, 4), true)]
    #[case::a_queen_straight_down_is_not_looked_at((7, 4), (4, 4), true)]
    #[case::a_queen_down_left_is_not_looked_at((6, 2), (4, 4), true)]
    #[case::a_knight_move_away_is_harmless((2, 3), (4, 4), true)]
    #[case::the_queen_on_the_square_itself_does_not_count((4, 4), (4, 4), true)]
    #[case::the_top_right_corner_stops_at_the_edge((5, 5), (0, 7), true)]
    fn looks_up_in_three_directions(
        #[case] queen: (usize, usize),
        #[case] square: (usize, usize),
        #[case] expected: bool,
    ) {
        check(&Board::from_queens(&[queen]), square.0, square.1, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_the_lines_above(board in any_board(), row in 0..8usize, col in 0..8usize) {
            let expected = !board.queens().iter().any(|&(r, c)| r < row && attack((r, c), (row, col)));
            check(&board, row, col, expected);
        }
    }
}

mod is_safe {
    use super::*;
    use subject::is_safe;

    const WHY: &str = why(
        "a queen attacks along its row, its column and both diagonals, in all 8 \
                       directions; a queen on the square itself does not count \
                       (book: chapter 2, \"Stage 3: one loop over (dy, dx)\")",
    );

    #[track_caller]
    fn check(board: &Board, row: usize, col: usize, expected: bool) {
        let call = format!("is_safe(board, {row}, {col})");
        let got = crate::support::guard(&call, &on_board(expected, board), WHY, || {
            is_safe(board, row, col)
        });
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected {expected} on {board}{why}",
                call,
                got,
                expected,
                ?board,
                why = said(WHY)
            )
        );
    }

    #[rstest]
    #[case::up_left((1, 1), false)]
    #[case::straight_up((0, 3), false)]
    #[case::up_right((1, 5), false)]
    #[case::left((3, 0), false)]
    #[case::right((3, 7), false)]
    #[case::down_left((6, 0), false)]
    #[case::straight_down((7, 3), false)]
    #[case::down_right((7, 7), false)]
    #[case::a_knight_move_away((5, 4), true)]
    #[case::off_every_line((0, 2), true)]
    #[case::the_square_itself((3, 3), true)]
    fn sees_a_queen_in_every_direction_from_d4(
        #[case] queen: (usize, usize),
        #[case] expected: bool,
    ) {
        check(&Board::from_queens(&[queen]), 3, 3, expected);
    }

    #[test]
    fn every_empty_square_of_a_full_board_is_attacked() {
        let board = full_valid();
        for (row, col) in (0..64).map(|s| (s / 8, s % 8)) {
            if !board.has_queen(row, col) {
                check(&board, row, col, false);
            }
        }
    }

    #[test]
    fn every_queen_of_a_solution_is_safe() {
        let board = full_valid();
        for (row, col) in board.queens() {
            check(&board, row, col, true);
        }
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_rows_columns_and_diagonals(board in any_board(), row in 0..8usize, col in 0..8usize) {
            let expected = !board.queens().iter().any(|&q| attack(q, (row, col)));
            check(&board, row, col, expected);
        }
    }
}

mod solve {
    use super::*;
    use subject::{answer, solve};

    /// What `solve` must return: a valid completion when one exists.
    #[track_caller]
    fn check(given: &Board, has_answer: bool) -> Option<Board> {
        let wanted = if has_answer {
            "Some(a completion)"
        } else {
            "None"
        };
        let got = crate::support::guard(
            "solve(given)",
            &on_board(say!("{wanted} for the given queens", wanted), given),
            why(
                "a given queen must be kept and must be safe, and every empty square is tried with a \
             queen and without one (book: chapter 2, \"The search\")",
            ),
            || solve(given),
        );
        match (&got, has_answer) {
            (Some(board), true) => {
                if let Some(why) = invalid_completion(given, board) {
                    panic!(
                        "{}",
                        say!(
                            "solve(given) returned {board}which is not a completion of the given queens {given}: {why} (book: chapter 2, \"The search\")",
                            ?board,
                            ?given,
                            why
                        )
                    );
                }
            }
            (None, false) => {}
            _ => panic!(
                "{}",
                say!(
                    "solve(given) returned {got} for the given queens {given}expected {answer}: {count} of the 92 solutions keep every given queen; a given queen must be kept and must be safe, and every empty square is tried with a queen and without one (book: chapter 2, \"The search\")",
                    ?got,
                    ?given,
                    answer = if has_answer {
                        "Some(completion)"
                    } else {
                        "None"
                    },
                    count = completions_of(given)
                ),
            ),
        }
        got
    }

    #[rstest]
    #[case::no_queens_given(Board::empty(), true)]
    #[case::sample_one_has_an_answer(sample_one(), true)]
    #[case::sample_two_has_an_answer(sample_two(), true)]
    #[case::three_safe_queens_may_have_no_answer(sample_no_answer(), false)]
    #[case::a_given_pair_that_attack_each_other(attacking_pair(), false)]
    #[case::a_queen_alone_on_its_row_yet_no_completion(blocking_pair(), false)]
    #[case::a_full_valid_board_is_its_own_answer(full_valid(), true)]
    #[case::a_full_invalid_board_has_no_answer(full_invalid(), false)]
    #[case::two_queens_on_one_row(Board::from_queens(&[(7, 0), (7, 6)]), false)]
    #[case::a_single_queen_in_the_last_square(Board::from_queens(&[(7, 7)]), true)]
    fn completes_the_board_or_says_none(#[case] given: Board, #[case] has_answer: bool) {
        check(&given, has_answer);
    }

    // The first completion in search order (a queen before no queen, square
    // 0 first) is one exact board, recorded from the reference.
    #[test]
    fn the_first_completion_of_the_empty_board() {
        let got = check(&Board::empty(), true);
        let _book = crate::support::explain(
            "chapter 2, \"The search\"",
            crate::support::rule(
                "the first board the search completes: squares tried in order 0 to 63, a queen placed before the square is skipped",
            ),
        );
        insta::assert_snapshot!(answer(got.as_ref()));
    }

    #[test]
    fn the_first_completion_of_sample_one() {
        let got = check(&sample_one(), true);
        let _book = crate::support::explain(
            "chapter 2, \"The search\"",
            crate::support::rule(
                "the first board the search completes: squares tried in order 0 to 63, a queen placed before the square is skipped",
            ),
        );
        insta::assert_snapshot!(answer(got.as_ref()));
    }

    #[test]
    fn the_first_completion_of_sample_two() {
        let got = check(&sample_two(), true);
        let _book = crate::support::explain(
            "chapter 2, \"The search\"",
            crate::support::rule(
                "the first board the search completes: squares tried in order 0 to 63, a queen placed before the square is skipped",
            ),
        );
        insta::assert_snapshot!(answer(got.as_ref()));
    }

    #[test]
    fn the_no_answer_sample_prints_no_answer() {
        let got = check(&sample_no_answer(), false);
        let _book = crate::support::explain(
            "chapter 2, \"The search\"",
            crate::support::rule(
                "the first board the search completes: squares tried in order 0 to 63, a queen placed before the square is skipped",
            ),
        );
        insta::assert_snapshot!(answer(got.as_ref()));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn answers_exactly_when_one_of_the_92_keeps_the_given_queens(given in any_given()) {
            check(&given, completions_of(&given) > 0);
        }
    }
}

mod count_completions {
    use super::*;
    use subject::count_completions;

    const WHY: &str = why(
        "the number of the 92 solutions that keep every given queen \
                       (book: chapter 2, \"Counting every completion\")",
    );

    #[track_caller]
    fn check(given: &Board, expected: u64) {
        let got = crate::support::guard(
            "count_completions(given)",
            &on_board(say!("{expected} for the given queens", expected), given),
            WHY,
            || count_completions(given),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "count_completions(given) returned {got} for the given queens {given}expected {expected}, {why}",
                got,
                ?given,
                expected,
                why = said(WHY)
            )
        );
    }

    #[rstest]
    #[case::the_empty_board_has_all_92(Board::empty(), 92)]
    #[case::a_corner_queen_is_in_4(Board::from_queens(&[(0, 0)]), 4)]
    #[case::a_full_valid_board_is_one(full_valid(), 1)]
    #[case::a_full_invalid_board_is_none(full_invalid(), 0)]
    #[case::an_attacking_pair_is_none(attacking_pair(), 0)]
    #[case::a_blocking_pair_is_none(blocking_pair(), 0)]
    #[case::the_no_answer_sample_is_none(sample_no_answer(), 0)]
    fn counts_known_boards(#[case] given: Board, #[case] expected: u64) {
        check(&given, expected);
    }

    #[rstest]
    #[case::sample_one(sample_one())]
    #[case::sample_two(sample_two())]
    fn counts_the_samples_like_the_92(#[case] given: Board) {
        check(&given, completions_of(&given) as u64);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_the_92(given in any_given()) {
            check(&given, completions_of(&given) as u64);
        }
    }
}

mod search_stats {
    use super::*;
    use subject::{SearchStats, search_stats};

    const WHY: &str = why(
        "one node per call of place_from (the first call included), one \
                       backtrack per queen placed on an empty square and removed again \
                       (book: chapter 2, \"Measuring the search\")",
    );

    #[track_caller]
    fn check(given: &Board, expected: SearchStats) {
        let got = crate::support::guard(
            "search_stats(given)",
            &on_board(say!("{expected} for the given queens", ?expected), given),
            WHY,
            || search_stats(given),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "search_stats(given) returned {got} for the given queens {given}expected {expected}: {why}",
                ?got,
                ?given,
                ?expected,
                why = said(WHY)
            )
        );
    }

    #[rstest]
    // Square 0 holds a given queen that square 1 attacks: one call, no queen placed.
    #[case::an_attack_on_square_zero_stops_at_once(
        Board::from_queens(&[(0, 0), (0, 1)]),
        SearchStats { nodes: 1, backtracks: 0 }
    )]
    // Every square up to the last queen (square 59) is one call, plus the
    // call that finds no queen left: 61 nodes, and nothing is placed.
    #[case::a_full_board_walks_to_its_last_queen(
        full_valid(),
        SearchStats { nodes: 61, backtracks: 0 }
    )]
    fn counts_a_search_you_can_follow_by_hand(#[case] given: Board, #[case] expected: SearchStats) {
        check(&given, expected);
    }

    #[test]
    fn the_searches_of_the_chapter() {
        let boards = [
            ("empty", Board::empty()),
            ("sample one", sample_one()),
            ("sample two", sample_two()),
            ("no answer", sample_no_answer()),
            ("blocking pair", blocking_pair()),
        ];
        let table: Vec<String> = boards
            .iter()
            .map(|(name, b)| format!("{name}: {:?}", search_stats(b)))
            .collect();
        let _book = crate::support::explain(
            "chapter 2, \"Measuring the search\"",
            crate::support::rule(
                "each board's nodes (calls of place_from) and backtracks (queens taken back) for the same search order",
            ),
        );
        insta::assert_snapshot!(table.join("\n"));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn every_backtrack_has_its_own_node(given in any_given()) {
            let got = search_stats(&given);
            prop_assert!(got.nodes >= 1 && got.backtracks < got.nodes, "{}", say!("search_stats({given}) returned {got}: the first call is a node, and every backtrack takes back a queen placed by a node of its own, so backtracks < nodes (book: chapter 2, \"Measuring the search\")", ?given, ?got));
        }
    }
}

/// The completions of `given` in the order the chapter's search meets
/// them: the 92 solutions of the independent enumeration, which lists them
/// in that same order (earliest first queen first, then the second...),
/// kept when they hold every given queen. No given queen may attack
/// another, and none may stand outside the 92's squares.
fn completions_in_order(given: &Board) -> Vec<Vec<(usize, usize)>> {
    let queens = given.queens();
    if queens.iter().any(|&a| queens.iter().any(|&b| attack(a, b))) {
        return Vec::new();
    }
    all_solutions()
        .iter()
        .filter(|s| queens.iter().all(|q| s.contains(q)))
        .cloned()
        .collect()
}

mod every_completion {
    use super::*;
    use subject::every_completion;

    const WHY: &str = "the tree of count_completions, with each leaf keeping a copy of the board; \
                       a queen first, then no queen, so earlier queens come first (book: chapter 2, \
                       practice, \"Solved in the workbook: every solution, listed\")";

    #[track_caller]
    fn check(given: &[(usize, usize)], count: usize) {
        let board = Board::from_queens(given);
        let expected = completions_in_order(&board);
        assert_eq!(
            expected.len(),
            count,
            "the test's own count for queens at {given:?} is wrong"
        );
        let call = format!("every_completion(board with queens at {given:?})");
        let got = crate::support::guard(&call, &format!("{count} boards"), WHY, || {
            every_completion(&board)
        });
        let got: Vec<Vec<(usize, usize)>> = got.iter().map(Board::queens).collect();
        assert_eq!(
            got,
            expected,
            "{call} returned {} boards (their queens: {got:?}), expected these {count}: {expected:?}: {WHY}",
            got.len()
        );
    }

    #[rstest]
    #[case::the_empty_board_lists_all_92(vec![], 92)]
    #[case::a_queen_in_the_corner_keeps_four(vec![(0, 0)], 4)]
    #[case::a_queen_in_the_middle_keeps_eight(vec![(3, 3)], 8)]
    #[case::two_given_queens_that_attack_list_nothing(vec![(0, 0), (5, 5)], 0)]
    #[case::a_finished_board_lists_itself(vec![(0, 0), (1, 4), (2, 7), (3, 5), (4, 2), (5, 6), (6, 1), (7, 3)], 1)]
    #[case::safe_queens_can_still_leave_no_room(vec![(0, 0), (1, 2)], 0)]
    fn lists_every_completion_in_search_order(
        #[case] given: Vec<(usize, usize)>,
        #[case] count: usize,
    ) {
        check(&given, count);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(64))]
        #[test]
        fn agrees_with_the_92_on_random_given_queens(squares in proptest::collection::btree_set((0usize..8, 0usize..8), 0..4)) {
            let given: Vec<(usize, usize)> = squares.into_iter().collect();
            let board = Board::from_queens(&given);
            let expected = completions_in_order(&board);
            let call = format!("every_completion(board with queens at {given:?})");
            let got = crate::support::guard(&call, &format!("{} boards", expected.len()), WHY, || every_completion(&board));
            let got: Vec<Vec<(usize, usize)>> = got.iter().map(Board::queens).collect();
            prop_assert_eq!(got, expected, "every_completion(board with queens at {:?}) must list exactly its completions in search order: {}", given, WHY);
        }
    }
}
