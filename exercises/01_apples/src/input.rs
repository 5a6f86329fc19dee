//! Reading `N M` from text: given code, not an exercise.
//!
//! The problem: the binary reads two whole numbers, people then apples,
//! separated by any whitespace, and must turn every kind of bad input into
//! an error that says what was wrong and where, never a panic. The state is
//! the position (line, column) of each whitespace-separated token. Cost:
//! one pass over the text.

use std::fmt;

/// What the two numbers are called in error messages.
const WHAT: [&str; 2] = ["N (the number of people)", "M (the number of apples)"];

/// Why the input is not two whole numbers `N M`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// The input ended before this number.
    Missing { what: &'static str },
    /// A token that is not a whole number, such as `abc` or `2.5`.
    NotANumber {
        what: &'static str,
        token: String,
        line: usize,
        column: usize,
    },
    /// A number below zero: nobody can hand out -3 apples.
    Negative {
        what: &'static str,
        token: String,
        line: usize,
        column: usize,
    },
    /// A number above `u32::MAX`.
    TooLarge {
        what: &'static str,
        token: String,
        line: usize,
        column: usize,
    },
    /// Anything after the two numbers.
    Extra {
        token: String,
        line: usize,
        column: usize,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Missing { what } => {
                write!(
                    f,
                    "missing {what}: the input must be two whole numbers, N then M"
                )
            }
            InputError::NotANumber {
                what,
                token,
                line,
                column,
            } => write!(
                f,
                "line {line}, column {column}: {what} must be a whole number, found `{token}`"
            ),
            InputError::Negative {
                what,
                token,
                line,
                column,
            } => write!(
                f,
                "line {line}, column {column}: {what} cannot be negative, found `{token}`"
            ),
            InputError::TooLarge {
                what,
                token,
                line,
                column,
            } => write!(
                f,
                "line {line}, column {column}: {what} must be at most {}, found `{token}`",
                u32::MAX
            ),
            InputError::Extra {
                token,
                line,
                column,
            } => write!(
                f,
                "line {line}, column {column}: unexpected `{token}` after N and M; \
                 the input must be exactly two numbers"
            ),
        }
    }
}

impl std::error::Error for InputError {}

// ANCHOR: parse_input
/// Reads `N M` (people, then apples): two whole numbers from 0 to
/// `u32::MAX`, separated by any whitespace, newlines included, and nothing
/// else. Lines and columns in errors count from 1, columns in characters.
pub fn parse_input(text: &str) -> Result<(u32, u32), InputError> {
    let mut tokens = tokens(text);
    let mut numbers = [0u32; 2];
    for (slot, what) in numbers.iter_mut().zip(WHAT) {
        let (token, line, column) = tokens.next().ok_or(InputError::Missing { what })?;
        *slot = number(what, token, line, column)?;
    }
    if let Some((token, line, column)) = tokens.next() {
        let token = token.to_string();
        return Err(InputError::Extra {
            token,
            line,
            column,
        });
    }
    Ok((numbers[0], numbers[1]))
}
// ANCHOR_END: parse_input

/// One token as a `u32`, or the error that says why it is not one.
fn number(what: &'static str, token: &str, line: usize, column: usize) -> Result<u32, InputError> {
    let digits = token.strip_prefix('+').unwrap_or(token);
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let owned = token.to_string();
    if all_digits {
        return digits.parse().map_err(|_| InputError::TooLarge {
            what,
            token: owned,
            line,
            column,
        });
    }
    let negative = token
        .strip_prefix('-')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if negative && token.trim_start_matches(['-', '0']).is_empty() {
        // "-0" is zero, written oddly; still a whole number.
        return Ok(0);
    }
    if negative {
        return Err(InputError::Negative {
            what,
            token: owned,
            line,
            column,
        });
    }
    Err(InputError::NotANumber {
        what,
        token: owned,
        line,
        column,
    })
}

/// The whitespace-separated tokens of `text` with their 1-based line and
/// column.
fn tokens(text: &str) -> impl Iterator<Item = (&str, usize, usize)> {
    text.split('\n').enumerate().flat_map(|(index, line)| {
        let mut column = 0;
        let mut starts = Vec::new();
        let mut start: Option<(usize, usize)> = None;
        for (byte, c) in line.char_indices() {
            column += 1;
            match (c.is_whitespace(), start) {
                (false, None) => start = Some((byte, column)),
                (true, Some((from, col))) => {
                    starts.push((&line[from..byte], index + 1, col));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((from, col)) = start {
            starts.push((&line[from..], index + 1, col));
        }
        starts
    })
}
