//! A runner result for GitHub Classroom's autograding reporter
//! (`classroom-resources/autograding-grading-reporter`).
//!
//! The problem: Classroom's reporter reads, for each runner named in its
//! `runners` input, an environment variable `<RUNNER>_RESULTS` holding a
//! base64-encoded JSON object shaped as its own graders write it
//! (`autograding-command-grader`: `version` 1, `status` of `pass`, `fail`
//! or `error`, `max_score`, and `tests[]` of `name`, `status`, `score`,
//! `message`, `test_code`, `filename`, `line_no`, `duration` in
//! milliseconds). What Classroom records is the sum of the tests'
//! `score`s over the sum of the runners' `max_score`s; what the reporter
//! prints as the runner's points is `max_score` times the share of tests
//! whose status is `pass`. So each workbook test is one reporter test with
//! its points, and nothing else is a test (a summary line counted as a
//! passing test would move the printed points off the recorded ones): the
//! summary (compile errors, refusals, notes) goes to the Actions log and
//! the job summary instead (`grade-one` prints it; the workflow's script
//! copies it). A learner sees the Actions log, so a hidden test's message
//! is shown only when `hidden_visibility` is `visible`. State: none.
//! Cost: one pass over the tests.

use crate::config::{Platforms, Visibility};
use crate::results::{self, Status};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Results {
    pub version: u32,
    pub status: String,
    pub max_score: f64,
    pub tests: Vec<Test>,
}

#[derive(Debug, Serialize)]
pub struct Test {
    pub name: String,
    pub status: String,
    pub score: f64,
    pub message: String,
    pub test_code: String,
    pub filename: String,
    pub line_no: u32,
    /// Milliseconds, as the reporter's own graders write it.
    pub duration: u64,
}

pub fn render(learner: &results::Results, config: &Platforms) -> Results {
    let mut tests: Vec<Test> = learner
        .tests
        .iter()
        .map(|t| Test {
            name: t.name.clone(),
            status: t.status.as_str().into(),
            score: t.points,
            message: if t.hidden && config.hidden_visibility != Visibility::Visible {
                format!("a hidden test: {}", t.status.as_str())
            } else {
                t.text()
            },
            test_code: if t.hidden {
                String::new()
            } else {
                t.test_code.clone()
            },
            filename: String::new(),
            line_no: 0,
            duration: (t.duration_secs.unwrap_or(0.0) * 1000.0).round() as u64,
        })
        .collect();
    if tests.is_empty() {
        // The reporter divides by the number of tests: one of no points
        // says why there are none.
        tests.push(note_test("workbook", &learner.summary()));
    }
    Results {
        version: 1,
        // The reporter's three statuses are Exercism's.
        status: learner.status.as_str().into(),
        max_score: learner.points.max,
        tests,
    }
}

fn note_test(name: &str, message: &str) -> Test {
    Test {
        name: name.into(),
        status: Status::Error.as_str().into(),
        score: 0.0,
        message: message.to_string(),
        test_code: String::new(),
        filename: String::new(),
        line_no: 0,
        duration: 0,
    }
}

pub fn failed(message: &str) -> Results {
    Results {
        version: 1,
        status: Status::Error.as_str().into(),
        max_score: 0.0,
        tests: vec![note_test("workbook", message)],
    }
}
