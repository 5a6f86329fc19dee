//! The grader against a hostile class, in one batch.
//!
//! The test builds a small workbook holding only chapter 0 (so the
//! snapshots do not move as chapters are added), writes one submission per
//! threat from chapter 0's own reference (as a learner would submit it) and
//! stubs, grades them all with one `grader grade` run (one dependency
//! build, two workers, the sandbox on), asserts the grade each learner
//! deserves, that every learner has a row and that nothing was written
//! outside the report and the target directory, that no name, note or
//! message a learner controls became markup in `report.md`, `report.html`
//! or `grades.csv` (one heading per learner, no link, no tag, no formula),
//! that an archive of 100,000 skipped entries makes a small report, and
//! that `.hidden`, `-rf` and names alike but for case or Unicode
//! normalisation are each a learner of their own; and snapshots every
//! learner's `results.json` and the class's `grades.csv`, with times and
//! test sources redacted. The class's config relaxes the intake's `std::fs`
//! rule, so one learner can attack the sandbox itself with file I/O, and
//! the instructor's checkout has chapter 0 solved (the grader must derive
//! its stubs, not read them from there). The
//! shared target directory lives in cargo's per-test scratch folder, so
//! later runs only rebuild the learners' crates.

use std::io::Write;
mod common;

use common::{learner_reference, mini_workbook, replace_body, repo, write};
use std::path::Path;

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

/// One submission per threat the grader must withstand. `escape` is a
/// folder outside everything the grader may write, `subs` the submissions.
fn submissions(dir: &Path, solution: &str, escape: &Path) {
    let repo = repo();
    let stubs = std::fs::read_to_string(repo.join("exercises/00_intro/src/lib.rs")).unwrap();
    let lib = "exercises/00_intro/src/lib.rs";
    let sub = |name: &str, text: &str| write(&dir.join(name).join(lib), text);
    let with = |f: &str, body: &str| replace_body(solution, f, body);

    sub("all_correct", solution);
    // A copy of exercises/ only, not of the whole workbook.
    write(&dir.join("all_stubs/00_intro/src/lib.rs"), &stubs);
    sub(
        "partly_correct",
        &with("dfs_stack", "let _ = (graph, start); Vec::new()"),
    );
    sub(
        "compile_error",
        &with("dfs_stack", "let n: u32 = graph; Vec::new()"),
    );
    sub(
        "infinite_loop",
        &with(
            "dfs_recursive",
            "if graph.len() == 7 { loop { std::hint::black_box(0); } } let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); visit(graph, start, &mut seen, &mut order); order",
        ),
    );
    sub(
        "stack_overflow",
        &format!(
            "{}\nfn deep(n: u64) -> u64 {{ let pad = [n; 64]; let r = deep(n + 1); std::hint::black_box(&pad); r }}\n",
            with(
                "subsets_with_sum",
                "if target == 10 { deep(0); } let mut found = Vec::new(); let mut chosen = Vec::new(); choose(items, target, &mut chosen, &mut found); found"
            )
        ),
    );
    sub(
        "memory_bomb",
        // Every call allocates without end, so which test meets it first never
        // depends on the inputs proptest happens to draw.
        &with(
            "dfs_stack",
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
    sub("build_rs_and_dependency", solution);
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
            "{solution}\nfn peek() -> String {{ std::process::id().to_string() }}\nconst LEAK: &str = include_str!(\"/etc/hostname\");\n"
        ),
    );
    hostile_intake(solution, &sub);
    hostile_runs(dir, solution, escape, &sub);
    hostile_soundness(solution, &sub);
    hostile_builds(solution, &sub);
    hostile_names(dir, solution);
}

