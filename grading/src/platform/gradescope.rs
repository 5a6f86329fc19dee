//! Gradescope's results file (`/autograder/results/results.json`).
//!
//! The problem: Gradescope shows each test with its points and a visibility
//! (`hidden`, `after_due_date`, `after_published`, `visible`), and the top
//! `score` overrides the tests' sum; a hidden test of the workbook must not
//! show its inputs to a learner before the instructor publishes the grades.
//! Nor its points: Gradescope's specification (autograder_samples,
//! `docs/specs.md`, "Controlling Test Case Visibility") says that while a
//! test is `after_due_date` or `after_published` students do not see their
//! total score at all, but a `hidden` test does not hide it ("they should
//! only be used for tests which don't contribute points to the total"), and
//! leaving `score` out makes Gradescope sum every test, hidden ones too. So
//! with hidden tests `hidden`, the top `score` is the visible tests' sum
//! (their points count nowhere, as Gradescope means them), and with
//! `after_due_date`/`after_published` it is the whole total, shown only
//! once those tests are. State: none. Cost: one pass over the tests. The structs are the fields
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
        score: top_score(learner, config),
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

/// The top-level score: the whole total, unless hidden tests are
/// `hidden`, whose points Gradescope would show in it (see above).
fn top_score(learner: &results::Results, config: &Platforms) -> f64 {
    if config.hidden_visibility == Visibility::Hidden {
        learner
            .tests
            .iter()
            .filter(|t| !t.hidden)
            .map(|t| t.points)
            .sum()
    } else {
        learner.points.total
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Points, TestResults};

    fn test(name: &str, hidden: bool, points: f64) -> TestResults {
        TestResults {
            name: name.into(),
            status: if points > 0.0 {
                Status::Pass
            } else {
                Status::Fail
            },
            message: None,
            output: None,
            test_code: String::new(),
            task_id: 1,
            verdict: String::new(),
            hidden,
            points,
            max_points: 2.0,
            duration_secs: None,
            said: String::new(),
        }
    }

    /// A learner with 2 of 4 public points and 4 of 4 hidden ones.
    fn learner() -> results::Results {
        results::Results {
            version: 3,
            status: Status::Fail,
            message: None,
            tests: vec![
                test("a", false, 2.0),
                test("b", false, 0.0),
                test("c", true, 2.0),
                test("d", true, 2.0),
            ],
            learner: "l".into(),
            notes: Vec::new(),
            chapters: Default::default(),
            points: Points {
                total: 6.0,
                max: 8.0,
                exercises: Default::default(),
            },
            build_secs: 0.0,
            run_secs: 0.0,
            notes_as_graded: Vec::new(),
        }
    }

    #[test]
    fn with_hidden_tests_hidden_the_top_score_leaves_their_points_out() {
        // Gradescope shows the total while `hidden` tests stay hidden.
        let config = Platforms {
            hidden_visibility: Visibility::Hidden,
            public_visibility: Visibility::Visible,
        };
        let r = render(&learner(), &config, 1.0);
        assert_eq!(r.score, 2.0);
        assert!(
            r.output.contains("2 of 4 points on the tests shown"),
            "{}",
            r.output
        );
    }

    #[test]
    fn with_hidden_tests_shown_later_the_top_score_is_the_whole_total() {
        // Gradescope hides the total itself until those tests are shown.
        for hidden_visibility in [Visibility::AfterPublished, Visibility::AfterDueDate] {
            let config = Platforms {
                hidden_visibility,
                public_visibility: Visibility::Visible,
            };
            assert_eq!(render(&learner(), &config, 1.0).score, 6.0);
        }
    }
}
