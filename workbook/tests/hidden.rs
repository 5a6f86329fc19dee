//! The hidden suites are honest: each passes against the reference and
//! fails against the untouched stubs.
//!
//! `grading/hidden/<slug>.rs` only compiles inside a grading slot, so
//! nothing else would notice when a chapter's API moves under it. This test
//! grades two learners with the real workbook: one who submits every
//! chapter's reference (its sources with `slug_solution` renamed `slug`, as
//! the stubs are derived), and one who submits the untouched stubs. Every hidden test must pass for the first and fail for the
//! second. Cost: one grading batch of every chapter, a few minutes on two
//! cores; the target directory lives in cargo's per-test scratch folder.

mod common;

use common::repo;
use std::path::Path;

/// Every `.rs` file under `from`, copied to `to` with `rename` applied.
fn copy_renamed(from: &Path, to: &Path, rename: (&str, &str)) {
    for e in std::fs::read_dir(from).unwrap() {
        let path = e.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_renamed(&path, &dest, rename);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::create_dir_all(to).unwrap();
            std::fs::write(dest, text.replace(rename.0, rename.1)).unwrap();
        }
    }
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
        let from = repo().join("solutions").join(folder).join("src");
        let to = subs.join("reference/exercises").join(folder).join("src");
        copy_renamed(&from, &to, (&format!("{slug}_solution"), slug));
        let stubs = repo().join("exercises").join(folder).join("src");
        let to = subs.join("stubs/exercises").join(folder).join("src");
        copy_renamed(&stubs, &to, (slug, slug));
    }

    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-hidden");
    common::grade(&repo(), &subs, &out, &target);

    for (learner, must_pass) in [("reference", true), ("stubs", false)] {
        let text = std::fs::read_to_string(out.join(learner).join("results.json")).unwrap();
        let results: serde_json::Value = serde_json::from_str(&text).unwrap();
        let tests = results["tests"]
            .as_array()
            .expect("results.json lists tests");
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
