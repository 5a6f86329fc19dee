//! What the book shows of chapter 3: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch the robot of [`crate::walk_leaves`] walk
//! the tree of 6-queens positions (up-left puts a queen in the next row's
//! first column, right moves the top queen one column on, down takes it
//! off) without reading code. The state is a [`crate::QueensTree`] driven
//! by the reference walk through a robot (in `book/player.rs`) that
//! forwards every move to it and writes a step of the player's trace; it
//! mirrors the queens' columns to draw them. One step per move, so it costs
//! what the walk costs; the tests prove it finds the reference's solutions. The records are the plain tab-separated lines
//! `cargo xtask book build` reads (core/src/players/records.rs).

use crate::fast::bitmask_nodes;
use crate::{Flags, count, count_mirror, count_parallel, is_valid, robot_solutions, solutions};
use book_trace::{Out, Quiz, thousands};

mod player;
use player::{trace, walked_robot};

/// The player's board size on the robot page, then two smaller instances.
pub const N: usize = 6;
pub const SIZES: [usize; 3] = [N, 4, 5];

/// Every record of the chapter: the player, figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    for n in SIZES {
        trace(&mut out, n);
    }
    next_quiz(&mut out);
    shifts_figure(&mut out);
    symmetry_figure(&mut out);
    solution_figure(&mut out);
    tree_figure(&mut out, TREE_N);
    quiz(&mut out);
    leaves_quiz(&mut out);
    section_quizzes(&mut out);
    out.into_text()
}

/// How one queen's diagonals move as the search goes down: `left` shifts
/// one column up per row, `right` one column down (bit c is column c).
fn shifts_figure(out: &mut Out) {
    let n = 8;
    let bit: u32 = 1 << 3;
    out.rec(&[
        "figure",
        "diagonal-shifts",
        "grid",
        &n.to_string(),
        &n.to_string(),
        "0",
        "A queen in row 0, column 3 of an 8 x 8 board and what count_below passes down: each row, left = (left | bit) << 1 marks the \\ diagonal one column further right (\\), right = (right | bit) >> 1 one column further left (/), cols keeps the column (|). Shaded squares are not free.",
    ]);
    out.rec(&["cell", "0", "3", "♛", "queen"]);
    let (mut left, mut right) = (bit << 1, bit >> 1);
    for row in 1..n {
        for col in 0..n {
            let b = 1u32 << col;
            let mark = match (b & left != 0, b & right != 0, b & bit != 0) {
                (true, _, _) => "\\",
                (_, true, _) => "/",
                (_, _, true) => "|",
                _ => continue,
            };
            out.rec(&["cell", &row.to_string(), &col.to_string(), mark, "attacked"]);
        }
        left = (left << 1) & 0xff;
        right >>= 1;
    }
}

/// The 8 symmetries of the square, as maps of (row, col) on an n x n board.
fn transforms(n: usize, cols: &[usize]) -> Vec<Vec<usize>> {
    let rotate = |q: &[usize]| {
        let mut r = vec![0; n];
        for (row, &col) in q.iter().enumerate() {
            r[col] = n - 1 - row;
        }
        r
    };
    let mirror = |q: &[usize]| q.iter().map(|&c| n - 1 - c).collect::<Vec<_>>();
    let mut all = Vec::new();
    let mut q = cols.to_vec();
    for _ in 0..4 {
        all.push(q.clone());
        all.push(mirror(&q));
        q = rotate(&q);
    }
    all
}

/// How many classes the solutions of `n` queens fall into under the 8
/// symmetries of the board.
fn classes(n: usize) -> usize {
    let sols = robot_solutions(n);
    let mut seen: Vec<Vec<usize>> = Vec::new();
    let mut classes = 0;
    for s in &sols {
        if !seen.contains(s) {
            classes += 1;
            seen.extend(transforms(n, s));
        }
    }
    classes
}

