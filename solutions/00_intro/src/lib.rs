//! Chapter 0: depth-first search in its two shapes.
//!
//! The problem: visit every vertex reachable from a start vertex of a graph
//! given as adjacency lists, going as deep as possible before backing up.
//! The state is the set of vertices already seen plus either the call stack
//! (the recursive shape) or a stack we own (the explicit shape). Each vertex
//! and each edge is handled once, so both shapes cost O(V + E) time and
//! O(V) memory.
//!
//! The last exercise turns the same idea into backtracking: the "graph" is
//! the tree of partial choices, and nothing needs a `seen` set because a
//! tree never reaches a node twice.

/// A graph as adjacency lists: `graph[v]` lists the neighbours of `v` in the
/// order they should be tried.
pub type Graph = [Vec<usize>];

// ANCHOR: dfs_recursive
/// The vertices reachable from `start`, in the order a recursive
/// depth-first search first reaches them (preorder). Neighbours are tried
/// in the order `graph` lists them. A `start` outside the graph reaches
/// nothing, and so does a neighbour index outside it.
pub fn dfs_recursive(graph: &Graph, start: usize) -> Vec<usize> {
    let mut seen = vec![false; graph.len()];
    let mut order = Vec::new();
    visit(graph, start, &mut seen, &mut order);
    order
}

/// One step of the recursive template: mark, record, then go deeper
/// through every neighbour not seen yet.
fn visit(graph: &Graph, v: usize, seen: &mut [bool], order: &mut Vec<usize>) {
    if v >= graph.len() || seen[v] {
        return;
    }
    seen[v] = true;
    order.push(v);
    for &next in &graph[v] {
        visit(graph, next, seen, order);
    }
}
// ANCHOR_END: dfs_recursive

// ANCHOR: dfs_stack
/// The same order as [`dfs_recursive`], found with a stack we own instead of
/// the call stack, so a path of a million vertices cannot overflow anything.
pub fn dfs_stack(graph: &Graph, start: usize) -> Vec<usize> {
    let mut seen = vec![false; graph.len()];
    let mut order = Vec::new();
    let mut stack = vec![start];
    while let Some(v) = stack.pop() {
        if v >= graph.len() || seen[v] {
            continue;
        }
        seen[v] = true;
        order.push(v);
        // Pushed in reverse so the first neighbour is popped first, which
        // is what the recursion would have tried first.
        stack.extend(graph[v].iter().rev());
    }
    order
}
// ANCHOR_END: dfs_stack

// ANCHOR: subsets
/// Every subset of `items` whose sum is exactly `target`, each listed in the
/// order its elements appear in `items`; subsets are listed in the order a
/// depth-first search that first *takes* an item and then *skips* it finds
/// them. Items are positive, so a partial sum above `target` is pruned.
pub fn subsets_with_sum(items: &[u32], target: u32) -> Vec<Vec<u32>> {
    let mut found = Vec::new();
    let mut chosen = Vec::new();
    choose(items, target, &mut chosen, &mut found);
    found
}

/// The backtracking template: decide the first remaining item, recurse on
/// the rest, then undo the decision before trying the other one.
fn choose(rest: &[u32], left: u32, chosen: &mut Vec<u32>, found: &mut Vec<Vec<u32>>) {
    let Some((&first, tail)) = rest.split_first() else {
        if left == 0 {
            found.push(chosen.clone());
        }
        return;
    };
    if first <= left {
        chosen.push(first);
        choose(tail, left - first, chosen, found);
        chosen.pop();
    }
    choose(tail, left, chosen, found);
}
// ANCHOR_END: subsets

// The practice exercise, reached as `islands::count_islands`: the tests
// name it by its module, so no `pub use` is needed (the grader's intake
// would take one copied from the stub as given, and build a new one
// without its `pub`).
pub mod islands;

// workbook: reference-only
pub mod book;
