//! One learner's results, typed: the model every output is written from.
//!
//! The problem: the same grading is shown in six formats (the learner's
//! `results.json`, which is the Exercism test-runner interface v3 plus
//! points; Gradescope's, PrairieLearn's and Classroom's results files; the
//! class's `grades.csv` and `report.md`/`.html`), and each once had its own
//! way to the numbers, or read them back from another's JSON. Here a
//! learner's [`LearnerResult`] (the record) becomes one [`Results`], once:
//! the points, each test's verdict in Exercism's words, every text capped.
//! Its serialized fields are `results.json`, exactly; the few fields marked
//! `serde(skip)` are what the instructor's report shows whole and
//! `results.json` leaves out or caps (the notes as graded, what a test
//! said, a chapter's compile errors or refusals, which its status holds).
//! Every results file is written by [`json_text`], with its keys in sorted
//! order whatever order a struct declares them in (the order the files had
//! when they were built as `serde_json::Value`s). State: none. Cost: one
//! pass over the cases per learner, a few copies of short strings.

use crate::exec::Outcome;
use crate::record::{Case, ChapterStatus, LearnerResult, Suite, TestResult};
use anyhow::Result;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use workbook_core::info::Chapter;

/// Exercism truncates a test's output to this many characters.
const OUTPUT_CHARS: usize = 500;

/// The most characters of one message kept in `results.json` and reports.
pub const MESSAGE_CHARS: usize = 4096;

/// The most notes kept per learner, and the most bytes they may take
/// together: a submission of 100,000 skipped entries must not make a
/// report of megabytes. The rest are counted in one last note.
const NOTES_KEPT: usize = 50;
const NOTES_BYTES: usize = 16 << 10;

/// A verdict in Exercism's words (and Classroom's): the whole learner's,
/// or one test's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

/// One learner's `results.json`, and what the other formats read.
#[derive(Debug, Clone, Serialize)]
pub struct Results {
    pub version: u32,
    pub status: Status,
    /// What stopped a chapter (compile errors, refusals, errors), capped.
    pub message: Option<String>,
    pub tests: Vec<TestResults>,
    pub learner: String,
    /// The notes, each capped to [`MESSAGE_CHARS`].
    pub notes: Vec<String>,
    /// By slug.
    pub chapters: BTreeMap<String, ChapterResults>,
    pub points: Points,
    pub build_secs: f64,
    pub run_secs: f64,
    /// The notes as graded, for the instructor's report.
    #[serde(skip)]
    pub notes_as_graded: Vec<String>,
}

/// One chapter of [`Results::chapters`].
#[derive(Debug, Clone, Serialize)]
pub struct ChapterResults {
    /// Written as its label (`graded`, `compile error`, ...); held whole,
    /// with the compile errors or refusals, for the instructor's report.
    #[serde(serialize_with = "status_label")]
    pub status: ChapterStatus,
    pub points: f64,
    pub max: f64,
}

/// One test of [`Results::tests`], in the order of the cases.
#[derive(Debug, Clone, Serialize)]
pub struct TestResults {
    /// The case's id (`intro/dfs_recursive::...`).
    pub name: String,
    pub status: Status,
    /// `verdict: what the test said`, capped; or why it did not run.
    pub message: Option<String>,
    /// What a test that crashed or ran out of time printed, truncated.
    pub output: Option<String>,
    pub test_code: String,
    pub task_id: usize,
    /// The finer verdict (`passed`, `timeout`, `not run`, `compile error`).
    pub verdict: String,
    pub hidden: bool,
    pub points: f64,
    pub max_points: f64,
    pub duration_secs: Option<f64>,
    /// What the test said, whole ("" when it did not run), for the
    /// instructor's report.
    #[serde(skip)]
    pub said: String,
}

/// Points earned and available: in all, and per exercise key
/// (`slug/exercise`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Points {
    pub total: f64,
    pub max: f64,
    pub exercises: BTreeMap<String, Pair>,
}

/// Points earned and available of one exercise.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Pair {
    pub points: f64,
    pub max: f64,
}

fn status_label<S: Serializer>(status: &ChapterStatus, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(status.label())
}

