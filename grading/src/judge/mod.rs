//! The judge and the subject: a learner's code never runs in the process
//! that decides its verdict.
//!
//! The problem: a test that calls the learner's code in its own process can
//! be bent by that code. Through a soundness bug of rustc (rust-lang/rust
//! #25860, the construction `cve-rs` is built on: no `unsafe` anywhere) it
//! can read and write any memory of the test, so it can find the expected
//! answer or write the verdict itself. Online judges never let that happen:
//! the contestant's program runs alone, and a separate checker judges what
//! it printed. Here each chapter is built twice:
//!
//! * the **judge**: the suites (public and hidden) linked with the pristine
//!   stubs, whose every stubbed body is replaced (on the same lines) by a
//!   call over a socket. It is built once for the class, holds the expected
//!   answers and the reference, and never runs a line the learner wrote.
//! * the **subject**: the learner's crate (the intake's spliced sources)
//!   plus a dispatcher and a `main` that answers calls. It links neither the
//!   suites nor the reference, so it holds no expected answer, and it runs
//!   in a sandbox of its own that sees only its binary and the system's
//!   libraries.
//!
//! Values cross as postcard (serde derives added to the chapter's types in
//! both copies, behind the chapter's `wire` feature, so a learner's own
//! build never compiles serde); `&mut` arguments come back and are written
//! in place. Whatever the subject sends is an answer to compare or a
//! protocol error; a subject that dies, floods or hangs fails the test it
//! was answering, and only that test. State: none kept; the two copies are
//! functions of the sources. Cost: one parse of each file per copy.

mod emit;
mod shape;

use anyhow::{Context, Result, bail};
use emit::Edits;
use shape::{Stub, library_file};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The file both copies get as `src/__wb_wire.rs`.
const COMMON: &str = include_str!("wire/common.rs");
const FD: &str = include_str!("wire/fd.rs");
const JUDGE: &str = include_str!("wire/judge.rs");
const SUBJECT: &str = include_str!("wire/subject.rs");
const CONFINE: &str = include_str!("wire/confine.rs");

/// The subject's binary as the grader keeps and runs it (a process's name
/// is its file's: `ps`, the sandbox's watchers and the platforms' check
/// know a subject by it).
pub const SUBJECT_BIN: &str = "__wb_subject";

/// The subject's binary target in the manifest of `package`: one name per
/// chapter, so one cargo run builds every chapter's subject without two
/// of them written to the same file (cargo's output collision); the
/// grader copies each to a file named `SUBJECT_BIN`.
pub fn subject_target(package: &str) -> String {
    format!("{SUBJECT_BIN}_{}", package.replace('-', "_"))
}

/// The environment variable that makes a subject start without its
/// seccomp filter, as on a machine without seccomp: for the grader's tests
/// of what stands without it. The grader passes it on only from its own
/// environment (a subject's is cleared).
pub const NO_SECCOMP_ENV: &str = "WORKBOOK_SUBJECT_NO_SECCOMP";

/// The chapter's sources as the judge builds them: every stub that can be
/// called from outside its own file (public, or used by given code) sends
/// its call to the subject.
pub fn judge_sources(
    pristine: &BTreeMap<PathBuf, String>,
    keys: &BTreeSet<String>,
) -> Result<BTreeMap<PathBuf, String>> {
    let (stubs, types) = shape::find(pristine, keys)?;
    let carried = carried_ids(pristine, &stubs);
    let mut out = BTreeMap::new();
    for (rel, text) in pristine {
        if !library_file(rel) {
            out.insert(rel.clone(), text.clone());
            continue;
        }
        let mut edits = Edits::default();
        emit::derives(&types, rel, text, &mut edits);
        for stub in stubs
            .iter()
            .filter(|s| &s.file == rel && carried.contains(&s.id))
        {
            emit::proxy(stub, &types, text, &mut edits)
                .with_context(|| format!("the judge cannot carry `{}`", stub.key))?;
        }
        out.insert(rel.clone(), edits.apply(text));
    }
    add_wire(&mut out, &format!("{COMMON}{FD}{JUDGE}"))?;
    Ok(out)
}