/// The symmetry classes of the 6-queens solutions, boards side by side.
fn symmetry_figure(out: &mut Out) {
    let sols = robot_solutions(N);
    let classes = classes(N);
    let per_row = 2;
    let rows = sols.len().div_ceil(per_row);
    out.rec(&[
        "figure",
        "symmetry-6",
        "grid",
        &(rows * (N + 1) - 1).to_string(),
        &(per_row * (N + 1) - 1).to_string(),
        "0",
        &format!(
            "The {} solutions of 6 queens form {classes} symmetry class: each board is a rotation or a mirror image of the first, which is why count_mirror only searches half of the first row.",
            sols.len()
        ),
    ]);
    // The row and column between two boards are gaps, drawn blank, so the
    // boards read as separate boards, not one big one.
    let (h, w) = (rows * (N + 1) - 1, per_row * (N + 1) - 1);
    for r in 0..h {
        for c in 0..w {
            if r % (N + 1) == N || c % (N + 1) == N {
                out.rec(&["cell", &r.to_string(), &c.to_string(), "", "gap"]);
            }
        }
    }
    for (k, s) in sols.iter().enumerate() {
        let (r0, c0) = ((k / per_row) * (N + 1), (k % per_row) * (N + 1));
        for (r, &queen_col) in s.iter().enumerate() {
            for c in 0..N {
                let queen = queen_col == c;
                let dark = (r + c) % 2 == 1;
                let (text, class) = match (queen, dark) {
                    (true, _) => ("♛", "queen"),
                    (false, true) => ("", "dark"),
                    _ => continue,
                };
                out.rec(&[
                    "cell",
                    &(r0 + r).to_string(),
                    &(c0 + c).to_string(),
                    text,
                    class,
                ]);
            }
        }
    }
}

/// The first 8-queens solution the robot finds, with the search's shape.
fn solution_figure(out: &mut Out) {
    let sols = robot_solutions(8);
    let Some(first) = sols.first() else {
        return;
    };
    out.rec(&[
        "figure",
        "first-of-92",
        "grid",
        "8",
        "8",
        "0",
        &format!(
            "The first of the {} solutions of 8 queens in the search's order, leftmost column first in every row (columns {:?} from row 0 down); under the 8 symmetries of the board they fall into {} classes (OEIS A002562).",
            sols.len(),
            first,
            classes(8)
        ),
    ]);
    for (r, &c) in first.iter().enumerate() {
        out.rec(&["cell", &r.to_string(), &c.to_string(), "♛", "queen"]);
    }
}

fn quiz(out: &mut Out) {
    let six = count(6);
    let five = count(5);
    out.quiz(Quiz {
        id: "six-queens",
        question: "5 queens on a 5 x 5 board have 10 solutions. How many do 6 queens on 6 x 6 have?",
        right: six.to_string(),
        wrong: [five, 2 * five, 1].map(|n| n.to_string()).to_vec(),
        explain: format!(
            "{six}: count(6) says so, and the row-by-row search of this page finds exactly these boards. The counts are not monotone at the start (1, 0, 0, 2, 10, 4, 40, 92 for n = 1 to 8), and count_mirror({N}) = {} agrees by searching only half the first row.",
            count_mirror(6)
        ),
    });
    out.why(
        &five.to_string(),
        &format!(
            "{five} is the count for n = 5; the counts are not monotone at the start, and count(6) is smaller."
        ),
    );
    out.why(
        &(2 * five).to_string(),
        &format!(
            "{} doubles the count of n = 5, as if each new row doubled the boards; on 6 x 6 the new row's attacks cut more than they add.",
            2 * five
        ),
    );
    out.why(
        "1",
        &format!(
            "1 is the number of symmetry classes of the 6 x 6 boards, not the boards: its one class holds {six} boards."
        ),
    );
}

