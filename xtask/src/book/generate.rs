//! Runs each chapter's `<slug>_book` example and writes what the book shows.
//!
//! The problem: the players' traces, the drawn figures and the quizzes'
//! answers must come from the reference code, never be typed, and a changed
//! solver must not leave a stale picture. The state is one chapter's files:
//! the example (`solutions/NN_slug/examples/<slug>_book.rs`) prints records,
//! [`super::records`] reads them and [`super::render`] turns each into a file
//! `book/src/<slug>/generated/<id>.html` that pages include. `cargo xtask check`
//! renders everything again in memory and compares ([`stale`]). The cost is
//! one `cargo run` per chapter, mostly compile time.

use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use workbook_core::info::Chapter;
use workbook_core::players::{records, render};

/// File name -> contents, for one chapter's `generated/` folder.
type Files = BTreeMap<String, String>;

/// Regenerates every chapter's `generated/` folder; returns the files written.
pub fn generate(root: &Path) -> Result<usize> {
    let mut written = 0;
    for chapter in workbook_core::info::load_chapters(root)? {
        let Some(files) = produce(root, &chapter)? else {
            continue;
        };
        let dir = out_dir(root, &chapter);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        for old in existing(&dir)? {
            if !files.contains_key(&old) {
                std::fs::remove_file(dir.join(&old))?;
            }
        }
        for (name, text) in &files {
            let path = dir.join(name);
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
                std::fs::write(&path, text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            written += 1;
        }
    }
    Ok(written)
}

/// The problems `cargo xtask check` reports: generated files that differ from
/// what the examples print now, are missing, or are left over.
pub fn stale(root: &Path, chapters: &[Chapter]) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for chapter in chapters {
        let files = produce(root, chapter)?.unwrap_or_default();
        let how = command(chapter).join(" ");
        problems.extend(compare(&out_dir(root, chapter), &files, &how)?);
    }
    Ok(problems)
}

/// What differs between `dir` and the files `how` prints now.
fn compare(dir: &Path, files: &Files, how: &str) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            problems.push(format!(
                "{} is not what `{how}` prints now: run `cargo xtask book build`",
                path.display()
            ));
        }
    }
    for old in existing(dir)? {
        if !files.contains_key(&old) {
            problems.push(format!(
                "{} is left over: no example prints it",
                dir.join(old).display()
            ));
        }
    }
    Ok(problems)
}

fn out_dir(root: &Path, chapter: &Chapter) -> PathBuf {
    root.join("book/src")
        .join(&chapter.chapter.slug)
        .join("generated")
}

fn existing(dir: &Path) -> Result<Vec<String>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut names = Vec::new();
    for entry in entries {
        names.push(entry?.file_name().to_string_lossy().into_owned());
    }
    Ok(names)
}

fn command(chapter: &Chapter) -> Vec<String> {
    [
        "cargo",
        "run",
        "--quiet",
        // The tools' profile: the book's build never holds the lock of
        // `target/debug/`, which a learner's `cargo test` needs.
        "--profile",
        workbook_core::runner::TOOL_PROFILE,
        "-p",
        &chapter.solution_package(),
        "--example",
        &chapter.recorder_name(),
    ]
    .map(String::from)
    .to_vec()
}

/// Runs the chapter's example, if it has one, and renders its records.
fn produce(root: &Path, chapter: &Chapter) -> Result<Option<Files>> {
    let example = chapter.recorder();
    if !example.is_file() {
        return Ok(None);
    }
    let cmd = command(chapter);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(&cmd[1..])
        .current_dir(root)
        .env_remove("RUST_BACKTRACE")
        .output()
        .with_context(|| format!("cannot run `{}`", cmd.join(" ")))?;
    if !out.status.success() {
        bail!(
            "`{}` failed:\n{}",
            cmd.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = String::from_utf8(out.stdout)
        .with_context(|| format!("`{}` printed text that is not UTF-8", cmd.join(" ")))?;
    let doc = records::parse(&text).with_context(|| format!("reading `{}`", cmd.join(" ")))?;
    Ok(Some(render_all(&doc)))
}

fn render_all(doc: &records::Doc) -> Files {
    let mut files = Files::new();
    // Instances sharing an id are one player, in the order recorded.
    let mut ids: Vec<&str> = Vec::new();
    for t in &doc.traces {
        if !ids.contains(&t.id.as_str()) {
            ids.push(&t.id);
        }
    }
    for id in ids {
        let instances: Vec<&records::Trace> = doc.traces.iter().filter(|t| t.id == id).collect();
        files.insert(format!("player-{id}.html"), render::player(&instances));
    }
    for f in &doc.figures {
        files.insert(format!("fig-{}.html", f.id), render::figure(f));
    }
    for q in &doc.quizzes {
        files.insert(format!("quiz-{}.html", q.id), render::quiz(q));
    }
    if !doc.quizzes.is_empty() {
        files.insert("quizzes.html".into(), render::quiz_list(&doc.quizzes));
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_a_missing_and_a_left_over_file_are_each_reported() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("same.html"), "a").expect("write");
        std::fs::write(dir.path().join("changed.html"), "old").expect("write");
        std::fs::write(dir.path().join("old.html"), "x").expect("write");
        let files: Files = [
            ("same.html", "a"),
            ("changed.html", "new"),
            ("new.html", "n"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .into_iter()
        .collect();
        let problems = compare(dir.path(), &files, "cargo run --example x").expect("compare");
        assert_eq!(problems.len(), 3, "{problems:#?}");
        assert!(problems[0].contains("changed.html is not what `cargo run --example x` prints"));
        assert!(problems[1].contains("new.html is not what"));
        assert!(problems[2].contains("old.html is left over"));
    }

    #[test]
    fn a_folder_that_matches_has_no_problem() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("a.html"), "a").expect("write");
        let files: Files = [("a.html".to_string(), "a".to_string())]
            .into_iter()
            .collect();
        assert!(
            compare(dir.path(), &files, "x")
                .expect("compare")
                .is_empty()
        );
    }
}
