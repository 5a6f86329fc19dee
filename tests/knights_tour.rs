//! The chapter 5 suite: the knight's tour, from the seed's DFS to Warnsdorff.
//!
//! One file checks both the learner's crate (`knights_tour`) and the
//! reference (`knights_tour_solution`, with `--features reference`). Each
//! module is one exercise; its `check` helper is the only place that calls
//! the function under test. Many tours are right for most boards, so tours
//! are checked with an oracle of our own (below), not compared to one answer;
//! only the seed's search, whose answer is fixed, is compared exactly.

#[cfg(not(feature = "reference"))]
use knights_tour as subject;
#[cfg(feature = "reference")]
use knights_tour_solution as subject;

use proptest::prelude::*;
use rstest::rstest;

#[macro_use]
mod support;
use subject::{Board, SEED_MOVES, Square, Step};
use support::{said, why};

/// The suite's own tour check, independent of the learner's `validate`,
/// against the question asked (a board of side `n`, from `start`, closed
/// or not): `Ok` or a sentence saying what is wrong. A tour of another
/// board, however valid, answers another question.
fn oracle(n: usize, board: &Board, start: Option<Square>, closed: bool) -> Result<(), String> {
    if board.size() != n {
        return Err(say!(
            "the board's side is {side}, but a tour of the {n}x{n} board was asked for",
            side = board.size(),
            n
        ));
    }
    let path = board.path().ok_or_else(|| {
        say!(
            "the numbers are not 1..={most} each exactly once",
            most = n * n
        )
    })?;
    let jump = |a: Square, b: Square| {
        let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
        dr * dc == 2
    };
    if let Some(k) = path.windows(2).position(|w| !jump(w[0], w[1])) {
        return Err(say!(
            "move {from} -> {to} is not a knight's move",
            from = k + 1,
            to = k + 2
        ));
    }
    if let Some(s) = start.filter(|&s| path.first() != Some(&s)) {
        return Err(say!("the tour does not start on {s}", ?s));
    }
    if closed && !(path.len() > 1 && jump(path[0], path[path.len() - 1])) {
        return Err(say!(
            "the last square is not a knight's move from the first"
        ));
    }
    Ok(())
}

/// The seed's 5x5 answer (its program with `size = 5`).
fn seed_5x5() -> Board {
    rows(&[
        &[23, 12, 3, 18, 25],
        &[4, 17, 24, 13, 8],
        &[11, 22, 7, 2, 19],
        &[16, 5, 20, 9, 14],
        &[21, 10, 15, 6, 1],
    ])
}

fn rows(rows: &[&[u32]]) -> Board {
    let rows: Vec<Vec<u32>> = rows.iter().map(|r| r.to_vec()).collect();
    Board::from_rows(&rows).expect("the suite's boards are square")
}

/// A closed 6x6 tour (move 36 is a knight's move from move 1).
fn closed_6x6() -> Board {
    rows(&[
        &[1, 8, 29, 16, 31, 10],
        &[28, 17, 2, 9, 22, 15],
        &[7, 36, 21, 30, 11, 32],
        &[20, 27, 18, 3, 14, 23],
        &[35, 6, 25, 12, 33, 4],
        &[26, 19, 34, 5, 24, 13],
    ])
}

/// A start square anywhere on some board from `lo..=hi`.
fn board_and_start(lo: usize, hi: usize) -> impl Strategy<Value = (usize, Square)> {
    (lo..=hi).prop_flat_map(|n| (Just(n), (0..n, 0..n)))
}

mod validate {
    use super::*;
    use subject::{TourError, knight_moves, validate};

