//! What the book shows of chapter 3: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch the robot of [`crate::walk_leaves`] walk
//! the tree of 6-queens positions (up-left puts a queen in the next row's
//! first column, right moves the top queen one column on, down takes it
//! off) without reading code. The state is a [`QueensTree`] driven by the
//! reference walk through a [`Robot`] that forwards every move to it and
//! writes an event; it mirrors the queens' columns to draw them. One event
//! per move, so it costs what the walk costs; the tests prove it finds the
//! reference's solutions. The records are the plain tab-separated lines
//! `workbook book build` reads (workbook/src/book/records.rs).

use crate::{QueensTree, Robot, count, count_mirror, robot_solutions, walk_leaves};
use book_trace::Out;

/// What a step leaves on its square: a queen, unless it takes one away.
fn mark(op: &str, cell: Option<(usize, usize)>) -> &'static str {
    if cell.is_some() && op != "undo" {
        "♛"
    } else {
        ""
    }
}

/// The player's board size.
pub const N: usize = 6;

/// Every record of the chapter: the player, figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    trace(&mut out);
    shifts_figure(&mut out);
    symmetry_figure(&mut out);
    solution_figure(&mut out);
    quiz(&mut out);
    leaves_quiz(&mut out);
    out.into_text()
}

/// A robot that drives the reference [`QueensTree`] and narrates each move.
struct Narrated {
    tree: QueensTree,
    cols: Vec<usize>,
    /// Whether the top queen is still drawn (a rejected one is not).
    shown: bool,
    found: Vec<Vec<usize>>,
    out: Out,
}

impl Narrated {
    fn top(&self) -> Option<(usize, usize)> {
        self.cols.last().map(|&c| (self.cols.len() - 1, c))
    }

    /// The queen below the top one that attacks it, if any.
    fn attacker(&self) -> Option<(usize, usize, &'static str)> {
        let (row, col) = self.top()?;
        self.cols[..row].iter().enumerate().find_map(|(r, &c)| {
            if c == col {
                Some((r, c, "column"))
            } else if row - r == c.abs_diff(col) {
                Some((r, c, "diagonal"))
            } else {
                None
            }
        })
    }
}

impl Robot for Narrated {
    fn is_up(&self) -> bool {
        self.tree.is_up()
    }

    fn up_left(&mut self) {
        if let Some(top) = self.top() {
            let say = format!(
                "The queen at row {}, column {} is safe: it stays, and the robot climbs.",
                top.0, top.1
            );
            self.out.ev(
                "place",
                Some(top),
                mark("place", Some(top)),
                self.cols.len(),
                &say,
            );
        }
        self.tree.up_left();
        self.cols.push(0);
        self.shown = true;
        let row = self.cols.len() - 1;
        let say = format!("up-left: a queen on row {row}, column 0.");
        self.out.ev(
            "try",
            Some((row, 0)),
            mark("try", Some((row, 0))),
            self.cols.len(),
            &say,
        );
        self.check();
    }

    fn is_right(&self) -> bool {
        self.tree.is_right()
    }

    fn right(&mut self) {
        let Some((row, col)) = self.top() else {
            return;
        };
        if self.shown {
            let say = format!("Everything above row {row}, column {col} is done: leave it.");
            self.out.ev(
                "undo",
                Some((row, col)),
                mark("undo", Some((row, col))),
                self.cols.len(),
                &say,
            );
        }
        self.tree.right();
        self.cols[row] = col + 1;
        self.shown = true;
        let say = format!("right: the queen of row {row} moves to column {}.", col + 1);
        self.out.ev(
            "try",
            Some((row, col + 1)),
            mark("try", Some((row, col + 1))),
            self.cols.len(),
            &say,
        );
        self.check();
    }

    fn is_down(&self) -> bool {
        self.tree.is_down()
    }

    fn down(&mut self) {
        let Some((row, col)) = self.top() else {
            return;
        };
        let depth = self.cols.len();
        if self.shown {
            let say =
                format!("down: row {row} has no column left; take its queen off (column {col}).");
            self.out.ev(
                "undo",
                Some((row, col)),
                mark("undo", Some((row, col))),
                depth,
                &say,
            );
        } else {
            let say = format!(
                "down: row {row} has no column left; back to row {}.",
                row.saturating_sub(1)
            );
            self.out.ev("undo", None, mark("undo", None), depth, &say);
        }
        self.tree.down();
        self.cols.pop();
        self.shown = true;
    }

