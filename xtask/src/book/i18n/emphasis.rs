//! Emphasis that holds between Chinese or Japanese characters.
//!
//! The problem: the extractor writes the English text's emphasis as
//! `_..._`, and translators keep it; but CommonMark lets an underscore open
//! or close emphasis only at a word's edge, and a CJK sentence has no
//! spaces, so `の_深さ_を` prints its underscores. Asterisks do not help
//! when the emphasis ends in punctuation (`_...か？_同じ`: a closing `*`
//! after punctuation must be followed by a space or punctuation too). So the
//! build writes each translation's emphasis as `<em>...</em>` before the
//! pages are translated (inline HTML holds anywhere, and the Markdown inside
//! it, a code span, is still read); translators write `_..._` as the English
//! does, with no space around it. The state: the message and its
//! translation. The cost: one parse of each translation that holds an
//! underscore.
//!
//! An underscore is rewritten only when the rewrite is sure: the
//! translation's underscore pairs (outside code spans, link targets and
//! tags) are exactly as many as the English text's emphases, and the
//! rewritten text reads as that many emphases. Anything else (an
//! identifier such as `snake_case` written outside a code span, a pair a
//! translator left out) is left as written.

use pulldown_cmark::{Event, Options, Parser, Tag};

/// How many emphases (not strong emphases) Markdown reads in `text`, as
/// `_..._`, `*...*` or `<em>`.
pub fn emphases(text: &str) -> usize {
    Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
        .filter(|e| match e {
            Event::Start(Tag::Emphasis) => true,
            Event::InlineHtml(html) => html.as_ref() == "<em>",
            _ => false,
        })
        .count()
}

/// `translation` with the underscores of its emphases written as `<em>`
/// and `</em>`, when they pair with the emphases of `english`; see the
/// module doc.
pub fn html_emphasis(english: &str, translation: &str) -> String {
    if !translation.contains('_') {
        return translation.to_string();
    }
    let wanted = emphases(english);
    if wanted == 0 {
        return translation.to_string();
    }
    let pairs = underscore_pairs(translation);
    if pairs.len() != wanted {
        return translation.to_string();
    }
    let mut out = String::with_capacity(translation.len() + 9 * pairs.len());
    let mut done = 0;
    for (open, close) in pairs {
        out.push_str(&translation[done..open]);
        out.push_str("<em>");
        out.push_str(&translation[open + 1..close]);
        out.push_str("</em>");
        done = close + 1;
    }
    out.push_str(&translation[done..]);
    if emphases(&out) == wanted {
        out
    } else {
        translation.to_string()
    }
}

/// The byte offsets of single underscores that pair as emphasis
/// delimiters: an opener before a non-space, a closer after one; outside
/// code spans, link targets (`](...)`) and tags or autolinks (`<...>`).
fn underscore_pairs(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut pairs = Vec::new();
    let mut open: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                // A code span: up to a run of as many backquotes.
                let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
                let fence = &text[i..i + run];
                i = text[i + run..]
                    .find(fence)
                    .map_or(bytes.len(), |k| i + run + k + run);
                continue;
            }
            b'(' if i > 0 && bytes[i - 1] == b']' => {
                i = text[i..].find(')').map_or(bytes.len(), |k| i + k + 1);
                continue;
            }
            b'<' => {
                i = text[i..].find('>').map_or(bytes.len(), |k| i + k + 1);
                continue;
            }
            b'\\' => {
                i += 2;
                continue;
            }
            b'_' => {
                let before = text[..i].chars().next_back();
                let after = text[i + 1..].chars().next();
                let single = before != Some('_') && after != Some('_');
                if single {
                    match open {
                        None if after.is_some_and(|c| !c.is_whitespace()) => open = Some(i),
                        Some(o) if before.is_some_and(|c| !c.is_whitespace()) && o + 1 < i => {
                            pairs.push((o, i));
                            open = None;
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emphasis_between_cjk_characters_is_written_as_html() {
        let english = "This is _depth-first search_ (DFS), or _backtracking_.";
        let japanese = "これが_深さ優先探索_（DFS）で、_バックトラック_と呼ばれます。";
        // As written, CommonMark reads no emphasis in it.
        assert_eq!(emphases(japanese), 0);
        let starred = html_emphasis(english, japanese);
        assert_eq!(
            starred,
            "これが<em>深さ優先探索</em>（DFS）で、<em>バックトラック</em>と呼ばれます。"
        );
        assert_eq!(emphases(&starred), 2);
        let chinese = "搜索一棵_树_则完全不需要 `seen_flag` 标记";
        assert_eq!(
            html_emphasis("Searching a _tree_ needs no `seen_flag`", chinese),
            "搜索一棵<em>树</em>则完全不需要 `seen_flag` 标记"
        );
    }

    #[test]
    fn every_translation_of_the_book_keeps_its_emphases_as_built() {
        let po_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/po");
        let mut lost = Vec::new();
        for code in ["ja", "zh-CN", "ru"] {
            let path = po_dir.join(format!("{code}.po"));
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let catalogue = crate::book::i18n::po::parse(code, &text).expect("parses");
            for entry in catalogue.live() {
                let Some(msgstr) = entry.msgstr.first().filter(|s| !s.is_empty()) else {
                    continue;
                };
                let wanted = emphases(&entry.msgid);
                if emphases(&html_emphasis(&entry.msgid, msgstr)) != wanted {
                    lost.push(format!("{code}.po:{}: {msgstr}", entry.line));
                }
            }
        }
        assert!(
            lost.is_empty(),
            "{} translations lose an emphasis:\n{}",
            lost.len(),
            lost.join("\n")
        );
    }

    #[test]
    fn underscores_that_are_not_the_english_emphasis_are_left_alone() {
        // No emphasis in the English: an identifier stays.
        assert_eq!(
            html_emphasis("Call count_exact.", "count_exact を_呼ぶ_"),
            "count_exact を_呼ぶ_"
        );
        // Link targets and code spans keep their underscores.
        let english = "See [the _text_](a_b.md#c_d) and `x_y`.";
        let russian = "См. [_текст_](a_b.md#c_d) и `x_y`.";
        assert_eq!(
            html_emphasis(english, russian),
            "См. [<em>текст</em>](a_b.md#c_d) и `x_y`."
        );
        // Emphasis that ends in punctuation, before a CJK character.
        assert_eq!(
            html_emphasis(
                "_May a queen go on `(row, col)`?_ It may",
                "_`(row, col)` に置いてよいか？_同じ"
            ),
            "<em>`(row, col)` に置いてよいか？</em>同じ"
        );
        // A pair missing from the translation: nothing is guessed.
        assert_eq!(html_emphasis("_a_ and _b_", "_а_ и б"), "_а_ и б");
    }
}
