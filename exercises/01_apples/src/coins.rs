//! Practice for chapter 1: the ways to pay an amount with coins.
//!
//! The problem: given coin values (each kind usable any number of times)
//! and an amount, count the ways to pay exactly that amount, where two
//! ways that use the same number of each kind are the same way, in
//! whatever order the coins are laid down. It is the apples recursion
//! again: the first kind "takes" some number of coins, then the other kinds
//! share what is left. The state is the kinds still to decide and the
//! amount still to pay; fixing the kinds' order is what keeps every way
//! counted once. Like the naive apples count, the number of calls grows
//! with the answer (one leaf per way, and some dead ends), so it suits
//! amounts of a few hundred; the memo of the chapter would make it
//! O(kinds × amount).

// ANCHOR: coin_ways
/// The number of ways to pay `amount` with `coins`, each a distinct value
/// usable any number of times; the order of the coins paid does not count.
/// Paying 0 takes one way (no coin at all), whatever the coins. A coin of
/// value 0 is ignored, as it would add endlessly many ways.
pub fn coin_ways(coins: &[u32], amount: u32) -> u64 {
    todo!(
        "nothing left to pay, no kind left, or sum the ways for every number \
         of coins the first kind can give (book: \
         apples/practice.md#solved-in-the-workbook-coin-sums)"
    )
}
// ANCHOR_END: coin_ways
