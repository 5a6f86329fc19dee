//! Interleaved branch-free walks: the kernel under [`super::count_fast`].
//!
//! The problem: visit the same tree as Takaken's counter (the same starts,
//! the same pruning rules) at a lower cost per node. A recursive or
//! explicit-stack search spends a few register operations per node and one
//! branch that nothing can predict: is there a free square below, or do we
//! try the next square, or go back up? A simulated predictor misses about
//! one such branch in six, and each miss throws away a dozen cycles of
//! work. Here that decision is data, not control.
//!
//! The state of one walk is one `u64`, its *cursor*: the index of the
//! current row's frame (top byte) and the row's untried squares (low half).
//! Each row has a 64-byte [`Frame`]: the row's bitboard triple, its *return
//! point* (the cursor to resume when the row runs out of squares), and the
//! job's rules for the row below. A step takes the lowest untried square,
//! computes the row below, writes that row's frame unconditionally, and
//! picks the next cursor with two conditional moves
//! ([`select_unpredictable`]): down if the row below has a free square,
//! else the return point. The return point is chosen when the frame is
//! written: this row with one square fewer, or, when that was the row's
//! last square, this row's own return point; so a return never lands on a
//! row with nothing left to try (at n = 16 that saves 153 million steps,
//! one per row emptied, against 246 million in all). A solution is a step
//! down into the last row, whose cursor the frame above marks with
//! [`LEAF`]; the loop reads the board before that walk steps again.
//!
//! A branch-free step is a chain of dependent operations (load the frame,
//! compute the row below, select), so one walk alone waits on its own
//! latency. Four walks on independent jobs share one loop, and the
//! processor overlaps their chains. The work is split three rows below
//! each start; a walk whose job is done takes the next one. Cost at
//! n = 13, whole process: 38 instructions and 0.06 simulated
//! mispredictions per node, against 48.5 and 0.95 for the explicit stack.

use super::{Plan, Start, class_size};
use std::hint::select_unpredictable;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Walks sharing one loop.
const WALKS: usize = 4;
/// Frames per walk: rows 0 to `n` (so `n <= MAX_N`; row `n` is only ever
/// written), then the parking and done frames and the one below the done
/// frame.
const DEPTH: usize = 32;
/// The largest board the walks take.
pub(super) const MAX_N: usize = 28;
/// A cursor keeps its frame's index in its top byte, so any index it
/// holds is below 256 and the frame below it below 257: with 257 frames
/// (the walks use the first `WALKS * DEPTH`) indexing needs no bounds
/// check and no mask.
const FRAMES: usize = 257;
const _: () = assert!(WALKS * DEPTH < FRAMES);
const SHIFT: u32 = 56;
/// The frame a finished walk steps on forever (its child is PARK + 1).
const PARK: usize = 29;
/// The frame of the cursor that ends a job: no squares, and a step on it
/// stays on it (its child is DONE + 1), so the loop need not look after
/// every step.
const DONE: usize = 30;
/// A bit of the cursor that no index or square uses: set when a walk goes
/// down into the last row, that is, when it has found a solution.
const LEAF: u64 = 1 << 40;

/// One row of a walk: its bitboard triple, its return point, and the rules
/// for the row below (written once per job).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Frame {
    cols: u32,
    left: u32,
    right: u32,
    /// Non-zero in an edge job: its solutions go through the class test.
    test: u32,
    /// Where to resume when this row is done: a cursor.
    back: u64,
    /// The cursor of the row below with no squares: a step going down
    /// adds them. For the row above the last it carries [`LEAF`].
    below: u64,
    /// Squares the plan allows in the row below, by which side columns
    /// the rows so far have taken (see [`Sides`]): the same four masks
    /// except above the deadline row, where both sides taken allow the
    /// row, one allows the other side, none allows nothing. The last row
    /// allows nothing below it.
    allowed: [u32; 4],
}

/// A cursor: frame index in the top byte, untried squares in the low half.
fn cursor(frame: usize, free: u32) -> u64 {
    (frame as u64) << SHIFT | u64::from(free)
}

