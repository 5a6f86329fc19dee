//! Practice for chapter 4: numbers into k buckets of equal sum.
//!
//! The problem: can the numbers be split into `k` groups whose sums are
//! all the same (matchsticks into a square when k = 4)? It is a small
//! constraint puzzle with this chapter's search: each number is a blank to
//! fill, each bucket a digit it may take, and a bucket that would overflow
//! its share is a digit already used. The state is the buckets' sums so
//! far. Two of the chapter's ideas cut the tree: the most constrained item
//! first (the largest numbers, which fit the fewest buckets, go first) and
//! symmetry (the empty buckets are all alike, so only the first is tried).
//! The worst case stays exponential, k^n, but the pruned tree is small for
//! the judges' sizes (n up to 16).

// ANCHOR: can_partition
/// Whether `numbers` can be split into `k` groups, each number in exactly
/// one, whose sums are all equal. Zero groups hold only an empty list.
pub fn can_partition(numbers: &[u32], k: usize) -> bool {
    if k == 0 {
        return numbers.is_empty();
    }
    let total: u64 = numbers.iter().map(|&x| u64::from(x)).sum();
    if !total.is_multiple_of(k as u64) {
        return false;
    }
    let share = total / k as u64;
    let mut largest_first: Vec<u64> = numbers.iter().map(|&x| u64::from(x)).collect();
    largest_first.sort_unstable_by(|a, b| b.cmp(a));
    let mut buckets = vec![0u64; k];
    fill_buckets(&largest_first, share, &mut buckets)
}

/// Whether the numbers `rest` fit into `buckets` (their sums so far)
/// without any bucket passing `share`. On success every bucket holds
/// exactly `share`, since the numbers add up to `k × share`.
fn fill_buckets(rest: &[u64], share: u64, buckets: &mut [u64]) -> bool {
    let Some((&first, tail)) = rest.split_first() else {
        return true;
    };
    for b in 0..buckets.len() {
        if buckets[b] + first <= share {
            buckets[b] += first;
            if fill_buckets(tail, share, buckets) {
                return true;
            }
            buckets[b] -= first;
        }
        // An empty bucket that could not take the number: every other
        // empty bucket is the same bucket, so none of them can either.
        if buckets[b] == 0 {
            break;
        }
    }
    false
}
// ANCHOR_END: can_partition
