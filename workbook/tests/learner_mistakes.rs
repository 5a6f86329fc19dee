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
//! edited) and runs `cargo test` there, as the learner would. A wrong
//! answer, run in each translated language, reads as the catalogue's
//! translation with the learner's values exactly as English shows them.
//!
//! A search that never returns would hang the run with every message
//! unprinted; the suites' watchdog names the guarded call that has run
//! past its limit and stops the test binary, and the last test here shows
//! that on a stack that is never popped.
//!
//! The state: a small workbook in a temporary folder, built in a target
//! directory of its own under cargo's per-test scratch space (kept between
//! runs, so after the first only the copy's chapter crates are compiled).
//! Not the repository's: cargo names the copy's `intro` exactly like the
//! repository's and records its sources relative to the crate, so the
//! learner's newer build passed for fresh there, and a later `cargo test
//! -p intro` ran the learner's mistakes instead of the stubs. The cost: a
//! first build of chapter 0's dependencies, then four short runs of the
//! suite and one of a few seconds.

mod common;

use common::{copy, mini_workbook, replace_body, repo};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// `cargo test FILTER` in the copy's chapter 0 folder, as a learner runs
/// it; what the terminal shows (libtest's failures come on standard
/// output, the overflow's lines on standard error).
fn learner_runs(root: &Path, filter: &str) -> String {
    let run = learner_command(root, filter).output().expect("cargo runs");
    let said =
        String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success(),
        "the learner's mistakes must fail: {said}"
    );
    said
}

/// Held by each test for its whole run. Both build their copy's chapter 0
/// into the one target directory, where cargo names the test binary
/// alike whatever folder the copy is in (see the module doc): run
/// together, one test would run the other's learner.
static ONE_COPY_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The lock, also after the other test failed holding it.
fn one_copy_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_COPY_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The learner's `cargo test -q -- FILTER` in the copy's chapter 0 folder,
/// with the learner's environment (no tool's variables).
fn learner_command(root: &Path, filter: &str) -> Command {
    let chapter = root.join("exercises/00_intro");
    // Never the repository's target directory (see the module doc).
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("learner_mistakes");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&chapter)
        .args(["test", "-q", "--", filter])
        .env("CARGO_TARGET_DIR", &target)
        .env("PWD", &chapter)
        .env_remove("WORKBOOK_NO_SUMMARY")
        .env_remove("WORKBOOK_CALL_SECONDS")
        .env_remove("RUST_BACKTRACE")
        // The words these tests read are the English ones.
        .env("WORKBOOK_LANG", "en");
    command
}

/// A copy of chapter 0 in a new temporary folder (dropped with it) whose
/// stubs have the given bodies, `(function, body)`, and the copy's root.
fn learner_copy(bodies: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    mini_workbook(&root, "");
    // Chapter 0's pages, which the suites read the book's titles from.
    for page in ["book/src/SUMMARY.md", "book/src/intro"] {
        copy(&repo().join(page), &root.join(page));
    }
    let lib = root.join("exercises/00_intro/src/lib.rs");
    let stubs = std::fs::read_to_string(&lib).expect("chapter 0's stubs");
    let learner = bodies.iter().fold(stubs, |code, (function, body)| {
        replace_body(&code, function, body)
    });
    std::fs::write(&lib, learner).expect("write the learner's code");
    (tmp, root)
}

