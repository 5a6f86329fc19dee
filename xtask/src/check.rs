//! `cargo xtask check`: the maintainer's proof that the workbook is consistent.
//!
//! Each rule is one function returning the problems it found, so a failure
//! names the file and what is wrong with it. The rules are the numbered
//! invariants of ARCHITECTURE.md, in [`INVARIANTS`] with the same numbers
//! and keys (a test reads ARCHITECTURE.md and fails when the two lists
//! part); each prints as `check: N. name`. Their parts: `check/names.rs`
//! (the names of 3), `check/fold.rs` (6), `check/commands.rs` (7), `check/mutants.rs` (9),
//! `check/thousands.rs` (10), `check/catalogues.rs` (11),
//! `check/circles.rs` (12), and
//! `check/isolation.rs` (the one-exercise-stubbed half of 5).
//!
//! All but 5 and the runs of 9 are instant; 5 builds and runs each suite
//! against the reference and the stubs, then once per exercise with it
//! alone stubbed; 9's runs (`--mutants`) build the suite once per mutant.

mod catalogues;
mod circles;
mod commands;
mod fold;
mod isolation;
mod mutants;
mod names;
mod thousands;

use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use workbook_core::info::Chapter;
use workbook_core::markdown::{heading_id, markdown_files};
use workbook_core::runner::{Target, Verdict, run_suite};
use workbook_core::stubs;

/// The invariants, as ARCHITECTURE.md numbers them: (number, key, what
/// `check` prints). The key is written in ARCHITECTURE.md's item as
/// (`key`), so the two lists cannot drift apart unseen.
pub const INVARIANTS: [(u8, &str, &str); 12] = [
    (1, "wiring", "exercise crates are wired to suites"),
    (2, "stubs", "stubs are derived from the solutions"),
    (3, "hints", "every exercise has hints and a book page"),
    (
        4,
        "includes",
        "book includes resolve; rust blocks are included",
    ),
    (5, "suites", "suites grade honestly"),
    (6, "fold", "exercises come first, answers are folded"),
    (
        7,
        "commands",
        "tool commands in README, grading/ and book run",
    ),
    (
        8,
        "generated",
        "book players, figures and quizzes are current",
    ),
    (9, "mutants", "every exercise lists mutants that apply"),
    (10, "thousands", "big numbers in the book have separators"),
    (
        11,
        "translations",
        "complete translations are complete and intact",
    ),
    (12, "circles", "no two modules of a tool import each other"),
];

/// What invariant `key` prints: `N. name`.
fn label(key: &str) -> String {
    INVARIANTS
        .iter()
        .find(|(_, k, _)| *k == key)
        .map(|(n, _, name)| format!("{n}. {name}"))
        .unwrap_or_else(|| key.to_string())
}

/// Checks every quick rule over all `chapters`, then runs the suites of
/// `suites` (all chapters, one, or none).
pub fn run(
    root: &Path,
    chapters: &[Chapter],
    suites: &[Chapter],
    with_mutants: &[Chapter],
) -> Result<ExitCode> {
    let mut problems = Vec::new();
    let mut step = |name: &str, found: Vec<String>| {
        let mark = if found.is_empty() { "ok" } else { "FAILED" };
        println!("check: {name:<52} {mark}");
        problems.extend(found);
    };
    step(&label("wiring"), chapters.iter().flat_map(wiring).collect());
    step(&label("stubs"), stub_drift(chapters));
    let mut named = hints(root, chapters);
    named.extend(names::problems(root, chapters));
    step(&label("hints"), named);
    step(&label("includes"), book(root, chapters));
    step(&label("generated"), crate::book::stale(root, chapters)?);
    step(&label("fold"), fold::problems(root, chapters));
    step(&label("commands"), commands::problems(root, chapters));
    step(&label("thousands"), thousands::problems(root));
    step(&label("mutants"), mutants::listed(chapters));
    let translations = catalogues::problems(root);
    step(&label("translations"), translations.problems);
    step(&label("circles"), circles::problems(root));
    for line in translations.progress {
        println!("check:   {line}");
    }
    for chapter in suites {
        eprintln!(
            "check: running the {} suite against the reference and the stubs...",
            chapter.package()
        );
        step(
            &format!("5. suite `{}` grades honestly", chapter.package()),
            suite(root, chapter)?,
        );
    }
    for chapter in with_mutants {
        eprintln!(
            "check: running the {} suite against each mutant of the reference...",
            chapter.package()
        );
        step(
            &format!("9. suite `{}` catches every mutant", chapter.package()),
            mutants::caught(root, chapter)?,
        );
    }
    if problems.is_empty() {
        println!("check: all invariants hold");
        return Ok(ExitCode::SUCCESS);
    }
    println!("\n{} problem(s):", problems.len());
    for p in &problems {
        println!("  - {p}");
    }
    Ok(ExitCode::FAILURE)
}

