//! The builds that turn a copy of the workbook into test binaries: the
//! judges (the pristine copy, once), the seed (every subject from the
//! stubs, once) and each learner's subjects.
//!
//! The problem: a learner's build runs learner code at compile time (a
//! constant whose evaluation never ends, a static of gigabytes, a swarm
//! of processes), so it runs in the sandbox under a wall-clock limit, a
//! disk budget weighed as it goes and the limits `grader __limited-build`
//! sets (memory, file size, tasks), and the limit it ran into is named in
//! the report; the instructor's builds share one target directory between
//! grading runs, under a lock.
//! The state: cargo's JSON messages, read as they come (test binaries
//! copied into the copy's `bin/`, compiler errors kept up to a cap). The
//! cost: one `cargo build` per learner (the dependencies come compiled
//! from the seed) and a walk of the target directory twice a second.

use super::{Workspace, cargo};
use crate::limited::{BUILD_COMMAND, BuildLimits};
use crate::sandbox::{Sandbox, kill_tree};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use workbook_core::info::Chapter;

/// The most compiler errors kept for one chapter, and their total size.
const ERRORS_KEPT: usize = 20;
const ERROR_BYTES: usize = 16 << 10;

/// One chapter's build: its test binaries by target name, or the errors.
#[derive(Debug, Default, Clone)]
pub struct ChapterBuild {
    pub binaries: BTreeMap<String, PathBuf>,
    pub errors: Vec<String>,
    pub seconds: f64,
}

/// How one build runs: where, in which sandbox, for how long at most,
/// and (for a learner's) under which limits.
pub struct BuildEnv<'a> {
    pub target_dir: &'a Path,
    pub sandbox: &'a Sandbox,
    pub limit: Duration,
    pub bounds: Option<&'a BuildBounds<'a>>,
}

/// The limits on a learner's build, set by `grader __limited-build`
/// before it becomes the build (outside the sandbox, so the sandbox and
/// everything in it inherit them).
pub struct BuildBounds<'a> {
    /// The grader's own copy, which sets them.
    pub self_exe: PathBuf,
    pub data_bytes: u64,
    pub file_bytes: u64,
    /// What the build may write to its target directory in all.
    pub disk_bytes: u64,
    /// Tasks the build may have at once (the cgroup's `pids.max`, else
    /// `RLIMIT_NPROC` when that binds).
    pub tasks: u64,
    /// `RLIMIT_NPROC` to set; 0 for none (a cgroup counts the tasks, or the
    /// grader is root, whom it does not bind).
    pub nproc: u64,
    /// The compiled dependencies, bound read-only.
    pub seed: &'a crate::seed::Seed,
    /// The worker's group, when the machine offers one.
    pub cgroup: Option<&'a crate::cgroup::Cgroup>,
}

impl Workspace {
    /// Builds the test targets of `chapters` in one cargo run, copying the
    /// binaries into `bin/`; `progress` hears of every crate compiled. Used
    /// for the pristine build, whose code is the instructor's.
    pub fn build_all(
        &self,
        chapters: &[Chapter],
        env: &BuildEnv,
        progress: &dyn Fn(&str),
    ) -> Result<BTreeMap<String, ChapterBuild>> {
        let _lock = TargetLock::acquire(env.target_dir)?;
        self.build(chapters, env, progress, Targets::Judges)
    }

    /// Builds every chapter's subject from the stubs into the shared target
    /// directory, under its lock, with the very command a learner's build
    /// uses: the seed every worker's target directory links to.
    pub fn build_seed(&self, chapters: &[Chapter], env: &BuildEnv) -> Result<()> {
        let _lock = TargetLock::acquire(env.target_dir)?;
        for c in chapters {
            // The judges' build left this crate (the judge's copy) under
            // the same unit name: cargo must not take it for this one.
            self.clean(std::slice::from_ref(c), env.target_dir)?;
            let b = self.build(std::slice::from_ref(c), env, &|_| {}, Targets::Subject)?;
            let b = b.get(&c.folder()).cloned().unwrap_or_default();
            if !b.errors.is_empty() {
                bail!(
                    "the pristine stubs of {} do not build as a subject:\n{}",
                    c.folder(),
                    b.errors.join("\n\n")
                );
            }
        }
        Ok(())
    }

