//! PrairieLearn's external grader results (`/grade/results/results.json`).
//!
//! The problem: PrairieLearn reads `score` (0 to 1), `gradable` (false for
//! a submission that could not be graded, such as one that does not
//! compile: the learner is not charged an attempt), `message`,
//! `format_errors` (strings), `output` and `tests[]` (`name`, `points`,
//! `max_points`, `message`, `output`), and refuses a file over 1 MB. State:
//! none. Cost: one pass over the tests, then, only for an oversized file,
//! a few more serializations while every text is cut shorter (with a note
//! saying so). A learner sees every test at once, so a hidden test's
//! message is shown only when `hidden_visibility` is `visible`.

use crate::config::{Platforms, Visibility};
use crate::results;
use serde::Serialize;

/// PrairieLearn's limit on the results file.
pub const MAX_BYTES: usize = 1_000_000;

#[derive(Debug, Clone, Serialize)]
pub struct Results {
    pub gradable: bool,
    pub score: f64,
    pub message: String,
    pub format_errors: Vec<String>,
    pub output: String,
    pub tests: Vec<Test>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Test {
    pub name: String,
    pub points: f64,
    pub max_points: f64,
    pub message: String,
    pub output: String,
}

pub fn render(learner: &results::Results, config: &Platforms) -> Results {
    let gradable = learner.gradable();
    let tests = learner
        .tests
        .iter()
        .map(|t| {
            let shown = !t.hidden || config.hidden_visibility == Visibility::Visible;
            Test {
                name: t.name.clone(),
                points: t.points,
                max_points: t.max_points,
                message: match (shown, &t.message) {
                    (true, Some(m)) => m.clone(),
                    (true, None) => String::new(),
                    (false, _) => format!("a hidden test: {}", t.status.as_str()),
                },
                output: if shown {
                    t.output.clone().unwrap_or_default()
                } else {
                    String::new()
                },
            }
        })
        .collect();
    let format_errors = if gradable {
        Vec::new()
    } else {
        learner.message.iter().cloned().collect()
    };
    let score = if learner.points.max > 0.0 {
        (learner.points.total / learner.points.max).clamp(0.0, 1.0)
    } else {
        0.0
    };
    fit(Results {
        gradable,
        score,
        message: learner.summary(),
        format_errors,
        output: learner.notes.join("\n"),
        tests,
    })
}

pub fn failed(message: &str) -> Results {
    fit(Results {
        gradable: false,
        score: 0.0,
        message: message.to_string(),
        format_errors: vec![message.to_string()],
        output: String::new(),
        tests: Vec::new(),
    })
}

/// `r` cut to fit in `MAX_BYTES` as JSON: while it is over, every text is
/// cut to half as many characters (a note in `message` says so); tests are
/// dropped last, counted in the message.
fn fit(r: Results) -> Results {
    let mut chars = usize::MAX;
    let mut cut = r.clone();
    loop {
        let text = serde_json::to_string(&cut).unwrap_or_default();
        if text.len() <= MAX_BYTES {
            return cut;
        }
        chars = if chars == usize::MAX {
            64 << 10
        } else {
            chars / 2
        };
        cut = r.clone();
        let c = |s: &mut String| *s = short(s, chars);
        c(&mut cut.output);
        cut.format_errors.iter_mut().for_each(c);
        for t in &mut cut.tests {
            c(&mut t.message);
            c(&mut t.output);
            c(&mut t.name);
        }
        if chars < 64 {
            let n = cut.tests.len();
            cut.tests.clear();
            cut.message = format!(
                "{}\n\n({n} test(s) not listed: the results passed PrairieLearn's 1 MB limit)",
                short(&r.message, 4096)
            );
            cut.format_errors.truncate(1);
            return cut;
        }
        cut.message = format!(
            "{}\n\n(texts cut to {chars} characters each to fit PrairieLearn's 1 MB limit)",
            short(&r.message, chars.max(4096))
        );
    }
}

fn short(s: &str, n: usize) -> String {
    let total = s.chars().count();
    if total <= n {
        return s.to_string();
    }
    let kept: String = s.chars().take(n).collect();
    format!("{kept}... ({} more characters cut)", total - n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_oversized_result_is_cut_under_a_megabyte_and_says_so() {
        let big = "x".repeat(200_000);
        let r = Results {
            gradable: true,
            score: 0.5,
            message: "1 of 2 points.".into(),
            format_errors: Vec::new(),
            output: big.clone(),
            tests: (0..20)
                .map(|i| Test {
                    name: format!("t{i}"),
                    points: 0.0,
                    max_points: 1.0,
                    message: big.clone(),
                    output: big.clone(),
                })
                .collect(),
        };
        let back = fit(r);
        let text = serde_json::to_string(&back).unwrap();
        assert!(text.len() <= MAX_BYTES, "{} bytes", text.len());
        assert_eq!(back.tests.len(), 20);
        assert!(back.message.contains("1 MB limit"), "{}", back.message);
        assert!(back.tests[0].message.contains("more characters cut"));
    }

    #[test]
    fn a_small_result_is_kept_whole() {
        let r = Results {
            gradable: false,
            score: 0.0,
            message: "m".into(),
            format_errors: vec!["e".into()],
            output: String::new(),
            tests: Vec::new(),
        };
        let back = fit(r);
        assert_eq!(back.message, "m");
        assert_eq!(back.format_errors, ["e"]);
    }
}
