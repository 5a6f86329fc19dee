//! `grader`: the instructor's batch grader.
//!
//! The problem: turn a folder of learners' copies into a gradebook that a
//! hostile class cannot bend, where one learner can neither touch another's
//! grade nor stop the class. The rooms, in the order a submission meets them:
//!
//! * `submission`: reads a folder or archive into memory (sources, and the
//!   instructor's files only to note that they were ignored); gives every
//!   entry a unique, reversible learner id.
//! * `intake`: takes from each chapter only what the learner is meant to
//!   write (the bodies of the stubbed functions and private helpers, checked
//!   against a grammar) and splices it into the pristine stubs.
//! * `workspace`: the pristine copy, built once (dependencies and the test
//!   list), and a throwaway copy per learner, built a chapter at a time.
//! * `sandbox`: `bwrap` around every build and test, and a uid per test run.
//! * `seed`, `worker`, `cgroup`: every dependency compiled once for the
//!   class; each worker builds in a target directory of its own linked to
//!   them (read-only), in a control group capping its build's memory and
//!   tasks, so builds run side by side and none can take the machine.
//! * `exec`: one process per test under CPU, memory, task and output limits.
//! * `tables`: a note for the instructor when a learner's code holds the
//!   tests' answers as literals (a table, not a search); never a grade.
//! * `report`: `results.json` per learner, `grades.csv`, `report.md`/`.html`;
//!   every name, note and message in them made inert by `escape`, and the
//!   instructor's folders hidden by `redact`.
//! * `shard`: a deterministic share of the class per run (`--shard I/N`),
//!   and the merge of the parts into one gradebook.
//!
//! The flow through them: `prepare` (the config, the pristine copy and its
//! build, the graded tests), then `learner` per submission (intake, then
//! build and test each chapter within one build budget); `single` grades one
//! submission alone for the platforms (`test-runner`, `grade-one`).
//!
//! Around them: `interrupt` (SIGINT or SIGTERM stops the workers and
//! removes their folders), `staging` (the report is written beside `--out`
//! and renamed into place only when complete) and `leftovers` (each run
//! locks its folders in the target directory, and sweeps those of runs
//! that died).
//!
//! State: one pristine copy per process, one work copy and one target
//! directory per worker, one shared target directory for the dependencies. Cost: one dependency build for the class, then per learner and
//! chapter one build of the learner's crate and one short process per test;
//! learners are graded in parallel, one per core. See `grading/README.md`.

mod cgroup;
pub mod cli;
mod config;
mod escape;
mod exec;
mod intake;
mod interrupt;
mod judge;
mod learner;
mod leftovers;
mod limited;
pub mod platform;
mod prepare;
mod redact;
mod report;
pub mod sandbox;
mod seed;
mod shard;
mod single;
mod staging;
mod submission;
mod tables;
mod worker;
mod workspace;

use learner::grade_one;
pub use limited::{limited_build_exec, limited_exec};
use prepare::prepare;
#[cfg(test)]
pub(crate) use prepare::read_sources;
pub use shard::Shard;
use single::grade_single;
pub use single::test_runner;

use anyhow::{Context, Result, bail};
use config::Config;
use exec::{Limits, Outcome, Runner};
use indicatif::{ProgressBar, ProgressStyle};
use sandbox::{Mode, Sandbox};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use workbook_core::info::Chapter;
use workspace::{BuildEnv, ChapterBuild, Workspace};

/// How the grader is set up, whatever it then grades (`grade`,
/// `grade prepare`, `test-runner`).
#[derive(Clone, Default)]
pub struct Setup {
    pub config: Option<PathBuf>,
    pub target_dir: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub no_sandbox: bool,
    /// `--sandbox container`: the platform's container is the isolation.
    pub container: sandbox::Container,
    /// `grade-one --public-only`: the config's hidden suites are left out
    /// (a grading whose every input the learner can read, as on Classroom).
    pub public_only: bool,
}

/// What the command line gives `grade`.
pub struct Options {
    pub submissions: PathBuf,
    pub out: PathBuf,
    pub setup: Setup,
    /// Grade only this shard of the class, and write a part to merge.
    pub shard: Option<shard::Shard>,
}

/// Whether a test comes from the suite learners see or a hidden one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Suite {
    Public,
    Hidden,
}

impl Suite {
    /// The cargo test target this suite of chapter `c` is built as in a
    /// learner's copy: the package's own suite, or `hidden_<slug>` (the
    /// one place that name is made; `workspace.rs` wires it in).
    pub(crate) fn target(self, c: &Chapter) -> String {
        match self {
            Suite::Public => c.package().to_string(),
            Suite::Hidden => format!("hidden_{}", c.chapter.slug),
        }
    }
}

