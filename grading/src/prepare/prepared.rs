//! The prepared class: the pristine copy and its judges, kept under a key
//! of what they depend on, so a later run with the same key grades at once.
//!
//! The problem: every run (`grade`, `grade-one`, a shard, `test-runner`)
//! rebuilt the pristine crates and the twelve judges before its first
//! learner (130-159 CPU-s on two cores, issue 33), though nothing they are
//! made from had changed. Here a run makes its fresh pristine copy as
//! before (cheap: a few megabytes) and digests it, with the config's hidden
//! folder, the toolchain (`rustc -vV`) and the grader's version: the key.
//! The grader's own sources in the copy (there only because cargo loads
//! every workspace member) are left out of the digest; what of the grader
//! makes the prepared class (its build commands, the seed, the judges' and
//! subjects' generated code) is digested as compiled into this binary
//! ([`BUILD_SOURCES`]), so editing the report or the intake keeps the key.
//! `TARGET/prepared/KEY/` holds the copy with its judges' binaries in
//! `bin/`; a run that finds it ready (`KEY.ready`) lists the tests from
//! those binaries and starts grading, nothing built. The hidden seed is not
//! in the key: it reaches the judges through the environment at run time.
//!
//! Sharing: `KEY.lock` is held shared by every run grading with the copy,
//! exclusively by the one run building it (others wait, then reuse what it
//! built). The sweep removes a key not used for [`MAX_AGE`] or beyond the
//! [`KEPT`] most recently used, and one whose build was killed half way,
//! each only when its lock can be taken exclusively: a copy in use is never
//! removed. State: the folder, its `.ready` marker (whose time is the last
//! use) and lock file. Cost: one copy and digest of the pristine workspace
//! per run; a key's build once.

use crate::workspace::{BIN, ChapterBuild, Workspace};
use anyhow::{Context, Result, bail};
use rustix::fs::{FlockOperation, flock};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use workbook_core::info::Chapter;

/// How many prepared classes a target directory keeps (the most recently
/// used), besides the one this run uses.
pub const KEPT: usize = 3;

/// A prepared class unused for this long is swept whatever [`KEPT`] says.
pub const MAX_AGE: Duration = Duration::from_secs(14 * 24 * 3600);

/// The folder under the target directory holding the prepared classes.
const FOLDER: &str = "prepared";

/// The grader's sources in a pristine copy (cargo loads every member of
/// the workspace), which no build of the prepared class reads.
const GRADER_SOURCES: &[&str] = &["grading/src", "grading/benches"];

/// The grader's sources that decide what a prepared class holds and how
/// its subjects are built: the builds' commands and profile, the pristine
/// copy and its hidden suites' wiring, the seed, the subject cache, and the
/// generator of the judges' and subjects' code with the wire it emits.
const BUILD_SOURCES: &[&str] = &[
    include_str!("../workspace.rs"),
    include_str!("../prepare.rs"),
    include_str!("prepared.rs"),
    include_str!("../kept.rs"),
    include_str!("../seed.rs"),
    include_str!("../subjects.rs"),
    include_str!("../judge/mod.rs"),
    include_str!("../judge/emit.rs"),
    include_str!("../judge/shape.rs"),
    include_str!("../judge/wire/common.rs"),
    include_str!("../judge/wire/confine.rs"),
    include_str!("../judge/wire/fd.rs"),
    include_str!("../judge/wire/judge.rs"),
    include_str!("../judge/wire/subject.rs"),
];

