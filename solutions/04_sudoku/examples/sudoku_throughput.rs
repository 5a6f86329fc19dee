//! Puzzles per second of the fast solver on the public collections, with
//! the chapter's own stages as baselines measured in the same run.
//!
//! The problem: state the fast end's speed honestly on a shared, noisy
//! machine. Each file is read from `../shared/data/sudoku/` (relative to
//! the repository root; the data is never copied into the repository) and
//! skipped with a note when absent. The fast solver parses every line and
//! counts solutions up to 2 for every puzzle, one core; the baselines
//! (propagation with `count_solutions(.., 2)`, and fewest-candidates
//! first, which stops at the first solution) run on the first puzzles of
//! the same file. Every fast answer is checked: a solution must be valid
//! and keep the givens.
//!
//! Run: `cargo run --release -p sudoku_solution --example sudoku_throughput [SECONDS]`
//! (prints the figures and writes them to `book/src/sudoku/throughput.md`).

use measure::{cores, grouped, load_average};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sudoku_solution::{Grid, count_solutions, fast, read_puzzles, solve_fewest};

const FILES: [&str; 6] = [
    "puzzles2_17_clue",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles3_magictour_top1465",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "norvig_top95.txt",
];

fn data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku")
}

fn valid(puzzle: &Grid, answer: &Grid) -> bool {
    let keeps = (0..81).all(|i| puzzle.cells[i] == 0 || puzzle.cells[i] == answer.cells[i]);
    let units_ok = (0..27).all(|u| {
        let mut seen = 0u16;
        for k in 0..9 {
            let i = match u {
                0..=8 => 9 * u + k,
                9..=17 => 9 * k + u - 9,
                _ => 9 * ((u - 18) / 3 * 3 + k / 3) + (u - 18) % 3 * 3 + k % 3,
            };
            seen |= 1 << answer.cells[i];
        }
        seen == 0x3fe
    });
    keeps && units_ok
}

/// Solves every line of `text` with the fast solver (parsing included);
/// returns puzzles solved, solution counts (0, 1, 2+) and the time.
fn fast_pass(text: &[u8]) -> (usize, [usize; 3], Duration) {
    let start = Instant::now();
    let (mut n, mut counts) = (0, [0; 3]);
    for line in text.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let grid = match fast::grid_from_bytes(line) {
            Some(g) => g,
            None if line.is_empty() || line[0] == b'#' => continue,
            None => match read_puzzles(&String::from_utf8_lossy(line)).pop() {
                Some(Ok(p)) => p.grid,
                _ => continue,
            },
        };
        let (count, _) = fast::solve_count(std::hint::black_box(&grid));
        counts[count.min(2)] += 1;
        n += 1;
    }
    (n, counts, start.elapsed())
}

/// The machine's load average when the run starts, as a sentence for the
/// page: a load above the core count means other work competed for the
/// cores, and the absolute rates are lower than on a quiet machine.
fn load_note() -> String {
    let cores = cores();
    match load_average() {
        Some(load) if load > cores as f64 => format!(
            "Load average over the minute before the run: {load:.2} on {cores} cores, so other \
             work was competing for them: the absolute rates are lower than on a quiet machine."
        ),
        Some(load) => {
            format!("Load average over the minute before the run: {load:.2} on {cores} cores.")
        }
        None => String::from("Load average before the run: unknown."),
    }
}

fn rate(n: usize, t: Duration) -> f64 {
    n as f64 / t.as_secs_f64()
}

const USAGE: &str =
    "usage: sudoku_throughput [SECONDS] (the time each measurement may take, 2 without it)";

