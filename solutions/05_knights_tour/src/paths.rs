//! Practice for chapter 5: paths that cover every open square.
//!
//! The problem: a map is a text, one row per line, with one start `S`, one end
//! `E`, open squares `.` and walls (any other character, and everything
//! past a row's end). Count the walks from the start to the end that step
//! between squares sharing a side and stand on every open square, the
//! start and the end exactly once. It is the chapter's count of every
//! tour with four moves instead of eight and a fixed last square: the
//! state is the square the walk stands on, the marks of the squares it has
//! used, and how many squares are still to visit; each step marks, recurses
//! and rubs the mark out. Up to 4^cells walks in principle, but the marks
//! cut it to a few thousand steps on the judges' maps of up to 20 squares.

/// Where the walk begins.
pub const START: u8 = b'S';
/// Where the walk must end, as its last square.
pub const END: u8 = b'E';
/// A square the walk must stand on once.
pub const OPEN: u8 = b'.';

// ANCHOR: count_full_paths
/// The number of walks from `S` to `E` through side-sharing squares that
/// stand on every square of `map` (one row per line) that is not a wall
/// exactly once. A map without exactly one `S` and one `E` has none.
pub fn count_full_paths(map: &str) -> u64 {
    let rows: Vec<Vec<u8>> = map.lines().map(|row| row.bytes().collect()).collect();
    let squares = |c: u8| -> Vec<(usize, usize)> {
        (0..rows.len())
            .flat_map(|r| (0..rows[r].len()).map(move |col| (r, col)))
            .filter(|&(r, col)| rows[r][col] == c)
            .collect()
    };
    let (starts, ends) = (squares(START), squares(END));
    let ([start], [_]) = (starts.as_slice(), ends.as_slice()) else {
        return 0;
    };
    let to_visit = rows
        .iter()
        .flat_map(|row| row.iter())
        .filter(|&&c| c == OPEN || c == START || c == END)
        .count();
    let mut used: Vec<Vec<bool>> = rows.iter().map(|row| vec![false; row.len()]).collect();
    walk(&rows, *start, to_visit, &mut used)
}

/// Whether (`row`, `col`) is on the map and not a wall.
fn is_open(rows: &[Vec<u8>], row: usize, col: usize) -> bool {
    matches!(
        rows.get(row).and_then(|r| r.get(col)),
        Some(&(OPEN | START | END))
    )
}

/// The walks that go on from `at` (not yet marked), with `left` squares
/// still to stand on, `at` included. Leaves `used` as it found it.
fn walk(rows: &[Vec<u8>], at: (usize, usize), left: usize, used: &mut [Vec<bool>]) -> u64 {
    let (row, col) = at;
    if rows[row][col] == END {
        // The end closes the walk: it counts only as the last square.
        return u64::from(left == 1);
    }
    used[row][col] = true;
    let mut paths = 0;
    let mut next = vec![(row + 1, col), (row, col + 1)];
    if row > 0 {
        next.push((row - 1, col));
    }
    if col > 0 {
        next.push((row, col - 1));
    }
    for (r, c) in next {
        if is_open(rows, r, c) && !used[r][c] {
            paths += walk(rows, (r, c), left - 1, used);
        }
    }
    used[row][col] = false;
    paths
}
// ANCHOR_END: count_full_paths
