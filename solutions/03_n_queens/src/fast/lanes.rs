//! Walks in SIMD lanes: [`super::count_fast`]'s jobs, 16 (AVX-512) or 8
//! (AVX2) nodes per step, for boards up to 16 rows.
//!
//! The problem: the scalar walks ([`super::walks`]) spend about 38
//! instructions per node; a vector register holds 16 bitboards, so one
//! vector step could place 16 queens for about the same instructions.
//! But lanes that walk their own depth-first paths sit at different rows,
//! so their frames would have to be gathered from and scattered to memory
//! at every step, and gathers and scatters are slow on many processors.
//!
//! So the lanes do not follow paths. The state is one short list per row
//! of the nodes still to expand there: each entry is a position (its
//! bitboard triple), its row's untried squares and, for the jobs whose
//! solutions need the class test, the board so far (a column index per
//! row, four bits each). A step takes `L` entries of one row together
//! (the same row, so the plan's rules for the row below are one constant
//! for every lane), places each one's lowest untried queen, and packs the
//! results with a compress: the children with a free square go to the
//! end of the next row's list, the parents with squares left go back to
//! their own. Which row steps is a scalar choice: the deepest row holding
//! at least a full vector, so the lists stay below two vectors each and
//! the walk stays depth-first in spirit (memory does not grow with the
//! tree); when no row is full, more jobs are loaded into the first row,
//! and at the very end the shallowest row steps with some lanes idle.
//! One plan at a time: the lists of one plan share its rules.
//!
//! A step mostly reads what the step before it has just written, at other
//! offsets than it was written at, so the processor cannot forward those
//! stores to the loads and waits for them to reach the cache; four
//! independent sets of lists (*engines*) step in turn and overlap that
//! wait, as the scalar walks overlap their chains.
//!
//! Cost: every lane of a full step is a node (99 % of the lanes are busy
//! at n = 13 and 16), and the lists are a few kilobytes per engine. With
//! AVX2 a step of 8 nodes is about 140 instructions (the compress is
//! a table lookup and a permutation), so the whole process spends 23
//! instructions per node at n = 13 against the scalar walks' 38, and
//! about 0.1 simulated mispredictions per node (the choice of row is a
//! branch). AVX-512 has a compress instruction and twice the lanes. The
//! module's tests check every job's count against the scalar walks; the
//! book's fast-end page has the measurements.

use super::walks::Next;
use super::{Plan, Start, class_size};

/// The largest board the lanes take: four bits per column index, 16 of
/// them in the two board words.
pub(super) const MAX_N: usize = 16;

/// Entries each row's list can hold: two full vectors of the widest lanes
/// (see [`walk_plan`] for why no list outgrows that).
const CAP: usize = 32;

/// The fields of an entry, each stored as its own array (so a vector loads
/// one field of consecutive entries).
const COLS: usize = 0;
const LEFT: usize = 1;
const RIGHT: usize = 2;
const FREE: usize = 3;
/// The board so far: the column of row `r` in bits `4r..4r+4` of `B0`
/// (rows 0 to 7) or `B1` (rows 8 to 15). Only for the class test.
const B0: usize = 4;
const B1: usize = 5;

/// One row's list of entries.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct List {
    field: [[u32; CAP]; 6],
}

impl Default for List {
    fn default() -> Self {
        List {
            field: [[0; CAP]; 6],
        }
    }
}

/// A vector of `N` lanes of `u32`, and the few operations a step needs.
/// Masks are plain bit sets, lane `i` in bit `i`.
trait Lanes: Copy {
    const N: usize;
    fn splat(x: u32) -> Self;
    /// Lanes 0 to `N - 1` from `src[..N]`.
    fn load(src: &[u32]) -> Self;
    /// All `N` lanes to `dst[..N]`.
    fn store(self, dst: &mut [u32]);
    /// The lanes under `mask`, packed to the low end, to `dst[..N]` (the
    /// lanes above them are left undefined).
    fn compress_store(self, mask: u32, dst: &mut [u32]);
    fn and(self, b: Self) -> Self;
    fn or(self, b: Self) -> Self;
    fn xor(self, b: Self) -> Self;
    /// `!self & b`.
    fn andnot(self, b: Self) -> Self;
    fn neg(self) -> Self;
    fn shl1(self) -> Self;
    fn shr1(self) -> Self;
    /// Each lane shifted left by the same lane of `count`; 0 past 31.
    fn shlv(self, count: Self) -> Self;
    fn shrv(self, count: Self) -> Self;
    /// The lanes that are not 0.
    fn nonzero(self) -> u32;
    /// Lane `i` of the result is lane `idx[i]` (0 to 3) of `self`.
    fn pick(self, idx: Self) -> Self;
    /// The index of the one set bit of each lane (the lane below 2^24).
    fn log2(self) -> Self;
}

