//! The hidden suites are honest: each passes against the reference and
//! fails against the untouched stubs.
//!
//! `grading/hidden/<slug>.rs` only compiles inside the grader's workspace,
//! so nothing else would notice when a chapter's API moves under it. This
//! test grades two learners with the real workbook: one who submits every
//! chapter's reference as a learner would (the stub files with the
//! reference bodies, from `workbook __learner-reference`), and one who
//! submits the untouched stubs. Every hidden test must pass for the first
//! and fail for the second. Cost: one grading batch of every chapter, a few
//! minutes on two cores; the target directory lives in cargo's per-test
//! scratch folder.

mod common;

use common::repo;
use std::path::Path;

/// Every `.rs` file under `from`, copied to `to`.
fn copy(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let path = e.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy(&path, &dest);
        } else if path.extension().is_some_and(|x| x == "rs") {
            std::fs::create_dir_all(to).unwrap();
            std::fs::copy(&path, dest).unwrap();
        }
    }
}

/// Chapter `slug`'s reference as a learner would submit it, written to `to`.
fn learner_reference(slug: &str, to: &Path) {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_workbook"))
        .current_dir(repo())
        .args(["__learner-reference", slug])
        .arg(to)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "cannot write {slug}'s reference: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The chapters that have a hidden suite: (`NN_slug` folder, slug).
fn hidden_chapters() -> Vec<(String, String)> {
    let repo = repo();
    let mut out = Vec::new();
    for e in std::fs::read_dir(repo.join("exercises")).unwrap() {
        let folder = e.unwrap().file_name().to_string_lossy().into_owned();
        let Some((_, slug)) = folder.split_once('_') else {
            continue;
        };
        if repo.join(format!("grading/hidden/{slug}.rs")).exists() {
            out.push((folder.clone(), slug.to_string()));
        }
    }
    out.sort();
    out
}

#[test]
fn hidden_suites_pass_on_the_reference_and_fail_on_the_stubs() {
    let tmp = tempfile::tempdir().unwrap();
    let (subs, out) = (tmp.path().join("submissions"), tmp.path().join("report"));
    let chapters = hidden_chapters();
    assert!(!chapters.is_empty(), "no hidden suites found");
    for (folder, slug) in &chapters {
        let to = subs.join("reference/exercises").join(folder).join("src");
        learner_reference(slug, &to);
        let stubs = repo().join("exercises").join(folder).join("src");
        copy(
            &stubs,
            &subs.join("stubs/exercises").join(folder).join("src"),
        );
    }

    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-hidden");
    common::grade(&repo(), &subs, &out, &target);

    for (learner, must_pass) in [("reference", true), ("stubs", false)] {
        let text = std::fs::read_to_string(out.join("learners").join(learner).join("results.json"))
            .unwrap();
        let results: serde_json::Value = serde_json::from_str(&text).unwrap();
        let tests = results["tests"]
            .as_array()
            .expect("results.json lists tests");
        // The reference crosses the judge-subject wire in every chapter:
        // every test of every chapter, public or hidden, must pass.
        if must_pass {
            for t in tests {
                assert_eq!(
                    t["status"], "pass",
                    "the reference must pass {} through the judge and subject: {}",
                    t["name"], t["message"]
                );
            }
        }
        for (_, slug) in &chapters {
            let hidden: Vec<_> = tests
                .iter()
                .filter(|t| t["hidden"] == true)
                .filter(|t| {
                    t["name"]
                        .as_str()
                        .is_some_and(|n| n.starts_with(&format!("{slug}/")))
                })
                .collect();
            assert!(
                !hidden.is_empty(),
                "{learner}: no hidden tests ran for {slug}"
            );
            for t in hidden {
                let passed = t["status"] == "pass";
                assert_eq!(
                    passed,
                    must_pass,
                    "{learner}: hidden test {} should {}: {}",
                    t["name"],
                    if must_pass { "pass" } else { "fail" },
                    t["message"]
                );
            }
        }
    }
}
