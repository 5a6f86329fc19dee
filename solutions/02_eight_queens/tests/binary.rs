//! The contest binary, end to end: board on stdin, answer on stdout.
//!
//! The binary is given code (learners do not write it), so it is tested
//! here rather than in the graded suite: the exact ARC001 C output for a
//! board with an answer and for one without, and exit status 2 with a
//! line-and-column message for input that is not a board.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_eight_queens_solution"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("the binary reads its input");
    child.wait_with_output().expect("the binary finishes")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const THREE_GIVEN: &str = "\
........
........
.......Q
........
..Q.....
........
.Q......
........
";

#[test]
fn a_board_with_an_answer_prints_eight_lines_keeping_the_given_queens() {
    let output = run(THREE_GIVEN);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert!(lines.iter().all(|l| l.len() == 8), "{text}");
    assert_eq!(text.matches('Q').count(), 8, "{text}");
    for (row, given) in THREE_GIVEN.lines().enumerate() {
        for (col, c) in given.char_indices() {
            if c == 'Q' {
                assert_eq!(&lines[row][col..=col], "Q", "given queen {row},{col} kept");
            }
        }
    }
    assert!(text.ends_with('\n'));
}

#[test]
fn a_board_without_an_answer_prints_no_answer() {
    let board = "........\n........\n........\n........\n........\n.......Q\n....Q...\n.Q......\n";
    let output = run(board);
    assert!(output.status.success());
    assert_eq!(stdout(&output), "No Answer\n");
}

#[test]
fn given_queens_that_attack_print_no_answer() {
    let board = "Q......Q\n........\n........\n........\n........\n........\n........\n........\n";
    assert_eq!(stdout(&run(board)), "No Answer\n");
}

#[test]
fn crlf_input_without_a_final_newline_is_accepted() {
    let board = THREE_GIVEN.replace('\n', "\r\n");
    let output = run(board.trim_end());
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    assert_eq!(stdout(&output).matches('Q').count(), 8);
}

#[test]
fn a_bad_character_exits_2_naming_line_and_column() {
    let board = THREE_GIVEN.replacen(".Q......", ".Q..x...", 1);
    let output = run(&board);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    let message = stderr(&output);
    assert!(message.contains("line 7, column 5"), "{message}");
    assert!(message.contains("'x'"), "{message}");
}

#[test]
fn a_short_input_exits_2() {
    let output = run("........\n........\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("line 3, column 1"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn empty_input_exits_2() {
    let output = run("");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("line 1, column 1"));
}

#[test]
fn input_that_is_not_utf8_exits_2() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_eight_queens_solution"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let _ = child
        .stdin
        .take()
        .expect("piped")
        .write_all(&[0xff, 0xfe, b'\n']);
    let output = child.wait_with_output().expect("finishes");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("error"));
}
