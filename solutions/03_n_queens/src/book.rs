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
            "The first of the {} solutions of 8 queens in the robot's order (columns {:?} from row 0 down); under the 8 symmetries of the board they fall into {} classes (OEIS A002562).",
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
            "{six}: count(6) says so, and the player's robot finds exactly these leaves. The counts are not monotone at the start (1, 0, 0, 2, 10, 4, 40, 92 for n = 1 to 8), and count_mirror({N}) = {} agrees by searching only half the first row.",
            count_mirror(6)
        ),
    });
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
}

/// The parallel page: one task per first-row column.
fn parallel_quiz(out: &mut Out) {
    let per_column: Vec<usize> = (0..8)
        .map(|c| robot_solutions(8).iter().filter(|s| s[0] == c).count())
        .collect();
    out.quiz(Quiz {
        id: "parallel-tasks",
        question: &format!(
            "count_parallel(8) hands each column of the first row to its own task and sums them to {}. How many does the task for column 0 find?",
            count_parallel(8)
        ),
        right: per_column[0].to_string(),
        wrong: vec!["92".into(), "11".into(), per_column[3].to_string()],
        explain: format!(
            "{}: the tasks find {per_column:?}, one count per column; they are unequal (a corner start leaves fewer boards), which is why the split is not perfectly balanced. 11 would be an even share of 92.",
            per_column[0]
        ),
    });
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
        assert_eq!(right("parallel-tasks").0, "4");
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