    #[track_caller]
    fn check_moves(n: usize, from: Square, expected: &[Square]) {
        crate::support::quiet_panics();
        let got = knight_moves(n, from, &SEED_MOVES);
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "knight_moves({n}, {from}, &SEED_MOVES) returned {got}, expected {expected}: the eight steps in SEED_MOVES order, keeping only targets on the board (book: chapter 5, \"Checking a tour\")",
                n,
                ?from,
                ?got,
                ?expected
            )
        );
    }

    #[track_caller]
    fn check(board: &Board, closed: bool, expected: Result<(), TourError>) {
        crate::support::quiet_panics();
        let got = validate(board, closed);
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "validate(board, closed = {closed}) on\n{board}returned {got}, expected {expected} (checks run in order: empty board, then a row-major scan for 0 / too large / repeated, then each step k -> k + 1, then the closing step; book: chapter 5, \"Checking a tour\")",
                closed,
                board,
                ?got,
                ?expected
            )
        );
    }

    #[rstest]
    #[case::a_corner_has_two_moves(5, (0, 0), vec![(1, 2), (2, 1)])]
    #[case::the_seeds_corner_has_two_moves(5, (4, 4), vec![(2, 3), (3, 2)])]
    #[case::the_centre_has_all_eight_in_order(5, (2, 2), vec![(0, 1), (1, 0), (3, 0), (4, 1), (0, 3), (1, 4), (3, 4), (4, 3)])]
    #[case::an_edge_square_has_four(5, (0, 2), vec![(1, 0), (2, 1), (1, 4), (2, 3)])]
    #[case::a_lone_square_has_none(1, (0, 0), vec![])]
    #[case::a_3x3_centre_has_none(3, (1, 1), vec![])]
    fn knight_moves_stay_on_the_board(
        #[case] n: usize,
        #[case] from: Square,
        #[case] expected: Vec<Square>,
    ) {
        check_moves(n, from, &expected);
    }

    #[rstest]
    #[case::the_seeds_5x5_tour_is_open(seed_5x5(), false, Ok(()))]
    #[case::the_seeds_5x5_tour_is_not_closed(seed_5x5(), true, Err(TourError::NotClosed { last: (0, 4), first: (4, 4) }))]
    #[case::a_closed_6x6_tour_is_closed(closed_6x6(), true, Ok(()))]
    #[case::a_lone_square_is_a_tour_of_one(rows(&[&[1]]), false, Ok(()))]
    #[case::a_lone_square_is_not_closed(rows(&[&[1]]), true, Err(TourError::NotClosed { last: (0, 0), first: (0, 0) }))]
    #[case::an_empty_board_is_no_tour(Board::new(0), false, Err(TourError::Empty))]
    #[case::a_fresh_board_is_unvisited(Board::new(3), false, Err(TourError::Unvisited((0, 0))))]
    fn whole_boards(
        #[case] board: Board,
        #[case] closed: bool,
        #[case] expected: Result<(), TourError>,
    ) {
        check(&board, closed, expected);
    }

    #[test]
    fn a_zero_is_an_unvisited_square() {
        let mut board = seed_5x5();
        board.set((2, 3), 0);
        check(&board, false, Err(TourError::Unvisited((2, 3))));
    }

    #[test]
    fn a_number_above_n_squared_is_out_of_range() {
        let mut board = seed_5x5();
        board.set((1, 1), 26);
        check(
            &board,
            false,
            Err(TourError::OutOfRange {
                square: (1, 1),
                number: 26,
            }),
        );
    }

    #[test]
    fn a_repeated_number_is_reported_where_it_repeats() {
        let mut board = seed_5x5();
        board.set((3, 0), 3);
        check(
            &board,
            false,
            Err(TourError::Repeated {
                number: 3,
                square: (3, 0),
            }),
        );
    }

    #[test]
    fn swapping_two_moves_breaks_a_step() {
        let mut board = seed_5x5();
        // Moves 1 and 2 trade places: 1 -> 2 is still a jump, 2 -> 3 is not.
        board.set((4, 4), 2);
        board.set((2, 3), 1);
        check(
            &board,
            false,
            Err(TourError::NotAKnightMove {
                number: 2,
                from: (4, 4),
                to: (0, 2),
            }),
        );
    }

    proptest! {
        #![proptest_config(crate::support::quiet(64))]
        #[test]
        fn agrees_with_an_independent_check(n in 1usize..=4, seed in any::<u64>()) {
            // A shuffled numbering: usually no tour, sometimes (n = 1) one.
            let mut numbers: Vec<u32> = (1..=(n * n) as u32).collect();
            let mut s = seed | 1;
            for i in (1..numbers.len()).rev() {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                numbers.swap(i, (s % (i as u64 + 1)) as usize);
            }
            let board = Board::from_rows(&numbers.chunks(n).map(<[u32]>::to_vec).collect::<Vec<_>>()).unwrap();
            let got = validate(&board, false).is_ok();
            prop_assert_eq!(got, oracle(n, &board, None, false).is_ok(), "{}", say!("validate on this board must say Ok exactly when it is a tour (every number 1..=n² once, each next number a knight move away), expected {answer}:\n{board} (book: chapter 5, \"The knight's tour\", part \"Checking a tour\")", answer = if oracle(n, &board, None, false).is_ok() { "Ok".to_string() } else { say!("an error") }, board));
        }
    }
}

