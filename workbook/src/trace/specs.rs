//! What `workbook trace` knows of each search exercise: the functions to
//! record, the instances the chapter's player uses, and how a call reads.
//!
//! The problem: a learner's search and the reference's are recorded as the
//! same calls (see `rewrite.rs`), but a call means something only in its
//! chapter's words: `place_from(square = 18, left = 4)` entered from a call
//! with 5 queens left is "placed a queen on (2, 1)". The state is this
//! table, one [`Spec`] per exercise; a [`Look`] turns one call (and the
//! call it came from) into the player's cell and the terminal's phrase.
//! Chapter 2's readings, which need the caller and the board the code
//! holds, are a room of their own (`specs/eight_queens.rs`). Cost:
//! constant per call.

pub mod eight_queens;

use super::events::Call;
use eight_queens::{QUEENS_SAMPLE, completions_board, queens_look};
use workbook_core::lang::Lang;

/// Marks an English message for `cargo xtask book extract` (it collects the
/// literals given to `tr(`) where a table needs the English text itself:
/// the title or label is translated when shown, through [`Lang::tr`].
const fn tr(english: &'static str) -> &'static str {
    english
}

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
    /// A grid that depends on the instance: given its index and the run's
    /// first call, the rows, columns, box size and given cells.
    Sized(fn(usize, Option<&Call>) -> GridSetup),
    /// A drawn graph: vertices at (x, y) in 0..=100, and edges.
    Graph {
        nodes: &'static [(u32, u32)],
        edges: &'static [(usize, usize)],
    },
}

/// A grid's rows, columns, box size and given cells (row, column, text).
pub type GridSetup = (usize, usize, usize, Vec<(usize, usize, String)>);

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
    /// Reads one call, given the call it was made from (none for the entry),
    /// in the learner's language.
    pub look: fn(&Call, Option<&Call>, &Lang) -> Look,
}

