//! The chapter 0 suite: depth-first search, recursive and with a stack.
//!
//! One file checks both the learner's crate (`intro`) and the reference
//! (`intro_solution`, with `--features reference`). Each module is one
//! exercise; its `check` helper is the only place that calls the function
//! under test, so a failing case always says what was called, what came
//! back, what was expected and where the book explains it.

#[cfg(not(feature = "reference"))]
use intro as subject;
#[cfg(feature = "reference")]
use intro_solution as subject;

use proptest::prelude::*;
use rstest::rstest;

#[macro_use]
mod support;
use support::{said, why};

/// Random graphs of up to 8 vertices, edges possibly pointing nowhere.
fn any_graph() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (1usize..8)
        .prop_flat_map(|n| proptest::collection::vec(proptest::collection::vec(0..n + 1, 0..4), n))
}

/// A reachability oracle with no notion of order: who can `start` reach?
fn reachable(graph: &[Vec<usize>], start: usize) -> Vec<usize> {
    let mut seen = vec![false; graph.len()];
    let mut todo = vec![start];
    while let Some(v) = todo.pop() {
        if v < graph.len() && !seen[v] {
            seen[v] = true;
            todo.extend(&graph[v]);
        }
    }
    (0..graph.len()).filter(|&v| seen[v]).collect()
}

/// The depth-first preorder, found a third way (a stack of neighbour
/// cursors), so that no exercise is judged by another one's answer.
fn preorder(graph: &[Vec<usize>], start: usize) -> Vec<usize> {
    let mut seen = vec![false; graph.len()];
    let mut order = Vec::new();
    if start >= graph.len() {
        return order;
    }
    seen[start] = true;
    order.push(start);
    let mut path = vec![(start, 0)];
    while let Some((v, next)) = path.last_mut() {
        let Some(&w) = graph[*v].get(*next) else {
            path.pop();
            continue;
        };
        *next += 1;
        if w < graph.len() && !seen[w] {
            seen[w] = true;
            order.push(w);
            path.push((w, 0));
        }
    }
    order
}

fn diamond() -> Vec<Vec<usize>> {
    // 0 -> 1 -> 3, 0 -> 2 -> 3: vertex 3 is reached twice, visited once.
    vec![vec![1, 2], vec![3], vec![3], vec![]]
}

mod dfs_recursive {
    use super::*;
    use subject::dfs_recursive;

    const WHY: &str = why(
        "visit a vertex, then each neighbour in list order, skipping vertices already seen \
         (book: chapter 0, \"The recursive template\")",
    );

    #[track_caller]
    fn check(graph: &[Vec<usize>], start: usize, expected: &[usize]) {
        let call = format!("dfs_recursive({graph:?}, {start})");
        let want = say!("the preorder {expected}", ?expected);
        let got = crate::support::guard(&call, &want, WHY, || dfs_recursive(graph, start));
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected the preorder {expected}: {why}",
                call,
                ?got,
                ?expected,
                why = said(WHY)
            )
        );
    }

    #[rstest]
    #[case::a_lone_vertex(vec![vec![]], 0, vec![0])]
    #[case::a_path_goes_straight_down(vec![vec![1], vec![2], vec![]], 0, vec![0, 1, 2])]
    #[case::a_diamond_visits_the_shared_vertex_once(diamond(), 0, vec![0, 1, 3, 2])]
    #[case::a_cycle_does_not_loop(vec![vec![1], vec![2], vec![0]], 1, vec![1, 2, 0])]
    #[case::unreachable_vertices_are_left_out(vec![vec![], vec![0]], 0, vec![0])]
    #[case::a_start_outside_the_graph_reaches_nothing(vec![vec![]], 5, vec![])]
    fn visits_in_preorder(
        #[case] graph: Vec<Vec<usize>>,
        #[case] start: usize,
        #[case] expected: Vec<usize>,
    ) {
        check(&graph, start, &expected);
    }

    #[test]
    fn a_tree_of_seven_is_listed_depth_first() {
        let tree = vec![
            vec![1, 4],
            vec![2, 3],
            vec![],
            vec![],
            vec![5, 6],
            vec![],
            vec![],
        ];
        let _book = crate::support::explain(
            "chapter 0, \"The recursive template\"",
            crate::support::rule(
                "the vertices in the order the recursion first reaches them, neighbours in list order",
            ),
        );
        insta::assert_debug_snapshot!(dfs_recursive(&tree, 0));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn every_reachable_vertex_appears_exactly_once(graph in any_graph()) {
            let call = format!("dfs_recursive({graph:?}, 0)");
            let mut got = crate::support::guard(&call, &say!("every vertex reachable from 0, each once"), WHY, || dfs_recursive(&graph, 0));
            got.sort_unstable();
            prop_assert_eq!(got, reachable(&graph, 0), "{}", say!("dfs_recursive({graph}, 0), sorted, must be every vertex reachable from 0, each once: mark a vertex seen when you visit it and skip seen ones (book: chapter 0, \"The recursive template\")", ?graph));
        }
    }
}