mod plain_dfs {
    use super::*;
    use subject::{plain_dfs, seed_dfs};

    #[track_caller]
    fn check(
        n: usize,
        start: Square,
        moves: &[Step],
        attempts: u64,
        has_tour: bool,
    ) -> Option<Board> {
        crate::support::quiet_panics();
        let got = plain_dfs(n, start, moves);
        assert_eq!(
            (got.attempts, got.tour.is_some()),
            (attempts, has_tour),
            "{}",
            say!(
                "plain_dfs({n}, {start}, {moves}) made {made} attempts and found {found}, expected {attempts} attempts and {wanted}: count 1 for the start, then 1 for every move tried from every square (off the board and visited included), even the 8 tried from the last square (book: chapter 5, \"The seed's search, move by move\")",
                n,
                ?start,
                ?moves,
                made = got.attempts,
                found = if got.tour.is_some() {
                    say!("a tour")
                } else {
                    say!("none")
                },
                attempts,
                wanted = if has_tour {
                    say!("a tour")
                } else {
                    say!("none")
                }
            ),
        );
        if let Some(tour) = &got.tour {
            assert_eq!(
                oracle(n, tour, Some(start), false),
                Ok(()),
                "{}",
                say!("plain_dfs returned a board that is no tour:\n{tour}", tour)
            );
        }
        got.tour
    }

    #[rstest]
    #[case::a_lone_square(1, 9, true)]
    #[case::no_tour_on_2x2(2, 9, false)]
    #[case::no_tour_on_3x3(3, 121, false)]
    #[case::no_tour_on_4x4(4, 17_785, false)]
    #[case::the_seeds_5x5(5, 410_537, true)]
    #[case::the_seeds_6x6(6, 1_277_375, true)]
    #[case::the_seeds_7x7(7, 593_790, true)]
    fn reproduces_the_seeds_attempt_counts(
        #[case] n: usize,
        #[case] attempts: u64,
        #[case] has_tour: bool,
    ) {
        check(n, (n - 1, n - 1), &SEED_MOVES, attempts, has_tour);
    }

    #[test]
    fn finds_the_seeds_7x7_board() {
        let tour = check(7, (6, 6), &SEED_MOVES, 593_790, true);
        let expected = rows(&[
            &[11, 8, 19, 4, 29, 46, 49],
            &[18, 5, 10, 47, 20, 31, 28],
            &[9, 12, 7, 30, 3, 48, 45],
            &[6, 17, 14, 21, 44, 27, 32],
            &[13, 22, 39, 16, 35, 2, 43],
            &[40, 15, 24, 37, 42, 33, 26],
            &[23, 38, 41, 34, 25, 36, 1],
        ]);
        assert_eq!(
            tour,
            Some(expected),
            "{}",
            say!("the seed prints this board for 7x7: the first tour in SEED_MOVES order")
        );
    }

    #[rstest]
    #[case::five(5)]
    #[case::six(6)]
    #[case::seven(7)]
    fn the_seeds_boards_and_counts(#[case] n: usize) {
        let run = seed_dfs(n);
        let board = run
            .tour
            .map_or_else(|| "No Tour\n".to_string(), |b| b.to_string());
        let _book = crate::support::explain(
            "chapter 5, \"The seed's plain search\"",
            crate::support::rule(
                "the attempts of the seed's search (one per move tried) and its first tour, moves tried in the fixed order",
            ),
        );
        insta::assert_snapshot!(
            format!("seed_{n}x{n}"),
            format!("attempts: {}\n{board}", run.attempts)
        );
    }