/// Which of the two side columns `cols` holds, as 0 to 3 (column 0 is bit
/// 0, column `n - 1` bit 1), with one multiplication: `spread` is
/// [`spread`]`(n)`, which moves column 0 to bit 62 and column `n - 1` to
/// bit 63, and everything else below bit 62.
#[inline(always)]
fn side_index(cols: u32, sides: u32, spread: u64) -> usize {
    (u64::from(cols & sides).wrapping_mul(spread) >> 62) as usize
}

fn spread(n: usize) -> u64 {
    1 << 62 | 1 << (64 - n)
}

/// The jobs: the plans, each with whether its solutions need the class
/// test, and the starts to walk below, each with its plan's index.
pub(super) struct Jobs {
    pub(super) plans: Vec<(Plan, bool)>,
    pub(super) starts: Vec<(usize, Start)>,
}

/// Where the next start comes from: a walker's own index, or a cursor
/// that the walkers of several threads share, so that no thread's walks
/// run short of jobs while another thread still has some.
pub(super) enum Next<'a> {
    Own(usize),
    Shared(&'a AtomicUsize),
}

impl Next<'_> {
    /// The index of the next start to walk (past the end: none left).
    #[inline(always)]
    pub(super) fn take(&mut self) -> usize {
        match self {
            Next::Own(next) => {
                *next += 1;
                *next - 1
            }
            // Relaxed: the starts are only read, and the count is summed
            // after the threads are joined, which orders everything.
            Next::Shared(cursor) => cursor.fetch_add(1, Ordering::Relaxed),
        }
    }
}

/// The walks' shared state: every walk's frames and the queue of starts.
struct Walks<'a> {
    frames: Box<[Frame; FRAMES]>,
    plans: &'a [(Plan, bool)],
    starts: &'a [(usize, Start)],
    next: Next<'a>,
}

impl<'a> Walks<'a> {
    fn new(plans: &'a [(Plan, bool)], starts: &'a [(usize, Start)], next: Next<'a>) -> Self {
        let mut frames = Box::new([Frame::default(); FRAMES]);
        for w in 0..WALKS {
            // The parking frame allows nothing below and returns to itself;
            // so does the done frame, with no squares.
            frames[w * DEPTH + PARK].back = park(w);
            frames[w * DEPTH + DONE].back = done(w);
        }
        Walks {
            frames,
            plans,
            starts,
            next,
        }
    }

    /// Walk `w`'s next job with a free square: its frames written and its
    /// first cursor; `None` when the jobs are gone.
    fn load(&mut self, w: usize) -> Option<u64> {
        let base = w * DEPTH;
        while let Some(&(index, ref start)) = self.starts.get(self.next.take()) {
            let (plan, test) = &self.plans[index];
            let root = start.placed;
            let free = plan.free(root, start.cols, start.left, start.right);
            if free == 0 {
                continue;
            }
            let last = plan.n - 1;
            // The rows above the walk: their columns, for the class test.
            let mut cols = 0;
            for (row, &queen) in start.rows.iter().enumerate().take(root) {
                self.frames[base + row].cols = cols;
                cols |= queen;
            }
            for row in root..=last {
                let below = row + 1;
                let frame = &mut self.frames[base + row];
                let allowed = if row == last {
                    0
                } else {
                    plan.allowed[below & 31]
                };
                frame.allowed = if below == plan.deadline {
                    // Neither side, column 0, column n - 1, both.
                    [0, allowed & plan.sides, allowed & plan.sides, allowed]
                } else {
                    [allowed; 4]
                };
                let leaf = if below == last { LEAF } else { 0 };
                frame.below = cursor(base + below, 0) | leaf;
                frame.test = u32::from(*test);
            }
            let top = &mut self.frames[base + root];
            top.cols = start.cols;
            top.left = start.left;
            top.right = start.right;
            top.back = done(w);
            return Some(cursor(base + root, free));
        }
        None
    }
}

fn park(w: usize) -> u64 {
    cursor(w * DEPTH + PARK, 1)
}

fn done(w: usize) -> u64 {
    cursor(w * DEPTH + DONE, 0)
}

/// How a step finds which side columns are taken, as an index into
/// [`Frame::allowed`].
trait Sides {
    fn index(cols: u32, k: Consts) -> usize;
}