fn wiring(chapter: &Chapter) -> Vec<String> {
    let manifest = chapter.dir.join("Cargo.toml");
    let slug = &chapter.chapter.slug;
    let Ok(text) = std::fs::read_to_string(&manifest) else {
        return vec![format!("{} is missing", manifest.display())];
    };
    let Ok(doc) = text.parse::<toml::Table>() else {
        return vec![format!("{} is not valid TOML", manifest.display())];
    };
    let mut problems = Vec::new();
    let name = doc
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str());
    if name != Some(slug) {
        problems.push(format!(
            "{}: package name must be `{slug}`",
            manifest.display()
        ));
    }
    let suite = format!("../../tests/{slug}.rs");
    let wired = doc
        .get("test")
        .and_then(|t| t.as_array())
        .is_some_and(|tests| {
            tests.iter().any(|t| {
                t.get("name").and_then(|n| n.as_str()) == Some(slug)
                    && t.get("path").and_then(|p| p.as_str()) == Some(&suite)
            })
        });
    if !wired {
        problems.push(format!(
            "{}: needs [[test]] name = \"{slug}\", path = \"{suite}\"",
            manifest.display()
        ));
    }
    let feature = doc
        .get("features")
        .and_then(|f| f.get("reference"))
        .and_then(|r| r.as_array());
    let expected = format!("dep:{}", chapter.solution_package());
    if !feature.is_some_and(|f| f.iter().any(|v| v.as_str() == Some(&expected))) {
        problems.push(format!(
            "{}: needs feature reference = [\"{expected}\"]",
            manifest.display()
        ));
    }
    problems
}

fn stub_drift(chapters: &[Chapter]) -> Vec<String> {
    let mut problems = Vec::new();
    for c in chapters {
        match stubs::drift(c) {
            Ok(found) => problems.extend(
                found
                    .into_iter()
                    .map(|p| format!("{p} (run `cargo xtask stubs {}`)", c.chapter.slug)),
            ),
            Err(e) => problems.push(format!("{e:#}")),
        }
    }
    problems
}

fn hints(root: &Path, chapters: &[Chapter]) -> Vec<String> {
    let src = root.join("book/src");
    let mut problems = Vec::new();
    for c in chapters {
        if c.exercises.is_empty() {
            problems.push(format!("chapter {} lists no exercises", c.chapter.slug));
        }
        let pages = std::iter::once(("the chapter", c.chapter.book.as_str())).chain(
            c.exercises
                .iter()
                .map(|e| (e.name.as_str(), e.book.as_str())),
        );
        for (who, page) in pages {
            let (file, fragment) = page
                .split_once('#')
                .map_or((page, None), |(f, a)| (f, Some(a)));
            let Ok(text) = std::fs::read_to_string(src.join(file)) else {
                problems.push(format!(
                    "{}: {who} points at book/src/{file}, which does not exist",
                    c.chapter.slug
                ));
                continue;
            };
            if let Some(fragment) = fragment
                && !text
                    .lines()
                    .any(|l| heading_id(l).as_deref() == Some(fragment))
            {
                problems.push(format!(
                    "{}: {who} points at book/src/{page}, but no heading there has the id `{fragment}`",
                    c.chapter.slug
                ));
            }
        }
        for e in &c.exercises {
            if e.hints.iter().all(|h| h.trim().is_empty()) {
                problems.push(format!("{}/{} has no hints", c.chapter.slug, e.name));
            }
        }
    }
    problems
}

/// The book's Markdown pages (every `.md` under `book/src`, `SUMMARY.md`
/// included), sorted: the one walk of the book the rules that read its
/// pages share, so they see the same pages in the same order.
pub fn book_pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = Vec::new();
    markdown_files(&root.join("book/src"), &mut pages);
    pages.sort();
    pages
}

fn book(root: &Path, chapters: &[Chapter]) -> Vec<String> {
    let src = root.join("book/src");
    let pages = book_pages(root);
    let mut problems = Vec::new();
    for page in &pages {
        let Ok(text) = std::fs::read_to_string(page) else {
            continue;
        };
        let shown = page
            .strip_prefix(root)
            .unwrap_or(page)
            .display()
            .to_string();
        problems.extend(
            includes(page, &text)
                .into_iter()
                .map(|p| format!("{shown}: {p}")),
        );
        problems.extend(
            rust_blocks(&text)
                .into_iter()
                .map(|p| format!("{shown}: {p}")),
        );
    }
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap_or_default();
    for c in chapters {
        if !summary.contains(&format!("({})", c.chapter.book)) {
            problems.push(format!(
                "book/src/SUMMARY.md does not list {}",
                c.chapter.book
            ));
        }
    }
    problems
}