    #[test]
    fn the_move_order_changes_the_work() {
        // Rotations of the seed's order on the seed's 6x6 board: the four
        // that finish within about 12 million attempts. The other four take
        // 48 to 460 million (the book's measurements page), too slow for a
        // test that every learner runs on every save.
        let counts: Vec<String> = [0, 3, 4, 5]
            .into_iter()
            .map(|shift| {
                let mut moves = SEED_MOVES;
                moves.rotate_left(shift);
                let run = plain_dfs(6, (5, 5), &moves);
                format!(
                    "rotation {shift}: {} attempts, tour: {}",
                    run.attempts,
                    run.tour.is_some()
                )
            })
            .collect();
        let _book = crate::support::explain(
            "chapter 5, \"The seed's plain search\"",
            crate::support::rule(
                "the attempts of the seed's search (one per move tried) and its first tour, moves tried in the fixed order",
            ),
        );
        insta::assert_snapshot!(counts.join("\n"));
    }

    #[test]
    fn a_start_off_the_board_costs_one_attempt() {
        check(5, (5, 0), &SEED_MOVES, 1, false);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(12))]
        #[test]
        fn every_tour_found_is_a_tour_from_the_start((n, start) in board_and_start(1, 5)) {
            let got = plain_dfs(n, start, &SEED_MOVES);
            if let Some(tour) = &got.tour {
                prop_assert_eq!(oracle(n, tour, Some(start), false), Ok(()), "{}", say!("plain_dfs({n}, {start}) returned a board that is no tour from the start (every square once, knight moves only):\n{tour} (book: chapter 5, \"The seed's plain search\")", n, ?start, tour));
            }
            // At least the start square's visit plus the 8 tries made from it.
            prop_assert!(got.attempts > 8, "{}", say!("plain_dfs({n}, {start}) made only {attempts} attempts, expected more than 8: the start's own visit plus the 8 moves tried from it each count (book: chapter 5, \"The seed's plain search\")", n, ?start, attempts = got.attempts));
        }
    }
}

mod stack_dfs {
    use super::*;
    use subject::stack_dfs;

    /// The seed's recursion, written again here so that `stack_dfs` is
    /// judged by known counts and boards, never by the learner's own
    /// `plain_dfs`: (attempts, the first tour).
    fn plain_oracle(n: usize, start: Square, moves: &[Step]) -> (u64, Option<Board>) {
        fn extend(
            n: usize,
            moves: &[Step],
            cells: &mut [u32],
            at: Square,
            next: u32,
            attempts: &mut u64,
        ) -> bool {
            for &(dr, dc) in moves {
                *attempts += 1;
                let to = at.0.checked_add_signed(dr).zip(at.1.checked_add_signed(dc));
                let Some((r, c)) = to.filter(|&(r, c)| r < n && c < n) else {
                    continue;
                };
                if cells[r * n + c] == 0 {
                    cells[r * n + c] = next;
                    if extend(n, moves, cells, (r, c), next + 1, attempts) {
                        return true;
                    }
                    cells[r * n + c] = 0;
                }
            }
            next as usize > n * n
        }
        if start.0 >= n || start.1 >= n {
            return (1, None);
        }
        let mut cells = vec![0; n * n];
        cells[start.0 * n + start.1] = 1;
        let mut attempts = 1;
        if !extend(n, moves, &mut cells, start, 2, &mut attempts) {
            return (attempts, None);
        }
        let mut board = Board::new(n);
        for (i, &k) in cells.iter().enumerate() {
            board.set((i / n, i % n), k);
        }
        (attempts, Some(board))
    }

    #[track_caller]
    fn check(n: usize, start: Square, moves: &[Step], attempts: u64, tour: Option<Board>) {
        crate::support::quiet_panics();
        let got = stack_dfs(n, start, moves);
        assert!(
            got.attempts == attempts && got.tour == tour,
            "{}",
            say!("stack_dfs({n}, {start}, {moves}) gave {made} attempts and {gave}, expected {attempts} and {tour}: the explicit stack must do exactly what the recursion does (book: chapter 5, \"Without recursion\")", n, ?start, ?moves, made = got.attempts, gave = ?got.tour, attempts, ?tour)
        );
    }

