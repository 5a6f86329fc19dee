//! The grading platforms, proved through their real entry scripts.
//!
//! The problem: Gradescope, PrairieLearn and GitHub Classroom each run one
//! submission per container and read one results file in their own
//! format; a missing or malformed file is a broken assignment. This test
//! lays out each platform's folders in a temporary root (the entry scripts
//! take it from an environment variable), grades a right, a wrong, a
//! non-compiling and a hostile submission of chapter 0 through
//! `grading/platforms/*/`'s scripts in container mode (forced: a CI
//! runner is not a container), and reads every results file back into
//! typed structs of the platform's documented schema that reject unknown
//! and missing fields. A grading that cannot start (an unknown chapter)
//! must still leave a valid file. State: one mini workbook; the target
//! directory each script names (`$AUTOGRADER_ROOT/target`,
//! `$WORKBOOK_DIR/target/grade`) is a link to the shared target, so
//! every run reuses the dependencies. Cost: fourteen runs of
//! `grade-one`, each a pristine build, one learner build and chapter 0's
//! tests (but the two for an unknown chapter, which stop at once).

use crate::tool;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use workbook_core::testkit::{learner_reference, mini_workbook, replace_body, repo, write};

/// Gradescope's `results.json` (gradescope-autograders.readthedocs.io,
/// "Autograder Specifications"): the fields it documents.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct GsResults {
    score: f64,
    execution_time: Option<u64>,
    output: String,
    output_format: Option<String>,
    test_output_format: Option<String>,
    test_name_format: Option<String>,
    visibility: Option<GsVisibility>,
    stdout_visibility: Option<GsVisibility>,
    extra_data: Option<serde_json::Value>,
    tests: Vec<GsTest>,
    leaderboard: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct GsTest {
    name: String,
    score: f64,
    max_score: f64,
    status: GsStatus,
    output: String,
    output_format: Option<String>,
    name_format: Option<String>,
    number: Option<String>,
    tags: Option<Vec<String>>,
    visibility: GsVisibility,
    extra_data: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum GsVisibility {
    Hidden,
    AfterDueDate,
    AfterPublished,
    Visible,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum GsStatus {
    Passed,
    Failed,
}

/// PrairieLearn's external grader results (prairielearn.readthedocs.io,
/// "Externally graded questions", grading results).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct PlResults {
    gradable: bool,
    score: f64,
    message: String,
    format_errors: Vec<String>,
    output: Option<String>,
    images: Option<Vec<serde_json::Value>>,
    tests: Vec<PlTest>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct PlTest {
    name: String,
    description: Option<String>,
    points: f64,
    max_points: f64,
    message: String,
    output: String,
    images: Option<Vec<serde_json::Value>>,
}

/// A runner result as GitHub Classroom's autograding reporter reads it
/// (classroom-resources/autograding-grading-reporter, `src/main.js`,
/// `src/notify-classroom.js`), shaped as its own command grader writes
/// one (classroom-resources/autograding-command-grader, `src/main.js`:
/// `version`, `status`, `max_score`, tests of `name`, `status`, `score`,
/// `message`, `test_code`, `filename`, `line_no`, `duration`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct CrResults {
    version: u32,
    status: CrStatus,
    max_score: f64,
    tests: Vec<CrTest>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct CrTest {
    name: String,
    status: CrStatus,
    score: f64,
    message: String,
    test_code: String,
    filename: String,
    line_no: u32,
    duration: u64,
}

impl CrResults {
    /// What Classroom records (`NotifyClassroom`): the tests' scores.
    fn recorded(&self) -> f64 {
        self.tests.iter().map(|t| t.score).sum()
    }

    /// What the reporter prints as the runner's points (`getTestScore`):
    /// `max_score` times the share of tests whose status is `pass`.
    fn printed(&self) -> f64 {
        let passed = self
            .tests
            .iter()
            .filter(|t| t.status == CrStatus::Pass)
            .count();
        passed as f64 / self.tests.len() as f64 * self.max_score
    }
}

#[derive(Debug, Deserialize, PartialEq, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum CrStatus {
    Pass,
    Fail,
    Error,
}

/// The four submissions of chapter 0's `lib.rs`, by name.
fn submissions(reference: &str) -> Vec<(&'static str, String)> {
    vec![
        ("right", reference.to_string()),
        (
            "wrong",
            replace_body(reference, "dfs_stack", "let _ = (graph, start); vec![0]"),
        ),
        (
            "broken",
            format!("{reference}\nfn helper() -> u32 {{ \"not a number\" }}\n"),
        ),
        // Prints a forged results file and a libtest "ok", then recurses
        // until its stack overflows: only dfs_recursive's tests may fail.
        (
            "hostile",
            replace_body(
                reference,
                "dfs_recursive",
                "println!(\"{{\\\"score\\\": 1000, \\\"tests\\\": []}}\\ntest result: ok. 99 passed\"); \
                 dfs_recursive(graph, start)",
            ),
        ),
    ]
}

struct Fixture<'t> {
    /// Chapter 0's files beside `lib.rs`, handed in with every submission.
    others: Vec<(String, String)>,
    dir: PathBuf,
    workbook: PathBuf,
    turn: &'t tool::Turn,
}

