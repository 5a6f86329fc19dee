//! mdBook's own interface words in a language's book: the menu bar's
//! buttons, the search box, the previous/next chapter arrows, the keyboard
//! help, the code blocks' copy button and the search results' header.
//!
//! The problem: mdBook 0.5 writes these in English from its built-in theme
//! (`index.hbs`, `book.js`, `searcher.js`), whatever `book.language` says;
//! overriding the theme would mean keeping a copy of `index.hbs` per
//! language, in step with every mdBook release. So the build rewrites the
//! written files instead: each word here is a `ui` message (`ui.pot`), and a
//! language's pages and scripts have each one replaced where mdBook put it
//! (an attribute, an element's text outside `<main>`, a script's string
//! literal). The state: the lists below, which name mdBook's words as its
//! theme spells them; the browser test (`languages.mjs`) fails if a
//! translated page still shows them. The cost: one pass over each page.

/// The words of mdBook's page template a reader sees, or a screen reader
/// reads, outside the chapter: element text and `title`, `aria-label` and
/// `placeholder` values. The theme names Rust, Coal, Navy and Ayu are names
/// and stay as they are.
pub const PAGE_WORDS: &[&str] = &[
    "Keyboard shortcuts",
    "Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters",
    "Press <kbd>S</kbd> or <kbd>/</kbd> to search in the book",
    "Press <kbd>?</kbd> to show this help",
    "Press <kbd>Esc</kbd> to hide this help",
    "Table of contents",
    "Toggle Table of Contents",
    "Change theme",
    "Themes",
    "Auto",
    "Light",
    "Search (`/`)",
    "Toggle Searchbar",
    "Print this book",
    "Search this book ...",
    "Page navigation",
    "Previous chapter",
    "Next chapter",
];

/// The string literals of mdBook's `book.js` a reader sees: the copy
/// button of every code block, and the hidden lines' toggle.
pub const SCRIPT_WORDS: &[&str] = &[
    "Copy to clipboard",
    "Copied!",
    "Clipboard error!",
    "Show hidden lines",
    "Hide lines",
];

/// The search results' header in `searcher.js`: the message (`{0}` the
/// count, `{1}` the search term), and the line mdBook writes it with.
pub const SEARCH_LINES: &[(&str, &str)] = &[
    (
        "{0} search result for '{1}':",
        "return count + ' search result for \\'' + searchterm + '\\':';",
    ),
    (
        "No search results for '{1}'.",
        "return 'No search results for \\'' + searchterm + '\\'.';",
    ),
    (
        "{0} search results for '{1}':",
        "return count + ' search results for \\'' + searchterm + '\\':';",
    ),
];

/// Every message of mdBook's interface, for `ui.pot`.
pub fn messages() -> Vec<String> {
    PAGE_WORDS
        .iter()
        .chain(SCRIPT_WORDS)
        .map(|s| s.to_string())
        .chain(SEARCH_LINES.iter().map(|(m, _)| m.to_string()))
        .collect()
}

/// A written page with mdBook's words translated outside its `<main>`
/// (the chapter, already in the language, is never touched).
pub fn translate_page(html: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let (start, end) = match (html.find("<main"), html.find("</main>")) {
        (Some(s), Some(e)) if s < e => (s, e),
        _ => (html.len(), html.len()),
    };
    let mut out = translate_chrome(&html[..start], lookup);
    out.push_str(&html[start..end]);
    out.push_str(&translate_chrome(&html[end..], lookup));
    out
}

fn translate_chrome(html: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = html.to_string();
    for word in PAGE_WORDS {
        let Some(t) = lookup(word) else {
            continue;
        };
        let attribute = escape_attribute(&t);
        for name in ["title", "aria-label", "placeholder"] {
            out = out.replace(
                &format!("{name}=\"{word}\""),
                &format!("{name}=\"{attribute}\""),
            );
        }
        out = out.replace(&format!(">{word}<"), &format!(">{t}<"));
    }
    out
}

fn escape_attribute(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A JavaScript string literal (single-quoted) of `s`.
fn js_literal(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// One of mdBook's scripts with its words translated: the string literals
/// of [`SCRIPT_WORDS`], and each search header line rewritten to build the
/// translation from `count` and `searchterm`.
pub fn translate_script(js: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = js.to_string();
    for word in SCRIPT_WORDS {
        if let Some(t) = lookup(word) {
            out = out.replace(&js_literal(word), &js_literal(&t));
            let quoted = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
            out = out.replace(&quoted(word), &quoted(&t));
        }
    }
    for (message, line) in SEARCH_LINES {
        let Some(t) = lookup(message) else {
            continue;
        };
        // The translation's text between its placeholders, as literals.
        let mut parts = vec!["''".to_string()];
        let mut rest = t.as_str();
        while let Some(k) = rest.find('{') {
            let variable = match rest.get(k..k + 3) {
                Some("{0}") => Some("count"),
                Some("{1}") => Some("searchterm"),
                _ => None,
            };
            match variable {
                Some(v) => {
                    if k > 0 {
                        parts.push(js_literal(&rest[..k]));
                    }
                    parts.push(v.to_string());
                    rest = &rest[k + 3..];
                }
                None => {
                    parts.push(js_literal(&rest[..=k]));
                    rest = &rest[k + 1..];
                }
            }
        }
        if !rest.is_empty() {
            parts.push(js_literal(rest));
        }
        out = out.replace(line, &format!("return {};", parts.join(" + ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn japanese(s: &str) -> Option<String> {
        match s {
            "Print this book" => Some("本書を印刷".into()),
            "Next chapter" => Some("次の章".into()),
            "Auto" => Some("自動".into()),
            "Press <kbd>?</kbd> to show this help" => {
                Some("<kbd>?</kbd> でこのヘルプを表示".into())
            }
            "Copy to clipboard" => Some("クリップボードにコピー".into()),
            "{0} search results for '{1}':" => Some("「{1}」の検索結果：{0} 件".into()),
            _ => None,
        }
    }

    #[test]
    fn mdbooks_words_are_translated_outside_the_chapter_only() {
        let html = "<a href=\"print.html\" title=\"Print this book\" aria-label=\"Print this book\">\
            <button id=\"mdbook-theme-default_theme\">Auto</button>\
            <p>Press <kbd>?</kbd> to show this help</p>\
            <main><p>Auto</p></main>\
            <a rel=\"next\" title=\"Next chapter\" aria-label=\"Next chapter\">";
        let out = translate_page(html, &japanese);
        assert_eq!(
            out,
            "<a href=\"print.html\" title=\"本書を印刷\" aria-label=\"本書を印刷\">\
            <button id=\"mdbook-theme-default_theme\">自動</button>\
            <p><kbd>?</kbd> でこのヘルプを表示</p>\
            <main><p>Auto</p></main>\
            <a rel=\"next\" title=\"次の章\" aria-label=\"次の章\">"
        );
    }

    #[test]
    fn mdbooks_scripts_say_their_words_and_search_header_in_the_language() {
        let js = "btn.title = 'Copy to clipboard';\n            return count + ' search results for \\'' + searchterm + '\\':';\n";
        let out = translate_script(js, &japanese);
        assert_eq!(
            out,
            "btn.title = 'クリップボードにコピー';\n            return '' + '「' + searchterm + '」の検索結果：' + count + ' 件';\n"
        );
    }
}