    #[rstest]
    #[case::a_lone_square(1, 9)]
    #[case::no_tour_on_4x4(4, 17_785)]
    #[case::the_seeds_5x5(5, 410_537)]
    #[case::the_seeds_6x6(6, 1_277_375)]
    #[case::the_seeds_7x7(7, 593_790)]
    fn matches_the_seed(#[case] n: usize, #[case] attempts: u64) {
        let start = (n - 1, n - 1);
        let (_, expected) = plain_oracle(n, start, &SEED_MOVES);
        check(n, start, &SEED_MOVES, attempts, expected);
    }

    #[test]
    fn a_start_off_the_board_costs_one_attempt() {
        check(3, (0, 3), &SEED_MOVES, 1, None);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(12))]
        #[test]
        fn agrees_with_the_recursion((n, start) in board_and_start(1, 5), shift in 0usize..8) {
            let mut moves = SEED_MOVES;
            moves.rotate_left(shift);
            let (attempts, tour) = plain_oracle(n, start, &moves);
            check(n, start, &moves, attempts, tour);
        }
    }
}

mod warnsdorff {
    use super::*;
    use subject::warnsdorff;

    #[track_caller]
    fn check(n: usize, start: Square, moves: &[Step], expect: Option<bool>) {
        crate::support::quiet_panics();
        let expect_tour = expect == Some(true);
        let expect_none = expect == Some(false);
        let got = warnsdorff(n, start, moves);
        match (&got, expect_tour) {
            (Some(tour), _) => assert_eq!(
                oracle(n, tour, Some(start), false),
                Ok(()),
                "{}",
                say!(
                    "warnsdorff({n}, {start}, ..) returned a board that is no tour from the start:\n{tour}",
                    n,
                    ?start,
                    tour
                )
            ),
            (None, true) => panic!(
                "{}",
                say!(
                    "warnsdorff({n}, {start}, {moves}) returned None, expected a tour: with the tie-breaks (fewest onward moves, then the smallest sum of the candidates' own onward counts, then move order) the rule does not get stuck here (book: chapter 5, \"The rule\")",
                    n,
                    ?start,
                    ?moves
                )
            ),
            (None, false) => {}
        }
        if expect_none {
            assert!(
                got.is_none(),
                "{}",
                say!(
                    "warnsdorff({n}, {start}, ..) found a tour, but with the documented tie-breaks the greedy pass gets stuck here (book: chapter 5, \"When the rule gets stuck\")",
                    n,
                    ?start
                )
            );
        }
    }

    #[test]
    fn tours_every_board_from_5_to_60_from_the_seeds_corner() {
        for n in 5..=60 {
            check(n, (n - 1, n - 1), &SEED_MOVES, Some(true));
        }
    }

    #[rstest]
    #[case::a_lone_square(1, (0, 0), true)]
    #[case::the_8x8_seed_corner(8, (7, 7), true)]
    #[case::a_3x3_board_has_no_tour(3, (0, 0), false)]
    #[case::a_start_off_the_board(6, (6, 0), false)]
    #[case::the_rule_alone_gets_stuck_on_98x98(98, (97, 97), false)]
    fn single_boards(#[case] n: usize, #[case] start: Square, #[case] expect_tour: bool) {
        check(n, start, &SEED_MOVES, Some(expect_tour));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(32))]
        #[test]
        fn every_board_returned_is_a_tour((n, start) in board_and_start(1, 40)) {
            let corner = n >= 5 && start == (n - 1, n - 1) && n <= 60;
            check(n, start, &SEED_MOVES, corner.then_some(true));
        }
    }
}

mod open_tour {
    use super::*;
    use subject::open_tour;
    use subject::warnsdorff::Walk;

    /// Why a stuck walk must finish, and where the book says how.
    const ROTATION: &str = why(
        "the end E is a jump from some p(i) earlier on the path; reversing \
        the path after p(i) ends it at p(i + 1), and the pivot to take is the first i (in move \
        order) whose p(i + 1) has a free neighbour, else one picked by a fixed pseudo-random \
        sequence (book: chapter 5, \"When the rule gets stuck\")",
    );

