//! Grading in shards gives the gradebook of one run.
//!
//! A small class of chapter 0 (right, partly right, not started, an archive)
//! is graded once as a whole and once as three shards, each a separate
//! `grader grade --shard I/3` process, whose parts `grader grade merge`
//! joins. `grades.csv` must be byte for byte the same, and so must every
//! learner's `results.json` once its timings are taken out. Parts graded with
//! a different config, or a set with a shard missing, must be refused.
//! Cost: the chapter-0 dependencies once (shared with nothing else), then
//! eight learner builds of a few seconds.

mod common;

use common::{learner_reference, mini_workbook, write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CONFIG: &str = "cpu_limit_secs = 5\nmemory_limit_mb = 512\n";

fn workbook(root: &Path, args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grader"))
        .current_dir(root)
        .args(args)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("the workbook binary runs")
}

#[track_caller]
fn ok(run: Output) {
    assert!(
        run.status.success(),
        "workbook failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

fn class(subs: &Path, solution: &str) {
    let lib = "exercises/00_intro/src/lib.rs";
    write(&subs.join("ada").join(lib), solution);
    write(
        &subs.join("grace").join(lib),
        &solution.replace(
            "stack.extend(graph[v].iter().rev());",
            "stack.extend(graph[v].iter());",
        ),
    );
    let stubs =
        std::fs::read_to_string(common::repo().join("exercises/00_intro/src/lib.rs")).unwrap();
    write(&subs.join("alan").join(lib), &stubs);
    write(&subs.join("edsger").join(lib), solution);
    write(
        &subs.join("barbara").join(lib),
        &solution.replace("if first <= left {", "if first < left {"),
    );
}

/// `results.json` without the fields that time the run.
fn untimed(path: &Path) -> serde_json::Value {
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    json["build_secs"] = serde_json::Value::Null;
    json["run_secs"] = serde_json::Value::Null;
    if let Some(tests) = json["tests"].as_array_mut() {
        for t in tests {
            t["duration_secs"] = serde_json::Value::Null;
        }
    }
    json
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

#[test]
fn three_shards_merge_into_the_gradebook_of_one_run() {
    if !common::sandbox_or_skip("three_shards_merge_into_the_gradebook_of_one_run") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workbook");
    mini_workbook(&root, CONFIG);
    let subs = tmp.path().join("submissions");
    class(&subs, &learner_reference(&root));
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-shards");
    let whole = tmp.path().join("whole");
    let t = target.as_os_str();
    ok(workbook(
        &root,
        &[
            os("grade"),
            subs.as_os_str(),
            os("--out"),
            whole.as_os_str(),
            os("--target-dir"),
            t,
            os("--jobs"),
            os("2"),
        ],
    ));
    let parts: Vec<PathBuf> = (1..=3)
        .map(|i| tmp.path().join(format!("part-{i}")))
        .collect();
    for (i, part) in parts.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        ok(workbook(
            &root,
            &[
                os("grade"),
                subs.as_os_str(),
                os("--out"),
                part.as_os_str(),
                os("--shard"),
                os(&shard),
                os("--target-dir"),
                t,
            ],
        ));
    }
    let merged = tmp.path().join("merged");
    let mut args = vec![os("grade"), os("merge")];
    args.extend(parts.iter().map(|p| p.as_os_str()));
    args.extend([os("--out"), merged.as_os_str()]);
    ok(workbook(&root, &args));

    let csv = |dir: &Path| std::fs::read_to_string(dir.join("grades.csv")).unwrap();
    assert_eq!(csv(&merged), csv(&whole), "the merged gradebook differs");
    assert_eq!(csv(&whole).lines().count(), 2 + 5, "a row per learner");
    for learner in ["ada", "grace", "alan", "edsger", "barbara"] {
        let file = |dir: &Path| dir.join("learners").join(learner).join("results.json");
        let (got, want) = (untimed(&file(&merged)), untimed(&file(&whole)));
        let tests = |j: &serde_json::Value| j["tests"].as_array().cloned().unwrap_or_default();
        for (g, w) in tests(&got).iter().zip(tests(&want).iter()) {
            assert_eq!(g, w, "{learner}: a merged test result differs");
        }
        assert_eq!(got, want, "{learner}: merged results differ");
    }
    let md = |dir: &Path| std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert_eq!(md(&merged), md(&whole), "the merged report differs");

    // A shard missing: refused, naming the learners it would have lost.
    let refused = workbook(
        &root,
        &[
            os("grade"),
            os("merge"),
            parts[0].as_os_str(),
            parts[1].as_os_str(),
            os("--out"),
            tmp.path().join("bad").as_os_str(),
        ],
    );
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && said.contains("in no part"),
        "a merge with a shard missing must be refused: {said}"
    );

    // A part graded with another config: refused, naming the part.
    write(
        &root.join("grading/grading.toml"),
        "cpu_limit_secs = 9\nmemory_limit_mb = 512\n",
    );
    let other = tmp.path().join("other");
    ok(workbook(
        &root,
        &[
            os("grade"),
            subs.as_os_str(),
            os("--out"),
            other.as_os_str(),
            os("--shard"),
            os("3/3"),
            os("--target-dir"),
            t,
        ],
    ));
    let refused = workbook(
        &root,
        &[
            os("grade"),
            os("merge"),
            parts[0].as_os_str(),
            parts[1].as_os_str(),
            other.as_os_str(),
            os("--out"),
            tmp.path().join("bad").as_os_str(),
        ],
    );
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && said.contains("different config") && said.contains("other"),
        "parts from different configs must not merge: {said}"
    );
}

#[test]
fn a_shard_is_chosen_by_the_learner_id_not_its_position() {
    if !common::sandbox_or_skip("a_shard_is_chosen_by_the_learner_id_not_its_position") {
        return;
    }
    // The same id lands in the same shard whatever else is in the class:
    // grading the class with one more learner moves nobody.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workbook");
    mini_workbook(&root, CONFIG);
    let listing = |names: &[&str]| {
        let subs = tmp.path().join(format!("subs-{}", names.len()));
        for n in names {
            write(&subs.join(n).join("notes.txt"), "nothing graded here\n");
        }
        subs
    };
    let small = listing(&["a", "b", "c", "d", "e", "f"]);
    let large = listing(&["a", "b", "c", "d", "e", "f", "aa"]);
    let ids_in = |subs: &Path, shard: &str| -> Vec<String> {
        let out = tmp.path().join(format!(
            "p-{}-{}",
            subs.file_name().unwrap().to_string_lossy(),
            shard.replace('/', "-")
        ));
        let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-shards");
        ok(workbook(
            &root,
            &[
                os("grade"),
                subs.as_os_str(),
                os("--out"),
                out.as_os_str(),
                os("--shard"),
                os(shard),
                os("--target-dir"),
                target.as_os_str(),
            ],
        ));
        let part: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("part.json")).unwrap()).unwrap();
        part["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect()
    };
    for shard in ["1/2", "2/2"] {
        let before = ids_in(&small, shard);
        let mut after = ids_in(&large, shard);
        after.retain(|id| id != "aa");
        assert_eq!(before, after, "shard {shard} moved a learner");
    }
}