mod dfs_stack {
    use super::*;
    use subject::dfs_stack;

    const WHY: &str = why(
        "the order the recursion finds: push neighbours so that the first one is popped first \
         (book: chapter 0, \"The explicit stack\")",
    );

    #[track_caller]
    fn check(graph: &[Vec<usize>], start: usize, expected: &[usize]) {
        let call = format!("dfs_stack({graph:?}, {start})");
        let got = crate::support::guard(&call, &format!("{expected:?}"), WHY, || {
            dfs_stack(graph, start)
        });
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected {expected}, {why}",
                call,
                ?got,
                ?expected,
                why = said(WHY)
            )
        );
    }

    #[rstest]
    #[case::a_lone_vertex(vec![vec![]], 0, vec![0])]
    #[case::a_diamond_matches_the_recursion(diamond(), 0, vec![0, 1, 3, 2])]
    #[case::a_cycle_does_not_loop(vec![vec![1], vec![2], vec![0]], 2, vec![2, 0, 1])]
    #[case::a_start_outside_the_graph_reaches_nothing(vec![vec![]], 9, vec![])]
    fn visits_in_preorder(
        #[case] graph: Vec<Vec<usize>>,
        #[case] start: usize,
        #[case] expected: Vec<usize>,
    ) {
        check(&graph, start, &expected);
    }

    #[test]
    fn a_path_of_a_million_vertices_does_not_overflow() {
        let n = 1_000_000;
        let path: Vec<Vec<usize>> = (0..n)
            .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
            .collect();
        // Guarded: a stack that is never popped would hang here unnamed.
        let got = crate::support::guard(
            &said("dfs_stack(a path 0 -> 1 -> ... -> 999999, 0)"),
            &said("0..1000000 in order"),
            WHY,
            || dfs_stack(&path, 0),
        );
        assert!(
            got.len() == n && got.iter().enumerate().all(|(i, &v)| i == v),
            "{}",
            say!(
                "dfs_stack on a path 0 -> 1 -> ... -> 999999 must list 0..1000000 in order (got {count} vertices)",
                count = got.len()
            )
        );
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_the_recursive_order(graph in any_graph(), start in 0usize..9) {
            let expected = preorder(&graph, start);
            let call = format!("dfs_stack({graph:?}, {start})");
            let got = crate::support::guard(&call, &format!("{expected:?}"), WHY, || dfs_stack(&graph, start));
            prop_assert_eq!(got, expected, "{}", say!("dfs_stack({graph}, {start}) must list vertices in the order the recursion reaches them: check `seen` when popping, push neighbours in reverse (book: chapter 0, \"The explicit stack\")", ?graph, start));
        }
    }
}

mod subsets_with_sum {
    use super::*;
    use subject::subsets_with_sum;

    const WHY: &str = why(
        "take an item before skipping it, so subsets that take early items come first \
         (book: chapter 0, \"Backtracking is DFS over choices\")",
    );

