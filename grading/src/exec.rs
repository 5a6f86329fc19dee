//! Running one test of a compiled suite in a child process under limits.
//!
//! A learner-chapter's tests first run in one judge with a fresh subject
//! each (`batch.rs`); a test that did not pass there runs here, alone.
//! Each test runs alone (`BINARY --exact NAME`) in its own process, inside
//! the sandbox, so a test that loops, overflows its stack, allocates without
//! end, spawns threads without end or prints without end is stopped and
//! named without touching the next test or another learner. Limits: CPU
//! time (`RLIMIT_CPU`, the judge, so a loaded machine does not change a
//! grade), a generous wall clock as a backstop, address space, tasks
//! (`RLIMIT_NPROC` under a uid of the run's own), file size and no core
//! dumps. They are set by re-executing this very binary (`grader
//! __limited`, see `limited.rs`) inside the sandbox, which calls
//! `setrlimit` (a safe API), drops to the test uid and `exec`s the test, so
//! no `unsafe` `pre_exec` hook is needed; for a root grader the
//! learner-chapter's spawner does the same in one sandbox per role
//! (`spawner.rs`), the processes behind one face (`test_proc.rs`). A test
//! passes only when its process exits with status 0, which the code under
//! test cannot produce: status 0 *and* libtest's own log file (a fresh
//! folder per run, the only place the test may write) saying `ok NAME`,
//! written after the test function returns. Ending the process early needs
//! `std::process`, forging the log needs `std::fs`; the intake refuses both.
//! The test's output is never read for a verdict, only to explain a failure.

use crate::limited::{TEST_COMMAND, TestLimits};
use crate::sandbox::{Mode, Sandbox, effective_uid, user_tasks};
use crate::spawner::{Slot, Spawners};
use crate::test_proc::{Drained, Fate, Proc, Subject, drain, joined};
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use workbook_core::runner;

pub(crate) mod batch;

/// Runs started in this process: each test's judge and subject (and each
/// batch's) get the uids of their own run numbers.
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// The limits one test runs under.
#[derive(Debug, Clone)]
pub struct Limits {
    pub wall: Duration,
    pub cpu_secs: u64,
    pub memory_bytes: u64,
    pub output_bytes: usize,
    /// Processes and threads one test may have at once.
    pub tasks: u64,
    /// How long a test's processes may make no CPU progress, none of them
    /// waiting for the CPU or the disk, before it is stopped as idle.
    pub idle: Duration,
}

/// The wall clock one learner's tests may use in all: a test running when
/// it ends is stopped, and the tests after it are not run.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub until: Instant,
    /// The whole budget, to name it.
    pub secs: u64,
}

impl Budget {
    /// What a test stopped or skipped for the budget is told.
    pub fn spent(&self, ran: bool) -> String {
        let how = if ran { "was stopped" } else { "was not run" };
        format!(
            "{how}: this learner's tests used their whole budget of {} s (wall clock)",
            self.secs
        )
    }
}

/// How one test ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    Passed,
    Failed,
    Timeout,
    Crashed,
    OutOfMemory,
    /// Neither the judge nor the subject used any CPU for `Limits::idle`.
    Idle,
    /// The learner's budget for tests ran out (`Budget`).
    OverBudget,
    /// The grader failed, not the learner's code: the judge (which never
    /// runs it) ran out of memory. Counted neither in the learner's points
    /// nor in its maximum; the instructor's report names it.
    GraderError,
}

impl Outcome {
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Timeout => "timeout",
            Outcome::Crashed => "crashed",
            Outcome::OutOfMemory => "out of memory",
            Outcome::Idle => "idle",
            Outcome::OverBudget => "over budget",
            Outcome::GraderError => "grader error",
        }
    }
}

/// One test's verdict, its explanation and what it printed.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TestRun {
    pub outcome: Outcome,
    pub message: String,
    pub output: String,
    pub seconds: f64,
}

