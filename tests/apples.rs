//! The chapter 1 suite: handing M identical apples to N people.
//!
//! One file checks both the learner's crate (`apples`) and the reference
//! (`apples_solution`, with `--features reference`). Each module is one
//! exercise; its `check` helper is the only place that calls the function
//! under test, so a failing case always says what was called, what came
//! back, what was expected and where the book explains it.
//!
//! The oracles here are independent of every stage: a brute-force
//! enumeration of all share vectors (small sizes) and a `u128` binomial
//! coefficient (medium sizes), plus a big-integer one past that. No
//! exercise is judged by another exercise's answer.

#[cfg(not(feature = "reference"))]
use apples as subject;
#[cfg(feature = "reference")]
use apples_solution as subject;

use num_bigint::BigUint;
use proptest::prelude::*;
use rstest::rstest;

#[macro_use]
mod support;
use support::why;

/// Every vector of `people` shares from 0..=apples that sums to `apples`,
/// found by counting through all (apples+1)^people vectors like an
/// odometer: that walk is lexicographic, so the result is sorted.
fn brute_force(people: u32, apples: u32) -> Vec<Vec<u32>> {
    let mut found = Vec::new();
    let mut shares = vec![0u32; people as usize];
    loop {
        if shares.iter().sum::<u32>() == apples {
            found.push(shares.clone());
        }
        // Advance the odometer: the last digit turns fastest.
        let Some(digit) = shares.iter().rposition(|&s| s < apples) else {
            return found;
        };
        shares[digit] += 1;
        shares[digit + 1..].fill(0);
    }
}

/// C(n, k) in a `u128`, for the medium sizes the oracles need.
fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (1..=k).fold(1u128, |acc, i| acc * u128::from(n - k + i) / u128::from(i))
}

/// The number of ways by the closed form, from the independent oracle.
fn ways(people: u32, apples: u32) -> u128 {
    match people {
        0 => u128::from(apples == 0),
        _ => binomial(
            u64::from(apples) + u64::from(people) - 1,
            u64::from(people) - 1,
        ),
    }
}

/// The number of ways as a big integer (the multiplicative formula), for
/// sizes past a `u128`.
fn big_ways(people: u32, apples: u32) -> BigUint {
    if people == 0 {
        return BigUint::from(u8::from(apples == 0));
    }
    let (n, k) = (
        u64::from(apples) + u64::from(people) - 1,
        u64::from(people) - 1,
    );
    (1..=k).fold(BigUint::from(1u8), |acc, i| acc * (n - k + i) / i)
}

/// A table with one row per number of people and one column per number of
/// apples, for snapshots a reader can check by eye.
fn table(rows: u32, columns: u32, cell: impl Fn(u32, u32) -> String) -> String {
    let mut out = String::from("N\\M");
    for m in 0..=columns {
        out += &format!("{m:>8}");
    }
    for n in 0..=rows {
        out += &format!("\n{n:>3}");
        for m in 0..=columns {
            out += &format!("{:>8}", cell(n, m));
        }
    }
    out
}

mod count_naive {
    use super::*;
    use subject::count_naive;

    #[track_caller]
    fn check(people: u32, apples: u32, expected: u64) {
        let got = crate::support::guard(
            &format!("count_naive({people}, {apples})"),
            &format!("{expected}"),
            why(
                "the first person takes 0..=apples and the others share the rest (book: chapter 1, \"The recursion and its base cases\")",
            ),
            || count_naive(people, apples),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "count_naive({people}, {apples}) returned {got}, expected {expected}: the first person takes 0..=apples and the others share the rest; one person is 1 way; nobody is 1 way for 0 apples and 0 ways otherwise (book: chapter 1, \"The recursion and its base cases\")",
                people,
                apples,
                got,
                expected
            )
        );
    }

    #[rstest]
    #[case::nobody_and_no_apples_is_one_way(0, 0, 1)]
    #[case::nobody_cannot_take_apples(0, 3, 0)]
    #[case::one_person_and_no_apples(1, 0, 1)]
    #[case::one_person_takes_everything(1, 7, 1)]
    #[case::no_apples_for_many_people_is_one_way(6, 0, 1)]
    #[case::two_people_split_five_apples_six_ways(2, 5, 6)]
    #[case::three_people_three_apples(3, 3, 10)]
    #[case::four_people_four_apples(4, 4, 35)]
    #[case::five_people_ten_apples(5, 10, 1001)]
    fn counts_small_cases(#[case] people: u32, #[case] apples: u32, #[case] expected: u64) {
        check(people, apples, expected);
    }

    #[test]
    fn the_table_for_up_to_six_people_and_six_apples() {
        let _book = crate::support::explain(
            "chapter 1, \"The recursion and its base cases\"",
            crate::support::rule(
                "ways(n, m) for n, m up to 6: ways(0, m) = [m == 0], ways(1, m) = 1, else the sum over the first person's share",
            ),
        );
        insta::assert_snapshot!(table(6, 6, |n, m| count_naive(n, m).to_string()));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn matches_brute_force_enumeration(people in 0u32..=5, apples in 0u32..=6) {
            let expected = brute_force(people, apples).len() as u64;
            let got = count_naive(people, apples);
            prop_assert_eq!(got, expected, "{}", say!("count_naive({people}, {apples}) must equal the number of share vectors summing to {apples} (listed one by one here): split on the first person's share, with ways(0, m) = [m == 0] and ways(1, m) = 1 (book: chapter 1, \"The recursion and its base cases\")", people, apples));
        }
    }
}

