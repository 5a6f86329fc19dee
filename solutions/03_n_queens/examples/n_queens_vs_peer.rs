//! Writes `book/src/n_queens/peer.md`: the fast counters against Takaken's
//! C counter, timed in one interleaved run, and their instruction counts.
//!
//! The problem: say how [`count_fast`] compares with the classic fast C
//! counter without trusting two runs made at different times on a shared
//! machine. The state is a pair of commands run in turn (workbook, peer,
//! workbook, …); each pair gives one ratio and the page reports medians.
//! Instruction counts come from `valgrind --tool=callgrind`, which does not
//! depend on the load. The cost is the commands' own: about three minutes.
//!
//! Run from the workspace root:
//! `cargo run --release -p n_queens_solution --example n_queens_vs_peer -- PEER [PEER_FOR_VALGRIND]`.
//! `PEER N` must print the count for N, and `PEER N p` must count with one
//! thread per first-row start. The optional second program is the same
//! peer built without `-march=native` (valgrind cannot run AVX-512 code);
//! without it the instruction rows are left out. The book page says how the
//! calibration peer was built; its code is not part of the workbook.

use n_queens_solution::fast::{count_fast, count_fast_parallel};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, n] if flag == "--count" || flag == "--parallel" => child(flag, n),
        [peer] => run(Path::new(peer), None),
        [peer, valgrind_peer] => run(Path::new(peer), Some(Path::new(valgrind_peer))),
        _ => Err(
            "usage: n_queens_vs_peer PEER [PEER_FOR_VALGRIND] (see the book's peer page)".into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("n_queens_vs_peer: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// The child process for one row: count once and print the count.
fn child(flag: &str, n: &str) -> Result<(), String> {
    let n: usize = n
        .parse()
        .ok()
        .filter(|n| (1..=20).contains(n))
        .ok_or(format!("{flag}: `{n}` is not a board size from 1 to 20"))?;
    let count = match flag {
        "--count" => count_fast(n),
        _ => count_fast_parallel(n),
    };
    println!("{count}");
    Ok(())
}

fn run(peer: &Path, valgrind_peer: Option<&Path>) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this example: {e}"))?;
    let me = me.display().to_string();
    let peer = peer.display().to_string();
    let cmd = |program: &str, args: &[&str]| -> Vec<String> {
        std::iter::once(program.to_string())
            .chain(args.iter().map(|a| a.to_string()))
            .collect()
    };
    let load = load_average();
    let mut md = String::from(HEADER);
    let rows = [
        (
            "n = 15, one core",
            cmd(&me, &["--count", "15"]),
            cmd(&peer, &["15"]),
            7,
        ),
        (
            "n = 16, one core",
            cmd(&me, &["--count", "16"]),
            cmd(&peer, &["16"]),
            5,
        ),
        (
            "n = 17, one core",
            cmd(&me, &["--count", "17"]),
            cmd(&peer, &["17"]),
            3,
        ),
        (
            "n = 16, two cores (`count_fast_parallel`; the peer: one pthread per first-row start)",
            cmd(&me, &["--parallel", "16"]),
            cmd(&peer, &["16", "p"]),
            5,
        ),
    ];
    for (what, ours, theirs, rounds) in rows {
        let pair = paired(&ours, &theirs, rounds)?;
        let (a, b) = (seconds(pair.ours), seconds(pair.peer));
        writeln!(md, "| {what} | {a} | {b} | {:.2} | {rounds} |", pair.ratio).ok();
    }
    let own = paired(
        &cmd(&me, &["--parallel", "16"]),
        &cmd(&me, &["--count", "16"]),
        5,
    )?;
    writeln!(
        md,
        "\n`count_fast_parallel(16)` against `count_fast(16)`, the same way (5 pairs): \
         {} against {}, a speed-up of {:.2}x on two cores.",
        seconds(own.ours),
        seconds(own.peer),
        1.0 / own.ratio
    )
    .ok();
    writeln!(
        md,
        "\nLoad average (1 minute) before the run: {load}; after it: {}.",
        load_average()
    )
    .ok();
    if let Some(vg) = valgrind_peer {
        let ours = instructions(&cmd(&me, &["--count", "13"]))?;
        let theirs = instructions(&cmd(&vg.display().to_string(), &["13"]))?;
        writeln!(
            md,
            "\nInstructions at n = 13 (`valgrind --tool=callgrind`, whole process): workbook {}, \
             peer {}, ratio {:.2}.",
            thousands(ours),
            thousands(theirs),
            ours as f64 / theirs as f64
        )
        .ok();
    }
    md.push_str(FOOTER);
    print!("{md}");
    let page: std::path::PathBuf = ["book", "src", "n_queens", "peer.md"].iter().collect();
    std::fs::write(&page, md).map_err(|e| format!("cannot write {}: {e}", page.display()))?;
    println!("\nwrote {}", page.display());
    Ok(())
}

/// Instructions executed by `command`, as callgrind counts them.
fn instructions(command: &[String]) -> Result<u64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .args(command)
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let log = String::from_utf8_lossy(&out.stderr);
    log.lines()
        .find_map(|line| line.split("Collected : ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .ok_or(format!(
            "no instruction count from valgrind for `{}`",
            command.join(" ")
        ))
}