/// The count: how many leaves the robot processes on 6 x 6.
fn leaves_quiz(out: &mut Out) {
    let robot = walked_robot(N);
    let leaves = robot.leaves;
    let found = robot.found.len();
    out.quiz(Quiz {
        id: "robot-leaves",
        question: "walk_leaves processes every leaf of the 6-queens tree once: every position whose top queen is attacked, and every full board. How many leaves is that?",
        right: leaves.to_string(),
        wrong: [found, 6usize.pow(6), leaves / 2]
            .map(|n| thousands(n as u64))
            .to_vec(),
        explain: format!(
            "{leaves}: the player shows each one, {} in red (an attacked top queen) and {found} solutions. Far fewer than the 6^6 = 46,656 ways to put one queen in each row, because an attacked queen ends its branch at once.",
            leaves - found
        ),
    });
    out.why(
        &thousands(found as u64),
        &format!(
            "{found} are the full boards only; every position whose top queen is attacked is a leaf too."
        ),
    );
    out.why(
        &thousands(6u64.pow(6)),
        "6^6 = 46,656 puts one queen in each row with no check; an attacked queen ends its branch at once, so most of these are never reached.",
    );
    out.why(
        &thousands(leaves as u64 / 2),
        &format!(
            "{} is half the leaves, as if only one half of the first row were walked; walk_leaves walks the whole tree and processes each leaf once.",
            thousands(leaves as u64 / 2)
        ),
    );
}

/// The board of the robot page's tree: small enough to draw every node.
const TREE_N: usize = 4;

/// One box of the drawn tree: its level, row, label and class.
struct TreeBox {
    level: usize,
    row: f64,
    label: String,
    class: &'static str,
}

/// The tree of admissible positions drawn on its side, one column per
/// level and the root on the left: the children of a safe position (its n
/// next-row queens, leftmost column first) stand as one family of boxes,
/// top to bottom, next to it. A box is labelled with its queens' columns,
/// row 0 first; `bad` marks a dead end (the top queen is attacked),
/// `queen` a solution. A family is placed as near its parent's row as the
/// families already in its column allow, so the figure is as tall as its
/// widest level and as wide as n + 1 boxes.
fn tree_figure(out: &mut Out, n: usize) {
    let mut boxes = vec![TreeBox {
        level: 0,
        row: 0.0,
        label: "start".into(),
        class: "",
    }];
    let mut edges = Vec::new();
    let mut next_free = vec![0.0; n + 1];
    family(
        n,
        &mut Vec::new(),
        0,
        &mut boxes,
        &mut edges,
        &mut next_free,
    );
    // The root sits level with the middle of its family.
    boxes[0].row = (n as f64 - 1.0) / 2.0;
    let rows = boxes.iter().map(|b| b.row).fold(0.0, f64::max) as usize + 1;
    let dead = boxes.iter().filter(|b| b.class == "bad").count();
    let solved = boxes.iter().filter(|b| b.class == "queen").count();
    out.rec(&[
        "figure",
        &format!("tree{n}"),
        "tree",
        &rows.to_string(),
        &(n + 1).to_string(),
        "0",
        &format!(
            "The tree of admissible positions for n = {n}, on its side: the root on the left, each column one more row of queens. A box lists its queens' columns, row 0 first. {} nodes; {dead} dead ends (dashed, the top queen is attacked) and {solved} solutions (filled).",
            boxes.len()
        ),
    ]);
    for b in &boxes {
        out.rec(&[
            "node",
            &b.level.to_string(),
            &format!("{:.1}", b.row),
            &b.label,
        ]);
    }
    for (a, b) in &edges {
        out.rec(&["edge", &a.to_string(), &b.to_string()]);
    }
    for (i, b) in boxes.iter().enumerate() {
        if !b.class.is_empty() {
            out.rec(&["cell", &i.to_string(), "0", "", b.class]);
        }
    }
}

