//! Running one test of a compiled suite in a child process under limits.
//!
//! Each test runs alone (`BINARY --exact NAME`) in its own process, so a
//! test that loops, overflows its stack, allocates without end or prints
//! without end is stopped and named without touching the next test. Limits:
//! a wall clock enforced here; address space and CPU time set as rlimits in
//! the child by re-executing this very binary (`workbook __limited`), which
//! calls `setrlimit` (a safe API) and then `exec`s the test binary, so no
//! `unsafe` `pre_exec` hook is needed; output is capped while it is read.
//! The child gets an empty environment apart from what the suite needs.

use crate::runner;
use anyhow::{Context, Result};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The limits one test runs under.
#[derive(Debug, Clone)]
pub struct Limits {
    pub wall: Duration,
    pub cpu_secs: u64,
    pub memory_bytes: u64,
    pub output_bytes: usize,
}

/// How one test ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    Failed,
    Timeout,
    Crashed,
    OutOfMemory,
}

impl Outcome {
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Timeout => "timeout",
            Outcome::Crashed => "crashed",
            Outcome::OutOfMemory => "out of memory",
        }
    }
}

/// One test's verdict, its explanation and what it printed.
#[derive(Debug, Clone)]
pub struct TestRun {
    pub outcome: Outcome,
    pub message: String,
    pub output: String,
    pub seconds: f64,
}

/// Where and how to run the tests of one suite binary.
pub struct Runner {
    /// This program, re-executed to set the limits.
    pub self_exe: PathBuf,
    pub limits: Limits,
    /// The crate folder the test runs in, and the workspace root for insta.
    pub cwd: PathBuf,
    pub workspace: PathBuf,
}

