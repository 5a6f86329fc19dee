//! The words a reader sees that are not page Markdown: the players'
//! narration, counters and titles, the quizzes' questions, choices and
//! feedback, the figures' titles and captions (all in the generated HTML
//! under `book/src/<slug>/generated/`), the measurement pages' tables and
//! notes (`measured.rs`), and the players' own controls (the `btT("...")`
//! strings of `book/src/assets/*.js`).
//!
//! The problem: the recorders compute their sentences ("a queen on row 2,
//! column 5"), so a catalogue of whole sentences would need one entry per
//! step. Every number in a string is therefore a placeholder: the message is
//! the string with its digit runs replaced by `{0}`, `{1}`, ... in order
//! ("a queen on row {0}, column {1}"), and a translation may reorder them.
//! The state: `book/po/ui.pot` (the templates) and `book/po/ui/<lang>.po`.
//! The cost: one pass over the generated HTML (about 1.4 MB) per extraction
//! or per language build.
//!
//! The same walker ([`visit_html`]) finds the strings for extraction and
//! replaces them in a language's build, so what is extracted is exactly what
//! is translated. A leaf element (a paragraph, a choice, a caption) is one
//! message with its inline tags (`<strong>`, `<code>`) kept, like the pages'
//! `**` and backquotes.

use super::has_text;
use super::placeholders::{fill, template};
use super::po::{Catalogue, Entry};
use anyhow::{Context, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::path::Path;

/// Elements whose content is one message when it holds no other of them.
const LEAVES: &[&str] = &[
    "p",
    "li",
    "button",
    "summary",
    "figcaption",
    "title",
    "text",
    "td",
    "th",
    "caption",
    "h1",
    "h2",
    "h3",
    "h4",
    "dt",
    "dd",
    "label",
    "option",
];

/// Attributes a reader sees (or a screen reader reads).
const TEXT_ATTRIBUTES: &[&str] = &["data-why", "aria-label", "title", "alt"];

/// Calls `f` on every message of a generated HTML fragment and returns the
/// fragment with each message `f` answered replaced by that answer.
pub fn visit_html(html: &str, f: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(html.len());
    let mut i = 0;
    while let Some(lt) = html[i..].find('<') {
        let start = i + lt;
        out.push_str(&html[i..start]);
        let Some(end) = tag_end(html, start) else {
            out.push_str(&html[start..]);
            return out;
        };
        let tag = &html[start..end];
        out.push_str(&rewrite_attributes(tag, f));
        i = end;
        let name = tag_name(tag);
        if name == "script" && tag.contains("bt-traces") {
            // A player's traces as JSON (`render::player`): translated as
            // data, written back escaped the same way.
            let Some(close) = html[end..].find("</script>").map(|k| end + k) else {
                continue;
            };
            let json = &html[end..close];
            match translate_traces(json, f) {
                Some(t) => out.push_str(&t.replace('<', "\\u003c")),
                None => out.push_str(json),
            }
            i = close;
            continue;
        }
        if tag.starts_with("</") || tag.ends_with("/>") || !LEAVES.contains(&name.as_str()) {
            continue;
        }
        let Some((inner_end, close_end)) = matching_close(html, end, &name) else {
            continue;
        };
        let inner = &html[end..inner_end];
        if holds_a_leaf(inner) {
            // Descend: its leaves are the messages.
            continue;
        }
        out.push_str(&translate_inner(inner, f));
        out.push_str(&html[inner_end..close_end]);
        i = close_end;
    }
    out.push_str(&html[i..]);
    out
}

/// The inner HTML of a leaf, its surrounding white space kept.
fn translate_inner(inner: &str, f: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let trimmed = inner.trim();
    if trimmed.is_empty() {
        return inner.to_string();
    }
    let lead = &inner[..inner.len() - inner.trim_start().len()];
    let tail = &inner[inner.trim_end().len()..];
    let text = trimmed.replace("&quot;", "\"").replace("&#39;", "'");
    match f(&text) {
        Some(t) => format!("{lead}{t}{tail}"),
        None => inner.to_string(),
    }
}

fn tag_end(html: &str, start: usize) -> Option<usize> {
    let mut quote = None;
    for (k, c) in html[start..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(start + k + 1),
            _ => {}
        }
    }
    None
}

fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('<')
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The end of a leaf's content and of its closing tag, nesting counted.
fn matching_close(html: &str, from: usize, name: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut i = from;
    while let Some(lt) = html[i..].find('<') {
        let start = i + lt;
        let end = tag_end(html, start)?;
        let tag = &html[start..end];
        if tag_name(tag) == name {
            if tag.starts_with("</") {
                if depth == 0 {
                    return Some((start, end));
                }
                depth -= 1;
            } else if !tag.ends_with("/>") {
                depth += 1;
            }
        }
        i = end;
    }
    None
}

fn holds_a_leaf(inner: &str) -> bool {
    let mut i = 0;
    while let Some(lt) = inner[i..].find('<') {
        let start = i + lt;
        let Some(end) = tag_end(inner, start) else {
            return false;
        };
        let tag = &inner[start..end];
        if !tag.starts_with("</") && LEAVES.contains(&tag_name(tag).as_str()) {
            return true;
        }
        i = end;
    }
    false
}

/// The tag with its readable attributes (and a player's traces) translated.
fn rewrite_attributes(tag: &str, f: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(tag.len());
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name_start = rest[..eq]
            .rfind(|c: char| c.is_whitespace())
            .map_or(0, |k| k + 1);
        let name = &rest[name_start..eq];
        let value_start = eq + 2;
        let Some(len) = rest[value_start..].find('"') else {
            break;
        };
        let value = &rest[value_start..value_start + len];
        out.push_str(&rest[..value_start]);
        let new = if name == "data-traces" {
            translate_traces(&unescape(value), f).map(|t| escape(&t))
        } else if TEXT_ATTRIBUTES.contains(&name) {
            f(&unescape(value)).map(|t| escape(&t))
        } else {
            None
        };
        out.push_str(new.as_deref().unwrap_or(value));
        rest = &rest[value_start + len..];
    }
    out.push_str(rest);
    out
}

/// A player's traces (JSON, from its script block or an older page's
/// `data-traces`) with their narration, title, instance labels and counters
/// translated; the code, cells and steps untouched. Narration is either in
/// `says` (a step holds its index) or each step's last field.
fn translate_traces(json: &str, f: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
    let mut traces: Value = serde_json::from_str(json).ok()?;
    let mut changed = false;
    let apply = |v: &mut Value, f: &mut dyn FnMut(&str) -> Option<String>| -> bool {
        if let Some(s) = v.as_str()
            && let Some(t) = f(s)
        {
            *v = Value::String(t);
            return true;
        }
        false
    };
    for trace in traces.as_array_mut()?.iter_mut() {
        let Some(trace) = trace.as_object_mut() else {
            continue;
        };
        // What a tree node stands for, as a kind the tree's script looks up
        // in its own strings: read here from the English title, since the
        // translated title no longer says it in English.
        if let Some(kind) = trace.get("title").and_then(Value::as_str).map(node_kind) {
            trace.insert("node".to_string(), Value::String(kind.to_string()));
        }
        for key in ["title", "instance"] {
            if let Some(v) = trace.get_mut(key) {
                changed |= apply(v, f);
            }
        }
        if let Some(counters) = trace.get_mut("counters").and_then(Value::as_array_mut) {
            for counter in counters.iter_mut().filter_map(Value::as_array_mut) {
                // [name, rule, definition]: the rule is the player's, not the reader's.
                for k in [0, 2] {
                    if let Some(v) = counter.get_mut(k) {
                        changed |= apply(v, f);
                    }
                }
            }
        }
        // The totals are keyed by counter name: the same translation.
        if let Some(totals) = trace.get_mut("totals").and_then(Value::as_object_mut) {
            let old = std::mem::take(totals);
            for (name, v) in old {
                let name = match f(&name) {
                    Some(t) => {
                        changed = true;
                        t
                    }
                    None => name,
                };
                totals.insert(name, v);
            }
        }
        if let Some(says) = trace.get_mut("says").and_then(Value::as_array_mut) {
            for v in says.iter_mut() {
                changed |= apply(v, f);
            }
        }
        if let Some(steps) = trace.get_mut("steps").and_then(Value::as_array_mut) {
            for step in steps.iter_mut().filter_map(Value::as_array_mut) {
                // The narration (SAY) is the step's last field.
                if let Some(v) = step.last_mut() {
                    changed |= apply(v, f);
                }
            }
        }
    }
    changed.then(|| traces.to_string())
}

