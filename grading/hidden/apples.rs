//! Hidden suite for chapter 1: differential tests on random inputs.
//!
//! An example of the mechanism (it ships in the learners' repository: keep
//! your real suites outside it); `grader grade` compiles it into their
//! crate with the reference as a dev-dependency. Inputs come from the run's
//! secret seed (`rng.rs`), so a grade is the same for every learner of a
//! run and no learner can compute the inputs ahead. Module names
//! are exercise names. Every exercise meets at least one domain too large
//! to tabulate: the naive recursion's sizes are bounded by its number of
//! calls, not by a small square, so a person or two may share millions of
//! apples while a dozen share a few; the formulas take any `u32`, drawn
//! with log-uniform magnitudes so small, medium and huge all occur.

use apples as learner;
use apples_solution as reference;

mod rng;
use rng::Rng;

impl Rng {
    /// [`Rng::below`] for the chapter's `u32` arguments.
    fn below32(&mut self, n: u32) -> u32 {
        self.below(n as usize) as u32
    }

    /// A `u32` of a random bit length in `0..=bits`: as many tiny as huge.
    fn magnitude(&mut self, bits: u32) -> u32 {
        let len = self.below(bits.min(32) as usize + 1) as u32;
        (self.next() & ((1u64 << len) - 1)) as u32
    }

    /// People and apples whose count `cost(people, apples)` stays within
    /// `budget`: people in `0..=most`, then apples drawn up to the largest
    /// number the budget allows (any `u32` when the cost does not grow).
    fn within(&mut self, most: u32, budget: u128, cost: fn(u32, u32) -> u128) -> (u32, u32) {
        let people = self.below32(most + 1);
        if cost(people, u32::MAX) <= budget {
            return (people, self.magnitude(32));
        }
        let (mut lo, mut hi) = (0u32, u32::MAX);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if cost(people, mid) <= budget {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        (people, self.below32(lo.saturating_add(1)))
    }
}

/// C(n, k) in a `u128`, saturating (only compared with budgets).
fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut value = 1u128;
    for i in 1..=u128::from(k) {
        match value.checked_mul(u128::from(n) - u128::from(k) + i) {
            Some(product) => value = product / i,
            None => return u128::MAX,
        }
    }
    value
}

/// The calls of the reference recursion: C(m + n, n - 1), 1 for nobody.
fn calls(people: u32, apples: u32) -> u128 {
    match people {
        0 => 1,
        _ => binomial(u64::from(apples) + u64::from(people), u64::from(people) - 1),
    }
}

/// The calls of a recursion without the one-person base case (one level
/// deeper everywhere), so a correct but plainer count_naive is not judged
/// by a timeout.
fn plain_calls(people: u32, apples: u32) -> u128 {
    calls(people.saturating_add(1), apples)
}

/// How many distributions there are, C(m + n - 1, n - 1).
fn listed(people: u32, apples: u32) -> u128 {
    match people {
        0 => 1,
        _ => binomial(
            u64::from(apples) + u64::from(people) - 1,
            u64::from(people) - 1,
        ),
    }
}

mod count_naive {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_100_small_random_cases() {
        let mut rng = Rng::stream(11);
        for _ in 0..100 {
            let (p, a) = (rng.below32(7), rng.below32(9));
            assert_eq!(
                learner::count_naive(p, a),
                reference::count_naive(p, a),
                "count_naive({p}, {a})"
            );
        }
    }

    #[test]
    fn agrees_with_the_reference_on_100_random_cases_of_up_to_200_000_calls() {
        let mut rng = Rng::stream(17);
        for _ in 0..100 {
            let (p, a) = rng.within(12, 200_000, plain_calls);
            assert_eq!(
                learner::count_naive(p, a),
                reference::count_naive(p, a),
                "count_naive({p}, {a})"
            );
        }
    }
}

mod traced_calls {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_100_small_random_cases() {
        let mut rng = Rng::stream(12);
        for _ in 0..100 {
            let (p, a) = (rng.below32(7), rng.below32(9));
            let (got, want) = (
                learner::traced_calls(p, a),
                reference::traced_calls(p, a),
            );
            assert_eq!(
                (got.ways, got.calls),
                (want.ways, want.calls),
                "traced_calls({p}, {a}) as (ways, calls)"
            );
        }
    }

    #[test]
    fn agrees_with_the_reference_on_100_random_cases_of_up_to_200_000_calls() {
        let mut rng = Rng::stream(18);
        for _ in 0..100 {
            let (p, a) = rng.within(12, 200_000, calls);
            let (got, want) = (
                learner::traced_calls(p, a),
                reference::traced_calls(p, a),
            );
            assert_eq!(
                (got.ways, got.calls),
                (want.ways, want.calls),
                "traced_calls({p}, {a}) as (ways, calls)"
            );
        }
    }
}