/// Places the family of children of the safe position `cols` (box
/// `parent`), then each safe child's own family, depth first.
fn family(
    n: usize,
    cols: &mut Vec<usize>,
    parent: usize,
    boxes: &mut Vec<TreeBox>,
    edges: &mut Vec<(usize, usize)>,
    next_free: &mut [f64],
) {
    let level = cols.len() + 1;
    let wanted = boxes[parent].row - (n as f64 - 1.0) / 2.0;
    let start = wanted.max(next_free[level]);
    next_free[level] = start + n as f64 + 0.5;
    for c in 0..n {
        let safe = is_valid(cols, c);
        let class = match (safe, level == n) {
            (false, _) => "bad",
            (true, true) => "queen",
            (true, false) => "",
        };
        cols.push(c);
        let label: Vec<String> = cols.iter().map(usize::to_string).collect();
        let me = boxes.len();
        boxes.push(TreeBox {
            level,
            row: start + c as f64,
            label: label.join(" "),
            class,
        });
        edges.push((parent, me));
        if safe && level < n {
            family(n, cols, me, boxes, edges, next_free);
        }
        cols.pop();
    }
}

/// The quizzes that close the chapter's other pages, one each.
fn section_quizzes(out: &mut Out) {
    small_counts_quiz(out);
    flags_quiz(out);
    mirror_quiz(out);
    first_solution_quiz(out);
    iterator_quiz(out);
    parallel_quiz(out);
    nodes_quiz(out);
    classes_quiz(out);
}

fn show(cols: &[usize]) -> String {
    format!("{cols:?}")
}

/// The index page: the small n, where the answers surprise.
fn small_counts_quiz(out: &mut Out) {
    let c = [count(0), count(2), count(3)];
    let say = |c: [u64; 3]| format!("{}, {} and {}", c[0], c[1], c[2]);
    out.quiz(Quiz {
        id: "small-n",
        question: "What do count(0), count(2) and count(3) return?",
        right: say(c),
        wrong: vec![say([0, 0, 0]), say([0, 1, 2]), say([1, 1, 1])],
        explain: format!(
            "{}: the empty board is the one solution for n = 0 (nothing to place, nothing to attack); on 2x2 and 3x3 every square of the second row is attacked by some queen of the first, so there is none.",
            say(c)
        ),
    });
    out.why(
        &say([0, 0, 0]),
        &format!(
            "count(0) is {}: the empty board is one solution, with nothing to place and nothing to attack.",
            c[0]
        ),
    );
    out.why(
        &say([0, 1, 2]),
        "On 2 x 2 and 3 x 3 every square of the second row is attacked by the queen of the first, so both have no solution; and the empty board counts once for n = 0.",
    );
    out.why(
        &say([1, 1, 1]),
        "The empty board is right for n = 0, but 2 x 2 and 3 x 3 have no solution: the queen of the first row attacks every square of the second.",
    );
}

/// The flags page: which squares one queen's three flags close.
fn flags_quiz(out: &mut Out) {
    let n = 8;
    let mut flags = Flags::new(n);
    flags.set(2, 5, true);
    let squares = [(6, 5), (4, 3), (4, 7), (7, 3)];
    let (free, taken): (Vec<_>, Vec<_>) = squares.iter().partition(|&&(r, c)| flags.is_free(r, c));
    let why = |&(r, c): &(usize, usize)| {
        let line = if c == 5 {
            "the column"
        } else if r + c == 7 {
            "the \"/\" diagonal row + col = 7"
        } else {
            "the \"\\\" diagonal row + n - 1 - col = 4"
        };
        format!("({r}, {c}) shares {line}")
    };
    out.quiz(Quiz {
        id: "flags-free",
        question: "On an 8x8 board, Flags::set(2, 5, true) records a queen at row 2, column 5. Which of these squares does is_free still accept?",
        right: free.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", "),
        wrong: taken.iter().map(|s| format!("{s:?}")).collect(),
        explain: format!(
            "Three lookups: its column, its \"/\" diagonal (row + col) and its \"\\\" diagonal (row + n - 1 - col). {}.",
            taken.iter().map(why).collect::<Vec<_>>().join("; ")
        ),
    });
    for square in &taken {
        out.why(
            &format!("{square:?}"),
            &format!(
                "{} with the queen at (2, 5), so is_free refuses it.",
                why(square)
            ),
        );
    }
}