    /// Builds the subjects of a learner's `chapters` in one cargo run (one
    /// clean, one lock, one pass over the fingerprints; cargo compiles the
    /// chapters side by side) in the worker's own target directory:
    /// cleaned first (every learner's crate is the same unit to cargo),
    /// then built inside the sandbox, killed with everything it started if
    /// it outlives the limit or writes past its disk budget. A chapter
    /// whose subject cargo reported finished before the build failed or
    /// was killed keeps it: one chapter that does not build costs no other.
    pub fn build_subjects(
        &self,
        chapters: &[Chapter],
        env: &BuildEnv,
    ) -> Result<BTreeMap<String, ChapterBuild>> {
        self.clean(chapters, env.target_dir)?;
        self.build(chapters, env, &|_| {}, Targets::Subject)
    }

    /// Removes `chapters`' own crates from `target`: every copy's crate is
    /// the same unit to cargo, whose sources may look older than its outputs.
    fn clean(&self, chapters: &[Chapter], target: &Path) -> Result<()> {
        let clean = Command::new(cargo())
            .current_dir(&self.dir)
            .args(["clean", "--offline", "-q"])
            .args(chapters.iter().flat_map(|c| ["-p", c.package()]))
            .arg("--target-dir")
            .arg(target)
            .stdin(Stdio::null())
            .output()
            .context("cannot run cargo clean")?;
        if !clean.status.success() {
            bail!(
                "cargo clean failed: {}",
                String::from_utf8_lossy(&clean.stderr)
            );
        }
        Ok(())
    }

