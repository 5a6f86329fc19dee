//! The reference-only counters (not exercises, so not in the suite): the
//! explicit-stack bitboard counter, the walks and the lanes, the parallel
//! form, and the node counts the chapter's table uses.

use n_queens_solution::fast::{
    Kernel, bitmask_nodes, count_fast, count_fast_parallel, count_lanes, count_stack, count_unique,
    count_walks, fast_nodes,
};

/// OEIS A000170, n = 0..=16.
const A000170: [u64; 17] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
];

/// Every n to 16 (under a second in the test profile); n = 17 costs about
/// six seconds there, so it is checked by the `n_queens_oeis` example with
/// n = 18, in release.
#[test]
fn count_fast_matches_oeis_a000170() {
    for (n, &expected) in A000170.iter().enumerate().take(17) {
        assert_eq!(count_fast(n), expected, "count_fast({n})");
    }
}

/// `count_fast`'s kernels one by one, to 15: the scalar walks, and each
/// lane width this processor has (`count_fast` itself runs the widest).
#[test]
fn each_kernel_matches_oeis_a000170() {
    for (n, &expected) in A000170.iter().enumerate().take(16).skip(6) {
        assert_eq!(count_walks(n), expected, "count_walks({n})");
        for kernel in [Kernel::Avx512, Kernel::Avx2] {
            if let Some(count) = count_lanes(n, kernel) {
                assert_eq!(count, expected, "count_lanes({n}, {kernel:?})");
            }
        }
    }
}

#[test]
fn count_stack_matches_oeis_a000170() {
    for (n, &expected) in A000170.iter().enumerate().take(14) {
        assert_eq!(count_stack(n), expected, "count_stack({n})");
    }
}

#[test]
fn count_fast_parallel_matches_oeis_a000170() {
    for (n, &expected) in A000170.iter().enumerate().take(16) {
        assert_eq!(count_fast_parallel(n), expected, "count_fast_parallel({n})");
    }
}

/// Essentially different solutions, n = 0..=14 (OEIS A002562, with 1 for
/// the empty board).
const A002562: [u64; 15] = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

#[test]
fn count_unique_matches_oeis_a002562() {
    for (n, &expected) in A002562.iter().enumerate() {
        assert_eq!(count_unique(n), expected, "count_unique({n})");
    }
}

#[test]
fn the_symmetric_search_visits_under_half_of_the_mirrored_nodes() {
    for n in [8, 10, 12] {
        let (_, half) = bitmask_nodes(n);
        let fast = fast_nodes(n);
        assert!(2 * fast < half, "n = {n}: {fast} nodes against {half}");
    }
}

#[test]
fn the_mirror_visits_about_half_the_nodes() {
    // n = 8: 2056 queens placed by the full search (the lazy iterator's count).
    let (plain, half) = bitmask_nodes(8);
    assert_eq!(plain, 2056);
    assert!(half < plain && 2 * half >= plain, "{half} of {plain}");
}