/// Where and how to run the tests of one suite binary.
pub struct Runner<'a> {
    /// This program, re-executed to set the limits.
    pub self_exe: PathBuf,
    pub limits: Limits,
    pub sandbox: &'a Sandbox,

    /// What the test may see (read-only): its binaries and the snapshots.
    pub visible: Vec<PathBuf>,
    /// The crate folder the test runs in, and the workspace root for insta.
    pub cwd: PathBuf,
    pub workspace: PathBuf,
    /// A folder for libtest's verdict files, one fresh folder per run.
    pub verdicts: PathBuf,
    /// The learner's code, as a subject process the judge calls; None
    /// when the test binary runs the code itself.
    pub subject: Option<PathBuf>,
    /// The learner's budget for tests, when it has one.
    pub budget: Option<Budget>,
    /// The hidden suites' seed, given to the judge alone.
    pub hidden_seed: u64,
    /// One sandbox per role for all of these tests, each test started in
    /// it by a spawner (`spawner.rs`); None: a sandbox per process.
    pub spawners: Option<Spawners>,
}

impl Fate {
    /// The verdict a failed test gets from how the subject ended, when
    /// that, not the judge's comparison, is what failed it.
    fn verdict(&self, l: &Limits) -> Option<(Outcome, String)> {
        if let Some(why) = &self.stopped {
            return Some((Outcome::Crashed, why.clone()));
        }
        let status = self.status?;
        let signal = signal_of(status);
        if matches!(signal, Some(24 | 9)) {
            return Some((
                Outcome::Timeout,
                format!(
                    "your code used more than {} s of CPU time and was stopped",
                    l.cpu_secs
                ),
            ));
        }
        if self.stderr.contains("has overflowed its stack") {
            return Some((
                Outcome::Crashed,
                "your code overflowed its stack (recursing too deep, or without end?)".into(),
            ));
        }
        if self.stderr.contains("memory allocation of") {
            return Some((
                Outcome::OutOfMemory,
                format!(
                    "your code ran out of memory (the limit is {} MiB) and was stopped",
                    l.memory_bytes >> 20
                ),
            ));
        }
        Some((
            Outcome::Crashed,
            match (signal, status.code()) {
                (Some(sig), _) => format!("your code's process was killed by signal {sig}"),
                (None, code) => {
                    format!("your code's process ended with status {code:?} during the test")
                }
            },
        ))
    }
}

/// A signal, seen directly or (through bwrap, whose first process reports
/// its child's death) as the exit status 128 + signal.
fn signal_of(status: std::process::ExitStatus) -> Option<i32> {
    status.signal().or_else(|| {
        status
            .code()
            .filter(|c| (129..160).contains(c))
            .map(|c| c - 128)
    })
}

