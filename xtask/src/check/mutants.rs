//! The seeded-bug rule: each exercise's suite catches a typical mistake.
//!
//! The problem: a suite can pass the reference, fail every stub, give no
//! point away (`isolation.rs`), and still let a wrong solution through, as
//! an `open_tour` whose `complete` never rotated once did. So each exercise
//! has one or more *mutants*: typical mistakes (an off-by-one, a dropped
//! undo, a reversed order) written as a text edit of one function of the
//! reference, in the maintainer's `xtask/mutants/<slug>.toml` (they quote
//! the reference, so never in the `info.toml` a learner reads for hints;
//! the chapter loader refuses one left there):
//!
//! ```toml
//! [[mutant]]
//! exercise = "queens"                # as in info.toml
//! function = "is_valid"              # as in `stubs`: `name` or `Type::method`
//! find = "r + c == row + col"        # found exactly once in that function
//! replace = "r + c + 1 == row + col"
//! mistake = "the rising diagonal off by one"
//! ```
//!
//! The edit is applied to the learner's copy of the reference
//! (`stubs::learner_reference`), inside the function's span as `syn` finds
//! it (so `find` cannot match elsewhere in the file), and the suite must
//! then fail at least one test of that exercise. The quick part (every
//! exercise has a mutant, and every mutant applies) runs with the other
//! instant rules; the slow part builds and runs the suite once per mutant
//! in the isolation rule's scratch workspace (`target/isolation/`), only
//! under `cargo xtask check --mutants`, each under a wall-clock limit (a
//! mistake can make a search endless). Cost: one build of the exercise crate
//! and its suite per mutant (the dependencies are built once).

use super::isolation;
use anyhow::{Result, bail};
use std::path::Path;
use std::time::Duration;
use workbook_core::info::{Chapter, Exercise, Mutant};
use workbook_core::runner::{Verdict, run_suite_limited};
use workbook_core::stubs::{self, StubFile};

/// How long one mutant's build and suite run may take: a mistake can
/// make a search endless (an iterator that never ends, say).
const LIMIT: Duration = Duration::from_secs(300);

/// Problems found without building: exercises with no mutant, and mutants
/// that do not apply to the reference.
pub fn listed(chapters: &[Chapter]) -> Vec<String> {
    let mut problems = Vec::new();
    for chapter in chapters {
        let files = match stubs::learner_reference(chapter) {
            Ok(files) => files,
            Err(e) => {
                problems.push(format!("{}: {e:#}", chapter.chapter.slug));
                continue;
            }
        };
        problems.extend(in_learners_path(chapter));
        for exercise in &chapter.exercises {
            if exercise.mutants.is_empty() {
                problems.push(format!(
                    "{}: exercise {} has no [[mutant]] in {} (a typical mistake its suite must catch)",
                    chapter.chapter.slug,
                    exercise.name,
                    chapter.shown(&chapter.mutants_file())
                ));
            }
            for m in &exercise.mutants {
                if let Err(e) = apply(&files, m) {
                    problems.push(format!(
                        "{}: exercise {}'s mutant \"{}\": {e:#}",
                        chapter.chapter.slug, exercise.name, m.mistake
                    ));
                }
            }
        }
    }
    problems
}

/// A seeded bug in the learner's path: any `mutant` key left in the
/// chapter's `info.toml` (the loader refuses the usual
/// `[[exercise.mutant]]` too; this catches it however it is written).
fn in_learners_path(chapter: &Chapter) -> Vec<String> {
    let info = chapter.stub_dir().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap_or_default();
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_start();
            !l.starts_with('#') && (l.contains(".mutant]") || l.starts_with("mutant"))
        })
        .map(|(i, _)| {
            format!(
                "{}:{}: a seeded bug in the learner's info.toml; it belongs in {}",
                chapter.shown(&info),
                i + 1,
                chapter.shown(&chapter.mutants_file())
            )
        })
        .collect()
}