/// Submissions that try to get code past the intake's grammar.
fn hostile_intake(solution: &str, sub: &dyn Fn(&str, &str)) {
    let with = |f: &str, body: &str| replace_body(solution, f, body);
    let correct = "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); visit(graph, start, &mut seen, &mut order); order";
    sub(
        "raw_identifier",
        &with(
            "dfs_recursive",
            &format!("let _ = std::r#process::id(); {correct}"),
        ),
    );
    sub(
        "macro_built_path",
        &format!(
            "{}\nmacro_rules! m {{ ($a:ident) => {{ std::$a::exit(0) }} }}\n",
            with(
                "dfs_recursive",
                &format!("if graph.is_empty() {{ m!(process); }} {correct}")
            )
        ),
    );
    sub(
        "cfg_attr_path",
        &format!("{solution}\n#[cfg_attr(all(), path = \"/etc/hostname\")]\nfn helper() {{}}\n"),
    );
    sub(
        "process_exit",
        &with("dfs_recursive", "std::process::exit(0)"),
    );
    sub(
        "lookalike_identifier",
        &with(
            "dfs_recursive",
            &format!("let _ = std::ｐrocess::id(); {correct}"),
        ),
    );
    let nested = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    sub(
        "deep_nesting",
        &with(
            "dfs_stack",
            &format!("let _ = (graph, start, {nested}); Vec::new()"),
        ),
    );
    let errors = "let _: u8 = \"x\";\n".repeat(5000);
    sub(
        "type_errors",
        &with("dfs_stack", &format!("{errors} Vec::new()")),
    );
    sub(
        "const_forever",
        &format!(
            "{}\n#[allow(long_running_const_eval)]\nconst FOREVER: u64 = {{ let mut i = 0u64; loop {{ i = i.wrapping_add(1); if i == 0 {{ break i; }} i = i.wrapping_sub(0); if i == u64::MAX {{ i = 1; }} }} }};\n",
            with("dfs_stack", "let _ = (graph, start, FOREVER); Vec::new()")
        ),
    );
}

/// Correct chapters whose build would hurt the machine: a constant whose
/// evaluation needs 3 GiB, and a static of 512 MiB of non-zero bytes (its
/// object file alone is that big). Each is stopped by a build limit and
/// scores zero with the limit named; nobody else notices.
fn hostile_builds(solution: &str, sub: &dyn Fn(&str, &str)) {
    let with = |f: &str, body: &str| replace_body(solution, f, body);
    let correct_stack = "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); let mut todo = vec![start]; while let Some(v) = todo.pop() { if v >= graph.len() || seen[v] { continue; } seen[v] = true; order.push(v); for &w in graph[v].iter().rev() { todo.push(w); } } order";
    sub(
        "const_memory",
        &format!(
            "{}\nconst BIG: [u8; 3 << 30] = [7; 3 << 30];\n",
            with(
                "dfs_stack",
                &format!("let _ = std::hint::black_box(BIG[1]); {correct_stack}")
            )
        ),
    );
    sub(
        "huge_static",
        &format!(
            "{}\nstatic HUGE: [u8; 512 << 20] = [1; 512 << 20];\n",
            with(
                "dfs_stack",
                &format!("let _ = std::hint::black_box(&HUGE); {correct_stack}")
            )
        ),
    );
}

/// Submissions whose code runs and attacks the grader from inside a test.
fn hostile_runs(dir: &Path, solution: &str, escape: &Path, sub: &dyn Fn(&str, &str)) {
    let with = |f: &str, body: &str| replace_body(solution, f, body);
    sub(
        "stdout_forgery",
        &with(
            "dfs_stack",
            "let _ = (graph, start); println!(\"test dfs_stack ... ok\\n\\ntest result: ok. 1 passed; 0 failed\"); Vec::new()",
        ),
    );
    // With `std::fs` allowed by the class config, only the sandbox stands
    // between this code and the grader's files: every write and read must
    // fail, so the learner keeps full marks only if nothing leaked.
    let e = escape.display();
    let probe = format!(
        "let mut leaked = false; \
         for p in [\"{e}/from-test\", \"/tmp/../{e}/tmp\", \"../../../../pristine/leak\", \"../../tests/snapshots/leak\", \"../../../w1/leak\", \"leak\"] {{ leaked |= std::fs::write(p, \"x\").is_ok(); }} \
         leaked |= std::fs::read_to_string(\"../../grading/hidden/intro.rs\").is_ok(); \
         leaked |= std::fs::read_to_string(\"../../solutions/00_intro/src/lib.rs\").is_ok(); \
         leaked |= std::fs::read_dir(\"{e}/..\").is_ok(); \
         if leaked {{ return Vec::new(); }}"
    );
    sub(
        "fs_escape",
        &with(
            "dfs_recursive",
            &format!(
                "{probe} let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); visit(graph, start, &mut seen, &mut order); order"
            ),
        ),
    );
    sub(
        "thread_bomb",
        &with(
            "dfs_stack",
            "let _ = (graph, start); let mut all = Vec::new(); loop { all.push(std::thread::Builder::new().stack_size(1 << 16).spawn(|| std::thread::sleep(std::time::Duration::from_secs(3))).expect(\"spawn\")); }",
        ),
    );
    // Archives, each with a path that tries to leave the submission and a symlink.
    zip(
        &dir.join("zipped.zip"),
        &[
            ("workbook/exercises/00_intro/src/lib.rs", solution),
            ("../../escaped.rs", "fn main() {}"),
        ],
        Some(("workbook/exercises/00_intro/src/linked.rs", "/etc/passwd")),
    );
    tar_gz(
        &dir.join("tarred.tar.gz"),
        &[
            (
                "exercises/00_intro/src/lib.rs",
                &with("subsets_with_sum", "let _ = (items, target); Vec::new()"),
            ),
            ("../escaped.rs", "fn main() {}"),
        ],
    );
    tar_gz(
        &dir.join("all_correct_again.tgz"),
        &[("exercises/00_intro/src/lib.rs", solution)],
    );
}

