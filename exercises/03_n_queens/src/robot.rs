//! Stage 5: the robot, a tree walk without recursion.
//!
//! The problem: visit every leaf (or every node) of a tree when all we can
//! do is stand on one node and move: up to the leftmost child, right to
//! the next sibling, down to the parent. The state is only where the robot
//! stands; the walk needs no stack of its own because the tree remembers
//! the way back down. Each node is entered once and left once, so a walk
//! costs `O(nodes)` robot operations.
//!
//! Trees grow upwards here, as in the lecture notes this stage follows:
//! the root is at the bottom, "up" leads to children, "down" to the parent,
//! and siblings are ordered left to right. [`Robot`] is the interface any
//! tree offers; [`QueensTree`] is the tree of admissible queen positions,
//! [`Tree`] an explicit tree for testing the walks, and [`Counted`] counts
//! the operations of any robot.

use crate::flags::Flags;
use std::cell::Cell;

// ANCHOR: robot
/// A robot standing on one node of a tree. The walks below drive it with
/// these calls only; each `is_*` test says whether the matching move is
/// allowed, and a move is only made when its test said yes.
pub trait Robot {
    /// The node has a child (it is not a leaf).
    fn is_up(&self) -> bool;
    /// Moves to the leftmost child.
    fn up_left(&mut self);
    /// The node has a next sibling to its right (a brother, not a cousin).
    fn is_right(&self) -> bool;
    /// Moves to the next sibling.
    fn right(&mut self);
    /// The node has a parent (it is not the root).
    fn is_down(&self) -> bool;
    /// Moves to the parent.
    fn down(&mut self);
    /// Does the work of the walk on the node where the robot stands.
    fn process(&mut self);
}
// ANCHOR_END: robot

// ANCHOR: walk_leaves
/// Processes every leaf once, from left to right, starting and ending at
/// the root.
///
/// Invariant of the loop: every leaf left of the robot or above it has been
/// processed ("left and above"). Leaving a node to the right keeps "left"
/// and the climb restores "above"; going down is only done once no sibling
/// is left to the right, so everything above the parent is then done.
pub fn walk_leaves<R: Robot>(robot: &mut R) {
    todo!(
        "climb to a leaf; then while there is a way down: go right and climb \
         if you can, else go down (book: n_queens/robot.md)"
    )
}

/// Given every leaf left of the robot processed, climbs leftmost to a leaf
/// and processes it: now every leaf left of it or above it is processed.
fn climb_to_leaf<R: Robot>(robot: &mut R) {
    todo!(
        "go up-left while you can, then process the leaf (book: \
         n_queens/robot.md)"
    )
}
// ANCHOR_END: walk_leaves

// ANCHOR: walk_all
/// Processes every node once, each before its children (preorder).
///
/// The invariant becomes "every node below (on the path from the root),
/// left of or above the robot is processed"; the climb processes each node
/// it passes on the way up.
pub fn walk_all<R: Robot>(robot: &mut R) {
    todo!(
        "walk_leaves, with a climb that processes every node it passes (book: \
         n_queens/robot.md)"
    )
}

/// Climbs leftmost to a leaf, processing every node on the way, the leaf
/// included.
fn climb_processing<R: Robot>(robot: &mut R) {
    todo!(
        "process, then go up-left, while you can; process the leaf at the top \
         (book: n_queens/robot.md)"
    )
}
// ANCHOR_END: walk_all

// ANCHOR: walk_around
/// Processes every leaf once and every inner node twice: once before its
/// children and once after all of them. Going down happens exactly when
/// the last child of a node is finished, which is the moment for the
/// second visit.
pub fn walk_around<R: Robot>(robot: &mut R) {
    todo!(
        "walk_all, plus a second process right after every down (book: \
         n_queens/robot.md)"
    )
}
// ANCHOR_END: walk_around

// ANCHOR: queens_tree
/// The tree of admissible positions for `n` queens. A `k`-position has
/// queens on the first `k` rows, one per row; it is *admissible* when the
/// queens below the top one do not attack each other (the top one may be
/// attacked: that is how the robot discovers a dead end). The root is the
/// empty position; the children of a safe `k`-position are the `n`
/// positions with a queen added on row `k + 1`, leftmost column first.
///
/// Processing a leaf keeps it when it is a full, safe board.
#[derive(Debug, Clone)]
pub struct QueensTree {
    n: usize,
    /// The column of the queen of each filled row; the last is the top one.
    cols: Vec<usize>,
    /// The lines taken by every queen except the top one.
    below_top: Flags,
    found: Vec<Vec<usize>>,
}

impl QueensTree {
    /// The robot at the root (no queen yet) of the tree for `n` queens.
    pub fn new(n: usize) -> Self {
        QueensTree {
            n,
            cols: Vec::with_capacity(n),
            below_top: Flags::new(n),
            found: Vec::new(),
        }
    }

    /// The solutions processed so far, as column lists, in the order found.
    pub fn into_solutions(self) -> Vec<Vec<usize>> {
        self.found
    }

    /// Whether the top queen is attacked by a queen below it: `O(1)`
    /// thanks to the flags, which hold every queen but the top one.
    fn danger(&self) -> bool {
        match self.cols.last() {
            Some(&c) => !self.below_top.is_free(self.cols.len() - 1, c),
            None => false,
        }
    }
}

impl Robot for QueensTree {
    fn is_up(&self) -> bool {
        todo!(
            "fewer than n queens and the top queen not in danger (book: \
             n_queens/robot.md)"
        )
    }