/// The bits page: the mirror halves the first row.
fn mirror_quiz(out: &mut Out) {
    let n = 5;
    let all = robot_solutions(n);
    let left = all.iter().filter(|s| s[0] < n / 2).count();
    let middle = all.iter().filter(|s| s[0] == n / 2).count();
    out.quiz(Quiz {
        id: "mirror-5",
        question: &format!(
            "count_mirror({n}) searches the first row's left half, doubles it, and adds the middle column once. The answer is {}. How many solutions start in the left half (column 0 or 1)?",
            count_mirror(n)
        ),
        right: left.to_string(),
        wrong: vec![(all.len() / 2).to_string(), middle.to_string(), all.len().to_string()],
        explain: format!(
            "{left}: the mirror image of a solution starting in column c starts in column {} - c, so the right half holds {left} more, and the middle column holds {middle}: {left} x 2 + {middle} = {}.",
            n - 1,
            all.len()
        ),
    });
    out.why(
        &(all.len() / 2).to_string(),
        &format!(
            "{} is half of all {}, but the {middle} boards that start in the middle column are their own mirror side: the left half holds ({} - {middle}) / 2.",
            all.len() / 2,
            all.len(),
            all.len()
        ),
    );
    out.why(
        &middle.to_string(),
        &format!(
            "{middle} boards start in the middle column, the ones count_mirror adds once, not doubled."
        ),
    );
    out.why(
        &all.len().to_string(),
        &format!(
            "{} is every solution: both halves and the middle column.",
            all.len()
        ),
    );
}

/// The robot page: the first full board the robot processes.
fn first_solution_quiz(out: &mut Out) {
    let sols = robot_solutions(N);
    let first = sols.first().cloned().unwrap_or_default();
    let mirrored: Vec<usize> = first.iter().map(|c| N - 1 - c).collect();
    let second = sols.get(1).cloned().unwrap_or_default();
    out.quiz(Quiz {
        id: "robot-first",
        question: &format!(
            "The robot walks the {N}-queens tree left to right. Which board (the column of the queen in each row) does it reach first?"
        ),
        right: show(&first),
        wrong: vec![show(&mirrored), show(&second), show(&[0, 2, 4, 1, 3, 5])],
        explain: format!(
            "{}: left to right means the smallest column first in every row; no board starts in column 0 on 6x6, so the first one starts in column {}. [0, 2, 4, 1, 3, 5] looks regular, but the queens in rows 2 and 3 share a diagonal.",
            show(&first),
            first.first().copied().unwrap_or(0)
        ),
    });
    out.why(
        &show(&mirrored),
        &format!(
            "That is the first board mirrored (column c becomes {} - c): a solution too, but its row 0 queen stands further right, so the robot meets it later.",
            N - 1
        ),
    );
    out.why(
        &show(&second),
        &format!(
            "That is the second board the robot reaches, after {}.",
            show(&first)
        ),
    );
    let regular: [usize; N] = [0, 2, 4, 1, 3, 5];
    let clash = (0..N)
        .flat_map(|a| (a + 1..N).map(move |b| (a, b)))
        .find(|&(a, b)| b - a == regular[a].abs_diff(regular[b]) || regular[a] == regular[b]);
    if let Some((a, b)) = clash {
        out.why(
            &show(&regular),
            &format!(
                "The queens of rows {a} and {b} (columns {} and {}) share a diagonal: it is no solution at all.",
                regular[a], regular[b]
            ),
        );
    }
}

