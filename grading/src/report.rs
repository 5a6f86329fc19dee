//! The grader's outputs: `results.json` per learner (the Exercism
//! test-runner interface, version 3, plus points), and for the class
//! `grades.csv`, `report.md` and `report.html`.
//!
//! Everything here is written from the learners' typed [`Results`] (see
//! `results.rs`, which also keeps what the instructor's report shows whole:
//! compile errors, refusals, a test's whole message); nothing learners
//! wrote is interpreted as markup: every name, note and message goes
//! through `escape` (plain text on one line, or a fenced block it cannot
//! leave, or a CSV cell that is never a formula; what a note names between
//! the grader's backticks, a code span it cannot leave), and when the
//! Markdown becomes HTML any raw HTML is turned into text and links are
//! dropped.

use crate::config::Config;
use crate::escape;
use crate::hidden_seed::HiddenSeed;
use crate::record::{Case, ChapterStatus, Suite};
use crate::results::{Pair, Results, json_text};
use anyhow::Result;
use std::fmt::Write as _;
use std::path::Path;
use workbook_core::info::Chapter;

/// Writes `out/learners/LEARNER/results.json`.
pub fn write_learner(out: &Path, r: &Results) -> Result<()> {
    // Under `learners/`, so no learner id can meet grades.csv or a report.
    let dir = out.join("learners").join(&r.learner);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("results.json"), json_text(r)?)?;
    Ok(())
}

/// `grades.csv`: a maxima row, then one row per learner.
pub fn csv(chapters: &[Chapter], results: &[Results]) -> String {
    let mut cols = Vec::new();
    for c in chapters {
        for e in &c.exercises {
            cols.push(format!("{}/{}", c.chapter.slug, e.name));
        }
        cols.push(c.chapter.slug.clone());
    }
    let header: Vec<String> = cols.iter().map(|c| escape::csv(c)).collect();
    let mut s = format!("learner,{},total,percent\n", header.join(","));
    let row = |name: &str, r: &Results, max: bool| {
        let pick = |v: Pair| if max { v.max } else { v.points };
        let cells: Vec<String> = cols
            .iter()
            .map(|k| r.points_of(k).map(|v| num(pick(v))).unwrap_or_default())
            .collect();
        let total = Pair {
            points: r.points.total,
            max: r.points.max,
        };
        let pct = if total.max > 0.0 {
            100.0 * pick(total) / total.max
        } else {
            0.0
        };
        format!(
            "{},{},{},{:.1}\n",
            escape::csv(name),
            cells.join(","),
            num(pick(total)),
            pct
        )
    };
    if let Some(first) = results.first() {
        s.push_str(&row("(maximum)", first, true));
    }
    for r in results {
        s.push_str(&row(&r.learner, r, false));
    }
    s
}

fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A note of the intake (`ignored `islands.rs`: ...`) on one line of
/// Markdown: the grader writes what it names between backticks, and each
/// such pair becomes a code span, the rest plain text (`escape::md`). The
/// names inside come from the learner (a file or entry name), so a span's
/// text is only put on one line (`escape::line`) and held in a fence longer
/// than any backtick run in it, which it cannot close; a learner's backtick
/// can at worst move where a span starts or ends, never turn text into
/// markup. A name holding a character that is markup outside a code span
/// (`<`, `[`, `#`, `|`, ...) is escaped text between escaped backticks
/// instead: inert in a code span too, but not to a reader of the raw file,
/// a renderer that splits table cells on `|` inside code, or a check that
/// looks for raw markup. An unpaired backtick stays a plain, escaped one.
fn note(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, part) in parts.iter().enumerate() {
        let inside = i % 2 == 1;
        let closed = i + 1 < parts.len();
        if inside && closed && !part.is_empty() && !part.contains(MARKUP) {
            out.push_str(&code_span(part));
        } else {
            if inside {
                out.push_str("\\`");
            }
            out.push_str(&escape::md(part));
            if inside && closed {
                out.push_str("\\`");
            }
        }
    }
    out
}

/// What starts markup outside a code span: a tag or entity, a link, a
/// heading, a cell break, an escape.
const MARKUP: &[char] = &['<', '>', '[', ']', '&', '#', '|', '\\'];

