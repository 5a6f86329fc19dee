//! `workbook reset`: give an exercise (or a whole chapter) its pristine stub back.
//!
//! The pristine text is regenerated from the solution (`stubs::generate`),
//! never kept as a copy, so it is always the current stub. An exercise is
//! reset function by function: only the items that exercise's stubs name are
//! put back, so work on the other exercises in the same file is untouched.
//! Before anything is overwritten the learner is asked, and the old file is
//! copied to `.workbook/backups/<time>/`. Cost: one stub generation.

use anyhow::{Context, Result, bail};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use workbook_core::comments::Localizer;
use workbook_core::info::{Chapter, Exercise};
use workbook_core::lang::Lang;
use workbook_core::names::{self, Named};
use workbook_core::stubs;

pub fn reset(root: &Path, chapters: &[Chapter], target: &[String], yes: bool) -> Result<ExitCode> {
    let (chapter, exercise) = find(root, chapters, target)?;
    let mut changes = Vec::new();
    // The pristine stub's doc comments in the learner's language.
    let lang = Lang::chosen(root);
    let localizer = Localizer::for_repository(root, lang.code());
    for mut stub in stubs::generate(chapter)? {
        stub.text = localizer.localize(&stub.text);
        let path = chapter.dir.join("src").join(&stub.relative);
        let current = std::fs::read_to_string(&path).ok();
        let wanted = match (exercise, &current) {
            (None, _) | (Some(_), None) => stub.text.clone(),
            (Some(e), Some(cur)) => restore_items(cur, &stub.text, e).with_context(|| {
                lang.fill(
                    "{path} cannot be parsed; reset the whole chapter instead",
                    &[("path", &path.display())],
                )
            })?,
        };
        if current.as_deref() != Some(wanted.as_str()) {
            changes.push((path, current, wanted));
        }
    }
    let what = exercise.map_or_else(
        || lang.fill("chapter {slug}", &[("slug", &chapter.chapter.slug)]),
        |e| {
            lang.fill(
                "exercise {slug}/{name}",
                &[("slug", &chapter.chapter.slug), ("name", &e.name)],
            )
        },
    );
    if changes.is_empty() {
        println!(
            "{}",
            lang.fill(
                "{what} is already the pristine stub; nothing to do.",
                &[("what", &what)]
            )
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}",
        lang.fill("Resetting {what} will overwrite:", &[("what", &what)])
    );
    for (path, _, _) in &changes {
        println!("  {}", path.strip_prefix(root).unwrap_or(path).display());
    }
    if !yes && !confirm(&lang)? {
        println!("{}", lang.tr("Nothing changed."));
        return Ok(ExitCode::FAILURE);
    }
    let backup = backup_dir(root);
    for (path, old, new) in &changes {
        if let Some(old) = old {
            let copy = backup.join(path.strip_prefix(root).unwrap_or(path));
            if let Some(dir) = copy.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&copy, old)?;
        }
        std::fs::write(path, new).with_context(|| {
            crate::words::lang().fill("cannot write {path}", &[("path", &path.display())])
        })?;
    }
    println!(
        "{}",
        lang.fill(
            "Done. Your previous files are in {backup}",
            &[(
                "backup",
                &backup.strip_prefix(root).unwrap_or(&backup).display()
            )]
        )
    );
    Ok(ExitCode::SUCCESS)
}

fn confirm(lang: &Lang) -> Result<bool> {
    if !std::io::stdin().is_terminal() {
        bail!(
            "{}",
            lang.tr(
                "this would overwrite your work; run it in a terminal to confirm, or pass --yes"
            )
        );
    }
    print!("{} ", lang.tr("Overwrite (a backup is kept)? [y/N]"));
    std::io::stdout().flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes"))
}

fn backup_dir(root: &Path) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    root.join(".workbook")
        .join("backups")
        .join(secs.to_string())
}

/// A chapter (slug, number, folder) or an exercise (`name`, `slug/name`,
/// `slug name`), read where the learner stands.
fn find<'a>(
    root: &Path,
    chapters: &'a [Chapter],
    target: &[String],
) -> Result<(&'a Chapter, Option<&'a Exercise>)> {
    match names::resolve_here(root, chapters, target, crate::words::lang())? {
        Named::Chapter(c) => Ok((c, None)),
        Named::Exercise(c, e) => Ok((c, Some(e))),
    }
}

/// `current` with the items `exercise` stubs replaced by their text in `pristine`.
fn restore_items(current: &str, pristine: &str, exercise: &Exercise) -> Result<String> {
    let cur = stubs::item_ranges(current)?;
    let pri = stubs::item_ranges(pristine)?;
    let mut edits: Vec<(std::ops::Range<usize>, &str)> = Vec::new();
    for name in exercise.stubs.keys() {
        let Some((_, want)) = pri.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let text = &pristine[want.clone()];
        match cur.iter().find(|(n, _)| n == name) {
            Some((_, have)) => edits.push((have.clone(), text)),
            None => edits.push((current.len()..current.len(), text)),
        }
    }
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = current.to_string();
    for (range, text) in edits {
        let text = if range.start == out.len() {
            format!("\n{text}\n")
        } else {
            text.to_string()
        };
        out.replace_range(range, &text);
    }
    Ok(out)
}