/// Problems found by building each mutant of `chapter` and running its
/// suite: mutants the suite does not catch, or that do not build.
pub fn caught(root: &Path, chapter: &Chapter) -> Result<Vec<String>> {
    let files = stubs::learner_reference(chapter)?;
    let scratch = root.join("target/isolation");
    let workspace = isolation::scaffold(root, &scratch, chapter)?;
    let pkg = chapter.package();
    let mut problems = Vec::new();
    for exercise in &chapter.exercises {
        for m in &exercise.mutants {
            let mutated = match apply(&files, m) {
                Ok(mutated) => mutated,
                Err(e) => {
                    problems.push(format!("{pkg}: mutant \"{}\": {e:#}", m.mistake));
                    continue;
                }
            };
            isolation::write_src(&workspace, chapter, &mutated)?;
            eprintln!("check: {pkg}: `{}` with {}...", exercise.name, m.mistake);
            let run = run_suite_limited(&workspace, pkg, Some(&scratch.join("target")), LIMIT)?;
            match run {
                Some(run) => problems.extend(judge(pkg, exercise, m, &run)),
                None => problems.push(format!(
                    "{pkg}: the mutant \"{}\" of `{}` made the suite run past {} s; \
                     choose a mistake that fails without looping",
                    m.mistake,
                    m.function,
                    LIMIT.as_secs()
                )),
            }
        }
    }
    Ok(problems)
}

/// What one mutant's run says: a problem unless it built and failed a test
/// of its own exercise.
fn judge(
    pkg: &str,
    exercise: &Exercise,
    m: &Mutant,
    run: &workbook_core::runner::SuiteRun,
) -> Option<String> {
    if let Some(err) = &run.build_error {
        return Some(format!(
            "{pkg}: the mutant \"{}\" of `{}` does not build (fix the mutant):\n{err}",
            m.mistake, m.function
        ));
    }
    let prefix = format!("{}::", exercise.name);
    let failed = run
        .tests
        .iter()
        .any(|(name, v)| name.starts_with(&prefix) && *v == Verdict::Failed);
    (!failed).then(|| {
        format!(
            "{pkg}: every test of `{}` passes with a seeded bug in `{}` ({}: `{}` became `{}`); \
             add a test that catches it",
            exercise.name, m.function, m.mistake, m.find, m.replace
        )
    })
}