/// The file an Exercism runner gets when nothing could be graded.
#[derive(Debug, Serialize)]
pub struct Ungraded {
    pub version: u32,
    pub status: Status,
    pub message: String,
    pub tests: Vec<TestResults>,
}

impl Ungraded {
    pub fn new(message: &str) -> Self {
        Ungraded {
            version: 3,
            status: Status::Error,
            message: message.to_string(),
            tests: Vec::new(),
        }
    }
}

/// `value` as a results file: pretty JSON, keys in sorted order (through
/// `serde_json::Value`, whose maps are sorted), and a final newline.
pub fn json_text<T: Serialize>(value: &T) -> Result<String> {
    Ok(serde_json::to_string_pretty(&serde_json::to_value(value)?)? + "\n")
}

impl Results {
    /// Learner `r`'s results, graded in `chapters` on `cases`.
    pub fn of(cases: &[Case], chapters: &[Chapter], r: &LearnerResult) -> Results {
        let status_of = |ci: usize| r.chapters.get(ci).unwrap_or(&ChapterStatus::NotSubmitted);
        let tests: Vec<TestResults> = cases
            .iter()
            .enumerate()
            .map(|(k, c)| test_results(c, status_of(c.chapter), r.tests.get(k)))
            .collect();
        let (chapter_points, points) = points(cases, chapters, r);
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
            Status::Pass
        } else if !any_ran && !problems.is_empty() {
            Status::Error
        } else {
            Status::Fail
        };
        Results {
            version: 3,
            status,
            message: (!problems.is_empty()).then(|| cap(&problems.join("\n\n"), 4 * MESSAGE_CHARS)),
            tests,
            learner: r.name.clone(),
            notes: r.notes.iter().map(|n| cap(n, MESSAGE_CHARS)).collect(),
            chapters: chapters
                .iter()
                .zip(&r.chapters)
                .map(|(c, s)| {
                    let p = chapter_points
                        .get(&c.chapter.slug)
                        .copied()
                        .unwrap_or_default();
                    let entry = ChapterResults {
                        status: s.clone(),
                        points: p.points,
                        max: p.max,
                    };
                    (c.chapter.slug.clone(), entry)
                })
                .collect(),
            points,
            build_secs: r.build_secs,
            run_secs: r.run_secs,
            notes_as_graded: r.notes.clone(),
        }
    }

    /// Whether test `k` (in the order of the cases) passed.
    pub fn passed(&self, k: usize) -> bool {
        self.tests.get(k).is_some_and(|t| t.status == Status::Pass)
    }

    /// Points earned and available of an exercise key or a chapter slug
    /// (the columns of `grades.csv`).
    pub fn points_of(&self, key: &str) -> Option<Pair> {
        self.points.exercises.get(key).copied().or_else(|| {
            self.chapters.get(key).map(|c| Pair {
                points: c.points,
                max: c.max,
            })
        })
    }

    /// Whether every chapter asked for was graded: not refused, not failing
    /// to compile, not stopped by an error (PrairieLearn's `gradable`).
    pub fn gradable(&self) -> bool {
        self.chapters.values().all(|c| {
            !matches!(
                c.status,
                ChapterStatus::CompileError(_)
                    | ChapterStatus::Rejected(_)
                    | ChapterStatus::Error(_)
            )
        })
    }

    /// The learner-facing text above the tests on a platform: the points,
    /// each chapter's status, what stopped a chapter (compile errors,
    /// refusals), and the notes.
    pub fn summary(&self) -> String {
        self.summary_shown(true)
    }

    /// [`Self::summary`] as a learner sees it while the hidden tests are
    /// hidden (`hidden_shown` false): the points of the tests shown only,
    /// so the total tells nothing of the hidden tests' verdicts.
    pub fn summary_shown(&self, hidden_shown: bool) -> String {
        let mut s = if hidden_shown || !self.tests.iter().any(|t| t.hidden) {
            format!(
                "{} of {} points.",
                whole_or_cents(self.points.total),
                whole_or_cents(self.points.max)
            )
        } else {
            let shown = self.tests.iter().filter(|t| !t.hidden);
            let (got, max) = shown.fold((0.0, 0.0), |(g, m), t| (g + t.points, m + t.max_points));
            let hidden: f64 = self
                .tests
                .iter()
                .filter(|t| t.hidden)
                .map(|t| t.max_points)
                .sum();
            format!(
                "{} of {} points on the tests shown; the hidden tests' {} points are not counted here while they are hidden.",
                whole_or_cents(got),
                whole_or_cents(max),
                whole_or_cents(hidden)
            )
        };
        for (slug, c) in &self.chapters {
            s.push_str(&format!("\n{slug}: {}", c.status.label()));
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

impl TestResults {
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

/// The verdict of one test in Exercism's terms, with our finer label.
fn test_results(case: &Case, chapter: &ChapterStatus, t: Option<&TestResult>) -> TestResults {
    let run = t.and_then(|t| t.run.as_ref());
    let hidden = case.suite == Suite::Hidden;
    let (status, verdict, message, output) = match (chapter, run) {
        // A hidden test tells the learner which exercise failed and how,
        // in the grader's words only: the judge's message and what either
        // process printed may hold the input, the expected value or the
        // reference's answer (the instructor's report keeps them, `said`).
        (_, Some(run)) if hidden => {
            let status = match run.outcome {
                Outcome::Passed => Status::Pass,
                Outcome::Failed => Status::Fail,
                _ => Status::Error,
            };
            let message = (run.outcome != Outcome::Passed).then(|| {
                format!(
                    "{}: {}",
                    run.outcome.label(),
                    hidden_why(&run.outcome, &case.exercise)
                )
            });
            (status, run.outcome.label().to_string(), message, None)
        }
        (_, Some(run)) => {
            let status = match run.outcome {
                Outcome::Passed => Status::Pass,
                Outcome::Failed => Status::Fail,
                _ => Status::Error,
            };
            // A pass or a failure explains itself; a crash shows what it printed.
            let output = match run.outcome {
                Outcome::Passed | Outcome::Failed => None,
                _ => Some(truncate(run.output.trim(), OUTPUT_CHARS)),
            };
            let message = (!run.message.is_empty()).then(|| {
                cap(
                    &format!("{}: {}", run.outcome.label(), run.message),
                    MESSAGE_CHARS,
                )
            });
            (status, run.outcome.label().to_string(), message, output)
        }
        (ChapterStatus::Graded, None) => (
            Status::Error,
            "not run".to_string(),
            Some(format!("not run: {}", chapter.why_not_run())),
            None,
        ),
        (s, None) => (
            Status::Error,
            s.label().to_string(),
            Some(format!("not run: {}", s.why_not_run())),
            None,
        ),
    };
    TestResults {
        name: case.id.clone(),
        status,
        message,
        output: output.filter(|o| !o.is_empty()),
        // A hidden test's source is the hidden suite itself.
        test_code: if hidden {
            String::new()
        } else {
            case.code.clone()
        },
        task_id: case.task_id,
        verdict,
        hidden,
        points: if status == Status::Pass {
            case.weight
        } else {
            0.0
        },
        max_points: if run.is_some_and(|r| r.outcome == Outcome::GraderError) {
            0.0
        } else {
            case.weight
        },
        duration_secs: run.map(|x| x.seconds),
        said: run.map(|x| x.message.clone()).unwrap_or_default(),
    }
}

/// Why a hidden test of `exercise` did not pass, in words that carry no
/// input, no expected value and no answer.
fn hidden_why(outcome: &Outcome, exercise: &str) -> String {
    let what = match outcome {
        Outcome::Passed => "passed",
        Outcome::Failed => "your code's answer was not the expected one, or it panicked",
        Outcome::Timeout => "your code ran past the test's time limit",
        Outcome::OutOfMemory => "your code ran past the test's memory limit",
        Outcome::Crashed => {
            "your code's process crashed (a stack overflow, a signal, too many threads or too much output)"
        }
        Outcome::Idle => {
            "your code used no CPU for the idle limit (waiting for something that never comes?)"
        }
        Outcome::OverBudget => "your tests used their whole time budget before this one finished",
        Outcome::GraderError => {
            "the grader failed on this test (its judge ran out of memory): not counted against you"
        }
    };
    format!("a hidden test of `{exercise}`: {what} (its input and expected answer stay hidden)")
}

/// Points earned and available per chapter slug, and per exercise key
/// (`slug/exercise`) with the total: every chapter and exercise of
/// `chapters` is there, at zero when no case is.
fn points(
    cases: &[Case],
    chapters: &[Chapter],
    r: &LearnerResult,
) -> (BTreeMap<String, Pair>, Points) {
    let mut by_chapter: BTreeMap<String, Pair> = BTreeMap::new();
    let mut p = Points::default();
    for c in chapters {
        by_chapter.insert(c.chapter.slug.clone(), Pair::default());
        for e in &c.exercises {
            p.exercises
                .insert(format!("{}/{}", c.chapter.slug, e.name), Pair::default());
        }
    }
    let mut total = Pair::default();
    for (k, case) in cases.iter().enumerate() {
        let Some(c) = chapters.get(case.chapter) else {
            continue;
        };
        let slug = &c.chapter.slug;
        // A grader error is the grader's: counted neither way.
        if r.grader_error(k) {
            continue;
        }
        let got = if r.passed(k) { case.weight } else { 0.0 };
        for slot in [
            p.exercises
                .entry(format!("{slug}/{}", case.exercise))
                .or_default(),
            by_chapter.entry(slug.clone()).or_default(),
            &mut total,
        ] {
            slot.points += got;
            slot.max += case.weight;
        }
    }
    (p.total, p.max) = (total.points, total.max);
    (by_chapter, p)
}

/// A number of points without a needless `.0` (`3`, `2.50`), as the
/// platforms show it.
fn whole_or_cents(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// `s` cut to at most `n` characters, saying how much was cut.
pub fn cap(s: &str, n: usize) -> String {
    let total = s.chars().count();
    if total <= n {
        return s.to_string();
    }
    // The marker fits inside `n`, so capped text is never capped again
    // (a note capped by the learner's record and again by its results
    // would count the first marker as the characters cut).
    let kept = n.saturating_sub(CUT_MARKER_CHARS);
    let head: String = s.chars().take(kept).collect();
    format!("{head}\n... ({} more characters cut)", total - kept)
}

/// The most characters `cap`'s marker takes (a 20-digit count).
const CUT_MARKER_CHARS: usize = "\n... ( more characters cut)".len() + 20;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::TestRun;

    #[test]
    fn capped_text_fits_the_cap_and_is_not_capped_twice() {
        let text = "x".repeat(10_000);
        let once = cap(&text, MESSAGE_CHARS);
        assert!(once.chars().count() <= MESSAGE_CHARS);
        let kept = MESSAGE_CHARS - CUT_MARKER_CHARS;
        assert!(once.ends_with(&format!("({} more characters cut)", 10_000 - kept)));
        assert_eq!(cap(&once, MESSAGE_CHARS), once);
        // A learner's note capped by the record, then by its results.
        let notes = cap_notes(vec![format!("grading stopped: {text}")]);
        assert_eq!(
            notes
                .iter()
                .map(|n| cap(n, MESSAGE_CHARS))
                .collect::<Vec<_>>(),
            notes
        );
    }

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

    fn chapter() -> Chapter {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut all = workbook_core::info::load_chapters(&root).unwrap();
        all.swap_remove(0)
    }

    /// A learner of one chapter with one case, which ran as `run`.
    fn one(status: ChapterStatus, run: Option<TestRun>) -> Results {
        one_of(Suite::Public, status, run)
    }

    /// The same, with the case from `suite`.
    fn one_of(suite: Suite, status: ChapterStatus, run: Option<TestRun>) -> Results {
        let c = chapter();
        let case = Case {
            chapter: 0,
            suite,
            name: "dfs_stack::t".into(),
            id: format!("{}/hidden::dfs_stack::t", c.chapter.slug),
            exercise: "dfs_stack".into(),
            task_id: 2,
            weight: 0.5,
            code: "fn t() {}".into(),
        };
        let r = LearnerResult {
            name: "ann".into(),
            notes: vec!["a note".into()],
            chapters: vec![status],
            tests: vec![TestResult { run }],
            build_secs: 1.0,
            run_secs: 0.25,
        };
        Results::of(&[case], &[c], &r)
    }

    #[test]
    fn a_judge_out_of_memory_is_counted_neither_in_the_points_nor_in_the_maximum() {
        let run = |outcome| TestRun {
            outcome,
            message: "m".into(),
            output: String::new(),
            seconds: 0.1,
        };
        let failed = one(ChapterStatus::Graded, Some(run(Outcome::Failed)));
        assert_eq!((failed.points.total, failed.points.max), (0.0, 0.5));
        let grader = one(ChapterStatus::Graded, Some(run(Outcome::GraderError)));
        assert_eq!((grader.points.total, grader.points.max), (0.0, 0.0));
        assert_eq!(grader.tests[0].max_points, 0.0);
        assert_eq!(grader.tests[0].verdict, "grader error");
        // A hidden one says so in the grader's words.
        let hidden = one_of(
            Suite::Hidden,
            ChapterStatus::Graded,
            Some(run(Outcome::GraderError)),
        );
        let said = hidden.tests[0].message.clone().unwrap_or_default();
        assert!(said.contains("not counted against you"), "{said}");
    }

    #[test]
    fn a_chapter_that_did_not_compile_is_not_gradable() {
        assert!(one(ChapterStatus::Graded, None).gradable());
        assert!(one(ChapterStatus::NotStarted, None).gradable());
        assert!(!one(ChapterStatus::CompileError("e".into()), None).gradable());
        assert!(!one(ChapterStatus::Rejected(vec!["r".into()]), None).gradable());
    }

    #[test]
    fn results_json_has_sorted_keys_and_leaves_the_reports_fields_out() {
        let run = TestRun {
            outcome: Outcome::Timeout,
            message: "used more than 5 s".into(),
            output: "  printed  ".into(),
            seconds: 5.5,
        };
        let r = one(ChapterStatus::Graded, Some(run));
        assert_eq!(r.tests[0].said, "used more than 5 s");
        let text = json_text(&r).unwrap();
        let keys: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  \"") && l.contains("\":"))
            .filter_map(|l| l.trim().split('"').nth(1))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted, "{text}");
        assert!(
            keys.contains(&"build_secs") && keys.contains(&"version"),
            "{text}"
        );
        for left_out in ["said", "notes_as_graded"] {
            assert!(!text.contains(left_out), "{left_out} in {text}");
        }
        assert!(text.contains("\"status\": \"graded\""), "{text}");
        assert!(
            text.contains("\"message\": \"timeout: used more than 5 s\""),
            "{text}"
        );
        assert!(text.contains("\"output\": \"printed\""), "{text}");
        assert!(text.ends_with("  \"version\": 3\n}\n"), "{text}");
    }

    #[test]
    fn a_hidden_test_tells_the_learner_the_exercise_and_how_it_failed_but_no_input_or_answer() {
        let said = "assertion `left == right` failed: dfs_stack([[6, 5, 6], [], [6, 4]], 1)\n  left: []\n right: [1]";
        for outcome in [Outcome::Failed, Outcome::Crashed, Outcome::Timeout] {
            let run = TestRun {
                outcome: outcome.clone(),
                message: said.into(),
                output: "[[6, 5, 6], [], [6, 4]]".into(),
                seconds: 0.1,
            };
            let r = one_of(Suite::Hidden, ChapterStatus::Graded, Some(run));
            let text = json_text(&r).unwrap();
            for leak in ["[6, 5, 6]", "right: [1]", "fn t()"] {
                assert!(!text.contains(leak), "{leak} leaked: {text}");
            }
            let message = r.tests[0].message.as_deref().unwrap_or_default();
            assert!(
                message.starts_with(outcome.label()) && message.contains("`dfs_stack`"),
                "{message}"
            );
            // The instructor's report keeps everything.
            assert_eq!(r.tests[0].said, said);
        }
    }
}