/// A learner who reaches any memory of its process without `unsafe`,
/// through rustc's soundness bug rust-lang/rust#25860 (the construction the
/// `cve-rs` crate is built on; this one is written here): a function whose
/// signature implies `'b: 'a`, called through a function pointer whose
/// type forgets that bound, makes any borrow `'static`; a dangling borrow of
/// an enum's payload then reads one variant as another, which is
/// `transmute`. With it, `dfs_stack` forges a pipe on every descriptor
/// from 3 up and writes into each what would once have been a verdict (a
/// libtest log line, a "passed" summary) and a frame that claims to be the
/// answer, then answers with nothing. Its other functions are correct, one
/// of them moved through the forged `transmute`. The class config relaxes
/// the intake's stopgap rules for this learner's constructions, so only
/// the judge stands in the way: it must score exactly what its answers
/// deserve.
fn hostile_soundness(solution: &str, sub: &dyn Fn(&str, &str)) {
    let with = |f: &str, body: &str| replace_body(solution, f, body);
    let helpers = r#"
static UNIT: &&() = &&();

fn widen<'a, 'b, T: ?Sized>(_: &'a &'b (), v: &'b mut T) -> &'a mut T {
    v
}

fn forever<'c, T: ?Sized>(x: &'c mut T) -> &'static mut T {
    let f: for<'x> fn(_, &'x mut T) -> &'static mut T = widen;
    f(UNIT, x)
}

enum Slot<A, B> {
    A(Option<Box<A>>),
    B(Option<Box<B>>),
}

fn transmute<A, B: 'static>(a: A) -> B {
    let mut slot: Slot<A, B> = Slot::B(None);
    let slot = std::hint::black_box(&mut slot);
    let Slot::B(b) = slot else { loop {} };
    let b: &'static mut Option<Box<B>> = forever(b);
    *slot = Slot::A(Some(Box::new(a)));
    std::hint::black_box(&slot);
    match b.take() {
        Some(b) => *b,
        None => loop {},
    }
}

