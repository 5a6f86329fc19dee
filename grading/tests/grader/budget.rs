//! One build budget per learner, not per chapter, and no class-wide lock.
//!
//! The problem: a learner whose every chapter never finishes compiling (a
//! constant whose evaluation loops for ever, in chapters 0 and 1) must
//! hold one worker for one budget (`build_limit_secs`), not one budget
//! per chapter: the first chapter's build is stopped when the budget runs
//! out, the second is not started and says why. Beside it, a learner who
//! solved both chapters is graded in full by the other worker. State: a
//! workbook of chapters 0 and 1 in a temporary folder, graded into the
//! shared target. Cost: chapter 1's dependencies (once per run of this
//! binary), then one 60 s budget spent beside two learner-chapters built
//! and tested.

use crate::tool;
use std::path::Path;
use workbook_core::testkit::{learner_reference_of, mini_workbook_of, replace_body, write};

/// A constant whose evaluation never ends (it wraps at 2^64 steps).
const FOREVER: &str = "\n#[allow(long_running_const_eval)]\nconst FOREVER: u64 = { let mut i = 0u64; loop { i = i.wrapping_add(1); if i == 0 { break i; } i = i.wrapping_sub(0); if i == u64::MAX { i = 1; } } };\n";

/// Writes the learner `name` whose chapter `folder` is `files` (the
/// learner's reference), each file's text passed through `edit(file, text)`.
fn learner(
    subs: &Path,
    name: &str,
    folder: &str,
    files: &Path,
    edit: &dyn Fn(&str, &str) -> String,
) {
    for e in std::fs::read_dir(files).expect("the reference's files") {
        let e = e.expect("a file of the reference");
        let file = e.file_name().to_string_lossy().into_owned();
        let text = edit(
            &file,
            &std::fs::read_to_string(e.path()).expect("a reference file"),
        );
        let to = subs.join(name).join("exercises").join(folder).join("src");
        write(&to.join(&file), &text);
    }
}

#[test]
fn a_learner_whose_every_build_never_ends_spends_one_budget_and_nobody_elses_time() {
    if !tool::sandbox_or_skip(
        "a_learner_whose_every_build_never_ends_spends_one_budget_and_nobody_elses_time",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    let subs = tmp.path().join("submissions");
    let out = tmp.path().join("report");
    mini_workbook_of(
        &root,
        "build_limit_secs = 60\nbuild_memory_mb = 1024\nbuild_disk_mb = 256\n",
        &[("00_intro", "intro"), ("01_apples", "apples")],
    );
    let intro = learner_reference_of(&root, "intro");
    let apples = learner_reference_of(&root, "apples");
    for (folder, files) in [("00_intro", &intro), ("01_apples", &apples)] {
        learner(&subs, "steady", folder, files, &|_, t| t.to_string());
    }
    // Each chapter's function uses a constant that never finishes evaluating.
    let endless = |file: &str, t: &str| match file {
        "lib.rs" if t.contains("fn dfs_stack(") => format!(
            "{}{FOREVER}",
            replace_body(
                t,
                "dfs_stack",
                "let _ = (graph, start, FOREVER); Vec::new()"
            )
        ),
        "naive.rs" => format!(
            "{}{FOREVER}",
            replace_body(t, "count_naive", "let _ = (people, apples, FOREVER); 0")
        ),
        _ => t.to_string(),
    };
    learner(&subs, "endless", "00_intro", &intro, &endless);
    learner(&subs, "endless", "01_apples", &apples, &endless);

    let turn = tool::turn();
    let target = tool::shared_target();
    let peaks = turn.watched(&mut tool::grade(&root, &subs, &out), &target);
    // The machine's ceiling, fixed by the config: two workers, each one
    // build of at most 1 GiB (or a test's two processes, far less), and
    // each a copy of the workbook and at most 256 MiB of build output.
    assert!(
        peaks.memory_bytes < 2 * (1 << 30) + (256 << 20),
        "the run held {} MiB at once",
        peaks.memory_bytes >> 20
    );
    assert!(
        peaks.work_bytes < (2 * (256 + 64)) << 20,
        "the run's work folders held {} MiB at once",
        peaks.work_bytes >> 20
    );

    let results = |name: &str| {
        std::fs::read_to_string(out.join("learners").join(name).join("results.json"))
            .expect("a results.json per learner")
    };
    let endless = results("endless");
    assert!(
        endless.contains("the build ran past this learner's build budget"),
        "chapter 0's build must be stopped when the budget runs out: {endless}"
    );
    assert!(
        endless.contains("not built: this learner's builds used their whole budget of 60 s"),
        "chapter 1 must not be built once the budget is spent: {endless}"
    );
    let csv = std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
    let row = |name: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap_or_else(|| panic!("no row for {name} in grades.csv:\n{csv}"))
            .to_string()
    };
    assert!(row("endless").ends_with(",0,0.0"), "{}", row("endless"));
    assert!(row("steady").ends_with(",100.0"), "{}", row("steady"));
}
