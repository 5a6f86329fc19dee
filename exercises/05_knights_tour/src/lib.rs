//! Chapter 5: the knight's tour.
//!
//! The problem: move a chess knight over an n x n board so that it lands on
//! every square exactly once (an *open* tour), and, if asked, ends one knight
//! move away from where it began (a *closed* tour). The state of every search
//! here is a [`Board`] holding the move number of each visited square, plus
//! the square the knight stands on. A plain depth-first search costs up to
//! 8^(n²) attempts and is practical only to about 7 x 7; Warnsdorff's rule
//! makes one nearly straight pass, O(n²) time and memory, and reaches boards
//! of a million squares.
//!
//! The stages, one module each: the board and a tour validator ([`board`]),
//! the seed's recursive DFS with its attempt counter ([`seed`]), the same
//! search on an explicit stack ([`stack`]), Warnsdorff's rule ([`warnsdorff`]),
//! closed tours ([`closed`]) and counting every tour ([`count`]).

pub mod board;
pub mod closed;
pub mod count;
pub mod paths;
pub mod seed;
pub mod stack;
pub mod warnsdorff;

pub use board::{Board, SEED_MOVES, Square, Step, TourError, knight_moves, validate};
pub use closed::closed_tour;
pub use count::{count_open_tours, count_tours_from};
pub use paths::count_full_paths;
pub use seed::{Search, plain_dfs, seed_dfs};
pub use stack::stack_dfs;
pub use warnsdorff::{Route, open_tour, open_tour_route, warnsdorff};
