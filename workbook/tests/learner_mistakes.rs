//! A learner's mistake that crashes, as `cargo test` in the chapter shows it.
//!
//! The problem: a panic in the learner's code (an index out of range) and a
//! recursion that never reaches its base case are mistakes like a wrong
//! answer, and the suite must say so like one: the call, the expected
//! value, why and the book section. A panic is caught by the suites'
//! `support::guard`; a stack overflow cannot be caught and aborts the test
//! binary, so the support module's SIGABRT handler names the guarded call
//! just before the abort goes on (unix only). This test writes such a
//! learner into a copy of chapter 0 (the repository's stubs are never
//! edited) and runs `cargo test` there, as the learner would.
//!
//! The state: a small workbook in a temporary folder, built in the
//! repository's own target directory, so only the copy's two chapter
//! crates are compiled (the dependencies are shared). The cost: that
//! build, then three short runs of the suite.

mod common;

use common::{mini_workbook, replace_body};
use std::path::Path;
use std::process::Command;

/// `cargo test FILTER` in the copy's chapter 0 folder, as a learner runs
/// it; what the terminal shows (libtest's failures come on standard
/// output, the overflow's lines on standard error).
fn learner_runs(root: &Path, filter: &str) -> String {
    let chapter = root.join("exercises/00_intro");
    // The repository's target directory: CARGO_TARGET_TMPDIR is its `tmp`.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = Command::new(cargo)
        .current_dir(&chapter)
        .args(["test", "-q", "--", filter])
        .env("CARGO_TARGET_DIR", target)
        .env("PWD", &chapter)
        .env_remove("WORKBOOK_NO_SUMMARY")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("cargo runs");
    let said =
        String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success(),
        "the learner's mistakes must fail: {said}"
    );
    said
}

#[test]
fn a_crash_in_the_learners_code_names_the_call_the_expected_value_and_the_book() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    mini_workbook(&root, "");
    let lib = root.join("exercises/00_intro/src/lib.rs");
    let stubs = std::fs::read_to_string(&lib).expect("chapter 0's stubs");
    // dfs_recursive's helper recurses on the same vertex forever (not a
    // tail call, which the optimiser would turn into a loop); dfs_stack
    // reads a neighbour that is not there.
    let learner = replace_body(
        &stubs,
        "dfs_recursive",
        "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); \
         visit(graph, start, &mut seen, &mut order); order",
    );
    let learner = replace_body(
        &learner,
        "visit",
        "if v < graph.len() { visit(graph, v, seen, order); } order.push(v);",
    );
    let learner = replace_body(&learner, "dfs_stack", "vec![graph[start][7]]");
    std::fs::write(&lib, learner).expect("write the learner's code");

    let said = learner_runs(&root, "dfs_stack::visits_in_preorder");
    assert!(
        said.contains(
            "dfs_stack([[1, 2], [3], [3], []], 0) panicked instead of returning (index out of \
             bounds: the len is 2 but the index is 7"
        ) && said.contains(
            "expected [0, 1, 3, 2]: the order the recursion finds: push neighbours so that the \
             first one is popped first (book: chapter 0, \"The explicit stack\")"
        ),
        "a panic is a failure with the call, the expected value and the book:\n{said}"
    );

    // Only guarded tests, so whichever overflows first names its call.
    let said = learner_runs(&root, "dfs_recursive::visits_in_preorder");
    if cfg!(unix) {
        assert!(
            said.contains("has overflowed its stack")
                && said.contains(
                    ") overflowed its stack instead of returning; expected the preorder ["
                )
                && said.contains("(book: chapter 0, \"The recursive template\")")
                && said.contains("a recursion that never reaches its base case"),
            "an overflow names the call, the expected value, the book and the usual cause:\n{said}"
        );
        // A snapshot test calls the learner's code with no check helper
        // around it: its `explain` still names the book section.
        let said = learner_runs(
            &root,
            "dfs_recursive::a_tree_of_seven_is_listed_depth_first",
        );
        assert!(
            said.contains(
                "the test named above overflowed its stack instead of returning; the book \
                 explains what it should return: chapter 0, \"The recursive template\""
            ) && said.contains("a recursion that never reaches its base case"),
            "an overflow in a snapshot test names the book section and the usual cause:\n{said}"
        );
    }
}
