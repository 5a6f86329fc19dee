//! The hidden suites are honest: each passes against the reference and
//! fails against the untouched stubs, and a table of the public answers
//! earns none of their points.
//!
//! The problem: `grading/hidden/<slug>.rs` only compiles inside the
//! grader's workspace, so nothing else would notice when a chapter's API
//! moves under it. State: one batch, shared by this module's tests, that
//! grades three learners with the real workbook: one who submits every
//! chapter's reference as a learner would (the stub files with the
//! reference bodies, from the core's test kit), one who submits the
//! untouched stubs, and one whose chapters 0 and 1 are tables
//! (`grading/tests/tables/`: each stub body a `match` on the public
//! suite's cases, returning the public answers), and one who hands in the
//! reference of chapters 4 and 5 but for the two exercises whose answers
//! are validated rather than compared: `closed_tour` returning one 6x6
//! closed tour for every even n, and `generate` a grid that only encodes
//! its seed. Every hidden test must pass for the first and fail for the
//! stubs and the table, the grader must note the table, and the checkers
//! of both validated exercises, which take the question (the board's
//! side, the seed), must fail the constant answers, public and hidden. The first must pass every public test too: the
//! reference's answers cross the judge-subject wire in every chapter, so
//! this is where every stub shape of the six chapters (free functions,
//! methods, `&mut` state, trait methods, generic walks) is proved to
//! travel. The batch's folder (`CARGO_TARGET_TMPDIR/hidden-batch`) is kept
//! for a look after a failure and cleared by the next run. Cost: the
//! dependencies of chapters 1 to 5 (once per run of this binary), then one
//! grading batch of every chapter, a few minutes on two cores.

use crate::tool::{self, Batch};
use serde_json::Value;
use std::path::{Path, PathBuf};
use workbook_core::testkit::{copy, replace_body, repo, write, write_learner_reference};

/// The chapters the table learner writes as tables: (`NN_slug`, slug).
const TABLES: [(&str, &str); 2] = [("00_intro", "intro"), ("01_apples", "apples")];

/// The chapters that have a hidden suite: (`NN_slug` folder, slug).
fn hidden_chapters() -> Vec<(String, String)> {
    let repo = repo();
    let mut out = Vec::new();
    for e in std::fs::read_dir(repo.join("exercises")).expect("the exercises") {
        let folder = e
            .expect("a chapter folder")
            .file_name()
            .to_string_lossy()
            .into_owned();
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

/// The batch every test here reads: the report folder and the chapters
/// with a hidden suite.
struct Graded {
    out: PathBuf,
    chapters: Vec<(String, String)>,
}

/// Grades the three learners once, whichever test asks first.
fn batch() -> &'static Graded {
    static BATCH: Batch<Graded> = Batch::new();
    BATCH.get(|| {
        let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hidden-batch");
        let _ = std::fs::remove_dir_all(&scratch);
        let (subs, out) = (scratch.join("submissions"), scratch.join("report"));
        let chapters = hidden_chapters();
        assert!(!chapters.is_empty(), "no hidden suites found");
        for (folder, slug) in &chapters {
            let to = subs.join("reference/exercises").join(folder).join("src");
            write_learner_reference(&repo(), slug, &to);
            let stubs = repo().join("exercises").join(folder).join("src");
            copy(
                &stubs,
                &subs.join("stubs/exercises").join(folder).join("src"),
            );
        }
        for (folder, _) in TABLES {
            // The pristine stubs, then the table's files over them.
            let to = subs.join("table/exercises").join(folder).join("src");
            copy(&repo().join("exercises").join(folder).join("src"), &to);
            copy(&tables().join(folder).join("src"), &to);
        }
        constant_answers(&subs.join("constant/exercises"));
        let turn = tool::turn();
        turn.ok(&mut tool::grade(&repo(), &subs, &out));
        Graded { out, chapters }
    })
}

/// The learner of chapters 4 and 5 whose validated answers are constants:
/// the reference, but `closed_tour` answers every even n with one 6x6
/// closed tour (a valid tour of another board), and `generate` a grid
/// that only encodes its seed (the same for the same seed, different for
/// another, and no puzzle).
fn constant_answers(exercises: &Path) {
    let edits = [
        (
            "04_sudoku",
            "sudoku",
            "generate.rs",
            "generate",
            "let mut cells = [0u8; 81];\n    for (i, b) in seed.to_le_bytes().iter().enumerate() {\n        cells[i] = 1 + b % 9;\n    }\n    let _ = min_givens;\n    Grid { cells }",
        ),
        (
            "05_knights_tour",
            "knights_tour",
            "closed.rs",
            "closed_tour",
            "if n < 6 || n % 2 == 1 {\n        return None;\n    }\n    Board::from_rows(&[\n        vec![1, 8, 29, 16, 31, 10],\n        vec![28, 17, 2, 9, 22, 15],\n        vec![7, 36, 21, 30, 11, 32],\n        vec![20, 27, 18, 3, 14, 23],\n        vec![35, 6, 25, 12, 33, 4],\n        vec![26, 19, 34, 5, 24, 13],\n    ])",
        ),
    ];
    for (folder, slug, file, function, body) in edits {
        let to = exercises.join(folder).join("src");
        write_learner_reference(&repo(), slug, &to);
        let text = std::fs::read_to_string(to.join(file)).expect("the reference's file");
        write(&to.join(file), &replace_body(&text, function, body));
    }
}

/// The table learners' sources: `grading/tests/tables/NN_slug/src/`.
fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tables")
}

