//! One language's build: the English book loaded afresh, its pages through
//! the page catalogue (`pages.rs`, mdBook-i18n-helpers' translation), its
//! players, quizzes, figures and measurement pages through the
//! `ui/<lang>.po` catalogue, into `book/book/<lang>/`; then the written
//! pages finished (the English section ids, mdBook's words in the language).
//!
//! The problem: the page catalogue's messages are extracted from the pages
//! as written (an `{{#include}}` still one line), so the translation must
//! run before mdBook's `links` preprocessor expands the includes; and a
//! language's generated HTML (players, quizzes, figures) must be translated
//! where it is included. The state: a fresh `MDBook` per language (its
//! preprocessors accumulate, so one book cannot serve two languages), whose
//! config names `gettext` and `bt-ui` to run before `links`; registering the
//! two in code then takes the places the config gave them. The cost: one
//! mdBook build per language, plus one pass over the generated HTML and one
//! over the written pages.

use super::measured;
use super::pages::{Pages, page_catalog};
use super::po::{self, Catalogue};
use super::ui::{Translator, script_messages, visit_html};
use super::{Language, page_catalogue, ui_catalogue};
use super::{chrome, ids};
use anyhow::{Context, Result, anyhow, bail};
use mdbook_driver::book::{Book, BookItem};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use std::path::{Path, PathBuf};

/// A language in the picker: its code and its own name.
pub type Picked = (String, String);

/// Reads and checks a catalogue (a malformed one is an error naming its
/// line, never a panic in the preprocessor that reads it next).
pub fn read_catalogue(path: &Path) -> Result<Catalogue> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let catalogue = po::parse(&path.display().to_string(), &text)?;
    let missing = catalogue.missing_header_fields();
    if !missing.is_empty() {
        bail!(
            "{}:1: the header lacks {} (`cargo xtask book extract` writes them)",
            path.display(),
            missing.join(", ")
        );
    }
    Ok(catalogue)
}

/// Builds `lang` into `book/book/<code>/`; returns that folder.
pub fn build_language(root: &Path, lang: &Language, picker: &[Picked]) -> Result<PathBuf> {
    let book_root = root.join("book");
    let pages = page_catalogue(root, &lang.code);
    let ui = read_catalogue(&ui_catalogue(root, &lang.code))?;
    let translator = Translator::new(&ui, &lang.code);

    let mut config = mdbook_driver::config::Config::from_disk(book_root.join("book.toml"))
        .map_err(|e| anyhow!("cannot read book/book.toml: {e:#}"))?;
    let out = book_root.join("book").join(&lang.code);
    let set = |config: &mut mdbook_driver::config::Config, key: &str, value: toml::Value| {
        config
            .set(key, value)
            .map_err(|e| anyhow!("cannot set {key} for the {} build: {e:#}", lang.code))
    };
    set(&mut config, "book.language", lang.code.clone().into())?;
    // The title in the menu bar and the tab: the pages' translation of it.
    let page_messages = read_catalogue(&pages)?;
    if let Some(title) = config.book.title.clone()
        && let Some(t) = page_messages
            .live()
            .find(|e| e.msgid == title && e.is_translated() && !e.is_fuzzy())
            .and_then(|e| e.msgstr.first())
    {
        set(&mut config, "book.title", t.clone().into())?;
    }
    set(
        &mut config,
        "build.build-dir",
        out.display().to_string().into(),
    )?;
    // The 404 page loads its styles from the site's URL: the language's own.
    let site_url = config
        .get::<String>("output.html.site-url")
        .ok()
        .flatten()
        .unwrap_or_else(|| "/".to_string());
    let site_url = format!("{}/{}/", site_url.trim_end_matches('/'), lang.code);
    set(&mut config, "output.html.site-url", site_url.into())?;
    let links = toml::Value::Array(vec!["links".into()]);
    set(&mut config, "preprocessor.gettext.before", links.clone())?;
    set(&mut config, "preprocessor.bt-ui.before", links)?;
    set(
        &mut config,
        "preprocessor.bt-ui.after",
        toml::Value::Array(vec!["gettext".into()]),
    )?;
    let mut book = mdbook_driver::MDBook::load_with_config(&book_root, config)
        .map_err(|e| anyhow!("cannot load the book for {}: {e:#}", lang.code))?;
    book.with_preprocessor(Pages {
        catalog: page_catalog(&page_messages),
    });
    book.with_preprocessor(UiPreprocessor {
        src: book_root.join("src"),
        translator,
    });
    book.build()
        .map_err(|e| anyhow!("cannot build the book in {}: {e:#}", lang.code))?;
    let ui_again = read_catalogue(&ui_catalogue(root, &lang.code))?;
    translate_plots(&out, &Translator::new(&ui_again, &lang.code))?;
    // English is built first, into the folder that holds this one.
    finish_pages(
        &out,
        &book_root.join("book"),
        &Translator::new(&ui_again, &lang.code),
    )?;
    write_script_strings(
        root,
        &out,
        Some(&Translator::new(&ui_again, &lang.code)),
        &lang.code,
        picker,
    )?;
    Ok(out)
}