/// A step's per-row constants, for the row below the step's.
#[derive(Clone, Copy, Default)]
struct Row {
    /// Squares the plan allows in the row below.
    allowed: u32,
    /// The row below is the plan's deadline: which side columns are taken
    /// picks from `table` (neither, column 0, column `n - 1`, both).
    deadline: bool,
    table: [u32; 16],
    /// Shifts that put this row's column index into `B0` and `B1` (32:
    /// not this word).
    shift0: u32,
    shift1: u32,
}

/// The solutions below `starts` (sorted by plan, as [`super::jobs`]
/// makes them), or `None` where the lanes do not apply: boards past
/// [`MAX_N`], or a processor with neither AVX-512 nor AVX2.
pub(super) fn count(n: usize, plans: &[(Plan, bool)], starts: &[(usize, Start)]) -> Option<u64> {
    match kernel(n) {
        Some(Kernel::Avx512) => count_with(n, plans, starts, Kernel::Avx512),
        Some(Kernel::Avx2) => count_with(n, plans, starts, Kernel::Avx2),
        None => None,
    }
}

/// The lane widths.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kernel {
    /// 16 lanes of 32 bits.
    Avx512,
    /// 8 lanes of 32 bits.
    Avx2,
}

/// The widest lanes this processor has, for a board of `n` rows.
pub(super) fn kernel(n: usize) -> Option<Kernel> {
    if n > MAX_N {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if x86::has_avx512() {
            return Some(Kernel::Avx512);
        }
        if x86::has_avx2() {
            return Some(Kernel::Avx2);
        }
    }
    None
}

/// [`count`] with the given lanes; `None` if the processor lacks them.
pub(super) fn count_with(
    n: usize,
    plans: &[(Plan, bool)],
    starts: &[(usize, Start)],
    kernel: Kernel,
) -> Option<u64> {
    count_from(n, plans, starts, kernel, Next::Own(0))
}

