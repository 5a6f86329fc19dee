//! What the book shows of chapter 5: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch the seed's plain search
//! ([`crate::plain_dfs`]) find a tour of the 5 x 5 board from its top-right
//! corner: try the eight moves in order, skip those that leave the board
//! or land on a visited square, number the square, and rub the number out
//! at a dead end. The state is the search's own (board of move numbers,
//! square, next number) plus the records written. One `try` per attempt,
//! so the player's node counter is the reference's `attempts`, which the
//! tests check along with the tour; it costs what the search costs. The
//! records are the plain tab-separated lines `cargo xtask book build` reads
//! (core/src/players/records.rs).

use crate::board::{Board, SEED_MOVES, Square, Step, knight_moves, validate};
use crate::{closed_tour, count_tours_from, open_tour, plain_dfs, seed_dfs};
use book_trace::{Code, Mark, Out, Quiz, Trace, thousands};

/// The player's board and start: 5 x 5 from the top-right corner, the
/// corner where the seed's move order finds a tour in about 1,400 attempts
/// (from the seed's own corner, bottom right, it takes 410,537).
pub const N: usize = 5;
pub const START: Square = (0, 4);

/// Every record of the chapter: the player, figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    for (label, n, start) in INSTANCES {
        trace(&mut out, label, n, start);
    }
    next_quiz(&mut out);
    small_figure(&mut out);
    eight_figure(&mut out);
    big_figure(&mut out);
    closed_figure(&mut out);
    quiz(&mut out);
    dead_end_quiz(&mut out);
    section_quizzes(&mut out);
    out.into_text()
}

/// The player's instances: the page's, then two 3 x 3 starts with no tour,
/// where the search must exhaust its tree to say so (every other 5 x 5
/// start takes over 20,000 attempts, too long to watch).
pub const INSTANCES: [(&str, usize, Square); 3] = [
    ("5 x 5 from the top-right corner", N, START),
    ("3 x 3 from a corner (no tour)", 3, (0, 0)),
    ("3 x 3 from (0, 1) (no tour)", 3, (0, 1)),
];

/// One step of the player (the trace crate's, not a knight's move).
type PStep<'a> = book_trace::Step<'a>;

fn trace(out: &mut Out, label: &str, n: usize, start: Square) {
    let code = Code::new(
        "solutions/05_knights_tour/src/seed.rs",
        include_str!("seed.rs"),
        "plain_dfs",
    );
    let mut t = Trace::new(
        "plain5",
        "The plain search: one tree node per numbered square",
        label,
        code,
    );
    t.rec(&["board", "grid", &n.to_string(), &n.to_string(), "0"]);
    t.function("extend");
    let search = plain_dfs(n, start, &SEED_MOVES);
    t.counter(
        "attempts",
        "steps:try",
        "moves tried so far, off the board, onto a visited square or onto a free one, plus 1 for the start (the attempts of plain_dfs)",
    );
    t.counter(
        "dead ends",
        "marks:dead",
        "squares rubbed out so far from which no move led to a free square",
    );
    t.counter(
        "depth",
        "depth",
        "moves made and not rubbed out: the number on the knight's square, minus 1",
    );
    t.total("attempts", search.attempts);
    let mut board = Board::new(n);
    board.set(start, 1);
    let one = format!("The knight starts on {start:?}: move 1.");
    t.stay(PStep::new("try", "search.board.set(start, 1);", &one).at(start, "1"));
    t.stay(PStep::new("place", "search.board.set(start, 1);", &one).at(start, "1"));
    t.call(&format!("({},{}), 2", start.0, start.1));
    let found = extend(&mut board, n, start, 2, &mut t);
    let end = if found {
        format!(
            "All {} squares are numbered: a tour, after {} attempts.",
            n * n,
            thousands(search.attempts)
        )
    } else {
        format!(
            "No tour from here, after {} attempts.",
            thousands(search.attempts)
        )
    };
    t.stay(PStep::new(
        "note",
        "tour: found.then_some(search.board)",
        &end,
    ));
    t.finish(out);
}

