//! The fastest counters: reference only, not an exercise.
//!
//! The problem: count the solutions for `n` up to about 18 as fast as one
//! core allows. The state is the bitboard triple of [`crate::bits`], kept
//! on an explicit stack (one entry per row) instead of the call stack, so
//! the inner loop is a few register operations: take the lowest free bit
//! with `bits & bits.wrapping_neg()`, push, descend. The last row is never
//! entered: a row with a free square there is one more solution. Symmetry
//! fixes the first queen in the left half (doubled), and for odd `n` with
//! the first queen in the middle column, the second queen in the left half
//! (doubled too), as in Jeff Somers' classic program.

use crate::bits::full_mask;
use rayon::prelude::*;

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
/// Solutions below a position whose `placed` rows took `cols` and attack
/// the next row along `left` and `right`; `all` has one bit per column and
/// `n` rows in total. Iterative: the stack holds one frame per row.
fn subtree(n: usize, all: u32, placed: usize, cols: u32, left: u32, right: u32) -> u64 {
    if placed == n {
        return 1;
    }
    let mut stack = [Frame::default(); 32];
    let mut depth = placed; // the row whose squares `top.free` lists
    let last = n - 1;
    let mut top = Frame {
        cols,
        left,
        right,
        free: all & !(cols | left | right),
    };
    if depth == last {
        return u64::from(top.free != 0);
    }
    let mut total = 0u64;
    loop {
        if top.free == 0 {
            if depth == placed {
                return total;
            }
            depth -= 1;
            top = stack[depth];
            continue;
        }
        let bit = top.free & top.free.wrapping_neg();
        top.free ^= bit;
        let cols = top.cols | bit;
        let left = (top.left | bit) << 1;
        let right = (top.right | bit) >> 1;
        let free = all & !(cols | left | right);
        if depth + 1 == last {
            // The last row has at most one free square: no need to enter.
            total += u64::from(free != 0);
        } else if free != 0 {
            stack[depth] = top;
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

/// The symmetry-reduced starting positions: (first row bits, second row
/// bits or 0 for "any", weight). Their weighted subtree counts add up to
/// the number of solutions.
fn starts(n: usize) -> Vec<(u32, u32, u64)> {
    let mut out: Vec<(u32, u32, u64)> = (0..n / 2).map(|c| (1u32 << c, 0, 2)).collect();
    if n % 2 == 1 {
        let mid = 1u32 << (n / 2);
        // First queen in the middle: mirror the second one instead.
        out.extend(
            (0..n / 2)
                .map(|c| 1u32 << c)
                .filter(|&b| b & (mid | mid >> 1) == 0)
                .map(|b| (mid, b, 2)),
        );
    }
    out
}

/// The subtree below one start of [`starts`].
fn start_count(n: usize, all: u32, (first, second, weight): (u32, u32, u64)) -> u64 {
    let (cols, left, right, placed) = if second == 0 {
        (first, first << 1, first >> 1, 1)
    } else {
        let left = (first << 1 | second) << 1;
        let right = (first >> 1 | second) >> 1;
        (first | second, left, right, 2)
    };
    weight * subtree(n, all, placed, cols, left, right)
}

// ANCHOR: count_fast
/// The number of solutions for `n` queens (`n <= 32`) on one core, as fast
/// as this chapter gets.
pub fn count_fast(n: usize) -> u64 {
    let all = full_mask(n);
    if n < 2 {
        return 1;
    }
    starts(n).into_iter().map(|s| start_count(n, all, s)).sum()
}
// ANCHOR_END: count_fast

/// [`count_fast`] on all cores: the starts of the first two rows become
/// independent tasks.
pub fn count_fast_parallel(n: usize) -> u64 {
    let all = full_mask(n);
    if n < 2 {
        return 1;
    }
    let tasks: Vec<(u32, u32, u64)> = starts(n)
        .into_iter()
        .flat_map(|(first, second, weight)| split(n, first, second, weight))
        .collect();
    tasks.into_par_iter().map(|s| start_count(n, all, s)).sum()
}

/// A one-row start split into one task per safe second-row queen.
fn split(n: usize, first: u32, second: u32, weight: u64) -> Vec<(u32, u32, u64)> {
    if second != 0 {
        return vec![(first, second, weight)];
    }
    let attacked = first | first << 1 | first >> 1;
    (0..n)
        .map(|d| 1u32 << d)
        .filter(|&b| b & attacked == 0)
        .map(|b| (first, b, weight))
        .collect()
}

/// Queens placed by the plain bitmask search ([`crate::count_bits`]) and by
/// the mirrored one ([`crate::count_mirror`]): the nodes each visits, for
/// the chapter's table.
pub fn bitmask_nodes(n: usize) -> (u64, u64) {
    let all = full_mask(n);
    let placed = |bit: u32| 1 + nodes_below(all, bit, bit << 1, bit >> 1);
    let plain = (0..n).map(|c| placed(1 << c)).sum();
    let half: u64 = (0..n.div_ceil(2)).map(|c| placed(1 << c)).sum();
    (plain, half)
}

fn nodes_below(all: u32, cols: u32, left: u32, right: u32) -> u64 {
    let mut free = all & !(cols | left | right);
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += 1 + nodes_below(all, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    total
}
