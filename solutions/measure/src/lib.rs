//! Timing helpers shared by the measurement examples (the `*_vs_peer`,
//! `*_figures`, `*_sweep` and `*_throughput` examples of the solution crates).
//!
//! The problem: the book's measured figures come from a shared, noisy
//! machine, so a number is only worth printing when it was taken in a way
//! that survives the noise. The helpers here are the few ways the examples
//! measure: two whole programs timed in turn, pair by pair, so each pair
//! gives a ratio taken under the same load ([`paired`]); instruction counts
//! from callgrind, which the load does not change ([`instructions`]);
//! in-process timings as a median or a best of several runs ([`median_of`],
//! [`best_of`], [`median_per_call`]); the load average to print beside the
//! figures ([`RunLoad`], [`load_average`]); the units a reader expects
//! ([`thousands`], [`grouped`], [`seconds`], [`millis`], [`human`]); and the
//! generated page itself ([`write_page`]).
//!
//! The state is nothing but the samples of one call (and the load noted
//! when a run starts): no globals, and no file but the page written.
//! The cost is the measured work itself, plus one untimed warm-up run (or
//! pair) where a function says so.

mod clock;
mod load;
mod page;
mod runs;
mod stats;
mod units;

pub use clock::{best_of, median_of, median_per_call, timed};
pub use load::{RunLoad, cores, load_average, load_text, parse_load};
pub use page::write_page;
pub use runs::{Pair, argv, collected, instructions, once, paired, summarize};
pub use stats::{median, median_duration};
pub use units::{grouped, human, millis, seconds, thousands, thousands_narrow};