/// The learner's sources as the subject builds them: the chapter's given
/// types derive the codec, each file gains a dispatcher for its stubs, and
/// `src/__wb_subject.rs` is the process's `main`.
pub fn subject_sources(
    learner: &BTreeMap<PathBuf, String>,
    pristine: &BTreeMap<PathBuf, String>,
    keys: &BTreeSet<String>,
    package: &str,
) -> Result<BTreeMap<PathBuf, String>> {
    let (given_stubs, given_types) = shape::find(pristine, keys)?;
    let carried = carried_ids(pristine, &given_stubs);
    let given_names: BTreeSet<&String> = given_types
        .carried
        .values()
        .flatten()
        .map(|(_, n)| n)
        .collect();
    let (stubs, mut types) = shape::find(learner, keys)?;
    // Only the given types derive: a learner's own helper types never cross.
    for list in types
        .carried
        .values_mut()
        .chain(types.big_arrays.values_mut())
    {
        list.retain(|(_, name)| given_names.contains(name));
    }
    let mut by_file: BTreeMap<PathBuf, Vec<&Stub>> = BTreeMap::new();
    for s in stubs.iter().filter(|s| carried.contains(&s.id)) {
        by_file.entry(s.file.clone()).or_default().push(s);
    }
    let mut out = BTreeMap::new();
    for (rel, text) in learner {
        if !library_file(rel) {
            out.insert(rel.clone(), text.clone());
            continue;
        }
        let mut edits = Edits::default();
        emit::derives(&types, rel, text, &mut edits);
        let mut text = edits.apply(text);
        if let Some(list) = by_file.get(rel) {
            text.push_str(&emit::dispatch(list, &types)?);
        }
        out.insert(rel.clone(), text);
    }
    let serve = format!("{COMMON}{FD}{SUBJECT}{CONFINE}{}", emit::router(&by_file));
    add_wire(&mut out, &serve)?;
    out.insert(
        PathBuf::from(format!("{SUBJECT_BIN}.rs")),
        format!(
            "//! The grader's subject process (generated): answers the judge's calls.\nfn main() {{\n    {package}::__wb_wire::serve();\n}}\n"
        ),
    );
    Ok(out)
}

/// The chapter's manifest with the subject's binary target added.
pub fn subject_manifest(text: &str) -> Result<String> {
    let mut doc: toml::Table = text
        .parse()
        .context("the chapter's Cargo.toml is not valid TOML")?;
    let package = doc
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .context("the chapter's Cargo.toml names no package")?
        .to_string();
    let mut bin = toml::Table::new();
    bin.insert("name".into(), subject_target(&package).into());
    bin.insert("path".into(), format!("src/{SUBJECT_BIN}.rs").into());
    bin.insert(
        "required-features".into(),
        toml::Value::Array(vec!["wire".into()]),
    );
    bin.insert("test".into(), false.into());
    match doc
        .entry("bin")
        .or_insert_with(|| toml::Value::Array(Vec::new()))
    {
        toml::Value::Array(list) => list.push(toml::Value::Table(bin)),
        _ => bail!("the chapter's Cargo.toml has a `bin` that is not a list"),
    }
    Ok(toml::to_string(&doc)?)
}

/// The stubs that cross: public ones (the suites call them) and private
/// ones that given code of their file calls (counted as a name that occurs
/// outside the stubs' bodies more often than it is defined).
fn carried_ids(pristine: &BTreeMap<PathBuf, String>, stubs: &[Stub]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for s in stubs {
        let public = s.trait_path.is_some() || s.public;
        if public || called_by_given(&pristine[&s.file], stubs, s) {
            out.insert(s.id.clone());
        }
    }
    out
}

fn called_by_given(text: &str, stubs: &[Stub], stub: &Stub) -> bool {
    let name = stub.sig.ident.to_string();
    let lines: Vec<&str> = text.lines().collect();
    let in_body = |line: usize| {
        stubs
            .iter()
            .any(|s| s.file == stub.file && line > s.open.line && line < s.close.line)
    };
    let uses = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !in_body(i + 1))
        .flat_map(|(_, l)| {
            l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| *w == name)
        })
        .count();
    let defined = stubs
        .iter()
        .filter(|s| s.file == stub.file && s.sig.ident == name)
        .count();
    uses > defined
}

/// Declares `__wb_wire` in `lib.rs` and writes its text.
fn add_wire(files: &mut BTreeMap<PathBuf, String>, text: &str) -> Result<()> {
    let Some(lib) = files.get_mut(Path::new("lib.rs")) else {
        bail!("the chapter has no src/lib.rs");
    };
    lib.push_str("\n#[doc(hidden)]\npub mod __wb_wire;\n");
    files.insert(PathBuf::from("__wb_wire.rs"), text.to_string());
    Ok(())
}

#[cfg(test)]
mod tests;
