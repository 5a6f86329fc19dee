//! The dependencies a learner's build needs, compiled once for the class,
//! and each worker's own target directory made of links to them.
//!
//! Cargo locks a target directory for a whole build, and a learner's crate
//! is the same unit to cargo whoever wrote it, so learners' builds in one
//! shared target directory had to take turns: one learner whose build never
//! ends held the class. Here each worker builds in a target directory of its
//! own (`TARGET/work/PID-wN-target`), so builds run side by side and one slow
//! learner holds one worker.
//!
//! What makes that cheap is the seed. Before any learner, the grader builds
//! every chapter's subject from the pristine stubs, with exactly the command
//! a learner's build uses, in the shared target directory (`prepare`'s
//! `build_seed`): every dependency unit a learner's build can need is then
//! compiled there, once. A worker's
//! target directory is a skeleton of symbolic links to those units (the
//! chapter's own crate excluded, so it is always compiled from the learner's
//! source); the build sandbox binds the shared directory read-only, so a
//! build can read the dependencies and never change them. Cost: one link per
//! unit file per worker, made once per run, and no dependency compiled twice.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The folders of a cargo target directory that hold compiled units.
const UNIT_DIRS: &[&str] = &["deps", ".fingerprint", "build"];

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

    /// Makes `dir` a target directory whose units are links into the seed
    /// (whatever was there goes); returns it.
    pub fn worker_target(&self, dir: &Path) -> Result<PathBuf> {
        if std::fs::symlink_metadata(dir).is_ok() {
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        for sub in UNIT_DIRS {
            let from = self.debug.join(sub);
            let to = dir.join("debug").join(sub);
            std::fs::create_dir_all(&to)
                .with_context(|| format!("cannot create {}", to.display()))?;
            let Ok(entries) = std::fs::read_dir(&from) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name();
                if self.is_own(&name.to_string_lossy()) {
                    continue;
                }
                std::os::unix::fs::symlink(e.path(), to.join(&name)).with_context(|| {
                    format!("cannot link {} into {}", e.path().display(), to.display())
                })?;
            }
        }
        Ok(dir.to_path_buf())
    }
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
        let dir = seed.worker_target(&tmp.path().join("w0")).unwrap();
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
}
