//! The rule "each exercise's tests fail when that exercise alone is a stub".
//!
//! The problem: a suite can pass the all-stubs check and still give a point
//! away, when a test of exercise A only fails because exercise B is a stub
//! (a learner who has solved B gets A's test free). The state: one scratch
//! workspace per chapter under `target/isolation/`, holding the chapter's
//! exercise crate whose `src/` is the reference with only one exercise's
//! functions stubbed; the suite and the solution crate are linked in, not
//! copied. For each exercise: write its partial stub, build and run the
//! suite once, and require every test of that exercise to fail. Cost: one
//! build of the exercise crate and its suite per exercise (the dependencies
//! are built once, in `target/isolation/target`).

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use workbook_core::info::Chapter;
use workbook_core::runner::{Target, Verdict, run_suite_in};
use workbook_core::stubs;

/// Problems with `chapter`: tests that pass while their own exercise is
/// the only stub.
pub fn problems(root: &Path, chapter: &Chapter) -> Result<Vec<String>> {
    let scratch = root.join("target/isolation");
    let workspace = scaffold(root, &scratch, chapter)?;
    let pkg = chapter.package();
    let mut problems = Vec::new();
    for exercise in &chapter.exercises {
        let mut alone = chapter.clone();
        alone.exercises = vec![exercise.clone()];
        write_src(&workspace, chapter, &stubs::generate_with(&alone, true)?)?;
        eprintln!("check: {pkg}: only `{}` stubbed...", exercise.name);
        let run = run_suite_in(
            &workspace,
            pkg,
            Target::Learner,
            Some(&scratch.join("target")),
        )?;
        if let Some(err) = &run.build_error {
            problems.push(format!(
                "{pkg}: with only `{}` stubbed the crate does not build:\n{err}",
                exercise.name
            ));
            continue;
        }
        let prefix = format!("{}::", exercise.name);
        for (name, verdict) in &run.tests {
            if name.starts_with(&prefix) && *verdict == Verdict::Passed {
                problems.push(format!(
                    "{pkg}: {name} passes while `{}` alone is a stub (every other exercise solved), so it gives a point away",
                    exercise.name
                ));
            }
        }
    }
    Ok(problems)
}

/// The scratch workspace of one chapter: a manifest naming only its
/// exercise crate, the lock file and cargo config, and links to the suite
/// and the solution. Returns its root.
pub(super) fn scaffold(root: &Path, scratch: &Path, chapter: &Chapter) -> Result<PathBuf> {
    let ws = scratch.join(chapter.folder());
    let crate_dir = ws.join("exercises").join(chapter.folder());
    std::fs::create_dir_all(&crate_dir)
        .with_context(|| format!("cannot create {}", crate_dir.display()))?;
    std::fs::create_dir_all(ws.join("solutions"))?;
    std::fs::create_dir_all(ws.join(".cargo"))?;
    let mut manifest = read_manifest(&root.join("Cargo.toml"))?;
    if let Some(w) = manifest.get_mut("workspace").and_then(|w| w.as_table_mut()) {
        let member = format!("exercises/{}", chapter.folder());
        w.insert("members".into(), toml::Value::Array(vec![member.into()]));
        w.remove("default-members");
    }
    std::fs::write(ws.join("Cargo.toml"), toml::to_string(&manifest)?)?;
    for file in ["Cargo.lock", ".cargo/config.toml"] {
        if root.join(file).is_file() {
            std::fs::copy(root.join(file), ws.join(file))?;
        }
    }
    // The suite reads info.toml too (its closing "start with" line).
    std::fs::copy(chapter.dir.join("info.toml"), crate_dir.join("info.toml"))?;
    std::fs::write(crate_dir.join("Cargo.toml"), scratch_manifest(chapter)?)?;
    link(&root.join("tests"), &ws.join("tests"))?;
    // Every folder under solutions/, not only this chapter's: a solution
    // crate depends on its neighbours by path (the book's trace writer, the
    // examples' measure), and cargo reads their manifests to load the
    // workspace.
    for entry in std::fs::read_dir(root.join("solutions"))? {
        let entry = entry?;
        link(&entry.path(), &ws.join("solutions").join(entry.file_name()))?;
    }
    Ok(ws)
}

/// The exercise crate's manifest with the solution crate's dependencies
/// added: the scratch `src/` keeps the reference-only modules (the given code
/// may call them), and those may use a crate the stubs do not (the book's
/// trace writer). A path dependency is rewritten to be found from the
/// exercise crate's folder.
fn scratch_manifest(chapter: &Chapter) -> Result<String> {
    let mut manifest = read_manifest(&chapter.dir.join("Cargo.toml"))?;
    let solution = read_manifest(&chapter.reference_dir().join("Cargo.toml"))?;
    let from_exercise = Path::new("../../solutions").join(chapter.folder());
    let deps = manifest
        .entry("dependencies")
        .or_insert_with(|| toml::Table::new().into());
    if let (Some(deps), Some(theirs)) = (
        deps.as_table_mut(),
        solution.get("dependencies").and_then(|d| d.as_table()),
    ) {
        for (name, spec) in theirs {
            let mut spec = spec.clone();
            if let Some(path) = spec.get_mut("path") {
                let moved = from_exercise.join(path.as_str().unwrap_or_default());
                *path = moved.display().to_string().into();
            }
            deps.entry(name.as_str()).or_insert(spec);
        }
    }
    Ok(toml::to_string(&manifest)?)
}

/// A Cargo manifest as a TOML table; errors name the file.
fn read_manifest(path: &Path) -> Result<toml::Table> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.parse()
        .with_context(|| format!("cannot parse {}", path.display()))
}

fn link(target: &Path, at: &Path) -> Result<()> {
    if at.symlink_metadata().is_ok() {
        return Ok(());
    }
    std::os::unix::fs::symlink(target, at)
        .with_context(|| format!("cannot link {} to {}", at.display(), target.display()))
}

/// Replaces the scratch crate's `src/` with `files`.
pub(super) fn write_src(ws: &Path, chapter: &Chapter, files: &[stubs::StubFile]) -> Result<()> {
    let src = ws.join("exercises").join(chapter.folder()).join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src)?;
    }
    for f in files {
        let path = src.join(&f.relative);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, &f.text)?;
    }
    Ok(())
}
