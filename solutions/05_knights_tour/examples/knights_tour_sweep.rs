//! The sweep: proves, board by board, what the chapter claims for every n
//! up to 1000, and writes the summary to `book/src/knights_tour/sweep.md`.
//!
//! For every n in 5..=1000 it asks `open_tour_route` for a tour from the
//! seed's corner (n-1, n-1) and from the centre (and, up to n = 60, from
//! every square that has a tour), validates each with the chapter's own
//! validator, and tallies which stage found it; for every
//! even n in 6..=1000 it validates `closed_tour(n)` as a closed tour. Any
//! failure is listed and makes the command exit with status 1. Cost: one
//! O(n²) tour and one O(n²) validation per board, about 3·10⁸ squares in
//! all, tens of seconds in release mode.
//!
//! Run from the workspace root:
//! `cargo run --release -p knights_tour_solution --example knights_tour_sweep`
//! (optionally followed by the smallest and largest n, e.g. `-- 5 200`,
//! which prints the summary without writing the book page).

use knights_tour_solution::closed::closed_tour;
use knights_tour_solution::{Route, SEED_MOVES, Square, open_tour_route, validate, warnsdorff};
use measure::{thousands, timed};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

/// What happened on one board from one start.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Found(String),
    Missing,
    Invalid(String),
}

/// The stage that found a tour, as a table row label.
fn label(route: Route) -> String {
    match route {
        Route::Greedy { order: 0 } => "greedy pass, the seed's move order".into(),
        Route::Greedy { order } => format!("greedy pass, move order rotated by {order}"),
        Route::Rotated { order, .. } => {
            format!("greedy + Pósa rotations, move order rotated by {order}")
        }
        Route::Exhaustive => "exhaustive search".into(),
    }
}

fn open_outcome(n: usize, start: Square) -> Outcome {
    match open_tour_route(n, start) {
        None => Outcome::Missing,
        Some((board, route)) => match validate(&board, false) {
            Err(e) => Outcome::Invalid(format!("{e:?}")),
            Ok(()) if board.get(start) != 1 => Outcome::Invalid("does not start at start".into()),
            Ok(()) => Outcome::Found(label(route)),
        },
    }
}

/// Boards up to this size are also toured from every square that has a
/// tour.
const EVERY_START_MAX: usize = 60;

/// Boards up to this size also get one pass of the `warnsdorff` exercise
/// (Pohl's tie-break), for comparison: it works on a `Board`, so it is
/// slower, and it fails more often as n grows anyway.
const POHL_MAX: usize = 500;

fn pohl_outcome(n: usize) -> Outcome {
    match warnsdorff(n, (n - 1, n - 1), &SEED_MOVES) {
        None => Outcome::Found("stuck".into()),
        Some(board) => match validate(&board, false) {
            Err(e) => Outcome::Invalid(format!("{e:?}")),
            Ok(()) => Outcome::Found("a tour".into()),
        },
    }
}

fn closed_outcome(n: usize) -> Outcome {
    match closed_tour(n) {
        None => Outcome::Missing,
        Some(board) => match validate(&board, true) {
            Err(e) => Outcome::Invalid(format!("{e:?}")),
            Ok(()) => Outcome::Found("closed".into()),
        },
    }
}

/// Tallies outcomes per label, keeping the boards that were not found.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<Outcome, Vec<usize>>,
    time: Duration,
}

impl Tally {
    fn add(&mut self, n: usize, f: impl FnOnce() -> Outcome) {
        let (outcome, time) = timed(f);
        self.time += time;
        self.counts.entry(outcome).or_default().push(n);
    }

    fn failures(&self) -> usize {
        (self.counts.iter())
            .filter(|(o, _)| !matches!(o, Outcome::Found(_)))
            .map(|(_, ns)| ns.len())
            .sum()
    }

    fn table(&self, md: &mut String, title: &str) {
        let total: usize = self.counts.values().map(Vec::len).sum();
        let _ = writeln!(md, "\n### {title}\n");
        let _ = writeln!(
            md,
            "{} tours asked for, {:.1} s in all.\n",
            thousands(total),
            self.time.as_secs_f64()
        );
        md.push_str("| result | tours asked for | which n |\n|---|---:|---|\n");
        for (outcome, ns) in &self.counts {
            let what = match outcome {
                Outcome::Found(label) => label.clone(),
                Outcome::Missing => "**no tour returned**".into(),
                Outcome::Invalid(e) => format!("**invalid tour** ({e})"),
            };
            let _ = writeln!(md, "| {what} | {} | {} |", thousands(ns.len()), which(ns));
        }
    }
}

