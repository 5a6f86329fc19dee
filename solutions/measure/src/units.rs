//! Numbers and durations in the units a reader expects: digits grouped by
//! thousands, and times with their unit after a space. The grouping itself
//! is `num-format`'s; these functions fix the separator and the decimals
//! the book's tables use.

use num_format::{Locale, ToFormattedStr, ToFormattedString};
use std::time::Duration;

/// `n` with a comma between thousands: 1234567 as "1,234,567".
pub fn thousands<N: ToFormattedStr>(n: N) -> String {
    n.to_formatted_string(&Locale::en)
}

/// `n` with a narrow no-break space (U+202F) between thousands, the SI
/// style, which a table cell never wraps: 1234567 as "1 234 567".
pub fn thousands_narrow<N: ToFormattedStr>(n: N) -> String {
    thousands(n).replace(',', "\u{202f}")
}

/// `x` rounded to `decimals` decimals, with a comma between thousands in
/// its whole part: (12345.678, 1) as "12,345.7". NaN and the infinities
/// are written as Rust writes them.
pub fn grouped(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    let (whole, fraction) = text.split_at(text.find('.').unwrap_or(text.len()));
    let (sign, digits) = match whole.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", whole),
    };
    match digits.parse::<u128>() {
        Ok(digits) => format!("{sign}{}{fraction}", thousands(digits)),
        Err(_) => text,
    }
}

/// A duration in seconds with three decimals: "0.052 s".
pub fn seconds(time: Duration) -> String {
    format!("{:.3} s", time.as_secs_f64())
}

/// A duration in milliseconds with one decimal: "52.4 ms".
pub fn millis(time: Duration) -> String {
    format!("{:.1} ms", time.as_secs_f64() * 1e3)
}

/// A duration in the unit that suits it (s, ms or µs), two decimals:
/// "1.50 s", "2.25 ms", "0.75 µs".
pub fn human(time: Duration) -> String {
    match time.as_secs_f64() {
        s if s >= 1.0 => format!("{s:.2} s"),
        s if s >= 1e-3 => format!("{:.2} ms", s * 1e3),
        s => format!("{:.2} µs", s * 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_puts_a_comma_every_three_digits_from_the_right() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(1_000u64), "1,000");
        assert_eq!(thousands(1_277_375usize), "1,277,375");
    }

    #[test]
    fn thousands_narrow_separates_with_a_narrow_no_break_space() {
        assert_eq!(thousands_narrow(92u64), "92");
        assert_eq!(thousands_narrow(14_772_512u64), "14\u{202f}772\u{202f}512");
    }

    #[test]
    fn grouped_rounds_then_groups_the_whole_part_only() {
        assert_eq!(grouped(12_345.678, 1), "12,345.7");
        assert_eq!(grouped(1_234.567_8, 3), "1,234.568");
        assert_eq!(grouped(999.96, 1), "1,000.0");
        assert_eq!(grouped(123_456.4, 0), "123,456");
    }

    #[test]
    fn grouped_keeps_the_sign_of_a_negative_number() {
        assert_eq!(grouped(-1_234.5, 1), "-1,234.5");
        assert_eq!(grouped(-0.25, 2), "-0.25");
    }

    #[test]
    fn grouped_writes_nan_and_infinity_as_rust_does() {
        assert_eq!(grouped(f64::NAN, 1), "NaN");
        assert_eq!(grouped(f64::INFINITY, 0), "inf");
    }

    #[test]
    fn seconds_and_millis_keep_their_fixed_decimals() {
        assert_eq!(seconds(Duration::from_micros(52_400)), "0.052 s");
        assert_eq!(millis(Duration::from_micros(52_440)), "52.4 ms");
    }

    #[test]
    fn human_picks_the_unit_that_suits_the_duration() {
        assert_eq!(human(Duration::from_millis(1_500)), "1.50 s");
        assert_eq!(human(Duration::from_micros(2_250)), "2.25 ms");
        assert_eq!(human(Duration::from_nanos(750)), "0.75 µs");
    }
}
