//! The contest program: read a board on stdin, print the completed board
//! or `No Answer` on stdout.
//!
//! Input that is not a board (see `parse_board` for the format) is reported
//! on stderr with its line and column, and the program exits with status 2.
//! The work is one parse and one search, a few milliseconds at most.

use eight_queens::{answer, parse_board, solve};
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("error: cannot read standard input: {e}");
        return ExitCode::from(2);
    }
    match parse_board(&input) {
        Ok(board) => {
            print!("{}", answer(solve(&board).as_ref()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
