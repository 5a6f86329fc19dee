//! The derived stubs, kept between runs under a key of what derives them.
//!
//! The problem: every run derives each chapter's pristine stubs from
//! `solutions/` (never trusting the checkout's `exercises/`), and the
//! derivation formats each file with rustfmt: 59 rustfmt processes, about
//! 0.9 CPU-s per run (issue 33), though `solutions/` rarely changes between
//! runs. Here a chapter's derived stubs are kept in
//! `TARGET/stubs/HASH.json` under the SHA-256 of everything
//! `workbook_core::stubs::generate` reads or depends on: the chapter's
//! package, its stub names and nudges (`info.toml`), every `.rs` file of its
//! reference's `src/` (path and bytes), the derivation's own source
//! ([`DERIVATION`], `core/src/stubs.rs` as compiled into this binary),
//! `rustfmt --version` as the workspace's toolchain runs it, the rustfmt
//! configuration it finds, and the grader's version. A run whose key finds a readable entry runs no
//! rustfmt; anything missing, unreadable or malformed is derived afresh and
//! written again. This cache is an input of the prepared class, not part of
//! it: the prepared key digests the fresh copy, which holds these stubs.
//!
//! Sharing: an entry is written whole to a file of this process's own and
//! renamed into place (atomic; two runs with the same key write the same
//! bytes, whoever wins), so a reader sees a whole entry or none. The sweep
//! removes entries unused for [`MAX_AGE`] or past the [`KEPT`] most
//! recently used (a read marks an entry used), and half-written files left
//! by a dead run after an hour. State: one small JSON file per chapter and
//! key. Cost: one `rustfmt --version` and one digest of the solutions per
//! run; a key's rustfmt runs once.

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};
use workbook_core::info::Chapter;

/// The derivation (`workbook_core::stubs`) as compiled into this binary:
/// a changed derivation is another key, never served stale. Read from the
/// workspace's `core/` (the grader is never published alone), so the
/// derivation's crate needs no change for the cache.
const DERIVATION: &str = include_str!("../../../core/src/stubs.rs");

/// The folder under the target directory holding the derived stubs.
const FOLDER: &str = "stubs";

/// How many entries the folder keeps (the most recently used): a few
/// versions of every chapter.
pub const KEPT: usize = 48;

/// An entry unused for this long is swept whatever [`KEPT`] says.
pub const MAX_AGE: Duration = Duration::from_secs(14 * 24 * 3600);

/// A half-written entry older than this belongs to a run that died.
const PART_AGE: Duration = Duration::from_secs(3600);

/// The derived stubs of one target directory, for one workbook root.
pub struct StubsCache {
    dir: PathBuf,
    /// What every chapter's key shares (rustfmt, its configuration, the
    /// derivation, the grader); `None` when rustfmt cannot say its version:
    /// then nothing is cached and the derivation says what is wrong.
    common: Option<Vec<u8>>,
}

impl StubsCache {
    /// The cache in `target` for the workbook at `root` (runs `rustfmt
    /// --version` there, as the derivation would).
    pub fn new(target: &Path, root: &Path) -> Self {
        let rustfmt = Command::new("rustfmt")
            .arg("--version")
            .current_dir(root)
            .stdin(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success());
        let common = rustfmt.map(|o| {
            let mut c = b"workbook-stubs-cache-1\0".to_vec();
            for part in [
                o.stdout.as_slice(),
                &rustfmt_config(root),
                DERIVATION.as_bytes(),
                env!("CARGO_PKG_VERSION").as_bytes(),
            ] {
                c.extend_from_slice(&(part.len() as u64).to_le_bytes());
                c.extend_from_slice(part);
            }
            c
        });
        Self {
            dir: target.join(FOLDER),
            common,
        }
    }

    /// Chapter `c`'s stubs: kept ones if this key has them, else derived
    /// by `derive` and kept for the next run (a failure to keep them costs
    /// only that: the stubs are returned all the same).
    pub fn get_or_derive(
        &self,
        c: &Chapter,
        derive: impl FnOnce() -> Result<BTreeMap<PathBuf, String>>,
    ) -> Result<BTreeMap<PathBuf, String>> {
        let Some(key) = self.key(c) else {
            return derive();
        };
        let path = self.dir.join(format!("{key}.json"));
        if let Some(files) = read(&path) {
            let _ = std::fs::File::open(&path).and_then(|f| f.set_modified(SystemTime::now()));
            return Ok(files);
        }
        let files = derive()?;
        let _ = self.write(&key, &files);
        Ok(files)
    }

