//! A control group per worker, where the machine offers one: the memory and
//! the tasks of a learner's whole build (cargo and every compiler it starts,
//! together), counted and capped by the kernel.
//!
//! Per-process limits (`RLIMIT_DATA`, `RLIMIT_NPROC`) are the fallback, and
//! they are weak: each compiler gets the whole memory budget, so a build
//! running three at once may use three times it, and `RLIMIT_NPROC` does not
//! bind root at all. A cgroup caps the sum. Both hierarchies are handled:
//! cgroup v2 (one tree, `memory.max`, `pids.max`, `memory.peak`) and v1 (a
//! tree per controller, `memory.limit_in_bytes`, `pids.max`,
//! `memory.max_usage_in_bytes`). The group is made under the grader's own
//! group in each tree, so it needs write access there (root, or a delegated
//! subtree); without it the build falls back to the per-process limits, and
//! the run says so once.
//!
//! The grader cannot move a process it has started without racing it, so
//! the build's first process (`grader __limited-build`) joins the groups
//! itself before it `exec`s cargo or the sandbox: everything the build
//! starts is born inside. Cost: a few small file writes per build.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// One worker's groups: the memory group and the pids group (the same folder
/// under cgroup v2).
#[derive(Debug)]
pub struct Cgroup {
    memory: PathBuf,
    pids: PathBuf,
    v2: bool,
}

/// A group's counters: read before and after a build, their difference is
/// what the build did (the group lives as long as its worker).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// The most memory the group's processes held at once since the last
    /// `reset`, in bytes.
    pub peak_bytes: u64,
    /// Processes the kernel killed at the memory limit, ever.
    pub oom_kills: u64,
    /// Forks and threads refused at the tasks limit, ever.
    pub tasks_refused: u64,
}

impl Usage {
    /// Whether the build between `before` and `self` met the memory limit
    /// and the tasks limit.
    pub fn hits_since(&self, before: &Usage) -> (bool, bool) {
        (
            self.oom_kills > before.oom_kills,
            self.tasks_refused > before.tasks_refused,
        )
    }
}

impl Cgroup {
    /// A fresh group named `name` with these limits, or why there is none.
    pub fn create(name: &str, memory_bytes: u64, tasks: u64) -> Result<Self> {
        let cg = Self::place(name)?;
        // Left from a run that died with the same pid and worker: start over.
        cg.remove();
        for dir in cg.dirs() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let memory_file = if cg.v2 {
            "memory.max"
        } else {
            "memory.limit_in_bytes"
        };
        write(&cg.memory.join(memory_file), &memory_bytes.to_string())?;
        if cg.v2 {
            // No swap: a build over its memory is stopped, not paged out.
            let _ = write(&cg.memory.join("memory.swap.max"), "0");
        }
        write(&cg.pids.join("pids.max"), &tasks.to_string())?;
        Ok(cg)
    }

