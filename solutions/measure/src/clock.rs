//! In-process timings: one call timed, or several with the median or the
//! best kept. Every result goes through `std::hint::black_box`, so the
//! compiler cannot drop the work being timed. Each function runs the
//! closure at least once, so there is always a sample.

use crate::stats::median_duration;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The shortest time a batch is sized from: below it `Instant` is too
/// coarse to say how many calls fill a batch.
const FLOOR: Duration = Duration::from_nanos(50);

/// `f`'s result and how long it took.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// The median time of `runs` timed calls of `f` (at least one), after one
/// untimed warm-up call.
pub fn median_of<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    black_box(f());
    let times: Vec<Duration> = (0..runs.max(1))
        .map(|_| timed(|| black_box(f())).1)
        .collect();
    median_duration(&times).unwrap_or_default()
}

/// The best time of `f`: at least `min_runs` calls (and one), and more until
/// `fill` has passed. The best is the run the machine disturbed least.
pub fn best_of<T>(min_runs: usize, fill: Duration, mut f: impl FnMut() -> T) -> Duration {
    let started = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < min_runs.max(1) || started.elapsed() < fill {
        best = best.min(timed(|| black_box(f())).1);
        runs += 1;
    }
    best
}

/// The median time of one call of `f`, for calls too short to time one by
/// one: `batches` batches (at least one), each of as many calls as fill
/// about `batch`, after one untimed call that sizes them.
pub fn median_per_call(batches: usize, batch: Duration, mut f: impl FnMut()) -> Duration {
    let once = timed(&mut f).1.max(FLOOR);
    let most = (batch.as_nanos() / FLOOR.as_nanos()).max(1);
    let calls = (batch.as_nanos() / once.as_nanos()).clamp(1, most);
    let calls = u32::try_from(calls).unwrap_or(u32::MAX);
    let times: Vec<Duration> = (0..batches.max(1))
        .map(|_| timed(|| (0..calls).for_each(|_| f())).1 / calls)
        .collect();
    median_duration(&times).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timed_returns_the_result_and_a_duration_at_least_as_long_as_the_work() {
        let (value, time) = timed(|| {
            std::thread::sleep(Duration::from_millis(2));
            7
        });
        assert_eq!(value, 7);
        assert!(time >= Duration::from_millis(2), "{time:?}");
    }

    #[test]
    fn median_of_calls_the_function_once_more_than_the_timed_runs() {
        let mut calls = 0;
        median_of(5, || calls += 1);
        assert_eq!(calls, 6);
    }

    #[test]
    fn best_of_runs_at_least_the_asked_number_of_times() {
        let mut calls = 0;
        best_of(3, Duration::ZERO, || calls += 1);
        assert_eq!(calls, 3);
    }

    #[test]
    fn zero_runs_still_time_one_call() {
        let mut calls = 0;
        let time = best_of(0, Duration::ZERO, || calls += 1);
        assert_eq!(calls, 1);
        assert!(time < Duration::MAX);
    }

    #[test]
    fn a_batch_shorter_than_one_call_still_makes_one_call_per_batch() {
        let mut calls = 0;
        median_per_call(3, Duration::ZERO, || calls += 1);
        assert_eq!(calls, 1 + 3);
    }

    #[test]
    fn median_per_call_divides_a_batch_by_its_calls() {
        // A 20 ms batch holds ten 2 ms calls: undivided, it would read 20 ms.
        let time = median_per_call(3, Duration::from_millis(20), || {
            std::thread::sleep(Duration::from_millis(2));
        });
        assert!(time >= Duration::from_millis(2), "{time:?}");
        assert!(time < Duration::from_millis(10), "{time:?}");
    }
}
