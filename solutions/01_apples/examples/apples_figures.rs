//! Writes the chapter's figures: the table and plot of how the naive
//! recursion explodes, and (with `--timings`) the measured speed ratios.
//!
//! The problem: the book's numbers must come from the code, not from a
//! keyboard. The state is a list of measured rows. Cost: about a second
//! for the calls (the largest naive run makes 3.7e7 calls), plus a few
//! seconds for the timings.
//!
//! Run: `cargo run --release -p apples_solution --example apples_figures`
//! (add `-- --timings` to refresh `timings.md` as well).

use apples_solution::{
    count_checked, count_exact, count_exact_multiplicative, count_memo, count_naive,
    count_naive_traced, distributions,
};
use measure::{median_per_call, thousands};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The largest N = M the naive recursion is measured at.
const LARGEST: u32 = 14;

/// One measured row of the explosion table.
struct Row {
    n: u32,
    ways: u64,
    calls: u64,
    memo: u64,
    steps: u64,
}

/// One plotted line: its legend, its colour, and the value it plots.
type Series = (&'static str, &'static str, fn(&Row) -> u64);

fn main() -> std::io::Result<()> {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/apples/figures");
    std::fs::create_dir_all(&out)?;
    let rows: Vec<Row> = (1..=LARGEST).map(measure).collect();
    write(&out.join("calls.md"), &calls_table(&rows))?;
    write(&out.join("calls.svg"), &plot(&rows))?;
    if std::env::args().any(|a| a == "--timings") {
        write(&out.join("timings.md"), &timings())?;
    }
    Ok(())
}

fn write(path: &PathBuf, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)?;
    println!("wrote {}", path.display());
    Ok(())
}

/// The naive run at N = M = n, with what the other stages would spend.
fn measure(n: u32) -> Row {
    let run = count_naive_traced(n, n);
    Row {
        n,
        ways: run.ways,
        calls: run.calls,
        // count_memo: one checked addition per cell after the first row.
        memo: u64::from(n - 1) * u64::from(n),
        // count_checked: one multiply-divide per step.
        steps: u64::from(n - 1),
    }
}

fn calls_table(rows: &[Row]) -> String {
    let mut md = String::from(
        "| N = M | ways | naive calls | calls per way | memo additions | closed-form steps |\n\
         |---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.2} | {} | {} |",
            r.n,
            thousands(r.ways),
            thousands(r.calls),
            r.calls as f64 / r.ways as f64,
            thousands(r.memo),
            r.steps
        );
    }
    md
}

/// A log-scale line plot of the three stages' work against N = M.
fn plot(rows: &[Row]) -> String {
    let (w, h, left, right, top, bottom) = (640.0, 400.0, 70.0, 20.0, 30.0, 50.0);
    let decades = 9.0;
    let x = |n: u32| left + (f64::from(n) - 1.0) / f64::from(LARGEST - 1) * (w - left - right);
    let y = |v: u64| top + (1.0 - (v.max(1) as f64).log10() / decades) * (h - top - bottom);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">\
         Work to count the ways for N people and M = N apples (log scale)</text>\n",
        w / 2.0
    );
    for d in 0..=9 {
        let yy = y(10u64.pow(d));
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">1e{d}</text>",
            w - right,
            left - 6.0,
            yy + 4.0
        );
    }
    for r in rows {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x(r.n),
            h - bottom + 18.0,
            r.n
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">N = M</text>",
        (left + w - right) / 2.0,
        h - 10.0
    );
    let series: [Series; 3] = [
        ("naive calls", "#c0392b", |r| r.calls),
        ("memo additions", "#2471a3", |r| r.memo),
        ("closed-form steps", "#229954", |r| r.steps),
    ];
    for (i, (name, colour, value)) in series.into_iter().enumerate() {
        let points: Vec<String> = rows
            .iter()
            .map(|r| format!("{:.1},{:.1}", x(r.n), y(value(r))))
            .collect();
        let ly = top + 20.0 + 18.0 * i as f64;
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n\
             <line x1=\"{}\" x2=\"{}\" y1=\"{ly}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"/>\
             <text x=\"{}\" y=\"{}\">{name}</text>",
            points.join(" "),
            left + 12.0,
            left + 36.0,
            left + 42.0,
            ly + 4.0
        );
    }
    svg + "</svg>\n"
}

/// The median time of one call of `f`: 7 batches of about 50 ms each.
fn time(f: impl FnMut()) -> Duration {
    median_per_call(7, Duration::from_millis(50), f)
}

/// Speed ratios measured in one run, each against a baseline from the same
/// run, so a busy machine shifts both sides alike.
fn timings() -> String {
    let (n, m) = (12, 12);
    let naive = time(|| {
        black_box(count_naive(black_box(n), black_box(m)));
    });
    let stages: [(&str, Duration); 5] = [
        ("count_naive", naive),
        (
            "count_memo",
            time(|| {
                black_box(count_memo(black_box(n), black_box(m)));
            }),
        ),
        (
            "count_checked",
            time(|| {
                black_box(count_checked(black_box(n), black_box(m)));
            }),
        ),
        (
            "count_exact",
            time(|| {
                black_box(count_exact(black_box(n), black_box(m)));
            }),
        ),
        (
            "distributions(..).count()",
            time(|| {
                black_box(distributions(black_box(n), black_box(m)).count());
            }),
        ),
    ];
    let mut md = format!(
        "N = M = {n}: time of each stage as a fraction of the naive recursion's, measured in the same run.\n\n\
         | stage | time / naive time |\n|---|---:|\n"
    );
    for (name, t) in stages {
        let _ = writeln!(
            md,
            "| `{name}` | {:.2e} |",
            t.as_secs_f64() / naive.as_secs_f64()
        );
    }
    let slow = time(|| {
        black_box(count_exact_multiplicative(100_000, 100_000));
    });
    let fast = time(|| {
        black_box(count_exact(100_000, 100_000));
    });
    let _ = write!(
        md,
        "\nN = M = 100,000: the multiplicative formula takes {:.1} times as long as the prime \
         factorisation with a product tree (`count_exact`).\n",
        slow.as_secs_f64() / fast.as_secs_f64()
    );
    md
}