/// Every traceable exercise, in the chapters' order.
pub const SPECS: &[Spec] = &[
    Spec {
        chapter: "intro",
        exercise: "dfs_recursive",
        title: tr("Recursive DFS: one tree node per call"),
        traced: &["dfs_recursive", "visit"],
        hidden: &["graph", "seen"],
        instances: &[
            (
                tr("from vertex 0"),
                "let _ = crate::dfs_recursive(&intro_graph(), 0);",
            ),
            (
                tr("from vertex 4"),
                "let _ = crate::dfs_recursive(&intro_graph(), 4);",
            ),
            (
                tr("from vertex 6"),
                "let _ = crate::dfs_recursive(&intro_graph(), 6);",
            ),
        ],
        board: INTRO_GRAPH,
        look: |call, _, lang| match call.num("v") {
            Some(v) if call.name == "visit" => Look {
                cell: (v < 7).then(|| (v, 0, String::new())),
                phrase: lang.fill(
                    "entered vertex {v} (order so far {order})",
                    &[("v", &v), ("order", &call.arg("order"))],
                ),
            },
            _ => Look::call(call, lang),
        },
    },
    Spec {
        chapter: "intro",
        exercise: "dfs_stack",
        title: tr("DFS with a stack: one loop, so one call and its order"),
        traced: &["dfs_stack"],
        hidden: &["graph"],
        instances: &[
            (
                tr("from vertex 0"),
                "let _ = crate::dfs_stack(&intro_graph(), 0);",
            ),
            (
                tr("from vertex 4"),
                "let _ = crate::dfs_stack(&intro_graph(), 4);",
            ),
            (
                tr("from vertex 6"),
                "let _ = crate::dfs_stack(&intro_graph(), 6);",
            ),
        ],
        board: INTRO_GRAPH,
        look: |call, _, lang| Look::call(call, lang),
    },
    Spec {
        chapter: "intro",
        exercise: "subsets_with_sum",
        title: tr("Subsets with a sum: one tree node per decision"),
        traced: &["subsets_with_sum", "choose"],
        hidden: &["found"],
        instances: &[
            (
                tr("items [1, 2, 3], target 3"),
                "let _ = crate::subsets_with_sum(&[1, 2, 3], 3);",
            ),
            (
                tr("items [3, 1, 2, 4], target 5"),
                "let _ = crate::subsets_with_sum(&[3, 1, 2, 4], 5);",
            ),
        ],
        board: Board::Grid {
            rows: 1,
            cols: 4,
            boxed: 0,
            given: &[],
        },
        look: |call, _, lang| match call.name.as_str() {
            "choose" => Look {
                cell: None,
                phrase: lang.fill(
                    "chose {chosen} with {left} left to reach and {rest} still to decide",
                    &[
                        ("chosen", &call.arg("chosen")),
                        ("left", &call.arg("left")),
                        ("rest", &call.arg("rest")),
                    ],
                ),
            },
            _ => Look::call(call, lang),
        },
    },
    Spec {
        chapter: "apples",
        exercise: "count_naive",
        title: tr("count_naive: one tree node per call"),
        traced: &["count_naive"],
        hidden: &[],
        instances: &[
            (
                tr("3 people, 4 apples"),
                "let _ = crate::count_naive(3, 4);",
            ),
            (
                tr("2 people, 3 apples"),
                "let _ = crate::count_naive(2, 3);",
            ),
            (
                tr("4 people, 2 apples"),
                "let _ = crate::count_naive(4, 2);",
            ),
        ],
        board: Board::Grid {
            rows: 1,
            cols: 4,
            boxed: 0,
            given: &[],
        },
        look: apples_look,
    },
    Spec {
        chapter: "apples",
        exercise: "traced_calls",
        title: tr("traced_calls: one tree node per call"),
        traced: &["traced_calls", "traced"],
        hidden: &[],
        instances: &[
            (
                tr("3 people, 4 apples"),
                "let _ = crate::traced_calls(3, 4);",
            ),
            (
                tr("2 people, 3 apples"),
                "let _ = crate::traced_calls(2, 3);",
            ),
            (
                tr("4 people, 2 apples"),
                "let _ = crate::traced_calls(4, 2);",
            ),
        ],
        board: Board::Grid {
            rows: 1,
            cols: 4,
            boxed: 0,
            given: &[],
        },
        look: apples_look,
    },
    Spec {
        chapter: "eight_queens",
        exercise: "solve",
        title: tr("Eight queens: place_from, one tree node per queen standing"),
        traced: &["solve", "Search::place_from"],
        hidden: &["given"],
        instances: &[(
            tr("the first sample"),
            "let _ = crate::solve(&crate::Board::from_queens(&[(2, 7), (4, 2), (6, 1)]));",
        )],
        board: QUEENS_SAMPLE,
        look: queens_look,
    },
    Spec {
        chapter: "eight_queens",
        exercise: "count_completions",
        title: tr("Eight queens: count_from, one tree node per queen standing"),
        traced: &["count_completions", "count_from"],
        hidden: &["given", "board"],
        instances: &[
            (
                tr("the first sample"),
                "let _ = crate::count_completions(&crate::Board::from_queens(&[(2, 7), (4, 2), (6, 1)]));",
            ),
            // A completion that ends on the last square: a search that
            // tests "no square left" before "no queen left" misses it.
            (
                tr("a queen given in the last square"),
                "let _ = crate::count_completions(&crate::Board::from_queens(&[(1, 6), (4, 2), (7, 7)]));",
            ),
        ],
        board: Board::Sized(completions_board),
        look: queens_look,
    },
    Spec {
        chapter: "n_queens",
        exercise: "solve_all",
        title: tr("N queens: one tree node per call of search"),
        traced: &["solve_all", "search"],
        hidden: &["boards"],
        instances: QUEENS_NS,
        board: Board::Sized(queens_board),
        look: columns_look,
    },
    Spec {
        chapter: "n_queens",
        exercise: "counting",
        title: tr("N queens, counted: one tree node per call of count_from"),
        traced: &["count", "count_from"],
        hidden: &[],
        instances: &[
            ("n = 6", "let _ = crate::count(6);"),
            ("n = 4", "let _ = crate::count(4);"),
            ("n = 5", "let _ = crate::count(5);"),
        ],
        board: Board::Sized(queens_board),
        look: columns_look,
    },
    Spec {
        chapter: "n_queens",
        exercise: "flags",
        title: tr("N queens with flags: one tree node per call of search_flags"),
        traced: &["solve_all_flags", "search_flags"],
        hidden: &["boards", "flags"],
        instances: &[
            ("n = 6", "let _ = crate::solve_all_flags(6);"),
            ("n = 4", "let _ = crate::solve_all_flags(4);"),
            ("n = 5", "let _ = crate::solve_all_flags(5);"),
        ],
        board: Board::Sized(queens_board),
        look: columns_look,
    },
    Spec {
        chapter: "n_queens",
        exercise: "robot",
        title: tr("The robot: one tree node per move it is asked for"),
        traced: &[
            "robot_solutions",
            "walk_leaves",
            "climb_to_leaf",
            "QueensTree::is_up",
            "QueensTree::up_left",
            "QueensTree::is_right",
            "QueensTree::right",
            "QueensTree::is_down",
            "QueensTree::down",
            "QueensTree::process",
        ],
        hidden: &["robot"],
        instances: &[
            ("n = 6", "let _ = crate::robot_solutions(6);"),
            ("n = 4", "let _ = crate::robot_solutions(4);"),
            ("n = 5", "let _ = crate::robot_solutions(5);"),
        ],
        board: Board::Sized(queens_board),
        look: |call, _, lang| Look {
            cell: None,
            phrase: match call.name.as_str() {
                "QueensTree::is_up" => lang.tr("asked is_up").into(),
                "QueensTree::up_left" => lang
                    .tr("climbed up-left (a queen in column 0 of the next row)")
                    .into(),
                "QueensTree::is_right" => lang.tr("asked is_right").into(),
                "QueensTree::right" => lang.tr("moved the top queen one column right").into(),
                "QueensTree::is_down" => lang.tr("asked is_down").into(),
                "QueensTree::down" => lang.tr("went down (took the top queen off)").into(),
                "QueensTree::process" => lang.tr("processed a node").into(),
                _ => Look::call(call, lang).phrase,
            },
        },
    },
    Spec {
        chapter: "sudoku",
        exercise: "naive",
        title: tr("Sudoku, blanks in reading order: one tree node per call of fill"),
        traced: &["solve_naive", "fill"],
        hidden: &["blanks"],
        instances: &[(
            SUDOKU_PAGE,
            "let _ = crate::solve_naive(&crate::Grid::from_literal(SUDOKU_PAGE));",
        )],
        board: Board::Sized(sudoku_board),
        look: sudoku_look,
    },
    Spec {
        chapter: "sudoku",
        exercise: "flags",
        title: tr("Sudoku with used-flags: one tree node per call of fill_flags"),
        traced: &["solve_flags", "fill_flags"],
        hidden: &["blanks", "used"],
        instances: &[(
            SUDOKU_PAGE,
            "let _ = crate::solve_flags(&crate::Grid::from_literal(SUDOKU_PAGE));",
        )],
        board: Board::Sized(sudoku_board),
        look: sudoku_look,
    },
    Spec {
        chapter: "sudoku",
        exercise: "bitmask",
        title: tr("Sudoku with bitmasks: one tree node per call of fill_masks"),
        traced: &["solve_bitmask", "fill_masks"],
        hidden: &["blanks", "masks"],
        instances: &[(
            SUDOKU_PAGE,
            "let _ = crate::solve_bitmask(&crate::Grid::from_literal(SUDOKU_PAGE));",
        )],
        board: Board::Sized(sudoku_board),
        look: sudoku_look,
    },
    Spec {
        chapter: "sudoku",
        exercise: "fewest",
        title: tr("Sudoku, fewest candidates first: one tree node per call of branch"),
        traced: &["solve_fewest", "branch"],
        hidden: &["masks"],
        instances: &[
            (
                tr("the page's puzzle"),
                "let _ = crate::solve_fewest(&crate::Grid::from_literal(\"1.84.....7.....6..43..29.....7..5..33....64..2..9..1.....1.8........798.....5....\"));",
            ),
            (
                tr("the classic example"),
                "let _ = crate::solve_fewest(&crate::Grid::from_literal(\"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\"));",
            ),
        ],
        board: Board::Sized(sudoku_board),
        look: sudoku_look,
    },
    Spec {
        chapter: "sudoku",
        exercise: "propagation",
        title: tr("Sudoku with propagation: one tree node per call of explore"),
        traced: &["solve_propagation", "explore"],
        hidden: &["masks", "found"],
        instances: &[(
            tr("the page's puzzle"),
            "let _ = crate::solve_propagation(&crate::Grid::from_literal(\"1.84.....7.....6..43..29.....7..5..33....64..2..9..1.....1.8........798.....5....\"));",
        )],
        board: Board::Sized(sudoku_board),
        look: sudoku_look,
    },
    Spec {
        chapter: "knights_tour",
        exercise: "plain_dfs",
        title: tr("The plain search: one tree node per numbered square"),
        traced: &["plain_dfs", "Plain::extend"],
        hidden: &["moves"],
        instances: &[
            (
                tr("5 x 5 from the top-right corner"),
                "let _ = crate::plain_dfs(5, (0, 4), &crate::SEED_MOVES);",
            ),
            (
                tr("5 x 5 from the top-left corner"),
                "let _ = crate::plain_dfs(5, (0, 0), &crate::SEED_MOVES);",
            ),
        ],
        board: Board::Sized(|_, _| (5, 5, 0, Vec::new())),
        look: knights_look,
    },
    Spec {
        chapter: "knights_tour",
        exercise: "stack_dfs",
        title: tr("The stack search: one loop, so one call and its tour"),
        traced: &["stack_dfs"],
        hidden: &["moves"],
        instances: &[
            (
                tr("5 x 5 from the top-right corner"),
                "let _ = crate::stack_dfs(5, (0, 4), &crate::SEED_MOVES);",
            ),
            (
                tr("5 x 5 from the top-left corner"),
                "let _ = crate::stack_dfs(5, (0, 0), &crate::SEED_MOVES);",
            ),
        ],
        board: Board::Sized(|_, _| (5, 5, 0, Vec::new())),
        look: |call, _, lang| Look::call(call, lang),
    },
];

