//! The fastest counters: reference only, not an exercise.
//!
//! The problem: count the solutions for `n` up to about 18 as fast as one
//! core allows. Mirror symmetry halves the tree; the square's full symmetry
//! group (four rotations, each with or without a reflection) cuts it more. Every solution belongs to a class of 8, 4 or 2 images, and
//! we search only for the *canonical* member of each class, the one whose
//! column sequence `p(0), p(1), …` is lexicographically smallest, then add
//! the class's size.
//!
//! Canonical boards are rare, and they are easy to recognise early. Read
//! the first row of each of the 8 images of a board: it is one of the four
//! edge queens (top row, bottom row, left column, right column) measured
//! from one end of its edge or the other. So the canonical board's top
//! queen sits `k` squares from a corner, and every other edge queen at
//! least `k` squares from both of its corners. Those rules prune the search
//! by rows ([`Plan`]); a short comparison at each leaf settles the rest.
//! With a queen in the corner (`k = 0`) only the board and its transpose
//! start with `0`, and no solution is its own transpose, so the rule "the
//! second row's queen is left of the second column's" decides alone, with no
//! leaf test, and every class found there has 8 members.
//!
//! The state of the search is the bitboard triple of [`crate::bits`], one
//! frame per row; the last row is never searched, since a free square there
//! is a solution. Cost: the pruning bites only near the edges, so the
//! search places 2.0 to 2.4 times fewer queens than the mirrored one for
//! n = 6..=16 (see [`fast_nodes`]), plus a few comparisons per candidate
//! leaf. [`count_stack`] walks that tree on an explicit stack, with a branch
//! at every node that the processor guesses wrong about once in six;
//! [`count_walks`] walks the same tree with four interleaved walks that do
//! not branch at all ([`walks`]), about 16 times fewer wrong guesses and a
//! fifth fewer instructions. [`count_fast`] expands the same nodes 16 or 8
//! at a time in SIMD lanes where the processor has AVX-512 or AVX2 and the
//! board has at most 16 rows ([`lanes`]), and runs the walks elsewhere.

use crate::bits::full_mask;
use rayon::prelude::*;
use std::sync::atomic::AtomicUsize;

mod lanes;
mod walks;

pub use lanes::Kernel;

/// The pruning rules for one family of starts: the columns allowed in each
/// row, and the row by which both side columns must be taken.
#[derive(Clone, Copy)]
struct Plan {
    n: usize,
    /// The two side columns, 0 and `n - 1`.
    sides: u32,
    /// Columns allowed in each row (rows near a corner keep off the sides).
    allowed: [u32; 32],
    /// No side queen below this row, so it must take the last free side
    /// column; `usize::MAX` when there is no such rule.
    deadline: usize,
}

impl Plan {
    /// No pruning at all: the plain bitmask search, for counting its nodes.
    fn plain(n: usize) -> Plan {
        let allowed = [full_mask(n); 32];
        Plan {
            n,
            sides: 0,
            allowed,
            deadline: usize::MAX,
        }
    }

    /// A queen in the top-left corner and the second row's queen in column
    /// `b`: column 1 stays empty down to row `b`, so the second column's
    /// queen stands below row `b` and the board's sequence beats its
    /// transpose's at the second entry.
    fn corner(n: usize, b: usize) -> Plan {
        let all = full_mask(n);
        let mut allowed = [all; 32];
        for row in allowed.iter_mut().take(b + 1).skip(2) {
            *row &= !0b10;
        }
        let sides = 1 | 1 << (n - 1);
        Plan {
            n,
            sides,
            allowed,
            deadline: usize::MAX,
        }
    }

    /// The top queen `k >= 1` squares from the left corner: the side
    /// columns stay empty in the top `k` and the bottom `k` rows, and the
    /// bottom queen keeps `k` squares away from both corners.
    fn edge(n: usize, k: usize) -> Plan {
        let all = full_mask(n);
        let sides = 1 | 1 << (n - 1);
        let mut allowed = [all; 32];
        for row in allowed.iter_mut().take(k).skip(1) {
            *row &= !sides;
        }
        allowed[n - 1] = (all >> k) & (all << k);
        Plan {
            n,
            sides,
            allowed,
            deadline: n - 1 - k,
        }
    }

