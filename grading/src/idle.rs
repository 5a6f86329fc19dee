//! Idle tests: a judge and a subject that both wait for ever.
//!
//! The problem: a learner's code that parks, sleeps or waits on a channel
//! nobody sends on uses no CPU, so `RLIMIT_CPU` never stops it, and the
//! wall clock (`time_limit_secs`, a backstop set well above what a loaded
//! machine needs) holds the worker for the whole of it, test after test. A
//! test whose processes (the judge's and the subject's, with everything
//! they started) make no CPU progress for `idle_limit_secs`, and none of
//! which is waiting for a CPU or the disk, is idle: it is stopped as
//! `idle`. Waiting for the CPU (state `R`) or the disk (`D`) is never
//! idle, so a busy machine, which only slows a test, cannot make one. The
//! processes are read from `/proc` (each one's `stat`: state, parent and
//! CPU times, its threads' states), which works with or without control
//! groups and needs nothing of the sandbox; where `/proc` does not show
//! them (mounted with `hidepid`), nothing is ever called idle and the wall
//! clock and the learner's test budget bound the test instead. State: the
//! last sample's CPU time and processes, and since when nothing moved.
//! Cost: nothing for a test shorter than a quarter second; then one scan of
//! `/proc` every quarter second.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// How often a running test's processes are sampled.
const EVERY: Duration = Duration::from_millis(250);

/// Watches one test's process trees for progress.
pub struct Watch {
    roots: Vec<u32>,
    limit: Duration,
    next: Instant,
    /// The last sample: CPU ticks of the trees and which processes.
    last: Option<(u64, BTreeSet<u32>)>,
    quiet_since: Instant,
    /// `/proc` did not show a root: never call this test idle.
    blind: bool,
}

impl Watch {
    /// Watches the trees under `roots` (the judge's and the subject's first
    /// processes), calling them idle after `limit` without progress.
    pub fn new(roots: Vec<u32>, limit: Duration) -> Self {
        let now = Instant::now();
        Self {
            roots,
            limit,
            next: now + EVERY,
            last: None,
            quiet_since: now,
            blind: false,
        }
    }

    /// Whether the trees have been idle for the whole limit, as of `now`.
    pub fn idle(&mut self, now: Instant) -> bool {
        if self.blind || now < self.next {
            return false;
        }
        self.next = now + EVERY;
        let Some(seen) = sample(&self.roots) else {
            self.blind = true;
            return false;
        };
        let moved = seen.waiting || self.last.as_ref() != Some(&(seen.ticks, seen.pids.clone()));
        self.last = Some((seen.ticks, seen.pids));
        if moved {
            self.quiet_since = now;
        }
        now.duration_since(self.quiet_since) >= self.limit
    }
}

/// One look at the trees.
struct Seen {
    /// User + system CPU ticks of every process, its reaped children's included.
    ticks: u64,
    pids: BTreeSet<u32>,
    /// Whether some thread is running, runnable or in a disk wait.
    waiting: bool,
}

/// One process's line of `/proc/PID/stat`, the fields used here.
struct Stat {
    state: char,
    ppid: u32,
    ticks: u64,
}

/// Parses a `stat` line; the command name (in parentheses, possibly
/// holding spaces and parentheses) ends at the last `)`.
fn parse(text: &str) -> Option<Stat> {
    let rest = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok());
    Some(Stat {
        state: f.first()?.chars().next()?,
        ppid: u32::try_from(num(1)?).ok()?,
        // utime, stime, cutime, cstime.
        ticks: num(11)? + num(12)? + num(13)? + num(14)?,
    })
}

fn stat_of(path: &str) -> Option<Stat> {
    parse(&std::fs::read_to_string(path).ok()?)
}

/// Whether a thread in `state` waits for the machine rather than for
/// something that may never come.
fn busy(state: char) -> bool {
    matches!(state, 'R' | 'D' | 'W')
}

/// The trees under `roots`, or None when `/proc` does not show a root.
fn sample(roots: &[u32]) -> Option<Seen> {
    let mut all: BTreeMap<u32, Stat> = BTreeMap::new();
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if let Some(s) = stat_of(&format!("/proc/{pid}/stat")) {
            all.insert(pid, s);
        }
    }
    let mut pids: BTreeSet<u32> = BTreeSet::new();
    for root in roots {
        // A root that already ended is no progress and no wait.
        if all.contains_key(root) {
            pids.insert(*root);
        } else if std::path::Path::new(&format!("/proc/{root}")).exists() {
            return None;
        }
    }
    // Children are listed under their parents: grow the set to a fixpoint.
    loop {
        let more: Vec<u32> = all
            .iter()
            .filter(|(pid, s)| !pids.contains(pid) && pids.contains(&s.ppid))
            .map(|(pid, _)| *pid)
            .collect();
        if more.is_empty() {
            break;
        }
        pids.extend(more);
    }
    let mut seen = Seen {
        ticks: 0,
        pids: BTreeSet::new(),
        waiting: false,
    };
    for pid in &pids {
        let s = &all[pid];
        seen.ticks += s.ticks;
        seen.waiting |= busy(s.state) || threads_busy(*pid);
    }
    seen.pids = pids;
    Some(seen)
}

/// Whether a thread of `pid` (the process's own state is its first
/// thread's) runs or waits for the disk.
fn threads_busy(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|t| {
        let stat = t.path().join("stat");
        stat.to_str()
            .and_then(stat_of)
            .is_some_and(|s| busy(s.state))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_is_read_past_a_command_name_with_spaces_and_parentheses() {
        let line = "4242 (a (b) c) S 7 4242 4242 0 -1 4194560 100 0 0 0 15 4 2 1 20 0 1 0 1 1 1";
        let s = parse(line).expect("a stat line");
        assert_eq!((s.state, s.ppid, s.ticks), ('S', 7, 15 + 4 + 2 + 1));
        assert!(parse("no parenthesis here").is_none());
    }

    #[test]
    fn a_sleeping_child_is_idle_after_the_limit_and_a_spinning_one_never() {
        let mut sleeper = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep starts");
        let mut watch = Watch::new(vec![sleeper.id()], Duration::from_millis(600));
        let start = Instant::now();
        let idle = loop {
            if watch.idle(Instant::now()) {
                break true;
            }
            if start.elapsed() > Duration::from_secs(10) {
                break false;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let _ = sleeper.kill();
        let _ = sleeper.wait();
        assert!(idle, "a sleeping process must be called idle");

        let mut spinner = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("sh starts");
        let mut watch = Watch::new(vec![spinner.id()], Duration::from_millis(600));
        let start = Instant::now();
        let mut called = false;
        while start.elapsed() < Duration::from_secs(2) {
            called |= watch.idle(Instant::now());
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = spinner.kill();
        let _ = spinner.wait();
        assert!(!called, "a process using the CPU is never idle");
    }
}
