//! The `sudoku` binary: one answer line per puzzle, errors on stderr with
//! their line and column, exit status 2 when any line was malformed.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const SEED_002: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SEED_002_SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const CLASHING: &str =
    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const EMPTY: &str =
    ".................................................................................";

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    child.wait_with_output().expect("the binary ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn answers_each_puzzle_on_its_own_line() {
    let out = run(&[], &format!("# two puzzles\n{SEED_002}\n{CLASHING}\n"));
    assert_eq!(
        text(&out.stdout),
        format!("{SEED_002_SOLVED}\nno solution\n")
    );
    assert!(
        out.status.success(),
        "status {:?}, stderr {}",
        out.status,
        text(&out.stderr)
    );
}

#[test]
fn count_prints_zero_one_or_two_plus() {
    let out = run(&["--count"], &format!("{SEED_002}\n{CLASHING}\n{EMPTY}\n"));
    assert_eq!(text(&out.stdout), "1\n0\n2+\n");
    assert!(out.status.success());
}

#[test]
fn reads_the_grid_form() {
    let grid = "1 0 3 0 0 0 5 0 9\n0 0 2 1 0 9 4 0 0\n0 0 0 7 0 4 0 0 0\n3 0 0 5 0 2 0 0 6\n0 6 0 0 0 0 0 5 0\n\
                7 0 0 8 0 3 0 0 4\n0 0 0 4 0 1 0 0 0\n0 0 9 2 0 5 8 0 0\n8 0 4 0 0 0 1 0 7\n";
    let out = run(&[], grid);
    assert_eq!(
        text(&out.stdout),
        "143628579572139468986754231391542786468917352725863914237481695619275843854396127\n"
    );
}

#[test]
fn a_malformed_line_is_reported_and_the_rest_still_answered() {
    let out = run(
        &[],
        &format!("{SEED_002}\n12x4\n{SEED_002}\r\n{}\n", &SEED_002[..80]),
    );
    assert_eq!(
        text(&out.stdout),
        format!("{SEED_002_SOLVED}\n{SEED_002_SOLVED}\n")
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("line 2, column 3: unexpected 'x'"),
        "stderr: {err}"
    );
    assert!(err.contains("line 4, column 81: 80 cells"), "stderr: {err}");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn invalid_utf8_is_a_bad_character_not_a_crash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = b"12\xff\n".to_vec();
    input.extend_from_slice(SEED_002.as_bytes());
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&input)
        .expect("stdin written");
    let out = child.wait_with_output().expect("the binary ends");
    assert_eq!(text(&out.stdout), format!("{SEED_002_SOLVED}\n"));
    assert!(
        text(&out.stderr).contains("line 1, column 3"),
        "stderr: {}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_missing_file_is_an_error_with_status_2() {
    let out = run(&["/no/such/file.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot open /no/such/file.txt"),
        "stderr: {}",
        text(&out.stderr)
    );
}

#[test]
fn reads_a_file_argument() {
    let path = std::env::temp_dir().join(format!("sudoku-binary-test-{}.txt", std::process::id()));
    std::fs::write(&path, format!("{SEED_002}\n")).expect("temp file written");
    let out = run(&[path.to_str().expect("utf-8 path")], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(text(&out.stdout), format!("{SEED_002_SOLVED}\n"));
}
