//! The language of the learner's loop: which one, and its words.
//!
//! The problem: the book is read in Japanese, Chinese and Russian, and the
//! loop (the suites' messages, the learner's tool) must speak the reader's
//! language too, from the same catalogues translators already fill. The
//! state: the choice, read in this order: `WORKBOOK_LANG`, the checkout's
//! remembered choice (`cargo workbook lang ja` writes `.workbook/lang`, with
//! the tool's other state, git-ignored), the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`:
//! `ja_JP.UTF-8` is `ja`), else English; and that language's loop catalogue,
//! `book/po/loop/<lang>.po` (gettext: `msgid` the English template, with
//! `{name}` placeholders the code fills; `msgid_plural` for counts). A
//! message the catalogue lacks stays English. The cost: one read of one
//! catalogue per process, then a hash lookup per message.
//!
//! This file uses only `std`: the suites (`tests/support.rs`) include it
//! with `#[path]`, since the exercise crates depend on no tool crate.

use std::collections::HashMap;
use std::fmt::Display;
use std::path::{Path, PathBuf};

/// The languages of the loop, by the codes of `book/po/languages.toml`.
pub const LANGUAGES: [&str; 4] = ["en", "ja", "zh-CN", "ru"];

/// The file, at the repository's root, that remembers the choice.
pub const REMEMBERED: &str = ".workbook/lang";

/// A language and its loop catalogue.
#[derive(Debug, Clone, Default)]
pub struct Lang {
    code: String,
    /// msgid (the singular, for a plural message) -> its translations.
    messages: HashMap<String, Vec<String>>,
    /// The book's page catalogue (`book/po/<lang>.po`): the translated
    /// titles of the sections a message names.
    pages: HashMap<String, Vec<String>>,
}

impl Lang {
    /// English: every message as written in the code.
    pub fn english() -> Lang {
        Lang {
            code: "en".into(),
            ..Lang::default()
        }
    }

    /// The learner's language in the repository at `root` (see the module
    /// doc for the order), with its catalogue.
    pub fn chosen(root: &Path) -> Lang {
        let code = choice(root, |name| std::env::var(name).ok());
        Lang::load(root, &code)
    }

    /// Language `code` with its catalogue from `root`'s `book/po/loop/`;
    /// English for an unknown code or a catalogue that cannot be read.
    pub fn load(root: &Path, code: &str) -> Lang {
        if code == "en" || !LANGUAGES.contains(&code) {
            return Lang::english();
        }
        let Ok(text) = std::fs::read_to_string(catalogue(root, code)) else {
            return Lang::english();
        };
        let pages = std::fs::read_to_string(root.join("book/po").join(format!("{code}.po")))
            .map(|t| parse(&t))
            .unwrap_or_default();
        Lang {
            code: code.to_string(),
            messages: parse(&text),
            pages,
        }
    }

    /// Each message this language translates, with its (first) translation.
    pub fn translated(&self) -> impl Iterator<Item = (&str, &str)> {
        self.messages
            .iter()
            .filter_map(|(id, forms)| Some((id.as_str(), forms.first()?.as_str())))
    }

    /// A book section's title as this language's book prints it; a title
    /// the book does not print (an exercise's own, from its `info.toml`:
    /// "Overflow: u64 that says so") as the loop's catalogue translates it.
    pub fn title<'a>(&'a self, english: &'a str) -> &'a str {
        match self.pages.get(english).and_then(|m| m.first()) {
            Some(t) if !t.is_empty() => t,
            _ => self.tr(english),
        }
    }

