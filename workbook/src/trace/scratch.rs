//! The scratch build `workbook trace` runs: a copy of the learner's chapter
//! and one of the reference, each rewritten to record its calls.
//!
//! The problem: run the learner's code with a recorder in it without
//! touching their files or their target directory, and fast enough to use
//! on every mistake. The state is one folder, `TARGET/trace/` (TARGET is
//! `$CARGO_TARGET_DIR` or the workspace's `target/`): a workspace of two
//! members (`learner/`, `reference/`) with the root's dependency versions,
//! lock file and profiles, and its own `target/`, so the chapter's
//! dependencies are compiled once and a warm trace only recompiles the two
//! small crates. Files are rewritten only when their text changes, so cargo
//! sees nothing new when nothing is. Each run gets a time limit; a stack
//! overflow is told from the child's last words.

use super::events::{self, Ending, Run};
use super::rewrite;
use super::specs::{self, DRIVER_PRELUDE, Spec};
use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use workbook_core::info::Chapter;
use workbook_core::stubs;

/// How long one recorded run may take, in seconds:
/// `WORKBOOK_TRACE_SECONDS` or 10.
fn time_limit() -> Duration {
    let secs = std::env::var("WORKBOOK_TRACE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s: &u64| s > 0)
        .unwrap_or(10);
    Duration::from_secs(secs)
}

/// The two copies, ready to build.
pub struct Scratch {
    /// The chapter's workspace: `TARGET/trace/SLUG`.
    pub dir: PathBuf,
    /// The target directory every chapter's scratch build shares.
    pub target: PathBuf,
    /// The chapter's slug, part of each package's name.
    pub slug: String,
    /// Held while this trace writes, builds and runs the copies, so two
    /// traces of one chapter never mix their sources.
    _lock: std::fs::File,
}

/// One side's source files: relative path and text.
pub type Files = Vec<(PathBuf, String)>;

/// What a build said, when it failed: the first error, with the copy's
/// paths turned back into the learner's.
pub struct BuildError(pub String);

/// The learner's chapter sources in `src`, as they are now (never written to).
pub fn learner_files(src: &Path) -> Result<Files> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(src).with_context(|| {
        crate::words::lang().fill("cannot list {path}", &[("path", &src.display())])
    })? {
        let path = entry?.path();
        if path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path).with_context(|| {
                crate::words::lang().fill("cannot read {path}", &[("path", &path.display())])
            })?;
            let name = path.file_name().map(PathBuf::from).unwrap_or_default();
            files.push((name, text));
        }
    }
    Ok(files)
}

/// The reference's sources as a learner would hand them in.
pub fn reference_files(chapter: &Chapter) -> Result<Files> {
    Ok(stubs::learner_reference(chapter)?
        .into_iter()
        .map(|f| (f.relative, f.text))
        .collect())
}

impl Scratch {
    /// Writes the scratch workspace for `spec` under `target/trace/`.
    pub fn prepare(
        root: &Path,
        chapter: &Chapter,
        spec: &Spec,
        learner: &Files,
        reference: &Files,
    ) -> Result<Scratch> {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .map(|t| if t.is_absolute() { t } else { root.join(t) })
            .unwrap_or_else(|| root.join("target"));
        let slug = chapter.chapter.slug.clone();
        let dir = target.join("trace").join(&slug);
        std::fs::create_dir_all(&dir).with_context(|| {
            crate::words::lang().fill("cannot create {path}", &[("path", &dir.display())])
        })?;
        let guard = std::fs::File::create(dir.join(".lock")).with_context(|| {
            crate::words::lang().fill(
                "cannot create {path}",
                &[("path", &dir.join(".lock").display())],
            )
        })?;
        // std's advisory lock (flock on unix), held until `guard` drops.
        guard.lock().with_context(|| {
            crate::words::lang().fill(
                "cannot lock {path}",
                &[("path", &dir.join(".lock").display())],
            )
        })?;
        write_if_changed(&dir.join("Cargo.toml"), &workspace_manifest(root)?)?;
        let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
        if !dir.join("Cargo.lock").exists() {
            write_if_changed(&dir.join("Cargo.lock"), &lock)?;
        }
        let manifest =
            std::fs::read_to_string(chapter.dir.join("Cargo.toml")).with_context(|| {
                crate::words::lang().fill(
                    "cannot read {path}",
                    &[("path", &chapter.dir.join("Cargo.toml").display())],
                )
            })?;
        for (side, files) in [("learner", learner), ("reference", reference)] {
            let crate_dir = dir.join(side);
            let package = format!("trace_{slug}_{side}");
            write_if_changed(
                &crate_dir.join("Cargo.toml"),
                &member_manifest(&manifest, &package)?,
            )?;
            write_sources(&crate_dir.join("src"), spec, files, &package)?;
        }
        Ok(Scratch {
            dir,
            target: target.join("trace").join("target"),
            slug,
            _lock: guard,
        })
    }

