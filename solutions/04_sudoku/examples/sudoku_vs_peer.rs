//! Writes `book/src/sudoku/peer.md`: the fast solver against tdoku on the
//! public puzzle lists, timed in one interleaved run, and the instructions
//! per puzzle of each.
//!
//! The problem: say how [`fast::solve_count`] compares with tdoku, the
//! fastest published solver, without trusting two runs made at different
//! times on a shared machine. The state is a pair of commands run in turn
//! (workbook, peer, workbook, …), each parsing a whole file and counting
//! every puzzle's solutions up to 2; each pair gives one ratio and the page
//! reports medians. Instructions per puzzle come from `valgrind
//! --tool=callgrind` on the first 2,000 puzzles, less a run on none (so the
//! process start and the file read drop out). Cost: about two minutes.
//!
//! Run from the workspace root:
//! `cargo run --release -p sudoku_solution --example sudoku_vs_peer -- PEER [PEER_FOR_VALGRIND]`.
//! `PEER FILE [MAX]` must count the solutions (up to 2) of the first MAX
//! puzzles of FILE (all without MAX). The optional second program is the
//! same peer built for valgrind (no AVX-512); without it the instruction
//! rows are left out. The data is read from `../shared/data/sudoku/`.

use measure::{RunLoad, instructions, paired, seconds, thousands, write_page};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use sudoku_solution::fast;

/// The lists compared, and the timed pairs for each.
const FILES: [(&str, usize); 3] = [
    ("puzzles2_17_clue", 7),
    ("puzzles3_magictour_top1465", 7),
    ("puzzles5_forum_hardest_1905_11+", 5),
];

/// Puzzles per instruction count.
const SAMPLE: usize = 2_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, file] if flag == "--count" => child(Path::new(file), usize::MAX),
        [flag, file, max] if flag == "--count" => match max.parse() {
            Ok(max) => child(Path::new(file), max),
            Err(_) => Err(format!("--count: `{max}` is not a number of puzzles")),
        },
        [peer, rest @ ..] if !peer.starts_with('-') => {
            options(rest).and_then(|(valgrind, krate)| {
                run(Path::new(peer), valgrind.as_deref(), krate.as_deref())
            })
        }
        _ => Err(USAGE.into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sudoku_vs_peer: error: {message}");
            ExitCode::from(2)
        }
    }
}

const USAGE: &str = "usage: sudoku_vs_peer PEER [PEER_FOR_VALGRIND] [--crate CRATE_PEER] (see the book's peer page)";

/// The optional valgrind build of the peer and the `--crate` peer.
fn options(rest: &[String]) -> Result<(Option<PathBuf>, Option<PathBuf>), String> {
    let (mut valgrind, mut krate) = (None, None);
    let mut args = rest.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--crate" => krate = Some(args.next().ok_or("--crate needs a program")?.into()),
            flag if flag.starts_with('-') => {
                return Err(format!("unknown option `{flag}`; {USAGE}"));
            }
            path if valgrind.is_none() => valgrind = Some(path.into()),
            extra => return Err(format!("unexpected argument `{extra}`; {USAGE}")),
        }
    }
    Ok((valgrind, krate))
}

/// The child process: parse the first `max` puzzles of `file`, count each
/// one's solutions up to 2, print the tally.
fn child(file: &Path, max: usize) -> Result<(), String> {
    let text = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut tally = [0usize; 3];
    let lines = text.split(|&b| b == b'\n');
    let puzzles =
        lines.filter_map(|line| fast::grid_from_bytes(line.strip_suffix(b"\r").unwrap_or(line)));
    for grid in puzzles.take(max) {
        tally[fast::solve_count(&grid).0.min(2)] += 1;
    }
    let [none, one, more] = tally;
    println!(
        "{} puzzles: {none} none, {one} one, {more} two or more",
        none + one + more
    );
    Ok(())
}

