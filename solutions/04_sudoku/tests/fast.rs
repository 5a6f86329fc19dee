//! The reference-only fast solver agrees with the chapter's own search.

use proptest::prelude::*;
use sudoku_solution::{Grid, count_solutions, fast, generate, solve_propagation};

const SEED_002: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const CLASHING: &str =
    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

#[test]
fn fixed_cases() {
    let unique = Grid::from_literal(SEED_002);
    assert_eq!(
        fast::solve_count(&unique),
        (1, solve_propagation(&unique).solution)
    );
    assert_eq!(fast::solve_count(&Grid::from_literal(CLASHING)), (0, None));
    assert_eq!(fast::solve_count(&Grid::EMPTY).0, 2);
    assert_eq!(fast::solve_limit(&Grid::EMPTY, 50).0, 50);
    let full = solve_propagation(&unique).solution.expect("solved");
    assert_eq!(fast::solve_count(&full), (1, Some(full)));
}

#[test]
fn grid_from_bytes_takes_only_clean_lines() {
    assert_eq!(
        fast::grid_from_bytes(SEED_002.as_bytes()),
        Some(Grid::from_literal(SEED_002))
    );
    assert_eq!(fast::grid_from_bytes(&SEED_002.as_bytes()[..80]), None);
    assert_eq!(
        fast::grid_from_bytes(SEED_002.replace('7', "x").as_bytes()),
        None
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn agrees_with_count_solutions_on_generated_puzzles(seed in any::<u64>(), blanks in proptest::collection::vec(0usize..81, 0..12)) {
        // A unique puzzle, then a few more blanks: often two solutions or more.
        let mut puzzle = generate(seed, 0);
        prop_assert_eq!(fast::solve_count(&puzzle), (1, solve_propagation(&puzzle).solution));
        for b in blanks {
            puzzle.cells[b] = 0;
        }
        let (count, solution) = fast::solve_count(&puzzle);
        prop_assert_eq!(count, count_solutions(&puzzle, 2));
        if let Some(s) = solution {
            prop_assert_eq!(count_solutions(&s, 2), 1);
            prop_assert!((0..81).all(|i| puzzle.cells[i] == 0 || puzzle.cells[i] == s.cells[i]));
        }
    }

    #[test]
    fn counts_past_two_like_count_solutions(seed in any::<u64>(), blanks in proptest::collection::vec(0usize..81, 8..30)) {
        // Many blanks: often several solutions, counted up to a limit of 5.
        let mut puzzle = generate(seed, 0);
        for b in blanks {
            puzzle.cells[b] = 0;
        }
        prop_assert_eq!(fast::solve_limit(&puzzle, 5).0, count_solutions(&puzzle, 5));
    }

    #[test]
    fn finds_clashes_and_dead_ends_like_count_solutions(cells in proptest::collection::vec(0u8..10, 81)) {
        // Random digits: mostly clashing grids.
        let mut puzzle = Grid::EMPTY;
        for (i, d) in cells.into_iter().enumerate() {
            if i % 3 == 0 { puzzle.cells[i] = d; }
        }
        prop_assert_eq!(fast::solve_count(&puzzle).0, count_solutions(&puzzle, 2));
    }
}