/// `n` with a comma between thousands.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

const HEADER: &str = "Generated by `cargo run --release -p n_queens_solution --example n_queens_vs_peer -- PEER PEER_FOR_VALGRIND` \
(do not edit by hand). Each row runs the workbook's counter and the peer in turn, each a whole \
process that prints the count; the times are the medians of the wall-clock times, the ratio \
the median of the pairwise ratios (workbook / peer, below 1 means the workbook is faster). \
Rows with more than 3 pairs start with one untimed warm-up pair.\n\n\
| work | workbook | peer | ratio | pairs |\n|---|---:|---:|---:|---:|\n";

const FOOTER: &str = "\n### The peer\n\n\
Takaken's counter is the well-known C program that counts N-queens solutions with the \
square's 8 symmetries: a queen in the top corner (its own recursion, each solution a class of \
8), otherwise the first queen `k` squares from the corner with the side columns masked in the \
top `k` rows, the rule that both side columns are taken by row `n-1-k`, and at each leaf a \
test of the 90°, 180° and 270° rotations whose preconditions hold. The calibration copy was \
written from the published algorithm for this comparison and kept outside the repository: \
recursive, the row state in the call's arguments, built with `gcc -O3 -march=native` for the \
times and with `gcc -O3` for valgrind. Its two-core form starts one pthread per first-row \
start (each corner start and each edge start), `PEER N p`.\n";

/// Median wall times of the two commands and the median pairwise ratio.
struct Pair {
    ours: Duration,
    peer: Duration,
    ratio: f64,
}

fn paired(ours: &[String], peer: &[String], rounds: usize) -> Result<Pair, String> {
    if rounds > 3 {
        once(ours)?;
        once(peer)?;
    }
    let mut times = Vec::new();
    for _ in 0..rounds {
        times.push((once(ours)?, once(peer)?));
    }
    let mut ratios: Vec<f64> = times
        .iter()
        .map(|(a, b)| a.as_secs_f64() / b.as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    let mut a: Vec<Duration> = times.iter().map(|t| t.0).collect();
    let mut b: Vec<Duration> = times.iter().map(|t| t.1).collect();
    a.sort();
    b.sort();
    Ok(Pair {
        ours: a[rounds / 2],
        peer: b[rounds / 2],
        ratio: ratios[rounds / 2],
    })
}

/// One run of `command`, output thrown away; an error unless it succeeds.
fn once(command: &[String]) -> Result<Duration, String> {
    let (program, args) = command.split_first().ok_or("empty command")?;
    let start = Instant::now();
    let status = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let time = start.elapsed();
    if !status.success() {
        return Err(format!("`{}` failed: {status}", command.join(" ")));
    }
    Ok(time)
}

fn seconds(time: Duration) -> String {
    format!("{:.3} s", time.as_secs_f64())
}

/// The 1-minute load average, or "unknown" where /proc is missing.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}
