//! Reading and writing gettext catalogues (`.po`, `.pot`) with line numbers.
//!
//! The problem: `cargo xtask check` must name the file and line of a missing,
//! fuzzy, stale or broken message, and a translator's half-edited file must
//! give an error, never a panic. `polib` (what mdbook-i18n-helpers uses)
//! keeps no line numbers, skips obsolete (`#~`) entries silently and panics
//! on some malformed lines, so the tool reads catalogues here and hands
//! `polib` only files this reader has accepted. The state: one [`Entry`] per
//! message, with the line of its `msgid`. The cost: one pass over the file.

use anyhow::{Result, bail};
use std::fmt::Write as _;

/// One message of a catalogue.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    /// The 1-based line of the entry's `msgid` (or `#~ msgid`).
    pub line: usize,
    /// `#.` lines: notes for translators, written by the extractor.
    pub comments: Vec<String>,
    /// `#:` lines: where the English text is.
    pub references: Vec<String>,
    /// `#,` flags such as `fuzzy`.
    pub flags: Vec<String>,
    pub msgctxt: Option<String>,
    pub msgid: String,
    pub msgid_plural: Option<String>,
    /// One string for a singular message, one per plural form otherwise.
    pub msgstr: Vec<String>,
    /// An obsolete (`#~`) entry: its English text is no longer in the book.
    pub obsolete: bool,
}

impl Entry {
    /// A message with this English text and no translation yet.
    pub fn new(msgid: &str) -> Entry {
        Entry {
            msgid: msgid.to_string(),
            msgstr: vec![String::new()],
            ..Entry::default()
        }
    }

    pub fn is_fuzzy(&self) -> bool {
        self.flags.iter().any(|f| f == "fuzzy")
    }

    /// Every form has a translation.
    pub fn is_translated(&self) -> bool {
        !self.msgstr.is_empty() && self.msgstr.iter().all(|s| !s.is_empty())
    }

    /// What identifies the message: its context and its English text.
    pub fn key(&self) -> (Option<&str>, &str) {
        (self.msgctxt.as_deref(), &self.msgid)
    }
}

/// A whole catalogue: its header (the `msgid ""` entry's text) and messages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalogue {
    /// The header's fields, in order (`Language`, `Plural-Forms`, ...).
    pub header: Vec<(String, String)>,
    pub entries: Vec<Entry>,
}

impl Catalogue {
    pub fn header_field(&self, name: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a header field, keeping its place if it is already there.
    pub fn set_header_field(&mut self, name: &str, value: &str) {
        match self
            .header
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(field) => field.1 = value.to_string(),
            None => self.header.push((name.to_string(), value.to_string())),
        }
    }

    /// The messages still in the book (not obsolete).
    pub fn live(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| !e.obsolete)
    }
}

/// The header fields every catalogue carries: gettext's standard header,
/// which the `polib` reader behind the `Gettext` preprocessor requires
/// (it panics on a catalogue without them, so the build checks first).
pub const HEADER_FIELDS: &[&str] = &[
    "Project-Id-Version",
    "POT-Creation-Date",
    "PO-Revision-Date",
    "Last-Translator",
    "Language-Team",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
    "Language",
    "Plural-Forms",
];

impl Catalogue {
    /// The standard header fields this catalogue lacks.
    pub fn missing_header_fields(&self) -> Vec<&'static str> {
        HEADER_FIELDS
            .iter()
            .copied()
            .filter(|f| self.header_field(f).is_none())
            .collect()
    }
}

/// Which field a continuation line (`"..."`) extends.
#[derive(Clone, Copy)]
enum Field {
    None,
    Ctxt,
    Id,
    IdPlural,
    Str(usize),
}