    /// Builds both copies; a learner's compile error is a [`BuildError`].
    pub fn build(&self) -> Result<std::result::Result<(), BuildError>> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(&cargo)
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("RUSTFLAGS")
            .args([
                "build",
                "--workspace",
                "--bins",
                "--message-format",
                "short",
                "-q",
            ])
            .stdin(Stdio::null())
            .output()
            .with_context(|| {
                crate::words::lang().fill("cannot run {program}", &[("program", &"cargo")])
            })?;
        if out.status.success() {
            return Ok(Ok(()));
        }
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        if said
            .lines()
            .any(|l| l.starts_with("learner/") && l.contains("error"))
        {
            return Ok(Err(BuildError(first_error(&said))));
        }
        bail!(
            "{}",
            crate::words::lang().fill(
                "the scratch build of the trace failed:\n{said}",
                &[("said", &said)]
            )
        );
    }

    /// Runs instance `index` of one side (`learner` or `reference`).
    pub fn run(&self, side: &str, index: usize) -> Result<Run> {
        let bin = self
            .target
            .join("debug")
            .join(format!("trace_{}_{side}", self.slug));
        let events_file = self.dir.join(format!("{side}-{index}.events"));
        let _ = std::fs::remove_file(&events_file);
        let mut child = Command::new(&bin)
            .arg(&events_file)
            .arg(index.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| {
                crate::words::lang().fill("cannot run {program}", &[("program", &bin.display())])
            })?;
        let started = Instant::now();
        let limit = time_limit();
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break Some(status);
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut stderr);
        }
        let ended = match status {
            None => Ending::TimedOut(limit.as_secs()),
            Some(_) if stderr.contains("has overflowed its stack") => Ending::Overflowed,
            Some(s) => Ending::Died(format!(
                "{s}{}",
                stderr
                    .lines()
                    .last()
                    .map(|l| format!(": {l}"))
                    .unwrap_or_default()
            )),
        };
        let text = std::fs::read_to_string(&events_file).unwrap_or_default();
        Ok(events::read(&text, ended))
    }
}

/// The first error cargo printed (short format: `path:line:col: error...`),
/// with its path the learner's own.
fn first_error(said: &str) -> String {
    let line = said
        .lines()
        .find(|l| l.contains(": error"))
        .or_else(|| said.lines().find(|l| l.starts_with("error")))
        .unwrap_or(crate::words::lang().tr("the build failed"));
    line.replacen("learner/src/", "src/", 1)
}

/// The root manifest with the two members instead of the workbook's.
fn workspace_manifest(root: &Path) -> Result<String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).with_context(|| {
        crate::words::lang().fill("cannot read {path}", &[("path", &"Cargo.toml")])
    })?;
    let mut doc: toml::Table = toml::from_str(&text).with_context(|| {
        crate::words::lang().fill("cannot parse {path}", &[("path", &"Cargo.toml")])
    })?;
    let Some(toml::Value::Table(ws)) = doc.get_mut("workspace") else {
        bail!(
            "{}",
            crate::words::lang().tr("the root Cargo.toml has no [workspace]")
        );
    };
    ws.insert(
        "members".into(),
        toml::Value::Array(vec!["learner".into(), "reference".into()]),
    );
    ws.remove("default-members");
    ws.insert("resolver".into(), "3".into());
    Ok(toml::to_string(&doc)?)
}

