//! The rule "big numbers in the book are written with thousands separators".
//!
//! The problem: "2279184" is hard to read and easy to misread by a factor
//! of ten; the book writes "2,279,184" (the recorders' `thousands`). The
//! state: each line of the book's Markdown outside code (fenced blocks,
//! code spans, HTML comments and tags, links' addresses), and the text
//! between the tags of every generated snippet (quizzes, captions, labels;
//! a player's JSON is data, not prose). A run of five or more digits there,
//! not part of a word (an OEIS id such as A000170, a hash) nor of a decimal
//! fraction, is reported with its file and line. Years have four digits
//! and pass. Cost: one pass over each file.

use book_trace::separated;
use std::path::Path;

/// Every unseparated big number in the book's prose and snippets.
pub fn problems(root: &Path) -> Vec<String> {
    let mut files = super::book_pages(root);
    snippets(&root.join("book/src"), &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let shown = file.strip_prefix(root).unwrap_or(&file).display();
        let html = file.extension().is_some_and(|e| e == "html");
        for (line, number) in if html {
            in_snippet(&text)
        } else {
            in_markdown(&text)
        } {
            problems.push(format!(
                "{shown}:{line}: {number} has no thousands separators: write {}",
                separated(&number)
            ));
        }
    }
    problems
}

/// The generated snippets under `dir` (`*/generated/*.html`).
fn snippets(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            snippets(&path, out);
        } else if path.extension().is_some_and(|e| e == "html")
            && path
                .parent()
                .is_some_and(|p| p.file_name().is_some_and(|n| n == "generated"))
        {
            out.push(path);
        }
    }
}

/// (line, number) for each big number of a Markdown page's prose.
fn in_markdown(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fence: Option<&str> = None;
    let mut comment = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match fence {
            Some(f) if trimmed.starts_with(f) => {
                fence = None;
                continue;
            }
            Some(_) => continue,
            None if trimmed.starts_with("```") || trimmed.starts_with("~~~") => {
                fence = Some(&trimmed[..3]);
                continue;
            }
            None => {}
        }
        let mut prose = String::new();
        let mut rest = line;
        // HTML comments may span lines; tags and code spans may not.
        while !rest.is_empty() {
            if comment {
                match rest.find("-->") {
                    Some(end) => {
                        rest = &rest[end + 3..];
                        comment = false;
                    }
                    None => rest = "",
                }
                continue;
            }
            match rest.find("<!--") {
                Some(start) => {
                    prose.push_str(&rest[..start]);
                    prose.push(' ');
                    rest = &rest[start + 4..];
                    comment = true;
                }
                None => {
                    prose.push_str(rest);
                    rest = "";
                }
            }
        }
        let outside_code: String = prose.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        found.extend(numbers(&without_markup(&outside_code)).map(|m| (n + 1, m)));
    }
    found
}

/// (line, number) for each big number in the text between a snippet's
/// tags; a `<script>` block (a player's data) is skipped.
fn in_snippet(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        let mut words = String::new();
        while let Some(open) = rest.find('<') {
            words.push_str(&rest[..open]);
            words.push(' ');
            let after = &rest[open..];
            let skip = if after.starts_with("<script") {
                after.find("</script>").map(|e| e + "</script>".len())
            } else {
                after.find('>').map(|e| e + 1)
            };
            rest = skip.map_or("", |e| &after[e..]);
        }
        words.push_str(rest);
        found.extend(numbers(&words).map(|m| (n + 1, m)));
    }
    found
}

/// Text with its HTML tags, its `{{#...}}` directives and its links'
/// addresses (`](...)`, `<https://...>`, bare URLs) blanked out.
fn without_markup(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let next = [
            rest.find('<').map(|i| (i, ">")),
            rest.find("{{").map(|i| (i, "}}")),
            rest.find("](").map(|i| (i, ")")),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|(i, _)| *i);
        let Some((start, close)) = next else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..start]);
        out.push(' ');
        let after = &rest[start + 1..];
        let end = if close == ")" {
            // A link's address may hold parentheses of its own
            // (`.../0012-365X(76)90068-6`): the one that closes it is the
            // first at depth zero.
            closing_paren(&after[1..]).map(|e| e + 1)
        } else {
            after.find(close)
        };
        rest = end.map_or("", |e| &after[e + close.len()..]);
    }
    out.split_whitespace()
        .filter(|w| !w.contains("://"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The index of the `)` that closes a text opened by `(`, or `None`.
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The runs of five or more digits in `text` that stand alone: not inside
/// a word (A000170, 0x1F3A5), not after a decimal point or a separator
/// (3.14159, 1,000,000's groups are three digits anyway).
fn numbers(text: &str) -> impl Iterator<Item = String> + '_ {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let before = start.checked_sub(1).map(|b| bytes[b]);
        let glued = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphabetic() || c == b'_');
        let fraction = before == Some(b'.') && start >= 2 && bytes[start - 2].is_ascii_digit();
        if i - start >= 5 && !glued(before) && !glued(bytes.get(i).copied()) && !fraction {
            out.push(text[start..i].to_string());
        }
    }
    out.into_iter()
}

/// "2279184" -> "2,279,184".
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_number_in_prose_is_named_with_its_line() {
        let page = "# Title\n\nIt visits 14200 nodes, then 2,279,184.\nSmall: 9999 and 2026.\n";
        assert_eq!(in_markdown(page), vec![(3, "14200".to_string())]);
        assert_eq!(separated("2279184"), "2,279,184");
        assert_eq!(separated("14200"), "14,200");
        // Prose after a link whose address holds parentheses is still read.
        let linked = "See [the paper](https://x.org/a(76)b) for 12345 cases.\n";
        assert_eq!(in_markdown(linked), vec![(1, "12345".to_string())]);
    }

    #[test]
    fn code_ids_links_and_fractions_are_not_prose() {
        let page = "```text\nboards 14200 73712\n```\n\
                    Run `count(123456)` for OEIS A000170, 3.14159 or 0x1F3A5.\n\
                    <!-- generated 20261124 -->\n\
                    See [the paper](https://doi.org/10.1016/0012-365X(76)90068-6) and <https://x.org/123456>.\n\
                    {{#include generated/fig-12345.html}}\n";
        assert_eq!(in_markdown(page), Vec::<(usize, String)>::new());
    }

    #[test]
    fn a_comment_over_several_lines_hides_them_all() {
        let page = "<!--\n12345\n-->\nbut 67890 shows\n";
        assert_eq!(in_markdown(page), vec![(4, "67890".to_string())]);
    }

    #[test]
    fn a_snippet_is_read_between_its_tags_but_not_in_its_data() {
        let html = "<div id=\"quiz-10000\"><p>It makes 410537 attempts</p>\n\
                    <script type=\"application/json\">[123456]</script><text x=\"12345\">0</text>\n\
                    <li>1,368</li><li>15508</li>\n";
        assert_eq!(
            in_snippet(html),
            vec![(1, "410537".to_string()), (3, "15508".to_string())]
        );
    }
}
