//! `sudoku`: solve every puzzle of a file or of stdin, one answer per line.
//!
//! The problem: a batch of puzzles in, one line out per puzzle, in order:
//! the 81-character solution or `no solution` (with `--count`, the number
//! of solutions up to two: `0`, `1` or `2+`). The state is one puzzle at a
//! time: lines are read, parsed and answered as they stream by, so a file
//! of any size runs in constant memory. A malformed line is reported on
//! stderr with its line number and column, the other puzzles are still
//! answered, and the exit status is 2 at the end. On a terminal, a
//! progress bar shows how far through the input the run is.

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_solution::{Puzzle, PuzzleReader, fast};

/// Solve sudoku puzzles: one per line of 81 cells (digits, 0 or . for a
/// blank) or one per 9 lines of 9 cells; lines starting with # are comments.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The puzzle file; stdin when absent or `-`.
    file: Option<PathBuf>,
    /// Print the number of solutions (0, 1 or 2+) instead of the solution.
    #[arg(long)]
    count: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        Err(e) => {
            eprintln!("sudoku: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Opens the input; its size in bytes when known, for the progress bar.
fn open(file: Option<&PathBuf>) -> anyhow::Result<(Box<dyn Read>, Option<u64>)> {
    match file {
        Some(path) if path.as_os_str() != "-" => {
            let f = File::open(path)
                .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?;
            let size = f.metadata().ok().map(|m| m.len());
            Ok((Box::new(f), size))
        }
        _ => Ok((Box::new(io::stdin().lock()), None)),
    }
}

/// A progress bar over the input's bytes, drawn only on a terminal.
fn progress(size: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match size {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template("{bar:40} {percent}% {msg} ({per_sec}, {eta} left)")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner(),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar
}

/// Answers every puzzle; Ok(false) when some line was malformed.
fn run(args: &Args) -> anyhow::Result<bool> {
    let (input, size) = open(args.file.as_ref())?;
    let bar = progress(size);
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut puzzles = PuzzleReader::new();
    let (mut all_good, mut solved, mut number) = (true, 0u64, 0usize);
    let mut bytes = Vec::with_capacity(128);
    loop {
        bytes.clear();
        let read = reader.read_until(b'\n', &mut bytes)?;
        if read == 0 {
            break;
        }
        number += 1;
        bar.inc(read as u64);
        // A stray non-UTF-8 byte becomes U+FFFD and is reported as a bad
        // character at its column, like any other.
        let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let line = String::from_utf8_lossy(text);
        for item in puzzles.line(number, &line) {
            all_good &= answer(item, args.count, &mut out)?;
            solved += 1;
        }
        if solved % 4096 == 0 {
            bar.set_message(format!("{solved} puzzles"));
        }
    }
    if let Some(error) = puzzles.finish() {
        all_good &= answer(Err(error), args.count, &mut out)?;
    }
    out.flush()?;
    bar.finish_and_clear();
    Ok(all_good)
}

/// Writes the answer to one puzzle, or reports its error on stderr (and
/// returns false).
fn answer(
    item: Result<Puzzle, sudoku_solution::ParseError>,
    count: bool,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let puzzle = match item {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sudoku: {e}");
            return Ok(false);
        }
    };
    let (n, solution) = fast::solve_count(&puzzle.grid);
    if count {
        writeln!(
            out,
            "{}",
            if n >= 2 {
                "2+".to_string()
            } else {
                n.to_string()
            }
        )?;
    } else {
        match solution {
            Some(grid) => writeln!(out, "{}", grid.line())?,
            None => writeln!(out, "no solution")?,
        }
    }
    Ok(true)
}
