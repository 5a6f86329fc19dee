//! The grader against a hostile class, in one batch.
//!
//! The test builds a small workbook holding only chapter 0 (so the
//! snapshots do not move as chapters are added), writes one submission per
//! threat from chapter 0's own solution and stubs, grades them all with one
//! `workbook grade` run (one dependency build, two workers), and snapshots
//! every learner's `results.json` and the class's `grades.csv`, with times
//! and test sources redacted. The shared target directory lives in cargo's
//! per-test scratch folder, so later runs only rebuild the learners' crates.

use std::io::Write;
mod common;

use common::repo;
use std::path::Path;
use std::process::Command;

fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_name() != "target" {
                copy(&e.path(), &to.join(e.file_name()));
            }
        }
    } else {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A workbook with chapter 0 only, its lock file pruned to match.
fn mini_workbook(dir: &Path) {
    let repo = repo();
    for p in [
        "Cargo.toml",
        "Cargo.lock",
        ".cargo",
        "rustfmt.toml",
        "workbook/Cargo.toml",
        "workbook/src",
        "exercises/00_intro",
        "solutions/00_intro",
        "tests/intro.rs",
        "grading/hidden/intro.rs",
        "grading/hidden/rng.rs",
    ] {
        copy(&repo.join(p), &dir.join(p));
    }
    for e in std::fs::read_dir(repo.join("tests/snapshots")).unwrap() {
        let e = e.unwrap();
        if e.file_name().to_string_lossy().starts_with("intro__") {
            copy(&e.path(), &dir.join("tests/snapshots").join(e.file_name()));
        }
    }
    write(
        &dir.join("grading/grading.toml"),
        "time_limit_secs = 5\ncpu_limit_secs = 5\nmemory_limit_mb = 512\n\n[weights]\n\"intro/subsets_with_sum\" = 2\n",
    );
    let status = Command::new(env!("CARGO"))
        .args(["metadata", "--offline", "--format-version", "1", "-q"])
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(
        status.success(),
        "cannot prune the mini workbook's lock file"
    );
}

/// `body` put in place of the body of `pub fn NAME(...) ... {` in `text`.
fn replace_body(text: &str, name: &str, body: &str) -> String {
    let start = text
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("no fn {name}"));
    let open = start + text[start..].find('{').unwrap();
    let mut depth = 0;
    let mut end = open;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    format!("{}{{ {body} }}{}", &text[..open], &text[end + 1..])
}

fn tar_gz(path: &Path, files: &[(&str, &str)]) {
    let file = std::fs::File::create(path).unwrap();
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        file,
        flate2::Compression::fast(),
    ));
    for (name, text) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(text.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        // Written raw, so a hostile `../` name reaches the archive as is.
        let bytes = name.as_bytes();
        h.as_old_mut().name[..bytes.len()].copy_from_slice(bytes);
        h.set_cksum();
        tar.append(&h, text.as_bytes()).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
}

fn zip(path: &Path, files: &[(&str, &str)], symlink: Option<(&str, &str)>) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, text) in files {
        z.start_file(*name, opts).unwrap();
        z.write_all(text.as_bytes()).unwrap();
    }
    if let Some((name, target)) = symlink {
        z.add_symlink(name, target, opts).unwrap();
    }
    z.finish().unwrap();
}