impl Runner<'_> {
    /// Runs one test; a test stopped by a limit runs once more before it is
    /// called a timeout (or out of memory), so a loaded machine cannot turn
    /// a slow pass into a failure, and both runs are reported.
    pub fn run(&self, binary: &Path, test: &str) -> Result<TestRun> {
        if let Some(b) = self.budget.filter(|b| Instant::now() >= b.until) {
            return Ok(TestRun {
                outcome: Outcome::OverBudget,
                message: b.spent(false),
                output: String::new(),
                seconds: 0.0,
            });
        }
        let first = self.run_once(binary, test)?;
        if !matches!(
            first.outcome,
            Outcome::Timeout | Outcome::OutOfMemory | Outcome::GraderError
        ) {
            return Ok(first);
        }
        let mut second = self.run_once(binary, test)?;
        let said = |r: &TestRun| match r.outcome {
            Outcome::Passed => "passed".to_string(),
            _ => format!("{}: {}", r.outcome.label(), r.message),
        };
        second.message = format!(
            "run twice, because the first run hit a limit. First run: {}. Second run: {}.",
            said(&first),
            said(&second)
        );
        second.seconds += first.seconds;
        Ok(second)
    }

    /// The limits and the uid `__limited` sets before it becomes `program`.
    fn limited(
        &self,
        cmd: &mut Command,
        uid: Option<u32>,
        gid: Option<u32>,
        wire: bool,
        cpu_secs: u64,
    ) {
        let l = &self.limits;
        let nproc = match uid {
            Some(_) => l.tasks,
            // Without a uid of its own a process shares the limit with every
            // process of this user, so it gets what runs now plus its share.
            None => effective_uid().map_or(0, user_tasks) + l.tasks,
        };
        let limits = TestLimits {
            wire,
            memory_bytes: l.memory_bytes,
            cpu_secs,
            tasks: nproc,
            uid,
            gid,
        };
        cmd.arg(TEST_COMMAND).args(limits.to_args());
    }

    /// The judge: the suite's test binary, running one test, or (a judge
    /// per chapter, `batch`) each of `tests` with a subject of its own
    /// asked for over the wire, within one test's CPU limit in all.
    #[allow(clippy::too_many_arguments)]
    fn command(
        &self,
        binary: &Path,
        tests: &[&str],
        log: &Path,
        uid: Option<u32>,
        wire: bool,
        sandboxed: bool,
        batch: bool,
    ) -> Command {
        let argv = if sandboxed {
            self.judge_prefix(log.parent().unwrap_or(log))
        } else {
            Vec::new()
        };
        let mut cmd = match argv.split_first() {
            Some((bwrap, rest)) => {
                let mut c = Command::new(bwrap);
                c.args(rest).arg(&self.self_exe);
                c
            }
            None => Command::new(&self.self_exe),
        };
        // The judges' group: the one that may read the judges' files.
        self.limited(
            &mut cmd,
            uid,
            self.sandbox.judge_gid(),
            wire,
            self.limits.cpu_secs,
        );
        cmd.arg(binary)
            .arg("--logfile")
            .arg(log)
            .arg("--exact")
            .args(tests)
            .args([
                "--include-ignored",
                "--test-threads",
                "1",
                "--color",
                "never",
            ])
            .current_dir(&self.cwd)
            .env_clear()
            .env("INSTA_UPDATE", "no")
            .env("INSTA_FORCE_PASS", "0")
            .env("INSTA_WORKSPACE_ROOT", &self.workspace)
            .env("CI", "true")
            .env("RUST_BACKTRACE", "0")
            .env("NO_COLOR", "1")
            .env("TERM", "dumb")
            .env("PATH", "/usr/bin:/bin")
            // rayon starts a thread per core; the task limit must not
            // depend on the grader's machine.
            .env("RAYON_NUM_THREADS", "2")
            // The same inputs every run, so identical code gets identical
            // messages as well as identical grades; nothing written.
            .env("PROPTEST_RNG_SEED", "20261123")
            .env("PROPTEST_DISABLE_FAILURE_PERSISTENCE", "1")
            // The suites' "start with" line is for a learner's terminal.
            .env("WORKBOOK_NO_SUMMARY", "1")
            // Messages in the report's language, whatever the instructor's
            // locale: the learner's loop reads WORKBOOK_LANG first.
            .env("WORKBOOK_LANG", "en")
            // The largest answer the judge reads: a 64th of its memory,
            // so what the subject sends can never exhaust the judge.
            .env(
                "WORKBOOK_JUDGE_FRAME_MAX",
                judge_frame_max(self.limits.memory_bytes).to_string(),
            )
            // The hidden suites' secret: the judge's environment is
            // readable by its own uid alone, never the subject's.
            .env(crate::hidden_seed::JUDGE_ENV, self.hidden_seed.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if !self.sandbox.mode.bwrap() {
            cmd.process_group(0);
        }
        if batch {
            cmd.env("WORKBOOK_WIRE_BATCH", "1");
        }
        if self.sandbox.mode == Mode::Container {
            // No private /tmp without bwrap: this run's own folder instead.
            cmd.env("TMPDIR", log.parent().unwrap_or(log));
        }
        cmd
    }

    /// The words of the judge's sandbox, which writes only `writable`
    /// (one run's verdict folder, or all of them for a spawner's).
    fn judge_prefix(&self, writable: &Path) -> Vec<std::ffi::OsString> {
        let mut visible = self.visible.clone();
        visible.push(self.self_exe.clone());
        self.sandbox.test_prefix(&visible, writable, &self.cwd)
    }

    /// The words of the subject's sandbox.
    fn subject_prefix(&self, subject: &Path) -> Vec<std::ffi::OsString> {
        self.sandbox
            .subject_prefix(&[subject.to_path_buf(), self.self_exe.clone()])
    }

    /// The subject: the learner's code behind the wire, in a sandbox that
    /// sees its own binary and the system's libraries, and writes nothing.
    fn subject_command(&self, subject: &Path, uid: Option<u32>, sandboxed: bool) -> Command {
        let argv = if sandboxed {
            self.subject_prefix(subject)
        } else {
            Vec::new()
        };
        let mut cmd = match argv.split_first() {
            Some((bwrap, rest)) => {
                let mut c = Command::new(bwrap);
                c.args(rest).arg(&self.self_exe);
                c
            }
            None => Command::new(&self.self_exe),
        };
        // Its own uid's group, never the judges'.
        self.limited(&mut cmd, uid, None, true, self.limits.cpu_secs);
        cmd.arg(subject)
            .current_dir("/")
            .env_clear()
            .env("RUST_BACKTRACE", "0")
            .env("PATH", "/usr/bin:/bin")
            .env("RAYON_NUM_THREADS", "2")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A machine without seccomp, simulated for the tests that prove
        // what stands without the filter (the judges' files' modes): only
        // the grader's own environment can ask for it, never the learner.
        if std::env::var_os(crate::judge::NO_SECCOMP_ENV).is_some_and(|v| v == "1") {
            cmd.env(crate::judge::NO_SECCOMP_ENV, "1");
        }
        if !self.sandbox.mode.bwrap() {
            cmd.process_group(0);
        }
        cmd
    }

    /// A subject for one test, under the uid of `run`, joined to the
    /// judge by a socket pair (its end is the subject's standard input);
    /// the judge's end.
    fn subject_for(&self, path: &Path, run: usize) -> Result<(Subject, OwnedFd)> {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair()
            .context("cannot make the judge-subject socket")?;
        let flood = Arc::new(AtomicBool::new(false));
        let (child, out, err) = self
            .start(
                self.spawners.as_ref().map(|s| &s.subject),
                || self.subject_prefix(path),
                |sandboxed| self.subject_command(path, self.sandbox.test_uid(run), sandboxed),
                theirs.into(),
                &flood,
            )
            .with_context(|| format!("cannot start {}", path.display()))?;
        let subject = Subject {
            child,
            out,
            err,
            flood,
            status: None,
            stopped: None,
            ours: false,
        };
        Ok((subject, ours.into()))
    }

    fn run_once(&self, binary: &Path, test: &str) -> Result<TestRun> {
        let l = &self.limits;
        let run = RUNS.fetch_add(2, Ordering::Relaxed);
        let uid = self.sandbox.test_uid(run);
        let log = self.fresh_log(run, uid)?;
        let start = Instant::now();
        // The subject first, joined to the judge by a socket pair that
        // reaches each of them as standard input.
        let mut subject = None;
        let mut judge_stdin = None;
        if let Some(path) = &self.subject {
            let (s, wire) = self.subject_for(path, run + 1)?;
            judge_stdin = Some(wire);
            subject = Some(s);
        }
        let judge_stdin = match judge_stdin {
            Some(fd) => fd,
            None => std::fs::File::open("/dev/null")
                .context("cannot open /dev/null")?
                .into(),
        };
        let flood = Arc::new(AtomicBool::new(false));
        // Every run's verdict folder is under `verdicts`, which a
        // spawner's sandbox binds whole (a test writes only its own).
        let started = self.start(
            self.spawners.as_ref().map(|s| &s.judge),
            || self.judge_prefix(&self.verdicts),
            |sandboxed| {
                let wire = self.subject.is_some();
                self.command(binary, &[test], &log, uid, wire, sandboxed, false)
            },
            judge_stdin,
            &flood,
        );
        // The judge's end of the wire is closed here (only the judge holds
        // it now): the subject must see the wire end when the judge exits.
        let (mut child, out, err) = match started {
            Ok(c) => c,
            Err(e) => {
                if let Some(s) = subject.as_mut() {
                    s.child.kill(self.sandbox.mode);
                    s.child.wait();
                }
                return Err(e).with_context(|| format!("cannot start {}", binary.display()));
            }
        };
        let mut killed: Option<(Outcome, String)> = None;
        // A spawner's tree is the spawner, waiting, and the test it runs.
        let mut roots = vec![child.id()];
        roots.extend(subject.as_ref().map(|s| s.child.id()));
        let mut watch = crate::idle::Watch::new(roots, l.idle);
        let status = loop {
            if let Some(s) = subject.as_mut() {
                s.watch(self.sandbox.mode, l.output_bytes)?;
            }
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if start.elapsed() > l.wall && killed.is_none() {
                killed = Some((
                    Outcome::Timeout,
                    format!(
                        "was still running after {:.0} s of wall clock (the backstop; the CPU limit is {} s) and was stopped",
                        l.wall.as_secs_f64(),
                        l.cpu_secs
                    ),
                ));
                child.kill(self.sandbox.mode);
                if let Some(s) = subject.as_mut() {
                    s.stop(self.sandbox.mode);
                }
            } else if let Some(b) = self.budget.filter(|b| Instant::now() >= b.until)
                && killed.is_none()
            {
                killed = Some((Outcome::OverBudget, b.spent(true)));
                child.kill(self.sandbox.mode);
                if let Some(s) = subject.as_mut() {
                    s.stop(self.sandbox.mode);
                }
            } else if killed.is_none() && watch.idle(Instant::now()) {
                killed = Some((
                    Outcome::Idle,
                    format!(
                        "neither your code nor the test used any CPU for {:.0} s (waiting for something that never comes?) and was stopped",
                        l.idle.as_secs_f64()
                    ),
                ));
                child.kill(self.sandbox.mode);
                if let Some(s) = subject.as_mut() {
                    s.stop(self.sandbox.mode);
                }
            } else if crate::interrupt::requested().is_some() && killed.is_none() {
                // The verdict is thrown away with the interrupted run.
                killed = Some((Outcome::Crashed, "the grading run was interrupted".into()));
                child.kill(self.sandbox.mode);
                if let Some(s) = subject.as_mut() {
                    s.stop(self.sandbox.mode);
                }
            } else if flood.load(Ordering::Relaxed) && killed.is_none() {
                killed = Some((
                    Outcome::Crashed,
                    format!(
                        "printed more than {} KiB and was stopped",
                        l.output_bytes / 1024
                    ),
                ));
                child.kill(self.sandbox.mode);
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let seconds = start.elapsed().as_secs_f64();
        let stdout = joined(out);
        let stderr = joined(err);
        let recorded = recorded_passes(&log, 64 << 10).contains(test);
        let _ = std::fs::remove_dir_all(log.parent().unwrap_or(&log));
        let (mut outcome, mut message) =
            killed.unwrap_or_else(|| classify(test, status, recorded, &stdout, &stderr, l));
        let mut output = format!("{stdout}{stderr}");
        if let Some(s) = subject {
            let fate = s.finish(self.sandbox.mode);
            if outcome != Outcome::Passed
                && let Some((o, m)) = fate.verdict(l)
            {
                (outcome, message) = (o, m);
            }
            if !fate.printed.trim().is_empty() {
                output.push_str("\n--- what your code printed ---\n");
                output.push_str(&fate.printed);
            }
        }
        Ok(TestRun {
            outcome,
            message: self.unplaced(&message),
            output: self.unplaced(&output),
            seconds,
        })
    }

    /// Starts one process of a test with `stdin` as its standard input
    /// and its output drained (at most the output cap in all, `flood` set
    /// past it): by its role's spawner when there is one (`make(false)`:
    /// the command without sandbox words), else in a sandbox of its own
    /// (`make(true)`). A spawner that cannot start it is given up for the
    /// rest of these tests, and this one starts the old way.
    fn start(
        &self,
        slot: Option<&Slot>,
        prefix: impl FnOnce() -> Vec<std::ffi::OsString>,
        make: impl Fn(bool) -> Command,
        stdin: OwnedFd,
        flood: &Arc<AtomicBool>,
    ) -> Result<(Proc, Drained, Drained)> {
        let cap = self.limits.output_bytes;
        let total = Arc::new(AtomicUsize::new(0));
        if let Some(slot) = slot
            && let Some(spawner) = slot.get(prefix, &self.self_exe)
        {
            let (out_r, out_w) = std::io::pipe()?;
            let (err_r, err_w) = std::io::pipe()?;
            match spawner.spawn(&make(false), stdin.try_clone()?, out_w.into(), err_w.into()) {
                Ok(()) => {
                    let out = drain(Some(out_r), cap, &total, flood);
                    let err = drain(Some(err_r), cap, &total, flood);
                    return Ok((Proc::Spawned(spawner), out, err));
                }
                Err(e) => {
                    eprintln!("warning: {e:#}; tests start a sandbox each instead");
                    slot.give_up();
                }
            }
        }
        let mut cmd = make(true);
        cmd.stdin(Stdio::from(stdin));
        let mut child = cmd.spawn()?;
        // `cmd` holds `stdin` until dropped.
        drop(cmd);
        let out = drain(child.stdout.take(), cap, &total, flood);
        let err = drain(child.stderr.take(), cap, &total, flood);
        Ok((Proc::Local(child), out, err))
    }

    /// `text` without this worker's workspace path, which differs between
    /// workers and runs: the same code must get the same messages.
    fn unplaced(&self, text: &str) -> String {
        let ws = self.workspace.display().to_string();
        text.replace(&format!("{ws}/"), "")
            .replace(&ws, "(workspace)")
    }

    /// A new empty folder for one run's verdict file, writable by the test's
    /// uid, and the file's path in it.
    fn fresh_log(&self, run: usize, uid: Option<u32>) -> Result<PathBuf> {
        let dir = self.verdicts.join(run.to_string());
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        if let Some(uid) = uid {
            std::os::unix::fs::chown(&dir, Some(uid), Some(uid))
                .with_context(|| format!("cannot hand {} to uid {uid}", dir.display()))?;
        }
        Ok(dir.join("verdict"))
    }
}

/// The tests libtest's log file records as passed, read up to `cap`
/// bytes (nothing when it cannot be read). libtest writes a line after a
/// test function returns; the code under test could only forge it with
/// file access, which the intake refuses and the sandbox confines (and a
/// judge per chapter's subjects never run in the judge).
fn recorded_passes(log: &Path, cap: u64) -> BTreeSet<String> {
    let mut text = String::new();
    let read = std::fs::File::open(log).and_then(|f| f.take(cap).read_to_string(&mut text));
    if read.is_err() {
        return BTreeSet::new();
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("ok "))
        .map(str::to_owned)
        .collect()
}

/// The largest frame a judge with `memory_bytes` of address space reads:
/// a 64th, room for the frame, its copy and its decoded value (postcard
/// grows at most 24 times) beside the judge's own work; no limit (the
/// wire's own cap) when memory is not limited.
pub fn judge_frame_max(memory_bytes: u64) -> u64 {
    if memory_bytes == 0 {
        u64::from(u32::MAX)
    } else {
        memory_bytes / 64
    }
}

/// Names what happened from the exit status; the output only explains.
fn classify(
    test: &str,
    status: std::process::ExitStatus,
    recorded: bool,
    stdout: &str,
    stderr: &str,
    l: &Limits,
) -> (Outcome, String) {
    let signal = signal_of(status);
    // SIGXCPU at the soft limit, SIGKILL at the hard one.
    if matches!(signal, Some(24 | 9)) {
        return (
            Outcome::Timeout,
            format!(
                "used more than {} s of CPU time and was stopped",
                l.cpu_secs
            ),
        );
    }
    if status.success() && recorded {
        return (Outcome::Passed, String::new());
    }
    if status.success() {
        return (
            Outcome::Crashed,
            "ended with status 0, but libtest never recorded the test as passed (did the code end the process?)"
                .into(),
        );
    }
    let both = format!("{stdout}\n{stderr}");
    if both.contains("memory allocation of") {
        // This is the judge's own output: the judge, which never runs the
        // learner's code, ran out (holding what the subject sent, or the
        // reference's work). Not a verdict on the learner's memory.
        let mib = l.memory_bytes >> 20;
        return (
            Outcome::GraderError,
            format!(
                "the judge (the grader's side of the test, which never runs your code) ran out of memory \
                 (the limit is {mib} MiB): the grader's fault, so this test is not counted against you \
                 (neither in your points nor in the maximum); your instructor's report names it"
            ),
        );
    }
    if both.contains("has overflowed its stack") {
        return (
            Outcome::Crashed,
            "overflowed its stack (recursing too deep, or without end?)".into(),
        );
    }
    if both.contains("failed to spawn thread") || both.contains("Resource temporarily unavailable")
    {
        return (
            Outcome::Crashed,
            format!(
                "could not start a thread or process: a test may have at most {} at once",
                l.tasks
            ),
        );
    }
    // libtest exits with 101 when a test fails; anything else is a crash.
    match (status.code(), signal) {
        (Some(101), _) => {
            let run = runner::parse(stdout);
            let msg = run
                .messages
                .get(test)
                .cloned()
                .unwrap_or_else(|| last_lines(&both, 12));
            (Outcome::Failed, clean_panic(&msg))
        }
        (_, Some(sig)) => (Outcome::Crashed, format!("was killed by signal {sig}")),
        (code, None) => (
            Outcome::Crashed,
            format!("ended with status {code:?} without a verdict"),
        ),
    }
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.trim().lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The panic message without libtest's `thread '...' panicked at` header.
fn clean_panic(msg: &str) -> String {
    let lines: Vec<&str> = msg
        .lines()
        .filter(|l| !l.starts_with("thread '") && !l.starts_with("note: run with `RUST_BACKTRACE"))
        .collect();
    lines.join("\n").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn a_judge_that_ran_out_of_memory_is_the_graders_error_not_the_learners() {
        let limits = Limits {
            wall: Duration::from_secs(30),
            cpu_secs: 5,
            memory_bytes: 512 << 20,
            output_bytes: 1 << 20,
            tasks: 64,
            idle: Duration::from_secs(5),
        };
        // What std's allocator prints before it aborts (SIGABRT).
        let (outcome, message) = classify(
            "dfs_recursive::t",
            std::process::ExitStatus::from_raw(6),
            false,
            "",
            "memory allocation of 536870912 bytes failed",
            &limits,
        );
        assert_eq!(outcome, Outcome::GraderError);
        assert!(message.contains("not counted against you"), "{message}");
        assert!(message.contains("512 MiB"), "{message}");
    }

    #[test]
    fn the_judge_reads_a_64th_of_its_memory_per_answer() {
        assert_eq!(judge_frame_max(512 << 20), 8 << 20);
        assert_eq!(judge_frame_max(0), u64::from(u32::MAX));
    }
}