    fn process(&mut self) {
        let before = self.tree.clone().into_solutions().len();
        self.tree.process();
        let after = self.tree.clone().into_solutions().len();
        if after > before {
            self.found.push(self.cols.clone());
            let say = format!(
                "A leaf with {N} safe queens: solution {after}, columns {:?}.",
                self.cols
            );
            self.out.ev(
                "found",
                self.top(),
                mark("found", self.top()),
                self.cols.len(),
                &say,
            );
        }
    }
}

impl Narrated {
    /// The tree stops the climb at an attacked queen: say why, once.
    fn check(&mut self) {
        if let Some((r, c, line)) = self.attacker() {
            let top = self.top();
            let say = format!(
                "Attacked along the {line} by the queen at row {r}, column {c}: a leaf, nothing grows above it."
            );
            self.out
                .ev("reject", top, mark("reject", top), self.cols.len(), &say);
            self.shown = false;
        }
    }
}

fn trace(out: &mut Out) {
    out.rec(&["trace", "robot6", "The robot walks the tree of 6 queens"]);
    out.rec(&["board", "grid", &N.to_string(), &N.to_string(), "0"]);
    let mut robot = Narrated {
        tree: QueensTree::new(N),
        cols: Vec::new(),
        shown: false,
        found: Vec::new(),
        out: Out::default(),
    };
    walk_leaves(&mut robot);
    let say = format!(
        "The robot is back at the root: {} solutions, every leaf processed once.",
        robot.found.len()
    );
    robot.out.ev("found", None, mark("found", None), 0, &say);
    out.rec_all(robot.out);
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
    out.rec(&[
        "quiz",
        "six-queens",
        "5 queens on a 5 x 5 board have 10 solutions. How many do 6 queens on 6 x 6 have?",
    ]);
    for n in [six, five, 2 * five, 1] {
        out.rec(&["choice", if n == six { "1" } else { "0" }, &n.to_string()]);
    }
    out.rec(&[
        "explain",
        &format!(
            "{six}: count(6) says so, and the player's robot finds exactly these leaves. The counts are not monotone at the start (1, 0, 0, 2, 10, 4, 40, 92 for n = 1 to 8), and count_mirror({N}) = {} agrees by searching only half the first row.",
            count_mirror(6)
        ),
    ]);
}

/// The count: how many leaves the robot processes on 6 x 6.
fn leaves_quiz(out: &mut Out) {
    let mut robot = Narrated {
        tree: QueensTree::new(N),
        cols: Vec::new(),
        shown: false,
        found: Vec::new(),
        out: Out::default(),
    };
    walk_leaves(&mut robot);
    let leaves = robot
        .out
        .text()
        .lines()
        .filter(|l| l.starts_with("ev\treject") || l.starts_with("ev\tfound\t"))
        .count();
    let found = robot.found.len();
    out.rec(&[
        "quiz",
        "robot-leaves",
        "walk_leaves processes every leaf of the 6-queens tree once: every position whose top queen is attacked, and every full board. How many leaves is that?",
    ]);
    let mut choices = vec![leaves, found, 6usize.pow(6), leaves / 2];
    choices.dedup();
    for n in choices {
        out.rec(&[
            "choice",
            if n == leaves { "1" } else { "0" },
            &n.to_string(),
        ]);
    }
    out.rec(&[
        "explain",
        &format!(
            "{leaves}: the player shows each one, {} in red (an attacked top queen) and {found} solutions. Far fewer than the 6^6 = 46,656 ways to put one queen in each row, because an attacked queen ends its branch at once.",
            leaves - found
        ),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_narrated_robot_finds_the_references_solutions_in_order() {
        let mut robot = Narrated {
            tree: QueensTree::new(N),
            cols: Vec::new(),
            shown: false,
            found: Vec::new(),
            out: Out::default(),
        };
        walk_leaves(&mut robot);
        assert_eq!(robot.found, robot_solutions(N));
        assert_eq!(robot.tree.into_solutions(), robot_solutions(N));
    }

    #[test]
    fn the_symmetries_of_a_solution_are_solutions() {
        let sols = robot_solutions(8);
        for image in transforms(8, &sols[0]) {
            assert!(sols.contains(&image), "{image:?}");
        }
    }
}
