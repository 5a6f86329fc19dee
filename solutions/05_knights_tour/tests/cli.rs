//! The binary, tested as a user runs it: arguments in, board or error out.
//!
//! The binary is given code (learners do not write it), so it is tested
//! here, not in the graded suite. Each case runs the real executable; with
//! stdout a pipe it must never colour its output.

use knights_tour_solution::{Board, validate};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_knights_tour_solution"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

/// The printed board, parsed back.
fn board(out: &Output) -> Board {
    let text = String::from_utf8(out.stdout.clone()).expect("utf-8");
    let rows: Vec<Vec<u32>> = text
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|k| k.parse().expect("a number"))
                .collect()
        })
        .collect();
    Board::from_rows(&rows).expect("a square board")
}

#[test]
fn the_naive_method_prints_the_seeds_7x7_board() {
    let out = run(&["7", "--method", "naive"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("11  8 19  4 29 46 49\n"), "got:\n{text}");
    assert!(text.ends_with("23 38 41 34 25 36  1\n"), "got:\n{text}");
    assert!(!text.contains('\x1b'), "no colour into a pipe");
}

#[test]
fn warnsdorff_is_the_default_and_starts_where_asked() {
    let out = run(&["12", "--start", "3,4"]);
    assert!(out.status.success());
    let b = board(&out);
    assert_eq!(validate(&b, false), Ok(()));
    assert_eq!(b.get((3, 4)), 1);
}

#[test]
fn closed_tours_start_where_asked() {
    let out = run(&["10", "--closed", "--start", "0,0"]);
    assert!(out.status.success());
    let b = board(&out);
    assert_eq!(validate(&b, true), Ok(()));
    assert_eq!(b.get((0, 0)), 1);
}

#[test]
fn closed_tours_reach_beyond_the_old_limit_of_200() {
    let out = run(&["202", "--closed", "--start", "101,37"]);
    assert!(out.status.success());
    let b = board(&out);
    assert_eq!(validate(&b, true), Ok(()));
    assert_eq!(b.get((101, 37)), 1);
}

#[test]
fn no_tour_is_said_plainly() {
    for args in [&["4"][..], &["7", "--closed"], &["5", "--start", "0,1"]] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "No Tour\n",
            "{args:?}"
        );
    }
}

#[test]
fn bad_input_exits_2_with_a_clear_error() {
    let cases: [(&[&str], &str); 9] = [
        (&[], "missing N"),
        (&["abc"], "`abc` is not a board size"),
        (&["0"], "`0` is not a board size"),
        (
            &["8", "--method", "naive"],
            "too large for the naive method",
        ),
        (&["1001"], "too large for the warnsdorff method"),
        (&["1002", "--closed"], "too large for closed tours"),
        (&["6", "--start", "6,0"], "off the 6x6 board"),
        (&["6", "--start", "x"], "--start: `x` is not a square"),
        (&["6", "--method", "fast"], "`fast` is not a method"),
    ];
    for (args, expected) in cases {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: expected {expected:?} in {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_exits_0() {
    let out = run(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("usage: knights_tour N"));
}