/// The iterator page: laziness means the work stops at the first board.
fn iterator_quiz(out: &mut Out) {
    let mut lazy = solutions(8);
    let first = lazy.next();
    let at_first = lazy.nodes_visited();
    let mut all = solutions(8);
    let total = all.by_ref().count();
    let at_end = all.nodes_visited();
    out.quiz(Quiz {
        id: "iterator-nodes",
        question: &format!(
            "solutions(8) yields {total} boards and places {at_end} queens to find them all. How many queens has it placed when next() returns the first board?"
        ),
        right: at_first.to_string(),
        wrong: vec![at_end.to_string(), (at_end / 92).to_string(), "8".into()],
        explain: format!(
            "{at_first}: the iterator only searches until it can return {:?}; the rest of the tree waits for the next call. 8 would be a search that never backs up, and {} is the average per board, not the cost of the first.",
            first.unwrap_or_default(),
            at_end / 92
        ),
    });
    out.why(
        &at_end.to_string(),
        &format!(
            "{at_end} is the cost of all {total} boards; the iterator stops as soon as it can return the first one."
        ),
    );
    out.why(
        &(at_end / 92).to_string(),
        &format!(
            "{} is the average per board ({at_end} / {total}); the first board costs what the search did before it reached it.",
            at_end / 92
        ),
    );
    out.why(
        "8",
        "8 would be a search that never backs up, each row's queen right at the first try; the first board needs many tries taken back.",
    );
}

/// The parallel page: one task per safe pair of queens in the first two
/// rows, the first in the left half (the mirror counts the right half).
fn parallel_quiz(out: &mut Out) {
    let n = 8usize;
    let tasks = (0..n.div_ceil(2))
        .map(|c| (0..n).filter(|&d| c.abs_diff(d) > 1).count())
        .sum::<usize>();
    out.quiz(Quiz {
        id: "parallel-tasks",
        question: &format!(
            "count_parallel({n}) splits the search on the first two rows: a task is a safe pair of queens in rows 0 and 1, the row 0 queen in the left half (the mirror counts the right half). It sums them to {}. How many tasks does it make?",
            count_parallel(n)
        ),
        right: tasks.to_string(),
        wrong: vec![n.to_string(), (n / 2).to_string(), (n * n / 2).to_string()],
        explain: format!(
            "{tasks}: for each of the {} left-half columns of row 0, every column of row 1 except its own and the two beside it; enough tasks for rayon to balance them across cores.",
            n.div_ceil(2)
        ),
    });
    out.why(
        &n.to_string(),
        &format!(
            "{n} would be one task per column of row 0, a split on the first row alone; the page splits on two rows, and the mirror halves row 0."
        ),
    );
    out.why(
        &(n / 2).to_string(),
        &format!(
            "{} is the left half of row 0 alone: the split on one row with the mirror, too few and too unequal tasks to balance.",
            n / 2
        ),
    );
    out.why(
        &(n * n / 2).to_string(),
        &format!(
            "{} is the page's rough n² / 2; a pair whose row 1 queen stands in the column of the row 0 queen or beside it is attacked and is no task.",
            n * n / 2
        ),
    );
}

/// The measurements page: the nodes the mirror saves, a count, not a time.
fn nodes_quiz(out: &mut Out) {
    let (plain, mirror) = bitmask_nodes(10);
    out.quiz(Quiz {
        id: "mirror-nodes-10",
        question: &format!(
            "For n = 10, count_bits places {} queens. How many does count_mirror place?",
            thousands(plain)
        ),
        right: thousands(mirror),
        wrong: [plain, plain / 4, plain * 2].map(thousands).to_vec(),
        explain: format!(
            "{}, about half: the mirror searches the left half of the first row (the middle column too when n is odd) and doubles; the nodes are counted, so this is the same on every machine, unlike the times.",
            thousands(mirror)
        ),
    });
    out.why(
        &thousands(plain),
        &format!(
            "{} is count_bits itself, the whole first row; count_mirror searches only its left half.",
            thousands(plain)
        ),
    );
    out.why(
        &thousands(plain / 4),
        &format!(
            "{} is a quarter: the mirror halves the first row once; it does not halve the rows below.",
            thousands(plain / 4)
        ),
    );
    out.why(
        &thousands(plain * 2),
        &format!(
            "{} doubles the nodes; the mirror doubles the count of boards, not the search, which places about half the queens.",
            thousands(plain * 2)
        ),
    );
}

