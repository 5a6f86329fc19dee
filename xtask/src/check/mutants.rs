//! The seeded-bug rule: each exercise's suite catches a typical mistake.
//!
//! The problem: a suite can pass the reference, fail every stub, give no
//! point away (`isolation.rs`), and still let a wrong solution through, as
//! an `open_tour` whose `complete` never rotated once did. So each exercise
//! lists in `info.toml` one or more *mutants*: typical mistakes (an
//! off-by-one, a dropped undo, a reversed order) written as a text edit of
//! one function of the reference:
//!
//! ```toml
//! [[exercise.mutant]]
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
        for exercise in &chapter.exercises {
            if exercise.mutants.is_empty() {
                problems.push(format!(
                    "{}: exercise {} lists no [[exercise.mutant]] (a typical mistake its suite must catch)",
                    chapter.chapter.slug, exercise.name
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
    fn every_exercise_lists_mutants_that_apply() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        let chapters = workbook_core::info::load_chapters(root).expect("the chapters load");
        let problems = listed(&chapters);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
