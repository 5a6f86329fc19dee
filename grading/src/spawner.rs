//! One sandbox per learner-chapter and role, with a spawner inside that
//! starts each test's process.
//!
//! The problem: every test started two `bwrap`s (the judge's and the
//! subject's), each a fresh set of namespaces and mounts, and two re-execs
//! of this program (`__limited`) to set the limits: about 9 ms of CPU per
//! test on this project's 2-core machine, a fifth of what grading a
//! learner-chapter costs once it is built (issue 33). Here a root grader
//! in `bwrap` mode starts, per learner-chapter, one judge sandbox and one
//! subject sandbox (the very views a test had), each running `grader
//! __spawner`. For each test the grader asks for the same `grader
//! __limited …` command a test's `bwrap` ran, with the wire, standard
//! output and standard error passed over a `SOCK_SEQPACKET` socket
//! (`SCM_RIGHTS`); the spawner sets those limits on itself (its child
//! inherits them) and starts the program directly under the test's uid
//! and gid, with the wire placed as `__limited` places it. So every test
//! is a fresh process, confined as before, under a uid no other test had.
//!
//! What the sharing costs and how it is closed: the tests of one
//! learner-chapter meet the same PID, IPC, network and mount namespaces
//! one after another, never at once. After each test, and on a kill, the
//! spawner kills every process of the namespace but itself and `bwrap`'s
//! init and waits until none is listed, returns `/tmp` (the judge's
//! private one) and `/dev/shm` to what they held before the first test
//! (never crossing a mount: binds of the machine's paths live there), and
//! removes every System V IPC object (the subject's seccomp filter refuses
//! them anyway; the judge runs no learner code); only then does it report
//! the test ended. A spawner that cannot say so (a process it cannot
//! kill, a cleanup that fails), that has spent half a test's CPU limit
//! itself (the limit it sets binds it too), or that does not answer is
//! killed with its whole namespace (`bwrap`), and the next test gets a
//! fresh one. The spawner runs as root inside the sandbox and runs no
//! learner code; its control socket never reaches a test (close-on-exec,
//! and standard input is replaced).
//!
//! State: per role, the running spawner and the one test it runs. Cost:
//! one `bwrap` start per learner-chapter and role, one `exec` of the
//! spawner, and per test a fork, a thread and a scan of the namespace's
//! `/proc` and scratch folders. `WORKBOOK_GRADER_SPAWNER=0` in the
//! grader's environment, or a spawner that cannot start, keeps the old way
//! (two `bwrap`s a test).

use crate::limited::{TEST_COMMAND, TestLimits};
use crate::sandbox::{Mode, kill_tree};
use anyhow::{Context, Result, bail};
use rustix::net::{
    AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags, Shutdown, SocketFlags, SocketType,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::{IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The command word of the spawner (hidden in `cli.rs`).
pub const COMMAND: &str = "__spawner";
/// `0` in the grader's environment: two `bwrap`s per test, as before.
pub const SWITCH_ENV: &str = "WORKBOOK_GRADER_SPAWNER";

/// How long a spawner may take to say a test started.
const START_WAIT: Duration = Duration::from_secs(20);
/// How long after a kill the spawner may take to say the test is gone.
const KILL_WAIT: Duration = Duration::from_secs(5);
/// How long the spawner waits for a test's processes to vanish.
const SWEEP_WAIT: Duration = Duration::from_secs(3);

/// What the grader and a spawner say to each other, one per packet.
#[derive(Serialize, Deserialize, Debug)]
enum Msg {
    /// Start this command with the three descriptors sent along as its
    /// standard input, output and error.
    Spawn {
        program: OsString,
        args: Vec<OsString>,
        env: Vec<(OsString, OsString)>,
        cwd: OsString,
    },
    /// Kill the running test, everything it started included.
    Kill,
    /// The test started, or why not.
    Started { error: Option<String> },
    /// The test ended (its wait status) and everything of it is gone
    /// (`clean`), or the cleanup failed and this spawner must go;
    /// `killed`: a kill found its first process still alive (else it had
    /// ended on its own, and the status is its own).
    Exited { raw: i32, clean: bool, killed: bool },
}

fn send(fd: BorrowedFd<'_>, msg: &Msg, fds: &[BorrowedFd<'_>]) -> std::io::Result<()> {
    let bytes = serde_json::to_vec(msg).map_err(std::io::Error::other)?;
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut anc = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !anc.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(std::io::Error::other("too many descriptors"));
    }
    rustix::net::sendmsg(fd, &[IoSlice::new(&bytes)], &mut anc, SendFlags::NOSIGNAL)?;
    Ok(())
}

