//! A prepared class is reused by the next run with the same key, a changed
//! config prepares another, a stale one is swept, and a subject built once
//! is not built again for the same sources (the subject cache).
//!
//! The problem: every run used to rebuild the pristine crates and judges
//! before its first learner (issue 33). State: the shared target, where
//! the first turn prepared chapter 0 of this checkout; `grade prepare` is
//! run twice more on it (the second must build nothing: no judge's time
//! changes, and it says it reused the class), then once with a config
//! without the hidden suites, beside a planted class unused for 30 days.
//! Cost: one build of chapter 0's public judges (the kept copy makes it
//! small), the rest listings; then one learner of chapter 0 graded twice
//! (built once).

use crate::tool;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};
use workbook_core::testkit::{repo, write};

/// `grade prepare --chapter intro` of this checkout into the shared target.
fn prepare(config: Option<&Path>) -> Command {
    let mut cmd = tool::grader(&repo());
    cmd.args(["grade", "prepare", "--chapter", "intro", "--target-dir"])
        .arg(tool::shared_target());
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    cmd
}

/// The key a run names in its standard error (`... (key KEY)...`).
fn key_of(said: &str) -> String {
    let at = said
        .find("(key ")
        .unwrap_or_else(|| panic!("no key named:\n{said}"));
    said[at + 5..].chars().take_while(|c| *c != ')').collect()
}

/// Every file under `dir` with its modification time.
fn times(dir: &Path, out: &mut BTreeMap<PathBuf, SystemTime>) {
    for e in std::fs::read_dir(dir).expect("a prepared folder").flatten() {
        let path = e.path();
        if path.is_dir() {
            times(&path, out);
        } else {
            let t = e.metadata().and_then(|m| m.modified()).expect("a time");
            out.insert(path, t);
        }
    }
}

#[test]
fn a_second_run_with_the_same_key_builds_nothing_and_a_changed_config_prepares_anew() {
    if !tool::sandbox_or_skip(
        "a_second_run_with_the_same_key_builds_nothing_and_a_changed_config_prepares_anew",
    ) {
        return;
    }
    let turn = tool::turn();
    let prepared = tool::shared_target().join("prepared");
    // Ready after this run, whether it built or reused.
    let first = turn.ok(&mut prepare(None));
    let key = key_of(&String::from_utf8_lossy(&first.stderr));
    let bin = prepared.join(&key).join("bin");
    let mut before = BTreeMap::new();
    times(&bin, &mut before);
    assert!(!before.is_empty(), "no judge in {}", bin.display());

    let again = turn.ok(&mut prepare(None));
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(
        said.contains(&format!("prepared class reused (key {key})")),
        "the second run did not reuse the class:\n{said}"
    );
    let mut after = BTreeMap::new();
    times(&bin, &mut after);
    assert_eq!(before, after, "a judge was rebuilt");

    // A class nobody used for 30 days, and a config without hidden suites.
    let stale = "00000000deadbeef";
    std::fs::create_dir_all(prepared.join(stale).join("bin")).expect("a planted class");
    write(&prepared.join(format!("{stale}.lock")), "");
    let ready = std::fs::File::create(prepared.join(format!("{stale}.ready"))).expect("a marker");
    ready
        .set_modified(SystemTime::now() - Duration::from_secs(30 * 24 * 3600))
        .expect("an old time");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let config = tmp.path().join("public-only.toml");
    write(&config, "hidden = \"\"\n");
    let other = turn.ok(&mut prepare(Some(&config)));
    let said = String::from_utf8_lossy(&other.stderr);
    let new_key = key_of(&said);
    assert_ne!(new_key, key, "another config, the same key:\n{said}");
    assert!(
        said.contains(&format!("preparing the class (key {new_key})")),
        "{said}"
    );
    assert!(
        said.contains(&format!("removed the prepared class {stale}")),
        "the stale class was not swept:\n{said}"
    );
    assert!(!prepared.join(stale).exists() && !prepared.join(format!("{stale}.lock")).exists());
    assert!(
        prepared.join(&key).join("bin").is_dir(),
        "a recent class was swept"
    );
}

/// `id`'s total and build seconds in the report `out`.
fn graded(out: &Path, id: &str) -> (f64, f64, Vec<String>) {
    let path = out.join("learners").join(id).join("results.json");
    let text = std::fs::read_to_string(&path).expect("results.json");
    let r: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let verdicts = r["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| format!("{} {}", t["name"], t["verdict"]))
        .collect();
    (
        r["points"]["total"].as_f64().expect("a total"),
        r["build_secs"].as_f64().expect("build seconds"),
        verdicts,
    )
}

#[test]
fn a_resubmission_of_the_same_sources_is_not_built_again_and_gets_the_same_grade() {
    if !tool::sandbox_or_skip(
        "a_resubmission_of_the_same_sources_is_not_built_again_and_gets_the_same_grade",
    ) {
        return;
    }
    let turn = tool::turn();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    tool::open_to_all(tmp.path());
    // Sources no earlier run built: the reference with a body of its own.
    let nonce = format!("{:?}", SystemTime::now());
    let lib = tool::unbuilt_intro_lib(&tmp.path().join("reference"), &nonce);
    let subs = tmp.path().join("submissions");
    write(&subs.join("ann/exercises/00_intro/src/lib.rs"), &lib);
    let grade = |out: &Path| {
        turn.ok(&mut tool::grade(&repo(), &subs, out));
        graded(out, "ann")
    };
    let first = grade(&tmp.path().join("first"));
    let again = grade(&tmp.path().join("again"));
    assert!(
        first.1 > 0.0,
        "the first submission was not built: {first:?}"
    );
    assert_eq!(again.1, 0.0, "the resubmission was built again");
    assert_eq!(
        (first.0, &first.2),
        (again.0, &again.2),
        "the cached subject graded otherwise"
    );
    assert!(first.0 > 0.0, "the reference earned nothing: {first:?}");
}
