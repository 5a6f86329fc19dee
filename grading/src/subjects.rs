//! The subject cache: a learner's chapter built once, whoever hands it in
//! again.
//!
//! The problem: a subject (the learner's code behind the wire) is compiled
//! per learner and chapter, and compiling is most of a learner-chapter's
//! CPU (issue 33: rustc's codegen is about half of it). A resubmission, a
//! regrade, a shard graded twice, or a chapter unchanged since the last
//! submission compiles the very same sources again. Here a subject is kept
//! under the hash of what it is built from: the chapter's package and its
//! subject sources (the learner's spliced files and the dispatcher, exactly
//! what the build loads into the pristine copy), inside a folder named
//! after the prepared class's key, which covers the rest (the pristine
//! copy, the lock file, the toolchain, the subject's profile, the grader's
//! version). A hit skips the build: no build time is spent, the grade is
//! the same bytes' grade. State: `TARGET/subjects/KEY/HASH/__wb_subject`,
//! one executable per subject under the name cargo gave it (a process's
//! name is its file's: `ps`, the sandbox's watchers and the platforms'
//! check know a subject by it), swept with its prepared class, and swept
//! least recently used first when the whole cache is past its cap
//! (`subject_cache_mb`, 2 GiB: a subject is 0.7-0.9 MB, so about 2,500
//! learner-chapters), never a subject
//! used in the last hour (a run grading now may be about to start it). Two graders
//! at once are safe: each writes a folder of its own and renames it into
//! place (atomic; the same hash is the same binary, whoever wins), and a
//! reader only ever sees a whole file. Cost: one SHA-256 of a chapter's sources
//! per learner-chapter, one copy of each subject built (a few MB).

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::judge::SUBJECT_BIN;

/// A subject used this recently is never swept, whatever the cap: a run
/// grading now may have found it and be about to start it.
pub const IN_USE: Duration = Duration::from_secs(3600);

/// The folder under the target directory holding the cached subjects.
pub const FOLDER: &str = "subjects";

/// The subjects of one prepared class.
#[derive(Debug, Clone)]
pub struct Subjects {
    dir: PathBuf,
}

impl Subjects {
    /// The cache of the prepared class `key` in `target`.
    pub fn new(target: &Path, key: &str) -> Self {
        Self {
            dir: target.join(FOLDER).join(key),
        }
    }

    /// The hash a subject of `package` built from `files` is kept under.
    pub fn hash(package: &str, files: &BTreeMap<PathBuf, String>) -> String {
        let mut h = Sha256::new();
        h.update(package.as_bytes());
        h.update([0]);
        for (path, text) in files {
            h.update(path.to_string_lossy().as_bytes());
            h.update([0]);
            h.update((text.len() as u64).to_le_bytes());
            h.update(text.as_bytes());
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The subject kept under `hash`, if one is; marked used now (its
    /// folder's time), so the sweep keeps it among the recently used.
    pub fn get(&self, hash: &str) -> Option<PathBuf> {
        let folder = self.dir.join(hash);
        let path = folder.join(SUBJECT_BIN);
        if !path.is_file() {
            return None;
        }
        let _ = std::fs::File::open(&folder).and_then(|f| f.set_modified(SystemTime::now()));
        Some(path)
    }

    /// Keeps the subject `built` under `hash`; its path in the cache.
    pub fn put(&self, hash: &str, built: &Path) -> Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("cannot create {}", self.dir.display()))?;
        let folder = self.dir.join(hash);
        let path = folder.join(SUBJECT_BIN);
        let part = self.dir.join(format!(
            ".{hash}.{}.{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let kept = (|| -> Result<()> {
            std::fs::create_dir_all(&part)?;
            std::fs::copy(built, part.join(SUBJECT_BIN)).with_context(|| {
                format!("cannot copy {} into the subject cache", built.display())
            })?;
            // Run by the tests' uids: readable and executable by all (it
            // holds the learner's own code and nothing of the judges').
            for p in [part.join(SUBJECT_BIN), part.clone()] {
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))?;
            }
            Ok(())
        })();
        let kept = kept.and_then(|()| {
            std::fs::rename(&part, &folder)
                .or_else(|e| {
                    // Another grader kept the same hash first: its binary
                    // is this one.
                    if path.is_file() { Ok(()) } else { Err(e) }
                })
                .with_context(|| format!("cannot keep {}", path.display()))
        });
        if part.exists() {
            let _ = std::fs::remove_dir_all(&part);
        }
        kept.map(|()| path)
    }
}

/// Removes the cached subjects of the prepared class `key` (when the class
/// is swept).
pub fn remove(target: &Path, key: &str) {
    let _ = std::fs::remove_dir_all(target.join(FOLDER).join(key));
}

