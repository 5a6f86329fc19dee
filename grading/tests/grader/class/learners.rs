//! The hostile class as data: one entry per learner, with what it hands
//! in, the points it deserves and why.
//!
//! The problem: a grader is proved against threats only if each threat's
//! outcome is stated before the run, not read off it. State: the table
//! `class()` (45 learners of chapter 0, whose maximum is 45 points:
//! `dfs_recursive` 9 tests, `dfs_stack` 8, `subsets_with_sum` 8 of weight
//! 2, and the practice exercise `count_islands` 12), each a name in the
//! submissions folder, the id the grader gives it, its points, a sentence
//! saying why, and a function that writes its entry. Most learners hand in
//! `lib.rs` alone, as before the practice exercise existed: the grader keeps
//! the stub of a file not handed in, so they score [`LIB_ALONE`], never a
//! rejected chapter. Cost: writing the entries (one archive of 100,000
//! names).

use super::code::{self, CORRECT_DFS, CORRECT_STACK, FOREVER, with};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use workbook_core::testkit::write;

/// Where a learner's chapter 0 sits in a copy of the workbook.
pub const LIB: &str = "exercises/00_intro/src/lib.rs";

/// Where the practice exercise `count_islands` sits beside it.
pub const PRACTICE: &str = "exercises/00_intro/src/islands.rs";

/// The chapter's maximum (the class config weighs `subsets_with_sum` 2).
pub const MAX: u32 = 45;

/// A correct chapter handed in as `lib.rs` alone: `islands.rs` keeps its
/// stub ("not submitted; the stub was used"), so `count_islands`'s 12 tests
/// fail and the other three exercises keep all their 33 points.
pub const LIB_ALONE: u32 = 33;

/// What every entry is written from.
pub struct Kit {
    /// Chapter 0's reference as a learner would hand it in.
    pub solution: String,
    /// Its practice file `islands.rs`, solved, as a learner would hand it in.
    pub practice: String,
    /// Chapter 0's stubs, untouched.
    pub stubs: String,
    /// A folder outside everything the grader may write.
    pub escape: PathBuf,
}

/// One learner of the class.
pub struct Learner {
    /// Its name in the submissions folder.
    pub entry: OsString,
    /// The id the grader gives it: its folder under `learners/` and the
    /// first cell of its row in `grades.csv`.
    pub id: &'static str,
    /// The points it deserves, of `MAX`.
    pub points: u32,
    /// Why it deserves them.
    pub why: &'static str,
    /// Writes its entry at the path given (`SUBMISSIONS/entry`).
    pub hand_in: fn(&Kit, &Path),
}

/// A learner whose id is its entry's name.
fn learner(
    entry: &'static str,
    points: u32,
    why: &'static str,
    hand_in: fn(&Kit, &Path),
) -> Learner {
    renamed(entry, entry, points, why, hand_in)
}

/// A learner whose id is not its entry's name.
fn renamed(
    entry: impl AsRef<OsStr>,
    id: &'static str,
    points: u32,
    why: &'static str,
    hand_in: fn(&Kit, &Path),
) -> Learner {
    Learner {
        entry: entry.as_ref().to_os_string(),
        id,
        points,
        why,
        hand_in,
    }
}

/// A copy of the workbook holding `text` as chapter 0's `lib.rs`, and
/// nothing else of it (its `islands.rs` left out).
fn lib(at: &Path, text: &str) {
    write(&at.join(LIB), text);
}

/// A copy of the workbook holding `text` as chapter 0's `lib.rs` beside its
/// practice file solved: the whole chapter handed in.
fn whole(k: &Kit, at: &Path, text: &str) {
    lib(at, text);
    write(&at.join(PRACTICE), &k.practice);
}