#[test]
fn the_test_runner_grades_one_chapter_crate_into_results_json() {
    if !common::sandbox_or_skip("the_test_runner_grades_one_chapter_crate_into_results_json") {
        return;
    }
    // The Exercism interface: SLUG INPUT_DIR OUTPUT_DIR, results.json out,
    // exit status 0 whatever the verdict.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workbook");
    mini_workbook(&root, CONFIG);
    let solution = learner_reference(&root);
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-shards");
    for (name, text, status) in [
        ("right", solution.clone(), "pass"),
        (
            "wrong",
            solution.replace("if first <= left {", "if first < left {"),
            "fail",
        ),
    ] {
        let input = tmp.path().join(name);
        write(&input.join("src/lib.rs"), &text);
        let output = tmp.path().join(format!("{name}-out"));
        let run = Command::new(env!("CARGO_BIN_EXE_grader"))
            .current_dir(&root)
            .arg("test-runner")
            .arg("intro")
            .arg(&input)
            .arg(&output)
            .env(
                "CARGO_TARGET_DIR",
                target.parent().unwrap().join("grade-runner"),
            )
            .output()
            .unwrap();
        ok(run);
        let results: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(output.join("results.json")).unwrap())
                .unwrap();
        assert_eq!(results["version"], 3, "{name}: the interface's version");
        assert_eq!(results["status"], status, "{name}: {}", results["message"]);
        assert!(
            results["tests"].as_array().is_some_and(|t| !t.is_empty()),
            "{name}: every test is listed"
        );
    }
}
