//! The tool's errors, in the learner's language.
//!
//! The problem: a learner who chose Japanese (`WORKBOOK_LANG=ja` or `cargo
//! workbook lang ja`) and mistyped a name was back in English at the worst
//! moment: `error: no exercise or chapter ...`. The state: the `workbook`
//! binary run in the repository on the mistakes a learner makes (an unknown
//! exercise for `hint` and `trace`, an exercise a chapter lacks, an unknown
//! chapter for `run`, an unknown language for `lang`, an unknown command, a
//! maintainer's command), once per language. Each must end with exit status
//! 2 and, in a translated language, no English word outside the values the
//! learner typed or the tool lists (names in backticks, chapter and exercise
//! names); English itself is run through the same check as a control, which
//! must find English there. The cost: seven short runs per language, none
//! of which builds or runs a suite (each fails while reading the names).

mod common;

use common::repo;
use std::process::Command;
use workbook_core::info::load_chapters;
use workbook_core::lang::LANGUAGES;

/// The learner's mistakes, as the words after `cargo workbook`.
const MISTAKES: [&[&str]; 7] = [
    &["hint", "no_such_exercise"],
    &["trace", "no_such_search"],
    &["hint", "intro", "dfs_recursiv"],
    &["run", "no_such_chapter"],
    &["lang", "xx"],
    &["frobnicate"],
    &["grade", "submissions"],
];

/// What `workbook ARGS` writes on standard error in language `code`.
fn error_of(args: &[&str], code: &str) -> String {
    let run = Command::new(env!("CARGO_BIN_EXE_workbook"))
        .current_dir(repo())
        .args(args)
        .env("WORKBOOK_LANG", code)
        .output()
        .expect("the tool runs");
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(
        run.status.code(),
        Some(2),
        "{args:?} in {code} is an error: {said}"
    );
    said
}

/// The English words of `text`: runs of three or more ASCII letters left
/// once backticked spans, file names and paths (`README.md`,
/// `exercises/NN_slug`) and the workbook's own names are taken out.
fn english_words(text: &str, names: &[String]) -> Vec<String> {
    let mut outside = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            outside.push_str(part);
            outside.push(' ');
        }
    }
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let chars: Vec<char> = outside.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !word(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && word(chars[i]) {
            i += 1;
        }
        let w: String = chars[start..i].iter().collect();
        let before = start.checked_sub(1).map(|b| chars[b]);
        let after = chars.get(i).copied();
        let after_next = chars.get(i + 1).copied();
        let in_path = matches!(before, Some('/' | '.'))
            || after == Some('/')
            || (after == Some('.') && after_next.is_some_and(|c| c.is_ascii_alphabetic()));
        if !in_path
            && !names.contains(&w)
            && w.len() >= 3
            && w.chars().all(|c| c.is_ascii_alphabetic())
        {
            found.push(w);
        }
    }
    found
}

#[test]
fn every_error_a_learner_meets_by_a_typo_is_in_their_language_with_its_prefix() {
    let root = repo();
    let chapters = load_chapters(&root).expect("the chapters load");
    let mut names: Vec<String> = Vec::new();
    for c in &chapters {
        names.push(c.chapter.slug.clone());
        names.extend(c.exercises.iter().map(|e| e.name.clone()));
    }
    let mut problems = Vec::new();
    for code in LANGUAGES {
        let lang = workbook_core::lang::Lang::load(&root, code);
        let prefix = lang.fill("error: {error}", &[("error", &"")]);
        for args in MISTAKES {
            let said = error_of(args, code);
            if !said.starts_with(&prefix) {
                problems.push(format!("{code} {args:?}: not `{prefix}...`: {said}"));
            }
            let english = english_words(&said, &names);
            match (code, english.is_empty()) {
                ("en", true) => problems.push(format!(
                    "the English control found no English in {args:?}: {said}"
                )),
                ("en", false) | (_, true) => {}
                (_, false) => {
                    problems.push(format!("{code} {args:?}: English {english:?} in: {said}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