/// The next packet and the descriptors it carried (close-on-exec); None
/// when the other end is closed.
fn recv(fd: BorrowedFd<'_>) -> std::io::Result<Option<(Msg, Vec<OwnedFd>)>> {
    let mut buf = vec![0u8; 1 << 16];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut anc = RecvAncillaryBuffer::new(&mut space);
    let got = rustix::net::recvmsg(
        fd,
        &mut [IoSliceMut::new(&mut buf)],
        &mut anc,
        RecvFlags::CMSG_CLOEXEC,
    )?;
    let mut fds = Vec::new();
    for m in anc.drain() {
        if let RecvAncillaryMessage::ScmRights(f) = m {
            fds.extend(f);
        }
    }
    if got.bytes == 0 {
        return Ok(None);
    }
    let msg = serde_json::from_slice(&buf[..got.bytes]).map_err(std::io::Error::other)?;
    Ok(Some((msg, fds)))
}

// ---- Inside the sandbox: the spawner. ----

/// `grader __spawner`, inside a test sandbox, its control socket on
/// standard input: starts one test at a time until the socket closes.
pub fn serve(args: &[String]) -> ExitCode {
    if !args.is_empty() {
        eprintln!("{COMMAND}: no arguments expected (usage: grader {COMMAND})");
        return ExitCode::from(2);
    }
    if !alone_in_a_sandbox() {
        eprintln!(
            "{COMMAND}: runs only as the first process of a `bwrap` PID namespace (it kills every other process it sees)"
        );
        return ExitCode::from(2);
    }
    let ctl = match rustix::io::fcntl_dupfd_cloexec(std::io::stdin(), 3) {
        Ok(fd) => Arc::new(fd),
        Err(e) => {
            eprintln!("{COMMAND}: no control socket on standard input: {e}");
            return ExitCode::from(2);
        }
    };
    let shared = Shared {
        running: Arc::default(),
        killed: Arc::new(AtomicBool::new(false)),
        baseline: Arc::new(scratch_paths()),
    };
    let Shared {
        running, killed, ..
    } = &shared;
    while let Ok(Some((msg, fds))) = recv(ctl.as_fd()) {
        match msg {
            Msg::Kill => {
                if let Ok(r) = running.lock()
                    && let Some(pid) = *r
                {
                    // The end of a test that ended on its own, only not
                    // yet told, stays its own.
                    if !ended(pid) {
                        killed.store(true, Ordering::Relaxed);
                    }
                    kill_all_but_us();
                }
            }
            Msg::Spawn {
                program,
                args,
                env,
                cwd,
            } => {
                let busy = running.lock().map_or(true, |r| r.is_some());
                let error = if busy {
                    Some("a test is still running".to_string())
                } else {
                    start(&program, &args, env, &cwd, fds, &ctl, &shared).err()
                };
                if let Some(e) = error {
                    let _ = send(ctl.as_fd(), &Msg::Started { error: Some(e) }, &[]);
                }
            }
            Msg::Started { .. } | Msg::Exited { .. } => {}
        }
    }
    kill_all_but_us();
    ExitCode::SUCCESS
}