/// Problems with the `{{#include file:anchor}}` directives of one page.
fn includes(page: &Path, text: &str) -> Vec<String> {
    let dir = page.parent().unwrap_or(Path::new("."));
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for fold::Include { file, anchor } in fold::includes_in(line) {
            let path = dir.join(&file);
            let Ok(source) = std::fs::read_to_string(&path) else {
                problems.push(format!(
                    "line {}: includes {file}, which does not exist",
                    n + 1
                ));
                continue;
            };
            if let Some(anchor) = anchor.as_deref() {
                if anchor.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                    problems.push(format!(
                        "line {}: includes {file} by line numbers; use a named anchor",
                        n + 1
                    ));
                } else if !has_anchor(&source, anchor) {
                    problems.push(format!("line {}: {file} has no `// ANCHOR: {anchor}` ... `// ANCHOR_END: {anchor}`", n + 1));
                }
            }
        }
    }
    problems
}

fn has_anchor(source: &str, anchor: &str) -> bool {
    let open = format!("ANCHOR: {anchor}");
    let close = format!("ANCHOR_END: {anchor}");
    let trimmed = |l: &str| l.trim().trim_start_matches("//").trim().to_string();
    let start = source.lines().position(|l| trimmed(l) == open);
    let end = source.lines().position(|l| trimmed(l) == close);
    matches!((start, end), (Some(s), Some(e)) if s < e)
}

/// Every fenced `rust` block must consist of include directives only.
fn rust_blocks(text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut in_rust: Option<usize> = None;
    let mut in_other = false;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(info) = t.strip_prefix("```") {
            if in_rust.is_some() || in_other {
                in_rust = None;
                in_other = false;
            } else if info
                .split(',')
                .next()
                .is_some_and(|lang| lang.trim() == "rust")
            {
                in_rust = Some(n + 1);
            } else {
                in_other = true;
            }
            continue;
        }
        if let Some(start) = in_rust {
            let ok =
                t.is_empty() || t.starts_with("{{#include") || t.starts_with("{{#rustdoc_include");
            if !ok {
                problems.push(format!(
                    "the rust block at line {start} has code of its own at line {}; include it from a tested crate by anchor",
                    n + 1
                ));
                in_rust = Some(usize::MAX);
            }
        }
    }
    problems.retain(|p| !p.contains(&usize::MAX.to_string()));
    problems
}

fn suite(root: &Path, chapter: &Chapter) -> Result<Vec<String>> {
    let pkg = chapter.package();
    let mut problems = Vec::new();
    let reference = run_suite(root, pkg, Target::Reference)?;
    if let Some(err) = &reference.build_error {
        problems.push(format!(
            "suite {pkg} does not build against the reference:\n{err}"
        ));
        return Ok(problems);
    }
    if reference.tests.is_empty() {
        problems.push(format!("suite {pkg} has no tests"));
    }
    for (name, verdict) in &reference.tests {
        match verdict {
            Verdict::Passed => {}
            Verdict::Failed => problems.push(format!(
                "{pkg}: {name} fails against the reference: {}",
                reference
                    .messages
                    .get(name)
                    .map(String::as_str)
                    .unwrap_or("(no message)")
            )),
            Verdict::Ignored => {
                problems.push(format!("{pkg}: {name} is ignored; graded tests may not be"))
            }
        }
        if chapter.exercise_of(name).is_none() {
            problems.push(format!("{pkg}: test {name} is in no exercise's module (modules must be named after info.toml exercises)"));
        }
    }
    for e in &chapter.exercises {
        if !reference
            .tests
            .keys()
            .any(|t| t.starts_with(&format!("{}::", e.name)))
        {
            problems.push(format!("{pkg}: exercise {} has no tests", e.name));
        }
        problems.extend(filter_strays(&e.name, reference.tests.keys()).map(|t| {
            format!(
                "{pkg}: `cargo test {}` also runs {t}, a test of another exercise; rename one of them",
                e.name
            )
        }));
    }
    let stubs = run_suite(root, pkg, Target::Learner)?;
    if let Some(err) = &stubs.build_error {
        problems.push(format!("the stubs of {pkg} do not compile:\n{err}"));
        return Ok(problems);
    }
    for (name, verdict) in &stubs.tests {
        if *verdict == Verdict::Passed {
            problems.push(format!(
                "{pkg}: {name} passes against the untouched stubs, so it checks nothing"
            ));
        }
    }
    problems.extend(isolation::problems(root, chapter)?);
    Ok(problems)
}

