//! Running a chapter's suite with cargo and reading the verdict per test.
//!
//! The suite is an ordinary libtest binary, so its text output is the
//! stable interface: `test NAME ... ok|FAILED|ignored` lines, then one
//! `---- NAME stdout ----` block per failure with the panic message. A build
//! that fails produces no such lines; the compiler's message is kept instead.

use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Which implementation the suite is pointed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The learner's crate, as it is in `exercises/`.
    Learner,
    /// The reference solution (`--features reference`).
    Reference,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    Failed,
    Ignored,
}

/// The outcome of one suite run.
#[derive(Debug, Default)]
pub struct SuiteRun {
    /// Each test's verdict, by full name (`count_naive::case_1_...`).
    pub tests: BTreeMap<String, Verdict>,
    /// The captured output of each failed test (its panic message).
    pub messages: BTreeMap<String, String>,
    /// The compiler's errors when the suite did not build.
    pub build_error: Option<String>,
}

impl SuiteRun {
    pub fn passed(&self, name: &str) -> bool {
        self.tests.get(name) == Some(&Verdict::Passed)
    }
}

/// Runs the suite of package `package` (its `[[test]]` target has the same
/// name) and reads the verdicts.
pub fn run_suite(root: &Path, package: &str, target: Target) -> Result<SuiteRun> {
    run_suite_in(root, package, target, None)
}

/// [`run_suite`] in the workspace at `root`, optionally with its own
/// target directory (the maintainer check's scratch workspaces).
pub fn run_suite_in(
    root: &Path,
    package: &str,
    target: Target,
    target_dir: Option<&Path>,
) -> Result<SuiteRun> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    if let Some(dir) = target_dir {
        cmd.env("CARGO_TARGET_DIR", dir);
    }
    cmd.current_dir(root).args([
        "test",
        "--color",
        "never",
        "--no-fail-fast",
        "-p",
        package,
        "--test",
        package,
    ]);
    if target == Target::Reference {
        cmd.args(["--features", "reference"]);
    }
    // Never record a snapshot while judging one.
    cmd.env("INSTA_UPDATE", "no")
        .env("INSTA_FORCE_PASS", "0")
        .env("RUST_BACKTRACE", "0")
        // The tool prints its own next step; the suites' line would repeat it.
        .env("WORKBOOK_NO_SUMMARY", "1");
    cmd.args(["--", "--color", "never"]);
    let out = cmd
        .output()
        .with_context(|| format!("cannot run cargo test for {package}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut run = parse(&stdout);
    if run.tests.is_empty() && !out.status.success() {
        run.build_error = Some(compiler_errors(&stderr));
    }
    Ok(run)
}

/// Reads libtest's plain output.
pub fn parse(stdout: &str) -> SuiteRun {
    let mut run = SuiteRun::default();
    let mut current: Option<(String, String)> = None;
    for line in stdout.lines() {
        if let Some((name, verdict)) = line
            .strip_prefix("test ")
            .and_then(|rest| rest.rsplit_once(" ... "))
        {
            let verdict = match verdict.trim() {
                "ok" => Verdict::Passed,
                v if v.starts_with("ignored") => Verdict::Ignored,
                _ => Verdict::Failed,
            };
            run.tests.insert(name.trim().to_string(), verdict);
            continue;
        }
        if let Some(name) = line
            .strip_prefix("---- ")
            .and_then(|l| l.strip_suffix(" stdout ----"))
        {
            if let Some((n, m)) = current.take() {
                run.messages.insert(n, m.trim_end().to_string());
            }
            current = Some((name.to_string(), String::new()));
            continue;
        }
        if line == "failures:" || line.starts_with("test result:") {
            if let Some((n, m)) = current.take() {
                run.messages.insert(n, m.trim_end().to_string());
            }
            continue;
        }
        if let Some((_, m)) = current.as_mut() {
            m.push_str(line);
            m.push('\n');
        }
    }
    if let Some((n, m)) = current.take() {
        run.messages.insert(n, m.trim_end().to_string());
    }
    run
}

/// The `error` blocks of cargo's stderr, without the progress noise.
fn compiler_errors(stderr: &str) -> String {
    let mut keep = Vec::new();
    let mut in_error = false;
    for line in stderr.lines() {
        if line.starts_with("error") {
            in_error = true;
        } else if line.starts_with("warning") {
            in_error = false;
        }
        if in_error {
            keep.push(line);
        }
    }
    if keep.is_empty() {
        stderr.trim().to_string()
    } else {
        keep.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_verdicts_and_failure_messages() {
        let out = "\nrunning 3 tests\ntest a::x ... ok\ntest a::y ... FAILED\ntest b::z ... ignored\n\n\
                   failures:\n\n---- a::y stdout ----\n\nthread 'a::y' panicked at tests/a.rs:1:1:\nboom\n\n\
                   failures:\n    a::y\n\ntest result: FAILED. 1 passed; 1 failed; 1 ignored\n";
        let run = parse(out);
        assert_eq!(run.tests.len(), 3);
        assert!(run.passed("a::x"));
        assert_eq!(run.tests["a::y"], Verdict::Failed);
        assert_eq!(run.tests["b::z"], Verdict::Ignored);
        assert!(
            run.messages["a::y"].contains("boom"),
            "message was {:?}",
            run.messages["a::y"]
        );
    }
}