/// What the spawner's loop and each test's waiting thread share.
#[derive(Clone)]
struct Shared {
    /// The running test's first process; None while none runs or while
    /// its leftovers are being cleaned up (a kill then has nothing to do).
    running: Arc<Mutex<Option<u32>>>,
    /// Whether a kill found the running test alive.
    killed: Arc<AtomicBool>,
    /// What the scratch folders held before the first test.
    baseline: Arc<BTreeSet<PathBuf>>,
}

/// Whether this process is `bwrap`'s first child in a PID namespace of
/// its own (its parent is the namespace's init, `bwrap`): the only place
/// where every other process listed is one of its tests. Anywhere else
/// the sweep would kill whatever runs beside it.
fn alone_in_a_sandbox() -> bool {
    let parent = rustix::process::getppid().map(|p| p.as_raw_nonzero().get());
    let init = std::fs::read_to_string("/proc/1/comm").unwrap_or_default();
    parent == Some(1) && init.trim() == "bwrap"
}

/// Starts one test and a thread that reports its end once everything of
/// it is gone.
fn start(
    program: &OsString,
    args: &[OsString],
    env: Vec<(OsString, OsString)>,
    cwd: &OsString,
    fds: Vec<OwnedFd>,
    ctl: &Arc<OwnedFd>,
    shared: &Shared,
) -> Result<(), String> {
    let [stdin, stdout, stderr]: [OwnedFd; 3] = fds
        .try_into()
        .map_err(|_| "expected three descriptors".to_string())?;
    let (mut cmd, wire) = command(program, args, stdin)?;
    cmd.env_clear()
        .envs(env)
        .current_dir(cwd)
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr));
    if let Some(fd) = &wire {
        cmd.env("WORKBOOK_WIRE_FD", fd.as_raw_fd().to_string());
    }
    // Held while the child starts, so a kill cannot come between.
    let mut slot = shared.running.lock().map_err(|_| "poisoned".to_string())?;
    shared.killed.store(false, Ordering::Relaxed);
    let mut child = cmd.spawn().map_err(|e| format!("cannot start: {e}"))?;
    // Our copies of its descriptors close here: its pipes end with it.
    drop((cmd, wire));
    *slot = Some(child.id());
    drop(slot);
    let _ = send(ctl.as_fd(), &Msg::Started { error: None }, &[]);
    let (ctl, shared) = (ctl.clone(), shared.clone());
    std::thread::spawn(move || {
        let raw = child.wait().map_or(SIGKILL_STATUS, |s| s.into_raw());
        let (clean, killed) = match shared.running.lock() {
            Ok(mut slot) => {
                *slot = None;
                // Cleaned up while holding the slot: a late kill waits.
                let clean = clean_up(&shared.baseline) && fresh();
                (clean, shared.killed.load(Ordering::Relaxed))
            }
            Err(_) => (false, true),
        };
        let _ = send(ctl.as_fd(), &Msg::Exited { raw, clean, killed }, &[]);
    });
    Ok(())
}

/// The test's command and, for a test that talks over the wire, the
/// wire's descriptor (open across `exec`, named in `WORKBOOK_WIRE_FD`; to
/// close once the child has started). The grader asks for `grader
/// __limited LIMITS PROGRAM ARGS`, as a test's own `bwrap` would start
/// it; here PROGRAM starts directly, under the same limits (set on this
/// spawner first, which the child inherits), uid, gid and wire as
/// `__limited` gives it (`limited.rs`): one `exec` of this program less
/// per test process. Any other command starts as asked.
fn command(
    program: &OsString,
    args: &[OsString],
    stdin: OwnedFd,
) -> Result<(Command, Option<OwnedFd>), String> {
    let words: Option<Vec<String>> = args.iter().map(|a| a.to_str().map(String::from)).collect();
    let Some(words) = words.filter(|w| w.first().is_some_and(|w| w == TEST_COMMAND)) else {
        let mut cmd = Command::new(program);
        cmd.args(args).stdin(Stdio::from(stdin));
        return Ok((cmd, None));
    };
    let (limits, rest) = TestLimits::from_args(&words[1..]).map_err(|e| format!("{e:#}"))?;
    limits.set_rlimits().map_err(|e| format!("{e:#}"))?;
    let mut cmd = Command::new(&rest[0]);
    cmd.args(&rest[1..]);
    limits.set_ids(&mut cmd);
    if !limits.wire {
        cmd.stdin(Stdio::from(stdin));
        return Ok((cmd, None));
    }
    rustix::io::fcntl_setfd(&stdin, rustix::io::FdFlags::empty())
        .map_err(|e| format!("cannot place the wire: {e}"))?;
    cmd.stdin(Stdio::null());
    Ok((cmd, Some(stdin)))
}