/// What one node of a player's tree stands for, from its English title
/// ("...: one tree node per call"): `call`, `position`, `square` or
/// `queen` (the kinds `bt-tree.js` has words for); `call` when the title
/// does not say.
pub fn node_kind(title: &str) -> &'static str {
    let per = title
        .split_once("one tree node per ")
        .map(|(_, rest)| rest.split([',', ':']).next().unwrap_or(rest))
        .unwrap_or("");
    if per.contains("position") {
        "position"
    } else if per.contains("square") {
        "square"
    } else if per.contains("queen") {
        "queen"
    } else {
        "call"
    }
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The `btT("...")` strings of the players' scripts: their controls.
pub fn script_messages(js: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = js;
    while let Some(k) = rest.find("btT(\"") {
        rest = &rest[k + 5..];
        let mut s = String::new();
        let mut chars = rest.char_indices();
        let mut end = None;
        while let Some((j, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        s.push(match e {
                            'n' => '\n',
                            other => other,
                        });
                    }
                }
                '"' => {
                    end = Some(j);
                    break;
                }
                c => s.push(c),
            }
        }
        let Some(end) = end else { break };
        rest = &rest[end..];
        found.push(s);
    }
    found
}

/// The generated HTML files, the measurement pages and the scripts,
/// relative to `book/`, sorted.
fn sources(root: &Path) -> Result<Vec<(String, String)>> {
    let src = root.join("book").join("src");
    let mut files = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&src)
        .with_context(|| format!("cannot list {}", src.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let generated = dir.join("generated");
        let Ok(entries) = std::fs::read_dir(&generated) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "html"))
            .collect();
        paths.sort();
        files.extend(paths);
    }
    // The measurement pages (`measured.rs`) and the plots (`svg.rs`).
    files.extend(super::measured::pages(&src));
    files.extend(super::svg::plots(&src));
    let assets = src.join("assets");
    if let Ok(entries) = std::fs::read_dir(&assets) {
        let mut paths: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "js"))
            .collect();
        paths.sort();
        files.extend(paths);
    }
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            let name = p
                .strip_prefix(root.join("book"))
                .unwrap_or(&p)
                .display()
                .to_string();
            Ok((name, text))
        })
        .collect()
}

/// The templates of every string a reader sees outside the pages.
pub fn ui_template(root: &Path) -> Result<Catalogue> {
    let mut order: Vec<String> = Vec::new();
    let mut refs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, text) in sources(root)? {
        let mut found = Vec::new();
        if name.ends_with(".js") {
            // Script strings are written with their placeholders already.
            found = script_messages(&text);
        } else if name.ends_with(".md") {
            found = super::measured::messages(&text);
        } else if name.ends_with(".svg") {
            found = super::svg::messages(&text);
        } else {
            visit_html(&text, &mut |s| {
                found.push(template(s).0);
                None
            });
        }
        for msgid in found {
            if !has_text(&msgid.replace(['{', '}'], " ")) {
                continue;
            }
            let r = refs.entry(msgid.clone()).or_default();
            if r.is_empty() {
                order.push(msgid);
            }
            if !r.contains(&name) {
                r.push(name.clone());
            }
        }
    }
    // mdBook's own interface words (`chrome.rs`).
    for msgid in super::chrome::messages() {
        let r = refs.entry(msgid.clone()).or_default();
        if r.is_empty() {
            order.push(msgid);
        }
        r.push("mdbook-html 0.5 theme (index.hbs, book.js, searcher.js)".to_string());
    }
    let entries = order
        .into_iter()
        .map(|msgid| {
            let mut entry = Entry::new(&msgid);
            entry.references = refs.remove(&msgid).unwrap_or_default();
            if msgid.contains("{0}") {
                entry.comments = vec![
                    "{0}, {1}, ...: the numbers of the English text, in order; keep each, in any order."
                        .to_string(),
                ];
            }
            entry
        })
        .collect();
    Ok(Catalogue {
        header: super::template_header(),
        entries,
    })
}

