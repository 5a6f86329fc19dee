//! Reading the contest's input: 8 lines of 8 characters, `Q` or `.`.
//!
//! The problem is to turn untrusted text into a [`Board`] or into an error
//! that says where the text went wrong (line and column, both counted from
//! 1, columns in characters) and how. The state is the board so far and the
//! number of queens seen; one pass over the text, O(length of the input).
//! A final newline is optional and `\r\n` line ends are accepted; any other
//! difference from the format is an error.

use crate::board::{Board, N};
use std::fmt;

/// Where the input broke the format, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line, counted from 1.
    pub line: usize,
    /// The column, counted from 1 in characters.
    pub column: usize,
    /// What was wrong there.
    pub kind: ParseErrorKind,
}

/// The ways an input can fail to be a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The input ended after this many lines, before the eighth.
    TooFewLines { found: usize },
    /// There is text after the eighth line.
    TooManyLines,
    /// A line of the board holds fewer than 8 characters.
    LineTooShort { length: usize },
    /// A line of the board holds more than 8 characters.
    LineTooLong { length: usize },
    /// A character other than `Q` or `.`.
    BadCharacter(char),
    /// A ninth queen: no 8x8 board can hold nine queens that do not attack.
    TooManyQueens,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            ParseErrorKind::TooFewLines { found } => write!(
                f,
                "the input ends after {found} line(s); a board is {N} lines of {N} squares"
            ),
            ParseErrorKind::TooManyLines => {
                write!(f, "unexpected text after the {N} lines of the board")
            }
            ParseErrorKind::LineTooShort { length } => {
                write!(f, "this line has {length} square(s), expected {N}")
            }
            ParseErrorKind::LineTooLong { length } => {
                write!(f, "this line has {length} characters, expected {N}")
            }
            ParseErrorKind::BadCharacter(c) => {
                write!(
                    f,
                    "unexpected {c:?}; a square is `Q` (queen) or `.` (empty)"
                )
            }
            ParseErrorKind::TooManyQueens => {
                write!(f, "a ninth queen; a board holds at most {N}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

// ANCHOR: parse_board
/// Reads a board in the contest's format: exactly 8 lines of exactly 8
/// characters, each `Q` or `.`, with at most 8 queens in all. A final line
/// end is optional, and lines may end in `\n` or `\r\n`. The first problem
/// found, reading line by line and left to right, is the one reported.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    todo!(
        "read 8 lines with `text.lines()`, hand each to parse_row, then make \
         sure nothing follows (book: eight_queens/input.md)"
    )
}

/// Reads line `row` (counted from 0) into `board`, checking each character
/// as it goes so the error points at the first bad one.
fn parse_row(line: &str, row: usize, board: &mut Board) -> Result<(), ParseError> {
    todo!(
        "walk the characters with `.chars().enumerate()`: `.` is empty, `Q` is \
         a queen, anything else is an error at this column (book: \
         eight_queens/input.md)"
    )
}
// ANCHOR_END: parse_board

/// An error at the 0-based `(row, col)`, reported 1-based.
fn at(row: usize, col: usize, kind: ParseErrorKind) -> ParseError {
    ParseError {
        line: row + 1,
        column: col + 1,
        kind,
    }
}