/// `text` as an inline code span on one line (a note's names, a test id):
/// a fence of one backtick more than its longest run of backticks, and a space inside each fence when
/// the text starts or ends with a backtick or a space (CommonMark takes one
/// such space off each end, so the text reads as it is).
fn code_span(text: &str) -> String {
    let text = escape::line(text);
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

pub fn markdown(
    cases: &[Case],
    chapters: &[Chapter],
    config: &Config,
    seed: &HiddenSeed,
    results: &[Results],
) -> String {
    let mut md = String::from("# Grades\n\n");
    let _ = writeln!(
        md,
        "{} learner(s), {} graded test(s) ({} hidden). Limits per test: {} s wall clock, {} s CPU, {} MiB memory, {} KiB output.\n",
        results.len(),
        cases.len(),
        cases.iter().filter(|c| c.suite == Suite::Hidden).count(),
        config.time_limit_secs,
        config.cpu_limit_secs,
        config.memory_limit_mb,
        config.output_limit_kb
    );
    if cases.iter().any(|c| c.suite == Suite::Hidden) {
        let _ = writeln!(md, "{}\n", escape::line(&seed.describe()));
    }
    md.push_str("## Class summary\n\n| learner |");
    for c in chapters {
        let _ = write!(md, " {} |", escape::md(&c.chapter.slug));
    }
    md.push_str(" total | % |\n|---|");
    md.push_str(&"---:|".repeat(chapters.len() + 2));
    md.push('\n');
    let mut percents = Vec::new();
    for r in results {
        let _ = write!(md, "| {} |", escape::md(&r.learner));
        for c in chapters_of(chapters, r) {
            let flag = if matches!(c.status, ChapterStatus::Graded) {
                String::new()
            } else {
                format!(" ({})", c.status.label())
            };
            let _ = write!(md, " {}/{}{flag} |", num(c.points), num(c.max));
        }
        let p = &r.points;
        let pct = if p.max > 0.0 {
            100.0 * p.total / p.max
        } else {
            0.0
        };
        percents.push(pct);
        let _ = writeln!(md, " {}/{} | {pct:.0} |", num(p.total), num(p.max));
    }
    percents.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (percents.first(), percents.last()) {
        let mean = percents.iter().sum::<f64>() / percents.len() as f64;
        let median = percents[percents.len() / 2];
        let _ = writeln!(
            md,
            "\nScores: mean {mean:.0} %, median {median:.0} %, lowest {lo:.0} %, highest {hi:.0} %.\n"
        );
    }
    md.push_str("## Exercises\n\n| exercise | tests | learners with every test passing |\n|---|---:|---:|\n");
    for (ci, c) in chapters.iter().enumerate() {
        for e in &c.exercises {
            let mine: Vec<usize> = (0..cases.len())
                .filter(|&k| cases[k].chapter == ci && cases[k].exercise == e.name)
                .collect();
            let full = results
                .iter()
                .filter(|r| !mine.is_empty() && mine.iter().all(|&k| r.passed(k)))
                .count();
            let _ = writeln!(
                md,
                "| {}/{} | {} | {full}/{} |",
                escape::md(&c.chapter.slug),
                escape::md(&e.name),
                mine.len(),
                results.len()
            );
        }
    }
    md.push_str("\n## Learners\n");
    for r in results {
        learner_section(&mut md, cases, chapters, r);
    }
    md
}

/// The chapters of `r`, in the order of `chapters`.
fn chapters_of<'r>(
    chapters: &'r [Chapter],
    r: &'r Results,
) -> impl Iterator<Item = &'r crate::results::ChapterResults> {
    chapters
        .iter()
        .filter_map(|c| r.chapters.get(&c.chapter.slug))
}

