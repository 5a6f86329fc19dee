//! Hidden suite for chapter 0: differential tests on random inputs.
//!
//! An example of the mechanism (it ships in the learners' repository: keep
//! your real suites outside it); `grader grade` wires it into their
//! crate as an extra test target with the reference as a dev-dependency.
//! Every case compares the learner's answer with the reference's on inputs
//! drawn from the run's secret seed (`rng.rs`, a small SplitMix64: the same
//! inputs for every learner of a run, unknown to them, no extra crate). Module names are exercise names.

use intro as learner;
use intro_solution as reference;

mod rng;
use rng::Rng;

/// A random graph of 1..=12 vertices; some edges point outside it.
fn graph(rng: &mut Rng) -> Vec<Vec<usize>> {
    let n = 1 + rng.below(12);
    (0..n).map(|_| (0..rng.below(4)).map(|_| rng.below(n + 2)).collect()).collect()
}

mod dfs_recursive {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_graphs() {
        let mut rng = Rng::stream(1);
        for _ in 0..300 {
            let g = graph(&mut rng);
            let start = rng.below(g.len() + 1);
            let (got, want) = (learner::dfs_recursive(&g, start), reference::dfs_recursive(&g, start));
            assert_eq!(got, want, "dfs_recursive({g:?}, {start})");
        }
    }
}

mod dfs_stack {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_graphs() {
        let mut rng = Rng::stream(2);
        for _ in 0..300 {
            let g = graph(&mut rng);
            let start = rng.below(g.len() + 1);
            let (got, want) = (learner::dfs_stack(&g, start), reference::dfs_stack(&g, start));
            assert_eq!(got, want, "dfs_stack({g:?}, {start})");
        }
    }

    #[test]
    fn a_path_of_200_000_vertices_does_not_use_the_call_stack() {
        let n = 200_000;
        let g: Vec<Vec<usize>> = (0..n).map(|v| if v + 1 < n { vec![v + 1] } else { vec![] }).collect();
        let got = learner::dfs_stack(&g, 0);
        assert!(got == reference::dfs_stack(&g, 0), "dfs_stack on a path of {n} vertices did not list 0..{n} in order");
    }
}

mod subsets_with_sum {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_item_lists() {
        let mut rng = Rng::stream(3);
        for _ in 0..300 {
            let items: Vec<u32> = (0..rng.below(11)).map(|_| 1 + rng.below(9) as u32).collect();
            let target = rng.below(25) as u32;
            let (got, want) = (learner::subsets_with_sum(&items, target), reference::subsets_with_sum(&items, target));
            assert_eq!(got, want, "subsets_with_sum({items:?}, {target})");
        }
    }
}

mod count_islands {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_maps() {
        let mut rng = Rng::stream(4);
        for _ in 0..300 {
            let rows: Vec<String> = (0..rng.below(16))
                .map(|_| (0..rng.below(16)).map(|_| if rng.below(5) < 3 { '#' } else { '.' }).collect())
                .collect();
            let map = rows.join("\n");
            let (got, want) = (learner::islands::count_islands(&map), reference::islands::count_islands(&map));
            assert_eq!(got, want, "count_islands({map:?})");
        }
    }
}