    /// The free squares of `row` below a position that took `cols` and
    /// attacks `left` and `right`.
    #[inline(always)]
    fn free(&self, row: usize, cols: u32, left: u32, right: u32) -> u32 {
        let free = self.allowed[row & 31] & !(cols | left | right);
        if row != self.deadline {
            return free;
        }
        // Both side queens must be placed by the end of this row.
        match cols & self.sides {
            0 => 0,
            taken if taken == self.sides => free,
            _ => free & self.sides,
        }
    }
}

/// A position to search below: `placed` rows filled, their queens one bit
/// per row in `rows`, and the bitboard triple for the next row.
#[derive(Clone, Copy)]
struct Start {
    placed: usize,
    rows: [u32; 32],
    cols: u32,
    left: u32,
    right: u32,
}

impl Start {
    fn new(first: u32) -> Start {
        let mut rows = [0; 32];
        rows[0] = first;
        Start {
            placed: 1,
            rows,
            cols: first,
            left: first << 1,
            right: first >> 1,
        }
    }

    /// This position with one more queen, `bit`, in the next row.
    fn then(mut self, bit: u32) -> Start {
        self.rows[self.placed] = bit;
        self.placed += 1;
        self.cols |= bit;
        self.left = (self.left | bit) << 1;
        self.right = (self.right | bit) >> 1;
        self
    }
}

/// One row of the explicit stack: the columns taken, the two diagonal
/// attack words, and the free squares of this row not yet tried.
#[derive(Clone, Copy, Default)]
struct Frame {
    cols: u32,
    left: u32,
    right: u32,
    free: u32,
}

// ANCHOR: kernel
/// The classes found below `start`: with `TEST` each leaf goes through
/// [`class_size`] (0 unless canonical), without it each leaf is a class of
/// 8. With `CLASSES` a class adds 1, otherwise its size. Iterative: the
/// stack holds one frame per row, and the last row is never entered.
fn subtree<const TEST: bool, const CLASSES: bool>(plan: &Plan, start: &Start) -> u64 {
    let (last, mut depth, mut rows) = (plan.n - 1, start.placed, start.rows);
    let (cols, left, right) = (start.cols, start.left, start.right);
    let free = plan.free(depth, cols, left, right);
    let mut top = Frame {
        cols,
        left,
        right,
        free,
    };
    let mut stack = [Frame::default(); 32];
    let mut total = 0u64;
    loop {
        if top.free == 0 {
            if depth == start.placed {
                return total;
            }
            depth -= 1;
            top = stack[depth & 31];
            continue;
        }
        let bit = top.free & top.free.wrapping_neg();
        top.free ^= bit;
        if TEST {
            // Only the leaf test reads the board.
            rows[depth & 31] = bit;
        }
        let cols = top.cols | bit;
        let left = (top.left | bit) << 1;
        let right = (top.right | bit) >> 1;
        let free = plan.free(depth + 1, cols, left, right);
        if depth + 1 == last {
            if free != 0 {
                let size = if TEST {
                    rows[last & 31] = free;
                    class_size(plan.n, &rows)
                } else {
                    8
                };
                total += if CLASSES { u64::from(size != 0) } else { size };
            }
        } else if free != 0 {
            stack[depth & 31] = top;
            depth += 1;
            top = Frame {
                cols,
                left,
                right,
                free,
            };
        }
    }
}
// ANCHOR_END: kernel

