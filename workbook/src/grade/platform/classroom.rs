//! A runner result for GitHub Classroom's autograding reporter
//! (`classroom-resources/autograding-grading-reporter`).
//!
//! The problem: Classroom's reporter reads, for each runner named in its
//! `runners` input, an environment variable `<RUNNER>_RESULTS` holding a
//! base64-encoded JSON object: `version` 1, `status` (`pass`, `fail`,
//! `error`), `max_score`, and `tests[]` whose `score`s it adds up. So each
//! workbook test is one reporter test with its points, and the workflow
//! base64-encodes this file. State: none. Cost: one pass over the tests.
//! A learner sees the Actions log, so a hidden test's message is shown
//! only when `hidden_visibility` is `visible`.

use super::{Learner, Platforms, Visibility, num};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    pub version: u32,
    pub status: String,
    pub max_score: f64,
    pub tests: Vec<Test>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Test {
    pub name: String,
    pub status: String,
    pub score: f64,
    pub message: String,
    pub test_code: String,
    pub line_no: u32,
    pub execution_time: String,
}

pub fn render(learner: &Learner, config: &Platforms) -> Value {
    let mut tests: Vec<Test> = learner
        .tests
        .iter()
        .map(|t| Test {
            name: t.name.clone(),
            status: match t.status.as_str() {
                "pass" => "pass",
                "fail" => "fail",
                _ => "error",
            }
            .into(),
            score: t.points,
            message: if t.hidden && config.hidden_visibility != Visibility::Visible {
                format!("a hidden test: {}", t.status)
            } else {
                t.text()
            },
            test_code: if t.hidden {
                String::new()
            } else {
                t.test_code.clone()
            },
            line_no: 0,
            execution_time: format!("{:.2}s", t.duration_secs.unwrap_or(0.0)),
        })
        .collect();
    // The summary (compile errors, refusals, notes) as a test of no points,
    // so the reporter prints it first.
    tests.insert(
        0,
        Test {
            name: format!(
                "workbook: {} of {} points",
                num(learner.points.total),
                num(learner.points.max)
            ),
            status: if learner.gradable() { "pass" } else { "error" }.into(),
            score: 0.0,
            message: learner.summary(),
            test_code: String::new(),
            line_no: 0,
            execution_time: "0s".into(),
        },
    );
    to_value(Results {
        version: 1,
        status: match learner.status.as_str() {
            "pass" => "pass",
            "fail" => "fail",
            _ => "error",
        }
        .into(),
        max_score: learner.points.max,
        tests,
    })
}

pub fn failed(message: &str) -> Value {
    to_value(Results {
        version: 1,
        status: "error".into(),
        max_score: 0.0,
        tests: vec![Test {
            name: "workbook".into(),
            status: "error".into(),
            score: 0.0,
            message: message.to_string(),
            test_code: String::new(),
            line_no: 0,
            execution_time: "0s".into(),
        }],
    })
}

fn to_value(r: Results) -> Value {
    serde_json::to_value(r).unwrap_or_else(
        |e| serde_json::json!({ "version": 1, "status": "error", "error": e.to_string() }),
    )
}
