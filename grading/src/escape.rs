//! Hostile text made inert for each format the gradebook is written in.
//!
//! The problem: everything a submission controls (entry names, archive
//! paths, compiler messages, panic messages, notes) reaches `report.md`,
//! `report.html` and `grades.csv`, and a name holding a newline, a `#`, a
//! link or a tag could write a heading with a forged score, a `javascript:`
//! link or a formula into them. This room is the only place that text is
//! turned into a format's syntax: every other writer calls it. State: none.
//! Cost: one pass over each string written.
//!
//! The rules, in one place:
//! * `line`: control characters (newlines, carriage returns, escape
//!   sequences), Unicode line separators and the invisible direction
//!   overrides are written as `\u{..}`, so any text fits on one line and
//!   reads as it is stored.
//! * `md`: `line`, then every ASCII punctuation character CommonMark gives
//!   a meaning to is backslash-escaped, so the text is plain text in any
//!   inline position (a table cell, a heading, a list item): no emphasis,
//!   link, image, autolink, HTML tag, entity or cell break.
//! * `code_block`: multi-line text for a fenced block: lines kept, carriage
//!   returns and other control characters shown as `\u{..}` (a lone `\r` is a
//!   line ending to CommonMark, and would let a line leave the block), in a
//!   fence longer than any backtick run inside.
//! * `csv`: `line`, then RFC 4180 quoting, and a cell a spreadsheet would
//!   read as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first)
//!   gets a leading `'`.
//! * HTML is made from the Markdown by `report::html` (whose tests show
//!   that what this module escapes stays inert there), which also turns
//!   any raw HTML into text and drops links, so the HTML is safe even if a
//!   rule here is missed.

use std::fmt::Write as _;

/// Whether `c` must not appear raw in a one-line field: control
/// characters, the Unicode line and paragraph separators, and the
/// invisible marks that reorder or hide text (bidi overrides, zero-width).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' // line and paragraph separators
                | '\u{200B}'..='\u{200F}' // zero-width and direction marks
                | '\u{202A}'..='\u{202E}' // direction embeddings and overrides
                | '\u{2066}'..='\u{2069}' // direction isolates
                | '\u{FEFF}' // zero-width no-break space
        )
}

/// `s` on one line: each unsafe character written `\u{XX}`.
pub fn line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// The ASCII punctuation that CommonMark (and its table extension) gives
/// a meaning to somewhere inline; each is escaped with a backslash, which
/// CommonMark allows before any ASCII punctuation.
const MD_SPECIAL: &[char] = &[
    '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '<', '>', '#', '+', '-', '.', '!', '|', '&',
    '~', '"', '\'', '=', ':',
];

/// `s` as plain Markdown text on one line.
pub fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in line(s).chars() {
        if MD_SPECIAL.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Multi-line `text` as a fenced code block (ending in a newline): a fence
/// longer than any backtick run in it, control characters other than the
/// newline and tab shown as `\u{..}`.
pub fn code_block(text: &str) -> String {
    let mut body = String::with_capacity(text.len());
    for c in text.trim_end().chars() {
        if c == '\n' || c == '\t' {
            body.push(c);
        } else if unsafe_char(c) {
            let _ = write!(body, "\\u{{{:x}}}", c as u32);
        } else {
            body.push(c);
        }
    }
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}text\n{body}\n{fence}\n")
}

/// `s` as one CSV cell: on one line, quoted when it holds a comma, a quote
/// or leading/trailing space, and never read as a formula.
pub fn csv(s: &str) -> String {
    let mut cell = line(s);
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        cell.insert(0, '\'');
    }
    if cell.contains([',', '"']) || cell.starts_with(' ') || cell.ends_with(' ') {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_never_holds_a_newline_or_an_invisible_mark() {
        let l = line("a\nb\rc\u{2028}d\u{202E}e\u{7}");
        assert_eq!(l, "a\\u{a}b\\u{d}c\\u{2028}d\\u{202e}e\\u{7}");
        assert_eq!(line("café ünï"), "café ünï");
    }

    #[test]
    fn a_csv_cell_is_one_cell_and_never_a_formula() {
        assert_eq!(csv("alice"), "alice");
        assert_eq!(csv("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv("+1"), "'+1");
        assert_eq!(csv("-rf"), "'-rf");
        assert_eq!(csv("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv("a,b"), "\"a,b\"");
        assert_eq!(csv("a\nb"), "a\\u{a}b");
        // A tab is shown, not kept, so it cannot start a formula either.
        assert_eq!(csv("\tx"), "\\u{9}x");
    }
}
