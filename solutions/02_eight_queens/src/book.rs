//! What the book shows of chapter 2: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch [`crate::Search::place_from`] complete
//! the contest's first sample (three queens given): square by square, put
//! a queen where it is safe, skip an attacked square saying who attacks it,
//! and take a queen back when the squares after it cannot hold the rest.
//! The state is the search's own (board, square, queens left) plus the
//! records written. The tree has a level per queen, as the page tells it
//! (see [`Entry`]), so it is never more than 8 deep; every call still
//! lights the search's first line once, and the player's `nodes` counter
//! counts those lines: the reference's `nodes`, which the tests check. It
//! costs what the search costs. The records are the plain
//! tab-separated lines `cargo xtask book build` reads
//! (core/src/players/records.rs).

use crate::{Board, N, SQUARES, count_completions, is_safe, parse_board, search_stats, solve};
use book_trace::{Code, Mark, Out, Quiz, Step, Trace, thousands};

/// A square's number as (row, column).
fn rc(square: usize) -> (usize, usize) {
    (square / N, square % N)
}

/// The contest's first sample: queens at (2, 7), (4, 2) and (6, 1).
pub const SAMPLE_ONE: [(usize, usize); 3] = [(2, 7), (4, 2), (6, 1)];
/// The sample with no answer: three queens that do not attack each other.
pub const NO_ANSWER: [(usize, usize); 3] = [(5, 7), (6, 4), (7, 1)];

/// Every record of the chapter: the player, figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    for (label, given) in INSTANCES {
        trace(&mut out, label, given);
    }
    next_quiz(&mut out);
    attack_figure(&mut out);
    solved_figure(&mut out);
    no_answer_figure(&mut out);
    quiz(&mut out);
    cut_quiz(&mut out);
    section_quizzes(&mut out);
    out.into_text()
}

/// The player's instances: the contest's first sample (the page's), the
/// first three rows of a known answer, and two given queens that attack
/// each other.
pub const INSTANCES: [(&str, &[(usize, usize)]); 3] = [
    ("the first sample", &SAMPLE_ONE),
    ("queens in rows 0 to 2", &[(0, 0), (1, 4), (2, 7)]),
    ("two queens in one column", &[(1, 3), (5, 3)]),
];

fn trace(out: &mut Out, label: &str, given: &[(usize, usize)]) {
    let code = Code::new(
        "solutions/02_eight_queens/src/search.rs",
        include_str!("search.rs"),
        "search",
    );
    let mut t = Trace::new(
        "sample-one",
        "Eight queens: place_from, one tree node per queen standing",
        label,
        code,
    );
    t.rec(&["board", "grid", "8", "8", "0"]);
    t.function("place_from");
    for (r, c) in given {
        t.rec(&["given", &r.to_string(), &c.to_string(), "♛"]);
    }
    let stats = search_stats(&Board::from_queens(given));
    t.counter(
        "nodes",
        "line:self.stats.nodes += 1;",
        "calls of place_from so far, the first one included (the nodes of search_stats)",
    );
    t.counter(
        "backtracks",
        "steps:undo",
        "queens placed and taken back so far (the backtracks of search_stats)",
    );
    t.counter(
        "depth",
        "depth",
        "queens kept so far, given ones included: the tree's level (leaving a square empty does not go deeper)",
    );
    t.total("nodes", stats.nodes);
    t.total("backtracks", stats.backtracks);
    let mut board = Board::from_queens(given);
    let solved = walk(&mut board, 0, N, Entry::Root, &mut t);
    let end = if solved {
        format!(
            "Eight queens stand and none attacks another: that is the answer, after {} nodes and {} backtracks.",
            thousands(stats.nodes),
            thousands(stats.backtracks)
        )
    } else {
        format!(
            "The first call returns false: No Answer, after {} nodes and {} backtracks.",
            thousands(stats.nodes),
            thousands(stats.backtracks)
        )
    };
    t.stay(Step::new("note", "", &end));
    t.finish(out);
}

/// How a call of [`crate::Search::place_from`] stands in the tree. The
/// page's tree has one level per queen: a call made after a queen stands
/// (placed or given) is a new node one level down; a call made after a
/// square is left empty is the same node going on along its row of squares
/// (the page: leaving a square empty does not go deeper), so the tree is
/// never more than 8 deep.
#[derive(Clone, Copy, PartialEq)]
enum Entry {
    /// The first call: the root.
    Root,
    /// After a queen stands: a child of the caller's node.
    Down,
    /// After a square is left empty: the caller's node, going on.
    Along,
}

