//! Tests of the chapter binary: `N M` on standard input, the exact count on
//! standard output; bad input gets a message on standard error and exit
//! status 2.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the binary on `input`: (status code, stdout, stderr).
fn run(input: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_apples_solution"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("the input is written");
    let out = child.wait_with_output().expect("the binary finishes");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn prints_the_count() {
    assert_eq!(run(b"3 3\n"), (Some(0), "10\n".into(), String::new()));
}

#[test]
fn prints_big_counts_exactly() {
    let (code, out, _) = run(b"35 35");
    assert_eq!((code, out.as_str()), (Some(0), "56093138908331422716\n"));
}

#[test]
fn nobody_and_no_apples_is_one_way() {
    assert_eq!(run(b"0 0").1, "1\n");
    assert_eq!(run(b"0 5").1, "0\n");
}

#[test]
fn bad_input_exits_2_and_says_why() {
    let cases: [(&[u8], &str); 6] = [
        (b"", "missing N (the number of people)"),
        (b"4", "missing M (the number of apples)"),
        (
            b"4 -1",
            "line 1, column 3: M (the number of apples) cannot be negative",
        ),
        (
            b"four 1",
            "line 1, column 1: N (the number of people) must be a whole number",
        ),
        (b"4 1 2", "line 1, column 5: unexpected `2`"),
        (b"\xff\xfe", "not UTF-8"),
    ];
    for (input, says) in cases {
        let (code, out, err) = run(input);
        assert_eq!(code, Some(2), "exit status for {input:?}");
        assert!(out.is_empty(), "no answer on stdout for {input:?}: {out:?}");
        assert!(
            err.contains(says),
            "stderr for {input:?} should contain {says:?}: {err:?}"
        );
    }
}
