//! The pristine copy kept between grading runs.
//!
//! The problem: the pristine copy and its build (every chapter's judges)
//! cost minutes of CPU, and a run named its copy after its process id, so
//! cargo saw a new workspace each time and built it all again, though the
//! checkout had not changed. The trick: each run still makes its copy
//! fresh (`Workspace::pristine`, so what it holds is exactly this run's
//! checkout, config and hidden suites), then moves it into the copy the
//! last run left (`TARGET/pristine`) file by file, keeping every file the
//! kept copy already holds byte for byte, and with it the file's time:
//! cargo then finds its last build of it fresh and rebuilds only what
//! changed. One run at a time holds the kept copy
//! (`leftovers::PristineSlot`); the others keep a copy of their own.
//! State: the kept folder. Cost: one comparison per file (a few megabytes
//! read), then only the builds of what changed.

use crate::workspace::{BIN, Workspace};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// `copy` (made fresh) moved into `slot`, the pristine copy an earlier run
/// left, file by file: a file whose bytes the slot already holds keeps
/// the slot's (and so its time: cargo finds its last build there still
/// fresh, and rebuilds only what changed), every other file replaces the
/// slot's, and what the fresh copy lacks is removed, empty folders too
/// (an empty chapter folder would still be a workspace member), but for
/// the earlier builds' `bin/`, which each build rewrites. The fresh
/// copy's folder is gone after. Cost: one comparison per file (a few
/// megabytes read).
pub fn settle(copy: Workspace, slot: &Path) -> Result<Workspace> {
    std::fs::create_dir_all(slot).with_context(|| format!("cannot create {}", slot.display()))?;
    let mut fresh = Vec::new();
    files_under(&copy.dir, Path::new(""), &mut fresh)?;
    for rel in &fresh {
        let (from, to) = (copy.dir.join(rel), slot.join(rel));
        if same_bytes(&from, &to) {
            continue;
        }
        if std::fs::symlink_metadata(&to).is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(&to)?;
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::rename(&from, &to)
            .with_context(|| format!("cannot move {} into {}", from.display(), slot.display()))?;
    }
    let mut kept = Vec::new();
    files_under(slot, Path::new(""), &mut kept)?;
    let fresh: std::collections::BTreeSet<&PathBuf> = fresh.iter().collect();
    for rel in kept
        .iter()
        .filter(|r| !r.starts_with(BIN) && !fresh.contains(r))
    {
        std::fs::remove_file(slot.join(rel))
            .with_context(|| format!("cannot remove {}", slot.join(rel).display()))?;
    }
    remove_empty_dirs(slot)?;
    let _ = std::fs::remove_dir_all(&copy.dir);
    Ok(Workspace {
        dir: slot.to_path_buf(),
    })
}

/// Every file under `dir/rel`, as paths relative to `dir` (links skipped).
fn files_under(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let here = dir.join(rel);
    for entry in
        std::fs::read_dir(&here).with_context(|| format!("cannot list {}", here.display()))?
    {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = rel.join(entry.file_name());
        if kind.is_dir() {
            files_under(dir, &path, out)?;
        } else if kind.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether two files hold the same bytes (false when either is missing).
fn same_bytes(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    ma.is_file()
        && mb.is_file()
        && ma.len() == mb.len()
        && matches!((std::fs::read(a), std::fs::read(b)), (Ok(x), Ok(y)) if x == y)
}

/// Removes every empty folder under `dir` (not `dir` itself), deepest first.
fn remove_empty_dirs(dir: &Path) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            let path = entry.path();
            remove_empty_dirs(&path)?;
            if std::fs::read_dir(&path)?.next().is_none() {
                std::fs::remove_dir(&path)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A second settle keeps the files it already has (their times too),
    /// replaces a changed one, and removes what the new copy lacks, empty
    /// folders included, but not the builds' `bin/`.
    #[test]
    fn settling_into_the_kept_copy_touches_only_what_changed() {
        let tmp = std::env::temp_dir().join(format!("settle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let write = |dir: &Path, rel: &str, text: &str| {
            let p = dir.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        let slot = tmp.join("pristine");
        let first = tmp.join("fresh-1");
        write(&first, "Cargo.toml", "a");
        write(&first, "exercises/00_intro/src/lib.rs", "same");
        write(&first, "exercises/01_apples/src/lib.rs", "gone next time");
        settle(Workspace { dir: first.clone() }, &slot).unwrap();
        write(&slot, "bin/00_intro/judge", "built");
        let kept = std::fs::metadata(slot.join("exercises/00_intro/src/lib.rs"))
            .unwrap()
            .modified()
            .unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let second = tmp.join("fresh-2");
        write(&second, "Cargo.toml", "b");
        write(&second, "exercises/00_intro/src/lib.rs", "same");
        let ws = settle(
            Workspace {
                dir: second.clone(),
            },
            &slot,
        )
        .unwrap();
        assert_eq!(ws.dir, slot);
        assert!(
            !first.exists() && !second.exists(),
            "the fresh copies are gone"
        );
        assert_eq!(
            std::fs::read_to_string(slot.join("Cargo.toml")).unwrap(),
            "b"
        );
        let now = std::fs::metadata(slot.join("exercises/00_intro/src/lib.rs"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(now, kept, "an unchanged file keeps its time");
        assert!(
            !slot.join("exercises/01_apples").exists(),
            "a chapter the copy lacks is gone"
        );
        assert!(
            slot.join("bin/00_intro/judge").exists(),
            "the builds' bin/ stays"
        );
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
