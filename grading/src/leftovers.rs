//! Who owns the folders in the grader's target directory, and the sweep
//! that removes those of runs that are gone.
//!
//! The problem: a grading run names its folders by its process id
//! (`pristine-PID`, `workbook-grader-PID`, `work/PID-wN`) and removes them
//! when it ends, but a run killed outright (SIGKILL, a second Ctrl-C, a
//! power cut) cannot, and its copies of the workbook would pile up in the
//! shared target directory. A pid alone cannot tell a dead run from a live
//! one (pids are reused, and a grader in another container sharing the
//! folder has pids of its own), so each run holds an exclusive `flock` on
//! `runs/PID.lock` for as long as it lives: the kernel releases it when the
//! process dies, however it dies. A run that starts takes its own lock,
//! then removes every folder of a pid whose lock it can take (or, for a
//! folder left by a grader older than these locks, whose pid no longer
//! exists), and says what it removed. State: the open lock file. Cost: one
//! listing of the target directory per run.
//!
//! One folder is kept between runs on purpose: `pristine`, the pristine
//! copy a run leaves for the next (so the next builds only what changed in
//! it). It has no pid: a run that holds `pristine.lock` owns it, and a run
//! that cannot take that lock (another is building in the same target
//! directory) builds its own `pristine-PID` as before. The prepared
//! classes (`prepared/KEY`) are kept too, and swept by their own rules
//! (`prepare/prepared.rs`).

use anyhow::{Context, Result, bail};
use rustix::fs::{FlockOperation, flock};
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// This process's claim on its folders in one target directory; the lock
/// file is removed when dropped (the kernel drops the lock itself if the
/// process dies first).
pub struct RunLock {
    path: PathBuf,
    _file: File,
}

impl RunLock {
    /// Takes `TARGET/runs/PID.lock` for this process.
    pub fn take(target: &Path) -> Result<Self> {
        let dir = target.join("runs");
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(format!("{}.lock", std::process::id()));
        let file = lock_file(&path)?;
        if flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
            bail!(
                "{} is held by another grading run with this process id (in another container?); \
                 give each grader a target directory of its own (--target-dir)",
                path.display()
            );
        }
        Ok(Self { path, _file: file })
    }
}

/// `path` opened (created if missing, never truncated) to hold an
/// advisory lock on: the one way the grader's lock files are opened.
pub(crate) fn lock_file(path: &Path) -> Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))
}

/// This run's hold on `TARGET/pristine`, the pristine copy kept between
/// runs; released (never removed) when dropped, or when the process dies.
pub struct PristineSlot {
    dir: PathBuf,
    _file: File,
}

impl PristineSlot {
    /// The slot, if no other live run holds it.
    pub fn try_take(target: &Path) -> Result<Option<Self>> {
        let path = target.join("pristine.lock");
        let file = lock_file(&path)?;
        if flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
            return Ok(None);
        }
        Ok(Some(Self {
            dir: target.join("pristine"),
            _file: file,
        }))
    }

    /// The folder this hold is on (`TARGET/pristine`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether a lock on `file` could be taken now, so no live process holds it.
pub fn unheld(file: &File) -> bool {
    flock(file, FlockOperation::NonBlockingLockExclusive).is_ok()
}

/// Whether the run `pid` that left folders in `target` is gone: its lock
/// file can be locked, or (a grader from before the locks) it has none
/// and no process `pid` exists.
pub fn gone(target: &Path, pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    match File::open(target.join("runs").join(format!("{pid}.lock"))) {
        Ok(file) => unheld(&file),
        Err(_) => !Path::new("/proc").join(pid.to_string()).exists(),
    }
}

/// The folders and files of `target` named after a run's pid, by pid.
fn owned(target: &Path) -> BTreeMap<u32, Vec<PathBuf>> {
    let mut by_pid: BTreeMap<u32, Vec<PathBuf>> = BTreeMap::new();
    let mut look = |dir: &Path, pid_of: &dyn Fn(&str) -> Option<&str>| {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = pid_of(&name).and_then(|p| p.parse::<u32>().ok()) {
                by_pid.entry(pid).or_default().push(e.path());
            }
        }
    };
    look(target, &|n| {
        n.strip_prefix("pristine-")
            .or_else(|| n.strip_prefix("workbook-grader-"))
    });
    look(&target.join("work"), &|n| {
        n.split_once("-w").map(|(p, _)| p)
    });
    look(&target.join("runs"), &|n| n.strip_suffix(".lock"));
    by_pid
}

/// Removes what runs that are gone left in `target`; returns one line per
/// run swept, naming what was removed (relative to `target`).
pub fn sweep(target: &Path) -> Vec<String> {
    let mut said = Vec::new();
    for (pid, mut paths) in owned(target) {
        if !gone(target, pid) {
            continue;
        }
        // The lock file last, so a sweep running beside this one still
        // finds the run gone rather than lockless.
        paths.sort_by_key(|p| p.extension().is_some_and(|e| e == "lock"));
        let mut removed = Vec::new();
        for p in paths {
            let ok = match std::fs::symlink_metadata(&p) {
                Ok(m) if m.is_dir() => std::fs::remove_dir_all(&p).is_ok(),
                Ok(_) => std::fs::remove_file(&p).is_ok(),
                Err(_) => true,
            };
            if ok && p.extension().is_none_or(|e| e != "lock") {
                removed.push(p.strip_prefix(target).unwrap_or(&p).display().to_string());
            }
        }
        if !removed.is_empty() {
            said.push(format!(
                "removed the leftovers of grading run {pid}, which is gone: {}",
                removed.join(", ")
            ));
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_of_a_run_that_is_gone_are_swept_and_named() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        // A run that is gone: its lock file is there, but nobody holds it.
        for d in ["pristine-4000001", "work/4000001-w0", "work/4000001-w1"] {
            std::fs::create_dir_all(t.join(d).join("inner")).unwrap();
        }
        std::fs::write(t.join("workbook-grader-4000001"), "x").unwrap();
        std::fs::create_dir_all(t.join("runs")).unwrap();
        std::fs::write(t.join("runs/4000001.lock"), "").unwrap();
        // This run: locked, so never swept.
        let mine = RunLock::take(t).unwrap();
        let own = format!("pristine-{}", std::process::id());
        std::fs::create_dir_all(t.join(&own)).unwrap();
        let said = sweep(t);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("run 4000001") && said[0].contains("work/4000001-w1"));
        for gone in [
            "pristine-4000001",
            "work/4000001-w0",
            "workbook-grader-4000001",
            "runs/4000001.lock",
        ] {
            assert!(!t.join(gone).exists(), "{gone} was left");
        }
        assert!(t.join(&own).exists());
        drop(mine);
        assert!(!t.join(format!("runs/{}.lock", std::process::id())).exists());
    }

    #[test]
    fn a_folder_whose_lock_is_held_is_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        std::fs::create_dir_all(t.join("runs")).unwrap();
        std::fs::create_dir_all(t.join("work/4000002-w0")).unwrap();
        let held = File::create(t.join("runs/4000002.lock")).unwrap();
        assert!(
            unheld(&held),
            "takes the lock, as the live run 4000002 would"
        );
        // The sweep opens the file afresh: to flock, another owner.
        assert!(sweep(t).is_empty());
        assert!(t.join("work/4000002-w0").exists());
    }
}
