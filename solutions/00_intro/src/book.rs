//! What the book shows of chapter 0: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch [`crate::dfs_recursive`] walk a small
//! graph (enter a vertex, find it already seen, mark it, back up) and see
//! the backtracking tree of [`crate::subsets_with_sum`]. The state is the
//! recursion's own (`seen`, the order so far, the depth) plus the records
//! written; the recorder repeats the reference's steps one event each and
//! its tests prove it reaches the same order, so it costs what the search
//! costs, O(V + E). The records are the plain tab-separated lines that
//! `cargo xtask book build` reads (see core/src/players/records.rs).

use crate::{dfs_recursive, subsets_with_sum};
use book_trace::{Code, Mark, Out, Quiz, Step, Trace};

/// The player's graph as `node` and `edge` records, each vertex labelled.
fn nodes(rec: &mut dyn FnMut(&[&str]), labels: &[String]) {
    for (v, (x, y)) in PLACES.iter().enumerate() {
        rec(&["node", &x.to_string(), &y.to_string(), &labels[v]]);
    }
    for (a, next) in graph().iter().enumerate() {
        for b in next {
            rec(&["edge", &a.to_string(), &b.to_string()]);
        }
    }
}

/// The graph of the player: the page's diamond, a second way into 3 and 5,
/// an edge back to the start (a cycle), and a vertex nothing reaches.
pub fn graph() -> Vec<Vec<usize>> {
    vec![
        vec![1, 2],
        vec![3],
        vec![3, 4],
        vec![5],
        vec![0, 5],
        vec![],
        vec![5],
    ]
}

/// Where each vertex of [`graph`] is drawn, in 0..=100 both ways.
const PLACES: [(u32, u32); 7] = [
    (50, 0),
    (20, 35),
    (80, 35),
    (35, 70),
    (90, 75),
    (55, 100),
    (5, 100),
];

/// Every record of the chapter: the player, three figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    for start in STARTS {
        trace(&mut out, start);
    }
    next_quiz(&mut out);
    order_figure(&mut out);
    subsets_figure(&mut out);
    stack_figure(&mut out);
    quiz(&mut out);
    stack_quiz(&mut out);
    subsets_quiz(&mut out);
    out.into_text()
}

/// The player's instances: the search from the page's start, 0, then
/// from 4 (a way back into 0) and from 6 (which reaches one vertex).
pub const STARTS: [usize; 3] = [0, 4, 6];

fn trace(out: &mut Out, start: usize) {
    let g = graph();
    let code = Code::new(
        "solutions/00_intro/src/lib.rs",
        include_str!("lib.rs"),
        "dfs_recursive",
    );
    let mut t = Trace::new(
        "dfs",
        "Recursive DFS: one tree node per call of visit",
        &format!("from vertex {start}"),
        code,
    );
    t.rec(&["board", "graph"]);
    t.function("visit");
    let labels: Vec<String> = (0..g.len()).map(|v| v.to_string()).collect();
    nodes(&mut |f| t.rec(f), &labels);
    let order = dfs_recursive(&g, start);
    let calls = 1 + order.iter().map(|&v| g[v].len()).sum::<usize>();
    t.counter(
        "calls",
        "steps:try",
        "calls of visit so far (one tree node each), the ones that return at once included",
    );
    t.counter(
        "seen",
        "steps:place",
        "vertices marked seen so far: the length of the order",
    );
    t.counter(
        "depth",
        "depth",
        "calls of visit open now (the current node's depth)",
    );
    t.total("calls", calls as u64);
    t.total("seen", order.len() as u64);
    t.total("depth", 0);
    t.stay(Step::new(
        "note",
        "visit(graph, start, &mut seen, &mut order);",
        &format!("dfs_recursive(graph, {start}): nothing is seen yet; call visit({start})."),
    ));
    let mut seen = vec![false; g.len()];
    let mut got = Vec::new();
    visit(&g, start, None, &mut seen, &mut got, &mut t);
    let list: Vec<String> = got.iter().map(usize::to_string).collect();
    let missed: Vec<String> = (0..g.len())
        .filter(|v| !seen[*v])
        .map(|v| v.to_string())
        .collect();
    t.stay(Step::new(
        "note",
        "-> Vec<usize>",
        &format!(
            "Every call has returned: the order is {}, that is {} vertices from {calls} calls of visit; not reached: {}.",
            list.join(", "),
            got.len(),
            if missed.is_empty() { "none".to_string() } else { missed.join(", ") }
        ),
    ));
    t.finish(out);
}

