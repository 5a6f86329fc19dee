//! A grading slot: a pristine copy of the workbook that one worker reuses
//! for learner after learner, and the build that turns it into test binaries.
//!
//! The copy holds only the instructor's files (manifests, lock file, cargo
//! config, suites, snapshots, solutions). Before each learner, every
//! chapter's `src/` is replaced: by the learner's files when they sent that
//! chapter, else by the pristine stubs. Hidden suites are wired in as extra
//! `[[test]]` targets that may also use the reference crate. All slots share
//! one target directory, so the dependencies are compiled once for the whole
//! class; cargo's lock on it serialises the builds, and each build's test
//! binaries are copied into the slot before the next build can replace them.

use super::submission::{Submission, check_relative};
use crate::info::Chapter;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the grader copies from the workbook root.
const COPIED: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    ".cargo",
    "rust-toolchain.toml",
    "rust-toolchain",
    "workbook",
    "exercises",
    "solutions",
    "tests",
];

pub struct Slot {
    pub dir: PathBuf,
}

/// One chapter's build: its test binaries by target name, or the errors.
#[derive(Debug, Default, Clone)]
pub struct ChapterBuild {
    pub binaries: BTreeMap<String, PathBuf>,
    pub errors: Vec<String>,
}

impl Slot {
    /// A fresh pristine copy of `root` at `dir`, with the hidden suites wired.
    pub fn create(
        root: &Path,
        dir: &Path,
        chapters: &[Chapter],
        hidden: Option<&Path>,
    ) -> Result<Self> {
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        std::fs::create_dir_all(dir)?;
        for name in COPIED {
            let from = root.join(name);
            if from.exists() {
                copy_tree(&from, &dir.join(name))?;
            }
        }
        let slot = Slot {
            dir: dir.to_path_buf(),
        };
        if let Some(hidden) = hidden {
            copy_tree(hidden, &dir.join("grading/hidden"))?;
            for c in chapters {
                if dir
                    .join("grading/hidden")
                    .join(format!("{}.rs", c.chapter.slug))
                    .is_file()
                {
                    slot.wire_hidden(c)?;
                }
            }
        }
        Ok(slot)
    }