/// [`crate::Search::place_from`], one step per decision; a node per queen
/// standing (see [`Entry`]), labelled with the call that queen leads to.
fn walk(board: &mut Board, square: usize, left: usize, how: Entry, t: &mut Trace) -> bool {
    let say = format!(
        "place_from({square}, {left}): {left} queens still to stand on squares {square}..64."
    );
    let say = if how == Entry::Root {
        "place_from(0, 8): start at square 0 with 8 queens to stand, given ones included."
    } else {
        &say
    };
    let entry = Step::new("note", "self.stats.nodes += 1;", say);
    if how == Entry::Down {
        t.down(entry);
        t.call(&format!("{square}, {left}"));
    } else {
        t.stay(entry);
        if how == Entry::Root {
            t.call(&format!("{square}, {left}"));
        }
    }
    if left == 0 {
        t.stay(
            Step::new(
                "found",
                "if left == 0",
                "No queen left to place: the board is complete.",
            )
            .mark(Mark::Solution),
        );
        return true;
    }
    if square == SQUARES {
        leave(
            t,
            how,
            Step::new(
                "note",
                "if square == SQUARES",
                &format!("{left} queens are still missing and no square is left: return false."),
            )
            .mark(Mark::Dead),
        );
        return false;
    }
    let (row, col) = (square / N, square % N);
    let at = format!("square {square} (row {row}, column {col})");
    if board.has_queen(row, col) {
        t.stay(
            Step::new(
                "try",
                "if self.board.has_queen(row, col)",
                &format!("{at} holds a given queen."),
            )
            .at(rc(square), "♛"),
        );
        if !is_safe(board, row, col) {
            let why = attacker(board, row, col);
            let say = format!("The given queen is attacked {why}: return false.");
            leave(
                t,
                how,
                Step::new("reject", "return is_safe(", &say)
                    .at(rc(square), "♛")
                    .mark(Mark::Dead),
            );
            return false;
        }
        let say = format!(
            "It is safe: keep it and call place_from({}, {}).",
            square + 1,
            left - 1
        );
        t.stay(Step::new("place", "return is_safe(", &say).at(rc(square), "♛"));
        if walk(board, square + 1, left - 1, Entry::Down, t) {
            return true;
        }
        let say = format!(
            "place_from({}, {}) failed, so place_from({square}, {left}) returns false.",
            square + 1,
            left - 1
        );
        leave(t, how, Step::new("note", "return is_safe(", &say));
        return false;
    }
    if is_safe(board, row, col) {
        t.stay(
            Step::new(
                "try",
                "if is_safe(&self.board",
                &format!("{at} is safe: place a queen."),
            )
            .at(rc(square), "♛"),
        );
        board.place(row, col);
        let say = format!(
            "{} queens left to place after this one: call place_from({}, {}).",
            left - 1,
            square + 1,
            left - 1
        );
        t.stay(Step::new("place", "self.board.place(row, col);", &say).at(rc(square), "♛"));
        if walk(board, square + 1, left - 1, Entry::Down, t) {
            return true;
        }
        board.remove(row, col);
        let say = format!(
            "The squares after {square} cannot take {} more: take this queen back (a backtrack) and leave {at} empty.",
            left - 1
        );
        t.stay(Step::new("undo", "self.board.remove(row, col);", &say).at(rc(square), ""));
    } else {
        let why = attacker(board, row, col);
        t.stay(
            Step::new(
                "try",
                "if is_safe(&self.board",
                &format!("{at}: can a queen go here?"),
            )
            .at(rc(square), ""),
        );
        let say = format!(
            "No: attacked {why}. Skip it: call place_from({}, {left}).",
            square + 1
        );
        t.stay(Step::new("reject", "if is_safe(&self.board", &say).at(rc(square), ""));
    }
    if walk(board, square + 1, left, Entry::Along, t) {
        return true;
    }
    let say = format!(
        "place_from({}, {left}) failed, so place_from({square}, {left}) returns false.",
        square + 1
    );
    leave(
        t,
        how,
        Step::new("note", "self.place_from(square + 1, left)", &say),
    );
    false
}

/// A call's return: for a call that opened a node, back to its parent
/// (the node returns false); for one going along its node, or the first
/// call, the search stays where it is.
fn leave(t: &mut Trace, how: Entry, step: Step) {
    if how == Entry::Down {
        t.ret("false");
        t.up(step);
    } else {
        t.stay(step);
    }
}

