//! `cargo xtask book extract`: the English pages' messages into
//! `book/po/messages.pot`, and each language's `book/po/<lang>.po` merged
//! with it.
//!
//! The problem: a translator's work must survive every change to the English
//! book, and nothing a translator cannot change (code, includes, markup)
//! may sit in the catalogue as a message to "translate". The state: the
//! English book as mdBook loads it (before any preprocessor, so an
//! `{{#include}}` is still one line), the template, and each existing
//! catalogue. The cost: one parse of every page by mdbook-i18n-helpers'
//! extractor, one read and write per catalogue.
//!
//! Merging keeps every translation whose English text is still in the book
//! (and its fuzzy flag, if any); a new message arrives empty; a translation
//! whose English text left the book is kept at the end of the file as an
//! obsolete (`#~`) entry, for the translator to reuse or delete, and
//! `cargo xtask check` fails until it is gone.

use super::po::{self, Catalogue, Entry};
use super::{Language, has_text, languages, page_catalogue, po_dir, template_header, ui};
use super::{measured, pages};
use anyhow::{Context, Result, anyhow};
use mdbook_i18n_helpers::xgettext::create_catalogs;
use std::collections::HashMap;
use std::path::Path;

/// What `extract` did, for the command's report.
pub struct Extracted {
    pub messages: usize,
    pub languages: Vec<(String, usize, usize)>,
    pub ui_messages: usize,
    pub ui_languages: Vec<(String, usize, usize)>,
}

/// Regenerates `book/po/messages.pot` and merges every language's catalogue.
pub fn extract(root: &Path) -> Result<Extracted> {
    let template = page_template(root)?;
    let dir = po_dir(root);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_file(&dir.join("messages.pot"), &po::write(&template))?;
    let mut report = Vec::new();
    for lang in languages(root)? {
        let path = page_catalogue(root, &lang.code);
        let merged = merge_file(&path, &template, &lang)?;
        write_file(&path, &po::write(&merged))?;
        let translated = merged
            .live()
            .filter(|e| e.is_translated() && !e.is_fuzzy())
            .count();
        report.push((lang.code.clone(), translated, template.entries.len()));
    }
    let ui_template = ui::ui_template(root)?;
    write_file(&dir.join("ui.pot"), &po::write(&ui_template))?;
    let ui_dir = dir.join("ui");
    std::fs::create_dir_all(&ui_dir)
        .with_context(|| format!("cannot create {}", ui_dir.display()))?;
    let mut ui_report = Vec::new();
    for lang in languages(root)? {
        let path = super::ui_catalogue(root, &lang.code);
        let merged = merge_file(&path, &ui_template, &lang)?;
        write_file(&path, &po::write(&merged))?;
        let translated = merged
            .live()
            .filter(|e| e.is_translated() && !e.is_fuzzy())
            .count();
        ui_report.push((lang.code.clone(), translated, ui_template.entries.len()));
    }
    let loop_template = super::loop_messages::loop_template(root)?;
    write_file(
        &super::loop_messages::loop_template_path(root),
        &po::write(&loop_template),
    )?;
    std::fs::create_dir_all(dir.join("loop"))
        .with_context(|| format!("cannot create {}", dir.join("loop").display()))?;
    for lang in languages(root)? {
        let path = super::loop_messages::loop_catalogue(root, &lang.code);
        let merged = merge_file(&path, &loop_template, &lang)?;
        write_file(&path, &po::write(&merged))?;
    }
    Ok(Extracted {
        messages: template.entries.len(),
        languages: report,
        ui_messages: ui_template.entries.len(),
        ui_languages: ui_report,
    })
}

/// The English pages' messages, as mdbook-i18n-helpers extracts them from the
/// book before preprocessing, less the ones with nothing to translate.
pub fn page_template(root: &Path) -> Result<Catalogue> {
    let book_root = root.join("book");
    let book = mdbook_driver::MDBook::load(&book_root)
        .map_err(|e| anyhow!("cannot load the book: {e:#}"))?;
    let ctx = mdbook_renderer::RenderContext::new(
        book.root.clone(),
        book.book.clone(),
        book.config.clone(),
        book_root.join("book").join("xgettext"),
    );
    let catalogs = create_catalogs(&ctx, std::fs::read_to_string)
        .map_err(|e| anyhow!("cannot extract the book's messages: {e:#}"))?;
    // The sidebar's names, one message each, from the loaded book: the
    // extractor's own summary messages join two links on adjacent lines of
    // SUMMARY.md into one paragraph, which then matches no chapter name.
    let mut entries: Vec<Entry> = Vec::new();
    for item in book.book.iter() {
        let name = match item {
            mdbook_driver::book::BookItem::Chapter(ch) => ch.name.as_str(),
            mdbook_driver::book::BookItem::PartTitle(title) => title.as_str(),
            mdbook_driver::book::BookItem::Separator => continue,
        };
        if has_text(name) && !entries.iter().any(|e| e.msgid == name) {
            let mut entry = Entry::new(name);
            entry.references = vec!["src/SUMMARY.md".to_string()];
            entries.push(entry);
        }
    }
    // A measurement page's words are `ui` messages, with their numbers as
    // placeholders (`measured.rs`): not here, where a new run's numbers
    // would make them stale.
    let measured: Vec<String> = measured::pages(&book_root.join("src"))
        .iter()
        .filter_map(|p| p.strip_prefix(&book_root).ok())
        .map(|p| format!("{}:", p.display()))
        .collect();
    // Depth 0 (the default) puts every message in one catalogue.
    for catalog in catalogs.values() {
        for message in catalog.messages() {
            let references: Vec<String> = message
                .source()
                .split_whitespace()
                .filter(|r| !r.contains("SUMMARY.md"))
                .filter(|r| !measured.iter().any(|m| r.starts_with(m.as_str())))
                .map(str::to_string)
                .collect();
            if references.is_empty() || !has_text(message.msgid()) {
                continue;
            }
            if let Some(name) = entries.iter_mut().find(|e| e.msgid == message.msgid()) {
                name.references.extend(references);
                continue;
            }
            let mut entry = Entry::new(message.msgid());
            entry.references = references;
            entry.comments = message
                .comments()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect();
            entries.push(entry);
        }
    }
    // The folded answers' summaries: HTML blocks, which the extractor skips
    // (`pages.rs` translates them).
    for item in book.book.iter() {
        let mdbook_driver::book::BookItem::Chapter(chapter) = item else {
            continue;
        };
        let Some(source) = &chapter.source_path else {
            continue;
        };
        for (k, line) in chapter.content.lines().enumerate() {
            let Some(text) = pages::summary_text(line) else {
                continue;
            };
            let reference = format!("src/{}:{}", source.display(), k + 1);
            match entries.iter_mut().find(|e| e.msgid == text) {
                Some(entry) => entry.references.push(reference),
                None => {
                    let mut entry = Entry::new(text);
                    entry.references = vec![reference];
                    entries.push(entry);
                }
            }
        }
    }
    Ok(Catalogue {
        header: template_header(),
        entries,
    })
}

