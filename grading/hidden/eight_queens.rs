//! Hidden suite for chapter 2: differential tests on random boards.
//!
//! An example of the mechanism (it ships in the learners' repository: keep
//! your real suites outside it); `grader grade` wires it into their
//! crate as an extra test target with the reference as a dev-dependency.
//! The visible suite checks the contest's samples and a fixed table, which a
//! learner could answer from memory; here every board is drawn from the run's
//! secret seed (`rng.rs`: the same for every learner of a run) and each answer is
//! compared with the reference's. Module names are exercise names; the two
//! crates have their own `Board` types, so boards travel as square lists.

use eight_queens as learner;
use eight_queens_solution as reference;

mod rng;
use rng::Rng;

/// Up to `most` distinct random squares: any queens, attacking or not.
fn squares(rng: &mut Rng, most: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for _ in 0..rng.below(most + 1) {
        let square = (rng.below(8), rng.below(8));
        if !out.contains(&square) {
            out.push(square);
        }
    }
    out
}

/// Up to `most` queens placed at random where the reference says they are
/// safe: the contest's inputs, some with no completion.
fn safe_squares(rng: &mut Rng, most: usize) -> Vec<(usize, usize)> {
    let mut board = reference::Board::empty();
    for _ in 0..rng.below(most + 1) {
        let (row, col) = (rng.below(8), rng.below(8));
        if !board.has_queen(row, col) && reference::is_safe(&board, row, col) {
            board.place(row, col);
        }
    }
    board.queens()
}

fn boards(qs: &[(usize, usize)]) -> (learner::Board, reference::Board) {
    (
        learner::Board::from_queens(qs),
        reference::Board::from_queens(qs),
    )
}

/// A safety check compared with the reference's on every empty square of
/// 200 random boards.
#[track_caller]
fn check_safety(
    seed: u64,
    name: &str,
    ours: fn(&learner::Board, usize, usize) -> bool,
    theirs: fn(&reference::Board, usize, usize) -> bool,
) {
    let mut rng = Rng::stream(seed);
    for _ in 0..200 {
        let qs = squares(&mut rng, 10);
        let (mine, want) = boards(&qs);
        for (row, col) in (0..8).flat_map(|r| (0..8).map(move |c| (r, c))) {
            if want.has_queen(row, col) {
                continue;
            }
            assert_eq!(
                ours(&mine, row, col),
                theirs(&want, row, col),
                "{name}(board with queens at {qs:?}, {row}, {col})"
            );
        }
    }
}

mod parse_board {
    use super::*;

    /// A random board drawn as text, sometimes with one defect.
    fn text(rng: &mut Rng) -> String {
        let qs = squares(rng, 9);
        let mut rows: Vec<String> = (0..8)
            .map(|r| {
                (0..8)
                    .map(|c| if qs.contains(&(r, c)) { 'Q' } else { '.' })
                    .collect()
            })
            .collect();
        match rng.below(8) {
            0 => {
                let r = rng.below(8);
                rows[r].insert(rng.below(9), "x#q 0".as_bytes()[rng.below(5)] as char);
            }
            1 => {
                let r = rng.below(8);
                rows[r].truncate(rng.below(8));
            }
            2 => rows.truncate(rng.below(8)),
            3 => rows.push("........".into()),
            _ => {}
        }
        let mut text = rows.join("\n");
        if rng.below(2) == 0 {
            text.push('\n');
        }
        text
    }

    #[test]
    fn agrees_with_the_reference_on_400_random_texts_good_and_bad() {
        let mut rng = Rng::stream(21);
        for _ in 0..400 {
            let text = text(&mut rng);
            let got = learner::parse_board(&text).map(|b| b.queens());
            let want = reference::parse_board(&text).map(|b| b.queens());
            let got = got.map_err(|e| (e.line, e.column, format!("{:?}", e.kind)));
            let want = want.map_err(|e| (e.line, e.column, format!("{:?}", e.kind)));
            assert_eq!(
                got, want,
                "parse_board({text:?}) as queens or (line, column, kind)"
            );
        }
    }
}

