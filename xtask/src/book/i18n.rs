//! The book in other languages (issue 23): gettext catalogues under
//! `book/po/`, one per language, kept current by `cargo xtask book extract` and
//! enforced by `cargo xtask check`.
//!
//! The problem: translators edit `.po` files while the English book keeps
//! changing, and a reader must never see a half-translated page presented as
//! finished. The state: `book/po/languages.toml` (which languages exist and
//! which are complete), `book/po/messages.pot` (the English pages' messages)
//! and `book/po/<lang>.po`. The cost: extraction parses every page once
//! (mdbook-i18n-helpers' own extractor); the check reads each catalogue once.
//!
//! The parts: `placeholders.rs` (numbers as placeholders, shared by `ui.rs`
//! and `measured.rs`); `po.rs` reads and writes catalogues with line numbers;
//! `extract.rs` (with mdBook) writes the templates and merges
//! each language's catalogues into them; `ui.rs` the players', quizzes' and
//! figures' messages (every number a placeholder), with `measured.rs` (the
//! pages a measurement run writes) and `chrome.rs` (mdBook's own words);
//! `loop_messages.rs` the learner's loop (the tool's and the suites' words,
//! `loop.pot` and `loop/<lang>.po`);
//! `build.rs` one language's build, through `pages.rs` (the page catalogue
//! applied, with `emphasis.rs`) and then `ids.rs` (the English section ids
//! kept in the written pages);
//! [`files_under`] here is the one folder walk that finds the plots
//! (`svg.rs`) and the measurement pages (`measured.rs`).

pub mod build;
pub mod chrome;
pub mod emphasis;
pub mod extract;
pub mod ids;
pub mod loop_messages;
pub mod measured;
pub mod pages;
pub mod placeholders;
pub mod po;
pub mod svg;
pub mod ui;

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One of the book's languages besides English.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Language {
    /// The BCP 47 tag: the folder under `book/book/`, the `.po` file's name,
    /// `<html lang>`.
    pub code: String,
    /// The language's own name, as the picker shows it.
    pub name: String,
    /// The catalogue's `Plural-Forms` header.
    pub plural_forms: String,
    /// Built, published and enforced by `cargo xtask check`.
    #[serde(default)]
    pub complete: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguagesFile {
    #[serde(default)]
    language: Vec<Language>,
}

/// The folder of the catalogues.
pub fn po_dir(root: &Path) -> PathBuf {
    root.join("book").join("po")
}

/// The page catalogue of `lang`.
pub fn page_catalogue(root: &Path, lang: &str) -> PathBuf {
    po_dir(root).join(format!("{lang}.po"))
}

/// The player, quiz and figure catalogue of `lang`.
pub fn ui_catalogue(root: &Path, lang: &str) -> PathBuf {
    po_dir(root).join("ui").join(format!("{lang}.po"))
}

/// The template's header. No creation date: the template changes only when
/// the English text does, so a `git diff` of it shows what to translate.
pub fn template_header() -> Vec<(String, String)> {
    [
        ("Project-Id-Version", "Backtracking by Hand"),
        ("POT-Creation-Date", ""),
        ("PO-Revision-Date", ""),
        ("Last-Translator", ""),
        ("Language-Team", ""),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
        ("Language", ""),
        ("Plural-Forms", ""),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// Whether a message has anything a translator could change: a letter left
/// once code spans, `{{#...}}` directives, HTML tags and fenced code are
/// taken away. Untranslated messages are built as their English source, so
/// leaving these out changes no page and lets the check demand that every
/// entry be translated.
pub fn has_text(msgid: &str) -> bool {
    let trimmed = msgid.trim_start();
    if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
        return false;
    }
    let mut rest = String::with_capacity(msgid.len());
    let mut chars = msgid.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => {
                // A code span: up to the next backquote.
                for d in chars.by_ref() {
                    if d == '`' {
                        break;
                    }
                }
            }
            '<' => {
                for d in chars.by_ref() {
                    if d == '>' {
                        break;
                    }
                }
            }
            '{' if chars.peek() == Some(&'{') => {
                let mut last = ' ';
                for d in chars.by_ref() {
                    if d == '}' && last == '}' {
                        break;
                    }
                    last = d;
                }
            }
            c => rest.push(c),
        }
    }
    rest.chars().any(char::is_alphabetic)
}

/// The languages `book/po/languages.toml` lists.
pub fn languages(root: &Path) -> Result<Vec<Language>> {
    let path = po_dir(root).join("languages.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let file: LanguagesFile = toml::from_str(&text)
        .with_context(|| format!("{}: not a valid language list", path.display()))?;
    for (i, lang) in file.language.iter().enumerate() {
        let ok = !lang.code.is_empty()
            && lang
                .code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !ok {
            bail!(
                "{}: language {} has the code {:?}; a code is letters, digits and `-` (ja, zh-CN)",
                path.display(),
                i + 1,
                lang.code
            );
        }
        if lang.code == "en" || file.language[..i].iter().any(|l| l.code == lang.code) {
            bail!(
                "{}: the language {:?} is listed twice (English is the source, not listed)",
                path.display(),
                lang.code
            );
        }
    }
    Ok(file.language)
}

/// Every file under `src`, at any depth, that `keep` accepts, sorted: the
/// one walk behind the plots (`svg.rs`) and the measurement pages
/// (`measured.rs`). A folder that cannot be read holds nothing.
pub fn files_under(src: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, keep, found);
            } else if keep(&path) {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(src, &keep, &mut found);
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_under_a_folder_are_found_at_every_depth_filtered_and_sorted() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for f in ["b.svg", "a/c.svg", "a/d.md", "a/e/f.svg"] {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
            std::fs::write(&path, "").expect("a file");
        }
        let svg = files_under(dir.path(), |p| p.extension().is_some_and(|x| x == "svg"));
        let names: Vec<_> = svg
            .iter()
            .map(|p| p.strip_prefix(dir.path()).expect("under it"))
            .collect();
        assert_eq!(names, ["a/c.svg", "a/e/f.svg", "b.svg"].map(Path::new));
        assert!(files_under(&dir.path().join("missing"), |_| true).is_empty());
    }
}