/// The seed search's `extend`, one `try` per attempt and one tree node per
/// numbered square (the caller's `place` step enters it).
fn extend(board: &mut Board, n: usize, at: Square, next: u32, t: &mut Trace) -> bool {
    let mut children = 0;
    for &(dr, dc) in &SEED_MOVES {
        // The loop's locals, shown under the open call in the frames panel.
        let moved = format!("(dr, dc) = ({dr:+}, {dc:+})");
        let Some(to) = step(n, at, (dr, dc)) else {
            t.locals(&moved);
            let say = format!("Move ({dr:+}, {dc:+}) from {at:?} leaves the board.");
            t.stay(PStep::new(
                "try",
                "let Some(to) = self.step(at, dr, dc) else",
                &say,
            ));
            continue;
        };
        t.locals(&format!("{moved}, to = ({}, {})", to.0, to.1));
        let seen = board.get(to);
        let free = "if self.board.get(to) == 0";
        if seen != 0 {
            let say = format!("Move ({dr:+}, {dc:+}) to {to:?}...");
            t.stay(PStep::new("try", free, &say).at(to, ""));
            let say = format!("{to:?} was visited at move {seen}.");
            t.stay(PStep::new("reject", free, &say).at(to, ""));
            continue;
        }
        let num = next.to_string();
        let say = format!("Move ({dr:+}, {dc:+}) to {to:?}: free.");
        t.stay(PStep::new("try", free, &say).at(to, &num));
        board.set(to, next);
        children += 1;
        let say = format!("{to:?} is move {next}: call extend from there.");
        t.down(PStep::new("place", "self.board.set(to, next);", &say).at(to, &num));
        t.call(&format!("({},{}), {}", to.0, to.1, next + 1));
        if extend(board, n, to, next + 1, t) {
            return true;
        }
    }
    let full = next as usize > n * n;
    if full {
        let say = "All eight moves tried and every square is numbered: return true.";
        t.stay(PStep::new("found", "next as usize > self.n * self.n", say).mark(Mark::Solution));
        return true;
    }
    if next > 2 {
        board.set(at, 0);
        let say = if children == 0 {
            format!(
                "Dead end after move {}: no move reaches a free square; rub out {at:?}.",
                next - 1
            )
        } else {
            format!(
                "Every move from {at:?} failed: rub out move {} and go back.",
                next - 1
            )
        };
        let step = PStep::new("undo", "self.board.set(to, 0);", &say).at(at, "");
        t.ret("false");
        t.up(if children == 0 {
            step.mark(Mark::Dead)
        } else {
            step
        });
    }
    false
}

fn step(n: usize, (row, col): Square, (dr, dc): Step) -> Option<Square> {
    let to = (row.checked_add_signed(dr)?, col.checked_add_signed(dc)?);
    (to.0 < n && to.1 < n).then_some(to)
}

/// A tour as a figure: every square numbered (small boards) and the path.
fn tour_figure(out: &mut Out, id: &str, board: &Board, numbers: bool, boxed: usize, caption: &str) {
    let n = board.size().to_string();
    out.rec(&["figure", id, "grid", &n, &n, &boxed.to_string(), caption]);
    let Some(path) = board.path() else {
        return;
    };
    if numbers {
        for (k, &(r, c)) in path.iter().enumerate() {
            out.rec(&[
                "cell",
                &r.to_string(),
                &c.to_string(),
                &(k + 1).to_string(),
                "",
            ]);
        }
    }
    let points: Vec<String> = path.iter().map(|(r, c)| format!("{r},{c}")).collect();
    out.rec(&["line", &points.join(" ")]);
}

fn small_figure(out: &mut Out) {
    let search = plain_dfs(N, START, &SEED_MOVES);
    let Some(tour) = search.tour else {
        return;
    };
    tour_figure(
        out,
        "tour5",
        &tour,
        true,
        0,
        &format!(
            "The tour the player ends on: 5 x 5 from the top-right corner (filled dot) to move 25 (ring), found after {} attempts.",
            thousands(search.attempts)
        ),
    );
}

