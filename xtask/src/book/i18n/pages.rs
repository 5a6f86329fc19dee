//! The page catalogue as a language's build applies it: mdbook-i18n-helpers'
//! own translation of every chapter, from a catalogue made in memory.
//!
//! The problem: two things the library's `Gettext` preprocessor (which reads
//! the `.po` file itself) cannot do. Emphasis must hold between CJK
//! characters: a translation's `_..._` is given as `<em>...</em>`
//! (`emphasis.rs`), which holds anywhere. And the folded answers' `<summary>` lines are HTML blocks, which the
//! extractor skips, so `extract.rs` adds them as messages of their own and
//! this file translates them. The state: the language's page catalogue,
//! read once per build. The cost: one pass over every chapter.

use super::emphasis::html_emphasis;
use super::po::Catalogue;
use mdbook_driver::book::{Book, BookItem};
use mdbook_i18n_helpers::gettext::add_stripped_summary_translations;
use mdbook_i18n_helpers::{extract_events, reconstruct_markdown, translate_events};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use polib::catalog::Catalog;
use polib::message::Message;
use polib::metadata::CatalogMetadata;

/// `text` translated message by message, as the library's `Gettext` does.
pub fn translate_text(text: &str, catalog: &Catalog) -> anyhow::Result<String> {
    let events = extract_events(text, None);
    let translated = translate_events(&events, catalog)?;
    let (markdown, _) = reconstruct_markdown(&translated, None)?;
    Ok(markdown)
}

/// Every chapter's content and name, and every part title, translated.
pub fn translate_book(catalog: &Catalog, book: &mut Book) -> anyhow::Result<()> {
    let mut failure = None;
    book.for_each_mut(|item| {
        let result = match item {
            BookItem::Chapter(chapter) => translate_text(&chapter.content, catalog)
                .map(|content| chapter.content = content)
                .and_then(|()| translate_text(&chapter.name, catalog))
                .map(|name| chapter.name = name),
            BookItem::PartTitle(title) => translate_text(title, catalog).map(|t| *title = t),
            BookItem::Separator => Ok(()),
        };
        if let Err(e) = result {
            failure.get_or_insert(e);
        }
    });
    failure.map_or(Ok(()), Err)
}

/// The `<summary>` line of a folded answer: its text, if the line is one.
pub fn summary_text(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("<summary>")
        .and_then(|rest| rest.strip_suffix("</summary>"))
        .map(str::trim)
        .filter(|text| !text.is_empty() && !text.contains('<'))
}

/// The translations of a page catalogue, for mdbook-i18n-helpers: the
/// translated, settled messages, with their emphasis written as asterisks.
pub fn page_catalog(catalogue: &Catalogue) -> Catalog {
    let mut catalog = Catalog::new(CatalogMetadata::new());
    for entry in catalogue.live() {
        if !entry.is_translated() || entry.is_fuzzy() || entry.msgid_plural.is_some() {
            continue;
        }
        let Some(msgstr) = entry.msgstr.first() else {
            continue;
        };
        let message = Message::build_singular()
            .with_msgid(entry.msgid.clone())
            .with_msgstr(html_emphasis(&entry.msgid, msgstr))
            .with_source(entry.references.join(" "))
            .done();
        catalog.append_or_update(message);
    }
    add_stripped_summary_translations(&mut catalog);
    catalog
}

/// Runs in place of mdbook-i18n-helpers' `Gettext` (under its name, so the
/// book's config places it): the chapters, their names and the folded
/// answers' summaries, translated.
pub struct Pages {
    pub catalog: Catalog,
}

impl Pages {
    fn lookup(&self, msgid: &str) -> Option<&str> {
        self.catalog
            .find_message(None, msgid, None)
            .filter(|m| m.is_translated() && !m.is_fuzzy())
            .and_then(|m| m.msgstr().ok())
    }

    /// `content` with each `<summary>` line's text translated.
    pub fn translate_summaries(&self, content: &str) -> String {
        let mut out = String::with_capacity(content.len());
        for line in content.split_inclusive('\n') {
            match summary_text(line).and_then(|text| Some((text, self.lookup(text)?))) {
                Some((text, translation)) => out.push_str(&line.replacen(text, translation, 1)),
                None => out.push_str(line),
            }
        }
        out
    }
}

impl Preprocessor for Pages {
    fn name(&self) -> &str {
        "gettext"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> anyhow::Result<Book> {
        translate_book(&self.catalog, &mut book)?;
        book.for_each_mut(|item| {
            if let BookItem::Chapter(chapter) = item {
                chapter.content = self.translate_summaries(&chapter.content);
            }
        });
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::i18n::po;

    #[test]
    fn a_folded_answers_summary_and_cjk_emphasis_are_translated() {
        let catalogue = po::parse(
            "ja.po",
            "msgid \"\"\nmsgstr \"Language: ja\\n\"\n\n\
             msgid \"Show the reference solution\"\nmsgstr \"模範解答を見る\"\n\n\
             msgid \"It is _depth-first search_.\"\nmsgstr \"これが_深さ優先探索_です。\"\n",
        )
        .expect("parses");
        let pages = Pages {
            catalog: page_catalog(&catalogue),
        };
        let page = "It is _depth-first search_.\n\n<details>\n<summary>Show the reference solution</summary>\n\n```rust\nfn f() {}\n```\n\n</details>\n";
        let mut book = Book::new_with_items(vec![BookItem::Chapter(
            mdbook_driver::book::Chapter::new("P", page.to_string(), "p.md", Vec::new()),
        )]);
        translate_book(&pages.catalog, &mut book).expect("translates");
        let Some(BookItem::Chapter(chapter)) = book.items.first() else {
            panic!("a chapter");
        };
        let out = pages.translate_summaries(&chapter.content);
        assert!(out.contains("<summary>模範解答を見る</summary>"), "{out}");
        assert!(out.contains("これが<em>深さ優先探索</em>です。"), "{out}");
        assert!(out.contains("fn f() {}"), "{out}");
    }
}