    /// The key of chapter `c`'s stubs, or `None` if rustfmt gave no version
    /// or a solution file cannot be read (then they are derived, uncached).
    fn key(&self, c: &Chapter) -> Option<String> {
        let common = self.common.as_ref()?;
        let sources = crate::prepare::read_sources(&c.reference_src()).ok()?;
        let mut h = Sha256::new();
        h.update(common);
        h.update(c.package().as_bytes());
        h.update([0]);
        for (name, nudge) in c.all_stubs() {
            for part in [name.as_bytes(), nudge.as_bytes()] {
                h.update((part.len() as u64).to_le_bytes());
                h.update(part);
            }
        }
        h.update(b"sources\0");
        for (rel, text) in &sources {
            let rel = rel.to_string_lossy();
            for part in [rel.as_bytes(), text.as_bytes()] {
                h.update((part.len() as u64).to_le_bytes());
                h.update(part);
            }
        }
        Some(
            h.finalize()[..16]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        )
    }

    /// Writes `files` under `key`: whole, by rename.
    fn write(&self, key: &str, files: &BTreeMap<PathBuf, String>) -> Result<()> {
        let by_name: BTreeMap<String, &String> = files
            .iter()
            .map(|(rel, text)| {
                Ok((
                    rel.to_str()
                        .context("a path that is not UTF-8")?
                        .to_string(),
                    text,
                ))
            })
            .collect::<Result<_>>()?;
        crate::staging::write_whole(
            &self.dir.join(format!("{key}.json")),
            &serde_json::to_string(&by_name)?,
        )
    }
}

/// An entry's files, if it is whole and well formed.
fn read(path: &Path) -> Option<BTreeMap<PathBuf, String>> {
    let bytes = std::fs::read(path).ok()?;
    let by_name: BTreeMap<String, String> = serde_json::from_slice(&bytes).ok()?;
    if by_name.is_empty() {
        return None;
    }
    Some(
        by_name
            .into_iter()
            .map(|(rel, text)| (PathBuf::from(rel), text))
            .collect(),
    )
}

/// The rustfmt configuration the derivation's rustfmt finds from `root`
/// (the nearest `rustfmt.toml` or `.rustfmt.toml`, searching upwards): its
/// path and bytes, or nothing.
fn rustfmt_config(root: &Path) -> Vec<u8> {
    for dir in root.ancestors() {
        for name in ["rustfmt.toml", ".rustfmt.toml"] {
            let path = dir.join(name);
            if let Ok(bytes) = std::fs::read(&path) {
                let mut out = path.to_string_lossy().into_owned().into_bytes();
                out.push(0);
                out.extend(bytes);
                return out;
            }
        }
    }
    Vec::new()
}

