//! The grading's record: the graded tests of a class, and for each learner
//! what happened to every chapter and every test, as graded.
//!
//! The problem: a learner is graded once, by a worker, but written many
//! times (the learner's `results.json`, the class's reports, a shard's
//! `part.json` merged later on another machine). So grading writes down
//! what it saw whole (every compiler error, every message a test printed,
//! uncapped) and nothing else; every output is derived from this record by
//! `results` (caps, points, verdicts in a platform's words), never the
//! other way round. State: none beyond the values. Cost: a few strings per
//! test; a shard serializes it as is.

use crate::exec::{Outcome, TestRun};
use serde::{Deserialize, Serialize};
use workbook_core::info::Chapter;

/// Whether a test comes from the suite learners see or a hidden one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Suite {
    Public,
    Hidden,
}

impl Suite {
    /// The cargo test target this suite of chapter `c` is built as in a
    /// learner's copy: the package's own suite, or `hidden_<slug>` (the
    /// one place that name is made; `workspace.rs` wires it in).
    pub fn target(self, c: &Chapter) -> String {
        match self {
            Suite::Public => c.package().to_string(),
            Suite::Hidden => format!("hidden_{}", c.chapter.slug),
        }
    }
}

/// One graded test, as found in the pristine build.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub chapter: usize,
    pub suite: Suite,
    /// The libtest name (`dfs_recursive::visits_in_preorder::case_1_...`).
    pub name: String,
    /// The name in reports (`intro/dfs_recursive::...`, `intro/hidden::...`).
    pub id: String,
    pub exercise: String,
    pub task_id: usize,
    pub weight: f64,
    pub code: String,
}

/// What happened to one chapter of one learner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ChapterStatus {
    Graded,
    NotSubmitted,
    /// Submitted, but every stub is still as given.
    NotStarted,
    CompileError(String),
    Rejected(Vec<String>),
    Error(String),
}

impl ChapterStatus {
    /// Why a test of a chapter in this state did not run.
    pub fn why_not_run(&self) -> &'static str {
        match self {
            Self::Graded => "the test binary was not built",
            Self::NotSubmitted => "the chapter was not submitted",
            Self::NotStarted => "the chapter is not started (every stub is as given)",
            Self::CompileError(_) => "the chapter did not compile",
            Self::Rejected(_) => "the chapter was rejected before building",
            Self::Error(_) => "the chapter could not be graded",
        }
    }

    pub fn label(&self) -> &'static str {
        match self {
            Self::Graded => "graded",
            Self::NotSubmitted => "not submitted",
            Self::NotStarted => "not started",
            Self::CompileError(_) => "compile error",
            Self::Rejected(_) => "rejected",
            Self::Error(_) => "error",
        }
    }
}

/// One test's result for one learner (None: the test did not run).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TestResult {
    pub run: Option<TestRun>,
}

/// One learner, as graded: a status per chapter and a result per case, in
/// the order of the chapters and of the cases.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LearnerResult {
    pub name: String,
    pub notes: Vec<String>,
    pub chapters: Vec<ChapterStatus>,
    pub tests: Vec<TestResult>,
    pub build_secs: f64,
    pub run_secs: f64,
}

impl LearnerResult {
    /// Whether case `case` passed (a case with no result did not).
    pub fn passed(&self, case: usize) -> bool {
        self.tests
            .get(case)
            .and_then(|t| t.run.as_ref())
            .is_some_and(|r| r.outcome == Outcome::Passed)
    }

    /// Whether case `case` ended as the grader's error (counted neither
    /// in the points nor in the maximum).
    pub fn grader_error(&self, case: usize) -> bool {
        self.tests
            .get(case)
            .and_then(|t| t.run.as_ref())
            .is_some_and(|r| r.outcome == Outcome::GraderError)
    }
}
