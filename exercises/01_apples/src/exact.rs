//! The closed form: C(M+N-1, N-1) as an exact big integer.
//!
//! The problem: the answer outgrows every machine integer (N = M = 100,000
//! gives a number of 60,203 digits). Stars and bars turns the count into
//! one binomial coefficient, so the state is just (slots, bars) and the
//! cost is that of one big binomial: for N = M = 100,000 the reference
//! takes tens of milliseconds with a prime factorisation, where the
//! multiplicative formula takes seconds in a debug build.

use num_bigint::BigUint;

// ANCHOR: count_exact
/// The number of ways to hand `apples` apples to `people` people, exactly:
/// C(apples + people - 1, people - 1), the ways to place `people - 1`
/// bars among `apples + people - 1` slots (stars and bars). Nobody at all:
/// 1 way for no apples, else 0.
pub fn count_exact(people: u32, apples: u32) -> BigUint {
    todo!(
        "C(apples + people - 1, people - 1) as a BigUint (book: \
         apples/closed_form.md)"
    )
}
// ANCHOR_END: count_exact