/// [`count_with`] for the starts these lanes take from `next`: with a
/// shared cursor, the solutions below the starts this thread took.
pub(super) fn count_from(
    n: usize,
    plans: &[(Plan, bool)],
    starts: &[(usize, Start)],
    kernel: Kernel,
    next: Next,
) -> Option<u64> {
    if n > MAX_N {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    match kernel {
        Kernel::Avx512 if x86::has_avx512() => {
            #[allow(unsafe_code)]
            // SAFETY: the processor has every feature `count_avx512`
            // enables, detected just above.
            return Some(unsafe { x86::count_avx512(plans, starts, next) });
        }
        Kernel::Avx2 if x86::has_avx2() => {
            #[allow(unsafe_code)]
            // SAFETY: the processor has every feature `count_avx2`
            // enables, detected just above.
            return Some(unsafe { x86::count_avx2(plans, starts, next) });
        }
        _ => {}
    }
    let _ = (plans, starts, kernel, next);
    None
}

/// Independent sets of lists stepped in turn (see [`walk_plan`]).
const ENGINES: usize = 4;

/// One set of lists: each row's entries, how many, and which rows hold a
/// full vector.
#[derive(Clone, Copy, Default)]
struct Engine {
    lists: [List; 32],
    len: [usize; 32],
    full: u32,
}

impl Engine {
    /// Row `r`'s bit in `full`, after its length changed.
    #[inline(always)]
    fn mark(&mut self, r: usize, lanes: usize) {
        let bit = 1 << r;
        self.full = (self.full & !bit) | u32::from(self.len[r] >= lanes) << r;
    }

    /// The shallowest row with an entry (only needed once the starts
    /// are gone, so searched rather than kept up to date).
    fn shallowest(&self) -> Option<usize> {
        (0..32).find(|&r| self.len[r] > 0)
    }
}

/// Every plan's run of the starts taken from `next`, each walked by
/// [`walk_plan`]. The starts are sorted by plan, so the starts one taker
/// gets come plan by plan too, even when other threads take some between.
#[inline(always)]
fn count_lanes<L: Lanes>(plans: &[(Plan, bool)], starts: &[(usize, Start)], mut next: Next) -> u64 {
    let mut engines = vec![Engine::default(); ENGINES];
    let mut found = 0;
    let mut taken = next.take();
    // A plain loop, not a closure: a closure would not inherit the
    // caller's target features, and the intrinsics would become calls.
    while let Some(&(index, _)) = starts.get(taken) {
        let mut run = Run {
            plan: index,
            starts,
            taken,
            next: &mut next,
        };
        let (plan, test) = &plans[index];
        found += if *test {
            walk_plan::<L, true>(plan, &mut run, &mut engines)
        } else {
            walk_plan::<L, false>(plan, &mut run, &mut engines)
        };
        taken = run.taken;
    }
    found
}

/// The starts of one plan as one taker gets them: `taken` is the index it
/// took last and has not loaded yet (a start of the next plan, or past the
/// end, once this plan's are gone).
struct Run<'a, 'n> {
    plan: usize,
    starts: &'a [(usize, Start)],
    taken: usize,
    next: &'a mut Next<'n>,
}

impl Run<'_, '_> {
    /// The next start of this plan, if any is left.
    #[inline(always)]
    fn take(&mut self) -> Option<&Start> {
        match self.starts.get(self.taken) {
            Some((index, start)) if *index == self.plan => {
                self.taken = self.next.take();
                Some(start)
            }
            _ => None,
        }
    }

    /// Whether this plan has starts left to load.
    #[inline(always)]
    fn more(&self) -> bool {
        self.starts
            .get(self.taken)
            .is_some_and(|s| s.0 == self.plan)
    }

    /// The row every start of this plan has filled down to.
    fn first(&self) -> usize {
        self.starts.get(self.taken).map_or(0, |s| s.1.placed)
    }
}

/// The solutions below `starts`, which all share `plan` and a row, by
/// [`ENGINES`] engines that take starts in turn; each steps its lists a
/// vector at a time, the deepest full row first. With `TEST` each
/// solution goes through the class test.
///
/// Why several engines: a step mostly reads what the step before it has
/// just written, at other offsets than it was written at, so the
/// processor cannot forward the stores to the loads and waits until
/// they reach the cache. Steps of independent engines overlap that wait.
///
/// No list outgrows two vectors: a step at row `d` takes `L::N` entries
/// and gives back at most as many, so row `d` does not grow; the row below
/// receives at most `L::N` children, and it held fewer than `L::N` (else
/// it would have stepped first, being deeper and full). Loading stops as
/// soon as the first row is full, and happens only when no row is.
#[inline(always)]
fn walk_plan<L: Lanes, const TEST: bool>(
    plan: &Plan,
    run: &mut Run,
    engines: &mut [Engine],
) -> u64 {
    let first = run.first();
    let rows = rows(plan, first);
    let mut found = 0;
    // While there are starts, the engines step in turn, and one with no
    // full row loads more.
    // `more` is a local, changed only by a load: read through `run` at
    // every round, it cost 10 % more instructions.
    let mut more = run.more();
    while more {
        for e in engines.iter_mut() {
            if e.full == 0 {
                let (list, len) = (&mut e.lists[first], &mut e.len[first]);
                load::<TEST>(plan, run, list, len, L::N);
                more = run.more();
                e.mark(first, L::N);
            } else {
                let d = 31 - e.full.leading_zeros() as usize;
                found += step::<L, TEST>(plan.n, &rows[d], d, e);
            }
        }
    }
    // Then the engines still in turn empty their lists, the shallowest row
    // first once no row is full (some lanes idle); an empty engine leaves
    // the round.
    let mut active: [usize; ENGINES] = std::array::from_fn(|i| i);
    let mut live = engines.len().min(ENGINES);
    while live > 0 {
        let mut i = 0;
        while i < live {
            let e = &mut engines[active[i]];
            let d = if e.full != 0 {
                31 - e.full.leading_zeros() as usize
            } else if let Some(d) = e.shallowest() {
                d
            } else {
                live -= 1;
                active[i] = active[live];
                continue;
            };
            found += step::<L, TEST>(plan.n, &rows[d], d, e);
            i += 1;
        }
    }
    found
}

// ANCHOR: lanes
/// One step of one engine at row `d`: up to `L::N` entries of the row
/// each place their lowest untried queen; the solutions found (class
/// sizes).
#[inline(always)]
fn step<L: Lanes, const TEST: bool>(n: usize, row: &Row, d: usize, e: &mut Engine) -> u64 {
    let last = n - 1;
    // A row above the last of at most 16: masked, the compiler sees that
    // `d + 1` indexes in bounds.
    debug_assert!(d + 1 < MAX_N);
    let d = d & 15;
    let take = e.len[d].min(L::N);
    // Below 16 (a list holds fewer than two vectors, `walk_plan` says
    // why), which the mask tells the compiler: no bounds checks.
    let base = (e.len[d] - take) & 15;
    debug_assert_eq!(base, e.len[d] - take);
    let lanes = if take == L::N {
        u32::MAX >> (32 - L::N)
    } else {
        (1 << take) - 1
    };
    // The parents, and each one's lowest untried square.
    let list = &e.lists[d].field;
    let cols = L::load(&list[COLS][base..]);
    let left = L::load(&list[LEFT][base..]);
    let right = L::load(&list[RIGHT][base..]);
    let free = L::load(&list[FREE][base..]);
    let bit = free.and(free.neg());
    let rest = free.xor(bit);
    // The children: their bitboard triple and free squares.
    let cols2 = cols.or(bit);
    let left2 = left.or(bit).shl1();
    let right2 = right.or(bit).shr1();
    let allowed = if row.deadline {
        // Column 0 to bit 0 and column n - 1 to bit 1 (n >= 6).
        let sides = cols2.and(L::splat(1 | 1 << last));
        let idx = sides
            .and(L::splat(1))
            .or(sides.shrv(L::splat(n as u32 - 2)));
        L::load(&row.table).pick(idx)
    } else {
        L::splat(row.allowed)
    };
    let free2 = cols2.or(left2).or(right2).andnot(allowed);
    let children = free2.nonzero() & lanes;
    let parents = rest.nonzero() & lanes;
    let (mut b0, mut b1) = (L::splat(0), L::splat(0));
    let (mut b0_2, mut b1_2) = (b0, b1);
    if TEST {
        b0 = L::load(&list[B0][base..]);
        b1 = L::load(&list[B1][base..]);
        let col = bit.log2();
        b0_2 = b0.or(col.shlv(L::splat(row.shift0)));
        b1_2 = b1.or(col.shlv(L::splat(row.shift1)));
    }
    let mut found = 0;
    if d + 1 == last {
        // A free square in the last row is a solution.
        found = if TEST {
            leaves(n, children, b0_2, b1_2, free2)
        } else {
            8 * u64::from(children.count_ones())
        };
    } else {
        // Below `L::N` (the row below held less than a vector), so below 16.
        let at = e.len[d + 1] & 15;
        debug_assert_eq!(at, e.len[d + 1]);
        let below = &mut e.lists[d + 1].field;
        cols2.compress_store(children, &mut below[COLS][at..]);
        left2.compress_store(children, &mut below[LEFT][at..]);
        right2.compress_store(children, &mut below[RIGHT][at..]);
        free2.compress_store(children, &mut below[FREE][at..]);
        if TEST {
            b0_2.compress_store(children, &mut below[B0][at..]);
            b1_2.compress_store(children, &mut below[B1][at..]);
        }
        e.len[d + 1] = at + children.count_ones() as usize;
    }
    // The parents with squares left go back where they were.
    let list = &mut e.lists[d].field;
    cols.compress_store(parents, &mut list[COLS][base..]);
    left.compress_store(parents, &mut list[LEFT][base..]);
    right.compress_store(parents, &mut list[RIGHT][base..]);
    rest.compress_store(parents, &mut list[FREE][base..]);
    if TEST {
        b0.compress_store(parents, &mut list[B0][base..]);
        b1.compress_store(parents, &mut list[B1][base..]);
    }
    e.len[d] = base + parents.count_ones() as usize;
    e.mark(d, L::N);
    e.mark(d + 1, L::N);
    found
}
// ANCHOR_END: lanes

/// Loads the run's starts into `list` (the first row's) until it holds
/// `want` entries or the plan's starts run out.
fn load<const TEST: bool>(
    plan: &Plan,
    run: &mut Run,
    list: &mut List,
    len: &mut usize,
    want: usize,
) {
    while *len < want {
        let Some(start) = run.take() else {
            break;
        };
        let free = plan.free(start.placed, start.cols, start.left, start.right);
        if free == 0 {
            continue;
        }
        let at = *len;
        list.field[COLS][at] = start.cols;
        list.field[LEFT][at] = start.left;
        list.field[RIGHT][at] = start.right;
        list.field[FREE][at] = free;
        if TEST {
            let mut board = 0u64;
            for (row, queen) in start.rows.iter().enumerate().take(start.placed) {
                board |= u64::from(queen.trailing_zeros()) << (4 * row);
            }
            list.field[B0][at] = board as u32;
            list.field[B1][at] = (board >> 32) as u32;
        }
        *len += 1;
    }
}

/// Each row's constants for the row below it, from `first` to the row
/// above the last.
fn rows(plan: &Plan, first: usize) -> [Row; 32] {
    let mut rows = [Row::default(); 32];
    for (d, row) in rows.iter_mut().enumerate().take(plan.n - 1).skip(first) {
        let below = d + 1;
        let allowed = plan.allowed[below & 31];
        let sides = allowed & plan.sides;
        row.allowed = allowed;
        row.deadline = below == plan.deadline;
        row.table[..4].copy_from_slice(&[0, sides, sides, allowed]);
        (row.shift0, row.shift1) = if d < 8 {
            (4 * d as u32, 32)
        } else {
            (32, 4 * (d as u32 - 8))
        };
    }
    rows
}

/// The class sizes of the solutions in the lanes of `mask`: the board of
/// rows 0 to `n - 2` packed in `b0` and `b1`, the last queen in `last`.
#[cold]
#[inline(never)]
fn leaves_cold(n: usize, mut mask: u32, b0: &[u32], b1: &[u32], last: &[u32]) -> u64 {
    let mut total = 0;
    while mask != 0 {
        let lane = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let board = u64::from(b0[lane]) | u64::from(b1[lane]) << 32;
        let mut rows = [0u32; 32];
        for (row, queen) in rows.iter_mut().enumerate().take(n - 1) {
            *queen = 1 << ((board >> (4 * row)) & 15);
        }
        rows[n - 1] = last[lane];
        total += class_size(n, &rows);
    }
    total
}

#[inline(always)]
fn leaves<L: Lanes>(n: usize, mask: u32, b0: L, b1: L, last: L) -> u64 {
    if mask == 0 {
        return 0;
    }
    let mut words = [[0u32; 16]; 3];
    b0.store(&mut words[0]);
    b1.store(&mut words[1]);
    last.store(&mut words[2]);
    leaves_cold(n, mask, &words[0], &words[1], &words[2])
}

#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every job of every board from 6 to 12 rows: the lanes (each width
    /// the processor has) count exactly what the scalar walks count.
    #[test]
    fn every_job_counts_like_the_scalar_walks() {
        for n in 6..=12 {
            let jobs = super::super::jobs(n);
            for kernel in [Kernel::Avx512, Kernel::Avx2] {
                for job in jobs.starts.chunks(1) {
                    let Some(lanes) = count_with(n, &jobs.plans, job, kernel) else {
                        continue;
                    };
                    let walks = super::super::walks::count(n, &jobs.plans, job);
                    assert_eq!(lanes, walks, "n = {n}, {kernel:?}, plan {}", job[0].0);
                }
            }
        }
    }

    /// All the jobs at once, against OEIS A000170, with each width.
    #[test]
    fn the_lanes_match_oeis_a000170() {
        let a000170 = [4, 40, 92, 352, 724, 2680, 14200, 73712, 365596];
        for (n, expected) in (6..).zip(a000170) {
            let jobs = super::super::jobs(n);
            for kernel in [Kernel::Avx512, Kernel::Avx2] {
                if let Some(count) = count_with(n, &jobs.plans, &jobs.starts, kernel) {
                    assert_eq!(count, expected, "n = {n}, {kernel:?}");
                }
            }
        }
    }

    /// Three takers sharing one cursor, as `count_fast_parallel`'s threads
    /// do: each gets the starts of several plans in pieces, and together
    /// they count every board once, with each width.
    #[test]
    fn takers_sharing_one_cursor_count_every_board_once() {
        let a000170 = [4, 40, 92, 352, 724, 2680, 14200, 73712];
        for (n, expected) in (6..).zip(a000170) {
            let jobs = super::super::jobs(n);
            for kernel in [Kernel::Avx512, Kernel::Avx2] {
                let cursor = std::sync::atomic::AtomicUsize::new(0);
                let counts: Vec<Option<u64>> = std::thread::scope(|scope| {
                    let takers: Vec<_> = (0..3)
                        .map(|_| {
                            scope.spawn(|| {
                                let next = Next::Shared(&cursor);
                                count_from(n, &jobs.plans, &jobs.starts, kernel, next)
                            })
                        })
                        .collect();
                    takers
                        .into_iter()
                        .map(|t| t.join().ok().flatten())
                        .collect()
                });
                if counts.iter().all(Option::is_some) {
                    let total: u64 = counts.iter().flatten().sum();
                    assert_eq!(total, expected, "n = {n}, {kernel:?}");
                }
            }
        }
    }
}
