//! What `workbook trace` knows of each search exercise: the functions to
//! record, the instances the chapter's player uses, and how a call reads.
//!
//! The problem: a learner's search and the reference's are recorded as the
//! same calls (see `rewrite.rs`), but a call means something only in its
//! chapter's words: `place_from(square = 18, left = 4)` entered from a call
//! with 5 queens left is "placed a queen on (2, 1)". The state is this
//! table, one [`Spec`] per exercise; a [`Look`] turns one call (and the
//! call it came from) into the player's cell and the terminal's phrase.
//! Cost: constant per call.

use super::events::Call;

/// How the player draws the board of a traced exercise.
pub enum Board {
    /// A grid of `rows` x `cols` cells, thick lines every `boxed`, with the
    /// given cells filled.
    Grid {
        rows: usize,
        cols: usize,
        boxed: usize,
        given: &'static [(usize, usize, &'static str)],
    },
    /// A drawn graph: vertices at (x, y) in 0..=100, and edges.
    Graph {
        nodes: &'static [(u32, u32)],
        edges: &'static [(usize, usize)],
    },
}

/// One call as the player and the terminal show it.
pub struct Look {
    /// The cell the call is about, and the text it shows there.
    pub cell: Option<(usize, usize, String)>,
    /// What the call did, after "you" / "the reference": "placed (3, 1)".
    pub phrase: String,
}

/// One traceable exercise.
pub struct Spec {
    pub chapter: &'static str,
    pub exercise: &'static str,
    /// The player's title.
    pub title: &'static str,
    /// The functions recorded (`info.toml` keys), entry first.
    pub traced: &'static [&'static str],
    /// Arguments not shown (the same on every call, or too big to read).
    pub hidden: &'static [&'static str],
    /// Each instance: its label and the driver's body (Rust, `crate::`
    /// paths) that runs the learner's entry point on it.
    pub instances: &'static [(&'static str, &'static str)],
    pub board: Board,
    /// Reads one call, given the call it was made from (none for the entry).
    pub look: fn(&Call, Option<&Call>) -> Look,
}

/// Every traceable exercise, in the chapters' order.
pub const SPECS: &[Spec] = &[
    Spec {
        chapter: "intro",
        exercise: "dfs_recursive",
        title: "Recursive DFS: one tree node per call",
        traced: &["dfs_recursive", "visit"],
        hidden: &["graph", "seen"],
        instances: &[
            ("from vertex 0", "let _ = crate::dfs_recursive(&intro_graph(), 0);"),
            ("from vertex 4", "let _ = crate::dfs_recursive(&intro_graph(), 4);"),
            ("from vertex 6", "let _ = crate::dfs_recursive(&intro_graph(), 6);"),
        ],
        board: INTRO_GRAPH,
        look: |call, _| match call.num("v") {
            Some(v) if call.name == "visit" => Look {
                cell: (v < 7).then(|| (v, 0, String::new())),
                phrase: format!("entered vertex {v} (order so far {})", call.arg("order")),
            },
            _ => Look::call(call),
        },
    },
    Spec {
        chapter: "intro",
        exercise: "dfs_stack",
        title: "DFS with a stack: one loop, so one call and its order",
        traced: &["dfs_stack"],
        hidden: &["graph"],
        instances: &[
            ("from vertex 0", "let _ = crate::dfs_stack(&intro_graph(), 0);"),
            ("from vertex 4", "let _ = crate::dfs_stack(&intro_graph(), 4);"),
            ("from vertex 6", "let _ = crate::dfs_stack(&intro_graph(), 6);"),
        ],
        board: INTRO_GRAPH,
        look: |call, _| Look::call(call),
    },
    Spec {
        chapter: "intro",
        exercise: "subsets_with_sum",
        title: "Subsets with a sum: one tree node per decision",
        traced: &["subsets_with_sum", "choose"],
        hidden: &["found"],
        instances: &[
            ("items [1, 2, 3], target 3", "let _ = crate::subsets_with_sum(&[1, 2, 3], 3);"),
            ("items [3, 1, 2, 4], target 5", "let _ = crate::subsets_with_sum(&[3, 1, 2, 4], 5);"),
        ],
        board: Board::Grid { rows: 1, cols: 4, boxed: 0, given: &[] },
        look: |call, _| match call.name.as_str() {
            "choose" => Look {
                cell: None,
                phrase: format!(
                    "chose {} with {} left to reach and {} still to decide",
                    call.arg("chosen"),
                    call.arg("left"),
                    call.arg("rest")
                ),
            },
            _ => Look::call(call),
        },
    },
    Spec {
        chapter: "apples",
        exercise: "count_naive",
        title: "count_naive: one tree node per call",
        traced: &["count_naive"],
        hidden: &[],
        instances: &[
            ("3 people, 4 apples", "let _ = crate::count_naive(3, 4);"),
            ("2 people, 3 apples", "let _ = crate::count_naive(2, 3);"),
            ("4 people, 2 apples", "let _ = crate::count_naive(4, 2);"),
        ],
        board: Board::Grid { rows: 1, cols: 4, boxed: 0, given: &[] },
        look: apples_look,
    },
    Spec {
        chapter: "apples",
        exercise: "traced_calls",
        title: "count_naive_traced: one tree node per call",
        traced: &["count_naive_traced", "traced"],
        hidden: &[],
        instances: &[
            ("3 people, 4 apples", "let _ = crate::count_naive_traced(3, 4);"),
            ("2 people, 3 apples", "let _ = crate::count_naive_traced(2, 3);"),
            ("4 people, 2 apples", "let _ = crate::count_naive_traced(4, 2);"),
        ],
        board: Board::Grid { rows: 1, cols: 4, boxed: 0, given: &[] },
        look: apples_look,
    },
    Spec {
        chapter: "eight_queens",
        exercise: "solve",
        title: "Eight queens: place_from, one tree node per call",
        traced: &["solve", "Search::place_from"],
        hidden: &["given"],
        instances: &[(
            "the first sample",
            "let _ = crate::solve(&crate::Board::from_queens(&[(2, 7), (4, 2), (6, 1)]));",
        )],
        board: QUEENS_SAMPLE,
        look: queens_look,
    },
    Spec {
        chapter: "eight_queens",
        exercise: "count_completions",
        title: "Eight queens: count_from, one tree node per call",
        traced: &["count_completions", "count_from"],
        hidden: &["given", "board"],
        instances: &[(
            "the first sample",
            "let _ = crate::count_completions(&crate::Board::from_queens(&[(2, 7), (4, 2), (6, 1)]));",
        )],
        board: QUEENS_SAMPLE,
        look: queens_look,
    },
];

