//! An interrupted grading run leaves nothing behind, and the next run
//! sweeps what a dead one left and writes a whole report.
//!
//! The problem: Ctrl-C in the middle of a class must not leave copies of
//! the workbook in the target directory or half a report where `--out`
//! points, and a run killed outright must not leave them for ever. State:
//! a class of four right answers to chapter 0 in a temporary folder,
//! graded in a real `grader grade` process in the shared target; once a
//! worker's folder exists (a learner is being built or tested), the
//! process gets SIGINT, as Ctrl-C would send it. It must exit promptly
//! with the shell's status for SIGINT, with no work folder, pristine copy
//! or grader copy of its own left in the target directory and no report,
//! whole or partial, where `--out` points. Then the folders a killed run
//! would leave are planted (under a pid whose lock nobody holds), and a
//! second run must remove them, say so, and write the whole gradebook.
//! Both runs are made in one turn, so no other run sweeps the planted
//! folders first. Cost: a pristine build per run, then five learner
//! builds.

use crate::tool;
use std::path::Path;
use std::time::{Duration, Instant};
use workbook_core::testkit::{learner_reference, mini_workbook, write};

const CONFIG: &str = "cpu_limit_secs = 5\nmemory_limit_mb = 512\n";
const LEARNERS: [&str; 4] = ["ada", "alan", "grace", "edsger"];

/// Everything in `target` named after the run `pid`.
fn folders_of(target: &Path, pid: u32) -> Vec<String> {
    let mut found = Vec::new();
    for (dir, named) in [
        (target.to_path_buf(), format!("-{pid}")),
        (target.join("work"), format!("{pid}-w")),
        (target.join("runs"), format!("{pid}.lock")),
    ] {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let mine = if named.starts_with('-') {
                name.ends_with(&named)
            } else {
                name.starts_with(&named)
            };
            if mine {
                found.push(e.path().display().to_string());
            }
        }
    }
    found
}

#[test]
fn an_interrupted_run_leaves_nothing_and_the_next_run_a_whole_report() {
    if !tool::sandbox_or_skip("an_interrupted_run_leaves_nothing_and_the_next_run_a_whole_report") {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let root = tmp.path().join("workbook");
    mini_workbook(&root, CONFIG);
    let solution = learner_reference(&root);
    let others = tool::intro_others(&root);
    let subs = tmp.path().join("submissions");
    for name in LEARNERS {
        let src = subs.join(name).join("exercises/00_intro/src");
        write(&src.join("lib.rs"), &solution);
        tool::write_others(&src, &others);
    }
    let out = tmp.path().join("report");
    let target = tool::shared_target();

    let turn = tool::turn();
    let mut run = turn.spawn(&mut tool::grade(&root, &subs, &out));
    let pid = run.child.id();
    // Wait for a worker's folder: the pristine build done, a learner begun.
    let start = Instant::now();
    let begun = || {
        std::fs::read_dir(target.join("work"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("{pid}-w"))
            })
    };
    while !begun() {
        if let Some(status) = run.child.try_wait().expect("the run can be waited for") {
            panic!(
                "the run ended ({status}) before any learner was begun:\n{}",
                run.said()
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(900),
            "no learner begun in 15 minutes"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let raw = rustix::process::Pid::from_raw(i32::try_from(pid).expect("a pid fits an i32"))
        .expect("a pid is positive");
    rustix::process::kill_process(raw, rustix::process::Signal::INT).expect("SIGINT is sent");
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = run.child.try_wait().expect("the run can be waited for") {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(30) {
            let _ = run.child.kill();
            panic!("the run was still going 30 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let said = run.said();
    assert_eq!(
        status.code(),
        Some(130),
        "an interrupted run exits as SIGINT's status:\n{said}"
    );
    assert!(said.contains("interrupted by SIGINT"), "{said}");
    assert_eq!(
        folders_of(&target, pid),
        Vec::<String>::new(),
        "the interrupted run left folders"
    );
    let beside: Vec<String> = std::fs::read_dir(tmp.path())
        .expect("the temporary folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "workbook" && n != "submissions")
        .collect();
    assert!(
        beside.is_empty(),
        "an interrupted run left a report, whole or partial: {beside:?}"
    );

    // What a run killed outright would leave: folders under a pid whose
    // lock nobody holds.
    let dead = 4_000_017;
    for d in [
        format!("pristine-{dead}"),
        format!("work/{dead}-w1/verdicts"),
    ] {
        std::fs::create_dir_all(target.join(d)).expect("a planted folder");
    }
    write(&target.join(format!("runs/{dead}.lock")), "");
    let again = turn.ok(&mut tool::grade(&root, &subs, &out));
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(
        said.contains(&format!("removed the leftovers of grading run {dead}")),
        "the second run did not say it swept the dead run's folders:\n{said}"
    );
    assert_eq!(folders_of(&target, dead), Vec::<String>::new());
    let csv = std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
    assert_eq!(csv.lines().count(), 2 + LEARNERS.len(), "{csv}");
    for name in LEARNERS {
        let row = csv.lines().find(|l| l.starts_with(&format!("{name},")));
        assert!(
            row.is_some_and(|r| r.ends_with(",100.0")),
            "{name} must score full marks: {csv}"
        );
        assert!(
            out.join("learners")
                .join(name)
                .join("results.json")
                .is_file(),
            "{name} has no results.json"
        );
    }
    assert!(out.join("report.md").is_file() && out.join("report.html").is_file());
}