/// `files` with mutant `m` applied: `m.find` replaced by `m.replace`
/// inside the one function `m.function` names.
pub fn apply(files: &[StubFile], m: &Mutant) -> Result<Vec<StubFile>> {
    let mut out = files.to_vec();
    let mut applied = 0;
    for f in &mut out {
        let ranges = workbook_core::stubs::item_ranges(&f.text).unwrap_or_default();
        for (name, range) in ranges.iter().filter(|(n, _)| *n == m.function) {
            let body = &f.text[range.clone()];
            let found: Vec<usize> = body.match_indices(&m.find).map(|(i, _)| i).collect();
            match found.as_slice() {
                [one] => {
                    let at = range.start + one;
                    f.text.replace_range(at..at + m.find.len(), &m.replace);
                    applied += 1;
                }
                [] => bail!(
                    "`{}` does not occur in `{name}` ({})",
                    m.find,
                    f.relative.display()
                ),
                many => bail!(
                    "`{}` occurs {} times in `{name}` ({}); make it unique",
                    m.find,
                    many.len(),
                    f.relative.display()
                ),
            }
        }
    }
    match applied {
        1 => Ok(out),
        0 => bail!("no function `{}` in the reference", m.function),
        _ => bail!("`{}` names {applied} functions; name one", m.function),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn mutant(function: &str, find: &str, replace: &str) -> Mutant {
        Mutant {
            exercise: "e".into(),
            function: function.into(),
            find: find.into(),
            replace: replace.into(),
            mistake: "a test".into(),
        }
    }

    fn file(text: &str) -> Vec<StubFile> {
        vec![StubFile {
            relative: PathBuf::from("lib.rs"),
            text: text.into(),
        }]
    }

    #[test]
    fn the_edit_stays_inside_its_function() {
        let text = "fn a() -> u32 { 1 + 1 }\nfn b() -> u32 { 1 + 1 }\n";
        let got = apply(&file(text), &mutant("b", "1 + 1", "1 + 2")).expect("applies");
        assert_eq!(
            got[0].text,
            "fn a() -> u32 { 1 + 1 }\nfn b() -> u32 { 1 + 2 }\n"
        );
    }

    #[test]
    fn methods_are_named_with_their_type() {
        let text = "struct S;\nimpl S {\n    fn new() -> u32 { 0 }\n}\nfn new() -> u32 { 0 }\n";
        let got = apply(&file(text), &mutant("S::new", "0", "1")).expect("applies");
        assert!(
            got[0].text.contains("fn new() -> u32 { 1 }\n}"),
            "{}",
            got[0].text
        );
        assert!(
            got[0].text.ends_with("fn new() -> u32 { 0 }\n"),
            "{}",
            got[0].text
        );
    }

    #[test]
    fn a_missing_or_repeated_text_is_refused() {
        let text = "fn a() -> u32 { 1 + 1 }\n";
        assert!(apply(&file(text), &mutant("a", "7", "3")).is_err());
        assert!(apply(&file(text), &mutant("a", "1", "3")).is_err());
        assert!(apply(&file(text), &mutant("b", "1 + 1", "3")).is_err());
    }

    #[test]
    fn a_mutant_line_in_a_learners_info_toml_is_reported() {
        let root = tempfile::tempdir().expect("a folder");
        let dir = root.path().join("exercises/07_demo");
        std::fs::create_dir_all(&dir).expect("the chapter folder");
        let chapter_head = "[chapter]\nnumber = 7\nslug = \"demo\"\ntitle = \"D\"\nbook = \"d.md\"\n\n[[exercise]]\nname = \"e\"\ntitle = \"E\"\nbook = \"d.md\"\nhints = [\"h\"]\n";
        std::fs::write(dir.join("info.toml"), chapter_head).expect("info.toml");
        let chapters = workbook_core::info::load_chapters(root.path()).expect("loads");
        assert!(in_learners_path(&chapters[0]).is_empty());
        std::fs::write(
            dir.join("info.toml"),
            format!("{chapter_head}mutant = []\n# a [[exercise.mutant]] in a comment is fine\n"),
        )
        .expect("info.toml");
        let chapters = workbook_core::info::load_chapters(root.path()).expect("loads");
        let found = in_learners_path(&chapters[0]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("info.toml:12") && found[0].contains("xtask/mutants/demo.toml"),
            "{found:?}"
        );
    }

    #[test]
    fn a_chapter_with_a_mutant_in_its_info_toml_does_not_load() {
        // Another branch adding an exercise with its mutant in info.toml
        // must fail loudly at the merge, not lose the mutant silently.
        let root = tempfile::tempdir().expect("a folder");
        let dir = root.path().join("exercises/07_demo");
        std::fs::create_dir_all(&dir).expect("the chapter folder");
        std::fs::write(
            dir.join("info.toml"),
            "[chapter]\nnumber = 7\nslug = \"demo\"\ntitle = \"D\"\nbook = \"d.md\"\n\n[[exercise]]\nname = \"e\"\ntitle = \"E\"\nbook = \"d.md\"\nhints = [\"h\"]\n\n[[exercise.mutant]]\nfunction = \"f\"\nfind = \"a\"\nreplace = \"b\"\nmistake = \"m\"\n",
        )
        .expect("info.toml");
        let err = workbook_core::info::load_chapters(root.path()).expect_err("refused");
        let said = format!("{err:#}");
        assert!(
            said.contains("exercise `e` lists [[exercise.mutant]]")
                && said.contains("xtask/mutants/demo.toml"),
            "{said}"
        );
    }

    #[test]
    fn every_exercise_lists_mutants_that_apply() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        let chapters = workbook_core::info::load_chapters(root).expect("the chapters load");
        let problems = listed(&chapters);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
