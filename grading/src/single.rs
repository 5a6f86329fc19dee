//! One submission graded alone, for the platforms: `grader test-runner`
//! (Exercism's interface) and `grade_single`, which `grade-one`
//! (Gradescope, PrairieLearn, GitHub Classroom) calls.
//!
//! The problem: the same verdict as `grader grade` gives a class, for one
//! submission in whatever shape a platform hands over (a copy of the
//! workbook, of `exercises/`, a chapter's crate or its bare `.rs` files).
//! State: one worker and its folders, removed before returning. Cost: the
//! pristine build (cheap when the dependencies are prebuilt) and one
//! learner's grading.

use crate::interrupt;
use crate::learner::grade_one;
use crate::prepare::{Setup, prepare};
use crate::record::{Case, LearnerResult};
use crate::results::{Results, json_text};
use crate::{staging, submission, worker};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use workbook_core::info::Chapter;

/// `grader test-runner SLUG INPUT_DIR OUTPUT_DIR`: the Exercism
/// test-runner interface, one submission of one chapter. INPUT_DIR is the
/// chapter's crate (with `src/`) or a copy of the workbook; the verdict goes
/// to OUTPUT_DIR/results.json, and the exit status is 0 whatever it says.
pub fn test_runner(
    root: &Path,
    chapters: &[Chapter],
    slug: &str,
    input: &Path,
    output: &Path,
    setup: Setup,
) -> Result<ExitCode> {
    let Some(chapter) = chapters.iter().find(|c| c.chapter.slug == slug) else {
        bail!(
            "no chapter `{slug}`; the chapters are {}",
            chapters
                .iter()
                .map(|c| c.chapter.slug.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let one = std::slice::from_ref(chapter);
    interrupt::install()?;
    std::fs::create_dir_all(output)
        .with_context(|| format!("cannot create {}", output.display()))?;
    let graded = grade_single(root, one, input, &setup);
    if let Some(sig) = interrupt::requested() {
        return Ok(interrupt::interrupted(sig, Some(output)));
    }
    let (cases, r) = graded?;
    let results = Results::of(&cases, one, &r);
    staging::write_whole(&output.join("results.json"), &json_text(&results)?)?;
    println!("wrote {}", output.join("results.json").display());
    Ok(ExitCode::SUCCESS)
}

/// One submission (`input`: a copy of the workbook or of `exercises/`;
/// with one chapter, also its crate folder or its bare `.rs` files)
/// graded in chapters `chapters` with one worker: the graded tests and
/// the learner's result. Fails on what is the instructor's (the config,
/// the sandbox, the pristine build) or on an interruption; whatever the
/// submission does is in the result. Used by `test-runner` and
/// `grade-one`.
pub(crate) fn grade_single(
    root: &Path,
    chapters: &[Chapter],
    input: &Path,
    setup: &Setup,
) -> Result<(Vec<Case>, LearnerResult)> {
    interrupt::install()?;
    let setup = Setup {
        jobs: Some(1),
        ..setup.clone()
    };
    let mut ctx = prepare(root, chapters, &setup, 1)?;
    ctx.places.add(input, "(input)");
    let staged = ctx
        .target_dir
        .join(format!("runner-input-{}", std::process::id()));
    let path = match chapter_files(chapters, input) {
        Some((chapter, src)) => {
            let _ = std::fs::remove_dir_all(&staged);
            // Staged as a copy of the workbook holding only this chapter.
            let dest = chapter.in_copy(&staged).stub_dir().join("src");
            stage_sources(&src, &dest)?;
            staged.clone()
        }
        None => input.to_path_buf(),
    };
    let learner = submission::Learner {
        id: "submission".into(),
        path,
        notes: Vec::new(),
    };
    let worker = worker::Worker::new(&ctx, 0)?;
    let r = grade_one(&ctx, &worker, &learner);
    drop(worker);
    let _ = std::fs::remove_dir_all(&staged);
    interrupt::check()?;
    Ok((ctx.cases.clone(), r))
}

/// When one chapter is graded and `input` is that chapter's crate (with
/// `src/`) or its bare `.rs` files (what a learner uploads to Gradescope or
/// PrairieLearn), the chapter and the folder holding its sources; None for
/// a copy of the workbook or of `exercises/`.
fn chapter_files<'a>(chapters: &'a [Chapter], input: &Path) -> Option<(&'a Chapter, PathBuf)> {
    let [chapter] = chapters else {
        return None;
    };
    if input.join("exercises").is_dir() || input.join(chapter.folder()).is_dir() {
        return None;
    }
    if input.join("src").is_dir() {
        return Some((chapter, input.join("src")));
    }
    let bare = std::fs::read_dir(input)
        .ok()?
        .flatten()
        .any(|e| e.path().extension().is_some_and(|x| x == "rs") && e.path().is_file());
    bare.then(|| (chapter, input.to_path_buf()))
}

/// A chapter's sources copied from `src` to `dest` (the submission's reader
/// then decides what of them is read).
fn stage_sources(src: &Path, dest: &Path) -> Result<()> {
    crate::workspace::copy_tree(src, dest)
        .with_context(|| format!("cannot stage the submission's {}", src.display()))
}
