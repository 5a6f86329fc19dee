//! The fast end (reference only): a digit-major, band-oriented solver.
//!
//! The problem: solve a puzzle and prove it has no second solution, a few
//! microseconds at a time. The state turns the grid inside out: for each
//! band b (three rows) and digit d, one `u32` holds the 27 cells of the
//! band where d may still go, its settled cells included. Every rule then
//! works on a whole word at once:
//!
//! * inside a band, a digit takes exactly one cell per row and per box, so
//!   the rows and boxes it uses form a permutation; a table indexed by which
//!   of the 9 row-box triplets are still possible keeps only the triplets
//!   that belong to some permutation (hidden singles in boxes and rows and
//!   the box-line interactions of the band, in four lookups);
//! * a row left with one open cell settles the digit there: the cell leaves
//!   the other digits' words of the band and its column leaves the digit's
//!   words in the other two bands;
//! * the same permutation rule turned sideways works on a stack (three
//!   columns of boxes): which bands may hold the digit in which column.
//!   It subsumes hidden singles in columns: a column left in one band
//!   empties the rest of its box there, and the band rules settle it;
//! * a cell left in one digit's word only is a naked single, found for a
//!   whole band with two ORs per digit.
//!
//! Only words that changed are looked at again (a 27-bit dirty mask), and
//! the naked-single and stack scans only look at bands and digits that
//! changed since their last run. When nothing fires, the solver guesses on
//! the cell with two candidates that sees the most open cells: one branch
//! on a copy of the 150-byte state, the other by removing the digit in
//! place. It stops at the second solution. The cost is a few hundred word
//! updates for a typical puzzle, and exponential only in the guesses that
//! propagation cannot avoid.

use crate::Grid;

/// The dirty bits of band 0's nine words (band b: shifted by 9b).
const BAND: u32 = 0x1ff;
/// The three triplets of box 0 in a band word.
const BOX: u32 = 0o7007007;
const ALL27: u32 = (1 << 27) - 1;
const ROW: u32 = 0x1ff;
/// One column through the three rows of a band.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit row value and row r of a band, `ROW_INFO[r][row]` holds the
/// row's cells when it has exactly one (bits 9r to 9r + 8) and which of its
/// box triplets are non-empty (bits 32 + 3r to 34 + 3r): one lookup per row
/// gives both things the band rules need.
static ROW_INFO: [[u64; 512]; 3] = row_info_table();

