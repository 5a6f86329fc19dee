//! Medians of samples: the middle value, robust to the odd run that a busy
//! machine slows down. With an even count the upper of the two middle values
//! is taken, so the median is always a sample that was really measured.

use std::time::Duration;

/// The median of `xs` (the upper middle one for an even count), or `None`
/// when there are no samples. NaNs sort last, as `f64::total_cmp` puts them.
pub fn median(xs: &[f64]) -> Option<f64> {
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied()
}

/// The median of `times` (the upper middle one for an even count), or
/// `None` when there are none.
pub fn median_duration(times: &[Duration]) -> Option<Duration> {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_odd_count_is_the_middle_value() {
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
    }

    #[test]
    fn the_median_of_an_even_count_is_the_upper_middle_value() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(3.0));
    }

    #[test]
    fn no_samples_have_no_median() {
        assert_eq!(median(&[]), None);
        assert_eq!(median_duration(&[]), None);
    }

    #[test]
    fn a_slow_outlier_does_not_move_the_median_duration() {
        let ms = Duration::from_millis;
        assert_eq!(
            median_duration(&[ms(10), ms(900), ms(11), ms(12), ms(9)]),
            Some(ms(11))
        );
    }
}