    fn build(
        &self,
        chapters: &[Chapter],
        env: &BuildEnv,
        progress: &dyn Fn(&str),
        targets: Targets,
    ) -> Result<BTreeMap<String, ChapterBuild>> {
        let start = Instant::now();
        let cargo = cargo();
        let seed: Vec<&Path> = env
            .bounds
            .map(|b| b.seed.debug.as_path())
            .into_iter()
            .collect();
        let inner = env
            .sandbox
            .build(&cargo, &self.dir, env.target_dir, &seed, &cargo);
        let mut cmd = match env.bounds {
            Some(b) => {
                let limits = BuildLimits {
                    data_bytes: b.data_bytes,
                    file_bytes: b.file_bytes,
                    nproc: b.nproc,
                    cgroups: b.cgroup.map(|g| g.procs_files()).unwrap_or_default(),
                };
                let mut cmd = Command::new(&b.self_exe);
                cmd.arg(BUILD_COMMAND)
                    .args(limits.to_args())
                    .arg(inner.get_program())
                    .args(inner.get_args());
                if !env.sandbox.mode.bwrap() {
                    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
                }
                cmd
            }
            None => inner,
        };
        cmd.current_dir(&self.dir).args([
            "build",
            "--offline",
            "--locked",
            "--keep-going",
            "--message-format",
            "json-render-diagnostics",
        ]);
        match targets {
            Targets::Judges => cmd.args(["--test", "*"]),
            Targets::Subject => cmd
                .args(chapters.iter().flat_map(|c| {
                    [
                        "--bin".to_string(),
                        crate::judge::subject_target(c.package()),
                    ]
                }))
                .args(SUBJECT_PROFILE.iter().flat_map(|c| ["--config", c]))
                .args(["--jobs", SUBJECT_JOBS]),
        };
        let features: Vec<String> = chapters
            .iter()
            .map(|c| format!("{}/wire", c.package()))
            .collect();
        cmd.arg("--features").arg(features.join(","));
        for c in chapters {
            cmd.args(["-p", c.package()]);
        }
        cmd.arg("--target-dir").arg(env.target_dir);
        build_env(&mut cmd);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let before = env.bounds.and_then(|b| b.cgroup).map(|g| {
            g.reset();
            g.usage()
        });
        let mut child = cmd.spawn().context("cannot run cargo build")?;
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let err_reader = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut e) = stderr {
                let _ = std::io::Read::read_to_string(&mut e, &mut text);
            }
            text
        });
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        let out_reader = std::thread::spawn(move || {
            if let Some(out) = stdout {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        });
        let mut lines = Vec::new();
        let mut timed_out = false;
        let mut over_disk = false;
        let mut weighed = Instant::now();
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    if let Some(name) = compiled_crate(&line) {
                        progress(&name);
                    }
                    lines.push(line);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            // An interrupted run stops its build as a build over its limit.
            let interrupted = crate::interrupt::requested().is_some();
            if (interrupted || start.elapsed() > env.limit) && !timed_out {
                timed_out = true;
                kill_tree(&mut child, env.sandbox.mode);
            }
            // The disk budget, weighed twice a second: `RLIMIT_FSIZE` caps
            // one file, this caps them all.
            if let Some(b) = env.bounds
                && !over_disk
                && !timed_out
                && weighed.elapsed() > Duration::from_millis(500)
            {
                weighed = Instant::now();
                if crate::seed::own_bytes(env.target_dir) > b.disk_bytes {
                    over_disk = true;
                    kill_tree(&mut child, env.sandbox.mode);
                }
            }
        }
        let _ = child.wait();
        let _ = out_reader.join();
        let stderr = err_reader.join().unwrap_or_default();
        let mut builds = self.read_messages(chapters, &lines)?;
        let seconds = start.elapsed().as_secs_f64();
        for c in chapters {
            let b = builds.entry(c.folder()).or_default();
            b.seconds = seconds;
            let finished = b.errors.is_empty() && b.binaries.contains_key(targets.expected(c));
            if timed_out && !finished {
                b.binaries.clear();
                b.errors = vec![format!(
                    "the build ran past this learner's build budget ({} s left of it, wall clock) and was stopped, \
                     with everything it started (a constant whose evaluation does not end?)",
                    env.limit.as_secs()
                )];
            } else if timed_out {
                // Finished before the kill: a whole binary, cargo said so.
            } else if let Some(why) = env
                .bounds
                .filter(|_| {
                    over_disk
                        || !b.errors.is_empty()
                        || !b.binaries.contains_key(targets.expected(c))
                })
                .and_then(|bounds| bound_hit(bounds, over_disk, before, &stderr, &lines))
            {
                b.binaries.clear();
                b.errors = vec![why];
            } else if !b.binaries.contains_key(targets.expected(c)) && b.errors.is_empty() {
                b.errors.push(build_failure(&stderr, &self.dir));
            }
        }
        Ok(builds)
    }

    /// Test binaries (copied into `bin/`) and errors, from cargo's messages.
    fn read_messages(
        &self,
        chapters: &[Chapter],
        lines: &[String],
    ) -> Result<BTreeMap<String, ChapterBuild>> {
        let prefix = format!("{}/", self.dir.display());
        let mut builds: BTreeMap<String, ChapterBuild> = chapters
            .iter()
            .map(|c| (c.folder(), ChapterBuild::default()))
            .collect();
        let subjects: BTreeMap<String, String> = chapters
            .iter()
            .map(|c| (c.folder(), crate::judge::subject_target(c.package())))
            .collect();
        let mut dropped: BTreeMap<String, usize> = BTreeMap::new();
        for line in lines {
            let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let folder = msg["manifest_path"].as_str().and_then(exercise_folder);
            let Some((folder, build)) =
                folder.and_then(|f| builds.get_mut(&f).map(|b| (f.clone(), b)))
            else {
                continue;
            };
            match msg["reason"].as_str() {
                Some("compiler-artifact") => {
                    let kind = |want: &str| {
                        msg["target"]["kind"]
                            .as_array()
                            .is_some_and(|k| k.iter().any(|k| k == want))
                    };
                    // Each chapter's subject is kept under the one name
                    // the grader runs subjects by.
                    let subject = kind("bin")
                        && subjects.get(&folder).map(String::as_str)
                            == msg["target"]["name"].as_str();
                    let name = match subject {
                        true => Some(crate::judge::SUBJECT_BIN),
                        false => msg["target"]["name"].as_str(),
                    };
                    if let (true, Some(exe), Some(name)) =
                        (kind("test") || subject, msg["executable"].as_str(), name)
                    {
                        let dir = self.bin_dir(&folder);
                        std::fs::create_dir_all(&dir)?;
                        let copy = dir.join(name);
                        std::fs::copy(exe, &copy).with_context(|| format!("cannot copy {exe}"))?;
                        build.binaries.insert(name.to_string(), copy);
                    }
                }
                Some("compiler-message") if msg["message"]["level"].as_str() == Some("error") => {
                    let text = msg["message"]["rendered"].as_str().unwrap_or_default();
                    let used: usize = build.errors.iter().map(String::len).sum();
                    if build.errors.len() < ERRORS_KEPT && used + text.len() <= ERROR_BYTES {
                        build
                            .errors
                            .push(text.replace(&prefix, "").trim_end().to_string());
                    } else {
                        *dropped.entry(folder).or_default() += 1;
                    }
                }
                _ => {}
            }
        }
        for (folder, n) in dropped {
            if let Some(b) = builds.get_mut(&folder) {
                b.errors.push(format!("... and {n} more error(s)"));
            }
        }
        Ok(builds)
    }
}