    /// `text` with each quoted book title (`"The naive DFS"`) given as this
    /// language's book titles it, in the language's own quotes (`「...」`,
    /// `“...”`, `«...»`): the section a message names is found by the reader
    /// under the title their book shows. Any other quoted text is kept.
    pub fn titles_in(&self, text: &str) -> String {
        if self.is_english() || !text.contains('"') {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut parts = text.split('"').peekable();
        out.push_str(parts.next().unwrap_or_default());
        let mut quoted = true;
        while let Some(part) = parts.next() {
            // A quoted part needs its closing quote: an odd last quote is
            // text.
            let closed = parts.peek().is_some();
            match (quoted && closed, self.title(part)) {
                (true, title) if title != part => out.push_str(&self.quoted(title)),
                (true, _) => {
                    out.push('"');
                    out.push_str(part);
                    out.push('"');
                }
                (false, _) if quoted => {
                    out.push('"');
                    out.push_str(part);
                }
                (false, _) => out.push_str(part),
            }
            quoted = !quoted;
        }
        out
    }

    /// `text` in this language's quotation marks.
    pub fn quoted(&self, text: &str) -> String {
        let (open, close) = match self.code.as_str() {
            "ja" => ("「", "」"),
            "zh-CN" => ("“", "”"),
            "ru" => ("«", "»"),
            _ => ("\"", "\""),
        };
        format!("{open}{text}{close}")
    }

    /// The language's code (`en`, `ja`, `zh-CN`, `ru`).
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Whether this is English.
    pub fn is_english(&self) -> bool {
        self.code == "en"
    }

    /// The translation of `msgid`, or `msgid` itself.
    pub fn tr<'a>(&'a self, msgid: &'a str) -> &'a str {
        match self.messages.get(msgid).and_then(|m| m.first()) {
            Some(t) if !t.is_empty() => t,
            _ => msgid,
        }
    }

    /// `msgid` translated, its `{name}` placeholders filled from `args`.
    pub fn fill(&self, msgid: &str, args: &[(&str, &dyn Display)]) -> String {
        substitute(self.tr(msgid), args)
    }

    /// A count's message: `one` or `many` (English), or the language's own
    /// plural form for `n`; `{n}` is the count, written as the language
    /// writes numbers, and `args` fill the rest.
    pub fn count(&self, one: &str, many: &str, n: u64, args: &[(&str, &dyn Display)]) -> String {
        let form = self
            .messages
            .get(one)
            .and_then(|forms| forms.get(plural_form(&self.code, n)))
            .filter(|t| !t.is_empty())
            .map(String::as_str)
            .unwrap_or(if n == 1 { one } else { many });
        let shown = self.number(n);
        let mut all: Vec<(&str, &dyn Display)> = vec![("n", &shown)];
        all.extend_from_slice(args);
        substitute(form, &all)
    }

    /// `n` as the language writes a count: Russian groups thousands with a
    /// no-break space from 10 000 on; the others write the digits alone.
    pub fn number(&self, n: u64) -> String {
        let digits = n.to_string();
        if self.code != "ru" || n < 10_000 {
            return digits;
        }
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push('\u{a0}');
            }
            out.push(c);
        }
        out
    }

    /// The language's part of the book's site: `""` for English, else
    /// `"ja/"` and the like.
    pub fn site_dir(&self) -> String {
        if self.is_english() {
            String::new()
        } else {
            format!("{}/", self.code)
        }
    }
}

/// The path of language `code`'s loop catalogue.
pub fn catalogue(root: &Path, code: &str) -> PathBuf {
    root.join("book/po/loop").join(format!("{code}.po"))
}

/// The language chosen, reading the environment through `var`.
pub fn choice(root: &Path, var: impl Fn(&str) -> Option<String>) -> String {
    if let Some(code) = var("WORKBOOK_LANG").as_deref().and_then(from_locale) {
        return code.to_string();
    }
    if let Some(code) = std::fs::read_to_string(root.join(REMEMBERED))
        .ok()
        .as_deref()
        .map(str::trim)
        .and_then(from_locale)
    {
        return code.to_string();
    }
    // POSIX order: the first of these that is set and not empty decides.
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .filter_map(&var)
        .find(|v| !v.is_empty())
        .as_deref()
        .and_then(from_locale)
        .unwrap_or("en")
        .to_string()
}

/// The loop's language for a code or a locale name (`ja`, `ja_JP.UTF-8`,
/// `zh-CN`, `zh_CN.utf8`, `ru_RU`, `en_GB`, `C`), if it is one of ours.
pub fn from_locale(name: &str) -> Option<&'static str> {
    let base = name.split(['.', '@']).next().unwrap_or_default();
    let language = base.split(['_', '-']).next().unwrap_or_default();
    match language.to_ascii_lowercase().as_str() {
        "en" | "c" | "posix" => Some("en"),
        "ja" => Some("ja"),
        "zh" => Some("zh-CN"),
        "ru" => Some("ru"),
        _ => None,
    }
}

/// gettext's plural form index of `n` in language `code` (the rules of
/// `book/po/languages.toml`).
pub fn plural_form(code: &str, n: u64) -> usize {
    match code {
        "ja" | "zh-CN" => 0,
        "ru" => {
            if n % 10 == 1 && n % 100 != 11 {
                0
            } else if (2..=4).contains(&(n % 10)) && !(12..=14).contains(&(n % 100)) {
                1
            } else {
                2
            }
        }
        _ => usize::from(n != 1),
    }
}