/// Parses a catalogue; `name` is the file's name for error messages.
pub fn parse(name: &str, text: &str) -> Result<Catalogue> {
    let mut catalogue = Catalogue::default();
    let mut current = Entry::default();
    let mut started = false; // `current` has a msgid (or any line of its own)
    let mut has_id = false;
    let mut field = Field::None;
    let mut header_seen = false;

    let mut finish = |current: &mut Entry,
                      started: &mut bool,
                      has_id: &mut bool,
                      catalogue: &mut Catalogue,
                      at: usize|
     -> Result<()> {
        if !*started {
            return Ok(());
        }
        if !*has_id {
            bail!(
                "{name}:{at}: an entry without a msgid (comments or flags with no message after them)"
            );
        }
        let entry = std::mem::take(current);
        if entry.msgstr.is_empty() {
            bail!("{name}:{}: the message has no msgstr", entry.line);
        }
        if entry.msgid.is_empty() && entry.msgctxt.is_none() && !entry.obsolete {
            if header_seen {
                bail!("{name}:{}: a second header (msgid \"\")", entry.line);
            }
            header_seen = true;
            catalogue.header = parse_header(name, entry.line, &entry.msgstr[0])?;
        } else {
            catalogue.entries.push(entry);
        }
        *started = false;
        *has_id = false;
        Ok(())
    };

    for (index, raw) in text.lines().enumerate() {
        let lineno = index + 1;
        let line = raw.trim_end_matches('\r');
        let (obsolete, body) = match line.strip_prefix("#~") {
            Some(rest) => (true, rest.trim_start()),
            None => (false, line.trim_start()),
        };
        if body.is_empty() {
            if !obsolete {
                finish(
                    &mut current,
                    &mut started,
                    &mut has_id,
                    &mut catalogue,
                    lineno,
                )?;
                field = Field::None;
            }
            continue;
        }
        // A comment, flag, reference, msgctxt or msgid after the message's
        // text starts the next entry (gettext allows no blank line between).
        let keyword = body
            .split_once(char::is_whitespace)
            .map_or(body, |(k, _)| k);
        let starts_entry = body.starts_with("#.")
            || body.starts_with("#:")
            || body.starts_with("#,")
            || keyword == "msgctxt"
            || keyword == "msgid";
        if starts_entry && has_id {
            finish(
                &mut current,
                &mut started,
                &mut has_id,
                &mut catalogue,
                lineno,
            )?;
        }
        if obsolete {
            current.obsolete = true;
        }
        if let Some(rest) = body.strip_prefix("#.") {
            current.comments.push(rest.trim().to_string());
            started = true;
        } else if let Some(rest) = body.strip_prefix("#:") {
            current
                .references
                .extend(rest.split_whitespace().map(str::to_string));
            started = true;
        } else if let Some(rest) = body.strip_prefix("#,") {
            current.flags.extend(
                rest.split(',')
                    .map(str::trim)
                    .filter(|f| !f.is_empty())
                    .map(str::to_string),
            );
            started = true;
        } else if body.starts_with('#') {
            // A translator's comment (`# ...`) or a previous msgid (`#|`):
            // kept by nobody, harmless.
        } else if let Some(rest) = body.strip_prefix('"') {
            let text = quoted(name, lineno, rest)?;
            match field {
                Field::None => {
                    bail!("{name}:{lineno}: a quoted line that continues no msgid or msgstr")
                }
                Field::Ctxt => current.msgctxt.get_or_insert_default().push_str(&text),
                Field::Id => current.msgid.push_str(&text),
                Field::IdPlural => current.msgid_plural.get_or_insert_default().push_str(&text),
                Field::Str(i) => current.msgstr[i].push_str(&text),
            }
        } else {
            let rest = body[keyword.len()..].trim_start();
            let value = match rest.strip_prefix('"') {
                Some(r) => quoted(name, lineno, r)?,
                None => bail!("{name}:{lineno}: `{keyword}` must be followed by a quoted string"),
            };
            match keyword {
                "msgctxt" => {
                    current.msgctxt = Some(value);
                    field = Field::Ctxt;
                    started = true;
                }
                "msgid" => {
                    current.msgid = value;
                    current.line = lineno;
                    field = Field::Id;
                    started = true;
                    has_id = true;
                }
                "msgid_plural" if has_id => {
                    current.msgid_plural = Some(value);
                    field = Field::IdPlural;
                }
                "msgstr"
                    if has_id && current.msgid_plural.is_none() && current.msgstr.is_empty() =>
                {
                    current.msgstr.push(value);
                    field = Field::Str(0);
                }
                k if has_id && current.msgid_plural.is_some() && k.starts_with("msgstr[") => {
                    let index = k
                        .strip_prefix("msgstr[")
                        .and_then(|k| k.strip_suffix(']'))
                        .and_then(|n| n.parse::<usize>().ok());
                    match index {
                        Some(i) if i == current.msgstr.len() => {
                            current.msgstr.push(value);
                            field = Field::Str(i);
                        }
                        _ => bail!(
                            "{name}:{lineno}: `{k}` out of order (expected msgstr[{}])",
                            current.msgstr.len()
                        ),
                    }
                }
                k => bail!("{name}:{lineno}: unexpected `{k}` here"),
            }
        }
    }
    let end = text.lines().count() + 1;
    finish(&mut current, &mut started, &mut has_id, &mut catalogue, end)?;
    Ok(catalogue)
}

/// The text of a quoted string whose opening quote is already consumed.
fn quoted(name: &str, lineno: usize, rest: &str) -> Result<String> {
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                if !chars.as_str().trim().is_empty() {
                    bail!("{name}:{lineno}: text after the closing quote");
                }
                return Ok(out);
            }
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some(other) => bail!("{name}:{lineno}: unknown escape `\\{other}`"),
                None => break,
            },
            c => out.push(c),
        }
    }
    bail!("{name}:{lineno}: the string has no closing quote")
}