    #[track_caller]
    fn check(items: &[u32], target: u32, expected: &[Vec<u32>]) {
        let call = format!("subsets_with_sum({items:?}, {target})");
        let got = crate::support::guard(&call, &format!("{expected:?}"), WHY, || {
            subsets_with_sum(items, target)
        });
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

    #[rstest]
    #[case::nothing_sums_to_zero(vec![], 0, vec![vec![]])]
    #[case::an_empty_list_cannot_reach_a_positive_target(vec![], 3, vec![])]
    #[case::take_comes_before_skip(vec![1, 2, 3], 3, vec![vec![1, 2], vec![3]])]
    #[case::equal_items_are_distinct_choices(vec![2, 2], 2, vec![vec![2], vec![2]])]
    #[case::too_large_a_target_has_no_subset(vec![1, 2], 4, vec![])]
    fn lists_subsets_in_search_order(
        #[case] items: Vec<u32>,
        #[case] target: u32,
        #[case] expected: Vec<Vec<u32>>,
    ) {
        check(&items, target, &expected);
    }

    #[test]
    fn the_subsets_of_one_to_six_summing_to_ten() {
        let _book = crate::support::explain(
            "chapter 0, \"Backtracking is DFS over choices\"",
            crate::support::rule(
                "every subset once, in the order the search finds them: take the item before skipping it",
            ),
        );
        insta::assert_debug_snapshot!(subsets_with_sum(&[1, 2, 3, 4, 5, 6], 10));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn matches_brute_force_over_every_mask(items in proptest::collection::vec(1u32..6, 0..10), target in 0u32..15) {
            let expected: Vec<Vec<u32>> = {
                let n = items.len();
                // Masks counted so that bit i set means "item i taken" and
                // the taken-first order is the descending order of the masks
                // read with item 0 as the most significant bit.
                (0u32..1 << n)
                    .rev()
                    .map(|m| (0..n).filter(|&i| m >> (n - 1 - i) & 1 == 1).map(|i| items[i]).collect::<Vec<_>>())
                    .filter(|s: &Vec<u32>| s.iter().sum::<u32>() == target)
                    .collect()
            };
            let call = format!("subsets_with_sum({items:?}, {target})");
            let got = crate::support::guard(&call, &format!("{expected:?}"), WHY, || subsets_with_sum(&items, target));
            prop_assert_eq!(got, expected, "{}", say!("subsets_with_sum({items}, {target}) must list every subset with that sum, taking an item before skipping it (book: chapter 0, \"Backtracking is DFS over choices\")", ?items, target));
        }
    }
}

/// The islands of a map counted with no search at all: a union-find joins
/// every pair of land cells side by side, and the islands are the land
/// cells that end up their own representative.
fn islands_by_union_find(map: &str) -> usize {
    let rows: Vec<&[u8]> = map.lines().map(str::as_bytes).collect();
    let land = |r: usize, c: usize| rows.get(r).and_then(|row| row.get(c)) == Some(&b'#');
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let id = |r: usize, c: usize| r * width + c;
    let mut parent: Vec<usize> = (0..rows.len() * width).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for r in 0..rows.len() {
        for c in 0..width {
            if !land(r, c) {
                continue;
            }
            for (nr, nc) in [(r + 1, c), (r, c + 1)] {
                if land(nr, nc) {
                    let (a, b) = (root(&mut parent, id(r, c)), root(&mut parent, id(nr, nc)));
                    parent[a] = b;
                }
            }
        }
    }
    (0..rows.len())
        .flat_map(|r| (0..width).map(move |c| (r, c)))
        .filter(|&(r, c)| land(r, c) && root(&mut parent, id(r, c)) == id(r, c))
        .count()
}

mod count_islands {
    use super::*;
    use subject::islands::count_islands;

    const WHY: &str = "start one search on every land cell no earlier search reached, and let \
                       it mark the whole island through the four sides, never the corners \
                       (book: chapter 0, practice, \"Solved in the workbook: counting islands\")";

    /// Checks `count_islands` on the map whose rows are `rows`, one per line.
    #[track_caller]
    fn check(rows: &[&str], expected: usize) {
        let map = rows.join("\n");
        let call = format!("count_islands({map:?})");
        let got = crate::support::guard(&call, &format!("{expected}"), WHY, || count_islands(&map));
        assert_eq!(
            got, expected,
            "{call} returned {got}, expected {expected} island(s): {WHY}"
        );
    }

    #[rstest]
    #[case::an_empty_map_has_none(vec![], 0)]
    #[case::open_water_has_none(vec!["...", "..."], 0)]
    #[case::one_cell_of_land_is_an_island(vec!["#"], 1)]
    #[case::cells_touching_at_a_corner_are_two_islands(vec!["#.", ".#"], 2)]
    #[case::land_reached_only_leftwards_is_the_same_island(vec!["..#", "###"], 1)]
    #[case::land_reached_only_upwards_is_the_same_island(vec!["#.#", "#.#", "###"], 1)]
    #[case::a_ring_around_a_lake_is_one_island(vec!["###", "#.#", "###"], 1)]
    #[case::past_a_short_row_is_water(vec!["#", "##", "..#"], 2)]
    #[case::any_other_character_is_water(vec!["#~#", "x#o"], 3)]
    #[case::a_spiral_turns_every_way(vec!["#####", "....#", "###.#", "#...#", "#####"], 1)]
    fn counts_the_islands(#[case] rows: Vec<&str>, #[case] expected: usize) {
        check(&rows, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_a_union_find_on_random_maps(
            rows in proptest::collection::vec(proptest::collection::vec(proptest::bool::weighted(0.55), 0..8), 0..8)
        ) {
            let owned: Vec<String> = rows.iter().map(|r| r.iter().map(|&l| if l { '#' } else { '.' }).collect()).collect();
            let map = owned.join("\n");
            let expected = islands_by_union_find(&map);
            let call = format!("count_islands({map:?})");
            let got = crate::support::guard(&call, &format!("{expected}"), WHY, || count_islands(&map));
            prop_assert_eq!(got, expected, "count_islands({:?}) must count the groups of land joined side by side: {}", map, WHY);
        }
    }
}
