//! What the learner types, resolved: exercise, chapter and function names,
//! and pages.
//!
//! The problem: `hint` and `reset` take a name the learner typed (an
//! exercise, a chapter, `chapter/exercise` or `chapter exercise`), and a
//! typo must get the nearest real names rather than a bare "no such". The
//! state is the chapter list; the nearest names are ranked by Jaro-Winkler
//! similarity (`strsim`) over every exercise, chapter and `chapter/exercise`.
//! Pages are named as the book shows them: their title in `SUMMARY.md`, and
//! the address `workbook book serve` gives them. Cost: linear in the number
//! of names, and one read of `SUMMARY.md` per page named.

use crate::info::{Chapter, Exercise};
use anyhow::{Result, bail};
use std::path::Path;

/// What a name typed by the learner stands for.
pub enum Named<'a> {
    Exercise(&'a Chapter, &'a Exercise),
    Chapter(&'a Chapter),
}

/// Resolves one or two words: `exercise`, `chapter`, `chapter/exercise`,
/// or `chapter exercise`; a lone stubbed function names its exercise. A chapter is its slug, number or folder.
pub fn resolve<'a>(chapters: &'a [Chapter], words: &[String]) -> Result<Named<'a>> {
    match words {
        [one] => match one.split_once('/') {
            Some((c, e)) => exercise_in(chapters, c, e),
            None => single(chapters, one),
        },
        [c, e] => exercise_in(chapters, c, e),
        _ => bail!("give one exercise or chapter name, or a chapter and an exercise"),
    }
}

fn single<'a>(chapters: &'a [Chapter], name: &str) -> Result<Named<'a>> {
    let exercises: Vec<_> = chapters
        .iter()
        .flat_map(|c| c.exercises.iter().map(move |e| (c, e)))
        .filter(|(_, e)| e.name == name)
        .collect();
    match exercises.as_slice() {
        [(c, e)] => return Ok(Named::Exercise(c, e)),
        [] => {}
        many => {
            let spelled: Vec<_> = many
                .iter()
                .map(|(c, e)| format!("`{} {}`", c.chapter.slug, e.name))
                .collect();
            bail!(
                "`{name}` is an exercise of several chapters; say which: {}",
                spelled.join(" or ")
            );
        }
    }
    if let Some(c) = chapter(chapters, name) {
        return Ok(Named::Chapter(c));
    }
    // A function the learner writes names the exercise that stubs it.
    let owners: Vec<_> = chapters
        .iter()
        .flat_map(|c| c.exercises.iter().map(move |e| (c, e)))
        .filter(|(_, e)| e.stubs.contains_key(name))
        .collect();
    if let [(c, e)] = owners.as_slice() {
        return Ok(Named::Exercise(c, e));
    }
    bail!(
        "no exercise or chapter `{name}`{}",
        did_you_mean(chapters, name)
    )
}

fn exercise_in<'a>(chapters: &'a [Chapter], c: &str, e: &str) -> Result<Named<'a>> {
    let Some(ch) = chapter(chapters, c) else {
        bail!("no chapter `{c}`{}", did_you_mean(chapters, c));
    };
    match ch.exercises.iter().find(|x| x.name == e) {
        Some(x) => Ok(Named::Exercise(ch, x)),
        None => {
            let names: Vec<_> = ch.exercises.iter().map(|x| x.name.as_str()).collect();
            bail!(
                "chapter {} has no exercise `{e}`{}; its exercises are {}",
                ch.chapter.slug,
                nearest(&names, e)
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default(),
                names.join(", ")
            )
        }
    }
}

/// The chapter called `name` by slug, number or folder.
pub fn chapter<'a>(chapters: &'a [Chapter], name: &str) -> Option<&'a Chapter> {
    chapters.iter().find(|c| {
        c.chapter.slug == name || c.chapter.number.to_string() == name || c.folder() == name
    })
}

/// "; did you mean `a`, `b`?" over every name the learner could have meant,
/// or a pointer to the list when nothing is close.
pub fn did_you_mean(chapters: &[Chapter], typed: &str) -> String {
    let mut names: Vec<String> = chapters.iter().map(|c| c.chapter.slug.clone()).collect();
    for c in chapters {
        names.extend(c.exercises.iter().map(|e| e.name.clone()));
    }
    let mut scored: Vec<(f64, &String)> = names
        .iter()
        .map(|n| (strsim::jaro_winkler(typed, n), n))
        .filter(|(s, _)| *s >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.dedup_by(|a, b| a.1 == b.1);
    if scored.is_empty() {
        return "; `cargo run -p workbook` lists every chapter and exercise".into();
    }
    let best: Vec<_> = scored
        .iter()
        .take(3)
        .map(|(_, n)| format!("`{n}`"))
        .collect();
    format!("; did you mean {}?", best.join(", "))
}

fn nearest<'a>(names: &[&'a str], typed: &str) -> Option<&'a str> {
    names
        .iter()
        .map(|n| (strsim::jaro_winkler(typed, n), *n))
        .filter(|(s, _)| *s >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

/// A book page as the book shows it: `"Title" (book/src/file.md; at
/// http://127.0.0.1:3000/file.html#part when served)`. `book` is relative
/// to `book/src`, with an optional `#fragment`.
pub fn page(root: &Path, book: &str) -> String {
    let (file, fragment) = book
        .split_once('#')
        .map_or((book, None), |(f, a)| (f, Some(a)));
    let summary = std::fs::read_to_string(root.join("book/src/SUMMARY.md")).unwrap_or_default();
    let title = summary_title(&summary, file);
    let section = fragment.and_then(|f| {
        let text = std::fs::read_to_string(root.join("book/src").join(file)).ok()?;
        section_title(&text, f)
    });
    let shown = match (title, section) {
        (Some(t), Some(s)) => format!("\"{t}\", section \"{s}\""),
        (Some(t), None) => format!("\"{t}\""),
        (None, Some(s)) => format!("section \"{s}\""),
        (None, None) => String::new(),
    };
    let html = file.strip_suffix(".md").unwrap_or(file);
    let anchor = fragment.map(|f| format!("#{f}")).unwrap_or_default();
    format!(
        "{shown} (book/src/{file}; http://127.0.0.1:3000/{html}.html{anchor} once `cargo run -p workbook --features book -- book serve` runs)"
    )
    .trim_start()
    .to_string()
}

/// The title `SUMMARY.md` gives the page `file`: `- [Title](file)`.
fn summary_title(summary: &str, file: &str) -> Option<String> {
    let link = format!("]({file})");
    summary.lines().find_map(|l| {
        let end = l.find(&link)?;
        let start = l[..end].rfind('[')?;
        Some(l[start + 1..end].to_string())
    })
}

/// The text of the heading whose mdBook id is `id`.
fn section_title(page: &str, id: &str) -> Option<String> {
    page.lines().find_map(|l| {
        let title = l.strip_prefix('#')?.trim_start_matches('#').trim();
        (crate::markdown::heading_id(l).as_deref() == Some(id)).then(|| title.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_link_gives_the_page_title() {
        let summary =
            "- [Handing out apples](apples/index.md)\n  - [Memoization](apples/memo.md)\n";
        assert_eq!(
            summary_title(summary, "apples/memo.md").as_deref(),
            Some("Memoization")
        );
        assert_eq!(summary_title(summary, "apples/none.md"), None);
    }

    #[test]
    fn a_fragment_names_its_heading() {
        let page = "# Top\n\n## The explicit stack\n";
        assert_eq!(
            section_title(page, "the-explicit-stack").as_deref(),
            Some("The explicit stack")
        );
    }
}