mod traced_calls {
    use super::*;
    use subject::{NaiveRun, traced_calls};

    #[track_caller]
    fn check(people: u32, apples: u32, calls: u64) {
        let got = crate::support::guard(
            &format!("traced_calls({people}, {apples})"),
            &say!("{calls} calls", calls),
            why(
                "count every entry into the recursion, the first call and the base cases included (book: chapter 1, \"Why it explodes\")",
            ),
            || traced_calls(people, apples),
        );
        let expected = NaiveRun {
            ways: ways(people, apples) as u64,
            calls,
        };
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "traced_calls({people}, {apples}) returned {got}, expected {expected}: count every entry into the recursion, the first call and the base cases included (book: chapter 1, \"Why it explodes\")",
                people,
                apples,
                ?got,
                ?expected
            )
        );
    }

    #[rstest]
    #[case::nobody_is_one_call(0, 0, 1)]
    #[case::nobody_with_apples_is_one_call(0, 5, 1)]
    #[case::one_person_is_a_base_case(1, 9, 1)]
    #[case::two_people_call_once_per_share(2, 3, 5)]
    #[case::three_people_two_apples(3, 2, 10)]
    #[case::four_people_four_apples(4, 4, 56)]
    #[case::eight_people_eight_apples(8, 8, 11440)]
    fn counts_every_call(#[case] people: u32, #[case] apples: u32, #[case] calls: u64) {
        check(people, apples, calls);
    }

    #[test]
    fn the_calls_explode_along_the_diagonal() {
        let rows: Vec<String> = (1..=10)
            .map(|n| {
                let run = traced_calls(n, n);
                format!(
                    "N = M = {n:>2}: {:>7} ways, {:>7} calls",
                    run.ways, run.calls
                )
            })
            .collect();
        let _book = crate::support::explain(
            "chapter 1, \"Why it explodes\"",
            crate::support::rule(
                "each row is the ways and the calls of traced_calls: one call per entry into the recursion, base cases included",
            ),
        );
        insta::assert_snapshot!(rows.join("\n"));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn calls_follow_the_closed_form(people in 1u32..=7, apples in 0u32..=7) {
            // Summing the recursion's own shape with the hockey-stick
            // identity gives calls(n, m) = C(m + n, n - 1).
            let run = traced_calls(people, apples);
            let calls = binomial(u64::from(apples + people), u64::from(people - 1)) as u64;
            prop_assert_eq!(run.calls, calls, "{}", say!("traced_calls({people}, {apples}) counted {counted} calls, expected C(m + n, n - 1) = {calls}: one per entry into the recursion, base cases included (book: chapter 1, \"Why it explodes\")", people, apples, counted = run.calls, calls));
            prop_assert_eq!(run.ways, ways(people, apples) as u64, "{}", say!("traced_calls({people}, {apples}) must also return the number of ways, C(m + n - 1, n - 1) (book: chapter 1, \"Why it explodes\")", people, apples));
        }
    }
}

mod count_memo {
    use super::*;
    use subject::count_memo;

