//! The grader's copies of the workbook (the builds that turn them into
//! test binaries are `workspace/build.rs`).
//!
//! The pristine copy (`TARGET/pristine`, kept between runs: see
//! `kept.rs`) holds only the instructor's files
//! (manifests, lock file, cargo config, suites, snapshots, solutions, the
//! stubs), with the hidden suites wired in as extra `[[test]]` targets that
//! may also use the reference crate. It is built once with the stubs, which
//! compiles the shared dependencies and lists the graded tests. Each learner
//! then gets a throwaway copy of it (`TARGET/work/wN`, wiped before every
//! learner, so nothing one learner's build or tests leave behind reaches the
//! next), with the intake's assembled sources in place, every chapter's
//! subject in one cargo run inside the sandbox under a wall-clock limit, in
//! the worker's own target directory (see `seed.rs`: the dependencies
//! compile once for the whole class, and workers never wait for each
//! other). Cost: one copy of a few megabytes and one `cargo build` per
//! learner.

use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use workbook_core::info::Chapter;

mod build;

pub use build::{BuildBounds, BuildEnv, ChapterBuild, SUBJECT_PROFILE};

/// What the grader copies from the workbook root. The tools' crates are
/// never built in a copy, but cargo loads every member of the workspace
/// (a manifest and the targets it infers) before it builds one chapter.
const COPIED: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    ".cargo",
    "rust-toolchain.toml",
    "rust-toolchain",
    "core",
    "workbook",
    "grading/Cargo.toml",
    "grading/src",
    "grading/benches",
    "xtask/Cargo.toml",
    "xtask/src",
    "exercises",
    "solutions",
    "tests",
];

/// The folder of a copy where its builds' test binaries are copied to, one
/// folder per chapter: the grader's own, beside the workbook's layout.
pub(crate) const BIN: &str = "bin";

/// One copy of the workbook on disk.
pub struct Workspace {
    pub dir: PathBuf,
}

impl Workspace {
    /// A fresh pristine copy of `root` at `dir`, with the hidden suites wired.
    pub fn pristine(
        root: &Path,
        dir: &Path,
        chapters: &[Chapter],
        stubs: &[BTreeMap<PathBuf, String>],
        hidden: Option<&Path>,
    ) -> Result<Self> {
        wipe(dir)?;
        for name in COPIED {
            let from = root.join(name);
            if from.exists() {
                copy_tree(&from, &dir.join(name))?;
            }
        }
        let ws = Workspace {
            dir: dir.to_path_buf(),
        };
        // The judge's copy of each chapter, from the derived stubs: every
        // stub calls the subject.
        for (c, files) in chapters.iter().zip(stubs) {
            let keys = c.all_stubs().keys().map(|k| k.to_string()).collect();
            let judge = crate::judge::judge_sources(files, &keys)
                .with_context(|| format!("cannot make the judge of {}", c.folder()))?;
            ws.load(c, &judge)?;
        }
        if let (Some(hidden), Some(first)) = (hidden, chapters.first()) {
            // Wherever the config reads them from, the copy holds the
            // hidden suites where a chapter's hidden suite is by default
            // (one folder for every chapter, with what they share).
            let folder = ws.chapter(first).hidden_suite();
            if let Some(folder) = folder.parent() {
                copy_tree(hidden, folder)?;
            }
            for c in chapters {
                if ws.chapter(c).hidden_suite().is_file() {
                    ws.wire_hidden(c)?;
                }
            }
        }
        Ok(ws)
    }

