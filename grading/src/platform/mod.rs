//! `grader grade-one`: one submission graded where instructors already
//! grade (Gradescope, PrairieLearn, GitHub Classroom, Exercism's runner).
//!
//! The problem: each platform runs one submission per container, reads one
//! results file in its own format, and shows a missing or malformed file as
//! a broken assignment. So this command always leaves a valid file and
//! exits 0: whatever the grader cannot do (a bad config, a pristine build
//! that fails, an interruption, a panic) becomes that format's error result
//! (`status: error`, `gradable: false`), and what the submission does
//! (compile errors, refusals) is the learner-facing message. State: none
//! beyond one `grade_single` run. Cost: one pristine build (cheap when the
//! platform's image prebuilt it) and one learner's build and tests; the
//! formats themselves are a few copies of the results in memory. One file
//! per format, each written from the learner's typed [`Results`]:
//! `gradescope.rs`, `prairielearn.rs`, `classroom.rs`; Exercism's is
//! `Results` itself.

mod classroom;
mod gradescope;
mod prairielearn;
mod tools;

use crate::config::{Config, Platforms};
use crate::prepare::Setup;
use crate::results::{Results, Ungraded, json_text};
use crate::sandbox::Container;
use anyhow::{Result, bail};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The results file a platform reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The Exercism test-runner interface v3, plus points (`results.json`).
    Exercism,
    /// Gradescope's `/autograder/results/results.json`.
    Gradescope,
    /// PrairieLearn's external grader `/grade/results/results.json`.
    Prairielearn,
    /// A runner result for GitHub Classroom's autograding reporter (JSON;
    /// the workflow hands it to the reporter base64-encoded).
    Classroom,
}

/// What the command line gives `grade-one`.
pub struct GradeOne {
    pub submission: PathBuf,
    /// Chapters by slug, number or folder; empty: every chapter.
    pub chapters: Vec<String>,
    pub format: Format,
    pub out: PathBuf,
    pub setup: Setup,
}

/// `grader grade-one`: writes `out` in `format` and returns 0, whatever
/// happens to the grading; only a file that cannot be written at all
/// returns 2 (the platform then shows its own error).
pub fn run(opts: GradeOne) -> ExitCode {
    let started = Instant::now();
    // A container without a tool the grader runs is the instructor's to
    // fix: an error result naming it, not a grade.
    let bwrap = !opts.setup.no_sandbox && opts.setup.container == Container::No;
    let lacks = tools::lacking(&tools::needed(bwrap));
    let closed = || {
        // Only a root grader in container mode hands tests to other uids.
        let switching =
            opts.setup.container != Container::No && crate::sandbox::effective_uid() == Some(0);
        let root = workbook_core::info::find_root().ok()?;
        let target = opts
            .setup
            .target_dir
            .clone()
            .unwrap_or_else(|| root.join("target"));
        switching.then_some(())?;
        tools::unreachable("workbook", &root)
            .or_else(|| tools::unreachable("target directory", &target))
    };
    let why = if lacks.is_empty() {
        closed()
    } else {
        Some(tools::describe(&lacks))
    };
    if let Some(why) = why {
        eprintln!("grade-one: {why}");
        let text = failed(opts.format, &why, started.elapsed().as_secs_f64());
        return write_out(&opts, text, None);
    }
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| grade(&opts)));
    let (graded, failure) = match attempt {
        Ok(Ok(g)) => (Some(g), None),
        Ok(Err(e)) => (None, Some(format!("{e:#}"))),
        Err(_) => (
            None,
            Some("the grader panicked (an internal error)".to_string()),
        ),
    };
    let elapsed = started.elapsed().as_secs_f64();
    // What the learner is told above the tests, also on standard output:
    // the Classroom workflow's log and job summary show it.
    let summary = graded.as_ref().map(|(results, _)| results.summary());
    let text = match graded {
        Some((results, config)) => render(opts.format, &results, &config, elapsed).or_else(|e| {
            failed(
                opts.format,
                &format!("the results cannot be written: {e:#}"),
                elapsed,
            )
        }),
        None => {
            let why = failure.unwrap_or_default();
            eprintln!("grade-one: cannot grade: {why}");
            failed(opts.format, &why, elapsed)
        }
    };
    write_out(&opts, text, summary)
}

/// Writes the results file (0), or says why it cannot (2).
fn write_out(opts: &GradeOne, text: Result<String>, summary: Option<String>) -> ExitCode {
    match text.and_then(|t| crate::staging::write_whole(&opts.out, &t)) {
        Ok(()) => {
            println!("wrote {}", opts.out.display());
            if let Some(summary) = summary {
                println!("\n{summary}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: grade-one: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The grading itself: the learner's typed results (what every format is
/// written from), and the config's `[platforms]` table.
fn grade(opts: &GradeOne) -> Result<(Results, Platforms)> {
    let root = workbook_core::info::find_root()?;
    let all = workbook_core::info::load_chapters(&root)?;
    let chapters = workbook_core::names::chapters(&all, &opts.chapters)
        .map_err(|e| anyhow::anyhow!("--chapter: {e}"))?;
    let config = Config::load(&root, opts.setup.config.as_deref())?;
    if !opts.submission.is_dir() {
        bail!(
            "the submission {} is not a folder (the platform mounts one)",
            opts.submission.display()
        );
    }
    let (cases, r) = crate::single::grade_single(&root, &chapters, &opts.submission, &opts.setup)?;
    Ok((Results::of(&cases, &chapters, &r), config.platforms))
}

/// The results file of `format`, from the learner's results.
fn render(format: Format, results: &Results, config: &Platforms, elapsed: f64) -> Result<String> {
    match format {
        Format::Exercism => json_text(results),
        Format::Gradescope => json_text(&gradescope::render(results, config, elapsed)),
        Format::Prairielearn => json_text(&prairielearn::render(results, config)),
        Format::Classroom => json_text(&classroom::render(results, config)),
    }
}

/// The format's valid result for a submission that could not be graded.
fn failed(format: Format, why: &str, elapsed: f64) -> Result<String> {
    // What the container lacked is the first line (`tools::describe`).
    let message = if why.starts_with("Not graded:") {
        format!(
            "{why}\nThis is not a verdict on your code; tell your instructor (the grading setup must be fixed)."
        )
    } else {
        format!(
            "The grader could not grade this submission. This is not a verdict on your code; \
             tell your instructor. ({why})"
        )
    };
    match format {
        Format::Exercism => json_text(&Ungraded::new(&message)),
        Format::Gradescope => json_text(&gradescope::failed(&message, elapsed)),
        Format::Prairielearn => json_text(&prairielearn::failed(&message)),
        Format::Classroom => json_text(&classroom::failed(&message)),
    }
}
