//! The book in other languages (issue 23): gettext catalogues under
//! `book/po/`, one per language, kept current by `workbook book extract` and
//! enforced by `workbook check`.
//!
//! The problem: translators edit `.po` files while the English book keeps
//! changing, and a reader must never see a half-translated page presented as
//! finished. The state: `book/po/languages.toml` (which languages exist and
//! which are complete), `book/po/messages.pot` (the English pages' messages)
//! and `book/po/<lang>.po`. The cost: extraction parses every page once
//! (mdbook-i18n-helpers' own extractor); the check reads each catalogue once.
//!
//! The parts: `po.rs` reads and writes catalogues with line numbers;
//! `extract.rs` (with mdBook, `book` feature) writes the template and merges
//! each language's catalogue into it.

#[cfg(feature = "book")]
pub mod extract;
pub mod po;

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
    /// Built, published and enforced by `workbook check`.
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
