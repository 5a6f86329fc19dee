//! The plots' words: the titles, axis labels and legends of the SVG figures
//! a measurement run writes (`apples/figures/calls.svg`, `times.svg`, ...).
//!
//! The problem: a page shows a plot as an image, so neither catalogue ever
//! sees its `<text>` elements, and a translated book showed English plots.
//! Their words are messages of the `ui` catalogue, numbers as placeholders
//! (`placeholders.rs`), like the measurement pages'; the build writes each
//! language's copy of the plot with them translated. A message is a text
//! element's content with words and a space in it: a single word on a plot
//! is a function's or a stage's name (`count_bits`, `naive`), which the
//! pages leave in English too. The state: the SVG's source. The cost: one
//! scan of each plot per extraction or build.

use super::measured::has_words;
use super::placeholders::template;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The plots under `src` (any `.svg` but the book's own assets), sorted.
pub fn plots(src: &Path) -> Vec<PathBuf> {
    super::files_under(src, |path| {
        let inside = path.strip_prefix(src).unwrap_or(path);
        path.extension().is_some_and(|x| x == "svg")
            && !inside
                .parent()
                .is_some_and(|dir| dir.iter().any(|c| c == "assets"))
    })
}

/// Each `<text ...>` element's content (with no element inside it): its
/// byte range and its text, entities decoded.
fn texts(svg: &str) -> Vec<(Range<usize>, String)> {
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(k) = svg[i..].find("<text") {
        let open = i + k;
        let Some(gt) = svg[open..].find('>').map(|g| open + g + 1) else {
            break;
        };
        let Some(end) = svg[gt..].find('<').map(|l| gt + l) else {
            break;
        };
        i = end;
        if !svg[end..].starts_with("</text>") || svg[open..gt].ends_with("/>") {
            continue;
        }
        let text = svg[gt..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        found.push((gt..end, text));
    }
    found
}

/// Whether a plot's text is a message: words, and more than one of them.
fn is_message(text: &str) -> bool {
    text.trim().contains(' ') && has_words(&template(text).0)
}

/// The templates of a plot's messages, in order.
pub fn messages(svg: &str) -> Vec<String> {
    texts(svg)
        .into_iter()
        .filter(|(_, t)| is_message(t))
        .map(|(_, t)| template(&t).0)
        .collect()
}

/// The plot with each message `translate` answers replaced by its answer.
pub fn translate(svg: &str, translate: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut done = 0;
    for (range, text) in texts(svg) {
        if !is_message(&text) {
            continue;
        }
        if let Some(t) = translate(&text) {
            out.push_str(&svg[done..range.start]);
            out.push_str(&t.replace('&', "&amp;").replace('<', "&lt;"));
            done = range.end;
        }
    }
    out.push_str(&svg[done..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLOT: &str = "<svg><text x=\"1\" font-size=\"14\">Work for N people (log scale)</text>\n\
        <text x=\"2\">1e3</text><text x=\"3\">100 ms</text><text>count_bits</text>\
        <text>naive calls &amp; more</text><line x1=\"0\"/></svg>";

    #[test]
    fn a_plots_messages_are_its_texts_of_more_than_one_word() {
        assert_eq!(
            messages(PLOT),
            [
                "Work for N people (log scale)",
                "{0} ms",
                "naive calls & more"
            ]
        );
    }

    #[test]
    fn a_translated_plot_keeps_its_layout_names_and_escapes() {
        let out = translate(PLOT, &mut |s| match template(s) {
            (t, _) if t == "Work for N people (log scale)" => Some("Работа (лог. шкала)".into()),
            (t, args) if t == "{0} ms" => Some(format!("{} мс", args[0])),
            (t, _) if t == "naive calls & more" => Some("вызовы & <прочее>".into()),
            _ => None,
        });
        assert!(
            out.contains("<text x=\"1\" font-size=\"14\">Работа (лог. шкала)</text>"),
            "{out}"
        );
        assert!(
            out.contains("<text x=\"3\">100 мс</text><text>count_bits</text>"),
            "{out}"
        );
        assert!(
            out.contains("<text>вызовы &amp; &lt;прочее></text><line x1=\"0\"/></svg>"),
            "{out}"
        );
    }
}
