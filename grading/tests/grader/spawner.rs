//! The spawner leaves nothing of a test to the next one.
//!
//! The problem: with one sandbox per learner-chapter and role, the tests
//! of a learner-chapter meet the same PID, IPC and mount namespaces one
//! after another, so what one test leaves (a process it started in the
//! background, a file in `/tmp`) would meet the next. Here a spawner is
//! started in the judge's sandbox, as the grader starts it, and given
//! tests that leave sleepers (one of them orphaned) and a file behind, or
//! are killed while they run; the test after each sees only the
//! namespace's init, the spawner and itself, and an empty `/tmp` (but
//! for the binds' scaffolding when the checkout lies under `/tmp`), from
//! the same spawner throughout, and a file of the grader's behind a
//! writable bind under `/tmp` is left alone. A test is asked for as
//! `grader __limited …` under a uid of its own when the grader is root,
//! as a graded test is, and runs under those limits and that uid. Also: `grader __spawner` refuses to run
//! outside a sandbox (its sweep would kill what runs beside it). Cost:
//! about a second, no grading run.

use crate::tool;
use grader::sandbox::{Container, Mode, Sandbox};
use grader::spawner::{Slot, Spawner};
use std::io::Read;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The uid the spawner's tests are asked to run under when the grader is
/// root (any uid of the tests' range would do; one, asked and checked).
const TEST_UID: &str = "250999";

/// `script` run by `sh` in `spawner` (under [`TEST_UID`] when root),
/// killed after `kill_after` when given: how it ended and what it printed.
fn run(
    spawner: &Spawner,
    dir: &Path,
    script: &str,
    kill_after: Option<Duration>,
) -> (ExitStatus, String) {
    let grader = env!("CARGO_BIN_EXE_grader");
    let root = grader::sandbox::effective_uid() == Some(0);
    let uid = if root { TEST_UID } else { "-" };
    let mut cmd = Command::new(grader);
    cmd.args([
        "__limited",
        "1073741824",
        "30",
        "64",
        uid,
        "/bin/sh",
        "-c",
        script,
    ])
    .current_dir(dir)
    .env_clear()
    .env("PATH", "/usr/bin:/bin");
    let (mut out_r, out_w) = std::io::pipe().expect("a pipe");
    let (err_r, err_w) = std::io::pipe().expect("a pipe");
    let stdin: OwnedFd = std::fs::File::open("/dev/null").expect("/dev/null").into();
    spawner
        .spawn(&cmd, stdin, out_w.into(), err_w.into())
        .expect("the spawner starts the test");
    if let Some(after) = kill_after {
        std::thread::sleep(after);
        spawner.kill();
    }
    let started = Instant::now();
    let status = spawner.wait();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the test's end took {:?}",
        started.elapsed()
    );
    // Everything of the test is gone, so its pipes are closed at once
    // (a process left behind would hold them open).
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        let _ = out_r.read_to_string(&mut out);
        out
    });
    let until = Instant::now() + Duration::from_secs(5);
    while !reader.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        reader.is_finished(),
        "a process of the test outlived its end: its output is still open"
    );
    drop(err_r);
    (status, reader.join().expect("the reader"))
}

/// What a test sees when it starts: the processes listed (by the shell
/// alone, so none of its own helpers is among them) and `/tmp`.
const LOOK: &str = "cd /proc && for p in [0-9]*; do echo \"pid $p\"; done; echo tmp /tmp/*";