/// Which queen attacks (row, col), and along what, in words.
fn attacker(board: &Board, row: usize, col: usize) -> String {
    for (r, c) in board.queens() {
        if (r, c) == (row, col) {
            continue;
        }
        let line = if r == row {
            "along the row"
        } else if c == col {
            "along the column"
        } else if r.abs_diff(row) == c.abs_diff(col) {
            "along a diagonal"
        } else {
            continue;
        };
        return format!("{line} by the queen at ({r}, {c})");
    }
    "by no queen (this cannot happen)".to_string()
}

/// One board figure: queens, and every square they attack shaded.
fn board_figure(out: &mut Out, id: &str, board: &Board, given: &[(usize, usize)], caption: &str) {
    out.rec(&["figure", id, "grid", "8", "8", "0", caption]);
    for r in 0..N {
        for c in 0..N {
            let (text, class) = if board.has_queen(r, c) {
                (
                    "♛",
                    if given.contains(&(r, c)) {
                        "given"
                    } else {
                        "queen"
                    },
                )
            } else if !is_safe(board, r, c) {
                ("", "attacked")
            } else {
                ("", "")
            };
            if !(text.is_empty() && class.is_empty()) {
                out.rec(&["cell", &r.to_string(), &c.to_string(), text, class]);
            }
        }
    }
}

fn attack_figure(out: &mut Out) {
    let board = Board::from_queens(&SAMPLE_ONE);
    let free = (0..SQUARES)
        .filter(|&s| !board.has_queen(s / N, s % N) && is_safe(&board, s / N, s % N))
        .count();
    board_figure(
        out,
        "sample-one-attacked",
        &board,
        &SAMPLE_ONE,
        &format!(
            "The first sample's three given queens and the squares they attack (shaded): {free} squares are still free for the other five."
        ),
    );
}

fn solved_figure(out: &mut Out) {
    let given = Board::from_queens(&SAMPLE_ONE);
    let Some(done) = solve(&given) else {
        return;
    };
    let stats = search_stats(&given);
    board_figure(
        out,
        "sample-one-solved",
        &done,
        &SAMPLE_ONE,
        &format!(
            "The answer solve() prints for the first sample: the given queens on lightly shaded squares, the five it placed on darker ones; {} nodes, {} backtracks.",
            stats.nodes, stats.backtracks
        ),
    );
}

fn no_answer_figure(out: &mut Out) {
    let board = Board::from_queens(&NO_ANSWER);
    let stats = search_stats(&board);
    board_figure(
        out,
        "no-answer-attacked",
        &board,
        &NO_ANSWER,
        &format!(
            "Three queens that do not attack each other, yet no completion exists (count_completions = {}): the search proves it in {} nodes.",
            count_completions(&board),
            stats.nodes
        ),
    );
}

fn quiz(out: &mut Out) {
    let board = Board::from_queens(&SAMPLE_ONE);
    let right = count_completions(&board);
    out.quiz(Quiz {
        id: "sample-one-count",
        question: "The first sample has an answer. How many different completions of its three given queens exist?",
        right: right.to_string(),
        wrong: [right + 1, 92, 0].map(|n| n.to_string()).to_vec(),
        explain: format!(
            "count_completions says {right}: of the 92 eight-queen solutions, only {right} keep all three given queens where they stand. solve() stops at the first it meets; counting visits the whole tree."
        ),
    });
    out.why(
        &(right + 1).to_string(),
        &format!(
            "{} is one too many: count_completions visits the whole tree and finds {right} boards that keep the three given queens where they stand.",
            right + 1
        ),
    );
    out.why(
        "92",
        &format!(
            "92 counts every solution of the empty board; the three given queens rule out all but {right} of them."
        ),
    );
    out.why(
        "0",
        "0 would mean No Answer, but the player finds a board for this sample: there is at least one completion.",
    );
}

/// Which branch is cut: the first square the search refuses, and why.
fn cut_quiz(out: &mut Out) {
    let mut board = Board::from_queens(&SAMPLE_ONE);
    let first =
        (0..SQUARES).find(|&s| !board.has_queen(s / N, s % N) && is_safe(&board, s / N, s % N));
    let Some(first) = first else {
        return;
    };
    board.place(first / N, first % N);
    let refused = (first + 1..SQUARES)
        .find(|&s| !board.has_queen(s / N, s % N) && !is_safe(&board, s / N, s % N));
    let Some(refused) = refused else {
        return;
    };
    let why = attacker(&board, refused / N, refused % N);
    out.quiz(Quiz {
        id: "first-refusal",
        question: &format!(
            "On the first sample the search places its first queen on square {first}. The next square it refuses is {refused} (row {}, column {}). Why?",
            refused / N,
            refused % N
        ),
        right: format!("It is attacked {why}"),
        wrong: vec![
            "A given queen stands there".into(),
            "The search has no queen left to place".into(),
        ],
        explain: format!(
            "is_safe looks along the row, the column and both diagonals, and the queen just placed on square {first} sees square {refused}; the branch with a queen there is cut before it starts, and the search goes on with the square empty."
        ),
    });
    out.why(
        "A given queen stands there",
        &format!("Square {refused} is empty: the given queens stand at {SAMPLE_ONE:?}."),
    );
    out.why(
        "The search has no queen left to place",
        &format!(
            "{} queens are still to place after square {first} ({} given, 1 placed, of {N}).",
            N - SAMPLE_ONE.len() - 1,
            SAMPLE_ONE.len()
        ),
    );
}