/// With one multiplication ([`side_index`]): portable.
struct Multiply;

impl Sides for Multiply {
    #[inline(always)]
    fn index(cols: u32, k: Consts) -> usize {
        side_index(cols, k.sides, k.spread)
    }
}

/// With BMI2's `pext`, which gathers the bits of `cols` under the mask
/// `sides` into the low bits: one instruction.
#[cfg(target_arch = "x86_64")]
struct Pext;

#[cfg(target_arch = "x86_64")]
impl Sides for Pext {
    #[inline(always)]
    #[allow(unsafe_code)]
    fn index(cols: u32, k: Consts) -> usize {
        // SAFETY: `Pext` is private to this module and only used by
        // `count_bmi`, which runs only where BMI2 was detected.
        (unsafe { std::arch::x86_64::_pext_u32(cols, k.sides) }) as usize & 3
    }
}

/// The per-search constants a step needs.
#[derive(Clone, Copy)]
struct Consts {
    sides: u32,
    spread: u64,
}

// ANCHOR: step
/// One step of one walk: place the lowest untried queen of the cursor's
/// row, write the frame below, and return the next cursor. No branch: a
/// solution is a step down into the last row, which marks the cursor with
/// [`LEAF`] for the loop to see.
#[inline(always)]
fn step<S: Sides>(frames: &mut [Frame; FRAMES], k: Consts, cur: u64) -> u64 {
    let at = (cur >> SHIFT) as usize;
    // The cursor's frame and the one below (an index below 256, so the
    // pair is in bounds and the check folds away).
    let [frame, child] = <&mut [Frame; 2]>::try_from(&mut frames[at..at + 2]).unwrap();
    let free = cur as u32;
    let bit = free & free.wrapping_neg();
    let cols = frame.cols | bit;
    let left = (frame.left | bit) << 1;
    let right = (frame.right | bit) >> 1;
    let below = frame.allowed[S::index(cols, k)] & !(cols | left | right);
    // The return point of the row below: this row with the square struck
    // off, or this row's own return point if that was its last square.
    // (`cur & (cur - 1)` clears the lowest square: a cursor that steps has
    // one, or is a done cursor, whose low half stays 0.)
    let rest = cur & cur.wrapping_sub(1);
    let back = select_unpredictable(rest as u32 != 0, rest, frame.back);
    child.cols = cols;
    child.left = left;
    child.right = right;
    child.back = back;
    select_unpredictable(below != 0, frame.below | u64::from(below), back)
}
// ANCHOR_END: step

/// The solution walk `w` has just stepped down to: its cursor `cur` holds
/// the last row's queen, the walk's frames the columns of the others. A
/// corner job's solution is a class of 8; an edge job's goes through the
/// class test.
#[cold]
#[inline(never)]
fn at_leaf(frames: &[Frame; FRAMES], cur: u64, n: usize) -> u64 {
    let at = (cur >> SHIFT) as usize;
    let base = at - at % DEPTH;
    if frames[at].test == 0 {
        return 8;
    }
    let mut rows = [0u32; 32];
    for (row, queen) in rows.iter_mut().enumerate().take(n - 1) {
        *queen = frames[base + row + 1].cols ^ frames[base + row].cols;
    }
    rows[n - 1] = cur as u32;
    class_size(n, &rows)
}

/// The solutions for `n` below `starts`, whose plans are `plans`: with
/// BMI1 and BMI2 where the processor has them (`blsi`, `blsr`, `andn`,
/// `pext`: fewer instructions per step), portable code elsewhere.
pub(super) fn count(n: usize, plans: &[(Plan, bool)], starts: &[(usize, Start)]) -> u64 {
    count_from(n, plans, starts, Next::Own(0))
}