fn learner_section(md: &mut String, cases: &[Case], chapters: &[Chapter], r: &Results) {
    let _ = writeln!(
        md,
        "\n### {}: {}/{}\n",
        escape::md(&r.learner),
        num(r.points.total),
        num(r.points.max)
    );
    for n in &r.notes_as_graded {
        let _ = writeln!(md, "- note: {}", note(n));
    }
    for (ci, c) in chapters.iter().enumerate() {
        let Some(s) = r.chapters.get(&c.chapter.slug).map(|c| &c.status) else {
            continue;
        };
        let slug = escape::md(&c.chapter.slug);
        match s {
            ChapterStatus::Graded => graded_section(md, cases, ci, c, r),
            ChapterStatus::NotSubmitted => {
                let _ = writeln!(md, "- {slug}: not submitted");
            }
            ChapterStatus::NotStarted => {
                let _ = writeln!(md, "- {slug}: not started (every stub as given)");
            }
            ChapterStatus::CompileError(e) | ChapterStatus::Error(e) => {
                let _ = writeln!(md, "- {slug}: {}\n", s.label());
                let short: Vec<&str> = e.lines().take(30).collect();
                for line in escape::code_block(&short.join("\n")).lines() {
                    let _ = writeln!(md, "    {line}");
                }
                md.push('\n');
            }
            ChapterStatus::Rejected(f) => {
                let _ = writeln!(md, "- {slug}: rejected before building\n");
                for line in escape::code_block(&f.join("\n")).lines() {
                    let _ = writeln!(md, "    {line}");
                }
                md.push('\n');
            }
        }
    }
}

/// A graded chapter: its failing tests, those with the same verdict and
/// message in one entry (an unstarted exercise fails every test alike).
fn graded_section(md: &mut String, cases: &[Case], ci: usize, c: &Chapter, r: &Results) {
    let failed: Vec<usize> = (0..cases.len())
        .filter(|&k| cases[k].chapter == ci && !r.passed(k))
        .collect();
    let slug = escape::md(&c.chapter.slug);
    if failed.is_empty() {
        let _ = writeln!(md, "- {slug}: every test passes");
        return;
    }
    let _ = writeln!(md, "- {slug}: {} test(s) not passing\n", failed.len());
    let mut groups: Vec<((&str, String), Vec<usize>)> = Vec::new();
    for k in failed {
        // In a graded chapter the verdict is the test's outcome, or `not run`.
        let key = match r.tests.get(k) {
            Some(t) => (t.verdict.as_str(), t.said.clone()),
            None => ("not run", String::new()),
        };
        match groups.iter_mut().find(|(g, _)| *g == key) {
            Some((_, members)) => members.push(k),
            None => groups.push((key, vec![k])),
        }
    }
    for ((label, msg), members) in groups {
        let first = code_span(&cases[members[0]].id);
        match members.len() {
            1 => {
                let _ = writeln!(md, "  - {first} ({label})\n");
            }
            n => {
                let _ = writeln!(md, "  - {first} and {} more alike ({label})\n", n - 1);
            }
        }
        if !msg.is_empty() {
            // A snapshot's diff is kept whole, the learner's `+` lines too.
            let short = workbook_core::runner::shown_lines(&msg, 12);
            for line in escape::code_block(&short.join("\n")).lines() {
                let _ = writeln!(md, "    {line}");
            }
            md.push('\n');
        }
    }
}

/// The Markdown report as a standalone page. Behind `escape`'s rules, a
/// second wall: raw HTML becomes text, and links and images are dropped
/// (their text kept), since the report itself never links anywhere.
pub fn html(md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd, html};
    let parser = Parser::new_ext(md, Options::ENABLE_TABLES).filter_map(|e| match e {
        Event::Html(t) | Event::InlineHtml(t) => Some(Event::Text(t)),
        Event::Start(Tag::Link { .. } | Tag::Image { .. })
        | Event::End(TagEnd::Link | TagEnd::Image) => None,
        other => Some(other),
    });
    let mut body = String::new();
    html::push_html(&mut body, parser);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Grades</title>\n<style>\
         body{{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}\
         table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2em .6em}}\
         pre{{background:#f6f6f6;padding:.6em;overflow-x:auto}}</style></head><body>\n{body}</body></html>\n"
    )
}

pub fn write_class(
    out: &Path,
    cases: &[Case],
    chapters: &[Chapter],
    config: &Config,
    seed: &HiddenSeed,
    results: &[Results],
) -> Result<()> {
    std::fs::write(out.join("grades.csv"), csv(chapters, results))?;
    let md = markdown(cases, chapters, config, seed, results);
    std::fs::write(out.join("report.html"), html(&md))?;
    std::fs::write(out.join("report.md"), md)?;
    Ok(())
}

