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
//! per format: `gradescope.rs`, `prairielearn.rs`, `classroom.rs`;
//! Exercism's is `report::learner_json` itself.

mod classroom;
mod gradescope;
mod prairielearn;

use super::Setup;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use workbook_core::info::Chapter;

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

/// Who sees a test's result on Gradescope (its four documented values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    Hidden,
    AfterDueDate,
    AfterPublished,
    Visible,
}

/// The `[platforms]` table of `grading.toml`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Platforms {
    /// Who sees a hidden test's name, points and message on Gradescope.
    /// PrairieLearn and Classroom have no such setting: there a hidden
    /// test's message is shown only when this is `visible`.
    pub hidden_visibility: Visibility,
    /// The same for the public suite's tests.
    pub public_visibility: Visibility,
}

impl Default for Platforms {
    fn default() -> Self {
        Self {
            hidden_visibility: Visibility::AfterPublished,
            public_visibility: Visibility::Visible,
        }
    }
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

/// The parts of `report::learner_json` the formats read.
#[derive(Debug, Deserialize)]
pub(crate) struct Learner {
    pub status: String,
    pub message: Option<String>,
    pub tests: Vec<Test>,
    pub notes: Vec<String>,
    pub chapters: serde_json::Map<String, Value>,
    pub points: Points,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Test {
    pub name: String,
    pub status: String,
    pub message: Option<String>,
    pub output: Option<String>,
    pub hidden: bool,
    pub points: f64,
    pub max_points: f64,
    pub duration_secs: Option<f64>,
    pub test_code: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Points {
    pub total: f64,
    pub max: f64,
}

impl Learner {
    /// Whether every chapter asked for was graded: not refused, not failing
    /// to compile, not stopped by an error (PrairieLearn's `gradable`).
    pub fn gradable(&self) -> bool {
        self.chapters.values().all(|c| {
            !matches!(
                c.get("status").and_then(Value::as_str),
                Some("compile error" | "rejected" | "error")
            )
        })
    }

    /// The learner-facing text above the tests: what stopped a chapter
    /// (compile errors, refusals), the notes, and the points.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} of {} points.",
            num(self.points.total),
            num(self.points.max)
        );
        for (slug, c) in &self.chapters {
            if let Some(status) = c.get("status").and_then(Value::as_str) {
                s.push_str(&format!("\n{slug}: {status}"));
            }
        }
        if let Some(m) = &self.message {
            s.push_str("\n\n");
            s.push_str(m);
        }
        if !self.notes.is_empty() {
            s.push_str("\n\nNotes:\n");
            s.push_str(&self.notes.join("\n"));
        }
        s
    }
}

impl Test {
    /// The message and the output of one test, as one text.
    pub fn text(&self) -> String {
        let parts: Vec<&str> = [self.message.as_deref(), self.output.as_deref()]
            .into_iter()
            .flatten()
            .filter(|t| !t.is_empty())
            .collect();
        parts.join("\n")
    }
}

/// A number of points without a needless `.0`.
pub(crate) fn num(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// `grader grade-one`: writes `out` in `format` and returns 0, whatever
/// happens to the grading; only a file that cannot be written at all
/// returns 2 (the platform then shows its own error).
pub fn run(opts: GradeOne) -> ExitCode {
    let started = Instant::now();
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| grade(&opts)));
    let (value, failure) = match attempt {
        Ok(Ok(v)) => (Some(v), None),
        Ok(Err(e)) => (None, Some(format!("{e:#}"))),
        Err(_) => (
            None,
            Some("the grader panicked (an internal error)".to_string()),
        ),
    };
    let elapsed = started.elapsed().as_secs_f64();
    // What the learner is told above the tests, also on standard output:
    // the Classroom workflow's log and job summary show it.
    let summary = value
        .as_ref()
        .and_then(|(json, _)| serde_json::from_value::<Learner>(json.clone()).ok())
        .map(|l| l.summary());
    let value = match (value, failure) {
        (Some((json, config)), _) => render(opts.format, json, &config, elapsed),
        (None, why) => {
            let why = why.unwrap_or_default();
            eprintln!("grade-one: cannot grade: {why}");
            failed(opts.format, &why, elapsed)
        }
    };
    match write_whole(&opts.out, &value) {
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

/// The grading itself: the learner's results as `report::learner_json`
/// writes them (Exercism's format, and what the others are made from),
/// and the config's `[platforms]` table.
fn grade(opts: &GradeOne) -> Result<(Value, Platforms)> {
    let root = workbook_core::info::find_root()?;
    let all = workbook_core::info::load_chapters(&root)?;
    let chapters = workbook_core::names::chapters(&all, &opts.chapters)
        .map_err(|e| anyhow::anyhow!("--chapter: {e}"))?;
    let config = super::config::Config::load(&root, opts.setup.config.as_deref())?;
    if !opts.submission.is_dir() {
        bail!(
            "the submission {} is not a folder (the platform mounts one)",
            opts.submission.display()
        );
    }
    let (cases, r) = super::grade_single(&root, &chapters, &opts.submission, &opts.setup)?;
    let json = super::report::learner_json(&cases, &chapters, &r);
    Ok((json, config.platforms))
}

fn render(format: Format, json: Value, config: &Platforms, elapsed: f64) -> Value {
    if format == Format::Exercism {
        return json;
    }
    let learner: Learner = match serde_json::from_value(json) {
        Ok(l) => l,
        Err(e) => {
            return failed(
                format,
                &format!("the results do not read back: {e}"),
                elapsed,
            );
        }
    };
    match format {
        Format::Exercism | Format::Gradescope => gradescope::render(&learner, config, elapsed),
        Format::Prairielearn => prairielearn::render(&learner, config),
        Format::Classroom => classroom::render(&learner, config),
    }
}

/// The format's valid result for a submission that could not be graded.
fn failed(format: Format, why: &str, elapsed: f64) -> Value {
    let message = format!(
        "The grader could not grade this submission. This is not a verdict on your code; \
         tell your instructor. ({why})"
    );
    match format {
        Format::Exercism => serde_json::json!({
            "version": 3,
            "status": "error",
            "message": message,
            "tests": [],
        }),
        Format::Gradescope => gradescope::failed(&message, elapsed),
        Format::Prairielearn => prairielearn::failed(&message),
        Format::Classroom => classroom::failed(&message),
    }
}

/// `value` written to `path` whole or not at all: beside it, then renamed.
pub(crate) fn write_whole(path: &Path, value: &Value) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let name = path.file_name().map_or_else(
        || "results.json".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let partial = dir
        .unwrap_or(Path::new("."))
        .join(format!(".{name}.partial-{}", std::process::id()));
    std::fs::write(&partial, serde_json::to_string_pretty(value)? + "\n")
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))
}

