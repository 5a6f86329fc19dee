//! Gradescope's results file (`/autograder/results/results.json`).
//!
//! The problem: Gradescope shows each test with its points and a visibility
//! (`hidden`, `after_due_date`, `after_published`, `visible`), and the top
//! `score` overrides the tests' sum; a hidden test of the workbook must not
//! show its inputs to a learner before the instructor publishes the grades.
//! State: none. Cost: one pass over the tests. The structs are the fields
//! this grader writes, typed.

use crate::config::{Platforms, Visibility};
use crate::results::{self, Status};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Results {
    pub score: f64,
    pub execution_time: u64,
    pub output: String,
    pub output_format: String,
    pub visibility: Visibility,
    pub stdout_visibility: Visibility,
    pub tests: Vec<Test>,
}

#[derive(Debug, Serialize)]
pub struct Test {
    pub name: String,
    pub score: f64,
    pub max_score: f64,
    pub status: String,
    pub output: String,
    pub output_format: String,
    pub visibility: Visibility,
}

pub fn render(learner: &results::Results, config: &Platforms, elapsed: f64) -> Results {
    let tests = learner
        .tests
        .iter()
        .map(|t| Test {
            name: t.name.clone(),
            score: t.points,
            max_score: t.max_points,
            status: if t.status == Status::Pass {
                "passed"
            } else {
                "failed"
            }
            .into(),
            output: t.text(),
            output_format: "text".into(),
            visibility: if t.hidden {
                config.hidden_visibility
            } else {
                config.public_visibility
            },
        })
        .collect();
    Results {
        score: learner.points.total,
        execution_time: elapsed.ceil() as u64,
        // Always visible: while hidden tests are hidden, their points are
        // left out of the totals it states.
        output: learner.summary_shown(config.hidden_visibility == Visibility::Visible),
        output_format: "text".into(),
        visibility: Visibility::Visible,
        // The grader's own log (build progress) is for the instructor.
        stdout_visibility: Visibility::Hidden,
        tests,
    }
}

pub fn failed(message: &str, elapsed: f64) -> Results {
    Results {
        score: 0.0,
        execution_time: elapsed.ceil() as u64,
        output: message.to_string(),
        output_format: "text".into(),
        visibility: Visibility::Visible,
        stdout_visibility: Visibility::Hidden,
        tests: Vec::new(),
    }
}
