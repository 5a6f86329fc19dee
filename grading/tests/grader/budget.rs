//! One build budget and one test budget per learner, not per chapter, no
//! class-wide lock, and no grade that depends on the machine's load.
//!
//! The problem: a learner whose chapter 0 never finishes compiling (a
//! constant whose evaluation loops for ever) must hold one worker for one
//! build budget (`build_limit_secs`): its one build (both chapters in one
//! cargo run) is stopped when the budget runs out, chapter 0 says why, and
//! chapter 1, whose subject was built before, is graded. A learner whose every
//! function parks for ever (no CPU, so no CPU limit stops it) must hold a
//! worker for one test budget (`test_budget_secs`), each of its tests
//! stopped as `idle` after `idle_limit_secs`, the rest `over budget`, and
//! the batch's time is bounded by the budgets. Beside them, a learner who
//! solved both chapters is graded in full while two threads of this test
//! keep both cores busy: builds spend only the build budget and tests
//! only the test budget, so load changes no grade. And under the
//! conditions that once cost a learner a chapter (issue 32: the budget's
//! clock ran through earlier chapters' tests), twins whose chapter 0 has a
//! test that runs past the whole build budget are graded once on a quiet
//! machine and once on a busy one: each keeps chapter 1 and full marks,
//! the same grade. State: a workbook of
//! chapters 0 and 1 in a temporary folder, prepared (`grade prepare`),
//! then graded into the shared target. Cost: chapter 1's dependencies
//! (once per run of this binary), then one 60 s build budget spent beside
//! one 60 s test budget and two learner-chapters built and tested; the
//! twins, two runs of two learner-chapters each with a 65 s test (about
//! two minutes each).

use crate::tool;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use workbook_core::info::load_chapters;
use workbook_core::testkit::{learner_reference_of, mini_workbook_of, replace_body, write};

/// The class's budgets: small, so the batch stays short, and the test
/// budget roomy enough for a right learner's tests on a busy machine.
const CONFIG: &str = "build_limit_secs = 60\ntest_budget_secs = 60\nidle_limit_secs = 2\n\
build_memory_mb = 1024\nbuild_disk_mb = 256\n";

