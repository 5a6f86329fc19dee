//! Chapter 4: sudoku, solved by depth-first search in five steps.
//!
//! The problem: fill the blanks of a 9x9 grid so that every row, column and
//! 3x3 box holds 1-9 once. The state is the grid plus whatever the search
//! keeps to check a digit quickly; a step writes one digit into one blank,
//! and the search backs up when a blank has no digit left. The cost is the
//! number of nodes the search visits times the cost of one node, and the
//! chapter's steps cut first the second factor (flags, bitmasks) and then,
//! far more, the first (fewest candidates first, propagation).
//!
//! Every stage returns the same [`Outcome`]: the solution, if any, and the
//! search [`Stats`], so the book can show what each step buys.

mod bitmask;
mod fewest;
mod general;
mod generate;
mod grid;
mod naive;
mod partition;
mod propagate;

pub use bitmask::{solve_bitmask, solve_flags};
pub use fewest::solve_fewest;
pub use general::{Board, BoardError, GeneralOutcome, solve_general};
pub use generate::generate;
pub use grid::{
    Grid, ParseError, Problem, Puzzle, PuzzleReader, parse_cells, read_puzzles, units_of,
};
pub use naive::solve_naive;
pub use partition::can_partition;
pub use propagate::{count_solutions, solve_propagation};

/// How much searching a stage did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls of the search function: partial grids visited, the first one
    /// (the puzzle as given) included.
    pub nodes: u64,
    /// Digits the search wrote while another digit was still open for the
    /// same cell. The fixed-order stages never look at the alternatives
    /// before writing, so for them every digit written counts; the stages
    /// that count candidates leave out a cell with a single one.
    pub guesses: u64,
}

/// What a stage found: the solution (`None` when there is none) and how
/// much searching it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub solution: Option<Grid>,
    pub stats: Stats,
}

/// A stage of the chapter: a solver with its search statistics.
pub type Stage = fn(&Grid) -> Outcome;

/// The stages of the chapter, in order, with their names: for the suite,
/// the benchmarks and the figures, which all walk the same ladder.
pub const STAGES: [(&str, Stage); 5] = [
    ("naive", solve_naive),
    ("flags", solve_flags),
    ("bitmask", solve_bitmask),
    ("fewest", solve_fewest),
    ("propagation", solve_propagation),
];