const fn row_info_table() -> [[u64; 512]; 3] {
    let triplets = row_triplets();
    let singles = row_singles();
    let mut table = [[0u64; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut x = 0;
        while x < 512 {
            table[r][x] = (singles[x] as u64) << (9 * r) | (triplets[x] as u64) << (32 + 3 * r);
            x += 1;
        }
        r += 1;
    }
    table
}

/// The single-cell rows of a band word (low 27 bits) and its row-box
/// triplet occupancy (bits 32 to 40).
#[inline(always)]
fn row_info(w: u32) -> u64 {
    ROW_INFO[0][(w & ROW) as usize]
        | ROW_INFO[1][((w >> 9) & ROW) as usize]
        | ROW_INFO[2][((w >> 18) & ROW) as usize]
}

/// For the 9 triplet-occupancy bits of a band (bit 3r + k: row r, box k),
/// the 27-bit mask of the triplets that lie on some row-to-box permutation
/// inside the occupancy; 0 when there is none (a contradiction).
static PERMUTATION_MASK: [u32; 512] = permutation_masks();
/// For a word index 9b + d: the indices of the same digit's other bands.
static OTHER_BANDS: [[usize; 2]; 32] = other_bands();

/// For a cell of a band (bit 9r + c): the other cells of its row and box,
/// and its column c (padded to 32 entries so that no index is checked).
static BAND_PEERS: [(u32, u32); 32] = band_peers();

const fn band_peers() -> [(u32, u32); 32] {
    let mut table = [(0u32, 0u32); 32];
    let mut p = 0;
    while p < 27 {
        let mut q = 0;
        while q < 27 {
            if q != p && (q / 9 == p / 9 || q % 9 / 3 == p % 9 / 3) {
                table[p].0 |= 1 << q;
            }
            q += 1;
        }
        table[p].1 = (p % 9) as u32;
        p += 1;
    }
    table
}

/// The permutation rule turned sideways, for a stack: bit 3b + j of the
/// index says column j of the stack may still hold the digit in band b;
/// the entry keeps the (band, column) pairs on some permutation, as bit
/// 9b + j (0 when there is none).
static STACK_KEEP: [u32; 512] = stack_keep();

const fn stack_keep() -> [u32; 512] {
    let masks = permutation_masks();
    let mut table = [0u32; 512];
    let mut t = 0;
    while t < 512 {
        let mut x = 0;
        while x < 9 {
            if (masks[t] >> (3 * x)) & 7 != 0 {
                table[t] |= 1 << (9 * (x / 3) + x % 3);
            }
            x += 1;
        }
        t += 1;
    }
    table
}

/// For a 9-bit row of a band: which of its three box triplets is non-empty.
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

/// For a 9-bit row: the row itself when it holds exactly one cell, else 0.
const fn row_singles() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut x = 1;
    while x < 512 {
        if x & (x - 1) == 0 {
            table[x] = x as u16;
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

const fn other_bands() -> [[usize; 2]; 32] {
    let mut table = [[0usize; 2]; 32];
    let mut i = 0;
    while i < 27 {
        table[i] = [(i + 9) % 27, (i + 18) % 27];
        i += 1;
    }
    table
}

/// The whole state of a search node: small enough to copy at every guess.
#[derive(Clone, Copy)]
struct State {
    /// `cells[9b + d]`: where digit d may be in band b (bit 9 * row + col);
    /// settled cells keep their digit. Padded to 32 so indices never need
    /// a bounds check.
    cells: [u32; 32],
    /// Cells whose digit is not settled yet, per band.
    open: [u32; 4],
    /// Bit 9b + d: `cells[9b + d]` changed since the band rules last ran on it.
    dirty: u32,
}

/// How far a search has got: solutions found, up to a limit, and the first.
struct Search {
    limit: usize,
    found: usize,
    first: Option<Grid>,
}

/// The cells of a band in `columns` (9 bits), through its three rows.
fn spread(columns: u32) -> u32 {
    columns * COLUMN
}

/// The columns (9 bits) a band word touches.
fn fold(w: u32) -> u32 {
    (w | w >> 9 | w >> 18) & ROW
}

impl State {
    fn new() -> State {
        let mut cells = [0; 32];
        cells[..27].fill(ALL27);
        State {
            cells,
            open: [ALL27, ALL27, ALL27, 0],
            dirty: ALL27,
        }
    }

    #[inline(always)]
    fn clear(&mut self, i: usize, mask: u32) {
        let old = self.cells[i & 31];
        let new = old & !mask;
        self.cells[i & 31] = new;
        self.dirty |= u32::from(old != new) << (i & 31);
    }

    /// Settles a given: digit d at cell p of band b, with its row, box and
    /// column cleared at once (the band rules then start from there).
    /// False when an earlier given already ruled it out.
    fn give(&mut self, b: usize, p: usize, d: usize) -> bool {
        let (b, p, d) = (b % 3, p % 27, d % 9);
        let bit = 1 << p;
        if self.cells[9 * b + d] & bit == 0 {
            return false;
        }
        self.open[b] &= !bit;
        for e in 0..9 {
            self.cells[9 * b + e] &= !bit;
        }
        self.cells[9 * b + d] &= !BAND_PEERS[p].0;
        self.cells[9 * b + d] |= bit;
        let [j, k] = OTHER_BANDS[9 * b + d];
        let column = spread(1 << BAND_PEERS[p].1);
        self.cells[j] &= !column;
        self.cells[k] &= !column;
        true
    }

    /// Puts digit i % 9 at `bit` of band i / 9 by clearing the rest of its
    /// row in the digit's word: the band rules then settle it.
    #[inline(always)]
    fn assign(&mut self, i: usize, bit: u32) {
        let row = ROW << (bit.trailing_zeros() / 9 * 9);
        self.clear(i, row & !bit);
    }

    // ANCHOR: band_rule
    /// Applies the band rules to `cells[i]`; false on a contradiction.
    #[inline(always)]
    fn update(&mut self, i: usize) -> bool {
        let i = i & 31;
        let b = i / 9;
        let w = self.cells[i];
        let info = row_info(w);
        let mask = PERMUTATION_MASK[(info >> 32) as usize & 511];
        if mask == 0 {
            return false;
        }
        let mut singles = info as u32;
        if w & !mask != 0 {
            // The rule removed cells: the rows may hold fewer now.
            singles = row_info(w & mask) as u32;
            self.cells[i] = w & mask;
        }
        let singles = singles & self.open[b & 3];
        if singles != 0 {
            self.settle(i, singles);
        }
        true
    }
    // ANCHOR_END: band_rule

    /// Settles digit i % 9 on the cells `singles` of band i / 9: they leave
    /// the other digits, and their columns leave the digit's other bands.
    #[inline(always)]
    fn settle(&mut self, i: usize, singles: u32) {
        let i = i & 31;
        let b = i / 9;
        self.open[b & 3] &= !singles;
        let keep = self.cells[i];
        let mut changed = 0;
        if let Some(band) = self.cells.get_mut(9 * b..9 * b + 9) {
            for (e, w) in band.iter_mut().enumerate() {
                changed |= u32::from(*w & singles != 0) << e;
                *w &= !singles;
            }
        }
        self.cells[i] = keep;
        self.dirty |= (changed << (9 * b)) & !(1 << i);
        let columns = spread(fold(singles));
        let [j, k] = OTHER_BANDS[i];
        self.clear(j, columns);
        self.clear(k, columns);
    }

    /// Settles every naked single. Returns None on a cell with no digit
    /// left, else whether anything changed.
    fn naked_singles(&mut self, touched: u32) -> Option<bool> {
        let mut changed = false;
        for b in 0..3 {
            let open = self.open[b];
            if open == 0 || touched & BAND << (9 * b) == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let w = self.cells[9 * b + d];
                two |= one & w;
                one |= w;
            }
            if open & !one != 0 {
                return None;
            }
            let singles = open & !two;
            if singles == 0 {
                continue;
            }
            changed = true;
            for d in 0..9 {
                let mut mine = self.cells[9 * b + d] & singles;
                while mine != 0 {
                    let bit = mine & mine.wrapping_neg();
                    mine ^= bit;
                    self.assign(9 * b + d, bit);
                }
            }
        }
        Some(changed)
    }

    /// The permutation rule sideways, for the digits in `touched`: in a
    /// stack (three columns of boxes), a digit takes one column per band
    /// and one band per column, so the (band, column) pairs it may use must
    /// lie on a permutation. This also finds every hidden single of a
    /// column: a column left in one band empties the rest of that box, and
    /// the band rules do the rest. Returns None on a contradiction, else
    /// whether anything changed.
    fn stacks(&mut self, touched: u32) -> Option<bool> {
        let mut changed = false;
        for d in 0..9 {
            if touched & COLUMN << d == 0 {
                continue;
            }
            let w = [self.cells[d], self.cells[9 + d], self.cells[18 + d]];
            // Bit 9b + c: the digit may be in column c of band b.
            let folded = fold(w[0]) | fold(w[1]) << 9 | fold(w[2]) << 18;
            let mut keep = 0;
            for s in 0..3 {
                let x = (folded >> (3 * s)) & BOX;
                let k = STACK_KEEP[((x | x >> 6 | x >> 12) & ROW) as usize];
                if k == 0 {
                    return None;
                }
                keep |= k << (3 * s);
            }
            let gone = folded & !keep;
            if gone != 0 {
                for b in 0..3 {
                    self.clear(9 * b + d, spread((gone >> (9 * b)) & ROW));
                }
                changed = true;
            }
        }
        Some(changed)
    }

    /// Runs the rules until none fires; false on a contradiction.
    fn propagate(&mut self) -> bool {
        let (mut since_naked, mut since_stacks) = (0, 0);
        loop {
            while self.dirty != 0 {
                // A batch at a time keeps the queue in a register; a word
                // dirtied again before its turn in the batch is done once.
                let mut batch = std::mem::take(&mut self.dirty);
                since_naked |= batch;
                since_stacks |= batch;
                while batch != 0 {
                    let i = batch.trailing_zeros() as usize;
                    batch &= batch - 1;
                    self.dirty &= !(1 << i);
                    if !self.update(i) {
                        return false;
                    }
                }
            }
            match self.naked_singles(std::mem::take(&mut since_naked)) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.stacks(std::mem::take(&mut since_stacks)) {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    fn complete(&self) -> bool {
        self.open[0] | self.open[1] | self.open[2] == 0
    }

    /// The cell to guess on: among the cells with two candidates, the one
    /// that sees the most open cells (its two branches then settle the
    /// most); else the first open cell. As (band, bit, digits as bits 0-8).
    #[inline(never)]
    fn choice(&self) -> (usize, u32, u16) {
        let mut best = (0, 0, 0u32);
        let mut first_open = None;
        for b in 0..3 {
            let open = self.open[b];
            if open == 0 {
                continue;
            }
            first_open = first_open.or(Some((b, open & open.wrapping_neg())));
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let w = self.cells[9 * b + d];
                three |= two & w;
                two |= one & w;
                one |= w;
            }
            let mut pairs = two & !three & open;
            let (above, below) = (self.open[(b + 1) % 3], self.open[(b + 2) % 3]);
            while pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                pairs ^= bit;
                // Its open peers: row and box in this band, column in the
                // other two, packed into one word for a single count.
                let (peers, c) = BAND_PEERS[bit.trailing_zeros() as usize & 31];
                let near = u64::from(open & peers)
                    | u64::from((above >> c) & COLUMN) << 27
                    | u64::from((below >> c) & COLUMN) << 28;
                let score = near.count_ones() + 1;
                if score > best.2 {
                    best = (b, bit, score);
                }
            }
        }
        let (b, bit) = match (best, first_open) {
            ((b, bit, score), _) if score > 0 => (b, bit),
            (_, Some(open)) => open,
            _ => return (0, 0, 0),
        };
        let digits = (0..9)
            .filter(|&d| self.cells[9 * b + d] & bit != 0)
            .fold(0u16, |m, d| m | 1 << d);
        (b, bit, digits)
    }

    fn grid(&self) -> Grid {
        let mut grid = Grid::EMPTY;
        for i in 0..27 {
            let mut w = self.cells[i];
            while w != 0 {
                grid.cells[27 * (i / 9) + w.trailing_zeros() as usize] = (i % 9) as u8 + 1;
                w &= w - 1;
            }
        }
        grid
    }

    // ANCHOR: search
    /// Propagates, then guesses on `choice` until the state is solved or
    /// dead; counts the solutions into `search`.
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
                branch.assign(9 * b + d, bit);
                branch.search(search);
                if search.found >= search.limit {
                    return;
                }
                self.clear(9 * b + d, bit);
            }
        }
    }
    // ANCHOR_END: search
}

/// The number of solutions of `puzzle` up to `limit`, and the first one.
pub fn solve_limit(puzzle: &Grid, limit: usize) -> (usize, Option<Grid>) {
    if limit == 0 {
        return (0, None);
    }
    let mut state = State::new();
    for (b, band) in puzzle.cells.chunks_exact(27).enumerate() {
        for (p, &digit) in band.iter().enumerate() {
            if digit != 0 && !state.give(b, p, usize::from(digit - 1)) {
                return (0, None);
            }
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
    // No branch per byte: a bad byte is remembered and judged at the end.
    let mut bad = false;
    for (cell, &byte) in grid.cells.iter_mut().zip(line) {
        let digit = byte.wrapping_sub(b'0');
        bad |= digit > 9 && byte != b'.';
        *cell = if digit > 9 { 0 } else { digit };
    }
    (!bad).then_some(grid)
}
