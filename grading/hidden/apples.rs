//! Hidden suite for chapter 1: differential tests on random inputs.
//!
//! Learners never see this file; `workbook grade` compiles it into their
//! crate with the reference as a dev-dependency. Inputs come from a fixed
//! seed (SplitMix64), so a grade never changes between runs. Module names
//! are exercise names; sizes stay where the naive recursion is quick.

use apples as learner;
use apples_solution as reference;

mod rng;
use rng::Rng;

impl Rng {
    /// [`Rng::below`] for the chapter's `u32` arguments.
    fn below32(&mut self, n: u32) -> u32 {
        self.below(n as usize) as u32
    }
}

mod count_naive {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_100_small_random_cases() {
        let mut rng = Rng(11);
        for _ in 0..100 {
            let (p, a) = (rng.below32(7), rng.below32(9));
            assert_eq!(learner::count_naive(p, a), reference::count_naive(p, a), "count_naive({p}, {a})");
        }
    }
}

mod traced_calls {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_100_small_random_cases() {
        let mut rng = Rng(12);
        for _ in 0..100 {
            let (p, a) = (rng.below32(7), rng.below32(9));
            let (got, want) = (learner::count_naive_traced(p, a), reference::count_naive_traced(p, a));
            assert_eq!((got.ways, got.calls), (want.ways, want.calls), "count_naive_traced({p}, {a}) as (ways, calls)");
        }
    }
}

mod count_memo {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_cases_overflow_included() {
        let mut rng = Rng(13);
        for _ in 0..300 {
            let (p, a) = (rng.below32(60), rng.below32(200));
            assert_eq!(learner::count_memo(p, a), reference::count_memo(p, a), "count_memo({p}, {a})");
        }
    }
}

mod count_exact {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_200_random_cases() {
        let mut rng = Rng(14);
        for _ in 0..200 {
            let (p, a) = (rng.below32(300), rng.below32(1000));
            assert_eq!(learner::count_exact(p, a), reference::count_exact(p, a), "count_exact({p}, {a})");
        }
    }
}

mod count_checked {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_300_random_cases_overflow_included() {
        let mut rng = Rng(15);
        for _ in 0..300 {
            let (p, a) = (rng.below32(80), rng.below32(400));
            assert_eq!(learner::count_checked(p, a), reference::count_checked(p, a), "count_checked({p}, {a})");
        }
    }
}

mod distributions {
    use super::*;

    #[test]
    fn agrees_with_the_reference_on_50_small_random_cases() {
        let mut rng = Rng(16);
        for _ in 0..50 {
            let (p, a) = (rng.below32(5), rng.below32(6));
            let got: Vec<Vec<u32>> = learner::distributions(p, a).collect();
            let want: Vec<Vec<u32>> = reference::distributions(p, a).collect();
            assert_eq!(got, want, "distributions({p}, {a}).collect()");
        }
    }
}
