//! `knights_tour N [--start ROW,COL] [--closed] [--method naive|warnsdorff]`
//!
//! Prints a knight's tour of the N x N board as N lines of N move numbers,
//! or `No Tour`. The state is the parsed options; the cost is the chosen
//! method's: the plain search is exponential (so it stops at N = 7),
//! Warnsdorff's rule is O(N²). Numbers are coloured (as in the seed) only
//! when stdout is a terminal and `NO_COLOR` is not set. Bad arguments print
//! an error naming the argument and exit with status 2.

use knights_tour_solution::closed::{MAX_CLOSED, closed_tour, renumber_from};
use knights_tour_solution::{Board, SEED_MOVES, Square, open_tour, plain_dfs};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: knights_tour N [--start ROW,COL] [--closed] [--method naive|warnsdorff]

  N                 the board's side, 1..=1000 (naive: 1..=7)
  --start ROW,COL   the first square, counted from 0; row 0 is the top
                    (default: the bottom-right corner, N-1,N-1)
  --closed          a closed tour: the last square is a knight's move from the first
  --method M        naive (the seed's plain depth-first search) or warnsdorff (default)";

/// The largest board each method accepts.
const MAX_NAIVE: usize = 7;
const MAX_WARNSDORFF: usize = 1000;

#[derive(Debug, PartialEq, Eq)]
enum Method {
    Naive,
    Warnsdorff,
}

#[derive(Debug)]
struct Options {
    n: usize,
    start: Option<Square>,
    closed: bool,
    method: Method,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match parse(&args) {
        Ok(options) => {
            print(solve(&options).as_ref());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("knights_tour: error: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Reads the arguments, naming the one that is wrong.
fn parse(args: &[String]) -> Result<Options, String> {
    let mut n = None;
    let mut start = None;
    let mut closed = false;
    let mut method = Method::Warnsdorff;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--closed" => closed = true,
            "--start" => start = Some(value(&mut rest, "--start").and_then(parse_square)?),
            "--method" => method = value(&mut rest, "--method").and_then(parse_method)?,
            flag if flag.starts_with('-') && flag.parse::<i64>().is_err() => {
                return Err(format!("unknown option `{flag}`"));
            }
            size if n.is_none() => n = Some(parse_size(size)?),
            extra => {
                return Err(format!(
                    "unexpected argument `{extra}` (N was already given)"
                ));
            }
        }
    }
    let n = n.ok_or("missing N, the board size")?;
    check_limits(n, start, closed, &method)?;
    Ok(Options {
        n,
        start,
        closed,
        method,
    })
}

fn value<'a>(rest: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<&'a str, String> {
    rest.next()
        .map(String::as_str)
        .ok_or_else(|| format!("`{flag}` needs a value"))
}

fn parse_size(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "N: `{text}` is not a board size (a whole number from 1 to {MAX_WARNSDORFF})"
        )),
    }
}

fn parse_square(text: &str) -> Result<Square, String> {
    let bad = || format!("--start: `{text}` is not a square (expected ROW,COL, e.g. 0,0)");
    let (row, col) = text.split_once(',').ok_or_else(bad)?;
    let row = row.trim().parse().map_err(|_| bad())?;
    let col = col.trim().parse().map_err(|_| bad())?;
    Ok((row, col))
}

fn parse_method(text: &str) -> Result<Method, String> {
    match text {
        "naive" => Ok(Method::Naive),
        "warnsdorff" => Ok(Method::Warnsdorff),
        other => Err(format!(
            "--method: `{other}` is not a method (expected naive or warnsdorff)"
        )),
    }
}

fn check_limits(
    n: usize,
    start: Option<Square>,
    closed: bool,
    method: &Method,
) -> Result<(), String> {
    let (limit, why) = match (method, closed) {
        (Method::Naive, true) => {
            return Err("--closed works with --method warnsdorff only (the plain search stops at its first open tour)".into());
        }
        (Method::Naive, false) => (
            MAX_NAIVE,
            "the naive method (plain DFS explodes beyond 7x7)",
        ),
        (Method::Warnsdorff, true) => (MAX_CLOSED, "closed tours"),
        (Method::Warnsdorff, false) => (MAX_WARNSDORFF, "the warnsdorff method"),
    };
    if n > limit {
        return Err(format!("N: {n} is too large for {why}: at most {limit}"));
    }
    if let Some((row, col)) = start.filter(|&(r, c)| r >= n || c >= n) {
        return Err(format!(
            "--start: ({row}, {col}) is off the {n}x{n} board (rows and columns run 0 to {})",
            n - 1
        ));
    }
    Ok(())
}

fn solve(options: &Options) -> Option<Board> {
    let n = options.n;
    let start = options.start.unwrap_or((n - 1, n - 1));
    if options.closed {
        return closed_tour(n).map(|board| renumber_from(&board, start));
    }
    match options.method {
        Method::Naive => plain_dfs(n, start, &SEED_MOVES).tour,
        Method::Warnsdorff => open_tour(n, start),
    }
}

/// Writes the board or `No Tour`; colour only for a terminal without NO_COLOR.
fn print(board: Option<&Board>) {
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let (text, code) = match board {
        Some(board) => (board.text(), 32),
        None => ("No Tour\n".to_string(), 31),
    };
    let text = if colour { painted(&text, code) } else { text };
    // A closed pipe (e.g. `| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Each line of `text` in the terminal colour `code`.
fn painted(text: &str, code: u8) -> String {
    text.lines()
        .map(|line| format!("\x1b[{code}m{line}\x1b[0m\n"))
        .collect()
}