impl Fixture<'_> {
    /// Runs `script` with `env`, as a platform would; it must exit 0.
    fn run(&self, script: &str, env: &[(&str, &Path)], chapters: &str) {
        let mut cmd = tool::script(
            &self.workbook,
            &repo().join("grading/platforms").join(script),
        );
        cmd.envs(env.iter().map(|(k, v)| (*k, v.as_os_str())))
            .env("WORKBOOK_CHAPTERS", chapters)
            .env(
                "WORKBOOK_SANDBOX_FLAGS",
                "--sandbox container --force-container",
            );
        let out = self.turn.run(&mut cmd);
        assert!(
            out.status.success(),
            "{script} exited with {}:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Makes `at` a link to the shared target: where a script's
/// `--target-dir` points, the grader builds in the shared target.
fn shared_at(at: &Path) {
    std::fs::create_dir_all(at.parent().expect("a parent")).expect("a folder for the link");
    std::os::unix::fs::symlink(tool::shared_target(), at).expect("a link to the shared target");
}

/// The folders under `dir` (links not followed) where cargo wrote a
/// build: a `debug/` folder of its own.
fn builds_under(dir: &Path, found: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            if e.file_name() == "debug" {
                found.push(e.path());
            }
            builds_under(&e.path(), found);
        }
    }
}

fn read<T: for<'de> Deserialize<'de>>(path: &Path) -> T {
    let text = std::fs::read_to_string(path).expect("a results file");
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} does not follow the schema: {e}\n{text}", path.display()))
}

#[test]
fn every_platform_gets_a_valid_results_file_for_every_kind_of_submission() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path().to_path_buf();
    // The tests' uids (when root) must reach the workbook and its builds.
    tool::open_to_all(&dir);
    let workbook = dir.join("workbook");
    mini_workbook(&workbook, "cpu_limit_secs = 1\ntime_limit_secs = 10\n");
    // PrairieLearn's and Classroom's scripts build in the workbook's target.
    shared_at(&workbook.join("target").join("grade"));
    let turn = tool::turn();
    let fx = Fixture {
        others: tool::intro_others(&workbook),
        workbook: workbook.clone(),
        dir,
        turn: &turn,
    };
    let reference = learner_reference(&workbook);
    let max = gradescope(&fx, &reference);
    prairielearn(&fx, &reference, max);
    classroom(&fx, &reference, max);
    // Every script built where it says it builds (the links above), none
    // in a folder of the platform's layout of its own.
    let mut builds = Vec::new();
    builds_under(&fx.dir, &mut builds);
    assert_eq!(
        builds,
        Vec::<PathBuf>::new(),
        "a script built outside the target directory it names"
    );
}

/// Gradescope: `lib.rs` and `islands.rs` uploaded, in `/autograder/submission`.
/// Returns chapter 0's points.
fn gradescope(fx: &Fixture, reference: &str) -> f64 {
    let mut max = 0.0;
    for (name, lib) in submissions(reference) {
        let root = fx.dir.join("gradescope").join(name);
        write(&root.join("submission/lib.rs"), &lib);
        tool::write_others(&root.join("submission"), &fx.others);
        std::fs::create_dir_all(root.join("source")).expect("the autograder's source folder");
        // Gradescope's script builds in `$AUTOGRADER_ROOT/target`.
        shared_at(&root.join("target"));
        fx.run(
            "gradescope/run_autograder",
            &[("AUTOGRADER_ROOT", &root)],
            "intro",
        );
        let r: GsResults = read(&root.join("results/results.json"));
        let total: f64 = r.tests.iter().map(|t| t.max_score).sum();
        let earned: f64 = r.tests.iter().map(|t| t.score).sum();
        assert_eq!(r.score, earned, "{name}: the score is the tests' sum");
        for t in &r.tests {
            let hidden = t.name.contains("/hidden::");
            let want = if hidden {
                GsVisibility::AfterPublished
            } else {
                GsVisibility::Visible
            };
            assert_eq!(t.visibility, want, "{name}: {}", t.name);
        }
        match name {
            "right" => {
                assert!(total > 20.0, "chapter 0 has its tests: {total}");
                // Behind a folder closed to other users, the first line says so.
                assert_eq!(r.score, total, "right: every point\n{}", r.output);
                assert!(r.tests.iter().all(|t| t.status == GsStatus::Passed));
                max = total;
            }
            "wrong" => assert!(r.score > 0.0 && r.score < total, "wrong: {}", r.score),
            "broken" => {
                assert_eq!(r.score, 0.0);
                assert!(r.output.contains("compile error"), "{}", r.output);
                assert!(r.output.contains("mismatched types"), "{}", r.output);
            }
            _ => {
                assert!(r.score > 0.0 && r.score < total, "hostile: {}", r.score);
                assert!(
                    r.tests
                        .iter()
                        .filter(|t| t.status == GsStatus::Failed)
                        .all(|t| t.name.contains("dfs_recursive")),
                    "only the spinning function's tests fail"
                );
            }
        }
    }
    // A grading that cannot start still leaves a valid file.
    let root = fx.dir.join("gradescope").join("unknown");
    write(&root.join("submission/lib.rs"), reference);
    shared_at(&root.join("target"));
    fx.run(
        "gradescope/run_autograder",
        &[("AUTOGRADER_ROOT", &root)],
        "no_such_chapter",
    );
    let r: GsResults = read(&root.join("results/results.json"));
    assert_eq!(r.score, 0.0);
    assert!(
        r.output.contains("no chapter `no_such_chapter`"),
        "{}",
        r.output
    );
    max
}

