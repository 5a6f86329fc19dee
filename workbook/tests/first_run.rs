//! What a learner sees at the end of a failing `cargo test` in a chapter.
//!
//! libtest prints its own summary last, so the suites' support module
//! (tests/support.rs) registers an exit handler that adds one line after
//! it: the first failing exercise in the chapter's order, with the commands
//! that go on from there, spelled for where the learner's shell stands
//! (inside the chapter's folder, or anywhere else). This test runs chapter 0's suite against the
//! untouched stubs in the repository, as a learner's first `cargo test`
//! does, and reads that line. The state: the repository's own target
//! directory (the workspace build has compiled the dependencies). The cost:
//! one build of the intro crate's suite, then two runs of it.

mod common;

use common::repo;
use std::process::Command;

/// The last lines chapter 0's suite writes to stderr, run with `filter`
/// by a learner whose shell stands in `here` (relative to the repository).
fn untouched_intro_ends_with(filter: Option<&str>, here: &str) -> String {
    untouched_ends_with("intro", filter, here)
}

/// [`untouched_intro_ends_with`] for the suite of chapter `package`.
fn untouched_ends_with(package: &str, filter: Option<&str>, here: &str) -> String {
    untouched_ends_with_in(package, filter, here, "en")
}

/// [`untouched_ends_with`] for a learner of language `code`.
fn untouched_ends_with_in(package: &str, filter: Option<&str>, here: &str, code: &str) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(repo())
        .args(["test", "-q", "-p", package, "--test", package, "--"])
        .args(filter)
        .env("PWD", repo().join(here))
        .env_remove("WORKBOOK_NO_SUMMARY")
        .env_remove("RUST_BACKTRACE")
        .env("WORKBOOK_LANG", code);
    let run = cmd.output().expect("cargo runs");
    assert!(
        !run.status.success(),
        "the untouched stubs must fail the {package} suite"
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    lines[lines.len().saturating_sub(5)..].join("\n")
}

#[test]
fn an_untouched_chapter_ends_by_naming_its_first_exercise() {
    let end = untouched_intro_ends_with(None, "exercises/00_intro");
    // Every exercise of the chapter is a stub, so every one has failing tests.
    let info = std::fs::read_to_string(repo().join("exercises/00_intro/info.toml"))
        .expect("chapter 0's info.toml");
    let exercises = info.lines().filter(|l| l.trim() == "[[exercise]]").count();
    assert!(
        end.contains(&format!(
            "{exercises} exercises have failing tests. Start with `dfs_recursive`"
        )),
        "{end}"
    );
    assert!(end.contains("cargo test dfs_recursive"), "{end}");
    assert!(
        end.contains("cargo workbook trace dfs_recursive"),
        "a search names the command that shows it: {end}"
    );
    assert!(end.contains("cargo workbook hint dfs_recursive"), "{end}");
}

#[test]
fn a_filtered_run_names_the_exercise_it_ran() {
    let end = untouched_intro_ends_with(Some("dfs_stack"), "exercises/00_intro");
    assert!(
        end.contains("1 exercise has failing tests. Start with `dfs_stack`"),
        "{end}"
    );
}

#[test]
fn from_the_root_the_commands_name_the_chapter() {
    let end = untouched_intro_ends_with(None, ".");
    assert!(end.contains("cargo test -p intro dfs_recursive"), "{end}");
    assert!(
        end.contains("cargo workbook hint intro dfs_recursive"),
        "{end}"
    );
}

#[test]
fn the_summary_names_the_exercise_whose_stub_stopped_the_tests() {
    // Chapter 4's `naive` tests read their puzzles with `reading`'s
    // functions: on the untouched stubs they stop at `reading`'s todo!(),
    // so that is the exercise to write first, not `naive`.
    let end = untouched_ends_with("sudoku", Some("naive::"), "exercises/04_sudoku");
    assert!(end.contains("Start with `reading`"), "{end}");
}

#[test]
fn the_summary_names_the_exercise_s_book_section_as_the_learner_s_book_titles_it() {
    // The summary sends the learner to the book, so it names the section
    // the book has (`count_islands`' is "Solved in the workbook: counting
    // islands"), as every test message does, never the exercise's own
    // `info.toml` title, which no page carries.
    let heading = "Solved in the workbook: counting islands";
    let own = "Practice: counting islands";
    for code in ["ja", "zh-CN", "ru"] {
        let end =
            untouched_ends_with_in("intro", Some("count_islands"), "exercises/00_intro", code);
        let lang = workbook_core::lang::Lang::load(&repo(), code);
        let title = lang.title(heading);
        assert_ne!(title, heading, "{code} translates the heading");
        assert!(end.contains("`count_islands`"), "{code}: {end}");
        assert!(end.contains(title), "{code}: {title:?} missing from\n{end}");
        for absent in [heading, own, lang.title(own)] {
            assert!(!end.contains(absent), "{code}: {absent:?} in\n{end}");
        }
    }
}