    #[track_caller]
    fn check(people: u32, apples: u32, expected: Option<u64>) {
        let got = crate::support::guard(
            &format!("count_memo({people}, {apples})"),
            &format!("{expected:?}"),
            why(
                "checked additions give None when the answer does not fit in a u64, never a panic (book: chapter 1, \"Memoization\")",
            ),
            || count_memo(people, apples),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "count_memo({people}, {apples}) returned {got}, expected {expected}: build ways(n, m) = ways(n, m-1) + ways(n-1, m) one person at a time, with checked additions that give None when the answer does not fit in a u64 (book: chapter 1, \"Memoization\")",
                people,
                apples,
                ?got,
                ?expected
            )
        );
    }

    #[rstest]
    #[case::nobody_and_no_apples_is_one_way(0, 0, Some(1))]
    #[case::nobody_cannot_take_apples(0, 4, Some(0))]
    #[case::one_person_takes_everything(1, 1000, Some(1))]
    #[case::two_people_a_million_apples(2, 1_000_000, Some(1_000_001))]
    #[case::five_people_ten_apples(5, 10, Some(1001))]
    #[case::thirty_people_thirty_apples(30, 30, Some(59_132_290_782_430_712))]
    #[case::the_last_square_that_fits(34, 34, Some(14_226_520_737_620_288_370))]
    #[case::the_first_square_that_overflows(35, 35, None)]
    #[case::ten_people_568_apples_fit(10, 568, Some(18_348_006_354_228_436_600))]
    #[case::ten_people_569_apples_overflow(10, 569, None)]
    fn counts_and_reports_overflow(
        #[case] people: u32,
        #[case] apples: u32,
        #[case] expected: Option<u64>,
    ) {
        check(people, apples, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_the_naive_recursion(people in 0u32..=6, apples in 0u32..=6) {
            let expected = u64::try_from(ways(people, apples)).ok();
            prop_assert_eq!(count_memo(people, apples), expected, "{}", say!("count_memo({people}, {apples}) must be the number of ways C(m + n - 1, n - 1): ways(n, m) = ways(n, m - 1) + ways(n - 1, m), one row at a time (book: chapter 1, \"Memoization\")", people, apples));
        }

        #[test]
        fn matches_the_binomial_for_medium_sizes(people in 0u32..=30, apples in 0u32..=30) {
            let expected = u64::try_from(ways(people, apples)).ok();
            prop_assert_eq!(count_memo(people, apples), expected, "{}", say!("count_memo({people}, {apples}) must be C(m + n - 1, n - 1) while it fits a u64 (book: chapter 1, \"Memoization\")", people, apples));
        }
    }
}

mod count_exact {
    use super::*;
    use subject::count_exact;

