//! A judge per chapter: one judge process for all of a suite binary's
//! graded tests of one learner-chapter, and a fresh subject for each test.
//!
//! The problem: a judge started per test costs a process, a dynamic link
//! and libtest's start (about 7-8 ms of CPU a test, a hundred tests a
//! chapter), and the judge runs only the instructor's code, so nothing of
//! the learner's needs a fresh judge. The learner's code does need a fresh
//! process per test: a subject that kept state between tests could answer
//! one test from what another asked. So the judge runs every test once, in
//! libtest's order, and its wire (`judge/wire/judge.rs`) asks this side
//! for a subject at each test's first call (the test's name, one line on
//! the control socket the judge gets instead of a wire); this side stops
//! the last test's subject, starts a new one under a fresh uid exactly as
//! a test alone would get it, and hands the judge its end of the new wire.
//!
//! The rules, so a grade is what a judge per test would give:
//!
//! 1. Only a pass is taken from the batch: a test libtest's own log file
//!    records as `ok NAME`, written by the judge, which never runs a line
//!    the learner wrote. Every other test (failed, crashed, stopped, never
//!    reached) is run again alone by `Runner::run`, so its verdict, message
//!    and output are the ones a test alone gets, limits, second run and
//!    all.
//! 2. Each subject keeps a test's limits (CPU, memory, tasks, output) and
//!    its own uid; the judge, the instructor's code, gets the sum of its
//!    tests' CPU limits (a judge per test got one each).
//! 3. The batch stops, and its unrecorded tests go to rule 1, when a test
//!    runs past the wall-clock backstop or sits idle, when the judge
//!    prints past the output cap, when the learner's test budget is spent,
//!    or when the run is interrupted.
//!
//! State: the judge, the current test's subject, the test clock. Cost: one
//! judge start per suite binary and learner-chapter; a thread reading the
//! judge's requests.

use super::{Outcome, RUNS, Runner, TestRun, recorded_passes};
use crate::sandbox::Mode;
use crate::test_proc::{Subject, joined};
use anyhow::{Context, Result};
use rustix::net::{SendAncillaryBuffer, SendAncillaryMessage, SendFlags};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, IoSlice, Read};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The environment switch that turns the judge per chapter off (`0`):
/// every test then starts a judge of its own.
pub const SWITCH_ENV: &str = "WORKBOOK_GRADER_BATCH";

/// A file each batch appends a line to (`BINARY PASSED of TESTS`): for the
/// grader's own tests, which prove the passes came from batches.
pub const TRACE_ENV: &str = "WORKBOOK_GRADER_BATCH_TRACE";

/// Whether this grader runs a judge per chapter (the default).
pub fn wanted() -> bool {
    std::env::var_os(SWITCH_ENV).is_none_or(|v| v != "0")
}

/// The longest test name a judge's request may carry.
const NAME_MAX: u64 = 4096;

/// The test now answering in a batch: its name, its subject, its clock.
struct Current {
    test: String,
    subject: Subject,
    started: Instant,
}

impl Current {
    /// The test is over (the judge asked for the next, or ended): its
    /// subject is stopped and its seconds counted.
    fn end(self, mode: Mode, seconds: &mut BTreeMap<String, f64>) {
        *seconds.entry(self.test).or_default() += self.started.elapsed().as_secs_f64();
        let _ = self.subject.finish(mode);
    }
}