/// Whether this spawner may start another test: it has spent less than
/// half of a test's CPU limit itself. The limit it sets for its tests
/// binds it too (its own CPU counts from its start, a test's from zero),
/// so a spawner near it is retired, and the next test gets a fresh one.
fn fresh() -> bool {
    let Ok((soft, _)) = rlimit::getrlimit(rlimit::Resource::CPU) else {
        return false;
    };
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    under_half(&stat, soft)
}

/// Whether the process whose `/proc/PID/stat` reads `stat` has spent less
/// than half of `soft` CPU seconds (an `RLIMIT_CPU`); an unreadable line
/// says no.
fn under_half(stat: &str, soft: u64) -> bool {
    // utime and stime, the 14th and 15th fields, in ticks of 1/100 s.
    let ticks: Option<u64> = stat.rfind(')').and_then(|i| {
        let f: Vec<&str> = stat[i + 1..].split_whitespace().collect();
        Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
    });
    ticks.is_some_and(|t| soft == rlimit::INFINITY || t * 2 < soft.saturating_mul(100))
}

/// The wait status of a process killed by SIGKILL.
const SIGKILL_STATUS: i32 = 9;

/// Whether process `pid` has ended (a zombie, or reaped already).
fn ended(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next());
    state.is_none_or(|s| matches!(s, "Z" | "X" | "x"))
}

/// Every process of this namespace but its init (1) and this spawner.
fn others() -> Vec<rustix::process::Pid> {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&p| p != 1 && p != me)
        .filter_map(rustix::process::Pid::from_raw)
        .collect()
}

fn kill_all_but_us() {
    for pid in others() {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// After a test: no process of it left (killed until none is listed, its
/// orphans reaped by `bwrap`'s init), `/tmp` and `/dev/shm` as they were
/// before the first test, no System V IPC object. Whether all of that
/// holds.
fn clean_up(baseline: &BTreeSet<PathBuf>) -> bool {
    let until = Instant::now() + SWEEP_WAIT;
    let gone = loop {
        if others().is_empty() {
            break true;
        }
        if Instant::now() > until {
            break false;
        }
        kill_all_but_us();
        std::thread::sleep(Duration::from_millis(1));
    };
    gone && scratch_restored(baseline) && no_ipc()
}

/// What a sandbox's own scratch folders held before its first test:
/// `bwrap`'s scaffolding for the binds under them (the folders it made to
/// mount a path of this machine on), which stays. A test's uid cannot
/// write there (both are root's, 0755); this is the second line.
const SCRATCH: [&str; 2] = ["/tmp", "/dev/shm"];

/// Every path under the scratch folders, on their own file systems only:
/// a mount point (a bind of a folder or file of this machine, such as
/// this program or the verdicts folder) is listed but never entered.
fn scratch_paths() -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    for dir in SCRATCH {
        if let Ok(meta) = std::fs::symlink_metadata(dir) {
            walk(Path::new(dir), meta.dev(), &mut found);
        }
    }
    found
}

fn walk(dir: &Path, dev: u64, found: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        // Never follows a link, never leaves the folder's file system.
        let inside = std::fs::symlink_metadata(&path)
            .is_ok_and(|m| m.is_dir() && m.dev() == dev && found.len() < 4096);
        found.insert(path.clone());
        if inside {
            walk(&path, dev, found);
        }
    }
}