/// Threads spinning on every core until dropped: a busy machine.
struct Hog {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Hog {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..cores)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                })
            })
            .collect();
        Self { stop, threads }
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

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
fn learners_who_never_build_or_only_sleep_spend_one_budget_each_and_a_busy_machine_changes_no_grade()
 {
    let name = "learners_who_never_build_or_only_sleep_spend_one_budget_each_and_a_busy_machine_changes_no_grade";
    if !tool::sandbox_or_skip(name) {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    let subs = tmp.path().join("submissions");
    let out = tmp.path().join("report");
    let chapters = [("00_intro", "intro"), ("01_apples", "apples")];
    mini_workbook_of(&root, CONFIG, &chapters);
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
    // Chapter 1 is right: its subject finishes while chapter 0's build
    // still evaluates, and is graded though the build is stopped.
    learner(&subs, "endless", "00_intro", &intro, &endless);
    learner(&subs, "endless", "01_apples", &apples, &|_, t| {
        t.to_string()
    });
    // Every stubbed function of both chapters parks its thread for ever.
    let stubs: Vec<String> = load_chapters(&root)
        .expect("the mini workbook's chapters")
        .iter()
        .flat_map(|c| {
            c.all_stubs()
                .into_keys()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    let asleep = |_: &str, t: &str| {
        stubs.iter().fold(t.to_string(), |t, stub| {
            if t.contains(&format!("fn {stub}(")) {
                replace_body(&t, stub, "loop { std::thread::park(); }")
            } else {
                t
            }
        })
    };
    learner(&subs, "sleeper", "00_intro", &intro, &asleep);
    learner(&subs, "sleeper", "01_apples", &apples, &asleep);

    let turn = tool::turn();
    let target = tool::shared_target();
    // The judges built first, so the batch's time is the learners' alone.
    turn.ok(tool::grader(&root)
        .args(["grade", "prepare", "--target-dir"])
        .arg(&target));
    let started = Instant::now();
    let peaks = {
        let _busy = Hog::start();
        turn.watched(&mut tool::grade(&root, &subs, &out), &target)
    };
    let batch = started.elapsed();
    // Two workers; each learner holds one for at most its two budgets (60 s
    // of builds, 60 s of tests) and a little for its copy and intake.
    assert!(
        batch < Duration::from_secs(300),
        "three learners on two workers took {batch:?}: a budget did not bound one"
    );
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
    // Both chapters are one build (one cargo run per learner), stopped
    // once when the budget runs out: chapter 0 says why, and chapter 1,
    // whose subject cargo had finished, is graded in full.
    let endless: serde_json::Value =
        serde_json::from_str(&results("endless")).expect("the endless learner's results.json");
    let said = endless["message"].as_str().unwrap_or_default();
    assert!(
        said.contains("intro: compile error\nthe build ran past this learner's build budget"),
        "chapter 0's build must be stopped when the budget runs out: {said}"
    );
    let apples = &endless["chapters"]["apples"];
    assert!(
        apples["status"] == "graded" && apples["points"] == apples["max"],
        "chapter 1 built before the budget ran out: it must be graded in full: {apples}"
    );
    let sleeper: serde_json::Value =
        serde_json::from_str(&results("sleeper")).expect("the sleeper's results.json");
    let run_secs = sleeper["run_secs"].as_f64().expect("run_secs");
    assert!(
        run_secs < 60.0 + 5.0,
        "the sleeper's tests ran {run_secs} s, past their budget of 60 s"
    );
    let tests = sleeper["tests"].as_array().expect("the sleeper's tests");
    let verdicts = |v: &str| tests.iter().filter(|t| t["verdict"] == v).count();
    assert!(
        verdicts("idle") > 0 && verdicts("over budget") > 0,
        "the sleeper's tests must be stopped as idle until the budget is spent: {tests:?}"
    );
    assert_eq!(
        verdicts("idle") + verdicts("over budget"),
        tests.len(),
        "every test of the sleeper is idle or over budget: {tests:?}"
    );
    for t in tests.iter().filter(|t| t["verdict"] == "idle") {
        let secs = t["duration_secs"].as_f64().unwrap_or(f64::MAX);
        assert!(
            secs < 2.0 + 4.0,
            "an idle test must be stopped about 2 s after it went quiet: {t}"
        );
    }
    let csv = std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
    let row = |name: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap_or_else(|| panic!("no row for {name} in grades.csv:\n{csv}"))
            .to_string()
    };
    assert!(row("sleeper").ends_with(",0,0.0"), "{}", row("sleeper"));
    // Graded while every core was busy, the right learner loses nothing.
    assert!(row("steady").ends_with(",100.0"), "{}", row("steady"));
}

/// The twins' config: a build budget that both chapters' builds fit in
/// with room to spare, but that chapter 0's tests alone outlast.
const TWIN_CONFIG: &str = "build_limit_secs = 60\ntest_budget_secs = 300\ntime_limit_secs = 100\n\
cpu_limit_secs = 80\nidle_limit_secs = 5\nbuild_memory_mb = 1024\nbuild_disk_mb = 256\n";

/// How long (wall clock) the twins' slow chapter-0 test spins: past the
/// whole build budget, so a budget whose clock ran through the tests
/// would leave chapter 1 nothing.
const SLOW_SECS: u64 = 65;

#[test]
fn twins_whose_first_chapter_outlasts_the_build_budget_get_the_same_full_grade_quiet_or_busy() {
    let name =
        "twins_whose_first_chapter_outlasts_the_build_budget_get_the_same_full_grade_quiet_or_busy";
    if !tool::sandbox_or_skip(name) {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    let chapters = [("00_intro", "intro"), ("01_apples", "apples")];
    mini_workbook_of(&root, TWIN_CONFIG, &chapters);
    let intro = learner_reference_of(&root, "intro");
    let apples = learner_reference_of(&root, "apples");
    // Right answers; the snapshot's call spins SLOW_SECS first. Each twin
    // carries a mark of its own, so neither reuses the other's subject.
    let twin = |subs: &Path, mark: &str| {
        let slow = |file: &str, t: &str| {
            if file == "lib.rs" && t.contains("fn subsets_with_sum(") {
                let body = format!(
                    "let _ = {mark:?}; if items == [1, 2, 3, 4, 5, 6] && target == 10 {{ \
                     let t = std::time::Instant::now(); let mut x = 0u64; \
                     while t.elapsed().as_secs() < {SLOW_SECS} {{ x = std::hint::black_box(x.wrapping_add(1)); }} }} \
                     let mut found = Vec::new(); let mut chosen = Vec::new(); \
                     choose(items, target, &mut chosen, &mut found); found"
                );
                replace_body(t, "subsets_with_sum", &body)
            } else {
                t.to_string()
            }
        };
        learner(subs, "twin", "00_intro", &intro, &slow);
        learner(subs, "twin", "01_apples", &apples, &|_, t| t.to_string());
    };
    let turn = tool::turn();
    let target = tool::shared_target();
    turn.ok(tool::grader(&root)
        .args(["grade", "prepare", "--target-dir"])
        .arg(&target));
    let mut rows = Vec::new();
    let nonce = format!("{:?}", std::time::SystemTime::now());
    for (id, busy) in [("quiet", false), ("busy", true)] {
        let subs = tmp.path().join(format!("submissions-{id}"));
        let out = tmp.path().join(format!("report-{id}"));
        twin(&subs, &format!("{id} {nonce}"));
        let _hog = busy.then(Hog::start);
        turn.ok(&mut tool::grade(&root, &subs, &out));
        let csv = std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
        let row = csv
            .lines()
            .find(|l| l.starts_with("twin,"))
            .unwrap_or_else(|| panic!("{id}: no twin in grades.csv:\n{csv}"))
            .to_string();
        let results =
            std::fs::read_to_string(out.join("learners/twin/results.json")).expect("results.json");
        assert!(
            !results.contains("build budget"),
            "{id}: a build ran into the budget that chapter 0's tests should not have spent: {results}"
        );
        rows.push(row);
    }
    assert_eq!(rows[0], rows[1], "the busy twin was graded otherwise");
    assert!(
        rows[0].ends_with(",100.0"),
        "the twins lost points: {}",
        rows[0]
    );
}