/// Removes the entries of `target` unused for [`MAX_AGE`] or past the
/// [`KEPT`] most recently used, and half-written ones a dead run left; one
/// line saying what went, if anything did.
pub fn sweep(target: &Path) -> Option<String> {
    let entries = std::fs::read_dir(target.join(FOLDER)).ok()?;
    let now = SystemTime::now();
    let age = |p: &Path| {
        std::fs::metadata(p)
            .and_then(|m| m.modified())
            .map(|t| (t, now.duration_since(t).unwrap_or_default()))
    };
    let mut kept = Vec::new();
    let mut removed = 0;
    for e in entries.flatten() {
        let path = e.path();
        let Ok((used, old)) = age(&path) else {
            continue;
        };
        if e.file_name().to_string_lossy().starts_with('.') {
            if old > PART_AGE && std::fs::remove_file(&path).is_ok() {
                removed += 1;
            }
        } else {
            kept.push((used, old, path));
        }
    }
    kept.sort_by_key(|k| std::cmp::Reverse(k.0));
    for (i, (_, old, path)) in kept.into_iter().enumerate() {
        if (i >= KEPT || old > MAX_AGE) && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    (removed > 0).then(|| format!("removed {removed} derived stub file(s) unused lately"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn derived(text: &str) -> BTreeMap<PathBuf, String> {
        BTreeMap::from([(PathBuf::from("lib.rs"), text.to_string())])
    }

    #[test]
    fn stubs_are_derived_once_per_key_and_again_when_a_solution_changes_or_the_entry_is_damaged() {
        let ws = tempfile::tempdir().unwrap();
        let root = ws.path();
        workbook_core::testkit::mini_workbook_of(
            root,
            "",
            &[("00_intro", "intro"), ("01_apples", "apples")],
        );
        let tmp = tempfile::tempdir().unwrap();
        let chapters = workbook_core::info::load_chapters(root).unwrap();
        let c = &chapters[0];
        let cache = StubsCache::new(tmp.path(), root);
        assert!(cache.common.is_some(), "rustfmt gives its version");
        let runs = Cell::new(0);
        let derive = |text: &'static str| {
            let runs = &runs;
            move || {
                runs.set(runs.get() + 1);
                Ok(derived(text))
            }
        };
        assert_eq!(cache.get_or_derive(c, derive("a")).unwrap(), derived("a"));
        assert_eq!(cache.get_or_derive(c, derive("b")).unwrap(), derived("a"));
        assert_eq!(runs.get(), 1, "the second run found the first's stubs");
        // Another run (a cache made anew) with the same inputs.
        let again = StubsCache::new(tmp.path(), root);
        assert_eq!(again.get_or_derive(c, derive("b")).unwrap(), derived("a"));
        assert_eq!(runs.get(), 1);
        // A damaged entry is derived again, and rewritten whole.
        let entry = std::fs::read_dir(tmp.path().join(FOLDER))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        std::fs::write(&entry, "{\"lib.rs\": ").unwrap();
        assert_eq!(cache.get_or_derive(c, derive("c")).unwrap(), derived("c"));
        assert_eq!(cache.get_or_derive(c, derive("d")).unwrap(), derived("c"));
        assert_eq!(runs.get(), 2);
        // A changed solution file is another key.
        let lib = c.reference_src().join("lib.rs");
        let text = std::fs::read_to_string(&lib).unwrap();
        std::fs::write(&lib, format!("{text}\n// edited\n")).unwrap();
        assert_eq!(cache.get_or_derive(c, derive("e")).unwrap(), derived("e"));
        assert_eq!(runs.get(), 3);
        // Another chapter is another key.
        assert_eq!(
            cache.get_or_derive(&chapters[1], derive("f")).unwrap(),
            derived("f")
        );
        assert_eq!(runs.get(), 4);
        // No half-written file is left behind.
        assert!(
            std::fs::read_dir(tmp.path().join(FOLDER))
                .unwrap()
                .flatten()
                .all(|e| !e.file_name().to_string_lossy().starts_with('.'))
        );
    }

    #[test]
    fn the_sweep_keeps_the_recently_used_entries_and_removes_old_and_half_written_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(FOLDER);
        std::fs::create_dir_all(&dir).unwrap();
        let hour = Duration::from_secs(3600);
        let plant = |name: &str, age: Duration| {
            let f = std::fs::File::create(dir.join(name)).unwrap();
            f.set_modified(SystemTime::now() - age).unwrap();
        };
        for i in 0..KEPT + 2 {
            plant(&format!("r{i}.json"), hour * (i as u32 + 1));
        }
        plant("old.json", MAX_AGE + hour);
        plant(".dead.1.ThreadId(1)", hour * 2);
        plant(".live.2.ThreadId(1)", Duration::ZERO);
        let said = sweep(tmp.path()).expect("a line");
        assert!(said.starts_with("removed 4 "), "{said}");
        for i in 0..KEPT {
            assert!(dir.join(format!("r{i}.json")).exists(), "r{i} was removed");
        }
        for gone in [
            format!("r{KEPT}.json"),
            format!("r{}.json", KEPT + 1),
            "old.json".into(),
            ".dead.1.ThreadId(1)".into(),
        ] {
            assert!(!dir.join(&gone).exists(), "{gone} was kept");
        }
        assert!(dir.join(".live.2.ThreadId(1)").exists());
    }
}
