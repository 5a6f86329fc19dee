//! The rule "every complete language says everything, and breaks nothing",
//! proven over the gettext catalogues of `book/po/` (issue 23).
//!
//! The problem: an English sentence changes and its translation silently
//! stays behind (the build then shows English in the middle of a Russian
//! page), or a translation drops a `{0}`, a link target or a `code` span and
//! the page says something wrong. The state: each language of
//! `book/po/languages.toml`, its two catalogues (`<lang>.po` for the pages,
//! `ui/<lang>.po` for the players, quizzes and figures) and their templates.
//! For a `complete` language every message must be present, translated, not
//! fuzzy, not obsolete, and keep the English text's placeholders, link
//! targets, code spans and HTML tags; `msgfmt --check` must accept the file
//! when gettext is installed. A language not yet complete is reported
//! ("ja: 812 of 1540 messages translated") and never fails. The cost: one
//! read of each catalogue, and one `msgfmt` run per file when present.

use crate::book::i18n::po::{self, Catalogue, Entry};
use crate::book::i18n::{self, Language, ui};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::Command;

/// What the catalogues rule found: the failures, and the progress lines of
/// the languages it does not enforce.
pub struct Found {
    pub problems: Vec<String>,
    pub progress: Vec<String>,
}

/// Checks every language's catalogues against the templates.
pub fn problems(root: &Path) -> Found {
    let mut found = Found {
        problems: Vec::new(),
        progress: Vec::new(),
    };
    let languages = match i18n::languages(root) {
        Ok(l) => l,
        Err(e) => {
            found.problems.push(format!("{e:#}"));
            return found;
        }
    };
    if languages.is_empty() {
        return found;
    }
    let dir = i18n::po_dir(root);
    let pages = read(root, &dir.join("messages.pot"), &mut found.problems);
    let ui_pot = read(root, &dir.join("ui.pot"), &mut found.problems);
    if let Some(ui_pot) = &ui_pot {
        found.problems.extend(ui_template_current(root, ui_pot));
    }
    if let Some(pages) = &pages {
        found.problems.extend(page_template_current(root, pages));
    }
    let loop_pot = read(
        root,
        &i18n::loop_messages::loop_template_path(root),
        &mut found.problems,
    );
    if let Some(loop_pot) = &loop_pot {
        found.problems.extend(loop_template_current(root, loop_pot));
    }
    let msgfmt = msgfmt_available();
    for lang in &languages {
        let mut own = Vec::new();
        let mut translated = 0;
        let mut total = 0;
        for (template, path) in [
            (&pages, i18n::page_catalogue(root, &lang.code)),
            (&ui_pot, i18n::ui_catalogue(root, &lang.code)),
            (
                &loop_pot,
                i18n::loop_messages::loop_catalogue(root, &lang.code),
            ),
        ] {
            let Some(template) = template else { continue };
            total += template.entries.len();
            let Some(catalogue) = read(root, &path, &mut own) else {
                continue;
            };
            let name = relative(root, &path);
            translated += catalogue
                .live()
                .filter(|e| e.is_translated() && !e.is_fuzzy())
                .count()
                .min(template.entries.len());
            own.extend(compare(&name, lang, template, &catalogue));
            if msgfmt {
                own.extend(run_msgfmt(root, &path));
            }
        }
        if lang.complete {
            found.problems.extend(own);
        } else {
            let broken = if own.is_empty() {
                String::new()
            } else {
                format!(", {} problem(s) to fix before it is complete", own.len())
            };
            found.progress.push(format!(
                "{}: {translated} of {total} messages translated{broken} (not complete: not enforced)",
                lang.code
            ));
        }
    }
    found
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn read(root: &Path, path: &Path, problems: &mut Vec<String>) -> Option<Catalogue> {
    let name = relative(root, path);
    match std::fs::read_to_string(path) {
        Ok(text) => match po::parse(&name, &text) {
            Ok(c) => Some(c),
            Err(e) => {
                problems.push(format!("{e:#}"));
                None
            }
        },
        Err(e) => {
            problems.push(format!(
                "{name}: cannot read it ({e}); `cargo xtask book extract` creates it"
            ));
            None
        }
    }
}

/// Every rule between one catalogue and its template.
pub fn compare(
    name: &str,
    lang: &Language,
    template: &Catalogue,
    catalogue: &Catalogue,
) -> Vec<String> {
    let mut problems = Vec::new();
    let missing = catalogue.missing_header_fields();
    if !missing.is_empty() {
        problems.push(format!("{name}:1: the header lacks {}", missing.join(", ")));
    }
    if let Some(l) = catalogue.header_field("Language")
        && l != lang.code
    {
        problems.push(format!(
            "{name}:1: the header says Language: {l}, the file is {}",
            lang.code
        ));
    }
    if let Some(p) = catalogue.header_field("Plural-Forms")
        && p != lang.plural_forms
    {
        problems.push(format!(
            "{name}:1: Plural-Forms is `{p}`; book/po/languages.toml gives `{}`",
            lang.plural_forms
        ));
    }
    let wanted: HashSet<_> = template.entries.iter().map(Entry::key).collect();
    let have: HashSet<_> = catalogue.live().map(Entry::key).collect();
    for entry in &template.entries {
        if !have.contains(&entry.key()) {
            problems.push(format!(
                "{name}: lacks the message {} (its template's line {}); run `cargo xtask book extract`",
                quote(&entry.msgid),
                entry.line
            ));
        }
    }
    for entry in &catalogue.entries {
        let at = format!("{name}:{}", entry.line);
        if entry.obsolete {
            problems.push(format!(
                "{at}: an obsolete (#~) entry, {}: its English text left the book; reuse it and delete it",
                quote(&entry.msgid)
            ));
            continue;
        }
        if !wanted.contains(&entry.key()) {
            problems.push(format!(
                "{at}: the message {} is not in the template (stale); run `cargo xtask book extract`",
                quote(&entry.msgid)
            ));
            continue;
        }
        if entry.is_fuzzy() {
            problems.push(format!(
                "{at}: fuzzy: check the translation against the English and remove the `#, fuzzy` line"
            ));
        }
        if !entry.is_translated() {
            problems.push(format!("{at}: not translated: {}", quote(&entry.msgid)));
            continue;
        }
        for s in &entry.msgstr {
            problems.extend(kept(&at, &entry.msgid, s));
        }
    }
    problems
}

/// Finds the parts of a text a translation must keep.
type Finder = fn(&str) -> Vec<String>;

/// What a translation must keep of its English text.
fn kept(at: &str, msgid: &str, msgstr: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let rules: [(&str, Finder); 4] = [
        ("placeholders", placeholders),
        ("link targets", link_targets),
        ("code spans", code_spans),
        ("HTML tags", html_tags),
    ];
    for (what, find) in rules {
        let english = counted(find(msgid));
        let translated = counted(find(msgstr));
        if english != translated {
            let lost: Vec<_> = english
                .iter()
                .filter(|(k, n)| translated.get(*k) != Some(n))
                .map(|(k, _)| k.as_str())
                .collect();
            let added: Vec<_> = translated
                .iter()
                .filter(|(k, n)| english.get(*k) != Some(n))
                .map(|(k, _)| k.as_str())
                .collect();
            problems.push(format!(
                "{at}: the translation changes the {what}: the English has {}, the translation {}",
                list(&lost),
                list(&added)
            ));
        }
    }
    problems
}

fn list(items: &[&str]) -> String {
    if items.is_empty() {
        "nothing different".to_string()
    } else {
        items
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn counted(items: Vec<String>) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for i in items {
        *m.entry(i).or_insert(0) += 1;
    }
    m
}

/// `{0}`, `{1}`, ..., the loop's named `{name}` (and mdBook's `{{#...}}`
/// directives).
fn placeholders(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(k) = rest.find('{') {
        let after = &rest[k..];
        if let Some(end) = after.find('}') {
            let inner = &after[1..end];
            let named = inner.starts_with(|c: char| c.is_ascii_lowercase())
                && inner
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !inner.is_empty() && inner.chars().all(|c| c.is_ascii_digit()) || named {
                out.push(after[..=end].to_string());
            } else if let Some(d) = after.strip_prefix("{{#")
                && let Some(e) = d.find("}}")
            {
                out.push(format!("{{{{#{}}}}}", &d[..e]));
            }
        }
        rest = &rest[k + 1..];
    }
    out
}

/// Markdown link targets `](target)` and HTML `href`/`src` values.
fn link_targets(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let without_code = strip_code(s);
    let mut rest = without_code.as_str();
    while let Some(k) = rest.find("](") {
        let after = &rest[k + 2..];
        match after.find(')') {
            Some(end) => {
                out.push(after[..end].trim().to_string());
                rest = &after[end..];
            }
            None => break,
        }
    }
    for attr in ["href=\"", "src=\""] {
        let mut rest = without_code.as_str();
        while let Some(k) = rest.find(attr) {
            let after = &rest[k + attr.len()..];
            match after.find('"') {
                Some(end) => {
                    out.push(after[..end].to_string());
                    rest = &after[end..];
                }
                None => break,
            }
        }
    }
    out
}

/// The text with its code spans removed (a `](` inside code is no link).
fn strip_code(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    loop {
        match next_code_span(rest) {
            Some((start, end)) => {
                out.push_str(&rest[..start]);
                rest = &rest[end..];
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The byte range of the next code span: a run of backquotes up to the next
/// run of the same length.
fn next_code_span(s: &str) -> Option<(usize, usize)> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i] == b'`' {
            i += 1;
        }
        let run = i - start;
        let mut j = i;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let close = j;
                while j < bytes.len() && bytes[j] == b'`' {
                    j += 1;
                }
                if j - close == run {
                    return Some((start, j));
                }
            } else {
                j += 1;
            }
        }
        // An unmatched run is literal backquotes.
    }
    None
}

/// The inline code spans, as written.
fn code_spans(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some((start, end)) = next_code_span(rest) {
        out.push(rest[start..end].to_string());
        rest = &rest[end..];
    }
    out
}

/// The HTML tags' names, opening and closing (`<strong>`, `</strong>`).
fn html_tags(s: &str) -> Vec<String> {
    let without_code = strip_code(s);
    let mut out = Vec::new();
    let mut rest = without_code.as_str();
    while let Some(k) = rest.find('<') {
        let after = &rest[k + 1..];
        let closing = after.starts_with('/');
        let name: String = after
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let is_tag = !name.is_empty()
            && name.starts_with(|c: char| c.is_ascii_alphabetic())
            && after.contains('>');
        if is_tag {
            out.push(format!(
                "<{}{}>",
                if closing { "/" } else { "" },
                name.to_ascii_lowercase()
            ));
        }
        rest = after;
    }
    out
}

fn quote(msgid: &str) -> String {
    let one_line = msgid.replace('\n', " ");
    let short: String = one_line.chars().take(60).collect();
    if short.len() < one_line.len() {
        format!("\"{short}...\"")
    } else {
        format!("\"{short}\"")
    }
}

/// `ui.pot` is what the generated HTML and the scripts hold now.
fn ui_template_current(root: &Path, committed: &Catalogue) -> Vec<String> {
    match ui::ui_template(root) {
        Ok(now) => template_current("book/po/ui.pot", &now, committed),
        Err(e) => vec![format!(
            "book/po/ui.pot: cannot extract the current messages: {e:#}"
        )],
    }
}

/// `loop.pot` is what the tool's and the suites' sources hold now.
fn loop_template_current(root: &Path, committed: &Catalogue) -> Vec<String> {
    match i18n::loop_messages::loop_template(root) {
        Ok(now) => template_current("book/po/loop.pot", &now, committed),
        Err(e) => vec![format!(
            "book/po/loop.pot: cannot extract the current messages: {e:#}"
        )],
    }
}

fn page_template_current(root: &Path, committed: &Catalogue) -> Vec<String> {
    match i18n::extract::page_template(root) {
        Ok(now) => template_current("book/po/messages.pot", &now, committed),
        Err(e) => vec![format!(
            "book/po/messages.pot: cannot extract the current messages: {e:#}"
        )],
    }
}

fn template_current(name: &str, now: &Catalogue, committed: &Catalogue) -> Vec<String> {
    let a: Vec<_> = now.entries.iter().map(Entry::key).collect();
    let b: Vec<_> = committed.entries.iter().map(Entry::key).collect();
    if a == b {
        return Vec::new();
    }
    let new = a.iter().filter(|k| !b.contains(k)).count();
    let gone = b.iter().filter(|k| !a.contains(k)).count();
    vec![format!(
        "{name} is not current ({new} new message(s), {gone} gone): run `cargo xtask book extract`, then translate"
    )]
}

fn msgfmt_available() -> bool {
    Command::new("msgfmt")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// gettext's own validation of a catalogue; its messages name file:line.
fn run_msgfmt(root: &Path, path: &Path) -> Vec<String> {
    let output = Command::new("msgfmt")
        .arg("--check")
        .arg("-o")
        .arg("/dev/null")
        .arg(path)
        .current_dir(root)
        .output();
    match output {
        Ok(o) if o.status.success() => Vec::new(),
        Ok(o) => {
            let text = String::from_utf8_lossy(&o.stderr);
            let lines: Vec<String> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| format!("msgfmt --check: {l}"))
                .collect();
            if lines.is_empty() {
                vec![format!("msgfmt --check rejects {}", relative(root, path))]
            } else {
                lines
            }
        }
        Err(e) => vec![format!(
            "cannot run msgfmt on {}: {e}",
            relative(root, path)
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn russian() -> Language {
        Language {
            code: "ru".into(),
            name: "Русский".into(),
            plural_forms: "nplurals=1; plural=0;".into(),
            complete: true,
        }
    }

    const HEADER: &str = "msgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: x\\n\"\n\"POT-Creation-Date: \\n\"\n\"PO-Revision-Date: \\n\"\n\"Last-Translator: \\n\"\n\"Language-Team: \\n\"\n\"MIME-Version: 1.0\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Content-Transfer-Encoding: 8bit\\n\"\n\"Language: ru\\n\"\n\"Plural-Forms: nplurals=1; plural=0;\\n\"\n";

    fn template() -> Catalogue {
        po::parse(
            "messages.pot",
            &format!(
                "{HEADER}\nmsgid \"See [the tree](tree.md) of `f(n)`.\"\nmsgstr \"\"\n\n\
                 msgid \"a queen on row {{0}}\"\nmsgstr \"\"\n\n\
                 msgid \"<strong>Quiz.</strong> Which?\"\nmsgstr \"\"\n"
            ),
        )
        .expect("template parses")
    }

    fn check(body: &str) -> Vec<String> {
        let catalogue = po::parse("ru.po", &format!("{HEADER}\n{body}")).expect("catalogue parses");
        compare("ru.po", &russian(), &template(), &catalogue)
    }

    const COMPLETE: &str = "msgid \"See [the tree](tree.md) of `f(n)`.\"\nmsgstr \"Смотрите [дерево](tree.md) для `f(n)`.\"\n\n\
         msgid \"a queen on row {0}\"\nmsgstr \"ферзь в строке {0}\"\n\n\
         msgid \"<strong>Quiz.</strong> Which?\"\nmsgstr \"<strong>Вопрос.</strong> Какой?\"\n";

    #[test]
    fn a_complete_catalogue_passes() {
        assert_eq!(check(COMPLETE), Vec::<String>::new());
    }

    #[test]
    fn a_missing_message_fails_naming_the_catalogue_and_the_template_line() {
        let body = COMPLETE.replace(
            "msgid \"a queen on row {0}\"\nmsgstr \"ферзь в строке {0}\"\n\n",
            "",
        );
        let found = check(&body);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "ru.po: lacks the message \"a queen on row {0}\" (its template's line 17)"
            ),
            "{found:?}"
        );
    }

    #[test]
    fn a_fuzzy_message_fails_naming_its_line() {
        let body = COMPLETE.replace("msgid \"a queen", "#, fuzzy\nmsgid \"a queen");
        let found = check(&body);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("ru.po:18: fuzzy"), "{found:?}");
    }

    #[test]
    fn an_untranslated_obsolete_or_stale_message_fails_naming_its_line() {
        let body = COMPLETE.replace("ферзь в строке {0}", "");
        let found = check(&body);
        assert!(
            found.len() == 1 && found[0].starts_with("ru.po:17: not translated"),
            "{found:?}"
        );
        let body = format!(
            "{COMPLETE}\nmsgid \"gone\"\nmsgstr \"ушло\"\n\n#~ msgid \"older\"\n#~ msgstr \"старее\"\n"
        );
        let found = check(&body);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("ru.po:23: the message \"gone\" is not in the template"),
            "{found:?}"
        );
        assert!(found[1].starts_with("ru.po:26: an obsolete"), "{found:?}");
    }

    #[test]
    fn a_broken_placeholder_link_code_span_or_tag_fails_naming_its_line() {
        let cases = [
            (
                "ферзь в строке {0}",
                "ферзь в строке {1}",
                "ru.po:17: the translation changes the placeholders",
            ),
            (
                "[дерево](tree.md)",
                "[дерево](дерево.md)",
                "ru.po:14: the translation changes the link targets",
            ),
            (
                "для `f(n)`",
                "для f(n)",
                "ru.po:14: the translation changes the code spans",
            ),
            (
                "<strong>Вопрос.</strong>",
                "<b>Вопрос.</b>",
                "ru.po:20: the translation changes the HTML tags",
            ),
        ];
        for (from, to, expected) in cases {
            let found = check(&COMPLETE.replacen(from, to, 1));
            assert_eq!(found.len(), 1, "{from} -> {to}: {found:?}");
            assert!(found[0].starts_with(expected), "{from} -> {to}: {found:?}");
        }
    }

    #[test]
    fn a_wrong_language_or_plural_rule_in_the_header_fails() {
        let catalogue = po::parse(
            "ru.po",
            &format!(
                "{}\n{COMPLETE}",
                HEADER
                    .replace("Language: ru", "Language: ja")
                    .replace("nplurals=1; plural=0;", "nplurals=2; plural=n!=1;")
            ),
        )
        .expect("parses");
        let found = compare("ru.po", &russian(), &template(), &catalogue);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found.iter().all(|p| p.starts_with("ru.po:1: ")),
            "{found:?}"
        );
    }
}