/// The tests that `cargo test NAME` (a substring filter) runs although
/// they are not in exercise NAME's module.
fn filter_strays<'a>(
    exercise: &'a str,
    tests: impl Iterator<Item = &'a String> + 'a,
) -> impl Iterator<Item = &'a String> + 'a {
    let own = format!("{exercise}::");
    tests.filter(move |t| t.contains(exercise) && !t.starts_with(&own))
}

#[cfg(test)]
mod invariants_list {
    use super::INVARIANTS;

    /// ARCHITECTURE.md's "## Invariants" list is the one this module checks:
    /// items numbered 1..=N in order, N the length of [`INVARIANTS`], item
    /// N naming its key as (`key`).
    #[test]
    fn architecture_numbers_the_invariants_check_runs() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
        let section = text
            .split("\n## ")
            .find(|s| s.starts_with("Invariants"))
            .expect("an Invariants section");
        let mut items: Vec<(u8, String)> = Vec::new();
        for line in section.lines() {
            let numbered = line
                .split_once(". ")
                .and_then(|(n, rest)| Some((n.parse::<u8>().ok()?, rest)));
            match numbered {
                Some((n, rest)) => items.push((n, rest.to_string())),
                None => {
                    if let Some(last) = items.last_mut()
                        && line.starts_with("   ")
                    {
                        last.1.push(' ');
                        last.1.push_str(line.trim());
                    }
                }
            }
        }
        let numbers: Vec<u8> = items.iter().map(|(n, _)| *n).collect();
        let expected: Vec<u8> = INVARIANTS.iter().map(|(n, _, _)| *n).collect();
        assert_eq!(
            numbers, expected,
            "ARCHITECTURE.md's invariants are numbered as check's"
        );
        for ((n, text), (_, key, _)) in items.iter().zip(INVARIANTS) {
            assert!(
                text.contains(&format!("(`{key}`)")),
                "ARCHITECTURE.md's invariant {n} does not name its check (`{key}`): {text}"
            );
        }
    }

    /// ARCHITECTURE.md's table of a chapter's eight places says what
    /// `Chapter`'s methods return, for every chapter and no other.
    #[test]
    fn architecture_lists_each_chapters_eight_places_as_chapter_owns_them() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
        let chapters = workbook_core::info::load_chapters(root).expect("the chapters load");
        let rows: Vec<Vec<String>> = text
            .lines()
            .filter(|l| l.starts_with("| ") && l[2..].starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| {
                l.split(" | ")
                    .map(|c| c.trim_matches(['|', ' ']).to_string())
                    .collect()
            })
            .collect();
        assert_eq!(rows.len(), chapters.len(), "one row per chapter");
        for (row, c) in rows.iter().zip(&chapters) {
            let slug = &c.chapter.slug;
            let code = |p: &std::path::Path| format!("`{}`", c.shown(p));
            let expected = [
                format!("{} `{slug}`", c.chapter.number),
                code(&c.text()),
                format!("`{}/`", c.shown(&c.stub_src())),
                format!("`{}/`", c.shown(&c.reference_src())),
                code(&c.suite()),
                format!("`{}/{slug}__*`", c.shown(&c.snapshot_dir())),
                code(&c.hidden_suite()),
                code(&c.recorder()),
                format!("{}, `chapter: \"{slug}\"`", code(&c.trace_spec())),
            ];
            assert_eq!(row.as_slice(), expected.as_slice(), "chapter {slug}'s row");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rust_block_with_its_own_code_is_reported() {
        let text =
            "```rust\n{{#include a.rs:x}}\n```\n\n```rust\nfn main() {}\n```\n```text\nfree\n```\n";
        let found = rust_blocks(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("line 5"), "{found:?}");
    }

    #[test]
    fn a_filter_that_catches_another_exercises_test_is_reported() {
        let tests = [
            "count_naive::a".to_string(),
            "count_naive_traced::b".to_string(),
            "count_memo::agrees".to_string(),
        ];
        let strays: Vec<_> = filter_strays("count_naive", tests.iter()).collect();
        assert_eq!(strays, ["count_naive_traced::b"]);
        assert_eq!(filter_strays("count_memo", tests.iter()).count(), 0);
    }

    #[test]
    fn anchors_need_both_ends() {
        assert!(has_anchor("// ANCHOR: a\nx\n// ANCHOR_END: a\n", "a"));
        assert!(!has_anchor("// ANCHOR: a\nx\n", "a"));
        assert!(!has_anchor("// ANCHOR: ab\n// ANCHOR_END: ab\n", "a"));
    }
}
