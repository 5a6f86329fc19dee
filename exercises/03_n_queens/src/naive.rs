//! Stage 1 and 2: every board, then the count, with an `O(n)` safety check.
//!
//! The problem: all placements of `n` non-attacking queens. The state is
//! `cols`, the column of the queen in each row filled so far (row `r` holds
//! a queen in column `cols[r]`), so two queens never share a row by
//! construction. The search tries every column of the next row and asks
//! [`is_valid`] whether the new queen is safe from all the queens above;
//! that question costs `O(n)`. Drawing a found board costs `O(n²)`, so
//! [`solve_all`] costs `O(S·n²)` for the drawing plus the search itself.

/// One board in the LeetCode format: `n` strings of `n` characters, `Q`
/// for a queen and `.` for an empty square, the top row first.
pub type Board = Vec<String>;

// ANCHOR: entry
/// Every placement of `n` queens on an `n`×`n` board with no two attacking
/// each other, drawn as [`Board`]s. The boards come in the order the search
/// finds them: by the queen's column in the first row, then in the second
/// row, and so on (lexicographic order of the column lists).
///
/// `solve_all(0)` is one empty board: placing zero queens always works.
pub fn solve_all(n: usize) -> Vec<Board> {
    todo!(
        "start an empty column list and let the search fill the boards (book: \
         n_queens/search.md#every-board)"
    )
}
// ANCHOR_END: entry

// ANCHOR: search
/// The search: `cols` holds the queens of the rows filled so far. A full
/// list is a solution to draw; otherwise try each column of the next row,
/// go deeper with the safe ones, and take the queen back afterwards.
fn search(n: usize, cols: &mut Vec<usize>, boards: &mut Vec<Board>) {
    todo!(
        "a full column list is a board to draw; else try each column of the \
         next row that is_valid accepts (book: n_queens/search.md#every-board)"
    )
}
// ANCHOR_END: search

// ANCHOR: is_valid
/// Whether a queen in column `col` of the next row (row `cols.len()`) is
/// safe from every queen already placed: no shared column, and no shared
/// diagonal. On a "\" diagonal `row - col` is constant, on a "/" diagonal
/// `row + col` is; the first is compared as `r + col == row + c` so no
/// subtraction can underflow. Costs `O(cols.len())`.
pub fn is_valid(cols: &[usize], col: usize) -> bool {
    todo!(
        "compare the new queen with every queen placed: same column, same \
         row+col, same row-col (book: n_queens/search.md#every-board)"
    )
}
// ANCHOR_END: is_valid

// ANCHOR: draw
/// Draws the queens of `cols` (one per row, `cols[r]` the column in row
/// `r`) as a square board of side `cols.len()`. Costs `O(n²)`.
pub fn draw(cols: &[usize]) -> Board {
    todo!(
        "one string per row: 'Q' at cols[row], '.' elsewhere (book: \
         n_queens/search.md#every-board)"
    )
}
// ANCHOR_END: draw

// ANCHOR: count
/// The number of solutions for `n` queens (OEIS A000170; `count(0)` is 1),
/// found by the same search as [`solve_all`] without drawing anything.
pub fn count(n: usize) -> u64 {
    todo!(
        "run the same search, but return 1 at a full board and add up the \
         children (book: n_queens/search.md#only-the-count)"
    )
}

/// The number of solutions that extend the queens in `cols`.
fn count_from(n: usize, cols: &mut Vec<usize>) -> u64 {
    todo!(
        "a full column list counts 1; otherwise sum the counts below each \
         valid column (book: n_queens/search.md#only-the-count)"
    )
}
// ANCHOR_END: count