#[test]
fn a_test_in_a_spawner_finds_no_process_or_file_of_the_test_before_it() {
    if !tool::sandbox_or_skip("spawner") {
        return;
    }
    let sandbox = Sandbox::probe(false, Container::No).expect("bwrap starts");
    assert_eq!(sandbox.mode, Mode::Bwrap);
    let dir = tempfile::tempdir().expect("a temporary folder");
    tool::open_to_all(dir.path());
    let writable = dir.path().join("verdicts");
    std::fs::create_dir(&writable).expect("the verdicts folder");
    let grader = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    // A file of the grader's behind a writable bind under `/tmp` (as a
    // target directory under `/tmp` puts the verdicts folder): the cleanup
    // of the sandbox's own `/tmp` must leave it.
    let kept = writable.join("kept");
    std::fs::write(&kept, "the grader's").expect("a file in the verdicts folder");
    let prefix = sandbox.test_prefix(std::slice::from_ref(&grader), &writable, dir.path());
    // One spawner for every test: a test that ended, on its own or killed,
    // leaves it fit for the next (else a sandbox per test again, and more
    // work than before).
    let slot = Slot::default();
    let first: Arc<Spawner> = slot
        .get(|| prefix.clone(), &grader)
        .expect("the spawner starts");
    let spawner = || {
        let s = slot
            .get(|| prefix.clone(), &grader)
            .expect("the spawner answers");
        assert_eq!(
            s.host_pid(),
            first.host_pid(),
            "the spawner was replaced after a test"
        );
        s
    };

    // `/tmp` as a test must find it: empty but for the scaffolding of the
    // binds the sandbox was given that lie under the host's `/tmp` (a
    // checkout or temporary folder there: CI's clean clone may be one).
    let tmp = Path::new("/tmp");
    let mut scaffolding: Vec<String> = [grader.as_path(), dir.path(), writable.as_path()]
        .iter()
        .filter_map(|p| p.strip_prefix(tmp).ok()?.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        // `/tmp/*` lists no dot-file.
        .filter(|name| !name.starts_with('.'))
        .map(|name| format!("/tmp/{name}"))
        .collect();
    scaffolding.sort();
    scaffolding.dedup();
    let empty_tmp = if scaffolding.is_empty() {
        "tmp /tmp/*".to_string()
    } else {
        format!("tmp {}", scaffolding.join(" "))
    };
    let quiet = |what: &str, out: &str| {
        let pids: Vec<&str> = out.lines().filter(|l| l.starts_with("pid ")).collect();
        // init (bwrap), the spawner, and this shell.
        assert_eq!(pids.len(), 3, "{what}: {out}");
        assert!(
            out.lines().any(|l| l == empty_tmp),
            "{what}: /tmp holds more than `{empty_tmp}`: {out}"
        );
    };
    let (status, out) = run(&spawner(), dir.path(), LOOK, None);
    assert!(status.success(), "{out}");
    quiet("the first test", &out);

    // The spawner starts the program itself, not `__limited`: under the
    // same limits (CPU seconds, address space in KiB, no core) and uid.
    let (status, out) = run(
        &spawner(),
        dir.path(),
        "echo $(ulimit -t) $(ulimit -v) $(ulimit -c) $(id -u)",
        None,
    );
    assert!(status.success(), "{out}");
    let uid = if grader::sandbox::effective_uid() == Some(0) {
        TEST_UID.to_string()
    } else {
        grader::sandbox::effective_uid().map_or_else(String::new, |u| u.to_string())
    };
    assert_eq!(out.trim(), format!("30 1048576 0 {uid}"));

    let leaver = "sleep 600 & (sleep 600 &); (echo left > /tmp/left) 2>/dev/null; echo started";
    let (status, out) = run(&spawner(), dir.path(), leaver, None);
    assert!(status.success(), "{out}");
    assert_eq!(out.trim(), "started");
    let (_, out) = run(&spawner(), dir.path(), LOOK, None);
    quiet("after a test that left sleepers and a file", &out);

    let stuck = "sleep 600 & (sleep 600 &); sleep 600";
    let (status, _) = run(
        &spawner(),
        dir.path(),
        stuck,
        Some(Duration::from_millis(300)),
    );
    assert!(!status.success(), "a killed test does not succeed");
    let (status, out) = run(&spawner(), dir.path(), LOOK, None);
    assert!(status.success(), "{out}");
    quiet("after a killed test", &out);
    let _ = spawner();
    assert_eq!(
        std::fs::read_to_string(&kept).ok().as_deref(),
        Some("the grader's"),
        "the cleanup reached through a bind"
    );
}

#[test]
fn the_spawner_refuses_to_run_outside_a_sandbox() {
    let out = Command::new(env!("CARGO_BIN_EXE_grader"))
        .arg("__spawner")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the grader runs");
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("only as the first process"), "{said}");
}