mod count_memo {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_cases_overflow_included() {
        let mut rng = Rng::stream(13);
        for _ in 0..300 {
            let (p, a) = (rng.below32(60), rng.below32(200));
            assert_eq!(
                learner::count_memo(p, a),
                reference::count_memo(p, a),
                "count_memo({p}, {a})"
            );
        }
    }

    #[test]
    fn agrees_with_the_reference_on_200_random_cases_of_up_to_a_million_cells() {
        // The table is people x (apples + 1) additions at most: a few people
        // may share a million apples, a thousand people share a thousand.
        let mut rng = Rng::stream(19);
        for _ in 0..200 {
            let p = rng.magnitude(11);
            let a = rng.below32(1_000_000 / p.max(1) + 1);
            assert_eq!(
                learner::count_memo(p, a),
                reference::count_memo(p, a),
                "count_memo({p}, {a})"
            );
        }
    }
}

mod count_exact {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_200_random_cases() {
        let mut rng = Rng::stream(14);
        for _ in 0..200 {
            let (p, a) = (rng.below32(300), rng.below32(1000));
            assert_eq!(
                learner::count_exact(p, a),
                reference::count_exact(p, a),
                "count_exact({p}, {a})"
            );
        }
    }

    #[test]
    fn agrees_with_the_reference_when_one_side_is_any_u32_and_the_other_small() {
        // C(m + n - 1, n - 1) takes min(n - 1, m) steps of the
        // multiplicative formula: one side up to 4e9 keeps the value huge
        // and, with the other side under 64, the work small (a sieve up to
        // n is no way to get there).
        let mut rng = Rng::stream(10);
        for _ in 0..200 {
            let (big, small) = (rng.magnitude(32), rng.below32(64));
            let (p, a) = if rng.below(2) == 0 {
                (big, small)
            } else {
                (small, big)
            };
            assert_eq!(
                learner::count_exact(p, a),
                reference::count_exact(p, a),
                "count_exact({p}, {a})"
            );
        }
    }
}

mod count_checked {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_cases_overflow_included() {
        let mut rng = Rng::stream(15);
        for _ in 0..300 {
            let (p, a) = (rng.below32(80), rng.below32(400));
            assert_eq!(
                learner::count_checked(p, a),
                reference::count_checked(p, a),
                "count_checked({p}, {a})"
            );
        }
    }

    #[test]
    fn agrees_with_the_reference_on_1000_random_u32_pairs_of_every_magnitude() {
        let mut rng = Rng::stream(9);
        for _ in 0..1000 {
            let (p, a) = (rng.magnitude(32), rng.magnitude(32));
            assert_eq!(
                learner::count_checked(p, a),
                reference::count_checked(p, a),
                "count_checked({p}, {a})"
            );
        }
    }
}

mod distributions {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_50_small_random_cases() {
        let mut rng = Rng::stream(16);
        for _ in 0..50 {
            let (p, a) = (rng.below32(5), rng.below32(6));
            let got: Vec<Vec<u32>> = learner::distributions(p, a).collect();
            let want: Vec<Vec<u32>> = reference::distributions(p, a).collect();
            assert_eq!(got, want, "distributions({p}, {a}).collect()");
        }
    }

    #[test]
    fn agrees_with_the_reference_on_60_random_listings_of_up_to_3000_items() {
        let mut rng = Rng::stream(8);
        for _ in 0..60 {
            let (p, a) = rng.within(8, 3000, listed);
            let got: Vec<Vec<u32>> = learner::distributions(p, a).collect();
            let want: Vec<Vec<u32>> = reference::distributions(p, a).collect();
            assert!(
                got == want,
                "distributions({p}, {a}).collect() listed {} items, the reference {}; the first difference is at item {}",
                got.len(),
                want.len(),
                got.iter().zip(&want).take_while(|(g, w)| g == w).count()
            );
        }
    }

    #[test]
    fn the_first_200_agree_with_the_reference_on_100_random_huge_listings() {
        let mut rng = Rng::stream(7);
        for _ in 0..100 {
            let (p, a) = (rng.below32(60), rng.magnitude(32));
            let got: Vec<Vec<u32>> = learner::distributions(p, a).take(200).collect();
            let want: Vec<Vec<u32>> = reference::distributions(p, a).take(200).collect();
            assert_eq!(got, want, "distributions({p}, {a}).take(200).collect()");
        }
    }
}

mod coin_ways {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_purses() {
        let mut rng = Rng::stream(20);
        for _ in 0..300 {
            // Distinct values, so every kind is a kind of its own.
            let mut coins: Vec<u32> = (0..rng.below(6)).map(|_| 1 + rng.below32(25)).collect();
            coins.sort_unstable();
            coins.dedup();
            if rng.below(2) == 0 {
                coins.reverse();
            }
            let amount = rng.below32(80);
            let (got, want) = (learner::coin_ways(&coins, amount), reference::coin_ways(&coins, amount));
            assert_eq!(got, want, "coin_ways(&{coins:?}, {amount})");
        }
    }
}