/// The catalogue at `path` (if any) merged into `template` for `lang`.
pub fn merge_file(path: &Path, template: &Catalogue, lang: &Language) -> Result<Catalogue> {
    let old = match std::fs::read_to_string(path) {
        Ok(text) => Some(po::parse(&path.display().to_string(), &text)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(anyhow!("cannot read {}: {e}", path.display())),
    };
    Ok(merge(old.as_ref(), template, lang))
}

/// `template` with the translations of `old` kept; see the module doc.
pub fn merge(old: Option<&Catalogue>, template: &Catalogue, lang: &Language) -> Catalogue {
    let mut header = old.map(|c| c.header.clone()).unwrap_or_default();
    if header.is_empty() {
        header = template.header.clone();
    }
    let mut merged = Catalogue {
        header,
        entries: Vec::new(),
    };
    for (field, value) in template_header() {
        if merged.header_field(&field).is_none() {
            merged.set_header_field(&field, &value);
        }
    }
    merged.set_header_field("Language", &lang.code);
    merged.set_header_field("Plural-Forms", &lang.plural_forms);
    merged.set_header_field("Content-Type", "text/plain; charset=UTF-8");
    let previous: HashMap<(Option<&str>, &str), &Entry> = old
        .map(|c| c.entries.iter().map(|e| (e.key(), e)).collect())
        .unwrap_or_default();
    for fresh in &template.entries {
        let mut entry = fresh.clone();
        entry.line = 0;
        if let Some(before) = previous.get(&fresh.key())
            && before.msgstr.iter().any(|s| !s.is_empty())
        {
            entry.msgstr = before.msgstr.clone();
            entry.flags = before.flags.clone();
        }
        merged.entries.push(entry);
    }
    let live: std::collections::HashSet<_> = template.entries.iter().map(Entry::key).collect();
    if let Some(old) = old {
        for gone in &old.entries {
            if !live.contains(&gone.key()) && gone.msgstr.iter().any(|s| !s.is_empty()) {
                let mut entry = gone.clone();
                entry.obsolete = true;
                entry.references.clear();
                merged.entries.push(entry);
            }
        }
    }
    merged
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn russian() -> Language {
        Language {
            code: "ru".into(),
            name: "Русский".into(),
            plural_forms: "nplurals=3; plural=0;".into(),
            complete: false,
        }
    }

    #[test]
    fn messages_with_nothing_to_translate_are_left_out() {
        assert!(!has_text("```rust\n{{#include ../a.rs:x}}\n```"));
        assert!(!has_text("{{#include generated/fig.html}}"));
        assert!(!has_text("<details>"));
        assert!(!has_text("**`solve_all`**: `solve_all`, `search`."));
        assert!(!has_text("12 345"));
        assert!(has_text("<summary>Show the reference solution</summary>"));
        assert!(has_text("The [measurements](measurements.md) show it."));
        assert!(has_text("回溯"));
    }

    #[test]
    fn merging_keeps_translations_adds_new_messages_and_marks_removed_ones_obsolete() {
        let old = po::parse(
            "ru.po",
            "msgid \"\"\nmsgstr \"Language: ru\\nLast-Translator: A\\n\"\n\n\
             msgid \"Kept\"\nmsgstr \"Оставлено\"\n\n\
             #, fuzzy\nmsgid \"Unsure\"\nmsgstr \"Неуверенно\"\n\n\
             msgid \"Gone\"\nmsgstr \"Ушло\"\n\n\
             msgid \"Never translated\"\nmsgstr \"\"\n",
        )
        .expect("parses");
        let template = Catalogue {
            header: template_header(),
            entries: ["Kept", "Unsure", "New"].map(Entry::new).to_vec(),
        };
        let merged = merge(Some(&old), &template, &russian());
        let got: Vec<_> = merged
            .entries
            .iter()
            .map(|e| {
                (
                    e.msgid.as_str(),
                    e.msgstr[0].as_str(),
                    e.is_fuzzy(),
                    e.obsolete,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("Kept", "Оставлено", false, false),
                ("Unsure", "Неуверенно", true, false),
                ("New", "", false, false),
                ("Gone", "Ушло", false, true),
            ]
        );
        assert_eq!(merged.header_field("Last-Translator"), Some("A"));
        assert_eq!(
            merged.header_field("Plural-Forms"),
            Some("nplurals=3; plural=0;")
        );
    }
}
