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
    match people {
        0 => u64::from(apples == 0),
        1 => 1,
        _ => (0..=apples).map(|left| count_naive(people - 1, left)).sum(),
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
    let mut calls = 0;
    let ways = traced(people, apples, &mut calls);
    NaiveRun { ways, calls }
}

/// The recursion itself, bumping `calls` once on every entry.
fn traced(people: u32, apples: u32, calls: &mut u64) -> u64 {
    *calls += 1;
    match people {
        0 => u64::from(apples == 0),
        1 => 1,
        _ => (0..=apples)
            .map(|left| traced(people - 1, left, calls))
            .sum(),
    }
}
// ANCHOR_END: traced_calls
