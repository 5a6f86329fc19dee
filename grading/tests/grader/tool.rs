//! Running the grader binary, the one way every module of this test binary
//! does it.
//!
//! The problem: each grading run compiles the locked dependencies of the
//! chapters it grades into its target directory unless they are there
//! already (minutes on two cores), and a run is only reproducible if
//! nothing else grades beside it on the same machine. State: one target
//! directory for every run of this binary (`CARGO_TARGET_TMPDIR/
//! grader-shared/grade`), prepared once for chapter 0 (`grader grade
//! prepare`) before the first run, and one turn (a process-wide mutex)
//! that every grading run holds, so runs never overlap. Cost: the
//! dependencies compiled once per feature set for the whole binary; the
//! pristine copy and its judges are kept between runs under a key
//! (`prepared/KEY`, see grading/src/prepare/prepared.rs): a run with the
//! same workbook and config builds nothing, and one with another builds
//! only what it changed (in the kept `pristine`).
//! Every run grades with one hidden seed (`hidden_seed`), outside the
//! workbooks, as an instructor's is.
//!
//! Why runs take turns rather than share the directory at once: the
//! grader keeps its own folders apart per process (`runs/PID.lock`,
//! `pristine-PID`, `work/PID-wN`) and cargo locks the build directory,
//! but two runs at once are not the same as one after the other. A run
//! starting beside another sweeps what it takes for a dead run's
//! leftovers (the interrupt test plants some and must be the one to sweep
//! them), each run's peaks are measured on the machine they share, two
//! runs of two workers each on two cores push the class's wall-clock and
//! build limits towards verdicts that depend on the load, and cargo
//! trusts a unit whose sources look older than its outputs (a pristine
//! copy written while another run builds). Taking turns costs nothing in
//! throughput: each run already keeps both cores busy.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;
use workbook_core::testkit::repo;

/// The folder whose `grade/` is the shared target directory: what
/// `CARGO_TARGET_DIR` says to every grader this binary starts, so a command
/// without `--target-dir` (`test-runner`) builds there too.
fn shared_parent() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("grader-shared")
}

/// The target directory every grading run of this binary builds in.
pub fn shared_target() -> PathBuf {
    shared_parent().join("grade")
}

/// The grader binary, to run in the workbook `workbook`, with the
/// environment every test needs.
pub fn grader(workbook: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grader"));
    environment(&mut cmd, workbook);
    cmd
}

/// A platform's entry script (`grading/platforms/...`), which runs the
/// grader binary (`WORKBOOK_BIN`) in `workbook` (`WORKBOOK_DIR`), with the
/// environment every test needs.
pub fn script(workbook: &Path, script: &Path) -> Command {
    let mut cmd = Command::new(script);
    environment(&mut cmd, workbook);
    cmd.env("WORKBOOK_DIR", workbook)
        .env("WORKBOOK_BIN", env!("CARGO_BIN_EXE_grader"));
    cmd
}

/// What every run needs: the workbook as its working folder, no input,
/// and cargo's target directory (which `cargo test` may have set for this
/// binary's own build) pointed at the shared one.
fn environment(cmd: &mut Command, workbook: &Path) {
    cmd.current_dir(workbook)
        .env("CARGO_TARGET_DIR", shared_parent())
        .env("WORKBOOK_HIDDEN_SEED_FILE", hidden_seed())
        .stdin(Stdio::null());
}

/// The hidden suites' seed every run of this binary grades with (outside
/// every workbook it grades, as an instructor keeps it): one seed, so the
/// grades the tests assert are the same on every run; a test that needs
/// another sets `WORKBOOK_HIDDEN_SEED_FILE` itself.
pub fn hidden_seed() -> PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let file = shared_parent().join("hidden-seed");
        std::fs::create_dir_all(shared_parent()).expect("the shared target's parent");
        std::fs::write(&file, "20261127\n").expect("the hidden seed file");
        // Its owner's alone, as an instructor keeps it (container mode
        // refuses a seed file every user can read).
        std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .expect("the hidden seed file closed");
        file
    })
    .clone()
}

/// `grade SUBMISSIONS --out OUT` into the shared target, two learners at a
/// time: the class run most tests make.
pub fn grade(workbook: &Path, subs: &Path, out: &Path) -> Command {
    let mut cmd = grader(workbook);
    cmd.arg("grade")
        .arg(subs)
        .arg("--out")
        .arg(out)
        .arg("--target-dir")
        .arg(shared_target())
        .args(["--jobs", "2"]);
    cmd
}

/// The right to run the grader: held by one test at a time (see the top
/// of this file), for as many runs as it makes. Never take a second one
/// while holding one: the lock is not reentrant.
pub struct Turn {
    _held: MutexGuard<'static, ()>,
}

/// Waits for the turn; the first turn of the binary prepares the shared
/// target first.
pub fn turn() -> Turn {
    static TURN: Mutex<()> = Mutex::new(());
    // A test that panicked while it held the turn still let it go.
    let held = TURN.lock().unwrap_or_else(PoisonError::into_inner);
    prepared();
    Turn { _held: held }
}

