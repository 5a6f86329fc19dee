//! Grading in shards gives the gradebook of one run, and `test-runner`
//! grades one chapter's crate.
//!
//! The problem: a large course is graded on many machines, each a
//! `grader grade --shard I/N` process, and `grader grade merge` must join
//! their parts into exactly what one run would have written. State: a
//! small class of chapter 0 (right, partly right, not started, two more
//! right or wrong) in a temporary folder, graded once whole and once as
//! three shards in the shared target; `grades.csv` and `report.md` must
//! be byte for byte the same, and so must every learner's `results.json`
//! once its timings are taken out. Parts graded with a different config
//! or another hidden seed, or a set with a shard missing, must be refused.
//! Cost: twelve grading runs (the grader builds a pristine copy for each):
//! the class whole, in three shards and one shard again twice, four shards of ungraded entries, and
//! two single submissions through `test-runner`.

use crate::tool;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use workbook_core::testkit::{learner_reference, mini_workbook, repo, write};

const CONFIG: &str = "cpu_limit_secs = 5\nmemory_limit_mb = 512\n";

/// `grade SUBS --out OUT --shard SHARD` into the shared target.
fn shard(root: &Path, subs: &Path, out: &Path, shard: &str) -> Command {
    let mut cmd = tool::grader(root);
    cmd.arg("grade")
        .arg(subs)
        .arg("--out")
        .arg(out)
        .args(["--shard", shard, "--target-dir"])
        .arg(tool::shared_target());
    cmd
}

/// `grade merge PARTS --out OUT`.
fn merge(root: &Path, parts: &[&Path], out: &Path) -> Command {
    let mut cmd = tool::grader(root);
    cmd.args(["grade", "merge"])
        .args(parts)
        .arg("--out")
        .arg(out);
    cmd
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
    let stubs = std::fs::read_to_string(repo().join("exercises/00_intro/src/lib.rs"))
        .expect("chapter 0's stubs");
    write(&subs.join("alan").join(lib), &stubs);
    write(&subs.join("edsger").join(lib), solution);
    write(
        &subs.join("barbara").join(lib),
        &solution.replace("if first <= left {", "if first < left {"),
    );
}

/// A JSON file written by the grader.
fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// `results.json` without the fields that time the run.
fn untimed(path: &Path) -> serde_json::Value {
    let mut json = json(path);
    json["build_secs"] = serde_json::Value::Null;
    json["run_secs"] = serde_json::Value::Null;
    if let Some(tests) = json["tests"].as_array_mut() {
        for t in tests {
            t["duration_secs"] = serde_json::Value::Null;
        }
    }
    json
}

#[test]
fn three_shards_merge_into_the_gradebook_of_one_run() {
    if !tool::sandbox_or_skip("three_shards_merge_into_the_gradebook_of_one_run") {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    mini_workbook(&root, CONFIG);
    let subs = tmp.path().join("submissions");
    class(&subs, &learner_reference(&root));
    let whole = tmp.path().join("whole");
    let turn = tool::turn();
    turn.ok(&mut tool::grade(&root, &subs, &whole));
    let parts: Vec<PathBuf> = (1..=3)
        .map(|i| tmp.path().join(format!("part-{i}")))
        .collect();
    for (i, part) in parts.iter().enumerate() {
        turn.ok(&mut shard(&root, &subs, part, &format!("{}/3", i + 1)));
    }
    let merged = tmp.path().join("merged");
    let all: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
    turn.ok(&mut merge(&root, &all, &merged));

    let csv = |dir: &Path| std::fs::read_to_string(dir.join("grades.csv")).expect("grades.csv");
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
    let md = |dir: &Path| std::fs::read_to_string(dir.join("report.md")).expect("report.md");
    assert_eq!(md(&merged), md(&whole), "the merged report differs");

    // A shard missing: refused, naming the learners it would have lost.
    let bad = tmp.path().join("bad");
    let refused = turn.run(&mut merge(&root, &all[..2], &bad));
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
    turn.ok(&mut shard(&root, &subs, &other, "3/3"));
    let refused = turn.run(&mut merge(&root, &[all[0], all[1], &other], &bad));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && said.contains("different config") && said.contains("other"),
        "parts from different configs must not merge: {said}"
    );

    // A part graded with another hidden seed: refused like another config.
    write(&root.join("grading/grading.toml"), CONFIG);
    let seed = tmp.path().join("another-seed");
    write(&seed, "1\n");
    std::fs::set_permissions(&seed, std::os::unix::fs::PermissionsExt::from_mode(0o600))
        .expect("the seed closed");
    let reseeded = tmp.path().join("reseeded");
    turn.ok(shard(&root, &subs, &reseeded, "3/3").env("WORKBOOK_HIDDEN_SEED_FILE", &seed));
    let refused = turn.run(&mut merge(&root, &[all[0], all[1], &reseeded], &bad));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && said.contains("different hidden seed"),
        "parts graded with different hidden seeds must not merge: {said}"
    );
}

#[test]
fn a_shard_is_chosen_by_the_learner_id_not_its_position() {
    if !tool::sandbox_or_skip("a_shard_is_chosen_by_the_learner_id_not_its_position") {
        return;
    }
    // The same id lands in the same shard whatever else is in the class:
    // grading the class with one more learner moves nobody.
    let tmp = tempfile::tempdir().expect("a temporary folder");
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
    let turn = tool::turn();
    let ids_in = |subs: &Path, which: &str| -> Vec<String> {
        let out = tmp.path().join(format!(
            "p-{}-{}",
            subs.file_name().expect("a named folder").to_string_lossy(),
            which.replace('/', "-")
        ));
        turn.ok(&mut shard(&root, subs, &out, which));
        json(&out.join("part.json"))["results"]
            .as_array()
            .expect("a part lists its results")
            .iter()
            .map(|r| r["name"].as_str().expect("a learner's id").to_string())
            .collect()
    };
    for which in ["1/2", "2/2"] {
        let before = ids_in(&small, which);
        let mut after = ids_in(&large, which);
        after.retain(|id| id != "aa");
        assert_eq!(before, after, "shard {which} moved a learner");
    }
}

#[test]
fn the_test_runner_grades_one_chapter_crate_into_results_json() {
    if !tool::sandbox_or_skip("the_test_runner_grades_one_chapter_crate_into_results_json") {
        return;
    }
    // The Exercism interface: SLUG INPUT_DIR OUTPUT_DIR, results.json out,
    // exit status 0 whatever the verdict. It takes no `--target-dir`: it
    // builds in `$CARGO_TARGET_DIR/grade`, which the tool points at the
    // shared target.
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    mini_workbook(&root, CONFIG);
    let solution = learner_reference(&root);
    let others = tool::intro_others(&root);
    let turn = tool::turn();
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
        tool::write_others(&input.join("src"), &others);
        let output = tmp.path().join(format!("{name}-out"));
        let mut cmd = tool::grader(&root);
        cmd.args([OsStr::new("test-runner"), OsStr::new("intro")])
            .arg(&input)
            .arg(&output);
        turn.ok(&mut cmd);
        let results = json(&output.join("results.json"));
        assert_eq!(results["version"], 3, "{name}: the interface's version");
        assert_eq!(results["status"], status, "{name}: {}", results["message"]);
        assert!(
            results["tests"].as_array().is_some_and(|t| !t.is_empty()),
            "{name}: every test is listed"
        );
    }
}
