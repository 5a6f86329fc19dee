//! Practice for chapter 0: counting the islands of a map.
//!
//! The problem: a map is a text, one row per line, `#` for land and any
//! other character for water (rows may differ in length; what lies past a
//! row's end is water). An island is a group of land cells joined through their
//! four sides, not their corners. How many islands are there? The state is
//! one `seen` flag per cell; the answer is the number of searches that had
//! to be started, because each search marks exactly the island it began
//! on. Every cell is marked at most once and looks at four neighbours, so
//! the cost is O(cells) time and memory, and the recursion is as deep as
//! the largest island is long.

/// The character that marks land; every other one is water.
pub const LAND: u8 = b'#';

// ANCHOR: count_islands
/// The number of islands on `map`: groups of `#` cells joined side by side.
/// One row per line of `map`; a cell is a byte of its row.
pub fn count_islands(map: &str) -> usize {
    todo!(
        "start one search from every land cell no search has reached yet; \
         count the searches (book: \
         intro/practice.md#solved-in-the-workbook-counting-islands)"
    )
}

/// Marks every land cell joined to (`row`, `col`), the cell itself
/// included, as seen. Off the map, water, or seen: nothing to do.
fn sink(rows: &[&[u8]], row: usize, col: usize, seen: &mut [Vec<bool>]) {
    todo!(
        "stop off the map, on water or on a seen cell; otherwise mark the cell \
         and visit its four neighbours (book: \
         intro/practice.md#solved-in-the-workbook-counting-islands)"
    )
}
// ANCHOR_END: count_islands