fn eight_figure(out: &mut Out) {
    let Some(tour) = open_tour(8, (0, 0)) else {
        return;
    };
    tour_figure(
        out,
        "warnsdorff8",
        &tour,
        true,
        0,
        "An open tour of 8 x 8 from the top-left corner by Warnsdorff's rule (open_tour): always move to the square with the fewest onward moves.",
    );
}

fn big_figure(out: &mut Out) {
    let n = 30;
    let Some(tour) = open_tour(n, (0, 0)) else {
        return;
    };
    tour_figure(
        out,
        "warnsdorff30",
        &tour,
        false,
        0,
        &format!(
            "Warnsdorff's rule on 30 x 30 (900 moves) as a line, from the top-left corner (filled dot) to the last move (ring); the first {EARLY} moves are drawn thick: the rule runs along the edges first and leaves the middle, which has the most exits, for late."
        ),
    );
    if let Some(path) = tour.path() {
        let early: Vec<String> = path
            .iter()
            .take(EARLY)
            .map(|(r, c)| format!("{r},{c}"))
            .collect();
        out.rec(&["line", &early.join(" "), "early"]);
    }
}

/// How many of the 30 x 30 tour's first moves its figure draws thick.
const EARLY: usize = 225;

fn closed_figure(out: &mut Out) {
    let Some(path) = closed_tour(12).and_then(|tour| tour.path()) else {
        return;
    };
    // Draw the closing move too: the path returns to its first square.
    let mut points: Vec<String> = path.iter().map(|(r, c)| format!("{r},{c}")).collect();
    points.push(points[0].clone());
    out.rec(&[
        "figure",
        "closed12",
        "grid",
        "12",
        "12",
        "6",
        "A closed tour of 12 x 12 (closed_tour): four 6 x 6 closed tours, one per quarter (thick lines), joined where the quarters meet by swapping four edges around the centre, so the four cycles become one (the four moves that cross between quarters are drawn thick); the last move returns to the first square, the top-left corner.",
    ]);
    out.rec(&["line", &points.join(" ")]);
    // The moves that cross from one quarter into another are the joins.
    let quarter = |(r, c): Square| (r / 6, c / 6);
    for pair in path
        .windows(2)
        .chain(std::iter::once(&[path[path.len() - 1], path[0]][..]))
    {
        if quarter(pair[0]) != quarter(pair[1]) {
            let (a, b) = (pair[0], pair[1]);
            out.rec(&["line", &format!("{},{} {},{}", a.0, a.1, b.0, b.1), "join"]);
        }
    }
}

fn quiz(out: &mut Out) {
    let search = plain_dfs(N, START, &SEED_MOVES);
    let seed = plain_dfs(N, (N - 1, N - 1), &SEED_MOVES);
    // Rounded to two significant digits, as a reader would guess them.
    let round = |x: u64| {
        let scale = 10u64.pow((x.max(1).ilog10()).saturating_sub(1));
        (x + scale / 2) / scale * scale
    };
    let ratio = round(seed.attempts / search.attempts.max(1));
    out.quiz(Quiz {
        id: "corner-work",
        question: &format!(
            "The same plain search, the same move order, the same 5 x 5 board: from the top-right corner it makes about {} attempts. From the bottom-right corner (the seed's start), about how many?",
            round(search.attempts)
        ),
        right: format!("About {ratio} times as many"),
        wrong: vec![
            "About the same: the corners are symmetric".into(),
            "None: there is no tour from that corner".into(),
        ],
        explain: format!(
            "{} attempts against {}: the board is symmetric but the fixed move order is not, so one corner meets a good first move early and the other explores a huge subtree first. That is why the plain search is only practical to about 7 x 7, and why Warnsdorff's rule orders the moves.",
            thousands(seed.attempts),
            thousands(search.attempts)
        ),
    });
    out.why(
        "About the same: the corners are symmetric",
        "The board is symmetric, but the fixed move order is not: from this corner the first jumps tried lead into a huge subtree with no tour.",
    );
    out.why(
        "None: there is no tour from that corner",
        "Every corner has the colour of 13 squares, the one a 5 x 5 tour starts on; the seed's search does find a tour from it, after many attempts.",
    );
}