    /// A throwaway copy of this workspace at `dir` (whatever was there goes).
    pub fn copy_to(&self, dir: &Path) -> Result<Workspace> {
        wipe(dir)?;
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            // The pristine build's binaries are not the learner's to run.
            if entry.file_name() != BIN {
                copy_tree(&entry.path(), &dir.join(entry.file_name()))?;
            }
        }
        Ok(Workspace {
            dir: dir.to_path_buf(),
        })
    }

    /// Removes this copy from disk.
    pub fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    /// Downloads what the locked build needs, so the offline builds that
    /// follow work on a fresh clone. Only the instructor's manifests are read.
    pub fn fetch(&self) -> Result<()> {
        let out = Command::new(cargo())
            .current_dir(&self.dir)
            .args(["fetch", "--locked", "-q"])
            .stdin(Stdio::null())
            .output()
            .context("cannot run cargo fetch")?;
        if !out.status.success() {
            bail!(
                "cannot download the dependencies the grader builds with (`cargo fetch --locked` failed: {}); \
                 run `cargo fetch` once in the workbook with network access, then grade again",
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(())
    }

    /// Adds `[[test]] hidden_<slug>` and the reference as a dev-dependency.
    fn wire_hidden(&self, c: &Chapter) -> Result<()> {
        let here = self.chapter(c);
        let manifest = here.stub_dir().join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest)?;
        let mut doc: toml::Table = text
            .parse()
            .with_context(|| format!("{} is not valid TOML", manifest.display()))?;
        let mut target = toml::Table::new();
        target.insert("name".into(), crate::record::Suite::Hidden.target(c).into());
        target.insert(
            "path".into(),
            self.manifest_path(&here, &here.hidden_suite())?.into(),
        );
        let tests = doc
            .entry("test")
            .or_insert_with(|| toml::Value::Array(Vec::new()));
        if let toml::Value::Array(list) = tests {
            list.push(toml::Value::Table(target));
        }
        let mut dep = toml::Table::new();
        dep.insert(
            "path".into(),
            self.manifest_path(&here, &here.reference_dir())?.into(),
        );
        let dev = doc
            .entry("dev-dependencies")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(dev) = dev {
            dev.insert(c.solution_package(), toml::Value::Table(dep));
        }
        std::fs::write(&manifest, toml::to_string(&doc)?)?;
        Ok(())
    }

    /// Chapter `c` in this copy: every place of it, from `Chapter`'s
    /// methods (the copy keeps the checkout's layout).
    pub fn chapter(&self, c: &Chapter) -> Chapter {
        c.in_copy(&self.dir)
    }

    /// The learner's crate of chapter `c` in this copy.
    pub fn chapter_dir(&self, c: &Chapter) -> PathBuf {
        self.chapter(c).stub_dir().to_path_buf()
    }

    /// Where the test binaries of the chapter in folder `folder` are
    /// copied after a build.
    pub fn bin_dir(&self, folder: &str) -> PathBuf {
        self.dir.join(BIN).join(folder)
    }

    /// `to`, a place of this copy, as a manifest in the crate of `here`
    /// names it: relative to the crate's folder (`../../solutions/NN_slug`).
    fn manifest_path(&self, here: &Chapter, to: &Path) -> Result<String> {
        let inside = |p: &Path| {
            p.strip_prefix(&self.dir)
                .map(Path::to_path_buf)
                .with_context(|| {
                    format!("{} is not in the copy {}", p.display(), self.dir.display())
                })
        };
        let up: PathBuf = inside(here.stub_dir())?
            .components()
            .map(|_| Path::new(".."))
            .collect();
        Ok(up.join(inside(to)?).to_string_lossy().into_owned())
    }

    /// Adds the subject's binary target to a chapter's manifest.
    pub fn add_subject_bin(&self, c: &Chapter) -> Result<()> {
        let manifest = self.chapter_dir(c).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest)?;
        std::fs::write(&manifest, crate::judge::subject_manifest(&text)?)?;
        Ok(())
    }

    /// Replaces a chapter's `src/` with `files` (paths under `src/`).
    pub fn load(&self, c: &Chapter, files: &BTreeMap<PathBuf, String>) -> Result<()> {
        let src = self.chapter_dir(c).join("src");
        wipe(&src)?;
        for (rel, text) in files {
            if rel
                .components()
                .any(|p| !matches!(p, std::path::Component::Normal(_)))
            {
                bail!("refusing to write outside the workspace: {}", rel.display());
            }
            let path = src.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, text)?;
        }
        Ok(())
    }
}

/// The cargo to build with, as an absolute path: the sandbox binds the
/// folder it lives in, and a bare name would be looked up there in vain.
fn cargo() -> PathBuf {
    if let Some(c) = std::env::var_os("CARGO") {
        return PathBuf::from(c);
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("cargo"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("cargo"))
}

fn wipe(dir: &Path) -> Result<()> {
    if std::fs::symlink_metadata(dir).is_ok() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot clear {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(())
}

/// Copies a tree, skipping `target` folders and symlinks.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.is_file() {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(from, to).with_context(|| format!("cannot copy {}", from.display()))?;
        return Ok(());
    }
    if !meta.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        copy_tree(&entry.path(), &to.join(name))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copys_manifest_names_the_hidden_suite_and_the_reference_from_its_crate() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let chapters = workbook_core::info::load_chapters(&root).unwrap();
        let c = &chapters[0];
        let ws = Workspace {
            dir: PathBuf::from("/grade/pristine-1"),
        };
        let here = ws.chapter(c);
        assert_eq!(ws.chapter_dir(c), ws.dir.join("exercises").join(c.folder()));
        let slug = &c.chapter.slug;
        assert_eq!(
            ws.manifest_path(&here, &here.hidden_suite()).unwrap(),
            format!("../../grading/hidden/{slug}.rs")
        );
        assert_eq!(
            ws.manifest_path(&here, &here.reference_dir()).unwrap(),
            format!("../../solutions/{}", c.folder())
        );
        assert!(
            ws.manifest_path(&here, &c.suite()).is_err(),
            "not in the copy"
        );
    }
}
