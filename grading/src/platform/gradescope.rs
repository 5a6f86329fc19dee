//! Gradescope's results file (`/autograder/results/results.json`).
//!
//! The problem: Gradescope shows each test with its points and a visibility
//! (`hidden`, `after_due_date`, `after_published`, `visible`), and the top
//! `score` overrides the tests' sum; a hidden test of the workbook must not
//! show its inputs to a learner before the instructor publishes the grades.
//! State: none. Cost: one pass over the tests. The structs are the fields
//! this grader writes, typed (`deny_unknown_fields` so the unit tests read
//! back exactly what is written).

use super::{Learner, Platforms, Visibility};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    pub score: f64,
    pub execution_time: u64,
    pub output: String,
    pub output_format: String,
    pub visibility: Visibility,
    pub stdout_visibility: Visibility,
    pub tests: Vec<Test>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Test {
    pub name: String,
    pub score: f64,
    pub max_score: f64,
    pub status: String,
    pub output: String,
    pub output_format: String,
    pub visibility: Visibility,
}

pub fn render(learner: &Learner, config: &Platforms, elapsed: f64) -> Value {
    let tests = learner
        .tests
        .iter()
        .map(|t| Test {
            name: t.name.clone(),
            score: t.points,
            max_score: t.max_points,
            status: if t.status == "pass" {
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
    to_value(Results {
        score: learner.points.total,
        execution_time: elapsed.ceil() as u64,
        output: learner.summary(),
        output_format: "text".into(),
        visibility: Visibility::Visible,
        // The grader's own log (build progress) is for the instructor.
        stdout_visibility: Visibility::Hidden,
        tests,
    })
}

pub fn failed(message: &str, elapsed: f64) -> Value {
    to_value(Results {
        score: 0.0,
        execution_time: elapsed.ceil() as u64,
        output: message.to_string(),
        output_format: "text".into(),
        visibility: Visibility::Visible,
        stdout_visibility: Visibility::Hidden,
        tests: Vec::new(),
    })
}

fn to_value(r: Results) -> Value {
    serde_json::to_value(r)
        .unwrap_or_else(|e| serde_json::json!({ "score": 0, "output": e.to_string() }))
}
