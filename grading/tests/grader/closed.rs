//! In container mode a subject cannot read what the judges hold.
//!
//! The problem: without bubblewrap a test's processes see the whole file
//! system, and the subject's seccomp filter was all that kept a learner's
//! code from the judges' files (the prepared class's suites and judges,
//! the judges' build with the reference linked into the hidden suites, the
//! kept pristine copy) and the hidden seed; where seccomp is unavailable
//! nothing did. State: a workbook of chapter 0 whose config allows
//! `std::fs`, one learner whose `dfs_recursive` tries to read each of those
//! before answering, graded by a root grader in container mode (forced)
//! with the subject's filter off (`WORKBOOK_SUBJECT_NO_SECCOMP`, a machine
//! without seccomp): it answers rightly only if its control read (its own
//! `/proc/self/status`) worked, ran under a uid that is not root, and every
//! read of the judges' files was refused; so it keeps full marks only if
//! the files' owners and modes alone stood in the way. Cost: one learner
//! graded, one chapter built.

use crate::class::code::{CORRECT_DFS, with};
use crate::tool;
use std::path::Path;
use workbook_core::testkit::{learner_reference, mini_workbook, write};

/// The class's config: `std::fs` allowed, so only the files' modes stand.
const CONFIG: &str = "time_limit_secs = 30\ncpu_limit_secs = 5\nbuild_limit_secs = 120\n\
build_memory_mb = 1024\nbuild_disk_mb = 128\nallow = [\"std::fs\"]\n";

/// The learner's `dfs_recursive`: answers rightly only if the filter was
/// off (its control read worked), it is not root, and nothing of `paths`
/// could be read or listed.
fn reader(solution: &str, paths: &[String]) -> String {
    let list = paths
        .iter()
        .map(|p| format!("{p:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let probe = format!(
        "let status = std::fs::read_to_string(\"/proc/self/status\").unwrap_or_default(); \
         let unfiltered = status.contains(\"Uid:\"); \
         let rooted = status.lines().any(|l| l.starts_with(\"Uid:\") && l.split_whitespace().nth(1) == Some(\"0\")); \
         let mut leaked = false; \
         for p in [{list}] {{ leaked |= std::fs::read(p).is_ok() || std::fs::read_dir(p).is_ok(); }} \
         if leaked || rooted || !unfiltered {{ return Vec::new(); }}"
    );
    with(solution, "dfs_recursive", &format!("{probe} {CORRECT_DFS}"))
}

/// Every file and folder under `dir` (links not followed), a few per
/// folder: what the learner tries to read.
fn some_under(dir: &Path, out: &mut Vec<String>, budget: &mut usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten().take(4) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        out.push(e.path().display().to_string());
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            some_under(&e.path(), out, budget);
        }
    }
}

#[test]
fn in_container_mode_a_subject_without_seccomp_cannot_read_the_judges_files_or_the_seed() {
    if sandbox_root_or_skip() {
        return;
    }
    let turn = tool::turn();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    // Reachable by the tests' uids, as a platform's folders are.
    tool::open_to_all(tmp.path());
    let (root, subs, out) = (
        tmp.path().join("workbook"),
        tmp.path().join("submissions"),
        tmp.path().join("report"),
    );
    mini_workbook(&root, CONFIG);
    let target = tool::shared_target();
    // What the judges hold, as this target has it now (prepared by the
    // turn): the trees, then files and folders inside them.
    let mut paths = vec![tool::hidden_seed().display().to_string()];
    let mut budget = 40;
    for tree in ["prepared", "debug", "pristine"] {
        paths.push(target.join(tree).display().to_string());
        some_under(&target.join(tree), &mut paths, &mut budget);
        budget += 10;
    }
    assert!(
        paths.iter().any(|p| p.contains("/prepared/")),
        "the turn prepared nothing under {}",
        target.display()
    );
    let solution = learner_reference(&root);
    write(
        &subs.join("reader/exercises/00_intro/src/lib.rs"),
        &reader(&solution, &paths),
    );
    write(
        &subs.join("reference/exercises/00_intro/src/lib.rs"),
        &solution,
    );
    let mut cmd = tool::grade(&root, &subs, &out);
    cmd.args(["--sandbox", "container", "--force-container"])
        .env("WORKBOOK_SUBJECT_NO_SECCOMP", "1");
    turn.ok(&mut cmd);
    let csv = std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
    let total = |id: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{id},")))
            .and_then(|l| l.rsplit(',').nth(1))
            .map(str::to_string)
    };
    assert!(total("reference").is_some(), "no reference row:\n{csv}");
    assert_eq!(
        total("reader"),
        total("reference"),
        "the reader read something the judges hold, or its probe did not run unfiltered \
         under a uid of its own (it tried {paths:#?}):\n{csv}"
    );
}

/// True (and says why) when this test cannot run: the grader must be root
/// to run tests under uids of their own.
fn sandbox_root_or_skip() -> bool {
    if grader::sandbox::effective_uid() == Some(0) {
        return false;
    }
    eprintln!(
        "in_container_mode_a_subject_without_seccomp_cannot_read_the_judges_files_or_the_seed: \
         not run: only a root grader runs tests under uids of their own"
    );
    true
}
