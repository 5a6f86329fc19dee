//! The robot page's player: the reference [`walk_leaves`] driving a
//! [`QueensTree`] through a robot that narrates every move as a step of
//! the player's trace (one tree node per position, the walk's code lit).
//!
//! The problem: the reader must see the robot's moves, where it stands in
//! the tree and which line of `walk_leaves` makes each move, without the
//! narration ever disagreeing with the reference. The state is the tree,
//! the queens' columns (to draw them) and the trace; each move costs O(1)
//! plus its narration, so a walk costs what the reference walk costs. The
//! totals (solutions, dead ends) are checked against the reference when
//! the trace is written.

use crate::{QueensTree, Robot, robot_solutions, walk_leaves};
use book_trace::{Code, Mark, Out, Step, Trace};

/// A robot that drives the reference [`QueensTree`] and narrates each
/// move as a step of the player's trace, one tree node per position.
pub(super) struct Narrated {
    n: usize,
    pub(super) tree: QueensTree,
    cols: Vec<usize>,
    /// Whether the top queen is still drawn (a rejected one is not).
    shown: bool,
    pub(super) found: Vec<Vec<usize>>,
    /// Leaves processed: attacked top queens and full boards.
    pub(super) leaves: usize,
    t: Trace,
}

/// The code the player lights: the reference walk, as the page shows it.
fn walk_code() -> Code {
    Code::new(
        "solutions/03_n_queens/src/robot.rs",
        include_str!("../robot.rs"),
        "walk_leaves",
    )
}

/// The reference's `walk_leaves` run to the end on n x n with a narrating
/// robot: its trace, and the solutions in the order it found them.
pub(super) fn walked_robot(n: usize) -> Narrated {
    let mut t = Trace::new(
        "robot6",
        "The robot walks the tree of n queens: one tree node per position",
        &format!("n = {n}"),
        walk_code(),
    );
    t.rec(&["board", "grid", &n.to_string(), &n.to_string(), "0"]);
    t.counter(
        "positions",
        "nodes",
        "tree nodes the robot has stood on so far, the empty board (the root) included",
    );
    t.counter(
        "solutions",
        "marks:solution",
        "leaves processed so far that are full boards of safe queens",
    );
    t.counter(
        "dead ends",
        "marks:dead",
        "leaves processed so far whose top queen is attacked",
    );
    t.counter(
        "depth",
        "depth",
        "queens on the board: the robot's level in the tree",
    );
    t.stay(Step::new(
        "note",
        "pub fn walk_leaves",
        &format!("The robot stands on the root: the empty {n} x {n} board. It climbs to the leftmost leaf."),
    ));
    let mut robot = Narrated {
        n,
        tree: QueensTree::new(n),
        cols: Vec::new(),
        shown: false,
        found: Vec::new(),
        leaves: 0,
        t,
    };
    walk_leaves(&mut robot);
    robot
}

impl Narrated {
    /// The tree node's label: the position, the queens' columns from row 0.
    fn name_position(&mut self) {
        let cols: Vec<String> = self.cols.iter().map(usize::to_string).collect();
        self.t.call(&cols.join(","));
    }

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
            self.t
                .stay(Step::new("place", "while robot.is_up()", &say).at(top, "♛"));
        }
        self.tree.up_left();
        self.cols.push(0);
        self.shown = true;
        let row = self.cols.len() - 1;
        let say = format!("up-left: a queen on row {row}, column 0.");
        self.t
            .down(Step::new("try", "robot.up_left();", &say).at((row, 0), "♛"));
        self.name_position();
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
            self.t
                .stay(Step::new("undo", "if robot.is_right()", &say).at((row, col), ""));
        }
        self.tree.right();
        self.cols[row] = col + 1;
        self.shown = true;
        let say = format!("right: the queen of row {row} moves to column {}.", col + 1);
        self.t
            .side(Step::new("try", "robot.right();", &say).at((row, col + 1), "♛"));
        self.name_position();
        self.check();
    }

    fn is_down(&self) -> bool {
        self.tree.is_down()
    }

    fn down(&mut self) {
        let Some((row, col)) = self.top() else {
            return;
        };
        if self.shown {
            let say =
                format!("down: row {row} has no column left; take its queen off (column {col}).");
            self.t
                .up(Step::new("undo", "robot.down();", &say).at((row, col), ""));
        } else {
            let say = format!(
                "down: row {row} has no column left; back to row {}.",
                row.saturating_sub(1)
            );
            self.t.up(Step::new("undo", "robot.down();", &say));
        }
        self.tree.down();
        self.cols.pop();
        self.shown = true;
    }

    fn process(&mut self) {
        self.leaves += 1;
        let before = self.tree.clone().into_solutions().len();
        self.tree.process();
        let after = self.tree.clone().into_solutions().len();
        if after > before {
            self.found.push(self.cols.clone());
            let say = format!(
                "process: a leaf with {} safe queens, solution {after}, columns {:?}.",
                self.n, self.cols
            );
            let top = self.top().unwrap_or((0, 0));
            self.t.stay(
                Step::new("found", "robot.process();", &say)
                    .at(top, "♛")
                    .mark(Mark::Solution),
            );
        }
    }
}

impl Narrated {
    /// The tree stops the climb at an attacked queen: say why, once.
    fn check(&mut self) {
        if let Some((r, c, line)) = self.attacker() {
            let top = self.top().unwrap_or((0, 0));
            let say = format!(
                "Attacked along the {line} by the queen at row {r}, column {c}: a leaf, nothing grows above it (a dead end)."
            );
            self.t.stay(
                Step::new("reject", "while robot.is_up()", &say)
                    .at(top, "")
                    .mark(Mark::Dead),
            );
            self.shown = false;
        }
    }
}

pub(super) fn trace(out: &mut Out, n: usize) {
    let mut robot = walked_robot(n);
    let found = robot_solutions(n).len();
    robot.t.total("solutions", found as u64);
    robot.t.total("dead ends", (robot.leaves - found) as u64);
    robot.t.total("depth", 0);
    let say = format!(
        "The robot is back at the root: {found} solutions and {} dead ends, every leaf processed once.",
        robot.leaves - found
    );
    robot
        .t
        .stay(Step::new("note", "while robot.is_down()", &say));
    robot.t.finish(out);
}
