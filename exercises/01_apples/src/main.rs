//! The chapter's binary: reads `N M` from standard input and prints the
//! exact number of ways to hand M identical apples to N people.
//!
//! The problem is the chapter's; the state is the two parsed numbers; the
//! cost is one exact binomial coefficient (see `count_exact`). Bad input
//! (missing numbers, negatives, non-numbers, extra tokens, text that is
//! not UTF-8) prints an error naming what was wrong and where, and exits
//! with status 2.

use apples::{count_exact, parse_input};
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        return fail(&format!("cannot read standard input: {e}"));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return fail("the input is not UTF-8 text; expected two whole numbers, N then M");
    };
    match parse_input(&text) {
        Ok((people, apples)) => {
            println!("{}", count_exact(people, apples));
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// Reports a bad input on standard error; status 2 means "bad input".
fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    eprintln!("usage: echo \"N M\" | apples   (N people, M apples)");
    ExitCode::from(2)
}