/// [`count`] for the starts this walker takes from `next`: with a shared
/// cursor, the solutions below the starts this thread happened to take.
pub(super) fn count_from(
    n: usize,
    plans: &[(Plan, bool)],
    starts: &[(usize, Start)],
    next: Next,
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("bmi1") && is_x86_feature_detected!("bmi2") {
        #[allow(unsafe_code)]
        // SAFETY: the processor has both features, detected just above.
        return unsafe { count_bmi(n, plans, starts, next) };
    }
    walk::<Multiply>(n, plans, starts, next)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
fn count_bmi(n: usize, plans: &[(Plan, bool)], starts: &[(usize, Start)], next: Next) -> u64 {
    walk::<Pext>(n, plans, starts, next)
}

// ANCHOR: walks
/// The solutions for `n` below every job, four walks at a time. Each round
/// steps every walk once. A solution must be read before its walk steps
/// again (that step leaves the last row); a finished walk may step on its
/// done frame a few times. So after each round the loop looks for
/// solutions, and after every second one for finished walks, which take
/// the next job or park when there is none.
#[inline(always)]
fn walk<S: Sides>(n: usize, plans: &[(Plan, bool)], starts: &[(usize, Start)], next: Next) -> u64 {
    let k = Consts {
        sides: 1 | 1 << (n - 1),
        spread: spread(n),
    };
    let mut walks = Walks::new(plans, starts, next);
    let mut found = 0;
    let mut cur = [0u64; WALKS];
    let mut live = WALKS;
    loop {
        for (w, c) in cur.iter_mut().enumerate() {
            if *c & LEAF != 0 {
                found += at_leaf(&walks.frames, *c, n);
                *c &= !LEAF;
            }
            if *c as u32 == 0 {
                *c = walks.load(w).unwrap_or_else(|| {
                    live -= 1;
                    park(w)
                });
            }
        }
        if live == 0 {
            break;
        }
        let [mut a, mut b, mut c, mut d] = cur;
        let frames = &mut walks.frames;
        // Two rounds written out, so the four cursors stay in registers.
        loop {
            a = step::<S>(frames, k, a);
            b = step::<S>(frames, k, b);
            c = step::<S>(frames, k, c);
            d = step::<S>(frames, k, d);
            if (a | b | c | d) & LEAF != 0 {
                break;
            }
            a = step::<S>(frames, k, a);
            b = step::<S>(frames, k, b);
            c = step::<S>(frames, k, c);
            d = step::<S>(frames, k, d);
            let done = (a as u32 == 0) | (b as u32 == 0) | (c as u32 == 0) | (d as u32 == 0);
            if (a | b | c | d) & LEAF != 0 || done {
                break;
            }
        }
        cur = [a, b, c, d];
    }
    found
}
// ANCHOR_END: walks

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable step (the BMI2 one is what `count_fast` runs here).
    #[test]
    fn the_portable_walks_count_like_the_fast_ones() {
        let a000170 = [4, 40, 92, 352, 724, 2680, 14200, 73712];
        for (n, expected) in (6..).zip(a000170) {
            let jobs = super::super::jobs(n);
            let count = walk::<Multiply>(n, &jobs.plans, &jobs.starts, Next::Own(0));
            assert_eq!(count, expected, "n = {n}");
        }
    }

    /// Three walkers sharing one cursor, as `count_fast_parallel`'s
    /// threads do without lanes: together they count every board once.
    #[test]
    fn walkers_sharing_one_cursor_count_every_board_once() {
        let a000170 = [4, 40, 92, 352, 724, 2680, 14200, 73712];
        for (n, expected) in (6..).zip(a000170) {
            let jobs = super::super::jobs(n);
            let cursor = AtomicUsize::new(0);
            let total: u64 = std::thread::scope(|scope| {
                let walkers: Vec<_> = (0..3)
                    .map(|_| {
                        scope.spawn(|| {
                            count_from(n, &jobs.plans, &jobs.starts, Next::Shared(&cursor))
                        })
                    })
                    .collect();
                walkers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
            });
            assert_eq!(total, expected, "n = {n}");
        }
    }

    /// [`side_index`] sends column 0 to bit 0 and column `n - 1` to bit 1.
    #[test]
    fn the_side_index_reads_both_side_columns() {
        for n in 6..=MAX_N {
            let (sides, spread) = (1 | 1 << (n - 1), spread(n));
            let inner = ((1u32 << n) - 1) & !sides;
            for (cols, expected) in [(0, 0), (1, 1), (1 << (n - 1), 2), (sides, 3)] {
                assert_eq!(side_index(cols | inner, sides, spread), expected, "n = {n}");
            }
        }
    }
}