/// What a build makes: the judges (every suite's test binary, linked with
/// the judge's copy of the stubs) or one learner's subject.
#[derive(Clone, Copy)]
enum Targets {
    Judges,
    Subject,
}

impl Targets {
    /// The binary without which a chapter's build failed.
    fn expected(self, c: &Chapter) -> &str {
        match self {
            Targets::Judges => c.package(),
            Targets::Subject => crate::judge::SUBJECT_BIN,
        }
    }
}

/// An exclusive lock on the shared target directory (a `flock` on a file
/// in it), taken by the instructor's builds (the judges and the seed) of
/// every grading process that shares it; released when dropped. Learners'
/// builds never take it: each worker has a target directory of its own.
struct TargetLock {
    _file: std::fs::File,
}

impl TargetLock {
    /// Waits for the lock, saying once that it waits, and gives up when
    /// the run is interrupted.
    fn acquire(target_dir: &Path) -> Result<Self> {
        use rustix::fs::{FlockOperation, flock};
        let path = target_dir.join(".grade-build.lock");
        let file = crate::leftovers::lock_file(&path)?;
        let mut said = false;
        loop {
            match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => break,
                Err(rustix::io::Errno::WOULDBLOCK) => {}
                Err(e) => bail!("cannot lock {}: {e}", path.display()),
            }
            crate::interrupt::check()?;
            if !said {
                eprintln!(
                    "grade: waiting for another grading run that is building in the same target directory"
                );
                said = true;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Ok(Self { _file: file })
    }
}

/// The subject's lean profile (issue 33), on top of the workbook's `dev`
/// (whose `opt-level = 1` stays: at 0, n_queens' tests run past their
/// limits): no debug info (nothing reads it: backtraces are off and a panic
/// carries its own place), no incremental state (every learner's crate
/// is compiled once), and no ThinLTO across the crate's own codegen units
/// (`lto = "off"`; cargo's default `false` still runs it at `opt-level`
/// 1: `perf` put its threads at a fifth of a learner's grading CPU, and
/// without it a learner-chapter costs 0.94x, tests included). Part of the
/// prepared class's key, so a seed built without it is not linked to. The
/// seed build uses it too.
pub const SUBJECT_PROFILE: [&str; 3] = [
    "profile.dev.debug=0",
    "profile.dev.incremental=false",
    "profile.dev.lto=\"off\"",
];

/// Compilers one learner's build runs at once (its chapters compile side
/// by side): two, whatever the machine, so a chapter whose constant never
/// ends leaves a slot to the others, and a build's memory without a
/// control group stays two compilers' `RLIMIT_DATA` (with one, the group
/// caps the build as a whole).
const SUBJECT_JOBS: &str = "2";

/// The environment of a build: the toolchain's variables and no others.
fn build_env(cmd: &mut Command) {
    cmd.env_clear();
    for key in [
        "PATH",
        "HOME",
        "CARGO_HOME",
        "RUSTUP_HOME",
        "RUSTUP_TOOLCHAIN",
        "LANG",
    ] {
        if let Some(v) = std::env::var_os(key) {
            cmd.env(key, v);
        }
    }
    cmd.env("CARGO_TERM_COLOR", "never")
        .env("INSTA_UPDATE", "no")
        .env("CI", "true");
}

/// The limit a learner's build ran into, named, from what cargo and the
/// compiler said: an allocation that failed (memory) or a compiler killed
/// by `SIGXFSZ` (a file over the size limit).
fn bound_hit(
    bounds: &BuildBounds,
    over_disk: bool,
    before: Option<crate::cgroup::Usage>,
    stderr: &str,
    lines: &[String],
) -> Option<String> {
    if over_disk {
        return Some(format!(
            "the build wrote more than {} MiB to its target directory and was stopped (a static too large to compile?)",
            bounds.disk_bytes >> 20
        ));
    }
    let (memory_hit, tasks_hit) = match (bounds.cgroup, before) {
        (Some(g), Some(before)) => g.usage().hits_since(&before),
        _ => (false, false),
    };
    let said = |needle: &str| stderr.contains(needle) || lines.iter().any(|l| l.contains(needle));
    // Cargo reports a compiler killed at the file size limit as "(signal:
    // 25)" or with the signal's name.
    if said("SIGXFSZ") || said("(signal: 25") || said("File too large") || said("file size limit") {
        return Some(format!(
            "the build wrote a file over {} MiB and was stopped (a static too large to compile?)",
            bounds.file_bytes >> 20
        ));
    }
    if memory_hit
        || said("memory allocation of")
        || said("out of memory")
        || said("Cannot allocate memory")
        || said("more memory than available")
    {
        return Some(format!(
            "the build used more than {} MiB of memory and was stopped (a constant or static too large to evaluate?)",
            bounds.data_bytes >> 20
        ));
    }
    if tasks_hit || said("Resource temporarily unavailable") {
        return Some(format!(
            "the build tried to run more than {} processes and threads at once and was stopped",
            bounds.tasks
        ));
    }
    None
}

/// Cargo's own failure text when no compiler message explains it, capped.
fn build_failure(stderr: &str, dir: &Path) -> String {
    let prefix = format!("{}/", dir.display());
    let kept: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.trim_start().starts_with("Compiling"))
        .take(40)
        .collect();
    let text = kept.join("\n").replace(&prefix, "");
    let text: String = text.chars().take(ERROR_BYTES).collect();
    format!("the build failed:\n{text}")
}

/// The crate a `compiler-artifact` message reports, for progress.
fn compiled_crate(line: &str) -> Option<String> {
    if !line.contains("\"compiler-artifact\"") {
        return None;
    }
    let msg: serde_json::Value = serde_json::from_str(line).ok()?;
    msg["target"]["name"].as_str().map(str::to_string)
}

/// `00_intro` for `.../exercises/00_intro/Cargo.toml`; None for other crates.
fn exercise_folder(manifest: &str) -> Option<String> {
    let dir = Path::new(manifest).parent()?;
    (dir.parent()?.file_name()? == "exercises")
        .then(|| dir.file_name()?.to_str().map(str::to_string))?
}