    fn up_left(&mut self) {
        todo!(
            "record the top queen's lines in the flags, then add a queen in \
             column 0 (book: n_queens/robot.md)"
        )
    }

    fn is_right(&self) -> bool {
        todo!(
            "there is a top queen and it is not in the last column (book: \
             n_queens/robot.md)"
        )
    }

    fn right(&mut self) {
        todo!("move the top queen one column right (book: n_queens/robot.md)")
    }

    fn is_down(&self) -> bool {
        todo!("there is at least one queen (book: n_queens/robot.md)")
    }

    fn down(&mut self) {
        todo!(
            "remove the top queen, then forget the lines of the new top queen \
             (book: n_queens/robot.md)"
        )
    }

    fn process(&mut self) {
        todo!(
            "keep a copy of the columns when all n queens are placed and the \
             top one is safe (book: n_queens/robot.md)"
        )
    }
}
// ANCHOR_END: queens_tree

// ANCHOR: robot_solutions
/// Every solution for `n` queens as column lists (`cols[r]` is the column
/// of the queen in row `r`), found by walking the leaves of the tree of
/// admissible positions; they come in lexicographic order.
pub fn robot_solutions(n: usize) -> Vec<Vec<usize>> {
    todo!(
        "walk the leaves of a fresh QueensTree and return what it found (book: \
         n_queens/robot.md)"
    )
}
// ANCHOR_END: robot_solutions

/// An explicit tree for trying the walks: node `0` is the root and
/// `children[v]` lists the children of node `v` from left to right.
/// Processing a node appends its number to [`Tree::processed`].
///
/// The lists must describe a tree (every node but the root is the child of
/// exactly one node, and all are reachable from the root).
#[derive(Debug, Clone)]
pub struct Tree {
    children: Vec<Vec<usize>>,
    /// The nodes from the root to the robot.
    path: Vec<usize>,
    /// For each node of `path` but the root, its index among its siblings.
    slots: Vec<usize>,
    processed: Vec<usize>,
}

impl Tree {
    /// The robot at the root of the tree given by `children`.
    pub fn new(children: Vec<Vec<usize>>) -> Self {
        Tree {
            children,
            path: vec![0],
            slots: Vec::new(),
            processed: Vec::new(),
        }
    }

    /// The nodes processed so far, in order.
    pub fn processed(&self) -> &[usize] {
        &self.processed
    }

    /// The node the robot stands on.
    pub fn at(&self) -> usize {
        self.path[self.path.len() - 1]
    }

    fn kids(&self, v: usize) -> &[usize] {
        self.children.get(v).map_or(&[], Vec::as_slice)
    }

    fn parent(&self) -> Option<usize> {
        self.path.len().checked_sub(2).map(|i| self.path[i])
    }
}

impl Robot for Tree {
    fn is_up(&self) -> bool {
        !self.kids(self.at()).is_empty()
    }

    fn up_left(&mut self) {
        let child = self.kids(self.at())[0];
        self.path.push(child);
        self.slots.push(0);
    }

    fn is_right(&self) -> bool {
        match (self.parent(), self.slots.last()) {
            (Some(p), Some(&s)) => s + 1 < self.kids(p).len(),
            _ => false,
        }
    }

    fn right(&mut self) {
        if let (Some(p), Some(s)) = (self.parent(), self.slots.pop()) {
            let next = self.kids(p)[s + 1];
            self.slots.push(s + 1);
            self.path.pop();
            self.path.push(next);
        }
    }

    fn is_down(&self) -> bool {
        self.path.len() > 1
    }

    fn down(&mut self) {
        self.path.pop();
        self.slots.pop();
    }

    fn process(&mut self) {
        let v = self.at();
        self.processed.push(v);
    }
}

/// Wraps a robot and counts every call made to it: tests, moves and
/// processing alike.
#[derive(Debug, Clone)]
pub struct Counted<R> {
    /// The robot being counted.
    pub robot: R,
    // The tests take `&self`; a `Cell` lets them count without `&mut`.
    ops: Cell<u64>,
    entered: u64,
}

impl<R> Counted<R> {
    /// Starts counting `robot` from zero.
    pub fn new(robot: R) -> Self {
        Counted {
            robot,
            ops: Cell::new(0),
            entered: 0,
        }
    }

    /// Calls so far, of every kind.
    pub fn ops(&self) -> u64 {
        self.ops.get()
    }

    /// Calls to `up_left` and `right`: each enters a node other than the
    /// root, so a full walk makes `nodes - 1` of them.
    pub fn entered(&self) -> u64 {
        self.entered
    }

    fn tick(&self) {
        self.ops.set(self.ops.get() + 1);
    }
}

impl<R: Robot> Robot for Counted<R> {
    fn is_up(&self) -> bool {
        self.tick();
        self.robot.is_up()
    }
    fn up_left(&mut self) {
        self.tick();
        self.entered += 1;
        self.robot.up_left();
    }
    fn is_right(&self) -> bool {
        self.tick();
        self.robot.is_right()
    }
    fn right(&mut self) {
        self.tick();
        self.entered += 1;
        self.robot.right();
    }
    fn is_down(&self) -> bool {
        self.tick();
        self.robot.is_down()
    }
    fn down(&mut self) {
        self.tick();
        self.robot.down();
    }
    fn process(&mut self) {
        self.tick();
        self.robot.process();
    }
}
