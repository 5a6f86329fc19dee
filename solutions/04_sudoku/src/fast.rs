//! The fast end (reference only): a digit-major, band-oriented solver.
//!
//! The problem: solve a puzzle and prove it has no second solution, a few
//! microseconds at a time. The state turns the grid inside out: for each
//! digit d and each band b (three rows), one `u32` holds the 27 cells of
//! the band where d may still go, its placed cell included. Every rule then
//! works on a whole word at once:
//!
//! * inside a band, a digit takes exactly one cell per row and per box, so
//!   the rows and boxes it uses form a permutation; a table indexed by which
//!   of the 9 row-box triplets are still possible keeps only the triplets
//!   that belong to some permutation (this finds hidden singles in boxes
//!   and rows and the box-line interactions of the band in two lookups);
//! * a row left with one cell settles the digit there: the cell leaves the
//!   other digits' words of the band and its column leaves the digit's
//!   words in the other two bands;
//! * a cell left in one digit's word only is a naked single, found for a
//!   whole band with two ORs per digit.
//!
//! Only words that changed are looked at again. When nothing fires, the
//! solver guesses on a cell with two candidates (or the first open cell):
//! one branch on a copy of the 120-byte state, the other by removing the
//! digit in place. It stops at the second solution. The cost per puzzle is
//! a few hundred word updates for a typical puzzle, and exponential only in
//! the handful of guesses that propagation cannot avoid.

use crate::Grid;

const ALL27: u32 = (1 << 27) - 1;
const ROW: u32 = 0x1ff;
/// One column through the three rows of a band.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit row of a band: which of its three box triplets is non-empty.
static ROW_TRIPLETS: [u8; 512] = row_triplets();
/// For the 9 triplet-occupancy bits of a band (bit 3r + k: row r, box k),
/// the 27-bit mask of the triplets that lie on some row-to-box permutation
/// inside the occupancy; 0 when there is none (a contradiction).
static PERMUTATION_MASK: [u32; 512] = permutation_masks();

const fn row_triplets() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                table[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    table
}

const fn permutation_masks() -> [u32; 512] {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u32; 512];
    let mut t = 0;
    while t < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let bits = 1 << perm[0] | 1 << (3 + perm[1]) | 1 << (6 + perm[2]);
            if t & bits == bits {
                let mut r = 0;
                while r < 3 {
                    table[t] |= 7 << (9 * r + 3 * perm[r]);
                    r += 1;
                }
            }
            p += 1;
        }
        t += 1;
    }
    table
}

/// The whole state of a search node: small enough to copy at every guess.
#[derive(Clone, Copy)]
struct State {
    /// `cells[d][b]`: where digit d may be in band b (bit 9 * row + col).
    cells: [[u32; 3]; 9],
    /// Bit 3b + r of `settled[d]`: digit d's place in row r of band b is known.
    settled: [u16; 9],
    /// Cells whose digit is known, per band.
    known: [u32; 3],
    /// Bit 3d + b: `cells[d][b]` changed since it was last looked at.
    dirty: u32,
}

/// How far a search has got: solutions found, up to a limit, and the first.
struct Search {
    limit: usize,
    found: usize,
    first: Option<Grid>,
}

impl State {
    fn new() -> State {
        State {
            cells: [[ALL27; 3]; 9],
            settled: [0; 9],
            known: [0; 3],
            dirty: (1 << 27) - 1,
        }
    }

    fn clear(&mut self, d: usize, b: usize, mask: u32) {
        if self.cells[d][b] & mask != 0 {
            self.cells[d][b] &= !mask;
            self.dirty |= 1 << (3 * d + b);
        }
    }

    /// Puts digit d at `bit` of band b: the rest of its row goes, and so do
    /// the other digits of that cell; `update` does the rest.
    fn assign(&mut self, d: usize, b: usize, bit: u32) {
        let row = ROW << (bit.trailing_zeros() / 9 * 9);
        self.clear(d, b, row & !bit);
        for e in 0..9 {
            if e != d {
                self.clear(e, b, bit);
            }
        }
    }

    /// Applies the band rules to `cells[d][b]`; false on a contradiction.
    fn update(&mut self, d: usize, b: usize) -> bool {
        let w = self.cells[d][b];
        let occupancy = usize::from(ROW_TRIPLETS[(w & ROW) as usize])
            | usize::from(ROW_TRIPLETS[((w >> 9) & ROW) as usize]) << 3
            | usize::from(ROW_TRIPLETS[(w >> 18) as usize]) << 6;
        let mask = PERMUTATION_MASK[occupancy];
        if mask == 0 {
            return false;
        }
        let w = w & mask;
        self.cells[d][b] = w;
        for r in 0..3 {
            let row = (w >> (9 * r)) & ROW;
            if self.settled[d] & 1 << (3 * b + r) != 0 || row & (row - 1) != 0 {
                continue;
            }
            self.settled[d] |= 1 << (3 * b + r);
            let bit = row << (9 * r);
            self.known[b] |= bit;
            for e in 0..9 {
                if e != d {
                    self.clear(e, b, bit);
                }
            }
            let column = COLUMN << row.trailing_zeros();
            for other in [(b + 1) % 3, (b + 2) % 3] {
                self.clear(d, other, column);
            }
        }
        true
    }