/// PrairieLearn: `lib.rs` and `islands.rs` uploaded with `pl-file-upload`, in
/// `/grade/student`; the question's `tests/chapters` names the chapter.
fn prairielearn(fx: &Fixture, reference: &str, max: f64) {
    for (name, lib) in submissions(reference) {
        let root = fx.dir.join("prairielearn").join(name);
        write(&root.join("student/lib.rs"), &lib);
        tool::write_others(&root.join("student"), &fx.others);
        write(&root.join("tests/chapters"), "intro\n");
        fx.run(
            "prairielearn/grade",
            &[("PRAIRIELEARN_GRADE_ROOT", &root)],
            "",
        );
        let path = root.join("results/results.json");
        assert!(std::fs::metadata(&path).expect("a results file").len() <= 1_000_000);
        let r: PlResults = read(&path);
        assert!((0.0..=1.0).contains(&r.score), "{name}: {}", r.score);
        let total: f64 = r.tests.iter().map(|t| t.max_points).sum();
        assert_eq!(total, max, "{name}: the same points as on Gradescope");
        for t in r.tests.iter().filter(|t| t.name.contains("/hidden::")) {
            assert!(t.message.starts_with("a hidden test"), "{}", t.message);
        }
        match name {
            "right" => assert!(r.gradable && r.score == 1.0),
            "wrong" | "hostile" => assert!(r.gradable && r.score > 0.0 && r.score < 1.0),
            _ => {
                assert!(
                    !r.gradable,
                    "a submission that does not compile is not gradable"
                );
                assert!(r.format_errors.iter().any(|e| e.contains("compile error")));
            }
        }
    }
    let root = fx.dir.join("prairielearn").join("unknown");
    write(&root.join("student/lib.rs"), reference);
    fx.run(
        "prairielearn/grade",
        &[("PRAIRIELEARN_GRADE_ROOT", &root)],
        "no_such_chapter",
    );
    let r: PlResults = read(&root.join("results/results.json"));
    assert!(!r.gradable && r.score == 0.0 && r.tests.is_empty());
}

