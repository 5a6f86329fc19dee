//! The dependencies a learner's build needs, compiled once for the class,
//! and each worker's own target directory made of links to them.
//!
//! Cargo locks a target directory for a whole build, and a learner's crate
//! is the same unit to cargo whoever wrote it, so learners' builds in one
//! shared target directory had to take turns: one learner whose build never
//! ends held the class. Here each worker builds in a target directory of its
//! own (`TARGET/workers/wN`, held by a lock while a worker uses it), so
//! builds run side by side and one slow learner holds one worker.
//!
//! What makes that cheap is the seed. Before any learner, the grader builds
//! every chapter's subject from the pristine stubs, with exactly the command
//! a learner's build uses, in the shared target directory (`prepare`'s
//! `build_seed`): every dependency unit a learner's build can need is then
//! compiled there, once. A worker's
//! target directory is a skeleton of symbolic links to those units (the
//! chapter's own crate excluded, so it is always compiled from the learner's
//! source); the build sandbox binds the shared directory read-only, so a
//! build can read the dependencies and never change them.
//!
//! The links are kept between runs (issue 33: making ~2,000 of them per
//! worker per run cost up to 2 CPU-s in inode allocation): a worker takes
//! the first slot no live worker holds (the lock is the kernel's, so a dead
//! run's slot is free again), and brings it in line with the seed as it is
//! now: missing links made, links to units the seed no longer has or
//! pointing elsewhere removed, every file that is not a link (the last
//! learner's crate, what a dead run left) removed. A changed seed (another
//! prepared class, a target cleaned and rebuilt) costs only the links that
//! changed. When a worker is done its slot keeps its links and nothing
//! else. Cost: per worker and run, two listings of the seed's unit folders
//! and one `readlink` per unit; one link per unit when the seed changed;
//! and no dependency compiled twice.

use anyhow::{Context, Result};
use rustix::fs::{FlockOperation, flock};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The folders of a cargo target directory that hold compiled units.
const UNIT_DIRS: &[&str] = &["deps", ".fingerprint", "build"];

/// The folder under the target directory holding the workers' target
/// directories, kept between runs.
const WORKERS: &str = "workers";

/// A worker slot unused for this long is swept.
pub const SLOT_AGE: Duration = Duration::from_secs(14 * 24 * 3600);

/// The shared, compiled dependencies: `TARGET/debug` after the seed build.
#[derive(Debug, Clone)]
pub struct Seed {
    /// `TARGET/debug`, bound read-only in every learner's build.
    pub debug: PathBuf,
    /// Unit names (as cargo spells them in file names) never linked: the
    /// chapters' own crates and the subject binary, which every learner's
    /// build compiles from its own source.
    own_units: Vec<String>,
}

impl Seed {
    /// The seed in `target` (built already), leaving out the units of
    /// `packages` and of the subject binary.
    pub fn new(target: &Path, packages: &[&str]) -> Self {
        let mut own_units: Vec<String> = packages
            .iter()
            .flat_map(|p| {
                [
                    p.to_string(),
                    p.replace('-', "_"),
                    crate::judge::subject_target(p),
                ]
            })
            .collect();
        own_units.push(crate::judge::SUBJECT_BIN.to_string());
        Self {
            debug: target.join("debug"),
            own_units,
        }
    }

    /// Whether `file` (a name in `deps/`, `.fingerprint/` or `build/`)
    /// belongs to a chapter's own crate: `NAME-HASH...`, `libNAME-HASH...`.
    fn is_own(&self, file: &str) -> bool {
        let bare = file.strip_prefix("lib").unwrap_or(file);
        self.own_units.iter().any(|u| {
            [file, bare].iter().any(|f| {
                f.strip_prefix(u.as_str())
                    .is_some_and(|rest| rest.starts_with('-') || rest.starts_with('.'))
            })
        })
    }

