//! The 9x9 grid and the two text forms puzzles come in.
//!
//! The problem: turn text into grids, one puzzle per line of 81 cells or one
//! per block of 9 lines of 9 cells, and say exactly where and why a line is
//! wrong. The state is a small reader that remembers the rows of a grid it
//! has started. Each character is looked at once, so reading costs O(length
//! of the text) and holds at most one puzzle in memory: a file of a million
//! puzzles streams through it.

use std::fmt;

/// A 9x9 sudoku grid, row by row: `cells[9 * row + col]` is a digit 1-9, or
/// 0 for a blank.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    pub cells: [u8; 81],
}

impl Grid {
    /// The grid with no digit at all.
    pub const EMPTY: Grid = Grid { cells: [0; 81] };

    /// Reads a grid from 81 digits (0 or `.` for a blank) and panics on
    /// anything else: for tests and examples whose text is known to be good.
    /// User input goes through [`read_puzzles`] or [`PuzzleReader`].
    pub fn from_literal(text: &str) -> Grid {
        match parse_cells(text) {
            Ok(cells) if cells.len() == 81 => {
                let mut grid = Grid::EMPTY;
                grid.cells.copy_from_slice(&cells);
                grid
            }
            other => panic!("Grid::from_literal needs 81 cells, got {other:?}"),
        }
    }

    /// The number of given digits.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// Whether the givens break no rule: no digit twice in a row, a column
    /// or a box. A grid whose givens clash is a legal input with no solution;
    /// every solver checks this first, because the search itself only
    /// checks the digits it writes.
    pub fn givens_agree(&self) -> bool {
        let mut seen = [[false; 10]; 27];
        for (i, &d) in self.cells.iter().enumerate() {
            if d == 0 {
                continue;
            }
            for unit in units_of(i) {
                if std::mem::replace(&mut seen[unit][usize::from(d)], true) {
                    return false;
                }
            }
        }
        true
    }

    /// The grid as one line of 81 characters, `.` for a blank.
    pub fn line(&self) -> String {
        self.cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect()
    }
}

/// The three units (row 0-8, column 9-17, box 18-26) that cell `i` is in.
pub fn units_of(i: usize) -> [usize; 3] {
    let (r, c) = (i / 9, i % 9);
    [r, 9 + c, 18 + r / 3 * 3 + c / 3]
}

impl fmt::Display for Grid {
    /// Nine lines of nine characters, for eyes and snapshots.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.line();
        for r in 0..9 {
            writeln!(f, "{}", &line[9 * r..9 * r + 9])?;
        }
        Ok(())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.line())
    }
}

/// What was wrong with the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A character that is not a digit, `.` or a space.
    BadCharacter(char),
    /// A line with a number of cells that is neither 81 (a puzzle) nor 9 (a
    /// grid row).
    WrongLength(usize),
    /// A grid that stopped after this many rows (at the end of the text or
    /// at a line that is not a grid row).
    UnfinishedGrid(usize),
}

/// A reading error: where (1-based line and column) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub problem: Problem,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match self.problem {
            Problem::BadCharacter(c) => {
                write!(f, "unexpected {c:?} (a cell is 1-9, or 0 or . for a blank)")
            }
            Problem::WrongLength(n) => write!(
                f,
                "{n} cells, expected 81 (a puzzle on one line) or 9 (a row of a grid)"
            ),
            Problem::UnfinishedGrid(rows) => {
                write!(f, "a grid started here has {rows} rows, expected 9")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// A puzzle read from text, with the line it starts on (for messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub line: usize,
    pub grid: Grid,
}

// ANCHOR: parse_cells
/// The cells of one line: digits as themselves, `0` and `.` as 0 (blank),
/// spaces and tabs skipped. On a bad character, its 1-based column (counted
/// in characters) and the character.
pub fn parse_cells(line: &str) -> Result<Vec<u8>, (usize, char)> {
    todo!(
        "map 1-9 to themselves, 0 and . to 0, skip spaces, tabs and \\r; \
         anything else is (column, char) (book: sudoku/reading.md)"
    )
}
// ANCHOR_END: parse_cells

/// Reads puzzles one line at a time, so a file never has to be in memory.
///
/// Feed it every line with [`PuzzleReader::line`] and call
/// [`PuzzleReader::finish`] at the end.
#[derive(Debug, Default)]
pub struct PuzzleReader {
    /// The rows of the grid being read, and the line it started on.
    rows: Vec<u8>,
    started: usize,
}

// ANCHOR: reader
impl PuzzleReader {
    /// A reader that has seen nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads line number `number` (1-based) and returns what it completes,
    /// in order: nothing for a comment, a blank line or a grid row that is
    /// not the ninth; a puzzle; or an error. A line that is not a grid row
    /// also ends a grid left unfinished, which is reported first.
    pub fn line(&mut self, number: usize, text: &str) -> Vec<Result<Puzzle, ParseError>> {
        todo!(
            "skip comments and blank lines; 81 cells is a puzzle, 9 cells a \
             grid row; anything else is an error (book: sudoku/reading.md)"
        )
    }

    /// Called after the last line: a grid left unfinished is an error.
    pub fn finish(&mut self) -> Option<ParseError> {
        todo!(
            "a grid still being read at the end is unfinished (book: \
             sudoku/reading.md)"
        )
    }

    /// The error for a grid cut short, if one was being read (and forgets it).
    fn unfinished(&mut self) -> Option<ParseError> {
        todo!("report and forget a grid cut short (book: sudoku/reading.md)")
    }
}
// ANCHOR_END: reader

/// Where a line of the wrong length goes wrong: at its 82nd cell if it is
/// too long for a puzzle, else just past its end.
fn length_error_column(text: &str, cells: usize) -> usize {
    let end = text.trim_end().chars().count() + 1;
    if cells <= 81 {
        return end;
    }
    let is_cell = |c: &char| !matches!(c, ' ' | '\t' | '\r');
    text.chars()
        .enumerate()
        .filter(|(_, c)| is_cell(c))
        .nth(81)
        .map_or(end, |(i, _)| i + 1)
}

fn grid_of(cells: &[u8]) -> Grid {
    let mut grid = Grid::EMPTY;
    grid.cells.copy_from_slice(cells);
    grid
}

/// Every puzzle in `text`, in order, each a puzzle or the error that took
/// its place.
pub fn read_puzzles(text: &str) -> Vec<Result<Puzzle, ParseError>> {
    let mut reader = PuzzleReader::new();
    let mut out: Vec<_> = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| reader.line(i + 1, line))
        .collect();
    out.extend(reader.finish().map(Err));
    out
}
