//! Writes `book/src/n_queens/peer.md`: the fast counters against Takaken's
//! C counter, timed in one interleaved run, and their instruction counts.
//!
//! The problem: say how [`count_fast`] compares with the classic fast C
//! counter without trusting two runs made at different times on a shared
//! machine. The state is a pair of commands run in turn (workbook, peer,
//! workbook, …); each pair gives one ratio and the page reports medians.
//! Instruction counts come from `valgrind --tool=callgrind`, which does not
//! depend on the load. The cost is the commands' own: about two minutes on a quiet machine.
//!
//! Run from the workspace root:
//! `cargo run --release -p n_queens_solution --example n_queens_vs_peer -- PEER [PEER_FOR_VALGRIND]`.
//! `PEER N` must print the count for N, and `PEER N p` must count with one
//! thread per first-row start. The optional second program is the same
//! peer built without `-march=native` (valgrind cannot run AVX-512 code);
//! without it the instruction rows are left out. The book page says how the
//! calibration peer was built; its code is not part of the workbook.

use measure::{RunLoad, argv, instructions, paired, seconds, thousands, write_page};
use n_queens_solution::fast::{count_fast, count_fast_parallel};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    let load = RunLoad::start();
    let mut md = String::from(HEADER);
    let rows = [
        (
            "n = 15, one core",
            argv(&me, &["--count", "15"]),
            argv(&peer, &["15"]),
            15,
        ),
        (
            "n = 16, one core",
            argv(&me, &["--count", "16"]),
            argv(&peer, &["16"]),
            9,
        ),
        (
            "n = 17, one core",
            argv(&me, &["--count", "17"]),
            argv(&peer, &["17"]),
            3,
        ),
        (
            "n = 16, two cores (`count_fast_parallel`; the peer: one pthread per first-row start)",
            argv(&me, &["--parallel", "16"]),
            argv(&peer, &["16", "p"]),
            5,
        ),
        (
            "n = 17, two cores (the same)",
            argv(&me, &["--parallel", "17"]),
            argv(&peer, &["17", "p"]),
            3,
        ),
    ];
    for (what, ours, theirs, rounds) in rows {
        let pair = paired(&ours, &theirs, rounds)?;
        let (a, b) = (seconds(pair.ours), seconds(pair.peer));
        writeln!(md, "| {what} | {a} | {b} | {:.2} | {rounds} |", pair.ratio).ok();
    }
    // The speed-up of two cores over one: the same jobs, on the lanes at
    // n = 16 and on the scalar walks at n = 17 (past the lanes' 16 rows).
    md.push('\n');
    for (n, rounds) in [("16", 15), ("17", 3)] {
        let own = paired(
            &argv(&me, &["--parallel", n]),
            &argv(&me, &["--count", n]),
            rounds,
        )?;
        writeln!(
            md,
            "`count_fast_parallel({n})` against `count_fast({n})`, the same way ({rounds} pairs): \
             {} against {}, a speed-up of {:.2}x on two cores.",
            seconds(own.ours),
            seconds(own.peer),
            1.0 / own.ratio
        )
        .ok();
    }
    writeln!(md, "\n{}", load.sentence()).ok();
    if let Some(vg) = valgrind_peer {
        let ours = instructions(&argv(&me, &["--count", "13"]))?;
        let theirs = instructions(&argv(&vg.display().to_string(), &["13"]))?;
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
    let page: PathBuf = ["book", "src", "n_queens", "peer.md"].iter().collect();
    write_page(&page, &md)
}

const HEADER: &str = "<!-- Generated by `cargo run --release -p n_queens_solution --example n_queens_vs_peer -- PEER PEER_FOR_VALGRIND` \
(do not edit by hand). -->\n\nEach row runs the workbook's counter and the peer in turn, each a whole \
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
