//! A judge per chapter grades as a judge per test does, and gives each
//! test a subject of its own.
//!
//! The problem: the grader runs all of a suite binary's tests of a
//! learner-chapter in one judge process, and asks for a fresh subject at
//! each test's first call (`exec/batch.rs`). Were a subject shared between
//! tests, the learner's code could answer one test from state another left;
//! were a batch's verdicts taken beyond its passes, a crash or a failure
//! would be named otherwise than a test alone names it. State: two
//! learners of chapter 0, graded once with judges per chapter (the
//! default) and once with a judge per test (`WORKBOOK_GRADER_BATCH=0`):
//! `ann`, the reference, and `once`, whose `count_islands` answers right
//! only on the first call its process gets (a `static` counter) and whose
//! `dfs_recursive` recurses without end (its process dies of a stack
//! overflow in the middle of a batch). Cost: two gradings of two learners'
//! chapter 0 (each built once: the second run takes the subject cache).

use crate::tool;
use std::path::Path;
use std::time::SystemTime;
use workbook_core::testkit::{replace_body, repo, write};

/// Every test's name, status (`pass` or not), verdict and message in `id`'s
/// `results.json` under `out` (a status alone could hide a changed
/// explanation).
fn verdicts(out: &Path, id: &str) -> Vec<(String, String, String)> {
    let path = out.join("learners").join(id).join("results.json");
    let text = std::fs::read_to_string(&path).expect("results.json");
    let r: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    r["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            let s = |k: &str| t[k].as_str().unwrap_or_default().to_string();
            (
                s("name"),
                s("status"),
                format!("{}: {}", s("verdict"), s("message")),
            )
        })
        .collect()
}

/// The reference's `count_islands`, answering only the first call of its
/// process right (every later one gets `usize::MAX`).
const FIRST_CALL_ONLY: &str = "\
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);\n\
    if CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 0 {\n\
        return usize::MAX;\n\
    }\n\
    let rows: Vec<&[u8]> = map.lines().map(str::as_bytes).collect();\n\
    let mut seen: Vec<Vec<bool>> = rows.iter().map(|row| vec![false; row.len()]).collect();\n\
    let mut islands = 0;\n\
    for row in 0..rows.len() {\n\
        for col in 0..rows[row].len() {\n\
            if rows[row][col] == LAND && !seen[row][col] {\n\
                islands += 1;\n\
                sink(&rows, row, col, &mut seen);\n\
            }\n\
        }\n\
    }\n\
    islands";

#[test]
fn a_judge_per_chapter_gives_each_test_a_fresh_subject_and_the_verdicts_of_a_judge_per_test() {
    if !tool::sandbox_or_skip(
        "a_judge_per_chapter_gives_each_test_a_fresh_subject_and_the_verdicts_of_a_judge_per_test",
    ) {
        return;
    }
    let turn = tool::turn();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    tool::open_to_all(tmp.path());
    let reference = tmp.path().join("reference");
    let read =
        |name: &str| std::fs::read_to_string(reference.join(name)).expect("a reference file");
    // Sources no earlier run built, so the first grading builds them.
    let nonce = format!("{:?}", SystemTime::now());
    let lib = tool::unbuilt_intro_lib(&reference, &nonce);
    let subs = tmp.path().join("submissions");
    let src = |id: &str| subs.join(id).join("exercises/00_intro/src");
    write(&src("ann").join("lib.rs"), &lib);
    write(&src("ann").join("islands.rs"), &read("islands.rs"));
    // Without end: the subject dies of it while the judge runs on.
    let endless = replace_body(
        &lib,
        "dfs_recursive",
        &format!(
            "let _ = {nonce:?}; let mut order = dfs_recursive(graph, start); order.push(start); order"
        ),
    );
    write(&src("once").join("lib.rs"), &endless);
    write(
        &src("once").join("islands.rs"),
        &replace_body(&read("islands.rs"), "count_islands", FIRST_CALL_ONLY),
    );

    let trace = tmp.path().join("batches");
    let batched = tmp.path().join("batched");
    let mut cmd = tool::grade(&repo(), &subs, &batched);
    turn.ok(cmd.env("WORKBOOK_GRADER_BATCH_TRACE", &trace));
    let alone = tmp.path().join("alone");
    let mut cmd = tool::grade(&repo(), &subs, &alone);
    turn.ok(cmd.env("WORKBOOK_GRADER_BATCH", "0"));

    let mut passes = 0;
    for id in ["ann", "once"] {
        let (b, a) = (verdicts(&batched, id), verdicts(&alone, id));
        assert!(!b.is_empty(), "{id} has no test");
        assert_eq!(
            b, a,
            "{id}: a judge per chapter graded otherwise than a judge per test"
        );
        passes += b.iter().filter(|t| t.1 == "pass").count();
    }
    let once = verdicts(&batched, "once");
    let islands: Vec<_> = once
        .iter()
        .filter(|t| t.0.contains("count_islands"))
        .collect();
    let right = islands.iter().filter(|t| t.1 == "pass").count();
    // Ten of its tests make one call each; the property test makes many.
    assert!(
        right >= 10 && right < islands.len(),
        "`once` passed {right} of {} count_islands tests: a subject served more than one test, or none failed",
        islands.len()
    );
    assert!(
        once.iter()
            .any(|t| t.0.contains("dfs_recursive") && t.2.contains("overflowed its stack")),
        "the endless recursion was not named: {once:#?}"
    );
    // Every pass came from a judge per chapter: the batches' passes add up.
    let said = std::fs::read_to_string(&trace).expect("the batches' trace");
    let from_batches: usize = said
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        .sum();
    assert_eq!(
        from_batches, passes,
        "passes not taken from a batch:\n{said}"
    );
}