/// A member's manifest: the chapter's own dependencies, no tests, the
/// recorder's binary.
fn member_manifest(chapter_manifest: &str, name: &str) -> Result<String> {
    let doc: toml::Table = toml::from_str(chapter_manifest).with_context(|| {
        crate::words::lang().fill("cannot parse {path}", &[("path", &"Cargo.toml")])
    })?;
    let mut deps = toml::Table::new();
    if let Some(toml::Value::Table(d)) = doc.get("dependencies") {
        for (name, spec) in d {
            let optional = spec
                .get("optional")
                .and_then(|o| o.as_bool())
                .unwrap_or(false);
            if !optional {
                deps.insert(name.clone(), spec.clone());
            }
        }
    }
    let mut out = toml::Table::new();
    let mut package = toml::Table::new();
    package.insert("name".into(), name.into());
    package.insert("version".into(), "0.1.0".into());
    let mut edition = toml::Table::new();
    edition.insert("workspace".into(), true.into());
    package.insert("edition".into(), edition.into());
    package.insert("publish".into(), false.into());
    out.insert("package".into(), package.into());
    let mut lib = toml::Table::new();
    lib.insert("path".into(), "src/lib.rs".into());
    lib.insert("doctest".into(), false.into());
    lib.insert("test".into(), false.into());
    out.insert("lib".into(), lib.into());
    let mut bin = toml::Table::new();
    bin.insert("name".into(), name.into());
    bin.insert("path".into(), "src/__wb_main.rs".into());
    bin.insert("test".into(), false.into());
    out.insert("bin".into(), toml::Value::Array(vec![bin.into()]));
    out.insert("dependencies".into(), deps.into());
    Ok(toml::to_string(&out)?)
}

/// One side's sources: the traced functions rewritten, the recorder, the
/// driver and its `main`.
fn write_sources(src: &Path, spec: &Spec, files: &Files, package: &str) -> Result<()> {
    let keys: BTreeSet<&str> = spec.traced.iter().copied().collect();
    let mut found = BTreeSet::new();
    for (rel, text) in files {
        if rel.as_os_str() == "main.rs" {
            continue;
        }
        let mut text = match rewrite::instrument(text, &keys, spec.hidden, &specs::state_of(spec)) {
            Ok((out, names)) => {
                found.extend(names);
                out
            }
            // A file that does not parse is left for rustc to explain.
            Err(_) => text.clone(),
        };
        if rel.as_os_str() == "lib.rs" {
            text.push_str(
                "\n#[doc(hidden)]\npub mod __wb_trace;\n#[doc(hidden)]\npub mod __wb_driver;\n",
            );
        }
        write_if_changed(&src.join(rel), &text)?;
    }
    write_if_changed(&src.join("__wb_trace.rs"), include_str!("recorder.rs"))?;
    let arms: String = spec
        .instances
        .iter()
        .enumerate()
        .map(|(i, (_, body))| format!("        {i} => {{ {body} }}\n"))
        .collect();
    write_if_changed(
        &src.join("__wb_driver.rs"),
        &format!(
            "//! The trace's driver: runs one instance.\n{DRIVER_PRELUDE}\n\
             pub fn run(instance: usize) {{\n    match instance {{\n{arms}        _ => {{}}\n    }}\n}}\n"
        ),
    )?;
    write_if_changed(
        &src.join("__wb_main.rs"),
        &format!(
            "//! The trace's program: `EVENTS_FILE INSTANCE`.\n\
             fn main() {{\n    let instance = std::env::args().nth(2).and_then(|i| i.parse().ok()).unwrap_or(0);\n    \
             {package}::__wb_trace::main(|| {package}::__wb_driver::run(instance));\n}}\n"
        ),
    )?;
    let _ = found;
    Ok(())
}

/// Writes `text` to `path` unless it already holds exactly that (so cargo
/// sees an unchanged file as unchanged).
fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| {
            crate::words::lang().fill("cannot create {path}", &[("path", &parent.display())])
        })?;
    }
    std::fs::write(path, text).with_context(|| {
        crate::words::lang().fill("cannot write {path}", &[("path", &path.display())])
    })
}