    /// Settles every naked single of every band. Returns None on a cell
    /// with no digit left, else whether anything changed.
    fn naked_singles(&mut self) -> Option<bool> {
        let mut changed = false;
        for b in 0..3 {
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let w = self.cells[d][b];
                two |= one & w;
                one |= w;
            }
            if one != ALL27 {
                return None;
            }
            let mut singles = one & !two & !self.known[b];
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                if let Some(d) = (0..9).find(|&d| self.cells[d][b] & bit != 0) {
                    self.assign(d, b, bit);
                    changed = true;
                }
            }
        }
        Some(changed)
    }

    /// Settles every hidden single of every column: a digit with one cell
    /// left in a column. Returns None when a digit has no cell left in some
    /// column, else whether anything changed.
    fn column_singles(&mut self) -> Option<bool> {
        let mut changed = false;
        for d in 0..9 {
            let (mut one, mut two, mut placed) = (0u32, 0u32, 0u32);
            for b in 0..3 {
                let w = self.cells[d][b];
                let settled = w & self.known[b];
                for r in 0..3 {
                    let row = (w >> (9 * r)) & ROW;
                    two |= one & row;
                    one |= row;
                    placed |= (settled >> (9 * r)) & ROW;
                }
            }
            if one != ROW {
                return None;
            }
            let mut singles = one & !two & !placed;
            while singles != 0 {
                let c = singles.trailing_zeros();
                singles &= singles - 1;
                let column = COLUMN << c;
                if let Some(b) = (0..3).find(|&b| self.cells[d][b] & column != 0) {
                    self.assign(d, b, self.cells[d][b] & column);
                    changed = true;
                }
            }
        }
        Some(changed)
    }

    /// Runs the rules until none fires; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.update(i / 3, i % 3) {
                    return false;
                }
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.column_singles() {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    fn complete(&self) -> bool {
        self.settled.iter().all(|&s| s == 0x1ff)
    }

    /// The cell to guess on: the first with two candidates, else the first
    /// open one; as (band, bit, digits as bits 0-8).
    fn choice(&self) -> (usize, u32, u16) {
        let mut fallback = None;
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let w = self.cells[d][b];
                three |= two & w;
                two |= one & w;
                one |= w;
            }
            let open = !self.known[b] & ALL27;
            let pairs = two & !three & open;
            let pick = if pairs != 0 { pairs } else { open };
            if pick == 0 {
                continue;
            }
            let bit = pick & pick.wrapping_neg();
            let digits = (0..9)
                .filter(|&d| self.cells[d][b] & bit != 0)
                .fold(0u16, |m, d| m | 1 << d);
            if pairs != 0 {
                return (b, bit, digits);
            }
            fallback = fallback.or(Some((b, bit, digits)));
        }
        fallback.unwrap_or((0, 0, 0))
    }

    fn grid(&self) -> Grid {
        let mut grid = Grid::EMPTY;
        for (d, bands) in self.cells.iter().enumerate() {
            for (b, &w) in bands.iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    grid.cells[27 * b + w.trailing_zeros() as usize] = d as u8 + 1;
                    w &= w - 1;
                }
            }
        }
        grid
    }

    fn search(mut self, search: &mut Search) {
        loop {
            if !self.propagate() {
                return;
            }
            if self.complete() {
                search.found += 1;
                if search.first.is_none() {
                    search.first = Some(self.grid());
                }
                return;
            }
            let (b, bit, mut digits) = self.choice();
            if digits == 0 {
                return;
            }
            // Every digit but the last on a copy; the last stays in place
            // as a naked single for the next round of propagation.
            while digits & (digits - 1) != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut branch = self;
                branch.assign(d, b, bit);
                branch.search(search);
                if search.found >= search.limit {
                    return;
                }
                self.clear(d, b, bit);
            }
        }
    }
}

/// The number of solutions of `puzzle` up to `limit`, and the first one.
pub fn solve_limit(puzzle: &Grid, limit: usize) -> (usize, Option<Grid>) {
    if limit == 0 {
        return (0, None);
    }
    let mut state = State::new();
    for (i, &digit) in puzzle.cells.iter().enumerate() {
        if digit != 0 {
            state.assign(usize::from(digit - 1), i / 27, 1 << (i % 27));
        }
    }
    let mut search = Search {
        limit,
        found: 0,
        first: None,
    };
    state.search(&mut search);
    (search.found, search.first)
}

/// The number of solutions of `puzzle` up to 2 (2 meaning "more than one"),
/// and the first solution found.
pub fn solve_count(puzzle: &Grid) -> (usize, Option<Grid>) {
    solve_limit(puzzle, 2)
}

/// A puzzle line of exactly 81 cell bytes (digits, `0` or `.`) as a grid,
/// without allocating; None for anything else (the caller then goes through
/// the full reader, which explains the problem).
pub fn grid_from_bytes(line: &[u8]) -> Option<Grid> {
    if line.len() != 81 {
        return None;
    }
    let mut grid = Grid::EMPTY;
    for (cell, &byte) in grid.cells.iter_mut().zip(line) {
        *cell = match byte {
            b'1'..=b'9' => byte - b'0',
            b'0' | b'.' => 0,
            _ => return None,
        };
    }
    Some(grid)
}
