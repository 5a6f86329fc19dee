//! Chapter 1: the ways to hand M identical apples to N people.
//!
//! The problem: count (and then list) the vectors `(a1, ..., aN)` of
//! non-negative integers with `a1 + ... + aN = M`. The state of the search
//! is "people still to serve, apples still to hand out". The chapter goes
//! from the naive recursion (calls grow like the answer itself) through
//! memoization (O(N·M) additions) to the closed form C(M+N-1, N-1) (a few
//! big-integer products), with u64 versions that report overflow instead
//! of wrapping, and ends by listing the distributions lazily.
//!
//! Edge cases, the same in every function: with 0 people there is exactly
//! one way to hand out 0 apples (nobody gets anything) and no way to hand
//! out any apple at all; with 1 person there is always exactly one way.

// workbook: reference-only
mod binomial;
mod checked;
mod coins;
mod distributions;
mod exact;
mod input;
mod memo;
mod naive;

pub use checked::count_checked;
pub use coins::coin_ways;
pub use distributions::{Distributions, distributions};
pub use exact::count_exact;
// workbook: reference-only
pub use binomial::{binomial, count_exact_multiplicative};
pub use input::{InputError, parse_input};
pub use memo::count_memo;
pub use naive::{NaiveRun, count_naive, traced_calls};

// workbook: reference-only
pub mod book;