    #[track_caller]
    fn check(n: usize, start: Square, expect_tour: bool) {
        crate::support::quiet_panics();
        let got = open_tour(n, start);
        match &got {
            Some(tour) => assert_eq!(
                oracle(n, tour, Some(start), false),
                Ok(()),
                "{}",
                say!(
                    "open_tour({n}, {start}) returned a board that is no tour from the start:\n{tour}",
                    n,
                    ?start,
                    tour
                )
            ),
            None => assert!(
                !expect_tour,
                "{}",
                say!(
                    "open_tour({n}, {start}) returned None, but a tour exists: every n >= 5 has one from every square (on odd n, from the corners' colour) (book: chapter 5, \"When the rule gets stuck\")",
                    n,
                    ?start
                )
            ),
        }
        assert!(
            got.is_some() || !expect_tour,
            "{}",
            say!(
                "open_tour({n}, {start}) should be None: no tour exists there (book: chapter 5, \"When the rule gets stuck\")",
                n,
                ?start
            )
        );
        if !expect_tour {
            assert!(
                got.is_none(),
                "{}",
                say!(
                    "open_tour({n}, {start}) returned a tour where none can exist",
                    n,
                    ?start
                )
            );
        }
    }

    #[rstest]
    #[case::a_lone_square(1, (0, 0), true)]
    #[case::none_on_2x2(2, (0, 0), false)]
    #[case::none_on_4x4(4, (3, 3), false)]
    #[case::none_from_the_other_colour_on_5x5(5, (0, 1), false)]
    #[case::none_from_the_other_colour_on_7x7(7, (3, 2), false)]
    #[case::from_the_5x5_centre(5, (2, 2), true)]
    #[case::from_a_square_next_to_the_corner_on_6x6(6, (0, 1), true)]
    #[case::where_pohls_tie_break_gets_stuck(98, (97, 97), true)]
    #[case::where_the_seeds_move_order_gets_stuck(377, (376, 376), true)]
    #[case::a_start_off_the_board(6, (0, 6), false)]
    fn single_boards(#[case] n: usize, #[case] start: Square, #[case] expect_tour: bool) {
        check(n, start, expect_tour);
    }

    /// Starts where one greedy pass in the seed's move order gets stuck
    /// (with the documented tie-breaks), so only a rotation can finish it.
    #[rstest]
    #[case::the_7x7_corner(7, (0, 0))]
    #[case::on_10x10(10, (7, 9))]
    #[case::on_19x19_after_two_rotations(19, (13, 3))]
    #[case::on_26x26_after_two_rotations(26, (8, 21))]
    fn rotations_finish_a_walk_the_rule_leaves_stuck(#[case] n: usize, #[case] start: Square) {
        let mut walk = Walk::new(n, start, SEED_MOVES);
        let call = format!("Walk::new({n}, {start:?}, SEED_MOVES).complete()");
        let got = crate::support::guard(
            &call,
            &say!("Some(rotations) and a path over the whole board"),
            ROTATION,
            || walk.complete(),
        );
        assert!(
            got.is_some(),
            "{}",
            say!(
                "{call} returned None; expected Some: one greedy pass gets stuck here, and rotations at a pivot must finish the tour ({why})",
                call,
                why = said(ROTATION)
            )
        );
        let tour = walk.board();
        assert_eq!(
            oracle(n, &tour, Some(start), false),
            Ok(()),
            "{}",
            say!(
                "{call} returned {got}, but its walk is no tour from the start ({why}):\n{tour}",
                call,
                ?got,
                why = said(ROTATION),
                tour
            )
        );
    }

    proptest! {
        #![proptest_config(crate::support::quiet(48))]
        #[test]
        fn a_tour_from_every_square_that_has_one((n, start) in board_and_start(5, 30)) {
            let exists = n % 2 == 0 || (start.0 + start.1) % 2 == 0;
            check(n, start, exists);
        }
    }
}

mod closed_tour {
    use super::*;
    use subject::closed_tour;