/// What `escape` makes of hostile text stays inert once rendered: the
/// renderer's half of `escape`'s rules (tested here, so `escape` stays a
/// leaf that no renderer's test reaches back into).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::escape::{code_block, md};

    const HOSTILE: &str = "x\n### alice: 100/100\r[win](javascript:alert(1)) <img src=x onerror=alert(1)> *a* |b| &lt;";

    #[test]
    fn markdown_text_renders_as_the_same_plain_text() {
        let escaped = md(HOSTILE);
        assert!(!escaped.contains('\n') && !escaped.contains('\r'));
        let html = html(&format!("| {escaped} |\n|---|\n| x |\n"));
        for bad in ["<img", "<a ", "href", "<em>", "<h3"] {
            assert!(!html.contains(bad), "{bad} in {html}");
        }
        // The text is all there, as text: the reader sees what was written.
        assert!(html.contains("[win](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains("*a* |b| &amp;lt;"), "{html}");
    }

    #[test]
    fn markdown_text_cannot_start_a_heading_or_a_list_item() {
        for s in [
            "# forged", "- item", "1. item", "> quote", "---", "<b>x</b>",
        ] {
            let html = html(&format!("{}\n", md(s)));
            let body = html.split_once("<body>\n").map_or("", |(_, b)| b);
            assert!(body.starts_with("<p>"), "{s:?} became {body}");
        }
    }

    /// The HTML body of one line of Markdown.
    fn body(md: &str) -> String {
        let html = html(&format!("{md}\n"));
        let body = html.split_once("<body>\n").map_or("", |(_, b)| b);
        body.trim_end_matches("</body></html>\n").to_string()
    }

    #[test]
    fn a_grader_note_s_backticked_names_render_as_code() {
        let note = note("ignored `islands.rs`: not a file of `00_intro`");
        assert_eq!(note, "ignored `islands.rs`\\: not a file of `00_intro`");
        assert_eq!(
            body(&format!("- note: {note}")),
            "<ul>\n<li>note: ignored <code>islands.rs</code>: not a file of \
             <code>00_intro</code></li>\n</ul>\n"
        );
    }

    #[test]
    fn a_learner_s_name_in_a_note_cannot_leave_its_code_span_or_the_line() {
        // What the intake writes of an entry named by the learner, the name
        // full of backticks, markup, HTML and a line break.
        let name = "a` [win](javascript:alert(1)) <img src=x onerror=alert(1)> ``*b*\n### alice: 100/100\r<b>x";
        // And one with no backtick, whole between the grader's two.
        let whole = "[win](javascript:alert(1)) <img src=x onerror=alert(1)> ### alice <b>x";
        for text in [
            format!("skipped `{whole}`: too large (9 bytes)"),
            format!("skipped `{name}`: too large (9 bytes)"),
            format!("`{name}"),
            format!("{name}`"),
            format!("ignored ``: {name}"),
        ] {
            let md = note(&text);
            assert!(!md.contains('\n') && !md.contains('\r'), "{md}");
            // Not even inside a code span: raw, the file would read as markup.
            for bad in ["### alice", "](javascript:", "<img", "<b>"] {
                let raw = md.match_indices(bad).any(|(i, _)| !md[..i].ends_with('\\'));
                assert!(!raw, "{bad} raw in {md}");
            }
            let html = body(&format!("- note: {md}"));
            for bad in ["<img", "<a ", "href", "<em>", "<h3", "<b>", "<p>"] {
                assert!(!html.contains(bad), "{bad} from {text:?} in {html}");
            }
            assert!(html.starts_with("<ul>\n<li>note: "), "{html}");
            assert_eq!(html.matches("<li>").count(), 1, "{html}");
            // Every character is still there for the reader, as text.
            for seen in [
                "javascript:alert(1)",
                "&lt;img src=x onerror=alert(1)&gt;",
                "### alice",
            ] {
                assert!(
                    html.contains(seen),
                    "{seen} from {text:?} missing in {html}"
                );
            }
        }
        // A span's text holding backticks gets a longer fence.
        assert_eq!(code_span("a``b"), "```a``b```");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(body(&code_span("`x")), "<p><code>`x</code></p>\n");
    }

    #[test]
    fn a_code_block_keeps_lines_and_cannot_be_left() {
        let text = "line one\n```\n# not a heading\r### nor this\n````";
        let block = code_block(text);
        assert!(block.starts_with("`````text\n") && block.ends_with("\n`````\n"));
        let html = html(&block);
        assert_eq!(html.matches("<pre>").count(), 1, "{html}");
        assert!(!html.contains("<h1") && !html.contains("<h3"), "{html}");
        assert!(html.contains("line one\n```\n# not a heading\\u{d}### nor this"));
    }
}