fn run(peer: &Path, valgrind_peer: Option<&Path>, krate: Option<&Path>) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this example: {e}"))?;
    let me = me.display().to_string();
    let data: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku");
    let load = RunLoad::start();
    let mut md = String::from(HEADER);
    let mut counts = String::from(COUNTS);
    for (name, rounds) in FILES {
        let file = data.join(name);
        if !file.exists() {
            return Err(format!("{} is missing", file.display()));
        }
        let file = file.display().to_string();
        let ours = vec![me.clone(), "--count".into(), file.clone()];
        let theirs = vec![peer.display().to_string(), file.clone()];
        let pair = paired(&ours, &theirs, rounds)?;
        let puzzles = puzzle_count(&file)?;
        let rate = |t: Duration| thousands((puzzles as f64 / t.as_secs_f64()) as u64);
        writeln!(
            md,
            "| {name} | {} | {}/s | {}/s | {:.2} | {rounds} |",
            thousands(puzzles as u64),
            rate(pair.ours),
            rate(pair.peer),
            pair.ratio
        )
        .ok();
        if let Some(vg) = valgrind_peer {
            let sample = SAMPLE.min(puzzles);
            let per = |cmd: &[String]| -> Result<u64, String> {
                let with = |max: usize| [cmd, &[max.to_string()]].concat();
                let all = instructions(&with(sample))?;
                Ok(all.saturating_sub(instructions(&with(0))?) / sample.max(1) as u64)
            };
            let ours = per(&[me.clone(), "--count".into(), file.clone()])?;
            let theirs = per(&[vg.display().to_string(), file.clone()])?;
            writeln!(
                counts,
                "| {name} | {} | {} | {:.2} |",
                thousands(ours),
                thousands(theirs),
                ours as f64 / theirs as f64
            )
            .ok();
        }
    }
    if let Some(krate) = krate {
        let file = data.join(FILES[0].0).display().to_string();
        let ours = vec![me.clone(), "--count".into(), file.clone()];
        let theirs = vec![krate.display().to_string(), file];
        let pair = paired(&ours, &theirs, 7)?;
        writeln!(
            md,
            "\nAgainst the `sudoku` crate 0.8 on {}, the same way (7 pairs): workbook {}, \
             crate {}, time ratio {:.2}.",
            FILES[0].0,
            seconds(pair.ours),
            seconds(pair.peer),
            pair.ratio
        )
        .ok();
    }
    writeln!(md, "\n{}", load.sentence()).ok();
    if valgrind_peer.is_some() {
        md.push_str(&counts);
    }
    md.push_str(FOOTER);
    let page: PathBuf = ["book", "src", "sudoku", "peer.md"].iter().collect();
    write_page(&page, &md)
}

/// The puzzles in `file`, as the workbook's parser reads them.
fn puzzle_count(file: &str) -> Result<usize, String> {
    let text = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let lines = text.split(|&b| b == b'\n');
    Ok(lines
        .filter(|line| fast::grid_from_bytes(line.strip_suffix(b"\r").unwrap_or(line)).is_some())
        .count())
}

const HEADER: &str = "<!-- Generated by `cargo run --release -p sudoku_solution --example sudoku_vs_peer -- PEER PEER_FOR_VALGRIND --crate CRATE_PEER` \
(do not edit by hand). -->\n\nEach row runs the workbook and the peer in turn on the whole file, \
each a whole process that reads the file, parses every puzzle and counts its solutions up to \
2 (so a second solution would be found); the rates are puzzles over the median wall-clock \
time, the ratio the median of the pairwise time ratios (workbook / peer, below 1 means the \
workbook is faster). Rows with more than 3 pairs start with one untimed warm-up pair.\n\n\
| file | puzzles | workbook | tdoku | time ratio | pairs |\n|---|---:|---:|---:|---:|---:|\n";

const COUNTS: &str = "\n### Instructions per puzzle\n\n\
`valgrind --tool=callgrind` on the first 2,000 puzzles of each file (all of a shorter one), \
less a run on none, divided by the puzzles: parsing and counting to 2, no process start, no file read. Load does not \
change these.\n\n\
| file | workbook | tdoku | ratio |\n|---|---:|---:|---:|\n";

const FOOTER: &str = "\n### The peers\n\n\
tdoku is Tom Dillon's solver (github.com/t-dillon/tdoku), `TdokuSolverDpllTriadSimd` with \
limit 2, called by a 20-line C++ driver written for this comparison that reads the file \
with `fgets`, skips comment lines and counts the answers. Both are kept outside the \
repository. Built with `g++ -O3 -march=native -DNDEBUG` (no profile-guided optimisation) for \
the times, and with `-march=x86-64-v3` (AVX2, which valgrind can run) for the instruction \
counts. The `sudoku` crate's peer is a 15-line Rust program (outside the repository) that \
reads the file and calls `Sudoku::from_str_line` and `solutions_count_up_to(2)` on each \
line, built with `cargo build --release` and `-C target-cpu=native`.\n";
