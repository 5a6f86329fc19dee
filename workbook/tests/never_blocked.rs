//! A learner never waits behind the tools' builds.
//!
//! The problem: cargo holds one lock per build directory for the whole of a
//! build, so a learner's `cargo test` printed "Blocking waiting for file
//! lock" for as long as `cargo run -p workbook` or the book's build was
//! compiling in the same `target/debug/`. The state: the tools build in a
//! profile of their own, `tool` (`.cargo/config.toml`: the aliases `cargo
//! workbook` and `cargo xtask`, and every cargo command the tools start),
//! so in `target/tool/`. These tests hold one directory's lock themselves,
//! as a build in it does, and run the other side's real command: it must
//! finish without waiting. A control holds the learner's own lock and sees
//! cargo wait, so the check can fail. The cost: no-op builds when the
//! workspace is built; a cold target compiles the tool (about a minute of
//! CPU) and chapter 0's suite.

mod common;

use common::repo;
use std::fs::File;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const BLOCKED: &str = "Blocking waiting for file lock";

/// The tests lock directories the others build in: one at a time.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_absolute() { t } else { repo().join(t) })
        .unwrap_or_else(|| repo().join("target"))
}

/// Holds cargo's lock of build directory `profile_dir` (`debug`, `tool`)
/// until the file is dropped: what a build in that directory holds.
fn hold_lock(profile_dir: &str) -> File {
    let dir = target_dir().join(profile_dir);
    std::fs::create_dir_all(&dir).expect("the target directory can be made");
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(".cargo-lock"))
        .expect("cargo's lock file opens");
    file.lock().expect("the lock is taken");
    file
}

/// Runs `cargo ARGS` from `here` (relative to the repository) for at most
/// `limit`: whether it finished successfully, and what it wrote to stderr.
fn cargo(here: &str, args: &[&str], limit: Duration) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut child = Command::new(cargo)
        .current_dir(repo().join(here))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cargo starts");
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let finished = loop {
        if let Some(status) = child.try_wait().expect("cargo can be waited for") {
            break status.success();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    (finished, reader.join().unwrap_or_default())
}

/// Long enough for a cold build of what is asked on a loaded machine.
const BUILD: Duration = Duration::from_secs(900);

#[test]
fn the_learners_cargo_test_runs_while_a_tool_is_building() {
    let _turn = one_at_a_time();
    let _tool_building = hold_lock("tool");
    let (finished, said) = cargo(
        "exercises/00_intro",
        &["test", "--no-run", "--test", "intro"],
        BUILD,
    );
    assert!(!said.contains(BLOCKED), "the learner waited:\n{said}");
    assert!(finished, "chapter 0's suite did not build:\n{said}");
}

#[test]
fn the_learners_tool_builds_while_the_learners_cargo_test_is_building() {
    let _turn = one_at_a_time();
    let _learner_building = hold_lock("debug");
    let (finished, said) = cargo("exercises/00_intro", &["workbook", "--help"], BUILD);
    assert!(!said.contains(BLOCKED), "the tool waited:\n{said}");
    assert!(finished, "`cargo workbook --help` failed:\n{said}");
}

#[test]
fn a_build_in_the_learners_own_directory_does_wait_which_the_tests_would_see() {
    let _turn = one_at_a_time();
    let _learner_building = hold_lock("debug");
    let (finished, said) = cargo(
        "exercises/00_intro",
        &["test", "--no-run", "--test", "intro"],
        Duration::from_secs(20),
    );
    assert!(
        !finished && said.contains(BLOCKED),
        "cargo did not wait for the held lock, so the tests above prove nothing:\n{said}"
    );
}

#[test]
fn both_tools_aliases_and_the_book_build_in_the_tools_profile() {
    let config: toml::Table = std::fs::read_to_string(repo().join(".cargo/config.toml"))
        .expect(".cargo/config.toml reads")
        .parse()
        .expect(".cargo/config.toml parses");
    for tool in ["workbook", "xtask"] {
        let alias = config["alias"][tool].as_str().unwrap_or_default();
        assert!(
            alias.contains("--profile tool") && alias.contains(&format!("-p {tool}")),
            "alias `cargo {tool}` = {alias:?} does not build in the tools' profile"
        );
    }
    assert_eq!(
        config["profile"]["tool"]["inherits"].as_str(),
        Some("dev"),
        "the tools' profile is the dev profile under another name"
    );
}