/// The written pages of a language's book, finished: each page's section
/// ids made the English page's (see `ids.rs`), and the search index's
/// addresses renamed with them; mdBook's own words in the language, in the
/// pages and its scripts (`chrome.rs`).
fn finish_pages(out: &Path, english: &Path, translator: &Translator) -> Result<()> {
    let lookup = |s: &str| translator.lookup(s).map(str::to_string);
    let mut pages = Vec::new();
    html_files(out, &mut pages)?;
    let mut renamed: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for path in pages {
        let Ok(rel) = path.strip_prefix(out) else {
            continue;
        };
        let english_html = std::fs::read_to_string(english.join(rel)).unwrap_or_default();
        let written = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let html = chrome::translate_page(&written, &lookup);
        let english_ids = ids::heading_ids(&english_html);
        let (html, changed) = match ids::keep_english_ids(&html, &english_ids) {
            Some(fixed) => fixed,
            // A page English does not have (none today) has no ids to keep.
            None if english_html.is_empty() => (html, Vec::new()),
            None => {
                eprintln!(
                    "warning: {}: its sections differ from the English page's, so their ids stay translated",
                    path.display()
                );
                (html, Vec::new())
            }
        };
        if html != written {
            std::fs::write(&path, html)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if !changed.is_empty() {
            let page = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            renamed.push((page, changed));
        }
    }
    for entry in std::fs::read_dir(out)
        .with_context(|| format!("cannot list {}", out.display()))?
        .flatten()
    {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if (name.starts_with("book-") || name.starts_with("searcher-")) && name.ends_with(".js") {
            let js = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            std::fs::write(&path, chrome::translate_script(&js, &lookup))
                .with_context(|| format!("cannot write {}", path.display()))?;
            continue;
        }
        if !(name.starts_with("searchindex") && (name.ends_with(".js") || name.ends_with(".json")))
        {
            continue;
        }
        let mut index = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (page, changed) in &renamed {
            index = ids::rename_in_search_index(&index, page, changed);
        }
        std::fs::write(&path, index).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The language's copies of the plots (`svg.rs`), their words translated.
fn translate_plots(out: &Path, translator: &Translator) -> Result<()> {
    for path in super::svg::plots(out) {
        let svg = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let translated = super::svg::translate(&svg, &mut |s| translator.translate(s));
        if translated != svg {
            std::fs::write(&path, translated)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(())
}

/// Every `.html` file under `dir`.
fn html_files(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            html_files(&path, found)?;
        } else if path.extension().is_some_and(|x| x == "html") {
            found.push(path);
        }
    }
    Ok(())
}

/// Writes `assets/bt-strings.js` into a built book: the scripts' strings in
/// its language (none for English) and the picker's languages.
pub fn write_script_strings(
    root: &Path,
    out: &Path,
    translator: Option<&Translator>,
    code: &str,
    picker: &[Picked],
) -> Result<()> {
    let mut strings = serde_json::Map::new();
    if let Some(translator) = translator {
        let assets = root.join("book").join("src").join("assets");
        let mut wanted = Vec::new();
        for entry in std::fs::read_dir(&assets)
            .with_context(|| format!("cannot list {}", assets.display()))?
            .flatten()
        {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "js") {
                let js = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                wanted.extend(script_messages(&js));
            }
        }
        wanted.sort();
        wanted.dedup();
        for msgid in wanted {
            if let Some(t) = translator.lookup(&msgid) {
                strings.insert(msgid, t.to_string().into());
            }
        }
    }
    let langs: Vec<serde_json::Value> = picker
        .iter()
        .map(|(c, n)| serde_json::json!({ "code": c, "name": n }))
        .collect();
    let text = format!(
        "// Written by `cargo xtask book build` for the {code} book: the scripts' strings\n\
         // in its language and the languages of the picker (see bt-i18n.js).\n\
         window.BT_STRINGS = {};\nwindow.BT_LANGS = {};\n",
        serde_json::Value::Object(strings),
        serde_json::Value::Array(langs)
    );
    let path = out.join("assets").join("bt-strings.js");
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Replaces each `{{#include generated/NAME.html}}` line, and each
/// `{{#include PAGE.md}}` of a measurement page, with that file translated
/// through the language's `ui` catalogue, before `links` would include it
/// in English; and translates a measurement page the summary lists.
struct UiPreprocessor {
    src: PathBuf,
    translator: Translator,
}

impl Preprocessor for UiPreprocessor {
    fn name(&self) -> &str {
        "bt-ui"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> anyhow::Result<Book> {
        let mut failure = None;
        book.for_each_mut(|item| {
            let BookItem::Chapter(chapter) = item else {
                return;
            };
            let Some(source) = &chapter.source_path else {
                return;
            };
            let dir = self
                .src
                .join(source)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| self.src.clone());
            // A measurement page listed in the summary: its words are `ui`
            // messages (`measured.rs`), like the pages it includes.
            let whole = self.src.join(source);
            if std::fs::read_to_string(&whole).is_ok_and(|t| measured::is_measured(&t)) {
                chapter.content = measured::translate(
                    &chapter.content,
                    &mut |s| self.translator.translate(s),
                    &|s| self.translator.number(s),
                );
            }
            match self.translate_includes(&chapter.content, &dir, 0) {
                // Every page's bare numbers (a table's cells, written by
                // hand or by a run) in the language's convention.
                Ok(content) => {
                    chapter.content = measured::translate(&content, &mut |_| None, &|s| {
                        self.translator.number(s)
                    });
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        });
        match failure {
            Some(e) => Err(e),
            None => Ok(book),
        }
    }
}

impl UiPreprocessor {
    fn translate_includes(&self, content: &str, dir: &Path, depth: usize) -> Result<String> {
        let mut out = String::with_capacity(content.len());
        for line in content.split_inclusive('\n') {
            // An included measurement page, translated here and its own
            // includes with it (`links` would include it in English).
            let page = line
                .trim()
                .strip_prefix("{{#include ")
                .and_then(|rest| rest.strip_suffix("}}"))
                .filter(|name| name.ends_with(".md") && !name.contains(':') && depth < 4)
                .map(|name| dir.join(name))
                .filter(|path| {
                    std::fs::read_to_string(path).is_ok_and(|t| measured::is_measured(&t))
                });
            if let Some(path) = page {
                let md = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let translated =
                    measured::translate(&md, &mut |s| self.translator.translate(s), &|s| {
                        self.translator.number(s)
                    });
                let here = path
                    .parent()
                    .map_or_else(|| dir.to_path_buf(), Path::to_path_buf);
                out.push_str(&self.translate_includes(&translated, &here, depth + 1)?);
                if line.ends_with('\n') && !md.ends_with('\n') {
                    out.push('\n');
                }
                continue;
            }
            let name = line
                .trim()
                .strip_prefix("{{#include generated/")
                .and_then(|rest| rest.strip_suffix("}}"))
                .filter(|name| name.ends_with(".html") && !name.contains(['/', ':']));
            match name {
                Some(name) => {
                    let path = dir.join("generated").join(name);
                    let html = std::fs::read_to_string(&path)
                        .with_context(|| format!("cannot read {}", path.display()))?;
                    // A generated figure's number cells ("4,801,277")
                    // too, in the language's convention.
                    out.push_str(&visit_html(&html, &mut |s| {
                        self.translator
                            .translate(s)
                            .or_else(|| self.translator.number(s).filter(|n| n != s))
                    }));
                    if line.ends_with('\n') && !html.ends_with('\n') {
                        out.push('\n');
                    }
                }
                None => out.push_str(line),
            }
        }
        Ok(out)
    }
}