/// The quizzes that close the chapter's other pages, one each.
fn section_quizzes(out: &mut Out) {
    harmless_quiz(out);
    parse_quiz(out);
    safe_square_quiz(out);
    stats_quiz(out);
}

/// Whether any given queen attacks another.
fn any_attack(given: &[(usize, usize)]) -> bool {
    let board = Board::from_queens(given);
    given.iter().any(|&(r, c)| {
        let mut others = board;
        others.remove(r, c);
        !is_safe(&others, r, c)
    })
}

/// The index page: the second kind of No Answer.
fn harmless_quiz(out: &mut Out) {
    let attack = any_attack(&NO_ANSWER);
    let count = count_completions(&Board::from_queens(&NO_ANSWER));
    let say = |attack: bool, count: u64| {
        let pair = if attack {
            "some attack each other"
        } else {
            "none attacks another"
        };
        format!("{pair}; {count} completions")
    };
    out.quiz(Quiz {
        id: "no-answer-kind",
        question: &format!(
            "The board with queens at {NO_ANSWER:?} prints No Answer. Which kind of No Answer is it?"
        ),
        right: say(attack, count),
        wrong: vec![say(!attack, count), say(!attack, 1), say(attack, 1)],
        explain: format!(
            "{}: is_safe finds every given queen safe from the other two, yet count_completions finds no way to place the other five. That is the interesting kind: the search has to try before it can say No Answer.",
            say(attack, count)
        ),
    });
    let apart = if attack {
        "two of the given queens share a line, so is_safe refuses the board as given"
    } else {
        "is_safe finds each given queen safe from the other two: no two share a row, a column or a diagonal"
    };
    let dead = if count == 0 {
        "the board prints No Answer, so count_completions finds no completion"
    } else {
        "count_completions finds a completion"
    };
    for (a, c) in [(!attack, count), (!attack, 1), (attack, 1)] {
        let reason = match (a == attack, c == count) {
            (false, true) => format!("Wrong about the queens: {apart}."),
            (true, false) => format!("Wrong about the count: {dead}."),
            _ => format!("Wrong on both counts: {apart}, and {dead}."),
        };
        out.why(&say(a, c), &reason);
    }
}

/// The input page: where parse_board points at a short line.
fn parse_quiz(out: &mut Out) {
    let text = "........\n........\n..Q.Q\n........\n........\n........\n........\n........\n";
    let right = match parse_board(text) {
        Err(e) => (e.line, e.column),
        Ok(_) => (0, 0),
    };
    let show = |(l, c): (usize, usize)| format!("line {l}, column {c}");
    out.quiz(Quiz {
        id: "parse-short-line",
        question: "The third line of an input is `..Q.Q` (five characters), every other line is `........`. Where does parse_board's error point?",
        right: show(right),
        wrong: vec![show((3, 5)), show((3, 9)), show((2, 6))],
        explain: format!(
            "{}: lines and columns are counted from 1, and a short line is reported at the column just after its last character, where the sixth square should have been.",
            show(right)
        ),
    });
    out.why(
        &show((3, 5)),
        "Column 5 holds the line's last character, a Q, which is fine; the error points at column 6, where the missing sixth square should be.",
    );
    out.why(
        &show((3, 9)),
        "Column 9 is where a line too long would be caught; this line is too short, so the error points just after its fifth character.",
    );
    out.why(
        &show((2, 6)),
        "Line 2 is a full row of eight dots; lines are counted from 1, so `..Q.Q` is line 3.",
    );
}