    /// Where the group goes: under this process's own group in each tree.
    fn place(name: &str) -> Result<Self> {
        let own = std::fs::read_to_string("/proc/self/cgroup")
            .context("cannot read /proc/self/cgroup")?;
        let mounts = std::fs::read_to_string("/proc/self/mountinfo")
            .context("cannot read /proc/self/mountinfo")?;
        let mut v1: Vec<(String, PathBuf)> = Vec::new();
        let mut v2: Option<PathBuf> = None;
        for line in mounts.lines() {
            // `ID PARENT M:N ROOT MOUNTPOINT OPTS ... - FSTYPE SOURCE SUPER`
            let Some((left, right)) = line.split_once(" - ") else {
                continue;
            };
            let point = left.split(' ').nth(4).map(PathBuf::from);
            let mut right = right.split(' ');
            let (fstype, supers) = (right.next(), right.nth(1).unwrap_or_default());
            match (fstype, point) {
                (Some("cgroup2"), Some(p)) => v2 = v2.or(Some(p)),
                (Some("cgroup"), Some(p)) => {
                    for c in supers.split(',') {
                        if c == "memory" || c == "pids" {
                            v1.push((c.to_string(), p.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
        let path_of = |want: &dyn Fn(&str) -> bool| {
            own.lines().find_map(|l| {
                let mut parts = l.splitn(3, ':');
                let (_, ctrl, path) = (parts.next()?, parts.next()?, parts.next()?);
                want(ctrl).then(|| path.trim_start_matches('/').to_string())
            })
        };
        let under = |mount: &Path, path: String| mount.join(path).join(name);
        let memory_v1 = v1.iter().find(|(c, _)| c == "memory");
        let pids_v1 = v1.iter().find(|(c, _)| c == "pids");
        if let (Some((_, m)), Some((_, p))) = (memory_v1, pids_v1) {
            let mp = path_of(&|c| c.split(',').any(|x| x == "memory"));
            let pp = path_of(&|c| c.split(',').any(|x| x == "pids"));
            if let (Some(mp), Some(pp)) = (mp, pp) {
                return Ok(Self {
                    memory: under(m, mp),
                    pids: under(p, pp),
                    v2: false,
                });
            }
        }
        if let (Some(mount), Some(path)) = (v2, path_of(&|c| c.is_empty())) {
            let parent = mount.join(&path);
            let enabled =
                std::fs::read_to_string(parent.join("cgroup.subtree_control")).unwrap_or_default();
            let has = |c: &str| enabled.split_whitespace().any(|x| x == c);
            if !(has("memory") && has("pids")) {
                // Enabling them here works only in a group with no
                // processes of its own; a delegated subtree usually is one.
                let _ = write(&parent.join("cgroup.subtree_control"), "+memory +pids");
            }
            let dir = parent.join(name);
            return Ok(Self {
                memory: dir.clone(),
                pids: dir,
                v2: true,
            });
        }
        bail!("this machine has no cgroup tree with the memory and pids controllers")
    }

    fn dirs(&self) -> Vec<&Path> {
        if self.v2 {
            vec![&self.memory]
        } else {
            vec![&self.memory, &self.pids]
        }
    }

    /// The files a process writes its pid to, to join: what
    /// `__limited-build` is given.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs()
            .into_iter()
            .map(|d| d.join("cgroup.procs"))
            .collect()
    }

    /// Starts counting afresh for the next build (v1 can reset its peak;
    /// v2's `memory.peak` is reset by writing to it on recent kernels).
    pub fn reset(&self) {
        if self.v2 {
            let _ = write(&self.memory.join("memory.peak"), "0");
        } else {
            let _ = write(&self.memory.join("memory.max_usage_in_bytes"), "0");
        }
    }

    /// The group's counters now.
    pub fn usage(&self) -> Usage {
        let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
        let count = |text: &str, key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        let number = |p: PathBuf| read(p).trim().parse::<u64>().unwrap_or(0);
        let tasks_refused = count(&read(self.pids.join("pids.events")), "max ");
        // Only a process the kernel killed for memory counts: reaching the
        // limit alone (`failcnt`, `max`) also happens when clean page cache
        // is reclaimed, which a build that failed for its own reasons may
        // have done. An allocation refused by `RLIMIT_DATA` is named from
        // the compiler's message instead.
        let (peak, events) = if self.v2 {
            ("memory.peak", "memory.events")
        } else {
            ("memory.max_usage_in_bytes", "memory.oom_control")
        };
        Usage {
            peak_bytes: number(self.memory.join(peak)),
            oom_kills: count(&read(self.memory.join(events)), "oom_kill "),
            tasks_refused,
        }
    }

    /// Removes the group. Its processes have been reaped by then, but the
    /// kernel may still be tearing the last one down (the group is busy
    /// for a moment): a few tries, a second at most. A group still busy
    /// after that stays, and the next run with this name removes it.
    pub fn remove(&self) {
        for dir in self.dirs() {
            for _ in 0..20 {
                match std::fs::remove_dir(dir) {
                    Err(e) if e.raw_os_error() == Some(rustix::io::Errno::BUSY.raw_os_error()) => {
                        std::thread::sleep(std::time::Duration::from_millis(50));
                    }
                    _ => break,
                }
            }
        }
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The prefix of every worker group's name (`workbook-grade-PID-wN`).
pub const PREFIX: &str = "workbook-grade-";

/// The name of worker `index`'s control group (unique per run).
pub fn worker_name(index: usize) -> String {
    format!("{PREFIX}{}-w{index}", std::process::id())
}

/// Whether builds get a control group here; says once why not.
pub fn available() -> bool {
    match Cgroup::create(&worker_name(usize::MAX), 1 << 30, 64) {
        Ok(_) => true,
        Err(e) => {
            eprintln!(
                "grade: note: builds are limited per process (RLIMIT_DATA, RLIMIT_NPROC), not as a whole: {e:#}"
            );
            false
        }
    }
}

/// Removes the worker groups of runs that are gone (`gone(pid)`), found
/// beside where this run's groups go; returns their names. A run killed
/// outright (SIGKILL) cannot remove its groups; its builds died with it
/// (the sandbox dies with its parent), so its groups are empty, and the
/// kernel refuses to remove a group that still holds a process, so a
/// group of a live run is never lost to a wrong guess about its pid.
pub fn sweep(gone: &dyn Fn(u32) -> bool) -> Vec<String> {
    let Ok(probe) = Cgroup::place("probe") else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for parent in probe.dirs().into_iter().filter_map(Path::parent) {
        let Ok(entries) = std::fs::read_dir(parent) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name
                .strip_prefix(PREFIX)
                .and_then(|rest| rest.split_once("-w"))
                .and_then(|(pid, _)| pid.parse::<u32>().ok());
            if pid.is_some_and(|p| p != std::process::id() && gone(p))
                && std::fs::remove_dir(e.path()).is_ok()
                && !removed.contains(&name)
            {
                removed.push(name);
            }
        }
    }
    removed
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Moves this process into the groups whose `cgroup.procs` files are given
/// (called by `__limited-build` before it becomes the build).
pub fn join(procs_files: &[PathBuf]) -> Result<()> {
    let pid = std::process::id().to_string();
    for f in procs_files {
        write(f, &pid)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_made_on_this_machine_caps_memory_and_tasks_and_is_removed() {
        let name = format!("workbook-test-{}", std::process::id());
        let Ok(cg) = Cgroup::create(&name, 64 << 20, 32) else {
            // No writable cgroup tree here (a user without delegation): the
            // grader falls back to per-process limits, which exec.rs tests.
            return;
        };
        let limit = if cg.v2 {
            "memory.max"
        } else {
            "memory.limit_in_bytes"
        };
        let text = std::fs::read_to_string(cg.memory.join(limit)).unwrap();
        assert_eq!(text.trim(), (64u64 << 20).to_string());
        let pids = std::fs::read_to_string(cg.pids.join("pids.max")).unwrap();
        assert_eq!(pids.trim(), "32");
        assert_eq!(
            cg.usage(),
            Usage::default(),
            "a fresh group has used nothing"
        );
        // A process that joins the group and asks for 256 MiB is killed,
        // and one that starts 40 sleepers has forks refused; both counted.
        let joined = |script: &str| {
            let procs: Vec<String> = cg
                .procs_files()
                .iter()
                .map(|f| format!("echo $$ > {};", f.display()))
                .collect();
            std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("{} {script}", procs.concat()))
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap()
        };
        let before = cg.usage();
        let big = joined("exec python3 -c 'x = bytearray(256 << 20); print(len(x))'");
        assert!(!big.success(), "256 MiB in a group of 64 MiB");
        assert_eq!(cg.usage().hits_since(&before), (true, false));
        let before = cg.usage();
        joined("for i in $(seq 40); do sleep 0.2 & done; wait");
        assert_eq!(cg.usage().hits_since(&before), (false, true));
        let dirs: Vec<PathBuf> = cg.dirs().iter().map(|d| d.to_path_buf()).collect();
        drop(cg);
        for d in dirs {
            assert!(!d.exists(), "{} was left", d.display());
        }
    }

    #[test]
    fn the_groups_of_a_run_that_is_gone_are_swept_and_a_busy_one_is_kept() {
        // Pids above the kernel's largest (2^22) belong to no process.
        let dead = format!("{PREFIX}4194400-w0");
        let Ok(cg) = Cgroup::create(&dead, 64 << 20, 32) else {
            return; // no writable cgroup tree here, as above
        };
        let busy = Cgroup::create(&format!("{PREFIX}4194401-w1"), 64 << 20, 32).unwrap();
        let mut sleeper = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "{} exec sleep 30",
                busy.procs_files()
                    .iter()
                    .map(|f| format!("echo $$ > {};", f.display()))
                    .collect::<String>()
            ))
            .spawn()
            .unwrap();
        // Wait until the sleeper is in its group (five seconds at most).
        let procs = busy.procs_files()[0].clone();
        for _ in 0..500 {
            if !std::fs::read_to_string(&procs)
                .unwrap_or_default()
                .trim()
                .is_empty()
            {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let removed = sweep(&|pid| pid == 4194400 || pid == 4194401);
        assert_eq!(removed, vec![dead.clone()], "only the empty group goes");
        for d in cg.dirs() {
            assert!(!d.exists(), "{} was left", d.display());
        }
        for d in busy.dirs() {
            assert!(
                d.exists(),
                "{} holds a process and was removed",
                d.display()
            );
        }
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
    }
}
