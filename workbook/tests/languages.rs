//! Every chapter's failing stubs, as a reader of each language sees them.
//!
//! The problem: a reader of the Japanese, Chinese or Russian book must not
//! be back in English the moment they run `cargo test`, and a translation
//! must never drop a value (a `{place}` left unfilled). The state: each
//! chapter's suite run against the untouched stubs in the repository, once
//! per language (`WORKBOOK_LANG`), and the loop's catalogues
//! (`book/po/loop/<lang>.po`, read through the same module the suites use).
//! For a translated language no English text of a translated message may be
//! left in what the learner reads, no placeholder may be left unfilled, and
//! the summary must be the translated one. It also prints the lines a
//! learner reads per failing test in each language (`--nocapture` shows
//! them), against English. The cost: one build of each chapter's suite
//! against its stubs, then four runs of it.

mod common;

use common::repo;
use std::process::Command;
use workbook_core::info::load_chapters;
use workbook_core::lang::{LANGUAGES, Lang};

/// What the untouched chapter `package` prints in language `code`, and
/// how many of its tests failed.
fn untouched(package: &str, folder: &str, code: &str) -> (String, usize) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = Command::new(cargo)
        .current_dir(repo())
        .args(["test", "-q", "-p", package, "--test", package])
        .env("PWD", repo().join("exercises").join(folder))
        .env("WORKBOOK_LANG", code)
        .env("WORKBOOK_CALL_SECONDS", "30")
        .env_remove("WORKBOOK_NO_SUMMARY")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let failed = stdout
        .lines()
        .find_map(|l| {
            let rest = l.strip_prefix("test result: FAILED. ")?;
            let (_, after) = rest.split_once("passed; ")?;
            after.split(' ').next()?.parse().ok()
        })
        .unwrap_or(0);
    let text = format!("{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    (text, failed)
}

/// The words of an English template between its placeholders.
fn literal_pieces(template: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        pieces.push(&rest[..open]);
        match rest[open..].find('}') {
            Some(close) => rest = &rest[open + close + 1..],
            None => break,
        }
    }
    pieces.push(rest);
    pieces
}

#[test]
fn every_chapters_failing_stubs_speak_each_language_with_every_value_in_place() {
    let root = repo();
    let chapters = load_chapters(&root).expect("the chapters load");
    let mut table = Vec::new();
    let mut problems = Vec::new();
    for chapter in &chapters {
        let package = chapter.package();
        let mut per_language = Vec::new();
        for code in LANGUAGES {
            let (text, failed) = untouched(package, &chapter.folder(), code);
            assert!(failed > 0, "{package}'s untouched stubs must fail:\n{text}");
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            per_language.push(format!("{code} {:.1}", lines as f64 / failed as f64));
            let lang = Lang::load(&root, code);
            if lang.is_english() {
                continue;
            }
            for (english, translated) in lang.translated() {
                if english == translated {
                    continue;
                }
                // The longest stretch of the English words: it cannot be
                // in the output unless the English message is.
                let piece = literal_pieces(english)
                    .into_iter()
                    .map(str::trim)
                    .max_by_key(|p| p.len())
                    .unwrap_or_default();
                if piece.len() >= 16 && text.contains(piece) {
                    problems.push(format!("{package} in {code}: English left: {piece:?}"));
                }
            }
            for name in [
                "{place}",
                "{what}",
                "{once}",
                "{n}",
                "{name}",
                "{title}",
                "{book}",
                "{message}",
            ] {
                if text.contains(name) {
                    problems.push(format!("{package} in {code}: {name} left unfilled"));
                }
            }
            let head = lang.count(
                "{n} exercise has failing tests. Start with `{name}` (book: {book}):",
                "{n} exercises have failing tests. Start with `{name}` (book: {book}):",
                2,
                &[],
            );
            let (fixed, _) = head.split_once('{').unwrap_or((&head, ""));
            let fixed = fixed
                .split(|c: char| c.is_ascii_digit())
                .next_back()
                .unwrap_or_default();
            if !fixed.trim().is_empty() && !text.contains(fixed.trim()) {
                problems.push(format!(
                    "{package} in {code}: the translated summary ({fixed:?}) is missing:\n{text}"
                ));
            }
        }
        table.push(format!(
            "{package}: lines per failing test {}",
            per_language.join(", ")
        ));
    }
    eprintln!("{}", table.join("\n"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_quoted_book_title_reads_as_the_languages_title_in_its_own_quotes() {
    let root = repo();
    let text = "(book: chapter 0, \"The recursive template\"); got \"Q\" and a lone \"";
    assert_eq!(
        Lang::english().titles_in(text),
        text,
        "English is left as written"
    );
    for (code, open, close) in [("ja", "「", "」"), ("zh-CN", "“", "”"), ("ru", "«", "»")] {
        let lang = Lang::load(&root, code);
        let title = lang.title("The recursive template");
        assert_ne!(
            title, "The recursive template",
            "{code}'s book titles the section"
        );
        let shown = lang.titles_in(text);
        assert!(
            shown.contains(&format!("{open}{title}{close}")),
            "{code}: the title in the language's quotes: {shown}"
        );
        assert!(
            shown.contains("got \"Q\" and a lone \""),
            "{code}: other quoted text and an odd quote are kept: {shown}"
        );
    }
}