/// [`crate::dfs_recursive`]'s `visit`, one step per decision.
fn visit(
    g: &[Vec<usize>],
    v: usize,
    from: Option<usize>,
    seen: &mut [bool],
    order: &mut Vec<usize>,
    t: &mut Trace,
) {
    let via = from.map_or("the start".to_string(), |u| format!("vertex {u}"));
    t.down(
        Step::new(
            "try",
            "fn visit(",
            &format!("visit({v}), called from {via}."),
        )
        .at((v, 0), ""),
    );
    t.call(&v.to_string());
    if seen[v] {
        t.up(Step::new(
            "reject",
            "seen[v] {",
            &format!("{v} is already seen: return at once, back to {via}."),
        )
        .at((v, 0), "")
        .mark(Mark::Dead));
        return;
    }
    seen[v] = true;
    order.push(v);
    let k = order.len().to_string();
    t.stay(
        Step::new(
            "place",
            "order.push(v);",
            &format!(
                "Mark {v} seen: it is number {k} in the order. Its neighbours: {:?}.",
                g[v]
            ),
        )
        .at((v, 0), &k),
    );
    for &next in &g[v] {
        visit(g, next, Some(v), seen, order, t);
    }
    t.up(Step::new(
        "undo",
        "for &next in &graph[v]",
        &format!("Every neighbour of {v} is done: return to {via}."),
    )
    .at((v, 0), &k));
}

fn order_figure(out: &mut Out) {
    let order = dfs_recursive(&graph(), 0);
    let mut labels: Vec<String> = (0..graph().len()).map(|v| v.to_string()).collect();
    for (k, &v) in order.iter().enumerate() {
        labels[v] = format!("{v}:#{}", k + 1);
    }
    out.rec(&[
        "figure",
        "dfs-order",
        "graph",
        "0",
        "0",
        "0",
        "The player's graph; each vertex is labelled vertex:#place in the DFS order from 0 (6 is never reached).",
    ]);
    nodes(&mut |f| out.rec(f), &labels);
    for &v in &order {
        out.rec(&["cell", &v.to_string(), "0", "", "seen"]);
    }
}

/// The tree of take/skip choices for items [1, 2, 3] and target 3, as a
/// drawn graph: each node is the chosen set and what is left.
fn subsets_figure(out: &mut Out) {
    let items = [1u32, 2, 3];
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    grow(&items, 0, 3, &mut Vec::new(), None, &mut nodes, &mut edges);
    let found = subsets_with_sum(&items, 3);
    out.rec(&[
        "figure",
        "subsets-tree",
        "graph",
        "0",
        "0",
        "0",
        &format!(
            "The choices for items [1, 2, 3], target 3: left edges take, right edges skip; the filled leaves are the {} answers, the pruned \"take\" edges are never drawn.",
            found.len()
        ),
    ]);
    // Lay the tree out: x by in-order position of the leaves, y by depth.
    for (x, y, label, _) in &nodes {
        out.rec(&["node", &format!("{x:.1}"), &y.to_string(), label]);
    }
    for (a, b) in &edges {
        out.rec(&["edge", &a.to_string(), &b.to_string()]);
    }
    for (i, (_, _, _, class)) in nodes.iter().enumerate() {
        if !class.is_empty() {
            out.rec(&["cell", &i.to_string(), "0", "", class]);
        }
    }
}

