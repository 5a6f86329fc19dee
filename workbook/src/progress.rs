//! The learner's view: which exercises pass, what to do next, and hints.
//!
//! Progress is never stored as a claim: it is the verdict of the chapter's
//! suite run against the learner's crate, grouped by exercise (a test
//! `count_memo::x` belongs to exercise `count_memo`). Only the number of
//! hints already shown is remembered, in `.workbook/hints` (git-ignored).

use anyhow::{Result, bail};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use workbook_core::info::{Chapter, Exercise};
use workbook_core::lang::Lang;
use workbook_core::names::{self, Named};
use workbook_core::runner::{SuiteRun, Target, run_suite};

/// How far one exercise got.
pub struct Status {
    pub passed: usize,
    pub total: usize,
}

impl Status {
    pub fn done(&self) -> bool {
        self.total > 0 && self.passed == self.total
    }
}

/// Each exercise's status in one suite run.
pub fn statuses<'a>(chapter: &'a Chapter, run: &SuiteRun) -> Vec<(&'a Exercise, Status)> {
    chapter
        .exercises
        .iter()
        .map(|e| {
            let prefix = format!("{}::", e.name);
            let mine: Vec<_> = run
                .tests
                .keys()
                .filter(|t| t.starts_with(&prefix))
                .collect();
            let passed = mine.iter().filter(|t| run.passed(t)).count();
            (
                e,
                Status {
                    passed,
                    total: mine.len(),
                },
            )
        })
        .collect()
}