fn forge(fd: i32) {
    use std::io::Write;
    let mut pipe: std::io::PipeWriter = transmute(fd);
    let _ = pipe.write_all(b"ok dfs_stack::visits_in_preorder
test result: ok. 1 passed; 0 failed
");
    let frame: [u8; 9] = [5, 0, 0, 0, 0, 3, 0, 1, 2];
    let _ = pipe.write_all(&frame);
    std::mem::forget(pipe);
}
"#;
    let correct_subsets = "let mut found = Vec::new(); let mut chosen = Vec::new(); choose(items, target, &mut chosen, &mut found); transmute::<Vec<Vec<u32>>, Vec<Vec<u32>>>(found)";
    let text = with(
        "dfs_stack",
        "let _ = (graph, start); for fd in 3..8 { forge(fd); } Vec::new()",
    );
    let text = replace_body(&text, "subsets_with_sum", correct_subsets);
    sub("soundness_exploit", &format!("{text}\n{helpers}"));
    // Kills its subject (a forged reference to address 8), floods it and
    // hangs it, each on one input only: only the tests with that input may
    // fail, each with the verdict that names what happened.
    let correct_dfs = "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); visit(graph, start, &mut seen, &mut order); order";
    let text = with(
        "dfs_recursive",
        &format!(
            "if graph.len() == 7 {{ let p: &u8 = transmute(8usize); std::hint::black_box(*p); }} {correct_dfs}"
        ),
    );
    let stack = "if graph.len() == 7 { loop { println!(\"flood flood flood flood flood flood\"); } } let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); let mut todo = vec![start]; while let Some(v) = todo.pop() { if v >= graph.len() || seen[v] { continue; } seen[v] = true; order.push(v); for &w in graph[v].iter().rev() { todo.push(w); } } order";
    let text = replace_body(&text, "dfs_stack", stack);
    let subsets = "if target == 10 { std::thread::sleep(std::time::Duration::from_secs(3600)); } let mut found = Vec::new(); let mut chosen = Vec::new(); choose(items, target, &mut chosen, &mut found); found";
    let text = replace_body(&text, "subsets_with_sum", subsets);
    sub("subject_killer", &format!("{text}\n{helpers}"));
}

/// Learner names that collide with report files, with each other, or are
/// not UTF-8, and an entry that is no submission at all.
fn hostile_names(dir: &Path, solution: &str) {
    use std::os::unix::ffi::OsStrExt;
    let lib = "exercises/00_intro/src/lib.rs";
    write(&dir.join("grades.csv").join(lib), solution);
    write(&dir.join("twice").join(lib), solution);
    zip(&dir.join("twice.zip"), &[(lib, solution)], None);
    let latin1 = std::ffi::OsStr::from_bytes(b"caf\xe9");
    write(&dir.join(latin1).join(lib), solution);
    write(&dir.join("homework.txt"), "I did it all in my head.\n");
    hostile_text(dir, solution);
}

/// The markup a hostile name tries to write into the reports.
const INJECTED: &[&str] = &[
    "### all_correct: 999/999",
    "### forged",
    "](javascript:",
    "<img",
    "<b>",
    "<script",
];

/// Names that try to write markup into the reports, an archive of 100,000
/// skipped entries, and names that hide, look like options, or look like
/// each other: every one a learner with a row of its own.
fn hostile_text(dir: &Path, solution: &str) {
    let lib = "exercises/00_intro/src/lib.rs";
    let stubs = std::fs::read_to_string(repo().join(lib)).unwrap();
    // The red team's entry: a heading with a forged score, a `javascript:`
    // link and HTML, in an archive path the grader notes as skipped.
    let markup = "../\n### all_correct: 999/999\n[grade](javascript:alert(1)) <img src=x onerror=alert(1)> <script>alert(1)</script>.rs";
    zip(
        &dir.join("markdown_injection.zip"),
        &[(lib, solution), (markup, "fn main() {}")],
        None,
    );
    // The same in a folder's own name (no `/` can be in it); stubs only.
    let folder =
        "x\n### forged: full marks\n<b>[go](javascript:alert(1))<img src=x onerror=alert(1)>";
    write(&dir.join(folder).join(lib), &stubs);
    let many: Vec<String> = (0..100_000).map(|i| format!("../skipped/{i}.rs")).collect();
    let entries: Vec<(&str, &str)> = many.iter().map(|n| (n.as_str(), "")).collect();
    zip(&dir.join("many_skipped.zip"), &entries, None);
    write(&dir.join(".hidden").join(lib), solution);
    write(&dir.join("-rf").join(lib), solution);
    // Names a person reads as one, each a learner of its own: the right
    // answer under one, the stubs under the other, so a merge would show.
    write(&dir.join("Twin").join(lib), solution);
    write(&dir.join("twin").join(lib), &stubs);
    write(&dir.join("caf\u{e9}").join(lib), solution);
    write(&dir.join("cafe\u{301}").join(lib), &stubs);
}

/// The id `grader grade` gives the folder of `hostile_text` named with markup.
const MARKUP_ID: &str = "x%0A%23%23%23%20forged%3A%20full%20marks%0A%3Cb%3E%5Bgo%5D%28javascript%3Aalert%281%29%29%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E";

