//! A report written beside `--out` and renamed into place when complete.
//!
//! The problem: a gradebook that is half written (a run interrupted, a
//! disk full) looks like a whole one, and an instructor may publish it.
//! So a run writes everything (`learners/`, `grades.csv`, the reports, or a
//! shard's `part.json`) into `.NAME.partial-PID` beside `--out`, and only
//! a complete one is moved into place: one rename when `--out` is new or
//! empty; when it holds an older report, each of the run's own entries in
//! turn (the old ones are moved aside first, then deleted), never touching
//! anything else in the folder. A run that stops before that removes its
//! folder. The folder is `flock`ed while its run lives, so a later run
//! removes the folders of runs that died without cleaning up. A single
//! results file (`grade-one`, `test-runner`) is written the same way, beside
//! itself, then renamed (`write_whole`). State: the folder and its lock.
//! Cost: renames in one file system.

use crate::leftovers::unheld;
use anyhow::{Context, Result, bail};
use rustix::fs::{FlockOperation, flock};
use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};

/// A report being written, for `out`.
pub struct Staging {
    dir: PathBuf,
    out: PathBuf,
    _lock: File,
    committed: bool,
}

impl Staging {
    /// A fresh folder beside `out`, after removing the folders of dead runs
    /// there (each named to stderr).
    pub fn beside(out: &Path) -> Result<Self> {
        let (parent, name) = split(out)?;
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let prefix = format!(".{}.partial-", name.to_string_lossy());
        sweep(&parent, &prefix);
        let dir = parent.join(format!("{prefix}{}", std::process::id()));
        if std::fs::symlink_metadata(&dir).is_ok() {
            std::fs::remove_dir_all(&dir)
                .with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        std::fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let lock = File::open(&dir).with_context(|| format!("cannot open {}", dir.display()))?;
        flock(&lock, FlockOperation::NonBlockingLockExclusive)
            .with_context(|| format!("cannot lock {}", dir.display()))?;
        Ok(Self {
            dir,
            out: parent.join(name),
            _lock: lock,
            committed: false,
        })
    }

    /// Where the report is written until it is complete.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Moves the complete report into place at `out`.
    pub fn commit(mut self) -> Result<()> {
        let fail = |what: &Path| format!("cannot move the report into {}", what.display());
        match std::fs::symlink_metadata(&self.out) {
            Err(_) => {
                std::fs::rename(&self.dir, &self.out).with_context(|| fail(&self.out))?;
            }
            Ok(m) if !m.is_dir() => bail!(
                "cannot write the report to {}: it is a file, not a folder",
                self.out.display()
            ),
            Ok(_) if std::fs::remove_dir(&self.out).is_ok() => {
                // It was empty.
                std::fs::rename(&self.dir, &self.out).with_context(|| fail(&self.out))?;
            }
            Ok(_) => {
                let mut aside = self.dir.clone().into_os_string();
                aside.push(".old");
                let aside = PathBuf::from(aside);
                std::fs::create_dir_all(&aside)
                    .with_context(|| format!("cannot create {}", aside.display()))?;
                for entry in std::fs::read_dir(&self.dir)? {
                    let name = entry?.file_name();
                    let old = self.out.join(&name);
                    if std::fs::symlink_metadata(&old).is_ok() {
                        std::fs::rename(&old, aside.join(&name)).with_context(|| fail(&old))?;
                    }
                    std::fs::rename(self.dir.join(&name), &old).with_context(|| fail(&old))?;
                }
                let _ = std::fs::remove_dir_all(&aside);
                let _ = std::fs::remove_dir(&self.dir);
            }
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// One file (a platform's results file, a cache entry) written whole or
/// not at all: beside `path` under a name of this thread's own (a dot
/// file, so a reader listing entries skips it), then renamed into place;
/// the partial file is removed when either step fails.
pub fn write_whole(path: &Path, text: &str) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let name = path.file_name().map_or_else(
        || "results.json".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let partial = dir.unwrap_or(Path::new(".")).join(format!(
        ".{name}.partial-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let written = std::fs::write(&partial, text)
        .with_context(|| format!("cannot write {}", partial.display()))
        .and_then(|()| {
            std::fs::rename(&partial, path)
                .with_context(|| format!("cannot write {}", path.display()))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// `out` as its parent folder and its name, whatever form it was given in
/// (`.`, `..`, a trailing slash).
fn split(out: &Path) -> Result<(PathBuf, OsString)> {
    let full = if out.is_absolute() {
        out.to_path_buf()
    } else {
        std::env::current_dir()
            .context("cannot find the current folder")?
            .join(out)
    };
    let mut clean = PathBuf::new();
    for c in full.components() {
        match c {
            std::path::Component::ParentDir => {
                clean.pop();
            }
            std::path::Component::CurDir => {}
            other => clean.push(other),
        }
    }
    match (clean.parent(), clean.file_name()) {
        (Some(p), Some(n)) => Ok((p.to_path_buf(), n.to_os_string())),
        _ => bail!("cannot write a report to {}: name a folder", out.display()),
    }
}

/// Removes `PREFIX<pid>` folders (and their `.old` twins) in `parent`
/// whose runs are gone: their lock can be taken.
fn sweep(parent: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(prefix) else {
            continue;
        };
        let pid = rest.strip_suffix(".old").unwrap_or(rest);
        if pid.parse::<u32>().is_err() || pid == std::process::id().to_string() {
            continue;
        }
        let live_dir = parent.join(format!("{prefix}{pid}"));
        let gone = match File::open(&live_dir) {
            Ok(f) => unheld(&f),
            Err(_) => true,
        };
        if gone && std::fs::remove_dir_all(e.path()).is_ok() {
            eprintln!(
                "grade: removed {}, a report left half written by a run that is gone",
                e.path().display()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_dropped_before_commit_leaves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("report");
        let s = Staging::beside(&out).unwrap();
        std::fs::write(s.dir().join("grades.csv"), "half").unwrap();
        drop(s);
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_committed_report_replaces_only_its_own_entries() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("report");
        std::fs::create_dir_all(out.join("learners/old")).unwrap();
        std::fs::write(out.join("grades.csv"), "old").unwrap();
        std::fs::write(out.join("mine.txt"), "the instructor's").unwrap();
        let s = Staging::beside(&tmp.path().join("x/../report/")).unwrap();
        std::fs::create_dir_all(s.dir().join("learners/new")).unwrap();
        std::fs::write(s.dir().join("grades.csv"), "new").unwrap();
        s.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("grades.csv")).unwrap(),
            "new"
        );
        assert!(out.join("learners/new").exists() && !out.join("learners/old").exists());
        assert!(out.join("mine.txt").exists());
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the report remains: {left:?}");
    }

    #[test]
    fn a_folder_left_by_a_dead_run_is_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let dead = tmp.path().join(".report.partial-4000003");
        std::fs::create_dir_all(dead.join("learners")).unwrap();
        let s = Staging::beside(&tmp.path().join("report")).unwrap();
        assert!(!dead.exists());
        s.commit().unwrap();
        assert!(tmp.path().join("report").is_dir());
    }
}
