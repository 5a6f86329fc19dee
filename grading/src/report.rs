//! The grader's outputs: `results.json` per learner (the Exercism
//! test-runner interface, version 3, plus points), and for the class
//! `grades.csv`, `report.md` and `report.html`.
//!
//! Everything here is derived from the results in memory; nothing learners
//! wrote is interpreted as markup: every name, note and message goes
//! through `escape` (plain text on one line, or a fenced block it cannot
//! leave, or a CSV cell that is never a formula), and when the Markdown
//! becomes HTML any raw HTML is turned into text and links are dropped.

use crate::config::Config;
use crate::escape;
use crate::{Case, ChapterStatus, LearnerResult, Suite};
use anyhow::Result;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use syn::spanned::Spanned;
use workbook_core::info::Chapter;

/// Exercism truncates a test's output to this many characters.
const OUTPUT_CHARS: usize = 500;

/// The source text of every function in a suite file, by `mod::fn` path.
pub fn test_sources(file: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(file) else {
        return out;
    };
    let Ok(parsed) = syn::parse_file(&text) else {
        return out;
    };
    let lines: Vec<&str> = text.lines().collect();
    collect(&parsed.items, "", &lines, &mut out);
    out
}

fn collect(items: &[syn::Item], prefix: &str, lines: &[&str], out: &mut BTreeMap<String, String>) {
    for item in items {
        match item {
            syn::Item::Fn(f) => {
                let (a, b) = (f.span().start().line, f.span().end().line);
                let body = lines
                    .get(a.saturating_sub(1)..b.min(lines.len()))
                    .unwrap_or_default();
                out.insert(format!("{prefix}{}", f.sig.ident), dedent(body));
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect(inner, &format!("{prefix}{}::", m.ident), lines, out);
                }
            }
            _ => {}
        }
    }
}