/// The n's as a short list: all of them if few, else a range summary.
fn which(ns: &[usize]) -> String {
    let mut ns = ns.to_vec();
    ns.dedup();
    if ns.len() <= 12 {
        let list: Vec<String> = ns.iter().map(usize::to_string).collect();
        return list.join(", ");
    }
    format!("{} of {} to {}", ns.len(), ns[0], ns[ns.len() - 1])
}

const USAGE: &str = "usage: knights_tour_sweep [LO HI] (the smallest and largest n; without them 5 to 1000, and the book page is written)";

/// The boards asked for: `None` for the whole sweep, or `LO HI` (LO is
/// raised to 5, the smallest board with an open tour).
fn range_arg(args: &[String]) -> Result<Option<(usize, usize)>, String> {
    let size = |text: &String| {
        text.parse::<usize>()
            .map_err(|_| format!("`{text}` is not a board size; {USAGE}"))
    };
    match args {
        [] => Ok(None),
        [lo, hi] => match (size(lo)?.max(5), size(hi)?) {
            (lo, hi) if lo <= hi => Ok(Some((lo, hi))),
            (lo, hi) => Err(format!("LO ({lo}) is above HI ({hi}); {USAGE}")),
        },
        _ => Err(USAGE.into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let range = match range_arg(&args) {
        Ok(range) => range,
        Err(message) => {
            eprintln!("knights_tour_sweep: error: {message}");
            return ExitCode::from(2);
        }
    };
    let (lo, hi) = range.unwrap_or((5, 1000));
    let (mut corner, mut centre, mut closed) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut pohl = Tally::default();
    let mut every = Tally::default();
    for n in lo..=hi.min(EVERY_START_MAX) {
        for (row, col) in (0..n * n).map(|i| (i / n, i % n)) {
            if n % 2 == 0 || (row + col) % 2 == 0 {
                every.add(n, || open_outcome(n, (row, col)));
            }
        }
    }
    for n in lo..=hi {
        if n <= POHL_MAX {
            pohl.add(n, || pohl_outcome(n));
        }
        corner.add(n, || open_outcome(n, (n - 1, n - 1)));
        centre.add(n, || open_outcome(n, (n / 2, n / 2)));
        if n % 2 == 0 && n >= 6 {
            closed.add(n, || closed_outcome(n));
        }
    }
    let mut md = format!(
        "# The sweep: every board from {lo} to {hi}\n\n\
         <!-- Generated by `cargo run --release -p knights_tour_solution --example knights_tour_sweep` \
         (do not edit by hand). -->\n\nEvery tour below was checked by the chapter's `validate`; \
         the tables say which stage of `open_tour` found it (each stage runs only when the ones \
         before it got stuck) and list any board that got no valid tour. Times are wall-clock \
         on the machine that ran the command, each tour's validation included.\n"
    );
    corner.table(&mut md, "Open tours from the seed's corner (n-1, n-1)");
    centre.table(&mut md, "Open tours from the centre (n/2, n/2)");
    every.table(
        &mut md,
        &format!("Open tours from every square that has one, n up to {EVERY_START_MAX} (one row per start)"),
    );
    closed.table(&mut md, "Closed tours, every even n");
    pohl.table(
        &mut md,
        "For comparison: one pass of `warnsdorff` (Pohl's tie-break, the seed's order) from the corner",
    );
    print!("{md}");
    let failures = corner.failures() + centre.failures() + every.failures() + closed.failures();
    if range.is_none() {
        // The quiz's answer is a count the book build records (knights_tour_book).
        md.push_str("\n## Check yourself\n\n{{#include generated/quiz-sweep-starts-5.html}}\n");
        if let Err(e) = std::fs::write("book/src/knights_tour/sweep.md", &md) {
            eprintln!("knights_tour_sweep: cannot write book/src/knights_tour/sweep.md: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("wrote book/src/knights_tour/sweep.md");
    }
    if failures > 0 {
        eprintln!("{failures} tours asked for and not validly found");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