// ANCHOR: class_size
/// 0 unless the board (one bit per row) is the smallest of its 8 images,
/// read as column sequences; otherwise the number of distinct images: 8
/// divided by the number of symmetries that leave it unchanged.
fn class_size(n: usize, rows: &[u32; 32]) -> u64 {
    let m = n - 1;
    let (mut p, mut inv) = ([0usize; 32], [0usize; 32]);
    for (row, &bit) in rows.iter().enumerate().take(n) {
        let col = bit.trailing_zeros() as usize & 31;
        p[row] = col;
        inv[col] = row;
    }
    // Row x of each image, for the 7 symmetries other than the identity.
    let images: [&dyn Fn(usize) -> usize; 7] = [
        &|x| m - inv[x],     // a quarter turn
        &|x| m - p[m - x],   // a half turn
        &|x| inv[m - x],     // three quarters
        &|x| m - p[x],       // left-right mirror
        &|x| p[m - x],       // upside down
        &|x| inv[x],         // transpose
        &|x| m - inv[m - x], // the other diagonal
    ];
    let mut fixed = 1;
    for image in images {
        match (0..n).map(image).cmp(p[..n].iter().copied()) {
            std::cmp::Ordering::Less => return 0,
            std::cmp::Ordering::Equal => fixed += 1,
            std::cmp::Ordering::Greater => {}
        }
    }
    8 / fixed
}
// ANCHOR_END: class_size

/// A start with the rules that prune below it.
type Task = (Plan, Start);

/// Every family of starts: the corner starts (two rows placed, no leaf
/// test) and the edge starts (one row placed, leaf test).
fn starts(n: usize) -> (Vec<Task>, Vec<Task>) {
    let corner = (2..n - 1)
        .map(|b| (Plan::corner(n, b), Start::new(1).then(1 << b)))
        .collect();
    let edge = (1..=(n - 1) / 2)
        .map(|k| (Plan::edge(n, k), Start::new(1 << k)))
        .collect();
    (corner, edge)
}

/// Boards below this size fall back on [`crate::count_mirror`]: the
/// families above assume a few rows between the corners.
const SMALL: usize = 6;

// ANCHOR: count_fast
/// The number of solutions for `n` queens (`n <= 32`) on one core, as fast
/// as this chapter gets: the canonical boards, each weighted by its class,
/// found in SIMD lanes ([`lanes`]) or, without them, by four interleaved
/// branch-free walks ([`walks`]).
pub fn count_fast(n: usize) -> u64 {
    if n < SMALL {
        return crate::count_mirror(n);
    }
    if n > walks::MAX_N {
        return search::<false>(n);
    }
    let jobs = jobs(n);
    lanes::count(n, &jobs.plans, &jobs.starts)
        .unwrap_or_else(|| walks::count(n, &jobs.plans, &jobs.starts))
}

/// Rows below each start at which the work is split into jobs.
const SPLIT: usize = 3;

/// Every start split [`SPLIT`] rows deeper (never past row `n - 2`, the
/// last a walk steps from), each with its family's plan, which says
/// whether its solutions need the class test.
fn jobs(n: usize) -> walks::Jobs {
    let (corner, edge) = starts(n);
    let tagged = corner
        .into_iter()
        .map(|task| (task, false))
        .chain(edge.into_iter().map(|task| (task, true)));
    let mut jobs = walks::Jobs {
        plans: Vec::new(),
        starts: Vec::new(),
    };
    for ((plan, start), test) in tagged {
        let index = jobs.plans.len();
        jobs.plans.push((plan, test));
        let depth = (start.placed + SPLIT).min(n - 2);
        split(&plan, start, depth, &mut |start| {
            jobs.starts.push((index, start))
        });
    }
    jobs
}

/// Every position below `start` with `depth` rows placed, in order.
fn split(plan: &Plan, start: Start, depth: usize, out: &mut impl FnMut(Start)) {
    if start.placed == depth {
        return out(start);
    }
    let mut free = plan.free(start.placed, start.cols, start.left, start.right);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        split(plan, start.then(bit), depth, out);
    }
}

/// [`count_fast`] on the scalar walks alone, never the lanes: what the
/// lanes are measured against.
pub fn count_walks(n: usize) -> u64 {
    if !(SMALL..=walks::MAX_N).contains(&n) {
        return count_fast(n);
    }
    let jobs = jobs(n);
    walks::count(n, &jobs.plans, &jobs.starts)
}

/// [`count_fast`] on the given lanes, `None` where they do not apply (a
/// board past 16 rows or below 6, or a processor without them).
pub fn count_lanes(n: usize, kernel: Kernel) -> Option<u64> {
    if n < SMALL {
        return None;
    }
    let jobs = jobs(n);
    lanes::count_with(n, &jobs.plans, &jobs.starts, kernel)
}