/// Whether the scratch folders hold only what they held at the start
/// (`baseline`), everything else removed here. A path of the start is
/// never touched, so nothing behind a bind can be: only what a test made.
fn scratch_restored(baseline: &BTreeSet<PathBuf>) -> bool {
    for path in scratch_paths() {
        if baseline.contains(&path) {
            continue;
        }
        let removed = match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) => std::fs::remove_file(&path),
            // Gone with a folder removed just before.
            Err(_) => Ok(()),
        };
        if removed.is_err() && path.exists() {
            return false;
        }
    }
    true
}

/// Whether no System V IPC object is left in this namespace (removed
/// here with `ipcrm --all` when one is).
fn no_ipc() -> bool {
    let any = |kind: &str| {
        std::fs::read_to_string(format!("/proc/sysvipc/{kind}"))
            .is_ok_and(|t| t.lines().skip(1).any(|l| !l.trim().is_empty()))
    };
    if !["shm", "sem", "msg"].iter().any(|k| any(k)) {
        return true;
    }
    let removed = Command::new("ipcrm")
        .arg("--all")
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    removed && !["shm", "sem", "msg"].iter().any(|k| any(k))
}

// ---- In the grader: one spawner's handle. ----

#[derive(Default)]
struct State {
    started: Option<Option<String>>,
    /// The wait status, whether all of the test is gone, whether the
    /// spawner killed it.
    exited: Option<(i32, bool, bool)>,
    closed: bool,
}

/// The grader's end of one running spawner (one sandbox).
pub struct Spawner {
    ctl: OwnedFd,
    bwrap: Mutex<std::process::Child>,
    pid: u32,
    state: Arc<(Mutex<State>, Condvar)>,
    reader: Option<std::thread::JoinHandle<()>>,
    killed_at: Mutex<Option<Instant>>,
    /// Killed with its namespace: never used again.
    abandoned: AtomicBool,
}

impl Spawner {
    /// Starts `prefix` (`bwrap` and its binds, ending in `--`) around
    /// `self_exe __spawner`.
    pub fn start(prefix: &[OsString], self_exe: &Path) -> Result<Self> {
        let Some((bwrap, rest)) = prefix.split_first() else {
            bail!("a spawner needs bwrap");
        };
        let (ours, theirs) = rustix::net::socketpair(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::CLOEXEC,
            None,
        )
        .context("cannot make the spawner's socket")?;
        let mut cmd = Command::new(bwrap);
        cmd.args(rest)
            .arg(self_exe)
            .arg(COMMAND)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        let child = cmd.spawn().context("cannot start the spawner's bwrap")?;
        // Its end of the socket closes here, so its death is our EOF.
        drop(cmd);
        let state: Arc<(Mutex<State>, Condvar)> = Arc::default();
        let fd = ours.try_clone()?;
        let st = state.clone();
        let reader = std::thread::spawn(move || {
            loop {
                let got = recv(fd.as_fd());
                let (lock, cv) = &*st;
                let Ok(mut s) = lock.lock() else { return };
                match got {
                    Ok(Some((Msg::Started { error }, _))) => s.started = Some(error),
                    Ok(Some((Msg::Exited { raw, clean, killed }, _))) => {
                        s.exited = Some((raw, clean, killed));
                    }
                    Ok(Some(_)) => {}
                    Err(_) | Ok(None) => {
                        s.closed = true;
                        cv.notify_all();
                        return;
                    }
                }
                cv.notify_all();
            }
        });
        Ok(Self {
            ctl: ours,
            pid: child.id(),
            bwrap: Mutex::new(child),
            state,
            reader: Some(reader),
            killed_at: Mutex::new(None),
            abandoned: AtomicBool::new(false),
        })
    }

