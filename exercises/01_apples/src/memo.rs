//! Memoization: each (people, apples) answer computed once.
//!
//! The problem: the naive recursion asks for the same (n, m) again and
//! again. The state is a table row: `row[m]` is the number of ways for the
//! people served so far. Adding one person turns the row into its running
//! sums, since ways(n, m) = ways(n, m-1) + ways(n-1, m). Cost: O(N·M)
//! checked additions and O(M) memory.

// ANCHOR: count_memo
/// The number of ways to hand `apples` apples to `people` people, or `None`
/// if it does not fit in a `u64`. Fills the table of ways(n, m) one person
/// at a time, keeping only the current row.
///
/// Every entry of the table is at most the final answer (the count grows
/// with both people and apples), so an addition overflows only when the
/// answer itself does not fit.
pub fn count_memo(people: u32, apples: u32) -> Option<u64> {
    todo!(
        "fill the table of ways(n, m) one person at a time with checked \
         additions (book: apples/memo.md)"
    )
}
// ANCHOR_END: count_memo
