//! What the grader's integration tests share: where the repository is, a
//! small workbook holding chapter 0 only, chapter 0's reference as a
//! learner would submit it, one `grader grade` run with the settings
//! every such test uses, and the gate that lets them pass, saying why, on
//! a machine without a working `bwrap` (a fresh clone with Rust and nothing
//! else), unless CI asks for them.
#![allow(dead_code)] // each test file uses a part

pub use workbook_core::testkit::*;

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

/// Whether the grader's sandbox can run here, for a test named `test`
/// that needs it. When `bwrap` is missing or cannot start, the test should
/// return at once: this prints one line saying why (to the real stderr,
/// past libtest's capture, so `cargo test` shows it) and returns false.
/// Under `CI=true` it panics with that line instead: CI must never pass a
/// grader test that did not run. `bwrap` is found on `PATH`, as the grader
/// finds it.
pub fn sandbox_or_skip(test: &str) -> bool {
    let probe = Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent"])
        .arg("true")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output();
    let why = match probe {
        Ok(out) if out.status.success() => return true,
        Ok(out) => format!(
            "`bwrap` cannot start here ({})",
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => format!("`bwrap` was not found on PATH ({e})"),
    };
    let line = format!(
        "{test}: not run: {why}; the grader's tests need bubblewrap (`apt-get install bubblewrap`)"
    );
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{line} (CI is set, so this fails instead of passing unrun)");
    }
    let _ = writeln!(std::io::stderr(), "{line}");
    false
}

/// Grades `subs` with the workbook at `root` into `out`, two learners at a
/// time, building in `target` (a folder of cargo's per-test scratch space, so
/// later runs only rebuild the learners' crates); panics with grade's
/// stderr if it fails.
pub fn grade(root: &Path, subs: &Path, out: &Path, target: &Path) {
    grade_watched(root, subs, out, target);
}

/// What a grading run took from the machine at its worst, sampled ten
/// times a second: the resident memory of the grader and every process it
/// started, together, and the bytes in its work folders (`TARGET/work`:
/// every worker's copy and target directory, links not counted).
#[derive(Debug, Clone, Copy, Default)]
pub struct Peaks {
    pub memory_bytes: u64,
    pub work_bytes: u64,
}

/// `grade`, measuring the run's peaks.
pub fn grade_watched(root: &Path, subs: &Path, out: &Path, target: &Path) -> Peaks {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grader"))
        .current_dir(root)
        .arg("grade")
        .arg(subs)
        .arg("--out")
        .arg(out)
        .arg("--target-dir")
        .arg(target)
        .args(["--jobs", "2"])
        .env_remove("CARGO_TARGET_DIR")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut { stderr }, &mut text);
        text
    });
    let mut peaks = Peaks::default();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        peaks.memory_bytes = peaks.memory_bytes.max(tree_rss(pid));
        peaks.work_bytes = peaks.work_bytes.max(bytes_in(&target.join("work")));
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let stderr = reader.join().unwrap();
    assert!(status.success(), "grade failed:\n{stderr}");
    peaks
}

/// The resident memory of `root` and all its descendants, in bytes.
fn tree_rss(root: u32) -> u64 {
    let mut parent = std::collections::HashMap::new();
    let mut rss = std::collections::HashMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let field = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        };
        if let Some(pp) = field("PPid:") {
            parent.insert(pid, pp as u32);
        }
        rss.insert(pid, field("VmRSS:").unwrap_or(0) * 1024);
    }
    let descends = |mut p: u32| {
        for _ in 0..64 {
            if p == root {
                return true;
            }
            match parent.get(&p) {
                Some(&pp) if pp != 0 => p = pp,
                _ => return false,
            }
        }
        false
    };
    rss.iter()
        .filter(|(p, _)| descends(**p))
        .map(|(_, r)| r)
        .sum()
}

/// Bytes in the files under `dir` (allocated blocks; links not followed).
pub fn bytes_in(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                Ok(m) if m.is_file() => total += std::os::unix::fs::MetadataExt::blocks(&m) * 512,
                _ => {}
            }
        }
    }
    total
}