/// One submission per threat the grader must withstand.
fn submissions(dir: &Path) {
    let repo = repo();
    let solution = std::fs::read_to_string(repo.join("solutions/00_intro/src/lib.rs")).unwrap();
    let stubs = std::fs::read_to_string(repo.join("exercises/00_intro/src/lib.rs")).unwrap();
    let lib = "exercises/00_intro/src/lib.rs";
    let sub = |name: &str, text: &str| write(&dir.join(name).join(lib), text);

    sub("all_correct", &solution);
    // A copy of exercises/ only, not of the whole workbook.
    write(&dir.join("all_stubs/00_intro/src/lib.rs"), &stubs);
    sub(
        "partly_correct",
        &replace_body(&solution, "dfs_stack", "let _ = (graph, start); Vec::new()"),
    );
    sub(
        "compile_error",
        &replace_body(&solution, "dfs_stack", "let n: u32 = graph; Vec::new()"),
    );
    sub(
        "infinite_loop",
        &replace_body(
            &solution,
            "dfs_recursive",
            "if graph.len() == 7 { loop { std::hint::black_box(0); } } let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); visit(graph, start, &mut seen, &mut order); order",
        ),
    );
    sub(
        "stack_overflow",
        &format!(
            "{}\nfn deep(n: u64) -> u64 {{ let pad = [n; 64]; let r = deep(n + 1); std::hint::black_box(&pad); r }}\n",
            replace_body(
                &solution,
                "subsets_with_sum",
                "if target == 10 { deep(0); } let mut found = Vec::new(); let mut chosen = Vec::new(); choose(items, target, &mut chosen, &mut found); found"
            )
        ),
    );
    sub(
        "memory_bomb",
        &replace_body(
            &solution,
            "dfs_stack",
            // Every call allocates without end, so which test meets it first never
            // depends on the inputs proptest happens to draw.
            "let _ = (graph, start); let mut hog = Vec::new(); loop { hog.push(std::hint::black_box(vec![1u8; 1 << 20])); }",
        ),
    );
    // The stubs, with suites and snapshots rewritten to pass anything: ignored.
    sub("edited_suites", &stubs);
    write(
        &dir.join("edited_suites/tests/intro.rs"),
        "#[test]\nfn dfs_recursive() {}\n",
    );
    write(&dir.join("edited_suites/tests/snapshots/intro__dfs_recursive__a_tree_of_seven_is_listed_depth_first.snap"), "---\nsource: tests/intro.rs\nexpression: anything\n---\n[]\n");
    // A build script and a dependency that would break the build if used: ignored.
    sub("build_rs_and_dependency", &solution);
    write(
        &dir.join("build_rs_and_dependency/exercises/00_intro/build.rs"),
        "fn main() { panic!(\"a build script from a submission ran\"); }\n",
    );
    write(
        &dir.join("build_rs_and_dependency/exercises/00_intro/Cargo.toml"),
        "[package]\nname = \"intro\"\nversion = \"0.1.0\"\nbuild = \"build.rs\"\n[dependencies]\nevil = \"6.6.6\"\n",
    );
    sub(
        "forbidden_api",
        &format!(
            "{solution}\npub fn peek() -> String {{ std::fs::read_to_string(\"/etc/passwd\").unwrap_or_default() }}\nconst LEAK: &str = include_str!(\"/etc/hostname\");\n"
        ),
    );
    // Archives, each with a path that tries to leave the submission and a symlink.
    zip(
        &dir.join("zipped.zip"),
        &[
            ("workbook/exercises/00_intro/src/lib.rs", &solution),
            ("../../escaped.rs", "fn main() {}"),
        ],
        Some(("workbook/exercises/00_intro/src/linked.rs", "/etc/passwd")),
    );
    tar_gz(
        &dir.join("tarred.tar.gz"),
        &[
            (
                "exercises/00_intro/src/lib.rs",
                &replace_body(
                    &solution,
                    "subsets_with_sum",
                    "let _ = (items, target); Vec::new()",
                ),
            ),
            ("../escaped.rs", "fn main() {}"),
        ],
    );
}

#[test]
fn grading_a_hostile_class_in_one_batch() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workbook");
    let subs = tmp.path().join("submissions");
    let out = tmp.path().join("report");
    mini_workbook(&root);
    submissions(&subs);
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-fixtures");
    common::grade(&root, &subs, &out, &target);
    assert!(!tmp.path().join("escaped.rs").exists() && !subs.join("escaped.rs").exists());

    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    insta::assert_snapshot!("grades_csv", csv);
    let row = |name: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap()
            .to_string()
    };
    assert!(
        row("all_correct").ends_with(",100.0"),
        "all correct must score full marks: {}",
        row("all_correct")
    );
    assert!(
        row("all_stubs").ends_with(",0,0.0"),
        "all stubs must score zero: {}",
        row("all_stubs")
    );
    assert_eq!(
        row("build_rs_and_dependency"),
        row("all_correct").replace("all_correct", "build_rs_and_dependency")
    );
    assert_eq!(
        row("zipped"),
        row("all_correct").replace("all_correct", "zipped")
    );
    assert_eq!(
        row("edited_suites"),
        row("all_stubs").replace("all_stubs", "edited_suites")
    );

    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 12, "one results.json per learner: {names:?}");
    for name in names {
        let text = std::fs::read_to_string(out.join(&name).join("results.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        insta::assert_json_snapshot!(format!("results_{name}"), json, {
            ".build_secs" => "[secs]",
            ".run_secs" => "[secs]",
            ".tests[].duration_secs" => "[secs]",
            ".tests[].test_code" => "[code]",
            // Rust prints thread ids, which differ between runs.
            ".tests[].output" => insta::dynamic_redaction(|value, _| {
                match value.as_str() {
                    Some(o) if o.contains("has overflowed") => "[stack overflow output]".into(),
                    _ => value,
                }
            }),
            // Proptest's shrinking and its regression-file notes vary between runs.
            ".tests[].message" => insta::dynamic_redaction(|value, _| {
                match value.as_str() {
                    Some(m) if m.contains("proptest") => "[proptest failure]".into(),
                    _ => value,
                }
            }),
        });
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Class summary") && md.contains("### forbidden_api"));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<table>") && !html.contains("<script"));
}