/// The exercises page: the symmetry classes of n = 6.
fn classes_quiz(out: &mut Out) {
    let sols = robot_solutions(N).len();
    let k = classes(N);
    out.quiz(Quiz {
        id: "classes-6",
        question: &format!(
            "The 92 boards of n = 8 fall into 12 classes under the eight symmetries of the square. Into how many classes do the {sols} boards of n = {N} fall?"
        ),
        right: k.to_string(),
        wrong: vec![sols.to_string(), (sols / 2).to_string(), "3".into()],
        explain: format!(
            "{k}: each of the {sols} boards is a rotation or a mirror image of the others, so one class holds them all. A board with no symmetry of its own has 8 images; these look the same after a half turn, so they have only {sols}."
        ),
    });
    out.why(
        &sols.to_string(),
        &format!(
            "{sols} would mean no board is an image of another; here each of the {sols} is a rotation or a mirror image of the others."
        ),
    );
    out.why(
        &(sols / 2).to_string(),
        &format!(
            "{} classes would keep a board apart from some of its images; a quarter turn and a mirror take each board to every other one, so they are one class.",
            sols / 2
        ),
    );
    out.why(
        "3",
        &format!(
            "A class holds a board with all its images, and here every board is an image of the others: 3 classes cannot share {sols} such boards."
        ),
    );
}

/// "What happens next?" at the player's first backtrack: the reader sees
/// the step before it and predicts it.
fn next_quiz(out: &mut Out) {
    if let Some(k) = ["undo", "reject"]
        .into_iter()
        .find_map(|kind| out.step_before_first("robot6", 0, kind))
    {
        out.next_step_quiz("next-robot6", "robot6", 0, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drawn_tree_has_every_admissible_position_and_the_references_solutions() {
        let mut out = Out::default();
        tree_figure(&mut out, TREE_N);
        let text = out.into_text();
        let nodes = text.lines().filter(|l| l.starts_with("node\t")).count();
        // 1 root, 4 first-row positions, then 4 children per safe position.
        assert_eq!(nodes, 61);
        let solved: Vec<Vec<usize>> = text
            .lines()
            .filter(|l| l.starts_with("node\t"))
            .zip(0..)
            .filter(|(_, i)| text.contains(&format!("cell\t{i}\t0\t\tqueen")))
            .map(|(l, _)| {
                let label = l.rsplit('\t').next().unwrap_or("");
                label.split(' ').filter_map(|c| c.parse().ok()).collect()
            })
            .collect();
        assert_eq!(solved, robot_solutions(TREE_N));
    }

    #[test]
    fn the_section_quizzes_answer_what_the_reference_computes() {
        let text = records();
        let right = |id: &str| book_trace::answer(&text, id).expect("quiz");
        assert_eq!(right("small-n").0, "1, 0 and 0");
        assert_eq!(right("flags-free").0, "(7, 3)");
        let all = robot_solutions(5);
        let left = all.iter().filter(|s| s[0] < 2).count();
        assert_eq!(right("mirror-5").0, left.to_string());
        assert_eq!(right("robot-first").0, show(&robot_solutions(N)[0]));
        assert_eq!(right("parallel-tasks").0, "21");
        assert_eq!(right("mirror-nodes-10").0, thousands(bitmask_nodes(10).1));
        assert_eq!(right("classes-6").0, "1");
        let mut lazy = solutions(8);
        lazy.next();
        assert_eq!(right("iterator-nodes").0, lazy.nodes_visited().to_string());
        for id in [
            "small-n",
            "flags-free",
            "mirror-5",
            "robot-first",
            "iterator-nodes",
            "parallel-tasks",
            "mirror-nodes-10",
            "classes-6",
        ] {
            assert_eq!(right(id).1, 4, "{id}");
        }
    }

    #[test]
    fn the_narrated_robot_finds_the_references_solutions_in_order() {
        for n in SIZES {
            let robot = walked_robot(n);
            assert_eq!(robot.found, robot_solutions(n));
            assert_eq!(robot.tree.into_solutions(), robot_solutions(n));
        }
    }

    #[test]
    fn the_symmetries_of_a_solution_are_solutions() {
        let sols = robot_solutions(8);
        for image in transforms(8, &sols[0]) {
            assert!(sols.contains(&image), "{image:?}");
        }
    }
}