impl Runner<'_> {
    /// Runs `tests` (names in `binary`) in one judge, a fresh subject
    /// each; the tests libtest recorded as passed, with their seconds.
    /// The caller runs every other test alone (`run`).
    pub fn run_batch(&self, binary: &Path, tests: &[&str]) -> Result<BTreeMap<String, TestRun>> {
        let Some(subject_bin) = self.subject.clone() else {
            return Ok(BTreeMap::new());
        };
        if tests.is_empty() || self.budget.is_some_and(|b| Instant::now() >= b.until) {
            return Ok(BTreeMap::new());
        }
        let l = &self.limits;
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        let uid = self.sandbox.test_uid(run);
        let log = self.fresh_log(run, uid)?;
        let (control, theirs) =
            UnixStream::pair().context("cannot make the judge's control socket")?;
        let flood = Arc::new(AtomicBool::new(false));
        let (mut judge, out, err) = self
            .start(
                self.spawners.as_ref().map(|s| &s.judge),
                || self.judge_prefix(&self.verdicts),
                |sandboxed| self.command(binary, tests, &log, uid, true, sandboxed, true),
                theirs.into(),
                &flood,
            )
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let requests = read_requests(&control)?;
        let mut current: Option<Current> = None;
        let mut seconds: BTreeMap<String, f64> = BTreeMap::new();
        // The clock of the test now running: from its request (or the
        // judge's start, for a test that calls nothing).
        let mut clock = Instant::now();
        let mut watch = crate::idle::Watch::new(vec![judge.id()], l.idle);
        loop {
            match requests.recv_timeout(Duration::from_millis(5)) {
                Ok(test) => {
                    if let Some(c) = current.take() {
                        c.end(self.sandbox.mode, &mut seconds);
                    }
                    clock = Instant::now();
                    let next = RUNS.fetch_add(1, Ordering::Relaxed);
                    let wire = match self.subject_for(&subject_bin, next) {
                        Ok((subject, wire)) => {
                            watch = crate::idle::Watch::new(
                                vec![judge.id(), subject.child.id()],
                                l.idle,
                            );
                            current = Some(Current {
                                test,
                                subject,
                                started: clock,
                            });
                            Some(wire)
                        }
                        // The test fails for want of a subject, and runs
                        // again alone, where the error is named.
                        Err(_) => None,
                    };
                    if hand_over(&control, wire.as_ref()).is_err() {
                        break;
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // The judge closed its end: it is ending; wait, not spin.
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            if let Some(c) = current.as_mut() {
                c.subject.watch(self.sandbox.mode, l.output_bytes)?;
            }
            if judge.try_wait()?.is_some() {
                break;
            }
            let now = Instant::now();
            let stop = now.duration_since(clock) > l.wall
                || self.budget.is_some_and(|b| now >= b.until)
                || flood.load(Ordering::Relaxed)
                || crate::interrupt::requested().is_some()
                || watch.idle(now);
            if stop {
                judge.kill(self.sandbox.mode);
                judge.wait();
                break;
            }
        }
        if let Some(c) = current.take() {
            c.end(self.sandbox.mode, &mut seconds);
        }
        // The reading thread ends with the socket, whoever holds it still.
        let _ = control.shutdown(std::net::Shutdown::Both);
        // The judge's output explains nothing a test alone would not.
        let _ = (joined(out), joined(err));
        let recorded = recorded_passes(&log, 4 << 20);
        let _ = std::fs::remove_dir_all(log.parent().unwrap_or(&log));
        let passed: BTreeMap<String, TestRun> = tests
            .iter()
            .filter(|t| recorded.contains(**t))
            .map(|t| {
                let run = TestRun {
                    outcome: Outcome::Passed,
                    message: String::new(),
                    output: String::new(),
                    seconds: seconds.get(*t).copied().unwrap_or(0.0),
                };
                (t.to_string(), run)
            })
            .collect();
        trace(binary, passed.len(), tests.len());
        Ok(passed)
    }
}

/// Appends `BINARY PASSED of TESTS` to the trace file, when one is named.
fn trace(binary: &Path, passed: usize, tests: usize) {
    let Some(file) = std::env::var_os(TRACE_ENV) else {
        return;
    };
    let name = binary.file_name().unwrap_or_default().to_string_lossy();
    let line = format!("{name} {passed} of {tests}\n");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .and_then(|mut f| std::io::Write::write_all(&mut f, line.as_bytes()));
}

/// The judge's requests, one test name a line, read on a thread of their
/// own until the judge closes its end.
fn read_requests(control: &UnixStream) -> Result<mpsc::Receiver<String>> {
    let reader = control
        .try_clone()
        .context("cannot read the judge's control socket")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(reader);
        loop {
            let mut line = String::new();
            match (&mut lines).take(NAME_MAX).read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(line.trim_end_matches('\n').to_string()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Ok(rx)
}

/// Answers a request: one byte, carrying the new wire's descriptor when
/// there is one (none: the test has no subject and fails).
fn hand_over(control: &UnixStream, wire: Option<&OwnedFd>) -> std::io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut anc = SendAncillaryBuffer::new(&mut space);
    let fds;
    if let Some(fd) = wire {
        fds = [fd.as_fd()];
        if !anc.push(SendAncillaryMessage::ScmRights(&fds)) {
            return Err(std::io::Error::other("no room for the descriptor"));
        }
    }
    rustix::net::sendmsg(
        control,
        &[IoSlice::new(&[1])],
        &mut anc,
        SendFlags::NOSIGNAL,
    )?;
    Ok(())
}