    #[track_caller]
    fn check(people: u32, apples: u32, expected: &str) {
        let got = crate::support::guard(
            &format!("count_exact({people}, {apples})"),
            expected,
            why(
                "C(apples + people - 1, people - 1) by stars and bars, in a big integer (book: chapter 1, \"The closed form\")",
            ),
            || count_exact(people, apples).to_string(),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "count_exact({people}, {apples}) returned {got}, expected {expected}: C(apples + people - 1, people - 1) by stars and bars; nobody is 1 way for 0 apples and 0 ways otherwise (book: chapter 1, \"The closed form\")",
                people,
                apples,
                got,
                expected
            )
        );
    }

    #[rstest]
    #[case::nobody_and_no_apples_is_one_way(0, 0, "1")]
    #[case::nobody_cannot_take_apples(0, 9, "0")]
    #[case::one_person_takes_everything(1, 4_000_000_000, "1")]
    #[case::no_apples_is_one_way(4_000_000_000, 0, "1")]
    #[case::two_people_u32_max_apples(2, u32::MAX, "4294967296")]
    #[case::five_people_ten_apples(5, 10, "1001")]
    #[case::the_first_square_past_u64(35, 35, "56093138908331422716")]
    #[case::a_hundred_people_a_hundred_apples(
        100,
        100,
        "45274257328051640582702088538742081937252294837706668420660"
    )]
    fn counts_exactly(#[case] people: u32, #[case] apples: u32, #[case] expected: &str) {
        check(people, apples, expected);
    }

    #[test]
    fn a_hundred_thousand_people_and_apples() {
        let got = count_exact(100_000, 100_000);
        let digits = got.to_string();
        let residue = &got % BigUint::from(1_000_000_007u32);
        assert!(
            digits.len() == 60_203
                && digits.starts_with("89028144363694006922")
                && digits.ends_with("90633801359392175392")
                && residue == BigUint::from(939_733_670u32),
            "{}",
            say!(
                "count_exact(100000, 100000) should be C(199999, 99999): 60203 digits, starting 89028144363694006922, ending 90633801359392175392, 939733670 modulo 1e9+7; got {count} digits starting {start} (book: chapter 1, \"The closed form\")",
                count = digits.len(),
                start = &digits[..digits.len().min(20)]
            )
        );
    }

    #[test]
    fn the_diagonal_doubling_to_320() {
        let rows: Vec<String> = [5, 10, 20, 40, 80, 160, 320]
            .into_iter()
            .map(|n| format!("N = M = {n:>3}: {}", count_exact(n, n)))
            .collect();
        let _book = crate::support::explain(
            "chapter 1, \"The closed form\"",
            crate::support::rule(
                "count_exact(n, n) = C(2n - 1, n - 1) exactly, however many digits it has",
            ),
        );
        insta::assert_snapshot!(rows.join("\n"));
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn matches_the_binomial_for_medium_sizes(people in 0u32..=40, apples in 0u32..=40) {
            let got = count_exact(people, apples);
            prop_assert_eq!(got.clone(), BigUint::from(ways(people, apples)), "{}", say!("count_exact({people}, {apples}) returned {got}, expected C(m + n - 1, n - 1) (book: chapter 1, \"The closed form\")", people, apples, got));
        }

        #[test]
        fn obeys_the_recursion_one_step_down(people in 1u32..=400, apples in 1u32..=400) {
            // ways(n, m) = ways(n, m - 1) + ways(n - 1, m): the first person
            // either takes nothing, or takes one apple and then shares
            // m - 1 like before.
            let whole = count_exact(people, apples);
            let parts = count_exact(people, apples - 1) + count_exact(people - 1, apples);
            prop_assert_eq!(whole, parts, "{}", say!("count_exact({people}, {apples}) must equal count_exact(n, m - 1) + count_exact(n - 1, m) (Pascal's rule: the first person takes nothing, or one apple more) (book: chapter 1, \"The closed form\")", people, apples));
        }
    }
}

mod count_checked {
    use super::*;
    use subject::count_checked;

    #[track_caller]
    fn check(people: u32, apples: u32, expected: Option<u64>) {
        let got = crate::support::guard(
            &format!("count_checked({people}, {apples})"),
            &format!("{expected:?}"),
            why(
                "the answer in a u64, or None when it does not fit; take each product in a u128 (book: chapter 1, \"Overflow and big integers\")",
            ),
            || count_checked(people, apples),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "count_checked({people}, {apples}) returned {got}, expected {expected}: the answer in a u64, or None when it does not fit, never a wrapped value; take each product in a u128 (book: chapter 1, \"Overflow and big integers\")",
                people,
                apples,
                ?got,
                ?expected
            )
        );
    }

    #[rstest]
    #[case::nobody_and_no_apples_is_one_way(0, 0, Some(1))]
    #[case::nobody_cannot_take_apples(0, 1, Some(0))]
    #[case::two_people_u32_max_apples(2, u32::MAX, Some(4_294_967_296))]
    #[case::three_people_u32_max_apples(3, u32::MAX, Some(9_223_372_039_002_259_456))]
    #[case::four_people_fit_up_to_4801277_apples(4, 4_801_277, Some(18_446_738_006_366_306_560))]
    #[case::four_people_overflow_at_4801278_apples(4, 4_801_278, None)]
    #[case::five_people_fit_up_to_145052_apples(5, 145_052, Some(18_446_483_332_847_246_040))]
    #[case::five_people_overflow_at_145053_apples(5, 145_053, None)]
    #[case::twenty_people_fit_up_to_72_apples(20, 72, Some(18_150_420_051_920_130_975))]
    #[case::twenty_people_overflow_at_73_apples(20, 73, None)]
    #[case::the_last_square_that_fits(34, 34, Some(14_226_520_737_620_288_370))]
    #[case::the_first_square_that_overflows(35, 35, None)]
    #[case::a_thousand_people_fit_seven_apples(1000, 7, Some(202_614_233_457_493_000))]
    #[case::a_thousand_people_overflow_at_eight(1000, 8, None)]
    #[case::a_huge_answer_is_none(u32::MAX, u32::MAX, None)]
    fn counts_and_reports_overflow(
        #[case] people: u32,
        #[case] apples: u32,
        #[case] expected: Option<u64>,
    ) {
        check(people, apples, expected);
    }

    #[test]
    fn the_first_overflow_on_the_diagonal_is_35() {
        let first = (0..=64).find(|&n| count_checked(n, n).is_none());
        assert_eq!(
            first,
            Some(35),
            "{}",
            say!(
                "count_checked(n, n) must fit for n <= 34 (C(67, 33) = 14226520737620288370) and report None from n = 35 on (C(69, 34) = 56093138908331422716 > u64::MAX) (book: chapter 1, \"Overflow and big integers\")"
            )
        );
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_the_exact_count(people in 0u32..=200, apples in 0u32..=200) {
            let exact = big_ways(people, apples);
            let expected = u64::try_from(&exact).ok();
            prop_assert_eq!(count_checked(people, apples), expected, "{}", say!("count_checked({people}, {apples}) must be Some(C(m + n - 1, n - 1)) = Some({exact}) when that fits a u64 and None otherwise (book: chapter 1, \"Overflow and big integers\")", people, apples, exact));
        }

        #[test]
        fn agrees_with_memoization(people in 0u32..=40, apples in 0u32..=40) {
            let expected = u64::try_from(ways(people, apples)).ok();
            prop_assert_eq!(count_checked(people, apples), expected, "{}", say!("count_checked({people}, {apples}) must be Some(C(m + n - 1, n - 1)) while it fits a u64 (book: chapter 1, \"Overflow and big integers\")", people, apples));
        }
    }
}