    #[track_caller]
    fn check(n: usize, expect_tour: bool) {
        crate::support::quiet_panics();
        let got = closed_tour(n);
        match (&got, expect_tour) {
            (Some(tour), true) => assert_eq!(
                oracle(n, tour, None, true),
                Ok(()),
                "{}",
                say!(
                    "closed_tour({n}) returned a board that is no closed tour:\n{tour}",
                    n,
                    tour
                )
            ),
            (None, true) => panic!(
                "{}",
                say!(
                    "closed_tour({n}) returned None, but every even n >= 6 has a closed tour (book: chapter 5, \"Divide and conquer\")",
                    n
                )
            ),
            (Some(_), false) => panic!(
                "{}",
                say!(
                    "closed_tour({n}) returned a board, but no closed tour exists for odd n or n < 6 (book: chapter 5, \"Why odd boards have none\")",
                    n
                )
            ),
            (None, false) => {}
        }
    }

    #[rstest]
    #[case::six(6, true)]
    #[case::eight(8, true)]
    #[case::fifty(50, true)]
    #[case::twelve_the_first_board_cut_in_four(12, true)]
    #[case::fourteen_cut_into_unequal_halves(14, true)]
    #[case::two_hundred_and_two_cut_down_five_levels(202, true)]
    #[case::none_on_4x4(4, false)]
    #[case::none_on_5x5(5, false)]
    #[case::none_on_7x7(7, false)]
    #[case::none_on_99x99(99, false)]
    fn single_boards(#[case] n: usize, #[case] expect_tour: bool) {
        check(n, expect_tour);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(16))]
        #[test]
        fn every_even_board_closes(half in 3usize..=30) {
            check(2 * half, true);
        }
    }
}

mod counting {
    use super::*;
    use subject::{count_open_tours, count_tours_from};

    #[track_caller]
    fn check_from(n: usize, start: Square, expected: u64) {
        crate::support::quiet_panics();
        let got = count_tours_from(n, start);
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "count_tours_from({n}, {start}) returned {got}, expected {expected}: every complete path from the start counts, so the search must not stop at the first (book: chapter 5, \"Counting\")",
                n,
                ?start,
                got,
                expected
            )
        );
    }

    #[rstest]
    #[case::the_5x5_corner(5, (0, 0), 304)]
    #[case::the_seeds_5x5_corner(5, (4, 4), 304)]
    #[case::the_5x5_centre(5, (2, 2), 64)]
    #[case::the_middle_of_a_5x5_edge(5, (0, 2), 56)]
    #[case::the_other_colour_on_5x5(5, (0, 1), 0)]
    #[case::a_lone_square(1, (0, 0), 1)]
    #[case::none_on_4x4(4, (0, 0), 0)]
    #[case::a_start_off_the_board(5, (5, 5), 0)]
    fn tours_from_one_square(#[case] n: usize, #[case] start: Square, #[case] expected: u64) {
        check_from(n, start, expected);
    }

    #[rstest]
    #[case::five(5, 1728)]
    #[case::four(4, 0)]
    #[case::one(1, 1)]
    fn directed_tours_that_need_not_close(#[case] n: usize, #[case] expected: u64) {
        let got = count_open_tours(n);
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "count_open_tours({n}) returned {got}, expected {expected}: the sum over every start square, a tour and its reverse counted twice (book: chapter 5, \"Counting\")",
                n,
                got,
                expected
            )
        );
    }

    proptest! {
        #![proptest_config(crate::support::quiet(8))]
        #[test]
        fn mirror_squares_have_equal_counts(row in 0usize..5, col in 0usize..5) {
            let (r, c) = (4 - row, col);
            let got = count_tours_from(5, (row, col));
            prop_assert_eq!(got, count_tours_from(5, (c, r)), "{}", say!("count_tours_from(5, {square}) and count_tours_from(5, {turned}) must be equal: a quarter turn of the board maps the tours of one square onto the other's (book: chapter 5, \"Counting every tour\")", square = ?(row, col), turned = ?(c, r)));
        }
    }
}