/// `template` with each `{name}` of `args` replaced by its value; any other
/// brace is kept as written.
pub fn substitute(template: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let filled = after.find('}').and_then(|close| {
            let name = &after[..close];
            let (_, value) = args.iter().find(|(n, _)| *n == name)?;
            Some((value.to_string(), close))
        });
        match filled {
            Some((value, close)) => {
                out.push_str(&value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The id mdBook gives a Markdown heading line: lower case, spaces to
/// dashes, other punctuation dropped.
pub fn heading_id(line: &str) -> Option<String> {
    let title = line.strip_prefix('#')?.trim_start_matches('#').trim();
    Some(
        title
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
                _ => None,
            })
            .collect(),
    )
}

/// The title `SUMMARY.md` gives the page `file`: `- [Title](file)`.
pub fn summary_title(summary: &str, file: &str) -> Option<String> {
    let link = format!("]({file})");
    summary.lines().find_map(|l| {
        let end = l.find(&link)?;
        let start = l[..end].rfind('[')?;
        Some(l[start + 1..end].to_string())
    })
}

/// The text of the heading whose mdBook id is `id`.
pub fn section_title(page: &str, id: &str) -> Option<String> {
    page.lines().find_map(|l| {
        let title = l.strip_prefix('#')?.trim_start_matches('#').trim();
        (heading_id(l).as_deref() == Some(id)).then(|| title.to_string())
    })
}

/// The English title of a book place (`apples/practice.md#some-section`,
/// relative to `book/src` of the repository at `root`): its section's
/// heading when it names one, else the page's title in `SUMMARY.md`.
pub fn book_title(root: &Path, place: &str) -> Option<String> {
    let (file, fragment) = place
        .split_once('#')
        .map_or((place, None), |(f, a)| (f, Some(a)));
    if let Some(id) = fragment {
        let text = std::fs::read_to_string(root.join("book/src").join(file)).ok()?;
        if let Some(title) = section_title(&text, id) {
            return Some(title);
        }
    }
    let summary = std::fs::read_to_string(root.join("book/src/SUMMARY.md")).ok()?;
    summary_title(&summary, file)
}

/// The live, non-fuzzy messages of a `.po` file's text (a reader for this
/// module's needs; `cargo xtask check` holds catalogues to the full rules).
pub fn parse(text: &str) -> HashMap<String, Vec<String>> {
    #[derive(PartialEq)]
    enum Part {
        None,
        Id,
        Plural,
        Str(usize),
    }
    let mut messages = HashMap::new();
    let (mut id, mut strs, mut fuzzy, mut part) =
        (String::new(), Vec::<String>::new(), false, Part::None);
    let mut finish = |id: &mut String, strs: &mut Vec<String>, fuzzy: &mut bool| {
        if !id.is_empty() && !*fuzzy && strs.iter().any(|s| !s.is_empty()) {
            messages.insert(std::mem::take(id), std::mem::take(strs));
        }
        id.clear();
        strs.clear();
        *fuzzy = false;
    };
    for line in text.lines().map(str::trim) {
        if line.starts_with("#,") && line.contains("fuzzy") {
            fuzzy = true;
        } else if line.starts_with('#') || line.is_empty() {
            if part != Part::None && line.is_empty() {
                finish(&mut id, &mut strs, &mut fuzzy);
                part = Part::None;
            }
        } else if let Some(rest) = line.strip_prefix("msgid_plural ") {
            let _ = rest;
            part = Part::Plural;
        } else if let Some(rest) = line.strip_prefix("msgid ") {
            if matches!(part, Part::Str(_)) {
                let keep = fuzzy;
                finish(&mut id, &mut strs, &mut fuzzy);
                fuzzy = keep;
            }
            id = unquote(rest);
            part = Part::Id;
        } else if let Some(rest) = line.strip_prefix("msgstr") {
            let (index, value) = match rest.strip_prefix('[') {
                Some(r) => {
                    let (n, v) = r.split_once(']').unwrap_or(("0", r));
                    (n.parse().unwrap_or(0), v)
                }
                None => (0, rest),
            };
            if strs.len() <= index {
                strs.resize(index + 1, String::new());
            }
            strs[index] = unquote(value.trim());
            part = Part::Str(index);
        } else if line.starts_with('"') {
            let more = unquote(line);
            match part {
                Part::Id => id.push_str(&more),
                Part::Str(i) => strs[i].push_str(&more),
                Part::Plural | Part::None => {}
            }
        }
    }
    finish(&mut id, &mut strs, &mut fuzzy);
    messages
}

/// A `.po` string's text, its escapes undone.
fn unquote(quoted: &str) -> String {
    let inner = quoted
        .trim()
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or_default();
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}