mod distributions {
    use super::*;
    use subject::distributions;

    #[track_caller]
    fn check(people: u32, apples: u32, expected: &[Vec<u32>]) {
        let got: Vec<Vec<u32>> = crate::support::guard(
            &format!("distributions({people}, {apples})"),
            &format!("{expected:?}"),
            why(
                "every vector of shares summing to the apples, each once, in lexicographic order (book: chapter 1, \"Listing the distributions\")",
            ),
            || distributions(people, apples).collect::<Vec<Vec<u32>>>(),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "distributions({people}, {apples}) listed {got}, expected {expected}: every vector of {people} shares summing to {apples}, each once, in lexicographic order (book: chapter 1, \"Listing the distributions\")",
                people,
                apples,
                ?got,
                ?expected
            )
        );
    }

    #[rstest]
    #[case::nobody_and_no_apples_is_one_empty_share_list(0, 0, vec![vec![]])]
    #[case::nobody_cannot_take_apples(0, 2, vec![])]
    #[case::one_person_takes_everything(1, 3, vec![vec![3]])]
    #[case::two_people_two_apples(2, 2, vec![vec![0, 2], vec![1, 1], vec![2, 0]])]
    #[case::no_apples_for_three(3, 0, vec![vec![0, 0, 0]])]
    #[case::three_people_one_apple(3, 1, vec![vec![0, 0, 1], vec![0, 1, 0], vec![1, 0, 0]])]
    fn lists_in_lexicographic_order(
        #[case] people: u32,
        #[case] apples: u32,
        #[case] expected: Vec<Vec<u32>>,
    ) {
        check(people, apples, &expected);
    }

    #[test]
    fn three_people_three_apples() {
        let listing: Vec<String> = distributions(3, 3).map(|d| format!("{d:?}")).collect();
        let _book = crate::support::explain(
            "chapter 1, \"Listing the distributions\"",
            crate::support::rule(
                "every share vector once, in the order next() steps through them: the last person first takes everything",
            ),
        );
        insta::assert_snapshot!(listing.join("\n"));
    }

    #[test]
    fn is_lazy() {
        // C(79, 39) ~ 5e22 distributions: only a lazy iterator can give
        // the first three.
        let first: Vec<Vec<u32>> = distributions(40, 40).take(3).collect();
        let expected: Vec<Vec<u32>> = [(40, 0), (39, 1), (38, 2)]
            .into_iter()
            .map(|(last, before)| {
                let mut d = vec![0; 40];
                d[38] = before;
                d[39] = last;
                d
            })
            .collect();
        assert_eq!(
            first,
            expected,
            "{}",
            say!(
                "distributions(40, 40).take(3) must produce the first three distributions without listing the others first (book: chapter 1, \"Listing the distributions\")"
            )
        );
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn matches_brute_force_enumeration(people in 0u32..=5, apples in 0u32..=6) {
            let got: Vec<Vec<u32>> = distributions(people, apples).collect();
            prop_assert_eq!(got, brute_force(people, apples), "{}", say!("distributions({people}, {apples}) must list every share vector summing to {apples}, each once, in lexicographic order (book: chapter 1, \"Listing the distributions\")", people, apples));
        }

        #[test]
        fn is_sorted_without_duplicates_and_as_long_as_the_count(people in 0u32..=7, apples in 0u32..=7) {
            let got: Vec<Vec<u32>> = distributions(people, apples).collect();
            let count = ways(people, apples);
            prop_assert_eq!(got.len() as u128, count, "{}", say!("distributions({people}, {apples}) listed {got_len} items, expected C(m + n - 1, n - 1) = {count} (book: chapter 1, \"Listing the distributions\")", people, apples, got_len = got.len(), count));
            prop_assert!(got.windows(2).all(|w| w[0] < w[1]), "{}", say!("distributions({people}, {apples}) is not strictly increasing (out of order or duplicated): the successor is the next vector in lexicographic order (book: chapter 1, \"Listing the distributions\")", people, apples));
            prop_assert!(
                got.iter().all(|d| d.len() == people as usize && d.iter().sum::<u32>() == apples),
                "{}", say!("distributions({people}, {apples}) produced a vector of the wrong length or sum: n shares summing to m (book: chapter 1, \"Listing the distributions\")", people, apples));
        }
    }
}