/// Predict the first backtrack of the player's run.
fn dead_end_quiz(out: &mut Out) {
    let mut trace = Out::default();
    let (label, n, start) = INSTANCES[0];
    self::trace(&mut trace, label, n, start);
    // The first undo rubs out move k; the knight was stuck after it.
    let first = trace
        .text()
        .lines()
        .find(|l| l.starts_with("step\tundo"))
        .and_then(|l| l.split("move ").nth(1))
        .and_then(|rest| rest.split(':').next())
        .and_then(|k| k.parse::<u32>().ok());
    let Some(first) = first else {
        return;
    };
    out.quiz(Quiz {
        id: "first-dead-end",
        question: "In the player's run, after which move does the knight first get stuck and back up?",
        right: format!("after move {first}"),
        wrong: [25, 5, 12].map(|k| format!("after move {k}")).to_vec(),
        explain: format!(
            "After move {first}: every one of its eight moves leaves the board or lands on a visited square, but squares are still unvisited, so the search rubs out move {first} and tries the next move from the square before. Press the player's \"next dead end\" button (or the d key) once to see it."
        ),
    });
    for k in [25u32, 5, 12] {
        let why = if k as usize == N * N {
            format!("Move {k} fills the board: that ends the tour, it is not a dead end.")
        } else if k < first {
            format!(
                "After move {k} the knight still has a free square to jump to; it is first stuck after move {first}."
            )
        } else {
            format!("The search backs up from move {first} before it first reaches move {k}.")
        };
        if k != first {
            out.why(&format!("after move {k}"), &why);
        }
    }
}

/// The quizzes that close the chapter's other pages, one each.
fn section_quizzes(out: &mut Out) {
    moves_quiz(out);
    warnsdorff_quiz(out);
    closed_quiz(out);
    counting_quiz(out);
    seed_attempts_quiz(out);
    sweep_quiz(out);
}

/// The index page: how many jumps a square has.
fn moves_quiz(out: &mut Out) {
    let at = |sq: Square| knight_moves(N, sq, &SEED_MOVES).len();
    let (corner, edge, centre) = (at((0, 0)), at((0, 2)), at((2, 2)));
    let say = |a: usize, b: usize, c: usize| format!("{a}, {b} and {c}");
    out.quiz(Quiz {
        id: "moves-5",
        question: "On the 5 x 5 board, how many jumps does knight_moves list from the corner (0, 0), from the middle of an edge (0, 2), and from the centre (2, 2)?",
        right: say(corner, edge, centre),
        wrong: vec![say(3, 5, 8), say(2, 3, 4), say(8, 8, 8)],
        explain: format!(
            "{}: a jump that would leave the board is not a move, so the corner keeps 2 of its 8, the edge square {edge}; only a square at least two away from every edge keeps all {centre}. Few exits is what Warnsdorff's rule looks at.",
            say(corner, edge, centre)
        ),
    });
    out.why(
        &say(3, 5, 8),
        "These are a king's moves, one square any way; a knight jumps two squares one way and one the other.",
    );
    out.why(
        &say(2, 3, 4),
        "These are the squares beside each one along a row or a column; a knight jumps two squares one way and one the other.",
    );
    out.why(
        &say(8, 8, 8),
        "8 is every jump a knight has on an open board; knight_moves drops the jumps that would leave the board.",
    );
}