fn dedent(lines: &[&str]) -> String {
    let pad = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(pad..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The function a test name comes from (an rstest case names its function).
pub fn source_of(sources: &BTreeMap<String, String>, test: &str) -> String {
    let mut name = test;
    loop {
        if let Some(s) = sources.get(name) {
            return s.clone();
        }
        match name.rsplit_once("::") {
            Some((head, _)) => name = head,
            None => return String::new(),
        }
    }
}

/// The most characters of one message kept in `results.json` and reports.
const MESSAGE_CHARS: usize = 4096;

/// `s` cut to at most `n` characters, saying how much was cut.
pub fn cap(s: &str, n: usize) -> String {
    let total = s.chars().count();
    if total <= n {
        return s.to_string();
    }
    let kept: String = s.chars().take(n).collect();
    format!("{kept}\n... ({} more characters cut)", total - n)
}

/// The most notes kept per learner, and the most bytes they may take
/// together: a submission of 100,000 skipped entries must not make a
/// report of megabytes. The rest are counted in one last note.
const NOTES_KEPT: usize = 50;
const NOTES_BYTES: usize = 16 << 10;

/// `notes` cut to `NOTES_KEPT` notes and `NOTES_BYTES` bytes, each note to
/// `MESSAGE_CHARS` characters, with an "and N more" note when any was cut.
pub fn cap_notes(notes: Vec<String>) -> Vec<String> {
    let total = notes.len();
    let mut kept = Vec::new();
    let mut bytes = 0;
    for n in notes {
        let n = cap(&n, MESSAGE_CHARS);
        if kept.len() == NOTES_KEPT || bytes + n.len() > NOTES_BYTES {
            break;
        }
        bytes += n.len();
        kept.push(n);
    }
    if kept.len() < total {
        kept.push(format!(
            "... and {} more note(s), not shown (at most {NOTES_KEPT} notes and {} KiB are kept per learner)",
            total - kept.len(),
            NOTES_BYTES >> 10
        ));
    }
    kept
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// Points earned and available, per exercise key (`slug/exercise`) and chapter.
pub struct Points {
    pub exercises: BTreeMap<String, (f64, f64)>,
    pub chapters: BTreeMap<String, (f64, f64)>,
    pub total: (f64, f64),
}

pub fn points(cases: &[Case], chapters: &[Chapter], r: &LearnerResult) -> Points {
    let mut p = Points {
        exercises: BTreeMap::new(),
        chapters: BTreeMap::new(),
        total: (0.0, 0.0),
    };
    for c in chapters {
        p.chapters.insert(c.chapter.slug.clone(), (0.0, 0.0));
        for e in &c.exercises {
            p.exercises
                .insert(format!("{}/{}", c.chapter.slug, e.name), (0.0, 0.0));
        }
    }
    for (k, case) in cases.iter().enumerate() {
        let slug = &chapters[case.chapter].chapter.slug;
        let got = if r.passed(k) { case.weight } else { 0.0 };
        for slot in [
            p.exercises
                .entry(format!("{slug}/{}", case.exercise))
                .or_default(),
            p.chapters.entry(slug.clone()).or_default(),
            &mut p.total,
        ] {
            slot.0 += got;
            slot.1 += case.weight;
        }
    }
    p
}

/// The verdict of one test in Exercism's terms, with our finer label.
fn test_json(case: &Case, status: &ChapterStatus, r: &crate::TestResult) -> Value {
    let (status, verdict, message, output) = match (status, &r.run) {
        (_, Some(run)) => {
            let st = match run.outcome {
                crate::Outcome::Passed => "pass",
                crate::Outcome::Failed => "fail",
                _ => "error",
            };
            let output =
                if run.outcome == crate::Outcome::Passed || run.outcome == crate::Outcome::Failed {
                    None
                } else {
                    Some(truncate(run.output.trim(), OUTPUT_CHARS))
                };
            let msg = (!run.message.is_empty()).then(|| {
                cap(
                    &format!("{}: {}", run.outcome.label(), run.message),
                    MESSAGE_CHARS,
                )
            });
            (st, run.outcome.label().to_string(), msg, output)
        }
        (ChapterStatus::Graded, None) => (
            "error",
            "not run".into(),
            Some(format!("not run: {}", status.why_not_run())),
            None,
        ),
        (s, None) => (
            "error",
            s.label().to_string(),
            Some(format!("not run: {}", s.why_not_run())),
            None,
        ),
    };
    json!({
        "name": case.id,
        "status": status,
        "message": message,
        "output": output.filter(|o| !o.is_empty()),
        "test_code": case.code,
        "task_id": case.task_id,
        "verdict": verdict,
        "hidden": case.suite == Suite::Hidden,
        "points": if status == "pass" { case.weight } else { 0.0 },
        "max_points": case.weight,
        "duration_secs": r.run.as_ref().map(|x| x.seconds),
    })
}

/// The whole `results.json` of one learner.
pub fn learner_json(cases: &[Case], chapters: &[Chapter], r: &LearnerResult) -> Value {
    let p = points(cases, chapters, r);
    let tests: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(k, c)| test_json(c, &r.chapters[c.chapter], &r.tests[k]))
        .collect();
    let problems: Vec<String> = chapters
        .iter()
        .zip(&r.chapters)
        .filter_map(|(c, s)| match s {
            ChapterStatus::CompileError(e) => {
                Some(format!("{}: compile error\n{e}", c.chapter.slug))
            }
            ChapterStatus::Rejected(f) => Some(format!(
                "{}: rejected before building\n{}",
                c.chapter.slug,
                cap(&f.join("\n"), MESSAGE_CHARS)
            )),
            ChapterStatus::Error(e) => Some(format!("{}: {e}", c.chapter.slug)),
            _ => None,
        })
        .collect();
    let any_ran = r.tests.iter().any(|t| t.run.is_some());
    let all_pass = !cases.is_empty() && (0..cases.len()).all(|k| r.passed(k));
    let status = if all_pass {
        "pass"
    } else if !any_ran && !problems.is_empty() {
        "error"
    } else {
        "fail"
    };
    let message = (!problems.is_empty()).then(|| cap(&problems.join("\n\n"), 4 * MESSAGE_CHARS));
    let pair = |(a, b): (f64, f64)| json!({ "points": a, "max": b });
    json!({
        "version": 3,
        "status": status,
        "message": message,
        "tests": tests,
        "learner": r.name,
        "notes": r.notes.iter().map(|n| cap(n, MESSAGE_CHARS)).collect::<Vec<_>>(),
        "chapters": chapters.iter().zip(&r.chapters).map(|(c, s)| (c.chapter.slug.clone(), json!({
            "status": s.label(),
            "points": p.chapters[&c.chapter.slug].0,
            "max": p.chapters[&c.chapter.slug].1,
        }))).collect::<serde_json::Map<_, _>>(),
        "points": {
            "total": p.total.0,
            "max": p.total.1,
            "exercises": p.exercises.iter().map(|(k, v)| (k.clone(), pair(*v))).collect::<serde_json::Map<_, _>>(),
        },
        "build_secs": r.build_secs,
        "run_secs": r.run_secs,
    })
}

pub fn write_learner(
    out: &Path,
    cases: &[Case],
    chapters: &[Chapter],
    r: &LearnerResult,
) -> Result<()> {
    // Under `learners/`, so no learner id can meet grades.csv or a report.
    let dir = out.join("learners").join(&r.name);
    std::fs::create_dir_all(&dir)?;
    let text = serde_json::to_string_pretty(&learner_json(cases, chapters, r))?;
    std::fs::write(dir.join("results.json"), text + "\n")?;
    Ok(())
}

/// `grades.csv`: a maxima row, then one row per learner.
pub fn csv(cases: &[Case], chapters: &[Chapter], results: &[LearnerResult]) -> String {
    let mut cols = Vec::new();
    for c in chapters {
        for e in &c.exercises {
            cols.push(format!("{}/{}", c.chapter.slug, e.name));
        }
        cols.push(c.chapter.slug.clone());
    }
    let header: Vec<String> = cols.iter().map(|c| escape::csv(c)).collect();
    let mut s = format!("learner,{},total,percent\n", header.join(","));
    let row = |name: &str, p: &Points, max: bool| {
        let pick = |v: &(f64, f64)| if max { v.1 } else { v.0 };
        let cells: Vec<String> = cols
            .iter()
            .map(|k| {
                p.exercises
                    .get(k)
                    .or_else(|| p.chapters.get(k))
                    .map(|v| num(pick(v)))
                    .unwrap_or_default()
            })
            .collect();
        let pct = if p.total.1 > 0.0 {
            100.0 * pick(&p.total) / p.total.1
        } else {
            0.0
        };
        format!(
            "{},{},{},{:.1}\n",
            escape::csv(name),
            cells.join(","),
            num(pick(&p.total)),
            pct
        )
    };
    if let Some(first) = results.first() {
        s.push_str(&row("(maximum)", &points(cases, chapters, first), true));
    }
    for r in results {
        s.push_str(&row(&r.name, &points(cases, chapters, r), false));
    }
    s
}

fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A test id (the instructor's) as a code span, on one line.
fn code(text: &str) -> String {
    format!("`{}`", escape::line(text).replace('`', "'"))
}

pub fn markdown(
    cases: &[Case],
    chapters: &[Chapter],
    config: &Config,
    results: &[LearnerResult],
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
    md.push_str("## Class summary\n\n| learner |");
    for c in chapters {
        let _ = write!(md, " {} |", escape::md(&c.chapter.slug));
    }
    md.push_str(" total | % |\n|---|");
    md.push_str(&"---:|".repeat(chapters.len() + 2));
    md.push('\n');
    let mut percents = Vec::new();
    for r in results {
        let p = points(cases, chapters, r);
        let _ = write!(md, "| {} |", escape::md(&r.name));
        for (c, s) in chapters.iter().zip(&r.chapters) {
            let (a, b) = p.chapters[&c.chapter.slug];
            let flag = if matches!(s, ChapterStatus::Graded) {
                String::new()
            } else {
                format!(" ({})", s.label())
            };
            let _ = write!(md, " {}/{}{flag} |", num(a), num(b));
        }
        let pct = if p.total.1 > 0.0 {
            100.0 * p.total.0 / p.total.1
        } else {
            0.0
        };
        percents.push(pct);
        let _ = writeln!(md, " {}/{} | {pct:.0} |", num(p.total.0), num(p.total.1));
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

fn learner_section(md: &mut String, cases: &[Case], chapters: &[Chapter], r: &LearnerResult) {
    let p = points(cases, chapters, r);
    let _ = writeln!(
        md,
        "\n### {}: {}/{}\n",
        escape::md(&r.name),
        num(p.total.0),
        num(p.total.1)
    );
    for n in &r.notes {
        let _ = writeln!(md, "- note: {}", escape::md(n));
    }
    for (ci, (c, s)) in chapters.iter().zip(&r.chapters).enumerate() {
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
fn graded_section(md: &mut String, cases: &[Case], ci: usize, c: &Chapter, r: &LearnerResult) {
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
        let key = match &r.tests[k].run {
            Some(run) => (run.outcome.label(), run.message.clone()),
            None => ("not run", String::new()),
        };
        match groups.iter_mut().find(|(g, _)| *g == key) {
            Some((_, members)) => members.push(k),
            None => groups.push((key, vec![k])),
        }
    }
    for ((label, msg), members) in groups {
        let first = code(&cases[members[0]].id);
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
    results: &[LearnerResult],
) -> Result<()> {
    std::fs::write(out.join("grades.csv"), csv(cases, chapters, results))?;
    let md = markdown(cases, chapters, config, results);
    std::fs::write(out.join("report.html"), html(&md))?;
    std::fs::write(out.join("report.md"), md)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_capped_by_count_with_the_rest_counted() {
        let notes: Vec<String> = (0..100_000).map(|i| format!("skipped `{i}`")).collect();
        let kept = cap_notes(notes);
        assert_eq!(kept.len(), NOTES_KEPT + 1);
        assert!(kept[NOTES_KEPT].starts_with("... and 99950 more note(s)"));
    }

    #[test]
    fn notes_are_capped_by_bytes_with_the_rest_counted() {
        let notes: Vec<String> = (0..10).map(|_| "x".repeat(4000)).collect();
        let kept = cap_notes(notes);
        assert_eq!(
            kept.len(),
            5,
            "four notes of 4 KB fit in 16 KiB, then the count"
        );
        assert!(kept[4].starts_with("... and 6 more note(s)"));
        assert_eq!(cap_notes(vec!["a".into()]), vec!["a".to_string()]);
    }
}