/// Chapter 0's player graph (solutions/00_intro/src/book.rs).
const INTRO_GRAPH: Board = Board::Graph {
    nodes: &[
        (50, 0),
        (20, 35),
        (80, 35),
        (35, 70),
        (90, 75),
        (55, 100),
        (5, 100),
    ],
    edges: &[
        (0, 1),
        (0, 2),
        (1, 3),
        (2, 3),
        (2, 4),
        (3, 5),
        (4, 0),
        (4, 5),
        (6, 5),
    ],
};

/// The driver's helpers, compiled into every chapter's scratch copy.
pub const DRIVER_PRELUDE: &str = "#[allow(dead_code)]
fn intro_graph() -> Vec<Vec<usize>> {
    vec![vec![1, 2], vec![3], vec![3, 4], vec![5], vec![0, 5], vec![], vec![5]]
}
#[allow(dead_code)]
const SUDOKU_PAGE: &str =
    \"1.84.....7.....6..43..29.....7..5..33....64..2..9..1.....1.8........798.....5....\";
";

/// The chapter player's puzzle, `SUDOKU_PAGE` in the driver (the
/// fixed-order stages take 2,095 calls on it, well under the recorder's
/// cap).
const SUDOKU_PAGE: &str = tr("the page's puzzle");

/// Chapter 3's instances: n = 6 (the robot's player), then 4 and 5.
const QUEENS_NS: &[(&str, &str)] = &[
    ("n = 6", "let _ = crate::solve_all(6);"),
    ("n = 4", "let _ = crate::solve_all(4);"),
    ("n = 5", "let _ = crate::solve_all(5);"),
];