pub fn show(root: &Path, chapters: &[Chapter]) -> Result<ExitCode> {
    let lang = Lang::chosen(root);
    let mut next: Option<(String, String)> = None;
    let (mut done, mut total) = (0, 0);
    for chapter in chapters {
        println!(
            "{}",
            lang.fill(
                "Chapter {number}: {title}",
                &[
                    ("number", &chapter.chapter.number),
                    ("title", &lang.title(&chapter.chapter.title)),
                ]
            )
        );
        eprintln!(
            "{}",
            lang.fill(
                "  (running the {package} suite...)",
                &[("package", &chapter.package())]
            )
        );
        let run = run_suite(root, chapter.package(), Target::Learner)?;
        if let Some(err) = &run.build_error {
            println!(
                "{}\n{}",
                lang.tr("  ✗ does not compile yet (the compiler's errors are in English):"),
                indent(first_lines(err, 12), 6)
            );
            total += chapter.exercises.len();
            next.get_or_insert_with(|| {
                (
                    chapter.folder(),
                    lang.tr("fix the compile error above").to_string(),
                )
            });
            continue;
        }
        for (exercise, status) in statuses(chapter, &run) {
            total += 1;
            let mark = if status.done() { "✓" } else { "✗" };
            let tests = format!("{}/{}", status.passed, status.total);
            let tests = lang.fill("{passed} tests", &[("passed", &format!("{tests:>5}"))]);
            println!(
                "  {mark} {:<22} {tests}  {}",
                exercise.name,
                lang.title(&exercise.title)
            );
            if status.done() {
                done += 1;
            } else if next.is_none() {
                let failing = run
                    .messages
                    .iter()
                    .find(|(t, _)| t.starts_with(&format!("{}::", exercise.name)));
                let why = failing.map(|(t, m)| {
                    format!(
                        "{}\n{}",
                        lang.fill("first failing test: {test}", &[("test", t)]),
                        indent(first_lines(m, 8), 4)
                    )
                });
                next = Some((
                    chapter.folder(),
                    format!(
                        "{}\n{}",
                        lang.fill(
                            "exercise `{name}` ({title}); read {page}",
                            &[
                                ("name", &exercise.name),
                                ("title", &lang.title(&exercise.title)),
                                ("page", &names::page_in(root, &exercise.book, &lang)),
                            ]
                        ),
                        why.unwrap_or_default()
                    ),
                ));
            }
        }
    }
    println!(
        "\n{}",
        lang.fill(
            "{done}/{total} exercises done.",
            &[("done", &done), ("total", &total)]
        )
    );
    match next {
        None => println!("{}", lang.tr("Everything passes. Well done!")),
        Some((folder, what)) => {
            println!("{}", lang.fill("Next: {what}", &[("what", &what)]));
            println!(
                "{}",
                lang.fill(
                    "Run `cd exercises/{folder} && cargo test`, or `cargo workbook hint` for a hint.",
                    &[("folder", &folder)]
                )
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .collect::<Vec<_>>()
        .join("\n")
}

fn indent(text: String, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Prints the next hint of an exercise (or all of them). `words` names an
/// exercise, a chapter (its first unfinished exercise), `chapter/exercise`
/// or `chapter exercise`; none means the first unfinished exercise overall.
pub fn hint(root: &Path, chapters: &[Chapter], words: &[String], all: bool) -> Result<ExitCode> {
    let (chapter, exercise) = if words.is_empty() {
        first_unfinished(root, chapters)?
    } else {
        match names::resolve_here(root, chapters, words, crate::words::lang())? {
            Named::Exercise(c, e) => (c, e),
            Named::Chapter(c) => first_unfinished(root, std::slice::from_ref(c))?,
        }
    };
    let key = format!("{}/{}", chapter.chapter.slug, exercise.name);
    let state_path = root.join(".workbook").join("hints");
    let mut shown = read_state(&state_path);
    let count = if all {
        exercise.hints.len()
    } else {
        (shown.get(&key).copied().unwrap_or(0) + 1).min(exercise.hints.len())
    };
    shown.insert(key.clone(), count);
    write_state(&state_path, &shown)?;
    let lang = Lang::chosen(root);
    println!(
        "{}",
        lang.fill(
            "Hints for {key} ({title})",
            &[("key", &key), ("title", &lang.title(&exercise.title))]
        )
    );
    println!(
        "{}",
        lang.fill(
            "Book: {page}",
            &[("page", &names::page_in(root, &exercise.book, &lang))]
        )
    );
    for (i, h) in exercise.hints.iter().take(count).enumerate() {
        println!("  {}. {}", i + 1, lang.tr(h));
    }
    if count < exercise.hints.len() {
        println!(
            "{}",
            lang.fill(
                "({more} more: ask again)",
                &[("more", &(exercise.hints.len() - count))]
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn first_unfinished<'a>(
    root: &Path,
    chapters: &'a [Chapter],
) -> Result<(&'a Chapter, &'a Exercise)> {
    for chapter in chapters {
        eprintln!(
            "{}",
            Lang::chosen(root).fill(
                "(running the {package} suite to find your next exercise...)",
                &[("package", &chapter.package())]
            )
        );
        let run = run_suite(root, chapter.package(), Target::Learner)?;
        if run.build_error.is_some() {
            // Nothing passes yet: the first exercise is the one to start.
            if let Some(e) = chapter.exercises.first() {
                return Ok((chapter, e));
            }
        }
        if let Some((e, _)) = statuses(chapter, &run).into_iter().find(|(_, s)| !s.done()) {
            return Ok((chapter, e));
        }
    }
    let lang = crate::words::lang();
    match chapters {
        [one] => bail!(
            "{}",
            lang.fill(
                "every exercise of chapter {chapter} passes; name one to see its hints",
                &[("chapter", &one.chapter.slug)]
            )
        ),
        _ => bail!(
            "{}",
            lang.tr("every exercise passes; name one to see its hints")
        ),
    }
}

fn read_state(path: &Path) -> BTreeMap<String, usize> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            l.split_once(' ')
                .and_then(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        })
        .collect()
}

fn write_state(path: &Path, state: &BTreeMap<String, usize>) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text: String = state.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
    std::fs::write(path, text)?;
    Ok(())
}