    /// The sandbox's first process on this machine: while a test runs,
    /// its tree is the spawner's (idle, waiting) and the test's.
    pub fn host_pid(&self) -> u32 {
        self.pid
    }

    /// Starts `cmd` (its program, arguments, environment and folder; no
    /// sandbox words) with the three descriptors as its standard input,
    /// output and error.
    pub fn spawn(&self, cmd: &Command, stdin: OwnedFd, out: OwnedFd, err: OwnedFd) -> Result<()> {
        let msg = Msg::Spawn {
            program: cmd.get_program().to_os_string(),
            args: cmd.get_args().map(|a| a.to_os_string()).collect(),
            env: cmd
                .get_envs()
                .filter_map(|(k, v)| Some((k.to_os_string(), v?.to_os_string())))
                .collect(),
            cwd: cmd
                .get_current_dir()
                .map_or_else(|| OsString::from("/"), |d| d.as_os_str().to_os_string()),
        };
        {
            let mut s = self.lock();
            s.started = None;
            s.exited = None;
        }
        if let Ok(mut k) = self.killed_at.lock() {
            *k = None;
        }
        send(
            self.ctl.as_fd(),
            &msg,
            &[stdin.as_fd(), out.as_fd(), err.as_fd()],
        )
        .context("cannot reach the spawner")?;
        drop((stdin, out, err));
        let until = Instant::now() + START_WAIT;
        let (_, cv) = &*self.state;
        let mut s = self.lock();
        loop {
            if let Some(e) = s.started.take() {
                return match e {
                    Some(e) => bail!("the spawner cannot start the test: {e}"),
                    None => Ok(()),
                };
            }
            if s.closed {
                bail!("the spawner is gone");
            }
            let now = Instant::now();
            if now >= until {
                drop(s);
                self.abandon();
                bail!("the spawner did not answer");
            }
            s = match cv.wait_timeout(s, until - now) {
                Ok((s, _)) => s,
                Err(_) => bail!("the spawner's state is poisoned"),
            };
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How the running test ended, once everything of it is gone; a
    /// spawner that does not answer a kill in time goes with its
    /// namespace, and the test with it.
    pub fn try_wait(&self) -> Option<ExitStatus> {
        {
            let s = self.lock();
            if let Some((raw, _, _)) = s.exited {
                return Some(ExitStatus::from_raw(raw));
            }
            if s.closed {
                // Gone without a word: not the learner's signal to read.
                return Some(ExitStatus::from_raw(127 << 8));
            }
        }
        let late = self
            .killed_at
            .lock()
            .ok()
            .and_then(|k| *k)
            .is_some_and(|k| k.elapsed() > KILL_WAIT);
        if late {
            self.abandon();
            return Some(ExitStatus::from_raw(SIGKILL_STATUS));
        }
        None
    }

    /// Whether the last test ended on its own, not by a kill.
    pub fn ended_alone(&self) -> bool {
        self.lock().exited.is_some_and(|(_, _, killed)| !killed)
    }

    /// Waits for the running test's end (see `try_wait`).
    pub fn wait(&self) -> ExitStatus {
        loop {
            if let Some(s) = self.try_wait() {
                return s;
            }
            let (_, cv) = &*self.state;
            let s = self.lock();
            let _ = cv.wait_timeout(s, Duration::from_millis(50));
        }
    }

    /// Kills the running test and everything it started.
    pub fn kill(&self) {
        if let Ok(mut k) = self.killed_at.lock() {
            k.get_or_insert_with(Instant::now);
        }
        if send(self.ctl.as_fd(), &Msg::Kill, &[]).is_err() {
            self.abandon();
        }
    }

    /// Whether the next test may use this spawner: it answers, and the
    /// last test's cleanup succeeded.
    fn healthy(&self) -> bool {
        let s = self.lock();
        !self.abandoned.load(Ordering::Relaxed)
            && !s.closed
            && s.exited.is_none_or(|(_, clean, _)| clean)
    }

    /// Kills the sandbox: its PID namespace, and every process in it.
    fn abandon(&self) {
        self.abandoned.store(true, Ordering::Relaxed);
        if let Ok(mut b) = self.bwrap.lock() {
            kill_tree(&mut b, Mode::Bwrap);
            let _ = b.wait();
        }
    }
}

impl Drop for Spawner {
    fn drop(&mut self) {
        let _ = rustix::net::shutdown(&self.ctl, Shutdown::Both);
        self.abandon();
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

/// One role's spawner for one learner-chapter: started on first use,
/// replaced when it is not healthy, given up for the old way when it
/// cannot start.
#[derive(Default)]
pub struct Slot {
    current: Mutex<Option<Arc<Spawner>>>,
    broken: AtomicBool,
}

impl Slot {
    /// The spawner for the next test, inside the sandbox `prefix` gives;
    /// None when spawners do not start here (the caller uses `bwrap`
    /// per test).
    pub fn get(
        &self,
        prefix: impl FnOnce() -> Vec<OsString>,
        self_exe: &Path,
    ) -> Option<Arc<Spawner>> {
        if self.broken.load(Ordering::Relaxed) {
            return None;
        }
        let mut current = self.current.lock().ok()?;
        if let Some(s) = current.as_ref().filter(|s| s.healthy()) {
            return Some(s.clone());
        }
        // The old one (if any) goes with its namespace.
        *current = None;
        match Spawner::start(&prefix(), self_exe) {
            Ok(s) => {
                let s = Arc::new(s);
                *current = Some(s.clone());
                Some(s)
            }
            Err(e) => {
                self.broken.store(true, Ordering::Relaxed);
                eprintln!("warning: {e:#}; tests start a sandbox each instead");
                None
            }
        }
    }

    /// Gives this slot up after a test could not start in it: the old
    /// way from now on.
    pub fn give_up(&self) {
        self.broken.store(true, Ordering::Relaxed);
        if let Ok(mut c) = self.current.lock() {
            *c = None;
        }
    }
}

/// A learner-chapter's two spawners, the judge's and the subject's.
#[derive(Default)]
pub struct Spawners {
    pub judge: Slot,
    pub subject: Slot,
}

impl Spawners {
    /// Spawners, when this grader uses them: `bwrap` mode, as root (a test
    /// then runs under a uid of its own, which the cleanup relies on), and
    /// not switched off with `WORKBOOK_GRADER_SPAWNER=0`.
    pub fn wanted(mode: Mode, root: bool) -> Option<Self> {
        let off = std::env::var_os(SWITCH_ENV).is_some_and(|v| v == "0");
        (mode == Mode::Bwrap && root && !off).then(Self::default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `/proc/PID/stat` line of a spawner that has spent `user` and
    /// `system` ticks (1/100 s), its name holding `) ` as a process's may.
    fn stat(user: u64, system: u64) -> String {
        format!(
            "4242 (grader) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 {user} {system} 3 1 20 0 2 0"
        )
    }

    #[test]
    fn a_spawner_that_has_spent_half_a_tests_cpu_limit_is_retired() {
        // A test limit of 30 CPU-s: the spawner may spend less than 15.
        assert!(under_half(&stat(1000, 499), 30));
        assert!(!under_half(&stat(1000, 500), 30), "half spent: retired");
        assert!(!under_half(&stat(3000, 0), 30));
        // No limit set: never retired for its CPU.
        assert!(under_half(&stat(1 << 40, 0), rlimit::INFINITY));
        // A line it cannot read: retired, not trusted.
        assert!(!under_half("4242 (grader) S 1", 30));
        assert!(!under_half("", 30));
    }

    #[test]
    fn a_real_stat_line_is_read_as_the_spawner_reads_its_own() {
        // This process has spent far less than a day: read, not refused.
        let own = std::fs::read_to_string("/proc/self/stat").unwrap();
        assert!(under_half(&own, 2 * 24 * 3600), "{own}");
    }
}