/// An n x n board for chapter 3: n from the instance.
fn queens_board(index: usize, _: Option<&Call>) -> GridSetup {
    let n = [6, 4, 5].get(index).copied().unwrap_or(6);
    (n, n, 0, Vec::new())
}

/// A call that carries the column list `cols`: its last queen is the one
/// just placed.
fn columns_look(call: &Call, _: Option<&Call>, lang: &Lang) -> Look {
    let cols = numbers(call.arg("cols"));
    match cols.last() {
        Some(&c) if call.arg("cols").starts_with('[') => Look {
            cell: Some((cols.len() - 1, c, "Q".to_string())),
            phrase: lang.fill(
                "placed a queen on ({row}, {col}) (columns {cols})",
                &[
                    ("row", &(cols.len() - 1)),
                    ("col", &c),
                    ("cols", &format!("{cols:?}")),
                ],
            ),
        },
        _ => Look::call(call, lang),
    }
}

/// The numbers in a shown list: `[0, 2, 4]` -> 0, 2, 4.
fn numbers(shown: &str) -> Vec<usize> {
    shown
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// The 81 cells of a shown sudoku grid (`Grid(1.84...)`), 0 for blank.
fn cells(shown: &str) -> Option<Vec<u8>> {
    let inner = shown.strip_prefix("Grid(")?.strip_suffix(')')?;
    let cells: Vec<u8> = inner
        .chars()
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    (cells.len() == 81).then_some(cells)
}

/// A 9 x 9 board with the puzzle's givens, read from the entry's call.
fn sudoku_board(_: usize, first: Option<&Call>) -> GridSetup {
    let given = first
        .and_then(|c| cells(c.arg("puzzle")))
        .map(|cells| {
            cells
                .iter()
                .enumerate()
                .filter(|(_, d)| **d != 0)
                .map(|(i, d)| (i / 9, i % 9, d.to_string()))
                .collect()
        })
        .unwrap_or_default();
    (9, 9, 3, given)
}

/// A call of a sudoku search: the cells its grid has that its caller's
/// did not are the digits just written.
fn sudoku_look(call: &Call, parent: Option<&Call>, lang: &Lang) -> Look {
    let (Some(now), Some(before)) = (
        cells(call.arg("grid")),
        parent.and_then(|p| cells(p.arg("grid")).or_else(|| cells(p.arg("puzzle")))),
    ) else {
        return Look::call(call, lang);
    };
    let written: Vec<(usize, u8)> = (0..81)
        .filter(|&i| now[i] != 0 && now[i] != before[i])
        .map(|i| (i, now[i]))
        .collect();
    match written.as_slice() {
        [] => Look {
            cell: None,
            phrase: lang.fill(
                "called {name} with nothing new written",
                &[("name", &call.name)],
            ),
        },
        [(i, d)] => Look {
            cell: Some((i / 9, i % 9, d.to_string())),
            phrase: lang.fill(
                "wrote {digit} in ({row}, {col})",
                &[("digit", d), ("row", &(i / 9)), ("col", &(i % 9))],
            ),
        },
        [(i, d), rest @ ..] => Look {
            cell: Some((i / 9, i % 9, d.to_string())),
            phrase: lang.count(
                "wrote {digit} in ({row}, {col}) and {n} more cell",
                "wrote {digit} in ({row}, {col}) and {n} more cells",
                rest.len() as u64,
                &[("digit", d), ("row", &(i / 9)), ("col", &(i % 9))],
            ),
        },
    }
}

/// A call of the knight's `extend`: the knight stands on `at` with move
/// `next - 1` just made.
fn knights_look(call: &Call, _: Option<&Call>, lang: &Lang) -> Look {
    let at = numbers(call.arg("at"));
    match (at.as_slice(), call.num("next")) {
        ([r, c], Some(next)) if next >= 1 => Look {
            cell: Some((*r, *c, (next - 1).to_string())),
            phrase: lang.fill(
                "numbered ({row}, {col}) {k}",
                &[("row", r), ("col", c), ("k", &(next - 1))],
            ),
        },
        _ => Look::call(call, lang),
    }
}

/// A call of the apples recursion: person `people` (counted from the end)
/// gets a share; the cell is that person's. The call is spelled with its
/// argument names, as a return from it is ("returned 0 from
/// count_naive(people = 2, apples = 0)"): the verdict sets the two side
/// by side, and `people` and `apples` read alike as bare numbers.
fn apples_look(call: &Call, _: Option<&Call>, lang: &Lang) -> Look {
    let cell = match (call.num("people"), call.num("apples")) {
        (Some(p), Some(a)) => (1..=4).contains(&p).then(|| (0, 4 - p, a.to_string())),
        _ => None,
    };
    Look {
        cell,
        ..Look::call(call, lang)
    }
}

/// What a traced function records on entry besides its arguments, by
/// chapter and key: (chapter, key, name, expression). Chapter 2's searches
/// carry the board in `self` or a hidden argument; drawn from the call path
/// alone, a queen the learner never took back would be invisible.
pub const STATE: &[(&str, &str, &str, &str)] = &[
    ("eight_queens", "Search::place_from", "board", "self.board"),
    ("eight_queens", "count_from", "board", "*board"),
];

/// The states `spec`'s functions record (see [`STATE`]).
pub fn state_of(spec: &Spec) -> Vec<super::rewrite::State<'static>> {
    STATE
        .iter()
        .filter(|(chapter, ..)| *chapter == spec.chapter)
        .map(|&(_, key, name, expr)| (key, name, expr))
        .collect()
}

impl Look {
    /// A call shown as written: `visit(v = 3, order = [0])`.
    pub fn call(call: &Call, lang: &Lang) -> Look {
        Look {
            cell: None,
            phrase: lang.fill("called {call}", &[("call", &call.spelled())]),
        }
    }
}

/// The exercise `name` of `chapter`, if it can be traced.
pub fn find(chapter: &str, name: &str) -> Option<&'static Spec> {
    SPECS
        .iter()
        .find(|s| s.chapter == chapter && s.exercise == name)
}