/// When one chapter is graded and `input` is that chapter's crate (with
/// `src/`) or its bare `.rs` files (what a learner uploads to Gradescope or
/// PrairieLearn), the chapter and the folder holding its sources; None for
/// a copy of the workbook or of `exercises/`.
pub(crate) fn chapter_files<'a>(
    chapters: &'a [Chapter],
    input: &Path,
) -> Option<(&'a Chapter, PathBuf)> {
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
pub(crate) fn stage_sources(src: &Path, dest: &Path) -> Result<()> {
    super::workspace::copy_tree(src, dest)
        .with_context(|| format!("cannot stage the submission's {}", src.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learner(statuses: &[&str]) -> Learner {
        let chapters = statuses
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("c{i}"), serde_json::json!({ "status": s })))
            .collect();
        Learner {
            status: "fail".into(),
            message: None,
            tests: Vec::new(),
            notes: Vec::new(),
            chapters,
            points: Points {
                total: 0.0,
                max: 0.0,
            },
        }
    }

    #[test]
    fn a_chapter_that_did_not_compile_is_not_gradable() {
        assert!(learner(&["graded", "not started"]).gradable());
        assert!(!learner(&["graded", "compile error"]).gradable());
        assert!(!learner(&["rejected"]).gradable());
    }

    #[test]
    fn the_platforms_table_defaults_to_after_published_for_hidden_tests() {
        let p: Platforms = toml::from_str("").unwrap();
        assert_eq!(p.hidden_visibility, Visibility::AfterPublished);
        let p: Platforms = toml::from_str("hidden_visibility = \"hidden\"").unwrap();
        assert_eq!(p.hidden_visibility, Visibility::Hidden);
        assert!(toml::from_str::<Platforms>("hidden_visibility = \"later\"").is_err());
    }
}