/// [`count_fast`]'s search before the walks: one explicit-stack search per
/// start, with a branch at every node (the chapter's table compares them).
pub fn count_stack(n: usize) -> u64 {
    if n < SMALL {
        return crate::count_mirror(n);
    }
    search::<false>(n)
}

// ANCHOR_END: count_fast

/// The kernel summed over every start: class sizes, or with `CLASSES` one
/// per class. Corner starts need no leaf test.
fn search<const CLASSES: bool>(n: usize) -> u64 {
    let (corner, edge) = starts(n);
    let corner: u64 = corner
        .iter()
        .map(|(p, s)| subtree::<false, CLASSES>(p, s))
        .sum();
    let edge: u64 = edge
        .iter()
        .map(|(p, s)| subtree::<true, CLASSES>(p, s))
        .sum();
    corner + edge
}

/// [`count_fast`] on all cores: the same jobs, and every thread's lanes
/// (or scalar walks) take them from one shared cursor, so each thread's
/// engines stay full until the last job is taken, and the cores finish
/// together (chunks of jobs, one rayon task each, left every chunk's last
/// steps with idle lanes and gave 1.86x on two cores at n = 16 where the
/// cursor gives about 1.95x).
pub fn count_fast_parallel(n: usize) -> u64 {
    if n < SMALL {
        return crate::count_mirror(n);
    }
    if n > walks::MAX_N {
        return count_fast(n);
    }
    let jobs = jobs(n);
    let (plans, starts) = (&jobs.plans, &jobs.starts);
    let kernel = lanes::kernel(n);
    let cursor = AtomicUsize::new(0);
    (0..rayon::current_num_threads())
        .into_par_iter()
        .with_max_len(1)
        .map(|_| {
            let next = || walks::Next::Shared(&cursor);
            kernel
                .and_then(|kernel| lanes::count_from(n, plans, starts, kernel, next()))
                .unwrap_or_else(|| walks::count_from(n, plans, starts, next()))
        })
        .sum()
}

/// The number of essentially different solutions (OEIS A002562): boards
/// that no rotation or reflection turns into one another.
pub fn count_unique(n: usize) -> u64 {
    if n < SMALL {
        // 1, 1, 0, 0, 1, 2: the empty board, one queen, none, none, the
        // 4x4 pair (one class), and the 5x5 ten (a class of 8 and one of 2).
        return [1, 1, 0, 0, 1, 2][n];
    }
    search::<true>(n)
}

/// Queens placed by [`count_fast`]'s search: the first row's queens, the
/// corner starts' second queens, and every queen placed below a start.
pub fn fast_nodes(n: usize) -> u64 {
    if n < SMALL {
        return bitmask_nodes(n).1;
    }
    let (corner, edge) = starts(n);
    let first_row = 1 + edge.len() as u64;
    let below = corner
        .iter()
        .chain(&edge)
        .map(|(plan, s)| plan_nodes(plan, s.placed, s.cols, s.left, s.right))
        .sum::<u64>();
    first_row + corner.len() as u64 + below
}

fn plan_nodes(plan: &Plan, row: usize, cols: u32, left: u32, right: u32) -> u64 {
    let mut free = plan.free(row, cols, left, right);
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += 1;
        if row + 1 < plan.n {
            total += plan_nodes(
                plan,
                row + 1,
                cols | bit,
                (left | bit) << 1,
                (right | bit) >> 1,
            );
        }
    }
    total
}

/// Queens placed by the plain bitmask search ([`crate::count_bits`]) and by
/// the mirrored one ([`crate::count_mirror`]): the nodes each visits, for
/// the chapter's table.
pub fn bitmask_nodes(n: usize) -> (u64, u64) {
    let plan = Plan::plain(n);
    let placed = |bit: u32| 1 + plan_nodes(&plan, 1, bit, bit << 1, bit >> 1);
    let plain = (0..n).map(|c| placed(1 << c)).sum();
    let half: u64 = (0..n.div_ceil(2)).map(|c| placed(1 << c)).sum();
    (plain, half)
}
