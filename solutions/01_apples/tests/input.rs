//! Tests of the code learners are given rather than write: the `N M`
//! parser, and the reference-only fast binomial that backs `count_exact`.
//!
//! The parser must turn every bad input into a typed error naming what was
//! wrong and where (line and column from 1); the binomial must agree with
//! the multiplicative formula on both sides of its switch-over.

use apples_solution::{InputError, binomial, count_exact, count_exact_multiplicative, parse_input};
use num_bigint::BigUint;
use proptest::prelude::*;
use rstest::rstest;

#[rstest]
#[case::two_numbers("3 4", (3, 4))]
#[case::a_trailing_newline("3 4\n", (3, 4))]
#[case::any_whitespace(" \t10\n\n  20 \r\n", (10, 20))]
#[case::zeroes("0 0", (0, 0))]
#[case::a_plus_sign("+5 6", (5, 6))]
#[case::minus_zero_is_zero("-0 2", (0, 2))]
#[case::the_largest_u32("4294967295 1", (u32::MAX, 1))]
fn reads_two_numbers(#[case] text: &str, #[case] expected: (u32, u32)) {
    assert_eq!(parse_input(text), Ok(expected), "parse_input({text:?})");
}

const N: &str = "N (the number of people)";
const M: &str = "M (the number of apples)";

fn owned(s: &str) -> String {
    s.to_string()
}

#[rstest]
#[case::empty_input("", InputError::Missing { what: N })]
#[case::only_whitespace(" \n ", InputError::Missing { what: N })]
#[case::one_number("7\n", InputError::Missing { what: M })]
#[case::a_word("three 4", InputError::NotANumber { what: N, token: owned("three"), line: 1, column: 1 })]
#[case::a_fraction("3 2.5", InputError::NotANumber { what: M, token: owned("2.5"), line: 1, column: 3 })]
#[case::a_lone_sign("3 -", InputError::NotANumber { what: M, token: owned("-"), line: 1, column: 3 })]
#[case::a_negative_count("-3 4", InputError::Negative { what: N, token: owned("-3"), line: 1, column: 1 })]
#[case::negative_apples_on_line_two("3\n  -4", InputError::Negative { what: M, token: owned("-4"), line: 2, column: 3 })]
#[case::too_large("4294967296 1", InputError::TooLarge { what: N, token: owned("4294967296"), line: 1, column: 1 })]
#[case::extra_token("3 4 5", InputError::Extra { token: owned("5"), line: 1, column: 5 })]
#[case::extra_line("3 4\nhello", InputError::Extra { token: owned("hello"), line: 2, column: 1 })]
#[case::columns_count_characters("é 4", InputError::NotANumber { what: N, token: owned("é"), line: 1, column: 1 })]
#[case::after_a_wide_character("3 4 é", InputError::Extra { token: owned("é"), line: 1, column: 5 })]
fn names_what_is_wrong_and_where(#[case] text: &str, #[case] expected: InputError) {
    assert_eq!(parse_input(text), Err(expected), "parse_input({text:?})");
}

#[test]
fn messages_say_what_and_where() {
    let cases = [
        ("", "missing N (the number of people)"),
        ("5", "missing M (the number of apples)"),
        (
            "x 1",
            "line 1, column 1: N (the number of people) must be a whole number, found `x`",
        ),
        (
            "1 -2",
            "line 1, column 3: M (the number of apples) cannot be negative, found `-2`",
        ),
        ("1 2 3", "line 1, column 5: unexpected `3` after N and M"),
    ];
    for (text, start) in cases {
        let message = parse_input(text).map_err(|e| e.to_string());
        assert!(
            message.as_ref().is_err_and(|m| m.starts_with(start)),
            "parse_input({text:?}) gave {message:?}, expected a message starting {start:?}"
        );
    }
}

proptest! {
    #[test]
    fn never_panics(text in "\\PC{0,20}") {
        let _ = parse_input(&text);
    }

    #[test]
    fn reads_back_what_was_written(n: u32, m: u32, gap in "[ \t\n]{1,3}") {
        prop_assert_eq!(parse_input(&format!("{n}{gap}{m}")), Ok((n, m)));
    }

    #[test]
    fn the_factorisation_matches_the_multiplicative_formula(n in 0u64..600, k in 0u64..600) {
        // Covers both sides of the switch at k = 64.
        let mut expected = BigUint::from(1u8);
        if k > n {
            expected = BigUint::ZERO;
        } else {
            for i in 1..=k {
                expected = expected * (n - k + i) / i;
            }
        }
        prop_assert_eq!(binomial(n, k), expected);
    }

    #[test]
    fn both_exact_counts_agree(people in 0u32..300, apples in 0u32..300) {
        prop_assert_eq!(count_exact(people, apples), count_exact_multiplicative(people, apples));
    }
}

#[test]
fn huge_n_with_small_k_skips_the_sieve() {
    // n above the sieve limit: must answer at once, without a 4 GB sieve.
    let n = u64::from(u32::MAX) * 2;
    assert_eq!(binomial(n, 1), BigUint::from(n));
    assert_eq!(binomial(n, n - 1), BigUint::from(n));
}