mod one_direction {
    use super::*;

    #[test]
    fn in_board_agrees_with_the_reference_around_the_edges() {
        for row in -3..11 {
            for col in -3..11 {
                assert_eq!(
                    learner::in_board(row, col),
                    reference::in_board(row, col),
                    "in_board({row}, {col})"
                );
            }
        }
    }

    #[test]
    fn agrees_with_the_reference_on_200_random_boards() {
        check_safety(
            22,
            "is_safe_one_direction",
            learner::is_safe_one_direction,
            reference::is_safe_one_direction,
        );
    }
}

mod three_directions {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_200_random_boards() {
        check_safety(
            23,
            "is_safe_three_loops",
            learner::is_safe_three_loops,
            reference::is_safe_three_loops,
        );
    }
}

mod is_safe {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_200_random_boards() {
        check_safety(24, "is_safe", learner::is_safe, reference::is_safe);
    }
}

mod solve {
    use super::*;

    /// Why `board` is not a completion of the given queens, if it is not.
    fn flaw(given: &[(usize, usize)], board: &[(usize, usize)]) -> Option<String> {
        if board.len() != 8 {
            return Some(format!("it holds {} queens, not 8", board.len()));
        }
        if let Some(q) = given.iter().find(|q| !board.contains(q)) {
            return Some(format!("the given queen at {q:?} is missing"));
        }
        board.iter().find_map(|&(row, col)| {
            let mut others = reference::Board::from_queens(board);
            others.remove(row, col);
            (!reference::is_safe(&others, row, col))
                .then(|| format!("the queen at ({row}, {col}) is attacked"))
        })
    }

    #[test]
    fn finds_a_completion_exactly_when_the_reference_does_on_150_random_inputs() {
        let mut rng = Rng::stream(25);
        for _ in 0..150 {
            let qs = safe_squares(&mut rng, 4);
            let (mine, want) = boards(&qs);
            let got = learner::solve(&mine).map(|b| b.queens());
            let exists = reference::solve(&want).is_some();
            match got {
                Some(board) => {
                    assert!(
                        exists,
                        "solve(board with queens at {qs:?}) found {board:?}, but no completion exists"
                    );
                    if let Some(why) = flaw(&qs, &board) {
                        panic!("solve(board with queens at {qs:?}) returned {board:?}: {why}");
                    }
                }
                None => assert!(
                    !exists,
                    "solve(board with queens at {qs:?}) found nothing, but a completion exists"
                ),
            }
        }
    }
}

mod count_completions {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_150_random_contest_inputs() {
        let mut rng = Rng::stream(26);
        for _ in 0..150 {
            let qs = safe_squares(&mut rng, 5);
            let (mine, want) = boards(&qs);
            assert_eq!(
                learner::count_completions(&mine),
                reference::count_completions(&want),
                "count_completions(board with queens at {qs:?})"
            );
        }
    }
}

mod search_stats {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_100_random_contest_inputs() {
        let mut rng = Rng::stream(27);
        for _ in 0..100 {
            let qs = safe_squares(&mut rng, 4);
            let (mine, want) = boards(&qs);
            let got = learner::search_stats(&mine);
            let want = reference::search_stats(&want);
            assert_eq!(
                (got.nodes, got.backtracks),
                (want.nodes, want.backtracks),
                "search_stats(board with queens at {qs:?}) as (nodes, backtracks)"
            );
        }
    }
}

mod every_completion {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_100_random_boards() {
        let mut rng = Rng::stream(28);
        for _ in 0..100 {
            // Half the contest's inputs, half any queens at all.
            let qs = if rng.below(2) == 0 { safe_squares(&mut rng, 4) } else { squares(&mut rng, 3) };
            let (mine, want) = boards(&qs);
            let got: Vec<_> = learner::every_completion(&mine).iter().map(|b| b.queens()).collect();
            let expected: Vec<_> = reference::every_completion(&want).iter().map(|b| b.queens()).collect();
            assert_eq!(got, expected, "every_completion(board with queens at {qs:?})");
        }
    }
}