/// Removes the least recently used subjects of every prepared class in
/// `target` until the cache holds at most `cap_bytes` (none used within
/// [`IN_USE`]); one line saying what went, if anything did.
pub fn sweep(target: &Path, cap_bytes: u64) -> Option<String> {
    let mut kept: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
    let classes = std::fs::read_dir(target.join(FOLDER)).ok()?;
    for class in classes.flatten() {
        let Ok(subjects) = std::fs::read_dir(class.path()) else {
            continue;
        };
        for s in subjects.flatten() {
            // `.HASH.PID...`: a subject being kept right now.
            if s.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let used = s.metadata().and_then(|m| m.modified());
            let size = std::fs::metadata(s.path().join(SUBJECT_BIN)).map(|m| m.len());
            if let (Ok(used), Ok(size)) = (used, size) {
                kept.push((used, size, s.path()));
            }
        }
    }
    // The most recently used first: what is past the cap is the oldest.
    kept.sort_by_key(|k| std::cmp::Reverse(k.0));
    let now = SystemTime::now();
    let (mut total, mut removed, mut freed) = (0u64, 0usize, 0u64);
    for (used, size, dir) in kept {
        let recent = now.duration_since(used).unwrap_or_default() < IN_USE;
        if total + size <= cap_bytes || recent {
            total += size;
        } else if std::fs::remove_dir_all(&dir).is_ok() {
            removed += 1;
            freed += size;
        }
    }
    (removed > 0).then(|| {
        format!(
            "removed {removed} subject(s) ({} MiB) least recently used from the subject cache, past its cap of {} MiB",
            freed >> 20,
            cap_bytes >> 20
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(text: &str) -> BTreeMap<PathBuf, String> {
        BTreeMap::from([(PathBuf::from("src/lib.rs"), text.to_string())])
    }

    #[test]
    fn a_subject_is_found_under_the_hash_of_its_package_and_sources_only() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Subjects::new(tmp.path(), "k1");
        let hash = Subjects::hash("intro", &files("fn a() {}"));
        assert_eq!(hash, Subjects::hash("intro", &files("fn a() {}")));
        assert_ne!(hash, Subjects::hash("intro", &files("fn b() {}")));
        assert_ne!(hash, Subjects::hash("apples", &files("fn a() {}")));
        assert!(cache.get(&hash).is_none());
        let built = tmp.path().join("built");
        std::fs::write(&built, b"\x7fELF subject").unwrap();
        let kept = cache.put(&hash, &built).unwrap();
        assert_eq!(cache.get(&hash), Some(kept.clone()));
        // Kept under cargo's name: a running subject is known by it.
        assert_eq!(kept.file_name().unwrap(), SUBJECT_BIN);
        assert_eq!(std::fs::read(&kept).unwrap(), b"\x7fELF subject");
        // Another prepared class has subjects of its own.
        assert!(Subjects::new(tmp.path(), "k2").get(&hash).is_none());
        // Kept twice (two graders at once): still one whole file.
        cache.put(&hash, &built).unwrap();
        assert_eq!(
            std::fs::read_dir(tmp.path().join(FOLDER).join("k1"))
                .unwrap()
                .count(),
            1
        );
        remove(tmp.path(), "k1");
        assert!(cache.get(&hash).is_none());
    }

    #[test]
    fn the_sweep_removes_the_least_recently_used_subjects_past_the_cap_but_none_used_within_the_hour()
     {
        let tmp = tempfile::tempdir().unwrap();
        let built = tmp.path().join("built");
        std::fs::write(&built, vec![0u8; 1000]).unwrap();
        let hours_ago = |h: u64| SystemTime::now() - Duration::from_secs(h * 3600);
        let plant = |key: &str, text: &str, used: SystemTime| {
            let cache = Subjects::new(tmp.path(), key);
            let hash = Subjects::hash("intro", &files(text));
            let kept = cache.put(&hash, &built).unwrap();
            let folder = kept.parent().unwrap().to_path_buf();
            std::fs::File::open(&folder)
                .unwrap()
                .set_modified(used)
                .unwrap();
            (cache, hash)
        };
        let oldest = plant("k1", "a", hours_ago(30));
        let old = plant("k2", "b", hours_ago(20));
        let newer = plant("k1", "c", hours_ago(10));
        let now = plant("k2", "d", SystemTime::now());
        // Under the cap: nothing goes.
        assert_eq!(sweep(tmp.path(), 4000), None);
        // Room for two: the two least recently used go, across classes.
        let said = sweep(tmp.path(), 2500).expect("a line saying what went");
        assert!(said.starts_with("removed 2 subject(s)"), "{said}");
        assert!(oldest.0.get(&oldest.1).is_none() && old.0.get(&old.1).is_none());
        assert!(newer.0.get(&newer.1).is_some() && now.0.get(&now.1).is_some());
        // A cap of nothing: what was used within the hour stays (both were
        // just used, by the `get`s above).
        assert_eq!(sweep(tmp.path(), 0), None);
        assert!(newer.0.get(&newer.1).is_some() && now.0.get(&now.1).is_some());
    }
}
