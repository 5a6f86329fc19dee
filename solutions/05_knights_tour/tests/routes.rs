//! Tests of `open_tour_route`'s later stages, which the sweep shows are
//! rarely needed: the reference must still reach them and return valid
//! tours through them.
//!
//! The problem: find the boards and starts where the greedy passes get
//! stuck, and check what the fallbacks return there. The state is one
//! board per start; each call costs a few greedy passes on a small board.

use knights_tour_solution::{Route, open_tour_route, validate};

#[test]
fn some_7x7_start_needs_the_rotations_and_gets_a_valid_tour() {
    let mut rotated = Vec::new();
    for (row, col) in (0..49).map(|i| (i / 7, i % 7)) {
        if (row + col) % 2 == 1 {
            continue;
        }
        let (board, route) = open_tour_route(7, (row, col)).expect("a tour exists");
        assert_eq!(validate(&board, false), Ok(()), "from ({row}, {col})");
        assert_eq!(board.get((row, col)), 1, "from ({row}, {col})");
        if matches!(route, Route::Rotated { .. }) {
            rotated.push((row, col, route));
        }
    }
    // The sweep finds exactly one such start up to n = 60: (5, 3) on 7x7.
    assert!(
        rotated.iter().any(|&(row, col, _)| (row, col) == (5, 3)),
        "expected (5, 3) to need the rotations, got {rotated:?}"
    );
}