    /// Worker `index`'s target directory, kept between runs: the first
    /// slot from `TARGET/workers/w{index}` on that no live worker holds,
    /// brought in line with the seed (see [`Seed::sync`]).
    pub fn worker_target(&self, target: &Path, index: usize) -> Result<WorkerTarget> {
        let base = target.join(WORKERS);
        std::fs::create_dir_all(&base)
            .with_context(|| format!("cannot create {}", base.display()))?;
        let mut slot = index;
        loop {
            let lock = base.join(format!("w{slot}.lock"));
            let file = crate::leftovers::lock_file(&lock)?;
            if flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
                slot += 1;
                continue;
            }
            // Used now: the sweep removes slots long unused.
            let _ = file.set_modified(SystemTime::now());
            let dir = base.join(format!("w{slot}"));
            self.sync(&dir)?;
            return Ok(WorkerTarget { dir, _lock: file });
        }
    }

    /// Makes `dir` a target directory whose units are links into the seed
    /// and nothing else: every unit the seed has (but the chapters' own) is
    /// linked, each link points at its unit, and whatever else is there (a
    /// learner's crate, a link to a unit the seed no longer has, what a
    /// dead run left half made) goes. Only what is missing is linked, so a
    /// slot already in line with the seed costs two listings and a
    /// `readlink` per unit, not a new inode per unit.
    pub fn sync(&self, dir: &Path) -> Result<()> {
        if std::fs::symlink_metadata(dir).is_ok_and(|m| !m.is_dir()) {
            std::fs::remove_file(dir).with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        let debug = dir.join("debug");
        std::fs::create_dir_all(&debug)
            .with_context(|| format!("cannot create {}", debug.display()))?;
        clear_but(dir, &["debug"])?;
        clear_but(&debug, UNIT_DIRS)?;
        for sub in UNIT_DIRS {
            let from = self.debug.join(sub);
            let to = debug.join(sub);
            std::fs::create_dir_all(&to)
                .with_context(|| format!("cannot create {}", to.display()))?;
            let mut wanted: BTreeMap<OsString, PathBuf> = std::fs::read_dir(&from)
                .map(|entries| {
                    entries
                        .flatten()
                        .filter(|e| !self.is_own(&e.file_name().to_string_lossy()))
                        .map(|e| (e.file_name(), e.path()))
                        .collect()
                })
                .unwrap_or_default();
            for e in std::fs::read_dir(&to)
                .with_context(|| format!("cannot list {}", to.display()))?
                .flatten()
            {
                let name = e.file_name();
                let linked = e.file_type().is_ok_and(|t| t.is_symlink())
                    && wanted
                        .get(&name)
                        .is_some_and(|unit| std::fs::read_link(e.path()).is_ok_and(|l| &l == unit));
                if linked {
                    wanted.remove(&name);
                } else {
                    remove(&e.path())?;
                }
            }
            for (name, unit) in wanted {
                std::os::unix::fs::symlink(&unit, to.join(&name)).with_context(|| {
                    format!("cannot link {} into {}", unit.display(), to.display())
                })?;
            }
        }
        Ok(())
    }
}

/// A worker's target directory (`TARGET/workers/wN`) and its hold on it
/// (`wN.lock`, released when dropped or when the process dies): its links
/// stay for the next run, what its builds wrote goes.
pub struct WorkerTarget {
    pub dir: PathBuf,
    _lock: File,
}

impl Drop for WorkerTarget {
    fn drop(&mut self) {
        // The learner's crate: no disk held by a slot between runs but its
        // links, and no learner's output left for the next to find.
        let _ = clear_but(&self.dir, &["debug"]);
        let debug = self.dir.join("debug");
        let _ = clear_but(&debug, UNIT_DIRS);
        for sub in UNIT_DIRS {
            let Ok(entries) = std::fs::read_dir(debug.join(sub)) else {
                continue;
            };
            for e in entries.flatten() {
                if !e.file_type().is_ok_and(|t| t.is_symlink()) {
                    let _ = remove(&e.path());
                }
            }
        }
    }
}

/// Removes every entry of `dir` not named in `keep`.
fn clear_but(dir: &Path, keep: &[&str]) -> Result<()> {
    for e in std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .flatten()
    {
        if !keep.iter().any(|k| e.file_name() == *k) {
            remove(&e.path())?;
        }
    }
    Ok(())
}

/// Removes `path`, a folder with what it holds (a link is removed, never
/// followed).
fn remove(path: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(path);
    let done = if meta.is_ok_and(|m| m.is_dir()) {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    done.with_context(|| format!("cannot clear {}", path.display()))
}

/// Removes the worker slots of `target` that no run holds and none used
/// for [`SLOT_AGE`] (a `--jobs 16` run's extra slots, a class long gone);
/// one line saying how many went, if any did.
pub fn sweep(target: &Path) -> Option<String> {
    let base = target.join(WORKERS);
    let now = SystemTime::now();
    let mut removed = 0;
    for e in std::fs::read_dir(&base).ok()?.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(slot) = name.strip_suffix(".lock") else {
            continue;
        };
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).unwrap_or_default() > SLOT_AGE);
        let Ok(file) = File::open(e.path()) else {
            continue;
        };
        if !old || flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
            continue;
        }
        let _ = std::fs::remove_dir_all(base.join(slot));
        let _ = std::fs::remove_file(e.path());
        removed += 1;
    }
    (removed > 0).then(|| format!("removed {removed} worker target folder(s) unused for 14 days"))
}