/// The attack page: one safe square among attacked ones.
fn safe_square_quiz(out: &mut Out) {
    let board = Board::from_queens(&SAMPLE_ONE);
    let free = |safe: bool| {
        (0..SQUARES)
            .map(rc)
            .filter(move |&(r, c)| !board.has_queen(r, c) && is_safe(&board, r, c) == safe)
    };
    let safe = free(true).next().unwrap_or((0, 0));
    let attacked: Vec<(usize, usize)> = free(false).step_by(11).take(3).collect();
    let why: Vec<String> = attacked
        .iter()
        .map(|&(r, c)| format!("({r}, {c}) is attacked {}", attacker(&board, r, c)))
        .collect();
    out.quiz(Quiz {
        id: "safe-square",
        question: &format!(
            "The sample's queens stand at {SAMPLE_ONE:?}. Which of these squares does is_safe accept for a fourth queen?"
        ),
        right: format!("{safe:?}"),
        wrong: attacked.iter().map(|s| format!("{s:?}")).collect(),
        explain: format!(
            "{safe:?}: no queen shares its row, its column or a diagonal. {}.",
            why.join("; ")
        ),
    });
    for (square, reason) in attacked.iter().zip(&why) {
        out.why(&format!("{square:?}"), &format!("{reason}."));
    }
}

/// The stats page: the nodes of the No Answer board's search.
fn stats_quiz(out: &mut Out) {
    let none = search_stats(&Board::from_queens(&NO_ANSWER));
    let one = search_stats(&Board::from_queens(&SAMPLE_ONE));
    out.quiz(Quiz {
        id: "no-answer-nodes",
        question: &format!(
            "search_stats on the sample board counts {} nodes and {} backtracks. How many nodes does it count on the No Answer board {NO_ANSWER:?}?",
            one.nodes, one.backtracks
        ),
        right: thousands(none.nodes),
        wrong: vec![
            thousands(none.backtracks),
            SQUARES.to_string(),
            thousands(none.nodes * 2),
        ],
        explain: format!(
            "{} nodes, with {} backtracks: with no answer the search cannot stop at a first board, so it tries every way the five queens could go before it gives up. Nodes are calls of place_from, the same on every machine.",
            thousands(none.nodes),
            thousands(none.backtracks)
        ),
    });
    out.why(
        &thousands(none.backtracks),
        &format!(
            "{} counts the backtracks, the queens taken back, not every node: each call of place_from is a node, whether it places a queen or not.",
            thousands(none.backtracks)
        ),
    );
    out.why(
        &SQUARES.to_string(),
        &format!(
            "{SQUARES} is the squares of the board; the search meets the same square in many branches, once per branch, so it enters far more nodes."
        ),
    );
    out.why(
        &thousands(none.nodes * 2),
        &format!(
            "{} is twice the count: search_stats counts each call of place_from once.",
            thousands(none.nodes * 2)
        ),
    );
}

/// "What happens next?" at the player's first backtrack: the reader sees
/// the step before it and predicts it.
fn next_quiz(out: &mut Out) {
    if let Some(k) = ["undo", "reject"]
        .into_iter()
        .find_map(|kind| out.step_before_first("sample-one", 0, kind))
    {
        out.next_step_quiz("next-sample-one", "sample-one", 0, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_quizzes_answer_what_the_reference_computes() {
        let text = records();
        let right = |id: &str| book_trace::answer(&text, id).expect("quiz");
        assert_eq!(
            right("no-answer-kind").0,
            "none attacks another; 0 completions"
        );
        assert_eq!(right("parse-short-line").0, "line 3, column 6");
        let (safe, choices) = right("safe-square");
        assert_eq!(choices, 4);
        let board = Board::from_queens(&SAMPLE_ONE);
        let square: Vec<usize> = safe
            .trim_matches(['(', ')'])
            .split(", ")
            .filter_map(|n| n.parse().ok())
            .collect();
        assert!(is_safe(&board, square[0], square[1]), "{safe}");
        let nodes = search_stats(&Board::from_queens(&NO_ANSWER)).nodes;
        assert_eq!(right("no-answer-nodes").0, thousands(nodes));
    }

    #[test]
    fn the_queens_left_on_the_players_board_are_the_answer_and_the_totals_hold() {
        // Trace::finish panics when a counter misses the reference's total.
        assert!(records().contains("total\tnodes\t"));
        for (label, given) in INSTANCES {
            let mut board = Board::from_queens(given);
            let code = Code::new("search.rs", include_str!("search.rs"), "search");
            let mut t = Trace::new("x", "x", label, code);
            let solved = walk(&mut board, 0, N, Entry::Root, &mut t);
            let want = solve(&Board::from_queens(given));
            assert_eq!(solved, want.is_some(), "{label}");
            if solved {
                assert_eq!(Some(board), want);
            }
        }
    }
}