fn parse_header(name: &str, line: usize, text: &str) -> Result<Vec<(String, String)>> {
    let mut fields = Vec::new();
    for field in text.lines().filter(|l| !l.trim().is_empty()) {
        match field.split_once(':') {
            Some((k, v)) => fields.push((k.trim().to_string(), v.trim().to_string())),
            None => bail!("{name}:{line}: the header field `{field}` has no `:`"),
        }
    }
    Ok(fields)
}

/// The catalogue as gettext writes it: one entry per paragraph, strings split
/// after each `\n` so a multi-line message reads line by line.
pub fn write(catalogue: &Catalogue) -> String {
    let mut out = String::new();
    out.push_str("msgid \"\"\n");
    let header: String = catalogue
        .header
        .iter()
        .map(|(k, v)| format!("{k}: {v}\n"))
        .collect();
    push_string(&mut out, "", "msgstr", &header);
    for entry in &catalogue.entries {
        out.push('\n');
        let prefix = if entry.obsolete { "#~ " } else { "" };
        for c in &entry.comments {
            let _ = writeln!(out, "#. {c}");
        }
        if !entry.obsolete && !entry.references.is_empty() {
            let _ = writeln!(out, "#: {}", entry.references.join(" "));
        }
        if !entry.flags.is_empty() {
            let _ = writeln!(out, "#, {}", entry.flags.join(", "));
        }
        if let Some(ctxt) = &entry.msgctxt {
            push_string(&mut out, prefix, "msgctxt", ctxt);
        }
        push_string(&mut out, prefix, "msgid", &entry.msgid);
        match &entry.msgid_plural {
            Some(plural) => {
                push_string(&mut out, prefix, "msgid_plural", plural);
                for (i, s) in entry.msgstr.iter().enumerate() {
                    push_string(&mut out, prefix, &format!("msgstr[{i}]"), s);
                }
            }
            None => {
                let s = entry.msgstr.first().map(String::as_str).unwrap_or("");
                push_string(&mut out, prefix, "msgstr", s);
            }
        }
    }
    out
}

fn push_string(out: &mut String, prefix: &str, keyword: &str, text: &str) {
    let pieces: Vec<&str> = text.split_inclusive('\n').collect();
    if pieces.len() <= 1 {
        let _ = writeln!(out, "{prefix}{keyword} \"{}\"", escape(text));
    } else {
        let _ = writeln!(out, "{prefix}{keyword} \"\"");
        for piece in pieces {
            let _ = writeln!(out, "{prefix}\"{}\"", escape(piece));
        }
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"msgid ""
msgstr ""
"Language: ru\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : 1);\n"

#: src/a.md:1
msgid "Hello"
msgstr "Привет"

#, fuzzy
msgid ""
"Two\n"
"lines"
msgstr ""

#~ msgid "Gone"
#~ msgstr "Ушло"
"#;

    #[test]
    fn a_catalogue_reads_with_the_line_of_each_msgid() {
        let c = parse("ru.po", SAMPLE).expect("parses");
        assert_eq!(c.header_field("language"), Some("ru"));
        assert_eq!(c.entries.len(), 3);
        assert_eq!(
            (c.entries[0].line, c.entries[0].msgid.as_str()),
            (7, "Hello")
        );
        assert_eq!(c.entries[0].references, ["src/a.md:1"]);
        assert!(c.entries[1].is_fuzzy());
        assert_eq!(
            (c.entries[1].line, c.entries[1].msgid.as_str()),
            (11, "Two\nlines")
        );
        assert!(!c.entries[1].is_translated());
        assert!(c.entries[2].obsolete);
        assert_eq!(c.entries[2].msgstr, ["Ушло"]);
    }

    #[test]
    fn writing_then_reading_gives_the_same_catalogue() {
        let c = parse("ru.po", SAMPLE).expect("parses");
        let again = parse("ru.po", &write(&c)).expect("reparses");
        let strip = |c: &Catalogue| {
            let mut c = c.clone();
            c.entries.iter_mut().for_each(|e| e.line = 0);
            c
        };
        assert_eq!(strip(&c), strip(&again));
    }

    #[test]
    fn a_broken_string_is_an_error_naming_the_line_not_a_panic() {
        let text = "msgid \"\"\nmsgstr \"\"\n\nmsgid \"open\nmsgstr \"\"\n";
        let err = parse("ja.po", text).expect_err("unterminated").to_string();
        assert!(err.starts_with("ja.po:4:"), "{err}");
        let text = "msgid \"\"\nmsgstr \"\"\n\nmsgid \"a\"\n\"\n";
        assert!(parse("ja.po", text).is_err());
        let text = "msgid \"\"\nmsgstr \"\"\n\nmsgid\nmsgstr \"\"\n";
        let err = parse("ja.po", text).expect_err("bare keyword").to_string();
        assert!(err.starts_with("ja.po:4:"), "{err}");
    }
}
