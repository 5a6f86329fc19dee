//! Chapter 2: eight queens with some queens given (AtCoder ARC001 C).
//!
//! The problem: a chess board shows a few queens (three in the contest, any
//! number up to eight here); place the rest so that eight queens stand and
//! none attacks another, or say `No Answer`. The state of the search is the
//! board so far plus the next square to decide and the number of queens
//! still to come ("queens left"). The attack check costs O(N) per square,
//! and the search visits at most a few hundred thousand squares on an 8x8
//! board, so a full answer takes milliseconds.
//!
//! The modules follow the chapter: reading the board ([`parse_board`]),
//! the attack check in three stages ([`is_safe`]), the search ([`solve`]),
//! counting every completion ([`count_completions`]) and measuring the
//! search ([`search_stats`]).

mod attack;
mod board;
mod every;
mod parse;
mod search;

pub use attack::{in_board, is_safe, is_safe_one_direction, is_safe_three_loops};
pub use board::{Board, N, SQUARES};
pub use every::every_completion;
pub use parse::{ParseError, ParseErrorKind, parse_board};
pub use search::{Search, SearchStats, count_completions, search_stats, solve};

/// The answer in the contest's format: the finished board, or `No Answer`.
pub fn answer(solution: Option<&Board>) -> String {
    match solution {
        Some(board) => board.to_string(),
        None => "No Answer\n".to_string(),
    }
}