/// The seconds each measurement may take: the one optional argument, more
/// than 0 and at most an hour (2 without it).
fn seconds_arg(args: &[String]) -> Result<f64, String> {
    match args {
        [] => Ok(2.0),
        [text] => text
            .parse::<f64>()
            .ok()
            .filter(|s| *s > 0.0 && *s <= 3600.0)
            .ok_or(format!(
                "SECONDS: `{text}` is not a number of seconds above 0 and at most 3600; {USAGE}"
            )),
        _ => Err(USAGE.into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds = match seconds_arg(&args) {
        Ok(seconds) => seconds,
        Err(message) => {
            eprintln!("sudoku_throughput: error: {message}");
            return ExitCode::from(2);
        }
    };
    let dir = data_dir();
    println!("data: {}", dir.display());
    let mut page = String::from(
        "# Throughput\n\n\
         <!-- Produced by `cargo run --release -p sudoku_solution --example sudoku_throughput`; do not edit by hand. -->\n\n\
         One core; every puzzle parsed and checked for a second solution (the fast solver and \
         `count_solutions(.., 2)`); `solve_fewest` stops at the first solution. The baselines run on \
         the first puzzles of each file, in the same run. The machine is shared, so the ratios are \
         the figures to trust.\n\n{}\n\n\
         | file | puzzles | wrong answers | fast (puzzles/s) | propagation + count (puzzles/s) | fast / propagation | fewest candidates (puzzles/s) | fast / fewest |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    )
    .replace("{}", &load_note());
    for name in FILES {
        let path = dir.join(name);
        let Ok(text) = std::fs::read(&path) else {
            println!("{name}: not found at {}, skipped", path.display());
            let _ = writeln!(page, "| {name} | not found, skipped | | | | | | |");
            continue;
        };
        let puzzles: Vec<Grid> = read_puzzles(&String::from_utf8_lossy(&text))
            .into_iter()
            .filter_map(Result::ok)
            .map(|p| p.grid)
            .collect();
        // Correctness first, outside the timing.
        let wrong = puzzles
            .iter()
            .filter(|g| match fast::solve_count(g) {
                (0, None) => false,
                (_, Some(s)) => !valid(g, &s),
                _ => true,
            })
            .count();
        // Best of a few passes over the whole file.
        let deadline = Instant::now() + Duration::from_secs_f64(seconds);
        let mut best = f64::MAX;
        let mut counts = [0; 3];
        while best == f64::MAX || Instant::now() < deadline {
            let (n, c, t) = fast_pass(&text);
            counts = c;
            best = best.min(t.as_secs_f64() / n as f64);
        }
        let fast_rate = 1.0 / best;
        // Baselines on a prefix, sized to take about `seconds` each.
        let sample = &puzzles[..puzzles.len().min(400)];
        let start = Instant::now();
        let mut done = 0;
        for g in sample {
            std::hint::black_box(count_solutions(g, 2));
            done += 1;
            if start.elapsed().as_secs_f64() > seconds {
                break;
            }
        }
        let propagation_rate = rate(done, start.elapsed());
        let start = Instant::now();
        let mut done_fewest = 0;
        for g in sample {
            std::hint::black_box(solve_fewest(g));
            done_fewest += 1;
            if start.elapsed().as_secs_f64() > seconds {
                break;
            }
        }
        let fewest_rate = rate(done_fewest, start.elapsed());
        println!(
            "{name}: {} puzzles (0/1/2+ solutions: {}/{}/{}), wrong answers {wrong}\n  \
             fast {fast_rate:.0}/s | propagation+count {propagation_rate:.0}/s on {done} (fast is {:.0}x) | \
             fewest, first solution only {fewest_rate:.0}/s on {done_fewest} (fast is {:.0}x)",
            puzzles.len(),
            counts[0],
            counts[1],
            counts[2],
            fast_rate / propagation_rate,
            fast_rate / fewest_rate,
        );
        let _ = writeln!(
            page,
            "| {name} | {} | {wrong} | {} | {} | {}x | {} | {}x |",
            grouped(puzzles.len() as f64, 0),
            grouped(fast_rate, 0),
            grouped(propagation_rate, 0),
            grouped(fast_rate / propagation_rate, 0),
            grouped(fewest_rate, 0),
            grouped(fast_rate / fewest_rate, 0)
        );
    }
    let out = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../book/src/sudoku/throughput.md"
    );
    if let Err(e) = std::fs::write(out, page) {
        eprintln!("sudoku_throughput: error: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
