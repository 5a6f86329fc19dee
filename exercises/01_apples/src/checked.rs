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
    todo!(
        "the multiplicative formula in a u64, each product in a u128, None \
         once a value does not fit (book: apples/overflow.md)"
    )
}
// ANCHOR_END: count_checked