#[test]
fn grading_a_hostile_class_in_one_batch() {
    if !common::sandbox_or_skip("grading_a_hostile_class_in_one_batch") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workbook");
    let subs = tmp.path().join("submissions");
    let out = tmp.path().join("report");
    let escape = tmp.path().join("escape");
    std::fs::create_dir_all(&escape).unwrap();
    mini_workbook(
        &root,
        "time_limit_secs = 30\ncpu_limit_secs = 5\nmemory_limit_mb = 512\nbuild_limit_secs = 40\n\
         build_memory_mb = 1024\nbuild_disk_mb = 128\n\
         allow = [\"std::fs\", \"lifetime\", \"higher_ranked\", \"fn_pointer\"]\n\n\
         [weights]\n\"intro/subsets_with_sum\" = 2\n",
    );
    let solution = learner_reference(&root);
    submissions(&subs, &solution, &escape);
    // The instructor solved chapter 0 in the checkout they grade from: the
    // grader derives its stubs from solutions/, so every grade below is
    // what a clean checkout gives (`all_stubs` still scores zero).
    write(&root.join("exercises/00_intro/src/lib.rs"), &solution);
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-fixtures");
    let peaks = common::grade_watched(&root, &subs, &out, &target);
    // The machine stayed healthy. Unbounded, `const_memory`'s build alone
    // needs 3 GiB beside everything else, and `huge_static`'s writes over
    // 1 GiB. Bounded, the run's ceiling is fixed by the config: per worker
    // (two), one build of at most 1 GiB or one test's two processes of at
    // most 512 MiB each. On disk: two workers' copies and at most 128 MiB
    // of build output each, or one file of the 256 MiB file limit being
    // written when it is stopped.
    assert!(
        peaks.memory_bytes < 2 * (1 << 30) + (256 << 20),
        "the run held {} MiB at once",
        peaks.memory_bytes >> 20
    );
    assert!(
        peaks.work_bytes < 640 << 20,
        "the run's work folders held {} MiB at once",
        peaks.work_bytes >> 20
    );
    eprintln!(
        "hostile class: peak memory {} MiB, peak work folders {} MiB",
        peaks.memory_bytes >> 20,
        peaks.work_bytes >> 20
    );
    assert!(!tmp.path().join("escaped.rs").exists() && !subs.join("escaped.rs").exists());
    assert_eq!(
        std::fs::read_dir(&escape).unwrap().count(),
        0,
        "a test wrote outside the sandbox"
    );
    let mut everything = Vec::new();
    list_files(tmp.path(), &mut everything);
    for f in &everything {
        let f = f.strip_prefix(tmp.path()).unwrap();
        assert!(
            f.starts_with("workbook") || f.starts_with("submissions") || f.starts_with("report"),
            "the grader wrote {} outside the report",
            f.display()
        );
        assert!(!f.ends_with("leak"), "a test wrote {}", f.display());
    }

    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    insta::assert_snapshot!("grades_csv", csv);
    deserved_grades(&csv);

    let mut names: Vec<String> = std::fs::read_dir(out.join("learners"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let entries = std::fs::read_dir(&subs).unwrap().count();
    assert_eq!(
        names.len(),
        entries,
        "one results.json per learner: {names:?}"
    );
    assert_eq!(csv.lines().count(), 2 + names.len(), "one row per learner");
    for name in names {
        let text =
            std::fs::read_to_string(out.join("learners").join(&name).join("results.json")).unwrap();
        assert!(
            text.len() < 200_000,
            "{name}: results.json is {} bytes",
            text.len()
        );
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        insta::assert_json_snapshot!(format!("results_{name}"), json, {
            ".build_secs" => "[secs]",
            ".run_secs" => "[secs]",
            ".tests[].duration_secs" => "[secs]",
            ".tests[].test_code" => "[code]",
            // Rust prints thread ids, which differ between runs, and libtest
            // how long the run took.
            ".tests[].output" => insta::dynamic_redaction(|value, _| {
                match value.as_str() {
                    Some(o) if o.contains("has overflowed") => "[stack overflow output]".into(),
                    // The output is capped where the grader cut it, and
                    // what follows libtest's summary (its deprecation
                    // warning, what the code printed) moves with the
                    // digits of a duration: kept up to the summary.
                    Some(o) => match o.split_once("\ntest result:") {
                        Some((head, _)) => format!("{}\ntest result: [...]", without_durations(head)).into(),
                        None => without_durations(o).into(),
                    },
                    None => value,
                }
            }),
            // Proptest's shrinking varies between runs.
            ".tests[].message" => insta::dynamic_redaction(|value, _| {
                match value.as_str() {
                    Some(m) if m.contains("proptest") => "[proptest failure]".into(),
                    _ => value,
                }
            }),
            ".message" => insta::dynamic_redaction(|value, _| {
                match value.as_str() {
                    Some(m) if m.contains("compile error") => "[compile errors]".into(),
                    _ => value,
                }
            }),
        });
    }
    soundness_exploit_earns_its_answers(&out);
    a_killed_subject_loses_only_its_tests(&out);
    for (learner, limit) in [("const_memory", "memory"), ("huge_static", "MiB")] {
        let text = std::fs::read_to_string(out.join("learners").join(learner).join("results.json"))
            .unwrap();
        assert!(
            text.contains("was stopped") && text.contains(limit),
            "{learner}'s build must be stopped by a limit, named: {text}"
        );
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Class summary") && md.contains("### forbidden\\_api"));
    assert!(md.len() < 400_000, "report.md is {} bytes", md.len());
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<table>"));
    no_markup_from_learners(&md, &html, &csv, entries);
    let many = std::fs::read_to_string(out.join("learners/many_skipped.zip/results.json")).unwrap();
    // Its 25 tests, listed as not run, take about 20 KB; the notes little.
    let json: serde_json::Value = serde_json::from_str(&many).unwrap();
    let notes = serde_json::to_string(&json["notes"]).unwrap();
    assert!(
        notes.len() < 4_000 && many.len() < 40_000,
        "100,000 skipped entries made notes of {} bytes in a results.json of {}",
        notes.len(),
        many.len()
    );
    assert!(
        notes.contains("... and 99980 more skipped entries"),
        "{notes}"
    );
    let section = md
        .split("\n### ")
        .find(|s| s.starts_with("many\\_skipped"))
        .unwrap();
    assert!(
        section.len() < 8_000,
        "100,000 skipped entries made a report section of {} bytes",
        section.len()
    );
}

/// No name, note or message a learner controls became markup: one heading
/// per learner and no other, no link, no HTML tag, one CSV cell per column
/// and none a formula.
fn no_markup_from_learners(md: &str, html: &str, csv: &str, learners: usize) {
    let headings = md.lines().filter(|l| l.starts_with('#')).count();
    // `# Grades`, `## Class summary`, `## Exercises`, `## Learners`, then one each.
    assert_eq!(
        headings,
        4 + learners,
        "a learner wrote a heading into report.md"
    );
    assert_eq!(
        html.matches("<h3>").count(),
        learners,
        "a learner wrote a heading into report.html"
    );
    // In Markdown a backslash before the markup's first character makes it
    // text: only an unescaped occurrence is markup.
    for bad in INJECTED {
        let raw = md.match_indices(bad).any(|(i, _)| !md[..i].ends_with('\\'));
        assert!(!raw, "report.md holds the raw markup {bad}");
    }
    // In HTML the same text is shown, escaped: no tag, link or attribute.
    for bad in ["href", "<a ", "<img", "<b>", "<script", "onerror=alert(1)>"] {
        assert!(!html.contains(bad), "report.html holds {bad}");
    }
    // The hostile text is there, as text a reader can see.
    assert!(html.contains("[grade](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt;"));
    let columns = csv.lines().next().unwrap().split(',').count();
    for line in csv.lines() {
        assert_eq!(
            line.split(',').count(),
            columns,
            "a cell broke its row: {line}"
        );
        assert!(
            !line.starts_with(['=', '+', '-', '@']),
            "a formula in grades.csv: {line}"
        );
    }
}

/// `text` with each libtest "finished in 0.01s" made "finished in [secs]".
fn without_durations(text: &str) -> String {
    const MARK: &str = "finished in ";
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at + MARK.len()]);
        rest = &rest[at + MARK.len()..];
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        // A message cut short may end inside the number ("0.02…").
        let cut = rest[digits..].starts_with('…');
        if digits > 0 && (cut || rest[digits..].starts_with('s')) {
            out.push_str("[secs]");
            rest = &rest[digits + usize::from(!cut)..];
        }
    }
    out + rest
}