/// One graded test, as found in the pristine build.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub chapter: usize,
    pub suite: Suite,
    /// The libtest name (`dfs_recursive::visits_in_preorder::case_1_...`).
    pub name: String,
    /// The name in reports (`intro/dfs_recursive::...`, `intro/hidden::...`).
    pub id: String,
    pub exercise: String,
    pub task_id: usize,
    pub weight: f64,
    pub code: String,
}

/// What happened to one chapter of one learner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ChapterStatus {
    Graded,
    NotSubmitted,
    /// Submitted, but every stub is still as given.
    NotStarted,
    CompileError(String),
    Rejected(Vec<String>),
    Error(String),
}

impl ChapterStatus {
    /// Why a test of a chapter in this state did not run.
    pub fn why_not_run(&self) -> &'static str {
        match self {
            Self::Graded => "the test binary was not built",
            Self::NotSubmitted => "the chapter was not submitted",
            Self::NotStarted => "the chapter is not started (every stub is as given)",
            Self::CompileError(_) => "the chapter did not compile",
            Self::Rejected(_) => "the chapter was rejected before building",
            Self::Error(_) => "the chapter could not be graded",
        }
    }

    pub fn label(&self) -> &'static str {
        match self {
            Self::Graded => "graded",
            Self::NotSubmitted => "not submitted",
            Self::NotStarted => "not started",
            Self::CompileError(_) => "compile error",
            Self::Rejected(_) => "rejected",
            Self::Error(_) => "error",
        }
    }
}

/// One test's result for one learner (None: the test did not run).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TestResult {
    pub run: Option<exec::TestRun>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LearnerResult {
    pub name: String,
    pub notes: Vec<String>,
    pub chapters: Vec<ChapterStatus>,
    pub tests: Vec<TestResult>,
    pub build_secs: f64,
    pub run_secs: f64,
}

impl LearnerResult {
    pub fn passed(&self, case: usize) -> bool {
        self.tests[case]
            .run
            .as_ref()
            .is_some_and(|r| r.outcome == Outcome::Passed)
    }
}

/// Everything the workers share.
struct Ctx<'a> {
    root: &'a Path,
    chapters: &'a [Chapter],
    cases: Vec<Case>,
    /// The judges: each chapter's suites, built once for the class.
    judges: BTreeMap<String, ChapterBuild>,
    /// Each chapter's pristine stubs, derived from `solutions/` (never read
    /// from the checkout's `exercises/`, which an instructor may have
    /// solved), by path under `src/`.
    stubs: Vec<BTreeMap<PathBuf, String>>,
    /// Each chapter's answer literals, for the table note: read once.
    answers: Vec<tables::Answers>,
    config: Config,
    target_dir: PathBuf,
    /// The compiled dependencies every worker's builds link to.
    seed: seed::Seed,
    /// Whether each worker's builds get a control group.
    cgroups: bool,
    pristine: Workspace,
    sandbox: Sandbox,
    self_exe: PathBuf,
    limits: Limits,
    bar: ProgressBar,
    provenance: shard::Provenance,
    /// The instructor's folders, hidden in every learner's results.
    places: redact::Places,
    /// This run's claim on its folders in the target directory; dropped
    /// after them.
    _run: leftovers::RunLock,
}

impl Drop for Ctx<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.self_exe);
        let _ = std::fs::remove_dir_all(&self.pristine.dir);
    }
}