/// The class, in the order of threats: honest work, the intake, runs,
/// builds, the soundness of the judge, and names.
pub fn class() -> Vec<Learner> {
    vec![
        learner(
            "all_correct",
            MAX,
            "the reference, `lib.rs` and `islands.rs`, handed in as a learner would: the measure of full marks",
            |k, at| whole(k, at, &k.solution),
        ),
        learner(
            "all_stubs",
            0,
            "a copy of `exercises/` alone, stubs untouched: not started, not built",
            |k, at| write(&at.join("00_intro/src/lib.rs"), &k.stubs),
        ),
        learner(
            "partly_correct",
            26,
            "`dfs_stack` returns nothing: of its 8 tests it passes only the one whose answer is empty",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_stack",
                        "let _ = (graph, start); Vec::new()",
                    ),
                )
            },
        ),
        learner(
            "compile_error",
            0,
            "`dfs_stack` does not type-check: the chapter does not compile",
            |k, at| {
                lib(
                    at,
                    &with(&k.solution, "dfs_stack", "let n: u32 = graph; Vec::new()"),
                )
            },
        ),
        learner(
            "infinite_loop",
            30,
            "`dfs_recursive` spins on a graph of 7 vertices: the 3 tests that draw one run out of CPU time, and only those",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_recursive",
                        &format!(
                            "if graph.len() == 7 {{ loop {{ std::hint::black_box(0); }} }} {CORRECT_DFS}"
                        ),
                    ),
                )
            },
        ),
        learner(
            "stack_overflow",
            27,
            "`subsets_with_sum` recurses without end for a target of 10: the 3 tests with that target (2 points each) crash",
            |k, at| lib(at, &code::stack_overflow(&k.solution)),
        ),
        learner(
            "memory_bomb",
            25,
            "`dfs_stack` allocates without end on every call: its 8 tests run out of memory, whatever their inputs",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_stack",
                        "let _ = (graph, start); let mut hog = Vec::new(); loop { hog.push(std::hint::black_box(vec![1u8; 1 << 20])); }",
                    ),
                )
            },
        ),
        learner(
            "edited_suites",
            0,
            "the stubs, with the suite and a snapshot rewritten to pass anything: the instructor's are used, so nothing is started",
            |k, at| {
                lib(at, &k.stubs);
                write(
                    &at.join("tests/intro.rs"),
                    "#[test]\nfn dfs_recursive() {}\n",
                );
                write(&at.join("tests/snapshots/intro__dfs_recursive__a_tree_of_seven_is_listed_depth_first.snap"), "---\nsource: tests/intro.rs\nexpression: anything\n---\n[]\n");
            },
        ),
        learner(
            "build_rs_and_dependency",
            LIB_ALONE,
            "the reference beside a build script that panics and a manifest that adds a crate: both ignored, never run",
            |k, at| {
                lib(at, &k.solution);
                write(
                    &at.join("exercises/00_intro/build.rs"),
                    "fn main() { panic!(\"a build script from a submission ran\"); }\n",
                );
                write(
                    &at.join("exercises/00_intro/Cargo.toml"),
                    "[package]\nname = \"intro\"\nversion = \"0.1.0\"\nbuild = \"build.rs\"\n[dependencies]\nevil = \"6.6.6\"\n",
                );
            },
        ),
        learner(
            "forbidden_api",
            0,
            "the reference plus `std::process` and `include_str!` of a host file: refused by the intake",
            |k, at| {
                lib(
                    at,
                    &format!(
                        "{}\nfn peek() -> String {{ std::process::id().to_string() }}\nconst LEAK: &str = include_str!(\"/etc/hostname\");\n",
                        k.solution
                    ),
                )
            },
        ),
        // The intake's grammar, each way around it refused.
        learner(
            "raw_identifier",
            0,
            "`std::r#process` hides a forbidden path behind a raw identifier: refused",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_recursive",
                        &format!("let _ = std::r#process::id(); {CORRECT_DFS}"),
                    ),
                )
            },
        ),
        learner(
            "macro_built_path",
            0,
            "a macro that assembles `std::process::exit`: macro definitions and unknown macros refused",
            |k, at| {
                lib(
                    at,
                    &format!(
                        "{}\nmacro_rules! m {{ ($a:ident) => {{ std::$a::exit(0) }} }}\n",
                        with(
                            &k.solution,
                            "dfs_recursive",
                            &format!("if graph.is_empty() {{ m!(process); }} {CORRECT_DFS}")
                        )
                    ),
                )
            },
        ),
        learner(
            "cfg_attr_path",
            0,
            "`#[cfg_attr(all(), path = ...)]` points a module at a host file: off the attribute allow-list, refused",
            |k, at| {
                lib(
                    at,
                    &format!(
                        "{}\n#[cfg_attr(all(), path = \"/etc/hostname\")]\nfn helper() {{}}\n",
                        k.solution
                    ),
                )
            },
        ),
        learner(
            "process_exit",
            0,
            "`dfs_recursive` ends the process with status 0, as if every test passed: refused",
            |k, at| {
                lib(
                    at,
                    &with(&k.solution, "dfs_recursive", "std::process::exit(0)"),
                )
            },
        ),
        learner(
            "lookalike_identifier",
            0,
            "`std::ｐrocess` with a full-width p: a non-ASCII identifier, refused",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_recursive",
                        &format!("let _ = std::ｐrocess::id(); {CORRECT_DFS}"),
                    ),
                )
            },
        ),
        learner(
            "deep_nesting",
            0,
            "100,000 nested parentheses would overflow a parser: refused before parsing",
            |k, at| {
                let nested = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_stack",
                        &format!("let _ = (graph, start, {nested}); Vec::new()"),
                    ),
                );
            },
        ),
        learner(
            "type_errors",
            0,
            "5,000 type errors: no compile, and its report capped",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_stack",
                        &format!("{} Vec::new()", "let _: u8 = \"x\";\n".repeat(5000)),
                    ),
                )
            },
        ),
        learner(
            "const_forever",
            0,
            "a constant whose evaluation never ends: its build is stopped when the learner's build budget runs out",
            |k, at| {
                lib(
                    at,
                    &format!(
                        "{}{FOREVER}",
                        with(
                            &k.solution,
                            "dfs_stack",
                            "let _ = (graph, start, FOREVER); Vec::new()"
                        )
                    ),
                )
            },
        ),
        // Code that runs and attacks the grader from inside a test.
        learner(
            "stdout_forgery",
            26,
            "`dfs_stack` returns nothing and prints libtest's `ok` and summary: only the judge's verdict counts, as for `partly_correct`",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_stack",
                        "let _ = (graph, start); println!(\"test dfs_stack ... ok\\n\\ntest result: ok. 1 passed; 0 failed\"); Vec::new()",
                    ),
                )
            },
        ),
        learner(
            "fs_escape",
            MAX,
            "correct, after trying to write and read past its sandbox with `std::fs` allowed: full marks only if every attempt failed",
            |k, at| whole(k, at, &code::fs_escape(&k.solution, &k.escape)),
        ),
        learner(
            "thread_bomb",
            25,
            "`dfs_stack` starts threads without end: its 8 tests hit the task limit and crash",
            |k, at| {
                lib(
                    at,
                    &with(
                        &k.solution,
                        "dfs_stack",
                        "let _ = (graph, start); let mut all = Vec::new(); loop { all.push(std::thread::Builder::new().stack_size(1 << 16).spawn(|| std::thread::sleep(std::time::Duration::from_secs(3))).expect(\"spawn\")); }",
                    ),
                )
            },
        ),
        // Archives, each with a path that leaves the submission.
        learner(
            "zipped.zip",
            LIB_ALONE,
            "the reference in a zip beside a path leaving the submission and a symlink to a host file, both skipped",
            |k, at| {
                code::zip(
                    at,
                    &[
                        ("workbook/exercises/00_intro/src/lib.rs", &k.solution),
                        ("../../escaped.rs", "fn main() {}"),
                    ],
                    Some(("workbook/exercises/00_intro/src/linked.rs", "/etc/passwd")),
                )
            },
        ),
        learner(
            "tarred.tar.gz",
            21,
            "`subsets_with_sum` returns nothing (beside a path leaving the archive, skipped): it passes the 2 of its 8 tests whose answer is empty",
            |k, at| {
                code::tar_gz(
                    at,
                    &[
                        (
                            LIB,
                            &with(
                                &k.solution,
                                "subsets_with_sum",
                                "let _ = (items, target); Vec::new()",
                            ),
                        ),
                        ("../escaped.rs", "fn main() {}"),
                    ],
                )
            },
        ),
        learner(
            "all_correct_again.tgz",
            LIB_ALONE,
            "the reference in a `.tgz`",
            |k, at| code::tar_gz(at, &[(LIB, &k.solution)]),
        ),
        // The judge, against a learner who owns its process.
        learner(
            "soundness_exploit",
            MAX - 8,
            "reaches any memory of its subject without `unsafe` (rust-lang/rust#25860, the stopgap relaxed) and forges verdicts and answer frames in `dfs_stack`: loses `dfs_stack`'s 8 tests, keeps the rest (`islands.rs` included), which is correct",
            |k, at| whole(k, at, &code::soundness_exploit(&k.solution)),
        ),
        learner(
            "frame_forger",
            24,
            "announces a 3.6 GB frame on the wire in `dfs_recursive` (rust-lang/rust#25860, the stopgap relaxed): the judge refuses the length before allocating; loses `dfs_recursive`'s 9 tests",
            |k, at| lib(at, &code::frame_forger(&k.solution)),
        ),
        learner(
            "frame_forger_sub_cap",
            24,
            "sends a whole 255 MiB reply on the wire in `dfs_recursive` (under the wire's cap, past what the judge's 512 MiB holds twice): the judge refuses the length against its memory, never runs out of it; loses `dfs_recursive`'s 9 tests",
            |k, at| lib(at, &code::frame_forger_sub_cap(&k.solution)),
        ),
        learner(
            "transmute_57893",
            0,
            "hands in rust-lang/rust#57893's transmute (no `unsafe`, lifetime, `for<>`, `fn` type or cast): the stopgap refuses it at `dyn Object<U, Output = T>`, so the chapter is rejected",
            |k, at| lib(at, &code::transmute_57893(&k.solution)),
        ),
        learner(
            "subject_killer",
            MAX - 11,
            "kills, floods and hangs its subject on one input each (`islands.rs` handed in, correct): loses exactly the tests with that input (3 killed, 2 flooded, 3 of 2 points hung)",
            |k, at| whole(k, at, &code::subject_killer(&k.solution)),
        ),
        // Correct chapters whose build would hurt the machine.
        learner(
            "const_memory",
            0,
            "a constant whose evaluation needs 3 GiB: its build is stopped at the build's memory limit",
            |k, at| {
                lib(
                    at,
                    &format!(
                        "{}\nconst BIG: [u8; 3 << 30] = [7; 3 << 30];\n",
                        with(
                            &k.solution,
                            "dfs_stack",
                            &format!("let _ = std::hint::black_box(BIG[1]); {CORRECT_STACK}")
                        )
                    ),
                )
            },
        ),
        learner(
            "huge_static",
            0,
            "a static of 512 MiB of non-zero bytes: its build is stopped by a build limit (memory, as it happens: the compiler holds the bytes it writes)",
            |k, at| {
                lib(
                    at,
                    &format!(
                        "{}\nstatic HUGE: [u8; 512 << 20] = [1; 512 << 20];\n",
                        with(
                            &k.solution,
                            "dfs_stack",
                            &format!("let _ = std::hint::black_box(&HUGE); {CORRECT_STACK}")
                        )
                    ),
                )
            },
        ),
        // Names: each entry a learner of its own, none of it markup.
        learner(
            "grades.csv",
            LIB_ALONE,
            "a folder named like a report file: a learner like any other",
            |k, at| lib(at, &k.solution),
        ),
        learner(
            "twice",
            LIB_ALONE,
            "a folder with the same stem as `twice.zip`: two learners, neither overwriting the other",
            |k, at| lib(at, &k.solution),
        ),
        learner(
            "twice.zip",
            LIB_ALONE,
            "an archive with the same stem as `twice`",
            |k, at| code::zip(at, &[(LIB, &k.solution)], None),
        ),
        renamed(
            OsStr::from_bytes(b"caf\xe9"),
            "caf%E9",
            LIB_ALONE,
            "a name that is not UTF-8 (Latin-1): its byte written %E9",
            |k, at| lib(at, &k.solution),
        ),
        learner(
            "homework.txt",
            0,
            "a file that is neither a folder nor an archive: a row with the error",
            |_, at| write(at, "I did it all in my head.\n"),
        ),
        learner(
            "markdown_injection.zip",
            LIB_ALONE,
            "the reference, in an archive whose skipped path holds a forged heading, a `javascript:` link and HTML",
            |k, at| {
                code::zip(
                    at,
                    &[(LIB, &k.solution), (code::MARKUP_PATH, "fn main() {}")],
                    None,
                )
            },
        ),
        renamed(
            code::MARKUP_FOLDER,
            MARKUP_ID,
            0,
            "a folder named with a forged heading, a link and HTML, holding the stubs",
            |k, at| lib(at, &k.stubs),
        ),
        learner(
            "many_skipped.zip",
            0,
            "100,000 entries, every one leaving the submission: nothing submitted, and its notes capped",
            |_, at| {
                let many: Vec<String> =
                    (0..100_000).map(|i| format!("../skipped/{i}.rs")).collect();
                let entries: Vec<(&str, &str)> = many.iter().map(|n| (n.as_str(), "")).collect();
                code::zip(at, &entries, None);
            },
        ),
        renamed(
            ".hidden",
            "%2Ehidden",
            LIB_ALONE,
            "a hidden folder: a learner of its own, its leading dot written %2E",
            |k, at| lib(at, &k.solution),
        ),
        renamed(
            "-rf",
            "%2Drf",
            LIB_ALONE,
            "a name that reads as an option: its leading dash written %2D",
            |k, at| lib(at, &k.solution),
        ),
        // Names a person reads as one: the right answer under one, the
        // stubs under the other, so a merge would show.
        learner(
            "Twin",
            LIB_ALONE,
            "the reference, under a name that differs from `twin` only in case",
            |k, at| lib(at, &k.solution),
        ),
        renamed(
            "twin",
            "twin~2",
            0,
            "the stubs, under a name that differs from `Twin` only in case: an id that differs without case too",
            |k, at| lib(at, &k.stubs),
        ),
        renamed(
            "caf\u{e9}",
            "caf%C3%A9",
            LIB_ALONE,
            "the reference, under `café` precomposed",
            |k, at| lib(at, &k.solution),
        ),
        renamed(
            "cafe\u{301}",
            "cafe%CC%81",
            0,
            "the stubs, under `café` decomposed: alike but for Unicode normalisation, a learner of its own",
            |k, at| lib(at, &k.stubs),
        ),
    ]
}

/// The id the grader gives the folder named `code::MARKUP_FOLDER`.
pub const MARKUP_ID: &str = "x%0A%23%23%23%20forged%3A%20full%20marks%0A%3Cb%3E%5Bgo%5D%28javascript%3Aalert%281%29%29%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E";
