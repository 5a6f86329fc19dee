//! A translated page keeps the English page's section ids, so a link to
//! `bits.md#nodes-in-lanes` lands on that section in every language.
//!
//! The problem: mdBook derives a heading's id from its text, so a translated
//! heading gets a translated id (or none a reader could guess), while the
//! links of every page (kept as written by the check) and of other sites
//! name the English one. The fix is made on the written HTML, after mdBook:
//! a translated page has the same headings in the same order as the English
//! page (gettext translates a heading as a heading, and includes are the
//! same files), so the `i`-th heading takes the `i`-th English id. That
//! covers what a Markdown rewrite would miss (headings of included pages,
//! definition terms, the suffixes mdBook adds to repeated ids) and keeps an
//! explicit `{#id}`, since the English page has it too. The state: the
//! English page's ids. The cost: one scan of each page.

/// Where mdBook puts the id of a heading (or definition term) it wrote: the
/// anchor it inserts as the heading's first child.
const ANCHOR: &str = "<a class=\"header\" href=\"#";

/// The section ids of a page mdBook wrote, in order.
pub fn heading_ids(html: &str) -> Vec<String> {
    html.match_indices(ANCHOR)
        .filter_map(|(k, _)| {
            let rest = &html[k + ANCHOR.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        })
        .collect()
}

/// The translated page with its section ids replaced, in order, by the
/// English page's; `None` when the two pages do not have the same number
/// of sections (then no pairing is sure, and the page is left as mdBook
/// wrote it). Also returns each changed id as (translated, English), for
/// the search index.
pub fn keep_english_ids(html: &str, english: &[String]) -> Option<(String, Vec<(String, String)>)> {
    let anchors: Vec<usize> = html.match_indices(ANCHOR).map(|(k, _)| k).collect();
    if anchors.len() != english.len() {
        return None;
    }
    let mut out = String::with_capacity(html.len());
    let mut changed = Vec::new();
    let mut done = 0;
    for (&k, wanted) in anchors.iter().zip(english) {
        let rest = &html[k + ANCHOR.len()..];
        let end = rest.find('"')?;
        let id = &rest[..end];
        // The heading's own tag ends where the anchor starts.
        let tag_start = html[done..k].rfind('<').map_or(k, |t| done + t);
        let tag = &html[tag_start..k];
        let attribute = format!("id=\"{id}\"");
        out.push_str(&html[done..tag_start]);
        out.push_str(&tag.replacen(&attribute, &format!("id=\"{wanted}\""), 1));
        out.push_str(ANCHOR);
        out.push_str(wanted);
        done = k + ANCHOR.len() + end;
        if id != wanted {
            changed.push((id.to_string(), wanted.clone()));
        }
    }
    out.push_str(&html[done..]);
    Some((follow_renamed(&out, &changed), changed))
}

/// Every in-page link `href="#ID"` whose ID was renamed, pointed at the new
/// id, in one pass (so a renamed id is never renamed twice). mdBook's
/// `print.html` links each chapter to its first heading's id, which it
/// derives from the translated heading: without this, the 87 such links of
/// a translated print page lead nowhere once the headings take the English
/// ids.
fn follow_renamed(html: &str, renamed: &[(String, String)]) -> String {
    const HREF: &str = "href=\"#";
    if renamed.is_empty() {
        return html.to_string();
    }
    let map: std::collections::HashMap<&str, &str> = renamed
        .iter()
        .map(|(from, to)| (from.as_str(), to.as_str()))
        .collect();
    let mut out = String::with_capacity(html.len());
    let mut done = 0;
    for (k, _) in html.match_indices(HREF) {
        let start = k + HREF.len();
        let Some(end) = html[start..].find('"').map(|e| start + e) else {
            continue;
        };
        if let Some(to) = map.get(&html[start..end]) {
            out.push_str(&html[done..start]);
            out.push_str(to);
            done = end;
        }
    }
    out.push_str(&html[done..]);
    out
}

/// A search index's `"page.html#id"` addresses with each id in `renamed`
/// (for that page) replaced by its English id.
pub fn rename_in_search_index(index: &str, page: &str, renamed: &[(String, String)]) -> String {
    let mut out = index.to_string();
    for (from, to) in renamed {
        out = out.replace(&format!("\"{page}#{from}\""), &format!("\"{page}#{to}\""));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENGLISH: &str = "<h1 id=\"n-queens\"><a class=\"header\" href=\"#n-queens\">N queens</a></h1>\n\
        <p>See <a href=\"#nodes-in-lanes\">the lanes</a>.</p>\n\
        <h2 id=\"nodes-in-lanes\"><a class=\"header\" href=\"#nodes-in-lanes\">Nodes in lanes</a></h2>\n\
        <h3 id=\"kept\"><a class=\"header\" href=\"#kept\">Kept</a></h3>\n\
        <dt id=\"a-term\"><a class=\"header\" href=\"#a-term\">A term</a></dt>";

    const JAPANESE: &str = "<h1 id=\"n-クイーン\"><a class=\"header\" href=\"#n-クイーン\">N クイーン</a></h1>\n\
        <p><a href=\"#nodes-in-lanes\">レーン</a>を参照。</p>\n\
        <h2 id=\"レーンのノード\"><a class=\"header\" href=\"#レーンのノード\">レーンのノード</a></h2>\n\
        <h3 id=\"kept\"><a class=\"header\" href=\"#kept\">残す</a></h3>\n\
        <dt id=\"用語\"><a class=\"header\" href=\"#用語\">用語</a></dt>";

    #[test]
    fn a_translated_page_takes_the_english_ids_in_order() {
        let english = heading_ids(ENGLISH);
        assert_eq!(english, ["n-queens", "nodes-in-lanes", "kept", "a-term"]);
        let (out, changed) = keep_english_ids(JAPANESE, &english).expect("same sections");
        assert_eq!(heading_ids(&out), english);
        assert!(out.contains(
            "<h2 id=\"nodes-in-lanes\"><a class=\"header\" href=\"#nodes-in-lanes\">レーンのノード</a></h2>"
        ));
        assert!(
            out.contains("<dt id=\"a-term\"><a class=\"header\" href=\"#a-term\">用語</a></dt>")
        );
        // The link in the text already named the English id: now it lands.
        assert!(out.contains("<p><a href=\"#nodes-in-lanes\">レーン</a>を参照。</p>"));
        assert!(!out.contains("レーンのノード\""), "{out}");
        assert_eq!(changed.len(), 3, "an id already English is not renamed");
    }

    #[test]
    fn a_link_to_a_translated_heading_follows_it_to_its_english_id() {
        // print.html: mdBook links a chapter by its translated heading's id.
        let english = heading_ids(ENGLISH);
        let print = JAPANESE.replace("を参照", "と<a href=\"#レーンのノード\">ここ</a>を参照");
        let (out, _) = keep_english_ids(&print, &english).expect("same sections");
        assert!(
            out.contains("<a href=\"#nodes-in-lanes\">ここ</a>"),
            "{out}"
        );
        assert!(!out.contains("#レーンのノード"), "{out}");
    }

    #[test]
    fn pages_with_different_sections_are_left_as_written() {
        let english = heading_ids(ENGLISH);
        assert!(keep_english_ids(JAPANESE, &english[..3]).is_none());
    }

    #[test]
    fn the_search_index_follows_the_renamed_ids() {
        let index = r#"{"doc_urls":["n_queens/bits.html#レーンのノード","n_queens/other.html#レーンのノード"]}"#;
        let renamed = [("レーンのノード".to_string(), "nodes-in-lanes".to_string())];
        assert_eq!(
            rename_in_search_index(index, "n_queens/bits.html", &renamed),
            r#"{"doc_urls":["n_queens/bits.html#nodes-in-lanes","n_queens/other.html#レーンのノード"]}"#
        );
    }
}