/// `grader grade prepare`: everything before the first learner (the
/// locked dependencies fetched and compiled, the pristine build), so a
/// cache can carry it to the machines that grade the shards.
pub fn prepare_only(root: &Path, chapters: &[Chapter], setup: Setup) -> Result<ExitCode> {
    interrupt::install()?;
    let ctx = match (prepare(root, chapters, &setup, 0), interrupt::requested()) {
        (Err(_), Some(sig)) => return Ok(interrupted(sig, None)),
        (ctx, _) => ctx?,
    };
    println!(
        "prepared {}: {} graded test(s); later grading runs with this target directory build only the learners' crates",
        ctx.target_dir.display(),
        ctx.cases.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// What an interrupted command returns once everything it started is
/// stopped and removed: the shell's status for the signal, and one line.
fn interrupted(sig: i32, out: Option<&Path>) -> ExitCode {
    let report = match out {
        Some(out) => format!("; nothing was written to {}", out.display()),
        None => String::new(),
    };
    eprintln!(
        "grade: interrupted by {}: the workers were stopped and their folders removed{report}",
        interrupt::name(sig)
    );
    ExitCode::from(interrupt::status(sig))
}

pub fn run(root: &Path, chapters: &[Chapter], opts: Options) -> Result<ExitCode> {
    interrupt::install()?;
    let out = opts.out.clone();
    // Every folder of the run is gone when `grade_class` returns, however
    // it returns: only then is the interruption reported.
    // A signal that came after the report was in place changes nothing.
    match (grade_class(root, chapters, opts), interrupt::requested()) {
        (Err(_), Some(sig)) => Ok(interrupted(sig, Some(&out))),
        (graded, _) => graded,
    }
}

fn grade_class(root: &Path, chapters: &[Chapter], opts: Options) -> Result<ExitCode> {
    let start = Instant::now();
    let learners = submission::list(&opts.submissions)?;
    if learners.is_empty() {
        bail!(
            "{} holds no submissions (folders, .zip or .tar.gz files)",
            opts.submissions.display()
        );
    }
    let class: Vec<String> = learners.iter().map(|l| l.id.clone()).collect();
    let mine: Vec<submission::Learner> = match opts.shard {
        Some(shard) => learners
            .into_iter()
            .filter(|l| shard.holds(&l.id))
            .collect(),
        None => learners,
    };
    let staging = staging::Staging::beside(&opts.out)?;
    let mut ctx = prepare(root, chapters, &opts.setup, mine.len())?;
    ctx.places.add(&opts.submissions, "(submissions)");
    ctx.places.add(&opts.out, "(report)");
    ctx.places.add(staging.dir(), "(report)");
    let results = grade_learners(&ctx, mine, staging.dir());
    interrupt::check()?;
    let elapsed = start.elapsed().as_secs_f64();
    match opts.shard {
        Some(shard) => {
            shard::write_part(
                staging.dir(),
                &shard::Part {
                    shard,
                    class,
                    provenance: ctx.provenance.clone(),
                    config: ctx.config.clone(),
                    cases: ctx.cases.clone(),
                    results,
                },
            )?;
            staging.commit()?;
            eprintln!(
                "grade: shard {}/{} done in {elapsed:.1} s; merge the parts with `grader grade merge PART... --out REPORT`",
                shard.index, shard.count
            );
            println!("wrote {}", opts.out.join("part.json").display());
        }
        None => {
            report::write_class(staging.dir(), &ctx.cases, chapters, &ctx.config, &results)?;
            staging.commit()?;
            summary(&results, elapsed, &opts.out);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `grader grade merge PART... --out REPORT`.
pub fn merge(chapters: &[Chapter], parts: &[PathBuf], out: &Path) -> Result<ExitCode> {
    interrupt::install()?;
    match (shard::merge(chapters, parts, out), interrupt::requested()) {
        (Err(_), Some(sig)) => Ok(interrupted(sig, Some(out))),
        (merged, _) => merged.map(|()| ExitCode::SUCCESS),
    }
}

/// Grades `learners`, a worker per job, writing each one's results.json
/// as soon as it is graded; returns the results sorted by id.
fn grade_learners(ctx: &Ctx, learners: Vec<submission::Learner>, out: &Path) -> Vec<LearnerResult> {
    let jobs = ctx.config.jobs().min(learners.len()).max(1);
    let queue = Mutex::new(learners.into_iter().rev().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for index in 0..jobs {
            let (queue, results) = (&queue, &results);
            s.spawn(move || {
                let worker = match worker::Worker::new(ctx, index) {
                    Ok(w) => w,
                    Err(e) => {
                        ctx.bar
                            .println(format!("grade: worker {index} cannot start: {e:#}"));
                        return;
                    }
                };
                while let Some(learner) = next(queue) {
                    ctx.bar.set_message(learner.id.clone());
                    let r = grade_one(ctx, &worker, &learner);
                    if interrupt::requested().is_some() {
                        break;
                    }
                    if let Err(e) = report::write_learner(out, &ctx.cases, ctx.chapters, &r) {
                        ctx.bar
                            .println(format!("{}: cannot write results: {e:#}", learner.id));
                    }
                    results.lock().unwrap_or_else(|p| p.into_inner()).push(r);
                }
            });
        }
    });
    ctx.bar.finish_and_clear();
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by(|a, b| a.name.cmp(&b.name));
    results
}

/// The next learner to grade; none once the run is interrupted.
fn next(queue: &Mutex<Vec<submission::Learner>>) -> Option<submission::Learner> {
    if interrupt::requested().is_some() {
        return None;
    }
    queue.lock().unwrap_or_else(|p| p.into_inner()).pop()
}

fn summary(results: &[LearnerResult], elapsed: f64, out: &Path) {
    let graded = results
        .iter()
        .flat_map(|r| &r.chapters)
        .filter(|s| matches!(s, ChapterStatus::Graded | ChapterStatus::CompileError(_)))
        .count()
        .max(1) as f64;
    let build: f64 = results.iter().map(|r| r.build_secs).sum();
    let run: f64 = results.iter().map(|r| r.run_secs).sum();
    eprintln!(
        "grade: {} learner(s) in {elapsed:.1} s; per learner-chapter built: build {:.2} s, tests {:.2} s",
        results.len(),
        build / graded,
        run / graded
    );
    println!("wrote {}", out.join("grades.csv").display());
    println!("wrote {}", out.join("report.md").display());
    println!("wrote {}", out.join("report.html").display());
    println!(
        "wrote {}",
        out.join("learners")
            .join("*")
            .join("results.json")
            .display()
    );
}
