//! Hidden suite for chapter 3: differential tests on random positions and
//! random trees.
//!
//! An example of the mechanism (it ships in the learners' repository: keep
//! your real suites outside it); `grader grade` wires it into their
//! crate as an extra test target with the reference as a dev-dependency.
//! The visible suite checks the counts against OEIS, which a learner could
//! answer from a table; here the building blocks meet random inputs drawn
//! from the run's secret seed (`rng.rs`: the same for every learner of a run):
//! column lists for the checks, partial positions for the bitboard count,
//! random trees for the robot, and a board size the visible suite does not
//! list. Module names are exercise names.
//!
//! Two exercises are missing on purpose: `counting` and `parallel` take
//! only `n`, and the visible suite already checks every `n` a debug build
//! counts in time, so a hidden test could only repeat it; their search
//! functions over a partial position are private. The grader's table note
//! is what points at a learner who typed those counts in.

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
        let mut rng = Rng::stream(31);
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
        let mut rng = Rng::stream(32);
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

    /// Completes `queens` (one column per row from the top) to a solution
    /// for `n` queens by a depth-first search that tries the free columns
    /// in a random order; gives up after `budget` placements.
    fn random_solution(rng: &mut Rng, n: usize, queens: &mut Vec<usize>, budget: &mut u32) -> bool {
        if queens.len() == n {
            return true;
        }
        let row = queens.len();
        let mut free: Vec<usize> = (0..n)
            .filter(|&c| {
                queens
                    .iter()
                    .enumerate()
                    .all(|(r, &q)| q != c && r + q != row + c && r + c != row + q)
            })
            .collect();
        for i in (1..free.len()).rev() {
            free.swap(i, rng.below(i + 1));
        }
        for c in free {
            let Some(left) = budget.checked_sub(1) else {
                return false;
            };
            *budget = left;
            queens.push(c);
            if random_solution(rng, n, queens, budget) {
                return true;
            }
            queens.pop();
        }
        false
    }

    #[test]
    fn count_below_agrees_with_the_reference_on_300_deep_random_positions_up_to_n_32() {
        // All rows but the last few (at most 9) hold queens, so boards up to
        // 32 wide leave a small subtree. Half the positions are the top of a
        // random solution where one is found (so they count at least 1); the
        // rest are queens dropped on random free squares, often a dead end.
        let mut rng = Rng::stream(35);
        for case in 0..300 {
            let n = 1 + rng.below(32);
            let all = reference::bits::full_mask(n);
            let filled = n - rng.below(n.min(9) + 1);
            let mut queens = Vec::new();
            if case % 2 == 0 && random_solution(&mut rng, n, &mut queens, &mut 20_000) {
                queens.truncate(filled);
            } else {
                queens.clear();
            }
            let (mut cols, mut left, mut right) = (0u32, 0u32, 0u32);
            for row in 0..filled {
                let free = all & !(cols | left | right);
                let bit = match queens.get(row) {
                    Some(&c) => 1 << c,
                    None if free == 0 => break,
                    None => {
                        let options: Vec<u32> =
                            (0..n).map(|c| 1 << c).filter(|b| free & b != 0).collect();
                        options[rng.below(options.len())]
                    }
                };
                (cols, left, right) = (cols | bit, (left | bit) << 1, (right | bit) >> 1);
            }
            assert_eq!(
                learner::bits::count_below(all, cols, left, right),
                reference::bits::count_below(all, cols, left, right),
                "count_below({all:#b}, {cols:#b}, {left:#b}, {right:#b})"
            );
        }
    }

    #[test]
    fn count_below_agrees_with_the_reference_on_200_random_positions() {
        let mut rng = Rng::stream(33);
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
        let mut rng = Rng::stream(34);
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
    fn random_stretches_of_the_iteration_agree_with_the_reference_board_and_nodes() {
        // The iterator's state is what `next` leaves behind: the k-th board
        // and the nodes visited so far, compared at random points of the
        // iteration for every n up to 12, and again on a clone taken there.
        let mut rng = Rng::stream(36);
        for _ in 0..40 {
            let n = rng.below(13);
            let (mut mine, mut want) = (learner::solutions(n), reference::solutions(n));
            for _ in 0..1 + rng.below(4) {
                let skip = rng.below(400);
                let (got, expected) = (mine.nth(skip), want.nth(skip));
                assert_eq!(
                    (&got, mine.nodes_visited()),
                    (&expected, want.nodes_visited()),
                    "solutions({n}), after a further nth({skip}): (board, nodes_visited())"
                );
                let (mut a, mut b) = (mine.clone(), want.clone());
                assert_eq!(
                    (a.next(), a.nodes_visited()),
                    (b.next(), b.nodes_visited()),
                    "solutions({n}): a clone's next board and nodes_visited()"
                );
            }
        }
    }

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

mod count_beautiful {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_random_sizes_up_to_15() {
        let mut rng = Rng::stream(37);
        for _ in 0..6 {
            let n = 7 + rng.below(9);
            assert_eq!(learner::count_beautiful(n), reference::count_beautiful(n), "count_beautiful({n})");
        }
    }
}