type Node = (f64, u32, String, &'static str);

/// The same take-then-skip recursion as `choose`, recording nodes. Returns
/// the node's index; leaves get x positions left to right.
fn grow(
    items: &[u32],
    i: usize,
    left: u32,
    chosen: &mut Vec<u32>,
    parent: Option<usize>,
    nodes: &mut Vec<Node>,
    edges: &mut Vec<(usize, usize)>,
) -> usize {
    let me = nodes.len();
    let label = format!("{chosen:?}").replace(' ', "");
    nodes.push((0.0, i as u32 * 33, label, ""));
    if let Some(p) = parent {
        edges.push((p, me));
    }
    if i == items.len() {
        // Leaves sit left to right, a quarter of the width apart (the tree
        // has five).
        let leaves = nodes.iter().filter(|n| n.1 == nodes[me].1).count();
        nodes[me].0 = ((leaves - 1) as f64 * 25.0).min(100.0);
        nodes[me].3 = if left == 0 { "seen" } else { "" };
        return me;
    }
    let mut kids = Vec::new();
    if items[i] <= left {
        chosen.push(items[i]);
        kids.push(grow(
            items,
            i + 1,
            left - items[i],
            chosen,
            Some(me),
            nodes,
            edges,
        ));
        chosen.pop();
    }
    kids.push(grow(items, i + 1, left, chosen, Some(me), nodes, edges));
    let xs: Vec<f64> = kids.iter().map(|&k| nodes[k].0).collect();
    nodes[me].0 = xs.iter().sum::<f64>() / xs.len() as f64;
    me
}

/// [`dfs_stack`]'s loop, keeping each popped vertex and the stack after it.
fn stack_rows(g: &[Vec<usize>]) -> Vec<(usize, Vec<usize>)> {
    let mut rows = Vec::new();
    let mut seen = vec![false; g.len()];
    let mut stack = vec![0];
    while let Some(v) = stack.pop() {
        if !seen[v] {
            seen[v] = true;
            stack.extend(g[v].iter().rev());
        }
        rows.push((v, stack.clone()));
    }
    rows
}

/// The explicit stack of [`dfs_stack`] after each pop, as rows of a grid.
fn stack_figure(out: &mut Out) {
    let g = graph();
    let rows = stack_rows(&g);
    let cols = 1 + rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    out.rec(&[
        "figure",
        "dfs-stack",
        "grid",
        &rows.len().to_string(),
        &cols.to_string(),
        "0",
        "The explicit stack, one row per pop: the first column is the vertex popped (shaded when it was already seen and skipped), then the stack after pushing its neighbours in reverse, bottom to top.",
    ]);
    let mut seen = vec![false; g.len()];
    for (r, (v, stack)) in rows.iter().enumerate() {
        let class = if seen[*v] { "attacked" } else { "given" };
        seen[*v] = true;
        out.rec(&["cell", &r.to_string(), "0", &v.to_string(), class]);
        for (c, w) in stack.iter().enumerate() {
            out.rec(&[
                "cell",
                &r.to_string(),
                &(c + 1).to_string(),
                &w.to_string(),
                "",
            ]);
        }
    }
}

fn quiz(out: &mut Out) {
    let right = dfs_recursive(&graph(), 0);
    let show = |o: &[usize]| {
        o.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The breadth-first order is the classic wrong answer.
    let breadth = [0usize, 1, 2, 3, 4, 5];
    out.quiz(Quiz {
        id: "dfs-order",
        question: "In the player's graph (0: [1, 2], 1: [3], 2: [3, 4], 3: [5], 4: [0, 5], 6: [5]), in which order does the recursive DFS from 0 first reach the vertices?",
        right: show(&right),
        wrong: vec![show(&breadth), show(&[0, 2, 4, 5, 3, 1])],
        explain: format!(
            "{}: from 0 the search goes to 1, then 3, then 5 before it ever comes back to try 2; 0, 1, 2, ... is the breadth-first order, and the last choice tries the neighbours last-first. Vertex 6 is never reached.",
            show(&right)
        ),
    });
    out.why(
        &show(&breadth),
        "0, 1, 2, ... finishes every neighbour of 0 before going deeper: that is breadth-first order. The recursion calls visit(1) and stays inside it (3, then 5) before it ever tries 2.",
    );
    out.why(
        &show(&[0, 2, 4, 5, 3, 1]),
        "This tries each vertex's neighbours last-first (2 before 1), as a stack that pushes them in list order pops them. The recursive loop takes graph[v] in its own order: 1 first.",
    );
}

/// Predict the stack: what is on it right after the first pop.
fn stack_quiz(out: &mut Out) {
    let rows = stack_rows(&graph());
    let Some((_, after)) = rows.first() else {
        return;
    };
    let show = |s: &[usize]| format!("{s:?}");
    let mut reversed = after.clone();
    reversed.reverse();
    out.quiz(Quiz {
        id: "stack-first-pop",
        question: "dfs_stack starts with [0] on the player's graph and pops 0. What does the stack hold right after 0's neighbours are pushed (bottom first)?",
        right: show(after),
        wrong: vec![show(&reversed), show(&[1])],
        explain: format!(
            "{}: the neighbours [1, 2] are pushed in reverse, so 1 ends on top and is popped next, just as the recursion visits 1 first.",
            show(after)
        ),
    });
    out.why(
        &show(&reversed),
        &format!(
            "{}: pushed in list order, 2 would end on top and be popped first, so the stack would visit 2 before 1, unlike the recursion; dfs_stack pushes in reverse to keep the same order.",
            show(&reversed)
        ),
    );
    out.why(
        "[1]",
        "[1] holds one neighbour only: dfs_stack pushes every neighbour of 0 not yet seen, 1 and 2, before it pops again.",
    );
}

/// The items and target of the end-of-page quiz.
const QUIZ_ITEMS: [u32; 4] = [1, 2, 3, 4];
const QUIZ_TARGET: u32 = 5;

fn show_sets(sets: &[Vec<u32>]) -> String {
    let each: Vec<String> = sets.iter().map(|s| format!("{s:?}")).collect();
    each.join(" ")
}

/// Predict what the backtracking search returns on a slightly bigger
/// instance than the drawn one; the tempting wrong answers are the sets
/// one item short, and the answers plus a set the pruning forgets.
fn subsets_quiz(out: &mut Out) {
    let right = subsets_with_sum(&QUIZ_ITEMS, QUIZ_TARGET);
    let off_by_one = subsets_with_sum(&QUIZ_ITEMS, QUIZ_TARGET - 1);
    let reversed: Vec<Vec<u32>> = right.iter().rev().cloned().collect();
    let mut with_all = right.clone();
    with_all.push(QUIZ_ITEMS.to_vec());
    out.quiz(Quiz {
        id: "subsets-1-4",
        question: &format!(
            "subsets_with_sum({QUIZ_ITEMS:?}, {QUIZ_TARGET}) takes before it skips, item by item. What does it return, in order?"
        ),
        right: show_sets(&right),
        wrong: vec![
            show_sets(&reversed),
            show_sets(&off_by_one),
            show_sets(&with_all),
        ],
        explain: format!(
            "{} sets: the search goes down the \"take\" edges first, so the set with the smallest items comes first; a take edge whose item is bigger than what is left is cut before it is entered, so no set overshoots {QUIZ_TARGET}.",
            right.len()
        ),
    });
    out.why(
        &show_sets(&reversed),
        "These are the right sets in the wrong order: the search takes an item before it skips it, so the set with the item 1 is found before the sets without it.",
    );
    out.why(
        &show_sets(&off_by_one),
        &format!(
            "These sets add up to {}, one short of the target {QUIZ_TARGET}: they are what subsets_with_sum({QUIZ_ITEMS:?}, {}) returns.",
            QUIZ_TARGET - 1,
            QUIZ_TARGET - 1
        ),
    );
    out.why(
        &show_sets(&with_all),
        &format!(
            "The last set adds up to {}, far past {QUIZ_TARGET}: a take edge whose item is bigger than what is left is cut, so no returned set overshoots.",
            QUIZ_ITEMS.iter().sum::<u32>()
        ),
    );
}

/// "What happens next?" at the player's first backtrack: the reader sees
/// the step before it and predicts it.
fn next_quiz(out: &mut Out) {
    if let Some(k) = ["undo", "reject"]
        .into_iter()
        .find_map(|kind| out.step_before_first("dfs", 0, kind))
    {
        out.next_step_quiz("next-dfs", "dfs", 0, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_marks_the_vertices_in_the_reference_order() {
        let text = records();
        for (i, start) in STARTS.into_iter().enumerate() {
            let placed: Vec<usize> = text
                .split("trace\tdfs\t")
                .nth(i + 1)
                .expect("an instance")
                .lines()
                .filter(|l| l.starts_with("step\tplace"))
                .filter_map(|l| l.split('\t').nth(6)?.parse().ok())
                .collect();
            assert_eq!(placed, dfs_recursive(&graph(), start));
        }
    }

    #[test]
    fn the_stack_figure_pops_the_vertices_in_the_reference_order() {
        let mut firsts = Vec::new();
        for (v, _) in stack_rows(&graph()) {
            if !firsts.contains(&v) {
                firsts.push(v);
            }
        }
        assert_eq!(firsts, crate::dfs_stack(&graph(), 0));
    }

    #[test]
    fn the_subsets_quiz_answer_is_what_the_reference_returns() {
        let (right, choices) = book_trace::answer(&records(), "subsets-1-4").expect("quiz");
        assert_eq!(
            right,
            show_sets(&subsets_with_sum(&QUIZ_ITEMS, QUIZ_TARGET))
        );
        assert_eq!(right, "[1, 4] [2, 3]");
        assert_eq!(choices, 4);
    }

    #[test]
    fn every_visit_is_left_once_so_the_player_ends_at_depth_zero() {
        let text = records();
        let count = |op: &str| text.lines().filter(|l| l.starts_with(op)).count();
        assert_eq!(count("step\tplace"), count("step\tundo"));
        assert_eq!(
            count("step\ttry"),
            count("step\tplace") + count("step\treject")
        );
    }
}
