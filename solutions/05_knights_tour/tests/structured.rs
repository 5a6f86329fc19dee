//! Tests of the given code behind closed tours: `structured`, the small
//! tours the divide and conquer starts from. Learners do not write it, so
//! the chapter's suite does not test it; these tests do.
//!
//! The problem: check that every base rectangle gets a closed tour with the
//! corner edges the joins rely on. The state is the tour as a list of
//! squares; each check is linear in the number of squares.

use knights_tour_solution::Square;
use knights_tour_solution::closed::structured;

fn jump(a: Square, b: Square) -> bool {
    let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
    (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
}

/// Whether `a`-`b` is one of the tour's edges (the last square closes it).
fn has_edge(tour: &[Square], a: Square, b: Square) -> bool {
    let len = tour.len();
    (0..len).any(|k| {
        let (x, y) = (tour[k], tour[(k + 1) % len]);
        (x, y) == (a, b) || (x, y) == (b, a)
    })
}

#[test]
fn every_base_size_gets_a_structured_closed_tour() {
    for (rows, cols) in [
        (6, 6),
        (6, 8),
        (8, 6),
        (8, 8),
        (8, 10),
        (10, 8),
        (10, 10),
        (10, 12),
        (12, 10),
    ] {
        let tour = structured(rows, cols).unwrap_or_else(|| panic!("no tour on {rows}x{cols}"));
        let mut seen = vec![false; rows * cols];
        for &(r, c) in &tour {
            assert!(
                r < rows && c < cols,
                "{rows}x{cols}: ({r}, {c}) off the board"
            );
            assert!(!seen[r * cols + c], "{rows}x{cols}: ({r}, {c}) twice");
            seen[r * cols + c] = true;
        }
        assert_eq!(tour.len(), rows * cols, "{rows}x{cols}: not every square");
        for k in 0..tour.len() {
            let (a, b) = (tour[k], tour[(k + 1) % tour.len()]);
            assert!(
                jump(a, b),
                "{rows}x{cols}: {a:?} -> {b:?} is no knight's move"
            );
        }
        let (r, c) = (rows - 1, cols - 1);
        for (a, b) in [
            ((0, 1), (2, 0)),
            ((0, c - 1), (2, c)),
            ((r, 1), (r - 2, 0)),
            ((r, c - 1), (r - 2, c)),
        ] {
            assert!(
                has_edge(&tour, a, b),
                "{rows}x{cols}: forced edge {a:?}-{b:?} missing"
            );
        }
    }
}

#[test]
fn small_or_odd_rectangles_get_none_at_once() {
    for (rows, cols) in [(0, 0), (3, 6), (4, 8), (6, 5), (7, 7)] {
        assert_eq!(structured(rows, cols), None, "{rows}x{cols}");
    }
}