/// The warnsdorff page: the rule's first choice from the corner.
fn warnsdorff_quiz(out: &mut Out) {
    let n = 8;
    let second = open_tour(n, (0, 0))
        .and_then(|b| b.path())
        .and_then(|p| p.get(1).copied())
        .unwrap_or((0, 0));
    let free = |sq: Square| knight_moves(n, sq, &SEED_MOVES).len() - 1;
    let show = |sq: Square| format!("{sq:?}");
    let other = if second == (1, 2) { (2, 1) } else { (1, 2) };
    out.quiz(Quiz {
        id: "warnsdorff-first",
        question: "open_tour(8, (0, 0)) follows Warnsdorff's rule from a corner of 8 x 8. Which square does it jump to first?",
        right: show(second),
        wrong: vec![show(other), show((2, 2)), show((3, 3))],
        explain: format!(
            "{}: the corner's only jumps go to (1, 2) and (2, 1), and each has {} onward jumps left, a tie; the tie-break (Pohl's second look, then the move order) picks {}. (2, 2) and (3, 3) are not a knight's jump away.",
            show(second),
            free(second),
            show(second)
        ),
    });
    out.why(
        &show(other),
        &format!(
            "{} ties with {}: both have {} onward jumps left; the tie-break (Pohl's second look, then the move order) picks {}.",
            show(other),
            show(second),
            free(other),
            show(second)
        ),
    );
    out.why(
        &show((2, 2)),
        "(2, 2) is two squares along a diagonal, not a knight's jump: a jump goes two squares one way and one the other.",
    );
    out.why(
        &show((3, 3)),
        "(3, 3) is three squares along a diagonal, not a knight's jump away from (0, 0).",
    );
}

/// The closed page: which boards have a closed tour.
fn closed_quiz(out: &mut Out) {
    let has: Vec<usize> = (4..=7).filter(|&n| closed_tour(n).is_some()).collect();
    let list = |v: &[usize]| {
        let s: Vec<String> = v.iter().map(usize::to_string).collect();
        s.join(" and ")
    };
    out.quiz(Quiz {
        id: "closed-which",
        question: "For which of n = 4, 5, 6, 7 does closed_tour(n) return a closed tour?",
        right: list(&has),
        wrong: vec![list(&[4, 6]), list(&[5, 7]), list(&[4, 5, 6, 7])],
        explain: format!(
            "Only {}: a closed tour alternates colours around a cycle, so it needs an even number of squares, which rules out 5 and 7; 4 x 4 is even but too small, no closed (or open) tour exists on it.",
            list(&has)
        ),
    });
    out.why(
        &list(&[4, 6]),
        "4 x 4 has an even number of squares but is too small: no tour at all exists on it, closed or open.",
    );
    out.why(
        &list(&[5, 7]),
        "5 x 5 and 7 x 7 have an odd number of squares; a closed tour alternates colours around a cycle, so it needs an even number.",
    );
    out.why(
        &list(&[4, 5, 6, 7]),
        "A closed tour needs an even number of squares, which rules out 5 and 7, and 4 x 4 has no tour at all.",
    );
}

/// The counting page: a start on the wrong colour.
fn counting_quiz(out: &mut Out) {
    let corner = count_tours_from(N, (0, 0));
    let beside = count_tours_from(N, (0, 1));
    out.quiz(Quiz {
        id: "count-beside-corner",
        question: &format!(
            "From the corner of 5 x 5 there are {corner} open tours. How many does count_tours_from(5, (0, 1)) find, one square along the edge?"
        ),
        right: beside.to_string(),
        wrong: vec![corner.to_string(), (corner / 2).to_string(), "56".into()],
        explain: format!(
            "{beside}: (0, 1) is not on the corners' colour. 25 squares alternate colours, so a tour starts and ends on the colour with 13 squares, the corners' one; (0, 1) is on the other, so no tour can start there, and the count needs no search."
        ),
    });
    out.why(
        &corner.to_string(),
        &format!(
            "{corner} is the count from the corner; (0, 1) is on the other colour, the one with 12 squares, and no tour can start there."
        ),
    );
    out.why(
        &(corner / 2).to_string(),
        &format!(
            "{} is half the corner's count, as if a start beside it did half as well; the colour argument leaves it no tour at all.",
            corner / 2
        ),
    );
    out.why(
        "56",
        "56 would need tours from (0, 1); the 25 squares alternate colours, a tour starts and ends on the colour with 13, and (0, 1) is on the other.",
    );
}

