//! One process of a test as the grader holds it, and what it printed.
//!
//! The problem: a test's judge and subject are either the grader's own
//! children (each in a sandbox of its own) or processes a learner-chapter's
//! spawner started (`spawner.rs`), and `exec.rs` must watch, kill, wait
//! for and read both kinds alike. `Proc` is that one face; `Subject` is a
//! running subject with what the grader knows of it, `Fate` how it ended;
//! `drain` reads a pipe up to the output cap. State: per process, its
//! handle and its pipes' readers. Cost: two reader threads per process.

use crate::sandbox::{Mode, kill_tree};
use crate::spawner::Spawner;
use anyhow::Result;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One process of a test: the grader's child (inside its own `bwrap`, or
/// leading its process group), or the test a spawner runs.
pub(crate) enum Proc {
    Local(std::process::Child),
    Spawned(Arc<Spawner>),
}

impl Proc {
    /// The root of its process tree on this machine, for the idle watch.
    pub(crate) fn id(&self) -> u32 {
        match self {
            Proc::Local(c) => c.id(),
            Proc::Spawned(s) => s.host_pid(),
        }
    }

    pub(crate) fn try_wait(&mut self) -> std::io::Result<Option<std::process::ExitStatus>> {
        match self {
            Proc::Local(c) => c.try_wait(),
            Proc::Spawned(s) => Ok(s.try_wait()),
        }
    }

    /// Kills it and everything it started.
    pub(crate) fn kill(&mut self, mode: Mode) {
        match self {
            Proc::Local(c) => kill_tree(c, mode),
            Proc::Spawned(s) => s.kill(),
        }
    }

    /// Waits for its end, once killed: how it ended when that was on its
    /// own after all (a spawner tells a test's end only once it has
    /// cleaned up after it, so the end may have come before the kill).
    pub(crate) fn wait(&mut self) -> Option<std::process::ExitStatus> {
        match self {
            Proc::Local(c) => {
                let _ = c.wait();
                None
            }
            Proc::Spawned(s) => {
                let status = s.wait();
                s.ended_alone().then_some(status)
            }
        }
    }
}

/// A running subject: the learner's code behind the wire.
pub(crate) struct Subject {
    pub(crate) child: Proc,
    pub(crate) out: std::thread::JoinHandle<String>,
    pub(crate) err: std::thread::JoinHandle<String>,
    pub(crate) flood: Arc<AtomicBool>,
    /// How it ended on its own, before the judge was done.
    pub(crate) status: Option<std::process::ExitStatus>,
    /// Why the grader stopped it early.
    pub(crate) stopped: Option<String>,
    /// Whether the grader killed it (its exit status then says nothing
    /// about the learner's code).
    pub(crate) ours: bool,
}

/// What became of a subject, once the judge is done.
pub(crate) struct Fate {
    pub(crate) status: Option<std::process::ExitStatus>,
    pub(crate) stopped: Option<String>,
    pub(crate) stderr: String,
    pub(crate) printed: String,
}

impl Subject {
    /// Kills the subject for a reason the judge's verdict already names.
    pub(crate) fn stop(&mut self, mode: Mode) {
        self.ours = true;
        self.child.kill(mode);
    }

    /// Notes a subject that ended, and stops one that prints too much.
    pub(crate) fn watch(&mut self, mode: Mode, cap: usize) -> Result<()> {
        if self.status.is_none()
            && !self.ours
            && let Some(status) = self.child.try_wait()?
        {
            self.status = Some(status);
        }
        if self.status.is_none() && self.stopped.is_none() && self.flood.load(Ordering::Relaxed) {
            self.stopped = Some(format!(
                "your code printed more than {} KiB and was stopped",
                cap / 1024
            ));
            self.stop(mode);
        }
        Ok(())
    }

    /// Stops the subject if it still runs (the judge is done with it).
    pub(crate) fn finish(mut self, mode: Mode) -> Fate {
        if self.status.is_none() {
            if let Ok(Some(status)) = self.child.try_wait().map(|s| s.filter(|_| !self.ours)) {
                self.status = Some(status);
            } else {
                self.child.kill(mode);
                if let Some(status) = self.child.wait().filter(|_| !self.ours) {
                    self.status = Some(status);
                }
            }
        }
        let stdout = joined(self.out);
        let stderr = joined(self.err);
        Fate {
            status: self.status.filter(|s| !s.success()),
            stopped: self.stopped,
            printed: format!("{stdout}{stderr}"),
            stderr,
        }
    }
}

/// What one of a process's pipes said, read by a thread of its own.
pub(crate) type Drained = std::thread::JoinHandle<String>;

/// Reads a pipe to its end, keeping at most `cap` bytes over both pipes.
pub(crate) fn drain(
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

/// What a pipe's reader read, once the process tree behind the pipe was
/// killed and reaped: whole when the pipe closes within a few seconds;
/// else (a process the kill missed still holds it) what is known so far is
/// lost and the reader is left behind, so a test never hangs on it.
pub(crate) fn joined(reader: std::thread::JoinHandle<String>) -> String {
    let until = Instant::now() + Duration::from_secs(5);
    while !reader.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(1));
    }
    if reader.is_finished() {
        reader.join().unwrap_or_default()
    } else {
        String::new()
    }
}