impl Runner {
    pub fn run(&self, binary: &Path, test: &str) -> Result<TestRun> {
        let l = &self.limits;
        let mut cmd = Command::new(&self.self_exe);
        cmd.arg("__limited")
            .arg(l.memory_bytes.to_string())
            .arg(l.cpu_secs.to_string())
            .arg(binary)
            .args(["--exact", test, "--test-threads", "1", "--color", "never"])
            .current_dir(&self.cwd)
            .env_clear()
            .env("INSTA_UPDATE", "no")
            .env("INSTA_FORCE_PASS", "0")
            .env("INSTA_WORKSPACE_ROOT", &self.workspace)
            .env("CI", "true")
            .env("RUST_BACKTRACE", "0")
            .env("NO_COLOR", "1")
            .env("TERM", "dumb")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let start = Instant::now();
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let total = Arc::new(AtomicUsize::new(0));
        let flood = Arc::new(AtomicBool::new(false));
        let out = drain(child.stdout.take(), l.output_bytes, &total, &flood);
        let err = drain(child.stderr.take(), l.output_bytes, &total, &flood);
        let mut killed: Option<(Outcome, String)> = None;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if start.elapsed() > l.wall && killed.is_none() {
                killed = Some((
                    Outcome::Timeout,
                    format!(
                        "took longer than {:.1} s (wall clock) and was stopped",
                        l.wall.as_secs_f64()
                    ),
                ));
                let _ = child.kill();
            } else if flood.load(Ordering::Relaxed) && killed.is_none() {
                killed = Some((
                    Outcome::Crashed,
                    format!(
                        "printed more than {} KiB and was stopped",
                        l.output_bytes / 1024
                    ),
                ));
                let _ = child.kill();
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let seconds = start.elapsed().as_secs_f64();
        let stdout = out.join().unwrap_or_default();
        let stderr = err.join().unwrap_or_default();
        let (outcome, message) =
            killed.unwrap_or_else(|| classify(test, status, &stdout, &stderr, l));
        let output = format!("{stdout}{stderr}");
        Ok(TestRun {
            outcome,
            message,
            output,
            seconds,
        })
    }
}

/// Reads a pipe to its end, keeping at most `cap` bytes over both pipes.
fn drain(
    pipe: Option<impl Read + Send + 'static>,
    cap: usize,
    total: &Arc<AtomicUsize>,
    flood: &Arc<AtomicBool>,
) -> std::thread::JoinHandle<String> {
    let (total, flood) = (total.clone(), flood.clone());
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let Some(mut pipe) = pipe else {
            return String::new();
        };
        let mut buf = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let before = total.fetch_add(n, Ordering::Relaxed);
            if before + n > cap {
                flood.store(true, Ordering::Relaxed);
                kept.extend_from_slice(&buf[..cap.saturating_sub(before).min(n)]);
            } else {
                kept.extend_from_slice(&buf[..n]);
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// Names what happened from the exit status and the output.
fn classify(
    test: &str,
    status: std::process::ExitStatus,
    stdout: &str,
    stderr: &str,
    l: &Limits,
) -> (Outcome, String) {
    let both = format!("{stdout}\n{stderr}");
    if both.contains("memory allocation of") || both.contains("failed to spawn thread") {
        let mib = l.memory_bytes >> 20;
        return (
            Outcome::OutOfMemory,
            format!("ran out of memory (the limit is {mib} MiB) and was stopped"),
        );
    }
    if both.contains("has overflowed its stack") {
        return (
            Outcome::Crashed,
            "overflowed its stack (recursing too deep, or without end?)".into(),
        );
    }
    // SIGXCPU at the soft limit, SIGKILL at the hard one.
    if matches!(status.signal(), Some(24 | 9)) {
        return (
            Outcome::Timeout,
            format!(
                "used more than {} s of CPU time and was stopped",
                l.cpu_secs
            ),
        );
    }
    let run = runner::parse(stdout);
    match run.tests.get(test) {
        Some(runner::Verdict::Passed) if status.success() => (Outcome::Passed, String::new()),
        Some(runner::Verdict::Failed) => {
            let msg = run.messages.get(test).cloned().unwrap_or_default();
            (Outcome::Failed, clean_panic(&msg))
        }
        _ => match status.signal() {
            Some(sig) => (Outcome::Crashed, format!("was killed by signal {sig}")),
            None => (
                Outcome::Crashed,
                format!("ended with status {:?} without a verdict", status.code()),
            ),
        },
    }
}

/// The panic message without libtest's `thread '...' panicked at` header.
fn clean_panic(msg: &str) -> String {
    let lines: Vec<&str> = msg
        .lines()
        .filter(|l| !l.starts_with("thread '") && !l.starts_with("note: run with `RUST_BACKTRACE"))
        .collect();
    lines.join("\n").trim().to_string()
}

/// `workbook __limited BYTES CPU_SECS PROGRAM ARGS...`: sets the limits on
/// this process, then becomes PROGRAM (exec), which inherits them.
pub fn limited_exec(args: &[String]) -> ExitCode {
    let [bytes, cpu, program, rest @ ..] = args else {
        eprintln!("usage: workbook __limited BYTES CPU_SECS PROGRAM [ARGS...]");
        return ExitCode::from(2);
    };
    let (Ok(bytes), Ok(cpu)) = (bytes.parse::<u64>(), cpu.parse::<u64>()) else {
        eprintln!("__limited: BYTES and CPU_SECS must be numbers");
        return ExitCode::from(2);
    };
    let set = [
        (rlimit::Resource::AS, bytes, bytes),
        (rlimit::Resource::CPU, cpu, cpu + 1),
        (rlimit::Resource::CORE, 0, 0),
        (rlimit::Resource::FSIZE, 1 << 20, 1 << 20),
    ];
    for (res, soft, hard) in set {
        if let Err(e) = rlimit::setrlimit(res, soft, hard) {
            eprintln!("__limited: cannot set {res:?}: {e}");
            return ExitCode::from(2);
        }
    }
    let err = Command::new(program).args(rest).exec();
    eprintln!("__limited: cannot run {program}: {err}");
    ExitCode::from(127)
}