/// Bytes a target directory holds in files of its own (links, and what they
/// point to, not counted): what a learner's build wrote.
pub fn own_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                // Allocated blocks, not the apparent length, so a sparse
                // file is counted for what it takes on disk.
                Ok(m) if m.is_file() => {
                    total += std::os::unix::fs::MetadataExt::blocks(&m) * 512;
                }
                _ => {}
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_target_links_every_dependency_unit_but_not_the_chapters_own() {
        let tmp = tempfile::tempdir().unwrap();
        let debug = tmp.path().join("debug");
        for (sub, name) in [
            ("deps", "libserde-0123.rlib"),
            ("deps", "serde-0123.d"),
            ("deps", "libn_queens-77aa.rlib"),
            ("deps", "__wb_subject-77bb"),
            ("deps", "__wb_subject_n_queens-77cc"),
            ("deps", "n_queens_solution-1234.d"),
            (".fingerprint", "postcard-4567"),
            (".fingerprint", "n_queens-77aa"),
            ("build", "libc-89ab"),
        ] {
            std::fs::create_dir_all(debug.join(sub)).unwrap();
            std::fs::write(debug.join(sub).join(name), "x").unwrap();
        }
        let seed = Seed::new(tmp.path(), &["n_queens"]);
        let dir = tmp.path().join("w0");
        seed.sync(&dir).unwrap();
        let linked = |sub: &str, name: &str| {
            std::fs::symlink_metadata(dir.join("debug").join(sub).join(name))
                .is_ok_and(|m| m.file_type().is_symlink())
        };
        assert!(linked("deps", "libserde-0123.rlib"));
        assert!(linked("deps", "serde-0123.d"));
        assert!(linked(".fingerprint", "postcard-4567"));
        assert!(linked("build", "libc-89ab"));
        // Another package whose name starts with the chapter's is not its own.
        assert!(linked("deps", "n_queens_solution-1234.d"));
        assert!(!linked("deps", "libn_queens-77aa.rlib"));
        assert!(!linked("deps", "__wb_subject-77bb"));
        assert!(!linked("deps", "__wb_subject_n_queens-77cc"));
        assert!(!linked(".fingerprint", "n_queens-77aa"));
        // The links hold no bytes of their own.
        assert_eq!(own_bytes(&dir), 0);
        std::fs::write(dir.join("debug/deps/mine"), vec![1u8; 8192]).unwrap();
        assert!(own_bytes(&dir) >= 8192);
    }

    #[test]
    fn a_worker_slot_keeps_its_links_between_runs_and_follows_the_seed_when_it_changes() {
        use std::os::unix::fs::MetadataExt;
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        let deps = t.join("debug/deps");
        std::fs::create_dir_all(&deps).unwrap();
        for name in [
            "libserde-0123.rlib",
            "libold-4444.rlib",
            "libintro-77aa.rlib",
        ] {
            std::fs::write(deps.join(name), "x").unwrap();
        }
        let seed = Seed::new(t, &["intro"]);
        let ino = |p: &Path| std::fs::symlink_metadata(p).unwrap().ino();
        let first = seed.worker_target(t, 0).unwrap();
        let serde = first.dir.join("debug/deps/libserde-0123.rlib");
        let before = ino(&serde);
        // Another live worker takes another slot.
        let second = seed.worker_target(t, 0).unwrap();
        assert_ne!(first.dir, second.dir);
        // A learner's build writes its crate and the binary cargo uplifts.
        std::fs::write(first.dir.join("debug/deps/libintro-9999.rlib"), "learner").unwrap();
        std::fs::write(first.dir.join("debug/__wb_subject"), "learner").unwrap();
        let dir = first.dir.clone();
        drop(first);
        assert!(!dir.join("debug/deps/libintro-9999.rlib").exists());
        assert!(!dir.join("debug/__wb_subject").exists());
        assert_eq!(own_bytes(&dir), 0);
        // The next run, same seed: the very same links, none made again.
        let again = seed.worker_target(t, 0).unwrap();
        assert_eq!(again.dir, dir);
        assert_eq!(ino(&serde), before);
        drop(again);
        // A dead run's leftovers: a learner's file, a link pointing
        // elsewhere, a link removed, a folder half made.
        std::fs::write(dir.join("debug/deps/libintro-1111.rlib"), "dead").unwrap();
        std::fs::remove_file(&serde).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", &serde).unwrap();
        std::fs::remove_file(dir.join("debug/deps/libold-4444.rlib")).unwrap();
        std::fs::create_dir_all(dir.join("debug/incremental/x")).unwrap();
        // And the seed changed: one unit gone, one new.
        std::fs::remove_file(deps.join("libold-4444.rlib")).unwrap();
        std::fs::write(deps.join("libnew-5555.rlib"), "x").unwrap();
        let after = seed.worker_target(t, 0).unwrap();
        assert_eq!(after.dir, dir);
        let mut names: Vec<String> = std::fs::read_dir(dir.join("debug/deps"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["libnew-5555.rlib", "libserde-0123.rlib"]);
        assert_eq!(
            std::fs::read_link(&serde).unwrap(),
            deps.join("libserde-0123.rlib")
        );
        assert!(!dir.join("debug/incremental").exists());
        drop((after, second));
        // Slots in use or used lately are never swept.
        assert_eq!(sweep(t), None);
        let lock = t.join(WORKERS).join("w1.lock");
        let f = File::options().write(true).open(&lock).unwrap();
        f.set_modified(SystemTime::now() - SLOT_AGE - Duration::from_secs(60))
            .unwrap();
        assert!(sweep(t).is_some());
        assert!(!t.join(WORKERS).join("w1").exists() && !lock.exists());
        assert!(dir.exists());
    }
}