    /// Adds `[[test]] hidden_<slug>` and the reference as a dev-dependency.
    fn wire_hidden(&self, c: &Chapter) -> Result<()> {
        let manifest = self
            .dir
            .join("exercises")
            .join(c.folder())
            .join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest)?;
        let mut doc: toml::Table = text
            .parse()
            .with_context(|| format!("{} is not valid TOML", manifest.display()))?;
        let slug = &c.chapter.slug;
        let mut target = toml::Table::new();
        target.insert("name".into(), format!("hidden_{slug}").into());
        target.insert(
            "path".into(),
            format!("../../grading/hidden/{slug}.rs").into(),
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
            format!("../../solutions/{}", c.folder()).into(),
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

    /// Puts the learner's sources (or the pristine stubs) into every chapter.
    pub fn load(
        &self,
        root: &Path,
        chapters: &[Chapter],
        sub: Option<&Submission>,
        use_stubs: &[String],
    ) -> Result<()> {
        for c in chapters {
            let folder = c.folder();
            let src = self.dir.join("exercises").join(&folder).join("src");
            if src.exists() {
                std::fs::remove_dir_all(&src)?;
            }
            let files = sub
                .and_then(|s| s.chapters.get(&folder))
                .filter(|_| !use_stubs.contains(&folder));
            match files {
                Some(files) => {
                    for (rel, bytes) in files {
                        check_relative(rel)?;
                        let path = src.join(rel);
                        if let Some(parent) = path.parent() {
                            std::fs::create_dir_all(parent)?;
                        }
                        std::fs::write(&path, bytes)?;
                    }
                }
                None => copy_tree(&root.join("exercises").join(&folder).join("src"), &src)?,
            }
        }
        Ok(())
    }

    /// Builds every chapter's test targets, offline and locked, and copies
    /// the binaries into `bin/`. A chapter that fails keeps its errors, with
    /// paths relative to the workspace; the others still build.
    pub fn build(
        &self,
        chapters: &[Chapter],
        target_dir: &Path,
    ) -> Result<BTreeMap<String, ChapterBuild>> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        // Cargo names a workspace crate's artifacts by its path relative to the
        // workspace, so every slot's `intro` is the same unit to it, and a
        // learner's build could be taken as fresh after another slot's. Cleaning
        // the learners' packages first forces the rebuild (dependencies stay).
        let mut clean = Command::new(&cargo);
        clean
            .current_dir(&self.dir)
            .args(["clean", "--offline", "-q"])
            .arg("--target-dir")
            .arg(target_dir);
        for c in chapters {
            clean.args(["-p", c.package()]);
        }
        let cleaned = clean.output().context("cannot run cargo clean")?;
        if !cleaned.status.success() {
            bail!(
                "cargo clean failed: {}",
                String::from_utf8_lossy(&cleaned.stderr)
            );
        }
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(&self.dir).args([
            "build",
            "--offline",
            "--locked",
            "--keep-going",
            "--message-format",
            "json",
            "--test",
            "*",
        ]);
        for c in chapters {
            cmd.args(["-p", c.package()]);
        }
        cmd.arg("--target-dir").arg(target_dir);
        cmd.env("CARGO_TERM_COLOR", "never")
            .env("INSTA_UPDATE", "no")
            .env("CI", "true");
        let out = cmd.output().context("cannot run cargo build")?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let prefix = format!("{}/", self.dir.display());
        let mut builds: BTreeMap<String, ChapterBuild> = chapters
            .iter()
            .map(|c| (c.folder(), ChapterBuild::default()))
            .collect();
        let bin = self.dir.join("bin");
        std::fs::create_dir_all(&bin)?;
        for line in stdout.lines() {
            let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let folder = msg["manifest_path"].as_str().and_then(exercise_folder);
            let Some(build) = folder.and_then(|f| builds.get_mut(&f)) else {
                continue;
            };
            match msg["reason"].as_str() {
                Some("compiler-artifact") => {
                    let is_test = msg["target"]["kind"]
                        .as_array()
                        .is_some_and(|k| k.iter().any(|k| k == "test"));
                    if let (true, Some(exe), Some(name)) = (
                        is_test,
                        msg["executable"].as_str(),
                        msg["target"]["name"].as_str(),
                    ) {
                        let copy = bin.join(name);
                        std::fs::copy(exe, &copy).with_context(|| format!("cannot copy {exe}"))?;
                        build.binaries.insert(name.to_string(), copy);
                    }
                }
                Some("compiler-message") if msg["message"]["level"].as_str() == Some("error") => {
                    let text = msg["message"]["rendered"].as_str().unwrap_or_default();
                    build
                        .errors
                        .push(text.replace(&prefix, "").trim_end().to_string());
                }
                _ => {}
            }
        }
        for c in chapters {
            let b = builds.entry(c.folder()).or_default();
            if !b.binaries.contains_key(c.package()) && b.errors.is_empty() {
                let stderr = String::from_utf8_lossy(&out.stderr).replace(&prefix, "");
                let tail: Vec<&str> = stderr
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("Compiling"))
                    .collect();
                b.errors
                    .push(format!("the build failed:\n{}", tail.join("\n")));
            }
        }
        Ok(builds)
    }
}

/// `00_intro` for `.../exercises/00_intro/Cargo.toml`; None for other crates.
fn exercise_folder(manifest: &str) -> Option<String> {
    let dir = Path::new(manifest).parent()?;
    (dir.parent()?.file_name()? == "exercises")
        .then(|| dir.file_name()?.to_str().map(str::to_string))?
}

/// The test names in a suite binary (`--list`), run on the pristine build.
pub fn list_tests(binary: &Path) -> Result<Vec<String>> {
    let out = Command::new(binary)
        .args(["--list", "--format", "terse"])
        .env_clear()
        .output()?;
    if !out.status.success() {
        bail!("cannot list the tests of {}", binary.display());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
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