/// Chapter 0's player graph (solutions/00_intro/src/book.rs).
const INTRO_GRAPH: Board = Board::Graph {
    nodes: &[(50, 0), (20, 35), (80, 35), (35, 70), (90, 75), (55, 100), (5, 100)],
    edges: &[(0, 1), (0, 2), (1, 3), (2, 3), (2, 4), (3, 5), (4, 0), (4, 5), (6, 5)],
};

/// The driver's helpers, compiled into every chapter's scratch copy.
pub const DRIVER_PRELUDE: &str = "#[allow(dead_code)]
fn intro_graph() -> Vec<Vec<usize>> {
    vec![vec![1, 2], vec![3], vec![3, 4], vec![5], vec![0, 5], vec![], vec![5]]
}
";

/// Chapter 2's first sample: three queens given.
const QUEENS_SAMPLE: Board = Board::Grid {
    rows: 8,
    cols: 8,
    boxed: 0,
    given: &[(2, 7, "Q"), (4, 2, "Q"), (6, 1, "Q")],
};

/// A call of the apples recursion: person `people` (counted from the end)
/// gets a share; the cell is that person's.
fn apples_look(call: &Call, _: Option<&Call>) -> Look {
    match (call.num("people"), call.num("apples")) {
        (Some(p), Some(a)) => Look {
            cell: (1..=4).contains(&p).then(|| (0, 4 - p, a.to_string())),
            phrase: format!("called {}({p}, {a})", call.name),
        },
        _ => Look::call(call),
    }
}

/// A call of chapter 2's search: from its parent, one queen fewer left
/// means the previous square got a queen; the same number means it was
/// skipped.
fn queens_look(call: &Call, parent: Option<&Call>) -> Look {
    let (Some(square), Some(left)) = (call.num("square"), call.num("left")) else {
        return Look::call(call);
    };
    let parent_left = parent.and_then(|p| p.num("left"));
    match (square.checked_sub(1), parent_left) {
        (Some(prev), Some(pl)) if pl > left => Look {
            cell: Some((prev / 8, prev % 8, "Q".to_string())),
            phrase: format!("placed a queen on ({}, {}), {left} left", prev / 8, prev % 8),
        },
        (Some(prev), Some(_)) => Look {
            cell: Some((prev / 8, prev % 8, "·".to_string())),
            phrase: format!("skipped ({}, {}), {left} left", prev / 8, prev % 8),
        },
        _ => Look::call(call),
    }
}

impl Look {
    /// A call shown as written: `visit(v = 3, order = [0])`.
    pub fn call(call: &Call) -> Look {
        Look {
            cell: None,
            phrase: format!("called {}", call.spelled()),
        }
    }
}

/// The exercise `name` of `chapter`, if it can be traced.
pub fn find(chapter: &str, name: &str) -> Option<&'static Spec> {
    SPECS
        .iter()
        .find(|s| s.chapter == chapter && s.exercise == name)
}
