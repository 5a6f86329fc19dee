//! The board, the knight's moves, and a validator for finished tours.
//!
//! The problem: say whether a numbered board is a knight's tour. The state is
//! an n x n grid of move numbers, 0 for a square never visited. Validating
//! costs O(n²) time and memory: one pass to find where each number sits, one
//! pass over consecutive numbers to check each step.

use std::fmt;

/// A square as `(row, column)`, both counted from 0; row 0 is the top row,
/// so the seed's start, the bottom-right corner, is `(n - 1, n - 1)`.
pub type Square = (usize, usize);

/// One knight move as a `(row, column)` step.
pub type Step = (isize, isize);

// ANCHOR: seed_moves
/// The seed's eight knight moves, in the order its search tries them.
/// The order decides which tour the plain search finds first, and how long
/// it takes to get there.
pub const SEED_MOVES: [Step; 8] = [
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
];
// ANCHOR_END: seed_moves

/// An n x n board of move numbers: 0 means not visited yet, k in 1..=n²
/// means the knight's k-th square.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    n: usize,
    cells: Vec<u32>,
}

impl Board {
    /// An empty n x n board.
    pub fn new(n: usize) -> Self {
        Board {
            n,
            cells: vec![0; n * n],
        }
    }

    /// A board from its rows, or `None` unless the rows form a square.
    pub fn from_rows(rows: &[Vec<u32>]) -> Option<Self> {
        let n = rows.len();
        if rows.iter().any(|r| r.len() != n) {
            return None;
        }
        Some(Board {
            n,
            cells: rows.concat(),
        })
    }

    /// The side length n.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The move number on `square` (0 if unvisited). Panics off the board.
    pub fn get(&self, (row, col): Square) -> u32 {
        assert!(
            row < self.n && col < self.n,
            "({row}, {col}) is off the board"
        );
        self.cells[row * self.n + col]
    }

    /// Writes a move number (0 to clear). Panics off the board.
    pub fn set(&mut self, (row, col): Square, number: u32) {
        assert!(
            row < self.n && col < self.n,
            "({row}, {col}) is off the board"
        );
        self.cells[row * self.n + col] = number;
    }

    /// The rows, top to bottom.
    pub fn rows(&self) -> Vec<Vec<u32>> {
        self.cells
            .chunks(self.n.max(1))
            .map(<[u32]>::to_vec)
            .collect()
    }

    /// The squares in the order of their move numbers, if every number
    /// 1..=n² appears exactly once.
    pub fn path(&self) -> Option<Vec<Square>> {
        let mut path = vec![None; self.cells.len()];
        for (i, &k) in self.cells.iter().enumerate() {
            let slot = path.get_mut((k as usize).checked_sub(1)?)?;
            if slot.is_some() {
                return None;
            }
            *slot = Some((i / self.n, i % self.n));
        }
        path.into_iter().collect()
    }

    /// The board numbered along `path` (the first square gets 1).
    pub fn from_path(n: usize, path: &[Square]) -> Self {
        let mut board = Board::new(n);
        for (k, &square) in path.iter().enumerate() {
            board.set(square, k as u32 + 1);
        }
        board
    }
}

impl Board {
    /// N lines of N move numbers, right-aligned in columns as wide as n²,
    /// written into one buffer: a 1000 x 1000 board is a million numbers,
    /// so a formatted string per number would cost more than the tour.
    pub fn text(&self) -> String {
        let mut digits = [0u8; 20];
        let width = decimal(&mut digits, (self.n * self.n) as u64).len();
        let mut out = Vec::with_capacity(self.cells.len() * (width + 1));
        for row in self.cells.chunks(self.n.max(1)) {
            for (i, &k) in row.iter().enumerate() {
                let number = decimal(&mut digits, u64::from(k));
                let pad = width.saturating_sub(number.len()) + usize::from(i > 0);
                out.resize(out.len() + pad, b' ');
                out.extend_from_slice(number);
            }
            out.push(b'\n');
        }
        // Spaces, digits and newlines are ASCII, so this never falls back.
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The decimal digits of `k`, written at the end of `buf`.
fn decimal(buf: &mut [u8; 20], mut k: u64) -> &[u8] {
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (k % 10) as u8;
        k /= 10;
        if k == 0 {
            return &buf[start..];
        }
    }
}

/// N lines of N move numbers, right-aligned in columns as wide as n².
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// The grid as rows, so a failing assertion shows the board.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {}x{}\n{self}", self.n, self.n)
    }
}

// ANCHOR: knight_moves
/// The squares a knight on `from` can reach on an n x n board, in the order
/// of `moves`, skipping steps that leave the board.
pub fn knight_moves(n: usize, from: Square, moves: &[Step]) -> Vec<Square> {
    todo!(
        "apply each step in order; keep the targets that stay on the board \
         (book: knights_tour/index.md#checking-a-tour)"
    )
}
// ANCHOR_END: knight_moves

/// Why a board is not a (closed) knight's tour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TourError {
    /// A 0 x 0 board has no squares to tour.
    Empty,
    /// A square holds 0: the knight never came here.
    Unvisited(Square),
    /// A square holds a number outside 1..=n².
    OutOfRange { square: Square, number: u32 },
    /// A number appears on two squares (the later one in row-major order).
    Repeated { number: u32, square: Square },
    /// Move `number` to move `number + 1` is not a knight's move.
    NotAKnightMove {
        number: u32,
        from: Square,
        to: Square,
    },
    /// A closed tour was asked for, but the last square is not a knight's
    /// move from the first.
    NotClosed { last: Square, first: Square },
}

/// Whether two squares are one knight's move apart.
pub fn is_knight_move(a: Square, b: Square) -> bool {
    let dr = a.0.abs_diff(b.0);
    let dc = a.1.abs_diff(b.1);
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

// ANCHOR: validate
/// Checks that `board` is a knight's tour, and a closed one if `closed`.
///
/// The checks run in this order, and the first failure is returned:
/// an empty board; then a scan of the squares in row-major order (top row
/// first, left to right) for a 0, a number above n², or a number already
/// seen; then the steps 1 -> 2, 2 -> 3, ... in order; then, if `closed`,
/// the step from n² back to 1.
pub fn validate(board: &Board, closed: bool) -> Result<(), TourError> {
    todo!(
        "scan the squares in row-major order, then check every step k -> k + \
         1, then the closing step (book: \
         knights_tour/index.md#checking-a-tour)"
    )
}
// ANCHOR_END: validate
