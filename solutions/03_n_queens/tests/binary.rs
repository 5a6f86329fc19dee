//! The `n_queens` binary, which learners are given: arguments in, a count
//! or boards out, and status 2 with one clear line for bad arguments.
//!
//! Each test runs the built binary as a user would.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_n_queens_solution"))
        .args(args)
        .output()
        .expect("the binary under test can be started")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn prints_the_count() {
    for (n, expected) in [("0", "1\n"), ("4", "2\n"), ("8", "92\n"), ("12", "14200\n")] {
        let out = run(&[n]);
        assert!(
            out.status.success(),
            "n_queens {n} failed: {}",
            stderr(&out)
        );
        assert_eq!(stdout(&out), expected, "n_queens {n}");
    }
}

#[test]
fn prints_every_board_separated_by_blank_lines() {
    let out = run(&["4", "--boards"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"
    );
    let out = run(&["--boards", "8"]);
    assert_eq!(
        stdout(&out).split("\n\n").count(),
        92,
        "92 boards for n = 8"
    );
}

#[test]
fn no_board_for_three_prints_nothing() {
    let out = run(&["3", "--boards"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");
}

#[test]
fn bad_arguments_exit_with_status_2_and_say_why() {
    let cases: [(&[&str], &str); 8] = [
        (&[], "no N given"),
        (
            &["eight"],
            "argument 1: N must be a whole number, got \"eight\"",
        ),
        (&["-3"], "argument 1: N must not be negative, got -3"),
        (&["19"], "N = 19 is too large for counting: the limit is 18"),
        (
            &["13", "--boards"],
            "N = 13 is too large for printing every board (--boards): the limit is 12",
        ),
        (&["4", "5"], "argument 2: N was already given"),
        (&["4", "--all"], "argument 2: unknown option \"--all\""),
        (
            &["99999999999999999999999"],
            "argument 1: N must be a whole number",
        ),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "n_queens {args:?} must exit with 2"
        );
        assert!(
            stderr(&out).contains(message) && stderr(&out).contains("usage:"),
            "n_queens {args:?} printed {:?}, expected it to contain {message:?} and the usage",
            stderr(&out)
        );
        assert_eq!(
            stdout(&out),
            "",
            "n_queens {args:?} must print nothing on stdout"
        );
    }
}