/// The ways to pay `amount` counted bottom-up, with no recursion: the
/// classic table where `ways[a]` grows by `ways[a - coin]` one kind at a
/// time, so each way is counted once, with its kinds in the coins' order.
fn coin_ways_by_table(coins: &[u32], amount: u32) -> u64 {
    let mut ways = vec![0u64; amount as usize + 1];
    ways[0] = 1;
    for &coin in coins.iter().filter(|&&c| c > 0) {
        for a in coin as usize..=amount as usize {
            ways[a] += ways[a - coin as usize];
        }
    }
    ways[amount as usize]
}

mod coin_ways {
    use super::*;
    use subject::coin_ways;

    const WHY: &str = "let the first kind give 0, 1, 2, ... coins, as many as fit, and the other \
                       kinds pay the rest; paying 0 is one way (book: chapter 1, practice, \
                       \"Solved in the workbook: coin sums\")";

    #[track_caller]
    fn check(coins: &[u32], amount: u32, expected: u64) {
        let call = format!("coin_ways(&{coins:?}, {amount})");
        let got = crate::support::guard(&call, &format!("{expected}"), WHY, || {
            coin_ways(coins, amount)
        });
        assert_eq!(
            got, expected,
            "{call} returned {got}, expected {expected} way(s): {WHY}"
        );
    }

    #[rstest]
    #[case::paying_nothing_is_one_way_even_with_no_coins(vec![], 0, 1)]
    #[case::no_coins_cannot_pay_anything(vec![], 5, 0)]
    #[case::a_coin_that_does_not_divide_the_amount_cannot_pay_it(vec![2], 3, 0)]
    #[case::one_kind_that_fits_exactly_is_one_way(vec![2], 4, 1)]
    #[case::one_and_two_pay_four_in_three_ways(vec![1, 2], 4, 3)]
    #[case::the_order_of_the_kinds_does_not_matter(vec![2, 1], 4, 3)]
    #[case::three_and_five_cannot_pay_seven(vec![3, 5], 7, 0)]
    #[case::three_and_five_pay_eight_once(vec![3, 5], 8, 1)]
    #[case::a_coin_worth_nothing_is_ignored(vec![0, 1], 3, 1)]
    #[case::a_dollar_in_cents_and_quarters(vec![1, 5, 10, 25], 100, 242)]
    fn counts_the_ways(#[case] coins: Vec<u32>, #[case] amount: u32, #[case] expected: u64) {
        check(&coins, amount, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_a_table_on_random_coins(
            coins in proptest::collection::btree_set(1u32..12, 0..5),
            amount in 0u32..40,
        ) {
            let coins: Vec<u32> = coins.into_iter().rev().collect();
            let expected = coin_ways_by_table(&coins, amount);
            let call = format!("coin_ways(&{coins:?}, {amount})");
            let got = crate::support::guard(&call, &format!("{expected}"), WHY, || coin_ways(&coins, amount));
            prop_assert_eq!(got, expected, "coin_ways(&{:?}, {}) must count each way to pay once: {}", coins, amount, WHY);
        }
    }
}
