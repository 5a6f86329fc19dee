//! `n_queens N [--boards]`: the number of solutions for `N` queens, or
//! every board.
//!
//! The problem is the chapter's; the state is the command line. Counting
//! uses the parallel bitboard counter and is allowed up to `N = 18` (about
//! ten seconds on two cores); drawing every board costs `O(S·N²)` output
//! and is allowed up to `N = 12` (14 200 boards). Bad arguments print one
//! line naming the argument and the limit, and exit with status 2.

use n_queens::{count_parallel, draw, solutions};
use std::io::{BufWriter, Write};
use std::process::ExitCode;

/// The largest `N` the count is offered for.
const COUNT_LIMIT: usize = 18;
/// The largest `N` whose boards are printed.
const BOARDS_LIMIT: usize = 12;

const USAGE: &str = "usage: n_queens N [--boards]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
        Ok((n, boards)) => match run(n, boards) {
            Ok(()) => ExitCode::SUCCESS,
            // A closed pipe (`| head`) is not worth a message.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("n_queens: cannot write the output: {e}");
                ExitCode::FAILURE
            }
        },
        Err(message) => {
            eprintln!("n_queens: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `N` and whether boards are wanted, or what is wrong with the arguments.
fn parse(args: &[String]) -> Result<(usize, bool), String> {
    let mut n = None;
    let mut boards = false;
    for (i, arg) in args.iter().enumerate() {
        let position = i + 1;
        if arg == "--boards" {
            boards = true;
        } else if arg.starts_with("--") {
            return Err(format!("argument {position}: unknown option {arg:?}"));
        } else if n.is_some() {
            return Err(format!(
                "argument {position}: N was already given, {arg:?} is one too many"
            ));
        } else {
            n = Some(parse_n(position, arg)?);
        }
    }
    let n = n.ok_or("no N given")?;
    let (limit, mode) = if boards {
        (BOARDS_LIMIT, "printing every board (--boards)")
    } else {
        (COUNT_LIMIT, "counting")
    };
    if n > limit {
        return Err(format!(
            "N = {n} is too large for {mode}: the limit is {limit}"
        ));
    }
    Ok((n, boards))
}

/// One argument as a board size.
fn parse_n(position: usize, arg: &str) -> Result<usize, String> {
    if arg.starts_with('-') && arg[1..].chars().all(|c| c.is_ascii_digit()) && arg.len() > 1 {
        return Err(format!(
            "argument {position}: N must not be negative, got {arg}"
        ));
    }
    arg.parse()
        .map_err(|_| format!("argument {position}: N must be a whole number, got {arg:?}"))
}

fn run(n: usize, boards: bool) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if boards {
        for (i, cols) in solutions(n).enumerate() {
            if i > 0 {
                writeln!(out)?;
            }
            for line in draw(&cols) {
                writeln!(out, "{line}")?;
            }
        }
    } else {
        writeln!(out, "{}", count_parallel(n))?;
    }
    out.flush()
}