/// A language's translations of the templates (for its build).
pub struct Translator {
    map: HashMap<String, String>,
    /// The language's code ("ru"), for its numbers' convention.
    lang: String,
}

impl Translator {
    pub fn new(catalogue: &Catalogue, lang: &str) -> Translator {
        let map = catalogue
            .live()
            .filter(|e| e.is_translated() && !e.is_fuzzy())
            .filter_map(|e| Some((e.msgid.clone(), e.msgstr.first()?.clone())))
            .collect();
        Translator {
            map,
            lang: lang.to_string(),
        }
    }

    /// A bare number ("1,716", a table cell) in the language's convention
    /// (`book_trace::numbers`), if `s` is one.
    pub fn number(&self, s: &str) -> Option<String> {
        book_trace::numbers::in_language(s, &self.lang)
    }

    /// The string in the language, if its template is translated.
    pub fn translate(&self, s: &str) -> Option<String> {
        let (t, args) = template(s);
        self.map.get(&t).map(|tr| fill(tr, &args))
    }

    /// The translation of a template, as the scripts look theirs up.
    pub fn lookup(&self, template: &str) -> Option<&str> {
        self.map.get(template).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_become_placeholders_and_come_back_in_the_translations_order() {
        let (t, args) = template("a queen on row 12, column 5.");
        assert_eq!(t, "a queen on row {0}, column {1}.");
        assert_eq!(fill("{1} 列, {0} 行", &args), "5 列, 12 行");
    }

    #[test]
    fn a_quiz_is_read_as_its_question_choices_feedback_and_answer() {
        let html = "<div class=\"bt-quiz\">\n<p class=\"bt-question\"><strong>Quiz.</strong> Which of 8?</p>\n<ol>\n<li><button type=\"button\" data-right=\"0\" data-why=\"Not &quot;4&quot;.\">(4, 3)</button></li>\n</ol>\n<details><summary>Show the answer</summary>\n</details></div>";
        let mut seen = Vec::new();
        let same = visit_html(html, &mut |s| {
            seen.push(s.to_string());
            None
        });
        assert_eq!(same, html);
        assert_eq!(
            seen,
            [
                "<strong>Quiz.</strong> Which of 8?",
                "Not \"4\".",
                "(4, 3)",
                "Show the answer"
            ]
        );
        let upper = visit_html(html, &mut |s| Some(s.to_uppercase()));
        assert!(
            upper.contains("<STRONG>QUIZ.</STRONG> WHICH OF 8?</p>"),
            "{upper}"
        );
        assert!(upper.contains("data-why=\"NOT &quot;4&quot;.\""), "{upper}");
    }

    #[test]
    fn a_players_narration_counters_and_totals_are_translated_together() {
        let traces = r#"[{"title":"T","instance":"n = 4","counters":[["calls","nodes","calls so far"]],"totals":{"calls":3},"code":{"lines":["fn f()"]},"steps":[["try",1,0,3,"-",0,0,"Q","a queen on row 0."]]}]"#;
        let html = format!("<div data-traces=\"{}\"></div>", escape(traces));
        let dict: HashMap<&str, &str> = [
            ("calls", "вызовы"),
            ("a queen on row {0}.", "ферзь в строке {0}."),
            ("n = {0}", "n = {0}"),
        ]
        .into_iter()
        .collect();
        let out = visit_html(&html, &mut |s| {
            let (t, args) = template(s);
            dict.get(t.as_str()).map(|tr| fill(tr, &args))
        });
        let start = out.find("=\"").expect("attribute") + 2;
        let json: Value =
            serde_json::from_str(&unescape(&out[start..out.len() - 8])).expect("json");
        assert_eq!(json[0]["steps"][0][8], "ферзь в строке 0.");
        assert_eq!(json[0]["counters"][0][0], "вызовы");
        assert_eq!(json[0]["totals"]["вызовы"], 3);
        assert_eq!(json[0]["code"]["lines"][0], "fn f()");
    }

    #[test]
    fn a_players_script_block_is_translated_in_its_narration_table() {
        let traces = r#"[{"title":"T","instance":"n = 4","counters":[["calls","nodes","calls so far"]],"totals":{"calls":3},"code":{"lines":["fn f()"]},"says":["a queen on row 0.","a queen on row 1 <here>."],"steps":[["try",1,0,3,"-",0,0,"Q",1]]}]"#;
        let html = format!(
            "<div class=\"bt-player\"><script type=\"application/json\" class=\"bt-traces\">{}</script><p class=\"bt-title\">T</p></div>",
            traces.replace('<', "\\u003c")
        );
        let dict: HashMap<&str, &str> = [
            ("calls", "вызовы"),
            ("a queen on row {0}.", "ферзь в строке {0}."),
            ("a queen on row {0} <here>.", "ферзь в строке {0} <здесь>."),
        ]
        .into_iter()
        .collect();
        let mut seen = Vec::new();
        let out = visit_html(&html, &mut |s| {
            seen.push(s.to_string());
            let (t, args) = template(s);
            dict.get(t.as_str()).map(|tr| fill(tr, &args))
        });
        assert!(
            seen.iter().any(|s| s == "a queen on row 1 <here>."),
            "{seen:?}"
        );
        let start = out.find("bt-traces\">").expect("the block") + "bt-traces\">".len();
        let end = out[start..].find("</script>").expect("its end") + start;
        assert!(!out[start..end].contains('<'), "a raw < in the block");
        let json: Value = serde_json::from_str(&out[start..end]).expect("json");
        assert_eq!(json[0]["says"][0], "ферзь в строке 0.");
        assert_eq!(json[0]["says"][1], "ферзь в строке 1 <здесь>.");
        assert_eq!(json[0]["steps"][0][8], 1, "a step keeps its index");
        assert_eq!(json[0]["totals"]["вызовы"], 3);
    }

    #[test]
    fn a_translated_trace_says_what_a_tree_node_is_as_a_kind_not_a_word() {
        assert_eq!(
            node_kind("The plain search: one tree node per numbered square"),
            "square"
        );
        assert_eq!(
            node_kind("The robot: one tree node per position"),
            "position"
        );
        assert_eq!(
            node_kind("Sudoku: one tree node per call of branch"),
            "call"
        );
        assert_eq!(node_kind("A trace"), "call");
        let traces = r#"[{"title":"Robot: one tree node per position","steps":[]}]"#;
        let html = format!("<div data-traces=\"{}\"></div>", escape(traces));
        let out = visit_html(&html, &mut |s| Some(format!("[{s}]")));
        let start = out.find("=\"").expect("attribute") + 2;
        let json: Value =
            serde_json::from_str(&unescape(&out[start..out.len() - 8])).expect("json");
        assert_eq!(json[0]["node"], "position");
        assert_eq!(json[0]["title"], "[Robot: one tree node per position]");
    }

    #[test]
    fn a_message_is_one_string_literal_so_the_extractor_sees_all_of_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let assets = root.join("book").join("src").join("assets");
        for name in ["bt-player.js", "bt-tree.js", "bt-book.js", "bt-i18n.js"] {
            let Ok(js) = std::fs::read_to_string(assets.join(name)) else {
                continue;
            };
            for (k, _) in js.match_indices("btT(\"") {
                // The literal's raw end: its closing quote, escapes skipped.
                let rest = &js[k + 5..];
                let mut escaped = false;
                let end = rest
                    .char_indices()
                    .find(|&(_, c)| {
                        let close = c == '"' && !escaped;
                        escaped = c == '\\' && !escaped;
                        close
                    })
                    .map_or(rest.len(), |(j, _)| j + 1);
                let tail = rest[end..].trim_start();
                assert!(
                    !tail.starts_with('+'),
                    "{name}: a btT() message joins literals with +, so only the first is extracted"
                );
            }
        }
    }

    #[test]
    fn script_strings_are_read_from_btt_calls() {
        let js = r#"x = btT("The board: {0} by {1}", r, c) + btT("say \"hi\"");"#;
        assert_eq!(script_messages(js), ["The board: {0} by {1}", "say \"hi\""]);
    }
}