/// GitHub Classroom: the learner's whole repository, checked out under
/// `submission/`; the result is also the step output `result` (base64).
/// The public suites only unless `WORKBOOK_CLASSROOM_HIDDEN=yes` (tried on
/// the right submission): learners can read what the workflow reads.
fn classroom(fx: &Fixture, reference: &str, max: f64) {
    for (name, lib) in submissions(reference) {
        let root = fx.dir.join("classroom").join(name);
        write(&root.join("submission/exercises/00_intro/src/lib.rs"), &lib);
        tool::write_others(&root.join("submission/exercises/00_intro/src"), &fx.others);
        let output = root.join("github_output");
        let summary = root.join("step_summary");
        let hidden = name == "right";
        let mut env: Vec<(&str, &Path)> = vec![
            ("GITHUB_WORKSPACE", &root),
            ("GITHUB_OUTPUT", &output),
            ("GITHUB_STEP_SUMMARY", &summary),
        ];
        if hidden {
            env.push(("WORKBOOK_CLASSROOM_HIDDEN", Path::new("yes")));
        }
        fx.run("classroom/grade", &env, "intro");
        let r: CrResults = read(&root.join("workbook-results.json"));
        let line = std::fs::read_to_string(&output).expect("the step output");
        let encoded = line.trim().strip_prefix("result=").expect("result=BASE64");
        let decoded = Command::new("base64")
            .arg("-d")
            .stdin(std::fs::File::open(write_tmp(&root, encoded)).expect("the encoded result"))
            .output()
            .expect("base64 runs");
        let again: serde_json::Value =
            serde_json::from_slice(&decoded.stdout).expect("the step output is JSON");
        let file: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("workbook-results.json")).expect("the results file"),
        )
        .expect("the results file is JSON");
        assert_eq!(again, file, "{name}: the step output is the file");
        assert_eq!(r.version, 1);
        let hidden_tests = r
            .tests
            .iter()
            .filter(|t| t.name.contains("/hidden::"))
            .count();
        if hidden {
            assert_eq!(r.max_score, max, "{name}: the hidden suites were asked for");
            assert!(hidden_tests > 0);
        } else {
            assert_eq!(hidden_tests, 0, "{name}: no hidden suite by default");
        }
        for t in r.tests.iter().filter(|t| t.name.contains("/hidden::")) {
            assert!(t.message.starts_with("a hidden test"), "{}", t.message);
            assert!(t.test_code.is_empty());
        }
        let said = std::fs::read_to_string(&summary).expect("the job summary");
        assert!(said.contains("points."), "{name}: the job summary: {said}");
        let score = r.recorded();
        match name {
            "right" => {
                assert!(r.status == CrStatus::Pass && score == r.max_score);
                // Every test one point (the fixture's weights): what the
                // reporter prints is what Classroom records.
                assert_eq!(r.printed(), score, "{name}");
            }
            "wrong" | "hostile" => {
                assert!(r.status == CrStatus::Fail && score > 0.0 && score < r.max_score);
                assert_eq!(r.printed(), score, "{name}");
            }
            _ => {
                assert_eq!(r.status, CrStatus::Error);
                assert_eq!(score, 0.0);
                assert!(said.contains("compile error"), "{said}");
                assert!(
                    r.tests
                        .iter()
                        .all(|t| t.message.contains("did not compile")),
                    "{:?}",
                    r.tests
                );
            }
        }
    }
}

fn write_tmp(root: &Path, text: &str) -> PathBuf {
    let path = root.join("encoded");
    write(&path, text);
    path
}

/// What the issue found in a real image: rustup's `rustfmt` proxy with no
/// toolchain behind it (the entry point started without `RUSTUP_HOME`).
/// Both entry points must write an error result whose first line names
/// the tool, before any build: not a grade of 0 of 0.
#[test]
fn a_container_lacking_rustfmt_gets_a_result_naming_it_on_its_first_line() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path();
    tool::open_to_all(dir);
    let workbook = dir.join("workbook");
    mini_workbook(&workbook, "");
    let bin = dir.join("bin");
    write(
        &bin.join("rustfmt"),
        "#!/bin/sh\necho \"error: rustup could not choose a version of rustfmt to run, because one \
         wasn't specified explicitly, and no default is configured.\" >&2\nexit 1\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("rustfmt"), std::fs::Permissions::from_mode(0o755))
        .expect("the fake rustfmt made runnable");
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("a PATH");
    let first = "Not graded: the grading container lacks rustfmt.";
    for (script, root_var) in [
        ("gradescope/run_autograder", "AUTOGRADER_ROOT"),
        ("prairielearn/grade", "PRAIRIELEARN_GRADE_ROOT"),
    ] {
        let root = dir.join(root_var);
        write(&root.join("submission/lib.rs"), "pub fn f() {}\n");
        write(&root.join("student/lib.rs"), "pub fn f() {}\n");
        let out = tool::script(&workbook, &repo().join("grading/platforms").join(script))
            .env(root_var, &root)
            .env("PATH", &path)
            .env("WORKBOOK_CHAPTERS", "intro")
            .env(
                "WORKBOOK_SANDBOX_FLAGS",
                "--sandbox container --force-container",
            )
            .output()
            .expect("the entry point runs");
        assert!(out.status.success(), "{script}: {}", out.status);
        let results = root.join("results/results.json");
        let (said, errors) = if script.starts_with("gradescope") {
            let r: GsResults = read(&results);
            assert!(
                r.score == 0.0 && r.tests.is_empty(),
                "{script}: graded anyway"
            );
            (r.output, Vec::new())
        } else {
            let r: PlResults = read(&results);
            assert!(!r.gradable && r.tests.is_empty(), "{script}: graded anyway");
            (r.message, r.format_errors)
        };
        assert_eq!(said.lines().next(), Some(first), "{script}: {said}");
        assert!(
            said.contains("no default is configured"),
            "{script}: {said}"
        );
        assert!(
            errors.iter().all(|e| e.starts_with(first)),
            "{script}: {errors:?}"
        );
    }
}