/// `learner`'s results.json in the batch.
fn results_of(learner: &str) -> Value {
    let path = batch()
        .out
        .join("learners")
        .join(learner)
        .join("results.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("results.json is JSON")
}

/// `learner`'s tests of chapter `slug`, hidden or public.
fn tests_of<'a>(results: &'a Value, slug: &str, hidden: bool) -> Vec<&'a Value> {
    results["tests"]
        .as_array()
        .expect("results.json lists tests")
        .iter()
        .filter(|t| t["hidden"] == hidden)
        .filter(|t| {
            t["name"]
                .as_str()
                .is_some_and(|n| n.starts_with(&format!("{slug}/")))
        })
        .collect()
}

#[test]
fn hidden_suites_pass_on_the_reference_and_fail_on_the_stubs() {
    if !tool::sandbox_or_skip("hidden_suites_pass_on_the_reference_and_fail_on_the_stubs") {
        return;
    }
    for (learner, must_pass) in [("reference", true), ("stubs", false)] {
        let results = results_of(learner);
        // The reference crosses the judge-subject wire in every chapter:
        // every test of every chapter, public or hidden, must pass.
        if must_pass {
            for t in results["tests"]
                .as_array()
                .expect("results.json lists tests")
            {
                assert_eq!(
                    t["status"], "pass",
                    "the reference must pass {} through the judge and subject: {}",
                    t["name"], t["message"]
                );
            }
        }
        for (_, slug) in &batch().chapters {
            let hidden = tests_of(&results, slug, true);
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

#[test]
fn a_table_of_the_public_answers_earns_no_hidden_point_and_is_noted() {
    if !tool::sandbox_or_skip("a_table_of_the_public_answers_earns_no_hidden_point_and_is_noted") {
        return;
    }
    let results = results_of("table");
    let notes: Vec<&str> = results["notes"]
        .as_array()
        .map(|n| n.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (folder, slug) in TABLES {
        // The table is a real threat: it earns most of the public points.
        let public = tests_of(&results, slug, false);
        let earned = public.iter().filter(|t| t["status"] == "pass").count();
        assert!(
            2 * earned > public.len(),
            "the {slug} table passes only {earned} of {} public tests: it no longer shows what a table earns",
            public.len()
        );
        let hidden = tests_of(&results, slug, true);
        assert!(!hidden.is_empty(), "table: no hidden tests ran for {slug}");
        for t in hidden {
            assert!(
                t["status"] != "pass",
                "a table of {slug}'s public answers passes the hidden test {}: its inputs can be tabulated",
                t["name"]
            );
        }
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with(&format!("{folder}: "))
                    && n.contains("a table, not a search?")),
            "the grader does not note {slug}'s table; notes: {notes:?}"
        );
    }
    let reference = results_of("reference");
    let noted: Vec<&Value> = reference["notes"]
        .as_array()
        .map(|n| {
            n.iter()
                .filter(|n| n.as_str().is_some_and(|n| n.contains("a table")))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        noted.is_empty(),
        "the reference is noted as a table: {noted:?}"
    );
}

#[test]
fn a_constant_answer_to_a_validated_exercise_fails_its_public_and_hidden_checks() {
    if !tool::sandbox_or_skip(
        "a_constant_answer_to_a_validated_exercise_fails_its_public_and_hidden_checks",
    ) {
        return;
    }
    let results = results_of("constant");
    let named = |slug: &str, hidden: bool, part: &str| -> Vec<(String, bool)> {
        tests_of(&results, slug, hidden)
            .into_iter()
            .filter(|t| t["name"].as_str().is_some_and(|n| n.contains(part)))
            .map(|t| (t["name"].to_string(), t["status"] == "pass"))
            .collect()
    };
    // The 6x6 tour is right for n = 6 alone: every check that asks
    // another even board must refuse it, public and hidden.
    for hidden in [false, true] {
        let tours = named("knights_tour", hidden, "closed_tour::");
        assert!(
            !tours.is_empty(),
            "no closed_tour tests ran (hidden: {hidden})"
        );
        assert!(
            tours.iter().any(|(_, passed)| !passed),
            "a constant closed tour passes every closed_tour test (hidden: {hidden}): {tours:?}"
        );
    }
    for (name, passed) in named("knights_tour", true, "closed_tour::") {
        assert!(!passed, "the constant closed tour passes the hidden {name}");
    }
    // A grid encoding its seed is no puzzle: every generator test fails.
    for hidden in [false, true] {
        for (name, passed) in named("sudoku", hidden, "generator::") {
            assert!(!passed, "a seed-encoding grid passes {name}");
        }
    }
    // Everything else is the reference's, and passes.
    let others = tests_of(&results, "knights_tour", false)
        .into_iter()
        .chain(tests_of(&results, "sudoku", false))
        .filter(|t| {
            t["name"]
                .as_str()
                .is_some_and(|n| !n.contains("closed_tour::") && !n.contains("generator::"))
        })
        .filter(|t| t["status"] != "pass")
        .map(|t| t["name"].to_string())
        .collect::<Vec<_>>();
    assert!(
        others.is_empty(),
        "tests of other exercises fail: {others:?}"
    );
}