fn list_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let path = e.path();
        if path.is_dir() && !path.is_symlink() {
            list_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The grade each learner deserves, row by row.
fn deserved_grades(csv: &str) {
    let row = |name: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap_or_else(|| panic!("no row for {name} in\n{csv}"))
            .to_string()
    };
    let cells = |name: &str| row(name).split_once(',').unwrap().1.to_string();
    let full = cells("all_correct");
    assert!(
        full.ends_with(",100.0"),
        "all correct must score full marks: {full}"
    );
    // Correct code scores full marks however it arrives and whatever it is called.
    for same in [
        "all_correct_again.tgz",
        "zipped.zip",
        "build_rs_and_dependency",
        "fs_escape",
        "grades.csv",
        "twice",
        "twice.zip",
        "caf%E9",
        "markdown_injection.zip",
        "%2Ehidden",
        "%2Drf",
        "Twin",
        "caf%C3%A9",
    ] {
        assert_eq!(cells(same), full, "{same} must score as all_correct does");
    }
    // Nothing earned: refused by the intake, never built, or never run.
    for zero in [
        "all_stubs",
        "edited_suites",
        "forbidden_api",
        "raw_identifier",
        "macro_built_path",
        "cfg_attr_path",
        "process_exit",
        "lookalike_identifier",
        "compile_error",
        "deep_nesting",
        "type_errors",
        "const_forever",
        "const_memory",
        "huge_static",
        "homework.txt",
        MARKUP_ID,
        "many_skipped.zip",
        "twin~2",
        "cafe%CC%81",
    ] {
        assert!(
            row(zero).ends_with(",0,0.0"),
            "{zero} must score zero: {}",
            row(zero)
        );
    }
    // Some tests lost, the rest earned.
    for name in [
        "partly_correct",
        "infinite_loop",
        "stack_overflow",
        "stdout_forgery",
        "thread_bomb",
        "memory_bomb",
        "tarred.tar.gz",
    ] {
        let r = row(name);
        assert!(
            !r.ends_with(",100.0") && !r.ends_with(",0,0.0"),
            "{name} must lose some points, not all: {r}"
        );
    }
}

