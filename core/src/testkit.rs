//! What the tools' integration tests share (the `testkit` feature, for
//! their dev-dependencies only): the repository they run in, files
//! copied and written, a learner's version of one function, a small
//! workbook holding chosen chapters, and a chapter's reference as a
//! learner would hand it in. Each panics with what went wrong: these are
//! test fixtures, never called on a learner's input.

use crate::info::load_chapters;
use crate::names;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (the parent of `core/`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core/ has a parent")
        .to_path_buf()
}

/// `text` with `body` in place of the body of the first `fn NAME(...) {`
/// (the fixtures' way to write a learner's version of one function).
pub fn replace_body(text: &str, name: &str, body: &str) -> String {
    let start = text
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("no fn {name}"));
    let open = start + text[start..].find('{').expect("a body");
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let end = open + i;
                    return format!("{}{{ {body} }}{}", &text[..open], &text[end + 1..]);
                }
            }
            _ => {}
        }
    }
    panic!("fn {name} has an unclosed body")
}

/// Copies a file or a folder (without its `target/`), if it exists.
pub fn copy(from: &Path, to: &Path) {
    if !from.exists() {
        return;
    }
    if from.is_dir() {
        std::fs::create_dir_all(to).expect("create a folder");
        for e in std::fs::read_dir(from).expect("list a folder") {
            let e = e.expect("a folder entry");
            if e.file_name() != "target" {
                copy(&e.path(), &to.join(e.file_name()));
            }
        }
    } else {
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("create a folder");
        std::fs::copy(from, to).expect("copy a file");
    }
}

/// Writes `text` to `path`, creating its folders.
pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("create a folder");
    std::fs::write(path, text).expect("write a file");
}

/// A workbook with chapter 0 only, its lock file pruned to match.
pub fn mini_workbook(dir: &Path, config: &str) {
    mini_workbook_of(dir, config, &[("00_intro", "intro")]);
}

/// A workbook with only the given chapters (`(folder, slug)`: exercises,
/// solutions, suite, hidden suite and snapshots of each), the tools'
/// crates, `config` as its `grading/grading.toml`, and its lock file
/// pruned to match.
pub fn mini_workbook_of(dir: &Path, config: &str, chapters: &[(&str, &str)]) {
    let repo = repo();
    let mut paths: Vec<String> = [
        "Cargo.toml",
        "Cargo.lock",
        ".cargo",
        "rustfmt.toml",
        "core",
        "workbook/Cargo.toml",
        "workbook/src",
        "grading/Cargo.toml",
        "grading/src",
        "grading/benches",
        "xtask/Cargo.toml",
        "xtask/src",
        "solutions/trace",
        "tests/support.rs",
        "grading/hidden/rng.rs",
    ]
    .map(String::from)
    .to_vec();
    for (folder, slug) in chapters {
        paths.push(format!("exercises/{folder}"));
        paths.push(format!("solutions/{folder}"));
        paths.push(format!("tests/{slug}.rs"));
        paths.push(format!("grading/hidden/{slug}.rs"));
        // Chapters 1 on take their benchmarks' helper as a dev-dependency.
        if *folder != "00_intro" && !paths.iter().any(|p| p == "solutions/measure") {
            paths.push("solutions/measure".into());
        }
    }
    for p in &paths {
        copy(&repo.join(p), &dir.join(p));
    }
    for e in std::fs::read_dir(repo.join("tests/snapshots")).expect("the snapshots") {
        let e = e.expect("a snapshot");
        let name = e.file_name().to_string_lossy().into_owned();
        if chapters
            .iter()
            .any(|(_, slug)| name.starts_with(&format!("{slug}__")))
        {
            copy(&e.path(), &dir.join("tests/snapshots").join(e.file_name()));
        }
    }
    write(&dir.join("grading/grading.toml"), config);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "-q"])
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "cannot prune the mini workbook's lock file"
    );
}

/// Chapter 0's reference as a learner would submit it: the stub file with
/// the reference bodies (reference-only items dropped).
pub fn learner_reference(root: &Path) -> String {
    let out = learner_reference_of(root, "intro");
    std::fs::read_to_string(out.join("lib.rs")).expect("the reference's lib.rs")
}

/// The folder where chapter `slug`'s reference, as a learner would submit
/// it (one file per stub file), was written for the workbook at `root`
/// (`root/target-reference/slug`).
pub fn learner_reference_of(root: &Path, slug: &str) -> PathBuf {
    let out = root.join("target-reference").join(slug);
    write_learner_reference(root, slug, &out);
    out
}

/// Writes chapter `slug`'s reference, as a learner would submit it, of the
/// workbook at `root` into `out`.
pub fn write_learner_reference(root: &Path, slug: &str, out: &Path) {
    let chapters = load_chapters(root).expect("the chapters load");
    let chapter = names::chapter(&chapters, slug).unwrap_or_else(|| panic!("no chapter {slug}"));
    crate::stubs::write_learner_reference(chapter, out)
        .unwrap_or_else(|e| panic!("cannot write {slug}'s reference: {e:#}"));
}