/// The key of a prepared class: SHA-256 (16 hex digits) over every file of
/// the fresh pristine copy `fresh` (path and bytes, its `bin/` aside), the
/// config's hidden folder, the toolchain and the grader's version.
pub fn key(fresh: &Path, hidden: &str) -> Result<String> {
    let mut files = Vec::new();
    list(fresh, Path::new(""), &mut files)?;
    files.sort();
    let mut h = Sha256::new();
    for rel in &files {
        let bytes = std::fs::read(fresh.join(rel))
            .with_context(|| format!("cannot read {}", fresh.join(rel).display()))?;
        h.update(rel.to_string_lossy().as_bytes());
        h.update([0]);
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    h.update(b"hidden=");
    h.update(hidden.as_bytes());
    h.update([0]);
    h.update(toolchain(fresh).as_bytes());
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    for text in BUILD_SOURCES {
        h.update((text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    // How subjects are built: the seed is built so, and links to it.
    for c in crate::workspace::SUBJECT_PROFILE {
        h.update(c.as_bytes());
    }
    let digest = h.finalize();
    Ok(digest[..8].iter().map(|b| format!("{b:02x}")).collect())
}

/// `rustc -vV` as the copy's builds would run it (its toolchain file
/// chooses), or a line saying it could not be run (then the key still
/// changes when it later can).
fn toolchain(dir: &Path) -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    std::process::Command::new(rustc)
        .arg("-vV")
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "rustc -vV failed".into(),
            |o| String::from_utf8_lossy(&o.stdout).into_owned(),
        )
}

/// Every file under `dir/rel` (but `bin/` and the grader's sources),
/// relative to `dir`.
fn list(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let here = dir.join(rel);
    for entry in
        std::fs::read_dir(&here).with_context(|| format!("cannot list {}", here.display()))?
    {
        let entry = entry?;
        let path = rel.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir()
            && path != Path::new(BIN)
            && !GRADER_SOURCES.iter().any(|g| path == Path::new(g))
        {
            list(dir, &path, out)?;
        } else if kind.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// This run's hold on a prepared class: shared once it is ready (every run
/// grading with it), exclusive while this run builds it.
pub struct Hold {
    key: String,
    dir: PathBuf,
    ready_file: PathBuf,
    file: File,
    ready: bool,
}

impl Hold {
    /// Takes `TARGET/prepared/KEY`: shared if it is ready, else exclusive
    /// (after waiting for a run that builds it, whose work it then reuses).
    pub fn take(target: &Path, key: &str) -> Result<Self> {
        let base = target.join(FOLDER);
        std::fs::create_dir_all(&base)
            .with_context(|| format!("cannot create {}", base.display()))?;
        let lock = base.join(format!("{key}.lock"));
        let ready_file = base.join(format!("{key}.ready"));
        loop {
            let file = crate::leftovers::lock_file(&lock)?;
            wait(&file, &lock, FlockOperation::NonBlockingLockShared)?;
            // A sweep may have removed the lock file while this run waited
            // on it: start again on the new one.
            if !same_file(&file, &lock) {
                continue;
            }
            let mut hold = Self {
                key: key.to_string(),
                dir: base.join(key),
                ready_file: ready_file.clone(),
                file,
                ready: false,
            };
            if hold.ready_file.is_file() && hold.dir.is_dir() {
                hold.ready = true;
                hold.touch();
                return Ok(hold);
            }
            let _ = flock(&hold.file, FlockOperation::Unlock);
            wait(&hold.file, &lock, FlockOperation::NonBlockingLockExclusive)?;
            if !same_file(&hold.file, &lock) {
                continue;
            }
            if hold.ready_file.is_file() && hold.dir.is_dir() {
                // Built by the run this one waited for.
                hold.mark_ready()?;
                return Ok(hold);
            }
            return Ok(hold);
        }
    }

    /// Whether the class was found ready (nothing to build).
    pub fn ready(&self) -> bool {
        self.ready
    }

    /// `TARGET/prepared/KEY`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Says the class is built (for the runs after this one) and lets the
    /// other runs with this key share it.
    pub fn mark_ready(&mut self) -> Result<()> {
        std::fs::write(&self.ready_file, self.key.as_bytes())
            .with_context(|| format!("cannot write {}", self.ready_file.display()))?;
        flock(&self.file, FlockOperation::LockShared)
            .with_context(|| format!("cannot share the lock on {}", self.dir.display()))?;
        self.ready = true;
        Ok(())
    }

    /// Marks the class used now (the sweep keeps the most recently used).
    fn touch(&self) {
        if let Ok(f) = std::fs::OpenOptions::new()
            .write(true)
            .open(&self.ready_file)
        {
            let _ = f.set_modified(SystemTime::now());
        }
    }

    /// The judges in the ready copy's `bin/`: each chapter's test binaries
    /// by target name.
    pub fn judges(&self, chapters: &[Chapter]) -> Result<BTreeMap<String, ChapterBuild>> {
        let ws = Workspace {
            dir: self.dir.clone(),
        };
        let mut out = BTreeMap::new();
        for c in chapters {
            let dir = ws.bin_dir(&c.folder());
            let mut build = ChapterBuild::default();
            for entry in std::fs::read_dir(&dir)
                .with_context(|| format!("the prepared class has no {}", dir.display()))?
            {
                let entry = entry?;
                build.binaries.insert(
                    entry.file_name().to_string_lossy().into_owned(),
                    entry.path(),
                );
            }
            if build.binaries.is_empty() {
                bail!("the prepared class has no judge in {}", dir.display());
            }
            out.insert(c.folder(), build);
        }
        Ok(out)
    }

    /// Whether the seed (the compiled dependencies in `TARGET/debug`) was
    /// built for this key and is still there.
    pub fn seed_built(&self, target: &Path) -> bool {
        seed_marker(target, &self.key).is_file()
    }

    /// Notes that the seed was built for this key.
    pub fn mark_seed(&self, target: &Path) -> Result<()> {
        let m = seed_marker(target, &self.key);
        if let Some(p) = m.parent() {
            std::fs::create_dir_all(p)?;
        }
        std::fs::write(&m, "").with_context(|| format!("cannot write {}", m.display()))
    }

    /// Unmakes the class: what this (exclusive) hold began building, or a
    /// ready class found incomplete (only its marker then: the runs that
    /// share it keep their files, and the next run builds it afresh once
    /// they are done).
    pub fn discard(&self) {
        let _ = std::fs::remove_file(&self.ready_file);
        if !self.ready {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Where the seed of `key` is noted: inside `TARGET/debug`, so a target
/// cleaned of its builds forgets it too.
fn seed_marker(target: &Path, key: &str) -> PathBuf {
    target.join("debug").join(".grade-seeds").join(key)
}

/// Whether `file` is still the file at `path` (not swept and remade).
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
        _ => false,
    }
}

/// Takes `op` (a non-blocking lock) on `file`, polling, saying once that
/// it waits, and giving up when the run is interrupted.
fn wait(file: &File, path: &Path, op: FlockOperation) -> Result<()> {
    let mut said = false;
    loop {
        match flock(file, op) {
            Ok(()) => return Ok(()),
            Err(rustix::io::Errno::WOULDBLOCK) => {}
            Err(e) => bail!("cannot lock {}: {e}", path.display()),
        }
        crate::interrupt::check()?;
        if !said {
            eprintln!("grade: waiting for another grading run that is preparing the same class");
            said = true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Removes the prepared classes of `target` but `keep`: those unused for
/// [`MAX_AGE`], those past the [`KEPT`] most recently used, and those
/// never finished; each only if no run holds it. One line per class.
pub fn sweep(target: &Path, keep: &str) -> Vec<String> {
    let base = target.join(FOLDER);
    let Ok(entries) = std::fs::read_dir(&base) else {
        return Vec::new();
    };
    let mut keys: Vec<(Option<SystemTime>, String)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".lock").map(str::to_string)
        })
        .filter(|k| k != keep)
        .map(|k| {
            let used = std::fs::metadata(base.join(format!("{k}.ready")))
                .and_then(|m| m.modified())
                .ok();
            (used, k)
        })
        .collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.0));
    let now = SystemTime::now();
    let mut recent = 0;
    let mut said = Vec::new();
    for (used, k) in keys {
        let why = match used {
            None => "never finished",
            Some(t) if now.duration_since(t).unwrap_or_default() > MAX_AGE => "unused for 14 days",
            Some(_) if recent < KEPT => {
                recent += 1;
                continue;
            }
            Some(_) => "past the most recently used",
        };
        let lock = base.join(format!("{k}.lock"));
        let Ok(file) = File::open(&lock) else {
            continue;
        };
        if flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
            continue;
        }
        let _ = std::fs::remove_dir_all(base.join(&k));
        let _ = std::fs::remove_file(base.join(format!("{k}.ready")));
        let _ = std::fs::remove_file(seed_marker(target, &k));
        crate::subjects::remove(target, &k);
        let _ = std::fs::remove_file(&lock);
        said.push(format!("removed the prepared class {k} ({why})"));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plant(base: &Path, key: &str, age: Option<Duration>) {
        std::fs::create_dir_all(base.join(key).join("bin")).unwrap();
        std::fs::write(base.join(format!("{key}.lock")), "").unwrap();
        if let Some(age) = age {
            let f = File::create(base.join(format!("{key}.ready"))).unwrap();
            f.set_modified(SystemTime::now() - age).unwrap();
        }
    }

    #[test]
    fn the_sweep_keeps_recent_and_held_classes_and_removes_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        let base = t.join(FOLDER);
        let hour = Duration::from_secs(3600);
        plant(&base, "mine", Some(hour * 1000));
        for (i, k) in ["r1", "r2", "r3", "r4"].iter().enumerate() {
            plant(&base, k, Some(hour * (i as u32 + 1)));
        }
        plant(&base, "old", Some(MAX_AGE + hour));
        plant(&base, "half", None);
        plant(&base, "held", None);
        let held = File::open(base.join("held.lock")).unwrap();
        flock(&held, FlockOperation::LockShared).unwrap();
        let said = sweep(t, "mine");
        let gone = |k: &str| !base.join(k).exists() && !base.join(format!("{k}.lock")).exists();
        for k in ["r4", "old", "half"] {
            assert!(gone(k), "{k} was kept: {said:?}");
        }
        for k in ["mine", "r1", "r2", "r3", "held"] {
            assert!(base.join(k).exists(), "{k} was removed: {said:?}");
        }
        assert_eq!(said.len(), 3, "{said:?}");
    }

    #[test]
    fn a_ready_class_is_shared_and_an_unready_one_is_built_by_one_run() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        let mut first = Hold::take(t, "k").unwrap();
        assert!(!first.ready(), "nothing built yet");
        let lock = File::open(t.join(FOLDER).join("k.lock")).unwrap();
        assert!(
            flock(&lock, FlockOperation::NonBlockingLockShared).is_err(),
            "the builder holds it alone"
        );
        std::fs::create_dir_all(first.dir()).unwrap();
        first.mark_ready().unwrap();
        let second = Hold::take(t, "k").unwrap();
        assert!(second.ready(), "the second run reuses it");
        assert!(
            flock(&lock, FlockOperation::NonBlockingLockExclusive).is_err(),
            "a class in use cannot be swept"
        );
        assert!(sweep(t, "other").is_empty());
    }

    #[test]
    fn the_key_changes_with_a_file_and_with_the_hidden_folder_but_not_with_bin_or_the_graders_sources()
     {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::write(d.join("Cargo.toml"), "a").unwrap();
        let k = key(d, "grading/hidden").unwrap();
        std::fs::create_dir_all(d.join(BIN)).unwrap();
        std::fs::write(d.join(BIN).join("judge"), "x").unwrap();
        assert_eq!(key(d, "grading/hidden").unwrap(), k);
        // The grader's sources in the copy: this binary's build sources
        // stand for them.
        for dir in GRADER_SOURCES {
            std::fs::create_dir_all(d.join(dir)).unwrap();
            std::fs::write(d.join(dir).join("report.rs"), "edited").unwrap();
        }
        assert_eq!(key(d, "grading/hidden").unwrap(), k);
        std::fs::write(d.join("grading/Cargo.toml"), "[package]").unwrap();
        assert_ne!(key(d, "grading/hidden").unwrap(), k);
        std::fs::remove_file(d.join("grading/Cargo.toml")).unwrap();
        assert_ne!(key(d, "").unwrap(), k);
        std::fs::write(d.join("Cargo.toml"), "b").unwrap();
        assert_ne!(key(d, "grading/hidden").unwrap(), k);
    }
}
