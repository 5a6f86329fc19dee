//! Hidden suite for chapter 3: differential tests on random positions and
//! random trees.
//!
//! Learners never see this file; `workbook grade` wires it into their
//! crate as an extra test target with the reference as a dev-dependency.
//! The visible suite checks the counts against OEIS, which a learner could
//! answer from a table; here the building blocks meet random inputs drawn
//! from a fixed seed (SplitMix64, so a grade is the same on every run):
//! column lists for the checks, partial positions for the bitboard count,
//! random trees for the robot, and a board size the visible suite does not
//! list. Module names are exercise names.

use n_queens as learner;
use n_queens_solution as reference;
use std::collections::BTreeSet;

mod rng;
use rng::Rng;

impl Rng {
    /// Queens in the first rows of an n x n board, safe or not.
    fn cols(&mut self, n: usize) -> Vec<usize> {
        (0..self.below(n)).map(|_| self.below(n)).collect()
    }
}

mod solve_all {
    use super::*;

    #[test]
    fn is_valid_and_draw_agree_with_the_reference_on_500_random_column_lists() {
        let mut rng = Rng(31);
        for _ in 0..500 {
            let n = 1 + rng.below(10);
            let (cols, col) = (rng.cols(n), rng.below(n));
            assert_eq!(
                learner::is_valid(&cols, col),
                reference::is_valid(&cols, col),
                "is_valid({cols:?}, {col})"
            );
            let full: Vec<usize> = (0..n).map(|_| rng.below(n)).collect();
            assert_eq!(
                learner::draw(&full),
                reference::draw(&full),
                "draw({full:?})"
            );
        }
    }

    #[test]
    fn the_boards_of_11_queens_are_the_references() {
        let got: BTreeSet<_> = learner::solve_all(11).into_iter().collect();
        let want: BTreeSet<_> = reference::solve_all(11).into_iter().collect();
        assert!(
            got == want,
            "solve_all(11): {} boards, expected the reference's {}",
            got.len(),
            want.len()
        );
    }
}

mod flags {
    use super::*;

    #[test]
    fn is_free_agrees_with_the_reference_after_200_random_histories() {
        let mut rng = Rng(32);
        for _ in 0..200 {
            let n = 1 + rng.below(12);
            let (mut mine, mut want) = (learner::Flags::new(n), reference::Flags::new(n));
            let mut history = Vec::new();
            for _ in 0..rng.below(2 * n) {
                let (row, col, taken) = (rng.below(n), rng.below(n), rng.below(3) > 0);
                mine.set(row, col, taken);
                want.set(row, col, taken);
                history.push((row, col, taken));
            }
            for (row, col) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
                assert_eq!(
                    mine.is_free(row, col),
                    want.is_free(row, col),
                    "Flags::new({n}), then set {history:?}, then is_free({row}, {col})"
                );
            }
        }
    }
}

mod bitmask {
    use super::*;

    #[test]
    fn full_mask_agrees_with_the_reference_for_every_n() {
        for n in 0..=32 {
            assert_eq!(
                learner::bits::full_mask(n),
                reference::bits::full_mask(n),
                "full_mask({n})"
            );
        }
    }

    #[test]
    fn count_below_agrees_with_the_reference_on_200_random_positions() {
        let mut rng = Rng(33);
        for _ in 0..200 {
            let n = 1 + rng.below(11);
            let all = reference::bits::full_mask(n);
            let (mut cols, mut left, mut right) = (0u32, 0u32, 0u32);
            for _ in 0..rng.below(n.min(4)) {
                let free = all & !(cols | left | right);
                if free == 0 {
                    break;
                }
                let options: Vec<u32> = (0..n).map(|c| 1 << c).filter(|b| free & b != 0).collect();
                let bit = options[rng.below(options.len())];
                (cols, left, right) = (cols | bit, (left | bit) << 1, (right | bit) >> 1);
            }
            assert_eq!(
                learner::bits::count_below(all, cols, left, right),
                reference::bits::count_below(all, cols, left, right),
                "count_below({all:#b}, {cols:#b}, {left:#b}, {right:#b})"
            );
        }
    }
}

mod robot {
    use super::*;

    /// A random tree of 1..=40 nodes, children in increasing order.
    fn tree(rng: &mut Rng) -> Vec<Vec<usize>> {
        let size = 1 + rng.below(40);
        let mut children = vec![Vec::new(); size];
        for v in 1..size {
            children[rng.below(v)].push(v);
        }
        children
    }

    #[test]
    fn the_three_walks_process_random_trees_as_the_reference_does() {
        let mut rng = Rng(34);
        for _ in 0..200 {
            let children = tree(&mut rng);
            let (mut a, mut b) = (
                learner::Tree::new(children.clone()),
                reference::Tree::new(children.clone()),
            );
            learner::walk_leaves(&mut a);
            reference::walk_leaves(&mut b);
            assert_eq!(
                a.processed(),
                b.processed(),
                "walk_leaves on the tree {children:?}"
            );
            let (mut a, mut b) = (
                learner::Tree::new(children.clone()),
                reference::Tree::new(children.clone()),
            );
            learner::walk_all(&mut a);
            reference::walk_all(&mut b);
            assert_eq!(
                a.processed(),
                b.processed(),
                "walk_all on the tree {children:?}"
            );
            let (mut a, mut b) = (
                learner::Tree::new(children.clone()),
                reference::Tree::new(children.clone()),
            );
            learner::walk_around(&mut a);
            reference::walk_around(&mut b);
            assert_eq!(
                a.processed(),
                b.processed(),
                "walk_around on the tree {children:?}"
            );
        }
    }

    #[test]
    fn the_robot_finds_the_references_solutions_for_11_queens() {
        let got: BTreeSet<_> = learner::robot_solutions(11).into_iter().collect();
        let want: BTreeSet<_> = reference::robot_solutions(11).into_iter().collect();
        assert!(
            got == want,
            "robot_solutions(11): {} boards, expected {}",
            got.len(),
            want.len()
        );
    }
}

mod iterator {
    use super::*;

    #[test]
    fn the_lazy_iterator_yields_the_references_solutions_in_order_for_11_queens() {
        let got: Vec<_> = learner::solutions(11).collect();
        let want: Vec<_> = reference::solutions(11).collect();
        assert!(
            got == want,
            "solutions(11): {} boards, expected the reference's {} in lexicographic order",
            got.len(),
            want.len()
        );
    }
}