#[test]
fn a_crash_in_the_learners_code_names_the_call_the_expected_value_and_the_book() {
    let _alone = one_copy_at_a_time();
    // dfs_recursive's helper recurses on the same vertex forever (not a
    // tail call, which the optimiser would turn into a loop); dfs_stack
    // reads a neighbour that is not there.
    let (_tmp, root) = learner_copy(&[
        (
            "dfs_recursive",
            "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); \
             visit(graph, start, &mut seen, &mut order); order",
        ),
        (
            "visit",
            "if v < graph.len() { visit(graph, v, seen, order); } order.push(v);",
        ),
        ("dfs_stack", "vec![graph[start][7]]"),
        ("subsets_with_sum", "vec![vec![items[99]]; target as usize]"),
    ]);

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

    // A snapshot test calls the learner's code with no check helper
    // around it: a panic there names the test, its exercise and the book
    // section as the book titles it, like every other message (not
    // `info.toml`'s own title and page path).
    let said = learner_runs(
        &root,
        "subsets_with_sum::the_subsets_of_one_to_six_summing_to_ten",
    );
    assert!(
        said.contains(
            "a panic fails the test like a wrong answer (test \
             subsets_with_sum::the_subsets_of_one_to_six_summing_to_ten); the book explains \
             exercise `subsets_with_sum`: chapter 0, \"Backtracking is DFS over choices\""
        ) && !said.contains("book/src/"),
        "an unguarded panic names the exercise's book section:\n{said}"
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

#[test]
fn a_search_that_never_returns_is_named_and_the_run_ends() {
    let _alone = one_copy_at_a_time();
    // A common slip: the vertex on top is looked at but never popped, so
    // once it is seen (or outside the graph) the loop spins on it forever.
    let (tmp, root) = learner_copy(&[(
        "dfs_stack",
        "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); \
         let mut stack = vec![start]; \
         while let Some(&v) = stack.last() { \
             if v < graph.len() && !seen[v] { \
                 seen[v] = true; order.push(v); \
                 for &w in graph[v].iter().rev() { stack.push(w); } \
             } \
         } \
         order",
    )]);

    let mut learner = learner_command(&root, "dfs_stack::visits_in_preorder");
    learner.env("WORKBOOK_CALL_SECONDS", "2");
    // Generous for a first build of chapter 0 and a 2 s limit; past
    // it, a regression fails here instead of hanging the suite.
    let (ended, said) = run_for_at_most(learner, Duration::from_secs(900), tmp.path());
    assert!(
        ended,
        "the watchdog must stop a learner's search that never returns:\n{said}"
    );
    assert!(
        said.contains("dfs_stack([")
            && said.contains(") has run for 2 s without returning; expected [")
            && said.contains(
                ": the order the recursion finds: push neighbours so that the first one is \
                 popped first (book: chapter 0, \"The explicit stack\")"
            )
            && said.contains("a loop that never advances")
            && said.contains("`cargo test dfs_stack::visits_in_preorder::case_"),
        "a call that never returns names the call, the expected value, the book, the usual \
         cause and how to run it alone:\n{said}"
    );
    assert!(
        said.contains("Start with `dfs_stack`"),
        "the last line still names the exercise to start with:\n{said}"
    );
}

#[test]
fn a_wrong_answer_is_explained_in_each_language_with_the_learners_values_untouched() {
    let _alone = one_copy_at_a_time();
    // A stack search that stops after its start vertex.
    let (_tmp, root) = learner_copy(&[(
        "dfs_stack",
        "if start < graph.len() { vec![start] } else { Vec::new() }",
    )]);
    // The translators' catalogues: the loop's, and the book's for titles.
    for code in ["ja", "zh-CN", "ru"] {
        for po in [
            format!("book/po/loop/{code}.po"),
            format!("book/po/{code}.po"),
        ] {
            let to = root.join(&po);
            std::fs::create_dir_all(to.parent().expect("a folder")).expect("book/po/");
            std::fs::copy(common::repo().join(&po), &to).expect("copy a catalogue");
        }
    }
    let why = "the order the recursion finds: push neighbours so that the first one is popped \
               first (book: chapter 0, \"The explicit stack\")";
    let english = "{call} returned {got}, expected {expected}, {why}";
    for code in ["ja", "zh-CN", "ru"] {
        let mut learner = learner_command(&root, "dfs_stack::visits_in_preorder::case_2");
        learner.env("WORKBOOK_LANG", code);
        let run = learner.output().expect("cargo runs");
        let said = String::from_utf8_lossy(&run.stdout).into_owned()
            + &String::from_utf8_lossy(&run.stderr);
        let lang = workbook_core::lang::Lang::load(&root, code);
        assert_ne!(
            lang.tr(english),
            english,
            "{code} translates the check's message"
        );
        let why = lang.titles_in(lang.tr(why));
        let want = workbook_core::lang::substitute(
            &lang.titles_in(lang.tr(english)),
            &[
                ("call", &"dfs_stack([[1, 2], [3], [3], []], 0)"),
                ("got", &"[0]"),
                ("expected", &"[0, 1, 3, 2]"),
                ("why", &why),
            ],
        );
        assert!(
            said.contains(&want),
            "in {code}, the message is the translation with the call and both values as \
             written:\n{want}\nnot found in:\n{said}"
        );
        assert!(
            !said.contains("returned [0], expected") && !said.contains("The explicit stack"),
            "in {code}, neither the English message nor the English title is left:\n{said}"
        );
    }
}

/// Runs `command` (its own process group on unix, so everything it starts
/// can be stopped) for at most `limit`, its output going to files in
/// `scratch`: whether it ended by itself, failing, and what it said. A
/// run still going at the limit is killed, group and all.
fn run_for_at_most(mut command: Command, limit: Duration, scratch: &Path) -> (bool, String) {
    let out: PathBuf = scratch.join("stdout");
    let err: PathBuf = scratch.join("stderr");
    command
        .stdout(std::fs::File::create(&out).expect("a file for stdout"))
        .stderr(std::fs::File::create(&err).expect("a file for stderr"));
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().expect("cargo runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("cargo's status") {
            break Some(status);
        }
        if start.elapsed() > limit {
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    if status.is_none() {
        // cargo's test binary is its child: kill the whole group.
        #[cfg(unix)]
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .status();
        let _ = child.kill();
        let _ = child.wait();
    }
    let said = std::fs::read_to_string(&out).unwrap_or_default()
        + &std::fs::read_to_string(&err).unwrap_or_default();
    match status {
        Some(status) => {
            assert!(!status.success(), "the learner's mistake must fail: {said}");
            (true, said)
        }
        None => (false, said),
    }
}