/// `grader grade prepare` for chapter 0 (what every module grades) into the
/// shared target, once; a failure is kept and fails every later turn.
fn prepared() {
    static PREPARED: OnceLock<Result<(), String>> = OnceLock::new();
    let done = PREPARED.get_or_init(|| {
        let mut cmd = grader(&repo());
        cmd.args(["grade", "prepare", "--chapter", "intro", "--target-dir"])
            .arg(shared_target());
        // Built as the runs that follow build: in bwrap when it works,
        // else (a machine where only the platforms' test runs) as in a
        // container.
        if bwrap_missing().is_some() {
            cmd.args(["--sandbox", "container", "--force-container"]);
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run the grader: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    });
    if let Err(said) = done {
        panic!("grader grade prepare failed, so no grading run can start:\n{said}");
    }
}

impl Turn {
    /// Runs `cmd` to its end; its output, whatever its status.
    pub fn run(&self, cmd: &mut Command) -> Output {
        cmd.output().expect("the grader starts")
    }

    /// Runs `cmd`, which must succeed; its output.
    #[track_caller]
    pub fn ok(&self, cmd: &mut Command) -> Output {
        let out = self.run(cmd);
        assert!(
            out.status.success(),
            "{:?} failed ({}):\n{}",
            cmd.get_args().collect::<Vec<_>>(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// Starts `cmd` with its standard error read aside; the run lives no
    /// longer than this turn.
    pub fn spawn(&self, cmd: &mut Command) -> Running<'_> {
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the grader starts");
        let mut stderr = child.stderr.take().expect("a piped stderr");
        let said = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Running {
            child,
            said,
            _turn: self,
        }
    }

    /// Runs `cmd` (a `grade` into `target`), which must succeed, measuring
    /// what it took from the machine at its worst.
    pub fn watched(&self, cmd: &mut Command, target: &Path) -> Peaks {
        let mut run = self.spawn(cmd);
        let pid = run.child.id();
        let mut peaks = Peaks::default();
        let status = loop {
            if let Some(status) = run.child.try_wait().expect("the run can be waited for") {
                break status;
            }
            peaks.memory_bytes = peaks.memory_bytes.max(tree_rss(pid));
            peaks.work_bytes = peaks.work_bytes.max(work_bytes(target, pid));
            std::thread::sleep(Duration::from_millis(100));
        };
        let said = run.said();
        assert!(status.success(), "grade failed ({status}):\n{said}");
        peaks
    }
}

/// A grading run started by `Turn::spawn`.
pub struct Running<'t> {
    pub child: Child,
    said: JoinHandle<String>,
    _turn: &'t Turn,
}

impl Running<'_> {
    /// Everything the run wrote to its standard error, once it has ended
    /// (it waits for the end of the stream).
    pub fn said(self) -> String {
        self.said.join().expect("the stderr reader ends")
    }
}

/// What a grading run took from the machine at its worst, sampled ten
/// times a second: the resident memory of the grader and every process it
/// started, together, and the bytes in its own work folders
/// (`TARGET/work/PID-*`, every worker's copy, and `TARGET/workers/wN`,
/// every worker's target directory; links not counted).
#[derive(Debug, Clone, Copy, Default)]
pub struct Peaks {
    pub memory_bytes: u64,
    pub work_bytes: u64,
}

/// The bytes in the work folders of the run `pid` in `target`, and in the
/// workers' target directories (`TARGET/workers/wN`, kept between runs:
/// only the running run writes there, as grading runs take turns).
fn work_bytes(target: &Path, pid: u32) -> u64 {
    let mine = format!("{pid}-");
    let copies: u64 = std::fs::read_dir(target.join("work"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&mine))
        .map(|e| bytes_in(&e.path()))
        .sum();
    let builds: u64 = std::fs::read_dir(target.join("workers"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| bytes_in(&e.path()))
        .sum();
    copies + builds
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
        // A process may end between the listing and this read.
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let field = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        };
        if let Some(pp) = field("PPid:").and_then(|p| u32::try_from(p).ok()) {
            parent.insert(pid, pp);
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
fn bytes_in(dir: &Path) -> u64 {
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

/// Why the grader's sandbox cannot run here (`bwrap` missing or unable to
/// start), or `None` when it can; probed once. `bwrap` is found on `PATH`,
/// as the grader finds it.
fn bwrap_missing() -> Option<&'static str> {
    static WHY: OnceLock<Option<String>> = OnceLock::new();
    WHY.get_or_init(|| {
        let probe = Command::new("bwrap")
            .args(["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent"])
            .arg("true")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output();
        match probe {
            Ok(out) if out.status.success() => None,
            Ok(out) => Some(format!(
                "`bwrap` cannot start here ({})",
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            Err(e) => Some(format!("`bwrap` was not found on PATH ({e})")),
        }
    })
    .as_deref()
}

/// Opens `path` to every user (mode 0755): the tests' uids and a platform's
/// must reach a workbook, a target or submissions made under it, and
/// `tempfile` makes its folders 0700.
pub fn open_to_all(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .expect("the folder opened to every user");
}

/// Chapter 0's reference files other than `lib.rs` (its practice
/// exercise's `islands.rs`), as (file name, text): a submission whose
/// `lib.rs` is the one thing a test varies hands these in beside it, as a
/// learner who did the whole chapter would. Which files: the chapter's own
/// listing of its stub files (`Chapter::stub_files`), each taken from the
/// reference as a learner would submit it.
pub fn intro_others(root: &Path) -> Vec<(String, String)> {
    let chapters = workbook_core::info::load_chapters(root).expect("the chapters load");
    let intro = workbook_core::names::chapter(&chapters, "intro").expect("chapter 0");
    // Written aside, never into `root` (which may be the repository).
    let out = tempfile::tempdir().expect("a temporary folder");
    workbook_core::testkit::write_learner_reference(root, "intro", out.path());
    intro
        .stub_files()
        .expect("chapter 0's stub files")
        .iter()
        .filter_map(|path| path.file_name()?.to_str().map(str::to_string))
        .filter(|name| name != "lib.rs")
        .map(|name| {
            let text = std::fs::read_to_string(out.path().join(&name))
                .unwrap_or_else(|e| panic!("the reference's {name}: {e}"));
            (name, text)
        })
        .collect()
}

/// Chapter 0's reference as a learner hands it in, written into the
/// folder `reference`, and its `lib.rs` with a `dfs_recursive` body of its
/// own (the reference's, marked with `nonce`): sources no earlier run
/// built, so the first grading of them builds them.
pub fn unbuilt_intro_lib(reference: &Path, nonce: &str) -> String {
    workbook_core::testkit::write_learner_reference(
        &workbook_core::testkit::repo(),
        "intro",
        reference,
    );
    workbook_core::testkit::replace_body(
        &std::fs::read_to_string(reference.join("lib.rs")).expect("the reference's lib.rs"),
        "dfs_recursive",
        &format!(
            "let _ = {nonce:?}; let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); \
             visit(graph, start, &mut seen, &mut order); order"
        ),
    )
}

/// Writes `files` (from [`intro_others`]) into the folder `dir`.
pub fn write_others(dir: &Path, files: &[(String, String)]) {
    for (name, text) in files {
        workbook_core::testkit::write(&dir.join(name), text);
    }
}

/// Whether the grader's sandbox can run here, for a test named `test`
/// that needs it. When it cannot, the test should return at once: this
/// prints one line saying why (to the real stderr, past libtest's
/// capture, so `cargo test` shows it) and returns false. Under `CI=true`
/// it panics with that line instead: CI must never pass a grader test that
/// did not run.
pub fn sandbox_or_skip(test: &str) -> bool {
    let Some(why) = bwrap_missing() else {
        return true;
    };
    let line = format!(
        "{test}: not run: {why}; the grader's tests need bubblewrap (`apt-get install bubblewrap`)"
    );
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{line} (CI is set, so this fails instead of passing unrun)");
    }
    let _ = std::io::Write::write_all(&mut std::io::stderr(), format!("{line}\n").as_bytes());
    false
}

/// A result several tests read (a graded class): made by whichever test
/// asks first, under that test's turn. A batch that failed is never made
/// again (it would cost every reader the whole run): each test that reads
/// it fails with the first failure's message.
pub struct Batch<T> {
    cell: OnceLock<Result<T, String>>,
}

impl<T> Batch<T> {
    pub const fn new() -> Self {
        Self {
            cell: OnceLock::new(),
        }
    }

    /// The batch, made by `make` if no test made it yet.
    pub fn get(&self, make: impl FnOnce() -> T) -> &T {
        let made = self.cell.get_or_init(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(make)).map_err(|p| {
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic without a message".into())
            })
        });
        match made {
            Ok(batch) => batch,
            Err(said) => panic!("the batch this test reads could not be made: {said}"),
        }
    }
}

#[test]
fn intro_others_hand_in_each_of_chapter_0_s_files_but_lib_rs_written() {
    let root = repo();
    let others = intro_others(&root);
    let names: Vec<&str> = others.iter().map(|(name, _)| name.as_str()).collect();
    assert!(names.contains(&"islands.rs"), "{names:?}");
    assert!(!names.contains(&"lib.rs"), "{names:?}");
    for (name, text) in &others {
        let stub = std::fs::read_to_string(root.join("exercises/00_intro/src").join(name))
            .unwrap_or_else(|e| panic!("{name} is not a stub file of chapter 0: {e}"));
        assert!(
            stub.contains("todo!("),
            "{name}'s stub has something to write"
        );
        assert!(
            !text.contains("todo!("),
            "{name} is handed in written:\n{text}"
        );
    }
}