/// The measurements page: the seed's attempts, a count, not a time.
fn seed_attempts_quiz(out: &mut Out) {
    let run = seed_dfs(N);
    out.quiz(Quiz {
        id: "seed-attempts-5",
        question: "The seed's search on 5 x 5 starts in the bottom-right corner and tries the eight jumps in its fixed order. How many moves does it attempt before it finds a tour?",
        right: thousands(run.attempts),
        wrong: vec!["24".into(), "304".into(), thousands(run.attempts * 8)],
        explain: format!(
            "{}: a search that never backed up would attempt 24 moves (one per square after the first); every dead end costs the attempts below it. 304 is the number of tours from a corner, all of which a count would visit.",
            thousands(run.attempts)
        ),
    });
    out.why(
        "24",
        "24 would be a search that never backs up, one move per square after the first; every dead end costs the attempts below it.",
    );
    out.why(
        "304",
        "304 is the number of tours from a corner, not a count of attempts.",
    );
    out.why(
        &thousands(run.attempts * 8),
        &format!(
            "{} is eight times the answer, as if every attempt were all eight jumps; an attempt is one jump tried, counted once.",
            thousands(run.attempts * 8)
        ),
    );
}

/// The sweep page: every start that has an open tour, validated.
fn sweep_quiz(out: &mut Out) {
    let starts = (0..N * N)
        .map(|i| (i / N, i % N))
        .filter(|&sq| open_tour(N, sq).is_some_and(|b| validate(&b, false).is_ok()))
        .count();
    out.quiz(Quiz {
        id: "sweep-starts-5",
        question: "From how many of the 25 squares of 5 x 5 does open_tour return a tour that validate accepts?",
        right: starts.to_string(),
        wrong: vec!["25".into(), "12".into(), "6".into()],
        explain: format!(
            "{starts}: every square of the corners' colour, and none of the other 12, which the colour argument rules out; the sweep's table reports such counts for every n, each tour checked by validate."
        ),
    });
    out.why(
        "25",
        "25 is every square; the 12 squares off the corners' colour can start no tour, since a tour starts and ends on the colour with 13.",
    );
    out.why(
        "12",
        "12 is the number of squares on the other colour, the ones that can start no tour.",
    );
    out.why(
        "6",
        "6 is too few: with Warnsdorff's rule, open_tour finds a tour from every square of the corners' colour.",
    );
}

/// "What happens next?" at the player's first backtrack: the reader sees
/// the step before it and predicts it.
fn next_quiz(out: &mut Out) {
    if let Some(k) = ["undo", "reject"]
        .into_iter()
        .find_map(|kind| out.step_before_first("plain5", 0, kind))
    {
        out.next_step_quiz("next-plain5", "plain5", 0, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_quizzes_answer_what_the_reference_computes() {
        let text = records();
        let right = |id: &str| book_trace::answer(&text, id).expect("quiz");
        assert_eq!(right("moves-5").0, "2, 4 and 8");
        assert_eq!(right("closed-which").0, "6");
        assert_eq!(right("count-beside-corner").0, "0");
        assert_eq!(right("sweep-starts-5").0, "13");
        assert_eq!(right("seed-attempts-5").0, thousands(seed_dfs(N).attempts));
        let second = right("warnsdorff-first").0;
        assert!(second == "(1, 2)" || second == "(2, 1)", "{second}");
        for id in [
            "moves-5",
            "warnsdorff-first",
            "closed-which",
            "count-beside-corner",
            "seed-attempts-5",
            "sweep-starts-5",
        ] {
            assert_eq!(right(id).1, 4, "{id}");
        }
    }

    #[test]
    fn the_player_makes_the_references_attempts_and_ends_on_its_tour() {
        // Trace::finish checks the attempts against plain_dfs.
        for (label, n, start) in INSTANCES {
            let code = Code::new("seed.rs", include_str!("seed.rs"), "plain_dfs");
            let mut t = Trace::new("x", "x", label, code);
            let mut board = Board::new(n);
            board.set(start, 1);
            t.call(&format!("({},{}), 2", start.0, start.1));
            let found = extend(&mut board, n, start, 2, &mut t);
            let search = plain_dfs(n, start, &SEED_MOVES);
            assert_eq!(found.then_some(board), search.tour, "{label}");
        }
        assert!(records().contains("Dead end after move"));
    }
}