/// The walks that cover every open square of `map`, counted with no
/// search: a table over (squares used, square stood on), grown one step at
/// a time from the start, read at the end with every square used.
fn full_paths_by_table(map: &str) -> u64 {
    let mut cells = Vec::new();
    let (mut start, mut end) = (Vec::new(), Vec::new());
    for (r, row) in map.lines().enumerate() {
        for (c, ch) in row.bytes().enumerate() {
            if matches!(ch, b'.' | b'S' | b'E') {
                match ch {
                    b'S' => start.push(cells.len()),
                    b'E' => end.push(cells.len()),
                    _ => {}
                }
                cells.push((r, c));
            }
        }
    }
    let ([start], [end]) = (start.as_slice(), end.as_slice()) else {
        return 0;
    };
    let n = cells.len();
    let side = |a: usize, b: usize| {
        let ((r1, c1), (r2, c2)) = (cells[a], cells[b]);
        r1.abs_diff(r2) + c1.abs_diff(c2) == 1
    };
    let mut ways = vec![vec![0u64; n]; 1 << n];
    ways[1 << start][*start] = 1;
    for set in 0..1usize << n {
        for at in 0..n {
            let w = ways[set][at];
            // The end is the last square: no walk goes on from it.
            if w == 0 || at == *end {
                continue;
            }
            for to in (0..n).filter(|&to| set >> to & 1 == 0 && side(at, to)) {
                ways[set | 1 << to][to] += w;
            }
        }
    }
    ways[(1 << n) - 1][*end]
}

mod count_full_paths {
    use super::*;
    use subject::count_full_paths;

    const WHY: &str = "mark the square, step to each open unmarked neighbour, rub the mark out on \
                       the way back, and count a walk only when it reaches E with every square \
                       used (book: chapter 5, practice, \"Solved in the workbook: paths over every \
                       square\")";

    #[track_caller]
    fn check(map: &str, expected: u64) {
        assert_eq!(
            full_paths_by_table(map),
            expected,
            "the test's own answer for {map:?} is wrong"
        );
        let call = format!("count_full_paths({map:?})");
        let got =
            crate::support::guard(&call, &format!("{expected}"), WHY, || count_full_paths(map));
        assert_eq!(
            got, expected,
            "{call} returned {got}, expected {expected} walk(s): {WHY}"
        );
    }

    #[rstest]
    #[case::a_start_beside_the_end("SE", 1)]
    #[case::one_square_between("S.E", 1)]
    #[case::a_square_left_behind_the_end_is_never_reached("SE.", 0)]
    #[case::a_wall_leaves_one_way_round("S#\n.E", 1)]
    #[case::two_by_two_with_opposite_corners_has_none("S.\n.E", 0)]
    #[case::three_by_three_corner_to_corner("S..\n...\n..E", 2)]
    #[case::no_end_means_no_walk("S..", 0)]
    #[case::two_starts_mean_no_walk("S.S\n..E", 0)]
    #[case::past_a_short_row_is_wall("S..\nE", 0)]
    #[case::a_walk_around_the_walls("...\n.#.\nS#E", 1)]
    fn counts_the_walks(#[case] map: &str, #[case] expected: u64) {
        check(map, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(128))]
        #[test]
        fn agrees_with_a_table_on_random_maps(
            rows in 1usize..4,
            cols in 1usize..5,
            walls in proptest::collection::vec(proptest::bool::weighted(0.2), 12),
            start in 0usize..12,
            end in 0usize..12,
        ) {
            let cells = rows * cols;
            let (start, end) = (start % cells, end % cells);
            prop_assume!(start != end);
            let owned: Vec<String> = (0..rows)
                .map(|r| (0..cols).map(|c| {
                    let i = r * cols + c;
                    if i == start { 'S' } else if i == end { 'E' } else if walls[i] { '#' } else { '.' }
                }).collect())
                .collect();
            let map = owned.join("\n");
            let expected = full_paths_by_table(&map);
            let call = format!("count_full_paths({map:?})");
            let got = crate::support::guard(&call, &format!("{expected}"), WHY, || count_full_paths(&map));
            prop_assert_eq!(got, expected, "count_full_paths({:?}) must count every walk that covers the map: {}", map, WHY);
        }
    }
}
