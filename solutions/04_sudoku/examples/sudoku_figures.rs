//! The chapter's ladder: every stage on a small fixed set, measured.
//!
//! The problem: show what each step buys, in nodes, guesses and time per
//! puzzle, without typing a number by hand. The set is the seeds' two
//! examples and twenty of our own minimal puzzles (`generate(seed, 0)`,
//! seeds 1-20), so it needs no downloaded data. Nodes and guesses are exact
//! and the same on every machine; times are the median of a few runs and
//! are shown as ratios to the naive stage measured in the same run.
//!
//! Run: `cargo run --release -p sudoku_solution --example sudoku_figures`
//! (writes `book/src/sudoku/figures.md` and `book/src/sudoku/ladder.svg`).

use measure::{grouped, median_of};
use std::fmt::Write as _;
use sudoku_solution::{Grid, STAGES, fast, generate};

/// Timed repetitions per stage, after one warm-up; the median is kept.
const RUNS: usize = 5;

fn fixed_set() -> Vec<Grid> {
    let mut set = vec![
        Grid::from_literal(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ),
        Grid::from_literal(
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107",
        ),
    ];
    set.extend((1..=20).map(|seed| generate(seed, 0)));
    set
}

struct Row {
    name: &'static str,
    nodes: f64,
    guesses: f64,
    micros: f64,
}

fn measure(set: &[Grid]) -> Vec<Row> {
    let n = set.len() as f64;
    let mut rows = Vec::new();
    for (name, solve) in STAGES {
        let (mut nodes, mut guesses) = (0u64, 0u64);
        for g in set {
            let stats = solve(g).stats;
            nodes += stats.nodes;
            guesses += stats.guesses;
        }
        let time = median_of(RUNS, || {
            for g in set {
                std::hint::black_box(solve(std::hint::black_box(g)));
            }
        });
        rows.push(Row {
            name,
            nodes: nodes as f64 / n,
            guesses: guesses as f64 / n,
            micros: time.as_secs_f64() * 1e6 / n,
        });
    }
    let time = median_of(RUNS * 20, || {
        for g in set {
            std::hint::black_box(fast::solve_count(std::hint::black_box(g)));
        }
    });
    rows.push(Row {
        name: "fast (reference only, also proves uniqueness)",
        nodes: f64::NAN,
        guesses: f64::NAN,
        micros: time.as_secs_f64() * 1e6 / n,
    });
    rows
}

fn table(rows: &[Row]) -> String {
    let base = rows[0].micros;
    let mut out = String::from(
        "| stage | nodes per puzzle | guesses per puzzle | time per puzzle (µs) | speed-up over naive |\n|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let count = |x: f64| {
            if x.is_nan() {
                "-".to_string()
            } else {
                grouped(x, 1)
            }
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {}x |",
            r.name,
            count(r.nodes),
            count(r.guesses),
            grouped(r.micros, 1),
            grouped(base / r.micros, 0)
        );
    }
    out
}

/// A bar chart of time per puzzle on a log scale, one bar per stage.
fn svg(rows: &[Row]) -> String {
    let (width, bar, gap, left) = (640.0, 26.0, 10.0, 150.0);
    let height = rows.len() as f64 * (bar + gap) + 50.0;
    let max = rows
        .iter()
        .map(|r| r.micros)
        .fold(1.0, f64::max)
        .log10()
        .ceil();
    let min = rows
        .iter()
        .map(|r| r.micros)
        .fold(f64::INFINITY, f64::min)
        .log10()
        .floor()
        .min(0.0);
    let scale = (width - left - 20.0) / (max - min);
    // Room right of the plot for the longest bar's label and the last
    // axis label, so neither is cut at the canvas edge. No background: the
    // book draws the plot on the theme's own.
    let canvas = width + 60.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{canvas}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 10.0 + i as f64 * (bar + gap);
        let w = ((r.micros.log10() - min) * scale).max(2.0);
        let label = r.name.split(' ').next().unwrap_or(r.name);
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{label}</text>\n<rect x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"{bar}\" fill=\"#4a7ab5\"/>\n<text x=\"{:.1}\" y=\"{}\">{:.1} µs</text>",
            left - 8.0,
            y + bar * 0.65,
            left + w + 4.0,
            y + bar * 0.65,
            r.micros
        );
    }
    let axis_y = height - 30.0;
    for p in (min as i32)..=(max as i32) {
        let x = left + (f64::from(p) - min) * scale;
        let _ = writeln!(
            out,
            "<line x1=\"{x:.1}\" y1=\"5\" x2=\"{x:.1}\" y2=\"{axis_y}\" stroke=\"#ccc\"/>\n<text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">10{} µs</text>",
            axis_y + 15.0,
            superscript(p)
        );
    }
    out + "</svg>\n"
}

/// An exponent in superscript digits, for the plot's axis.
fn superscript(p: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits = p.unsigned_abs().to_string();
    let digits = digits
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| DIGITS[d as usize]);
    (if p < 0 { "⁻" } else { "" })
        .chars()
        .chain(digits)
        .collect()
}

fn main() -> std::io::Result<()> {
    let set = fixed_set();
    let rows = measure(&set);
    let mut page = String::from(
        "# Measurements\n\n\
         <!-- Produced by `cargo run --release -p sudoku_solution --example sudoku_figures`; do not edit by hand. -->\n\n\
         The set: the two puzzles of the seeds and our own minimal puzzles `generate(seed, 0)` for the seeds 1 to 20 \
         (22 puzzles, all with one solution). Nodes and guesses are exact; times are the median \
         of several runs on a shared machine, so read the last column (a ratio measured in the same run) \
         rather than the microseconds.\n\n",
    );
    page += &table(&rows);
    page += "\n![Time per puzzle, log scale](ladder.svg)\n";
    // The quiz's answer is a node count the book build records (sudoku_book).
    page += "\n## Check yourself\n\n{{#include generated/quiz-figures-bitmask.html}}\n";
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/sudoku");
    std::fs::write(format!("{dir}/figures.md"), &page)?;
    std::fs::write(format!("{dir}/ladder.svg"), svg(&rows))?;
    print!("{}", table(&rows));
    Ok(())
}
