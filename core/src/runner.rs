//! Running a chapter's suite with cargo and reading the verdict per test.
//!
//! The suite is an ordinary libtest binary, so its text output is the
//! stable interface: `test NAME ... ok|FAILED|ignored` lines, then one
//! `---- NAME stdout ----` block per failure with the panic message. A build
//! that fails produces no such lines; the compiler's message is kept instead.

use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// The cargo profile the tools build and run in (`.cargo/config.toml`
/// defines it as the dev profile): its artifacts and its lock are in
/// `target/tool/`, so a learner's own `cargo test` (in `target/debug/`)
/// never waits behind a tool's build, nor behind the suites a tool runs.
pub const TOOL_PROFILE: &str = "tool";

/// Runs the suite of package `package` (its `[[test]]` target has the same
/// name) in the tools' profile ([`TOOL_PROFILE`]) and reads the verdicts.
pub fn run_suite(root: &Path, package: &str, target: Target) -> Result<SuiteRun> {
    let out = suite_command(root, package, target, None, Some(TOOL_PROFILE))
        .output()
        .with_context(|| {
            // The learner's tool runs this: its error is in their language.
            crate::lang::Lang::chosen(root).fill(
                "cannot run cargo test for {package}",
                &[("package", &package)],
            )
        })?;
    Ok(verdicts(&out))
}

/// [`run_suite`] in the workspace at `root`, optionally with its own
/// target directory (the maintainer check's scratch workspaces).
pub fn run_suite_in(
    root: &Path,
    package: &str,
    target: Target,
    target_dir: Option<&Path>,
) -> Result<SuiteRun> {
    let out = suite_command(root, package, target, target_dir, None)
        .output()
        .with_context(|| format!("cannot run cargo test for {package}"))?;
    Ok(verdicts(&out))
}

/// [`run_suite_in`] on the learner's crate under a wall-clock `limit` for
/// the build and the run together: `None` when it ran out (cargo and the
/// suite, started in a process group of their own, are then killed
/// together). For code that may loop, such as the check's seeded bugs.
pub fn run_suite_limited(
    root: &Path,
    package: &str,
    target_dir: Option<&Path>,
    limit: Duration,
) -> Result<Option<SuiteRun>> {
    use std::os::unix::process::CommandExt;
    let mut cmd = suite_command(root, package, Target::Learner, target_dir, None);
    cmd.process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run cargo test for {package}"))?;
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            text
        })
    }
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() > limit {
            // The whole group: cargo, and the suite it started.
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = Output {
        status: status.unwrap_or_default(),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    Ok(status.map(|_| verdicts(&out)))
}

/// The `cargo test` command that runs `package`'s suite with plain output,
/// in cargo's `profile` (its default, dev, when `None`: a scratch workspace
/// has no `.cargo/config.toml` to define the tools' profile).
fn suite_command(
    root: &Path,
    package: &str,
    target: Target,
    target_dir: Option<&Path>,
    profile: Option<&str>,
) -> Command {
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
    if let Some(profile) = profile {
        cmd.args(["--profile", profile]);
    }
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
    cmd
}

/// The verdicts of a finished `cargo test`, or its compiler errors.
fn verdicts(out: &Output) -> SuiteRun {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut run = parse(&stdout);
    if run.tests.is_empty() && !out.status.success() {
        run.build_error = Some(compiler_errors(&stderr));
    }
    run
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

/// The lines of a failure worth showing (`watch`, and the grader's
/// report.md): the first `limit` non-blank ones, except that a snapshot's
/// diff is kept whole (up to 400 lines), so the learner's own `+` lines are
/// never cut off.
pub fn shown_lines(msg: &str, limit: usize) -> Vec<&str> {
    let lines: Vec<&str> = msg.lines().filter(|l| !l.trim().is_empty()).collect();
    let diff_end = lines.iter().rposition(|l| is_diff_line(l));
    let keep = match diff_end {
        // The diff, then the lines that say what it was.
        Some(end) => (end + 3).max(limit).min(400),
        None => limit,
    };
    lines.into_iter().take(keep).collect()
}

/// Whether a line belongs to insta's snapshot diff: its frame, or a line
/// numbered on both sides (`   3    3 │ ...`, `      4 │+...`).
fn is_diff_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("────")
        || t.starts_with("+new results")
        || t.starts_with("-old snapshot")
        || line.contains("│")
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

    #[test]
    fn a_long_snapshot_diff_is_kept_through_the_learners_lines() {
        let mut msg = String::from("Snapshot: x\n-old snapshot\n+new results\n────────────\n");
        for i in 0..30 {
            msg.push_str(&format!("{i:>5}      │-[\n"));
        }
        msg.push_str("         0 │+mine\n────────────\nwhat it was\n");
        msg.push_str(&"more\n".repeat(20));
        let shown = shown_lines(&msg, 15);
        assert!(shown.iter().any(|l| l.contains("│+mine")), "{shown:?}");
        assert!(shown.contains(&"what it was"), "{shown:?}");
        assert!(shown.len() < 40, "{shown:?}");
    }

    #[test]
    fn other_failures_are_cut() {
        let msg: String = (0..40).map(|i| format!("line {i}\n")).collect();
        assert_eq!(shown_lines(&msg, 15).len(), 15);
    }
}