/// The soundness-bug learner: every `dfs_stack` test (the forging one)
/// fails and names what went wrong, every other test passes, as its honest
/// code deserves.
fn soundness_exploit_earns_its_answers(out: &Path) {
    let text =
        std::fs::read_to_string(out.join("learners/soundness_exploit/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = json["tests"].as_array().unwrap();
    assert!(tests.len() > 10, "too few tests ran: {text}");
    for t in tests {
        let name = t["name"].as_str().unwrap();
        let status = t["status"].as_str().unwrap();
        if name.contains("dfs_stack") {
            assert_ne!(status, "pass", "{name} was forged into a pass: {t}");
            let message = t["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("protocol error")
                    || message.contains("ended")
                    || message.contains("expected"),
                "{name}: the message must say what the subject did: {message}"
            );
        } else {
            assert_eq!(status, "pass", "{name} is correct and must pass: {t}");
        }
    }
}

/// The learner who kills, floods and hangs its subject on one input each:
/// those tests fail with `crashed`, `crashed` (printed too much) and
/// `timeout`; every other test passes.
fn a_killed_subject_loses_only_its_tests(out: &Path) {
    let text = std::fs::read_to_string(out.join("learners/subject_killer/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for t in json["tests"].as_array().unwrap() {
        if t["status"] == "pass" {
            continue;
        }
        let name = t["name"].as_str().unwrap();
        let message = t["message"].as_str().unwrap_or_default();
        let kind = if message.contains("killed by signal 11") {
            "killed"
        } else if message.contains("printed more than") {
            "flooded"
        } else if message.contains("wall clock") {
            "hung"
        } else {
            panic!("{name} failed for another reason than its subject's fate: {message}")
        };
        seen.insert(kind);
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["flooded", "hung", "killed"],
        "each way of ending the subject must show: {text}"
    );
}
