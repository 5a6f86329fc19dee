//! `workbook grade`: the instructor's batch grader.
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
mod config;
mod escape;
mod exec;
mod intake;
mod interrupt;
mod judge;
mod leftovers;
pub mod platform;
mod redact;
mod report;
pub mod sandbox;
mod seed;
mod shard;
mod staging;
mod submission;
mod tables;
mod worker;
mod workspace;

pub use exec::{limited_build_exec, limited_exec};
pub use shard::Shard;

use crate::info::Chapter;
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

/// `workbook grade prepare`: everything before the first learner (the
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
                "grade: shard {}/{} done in {elapsed:.1} s; merge the parts with `workbook grade merge PART... --out REPORT`",
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

/// `workbook grade merge PART... --out REPORT`.
pub fn merge(chapters: &[Chapter], parts: &[PathBuf], out: &Path) -> Result<ExitCode> {
    interrupt::install()?;
    match (shard::merge(chapters, parts, out), interrupt::requested()) {
        (Err(_), Some(sig)) => Ok(interrupted(sig, Some(out))),
        (merged, _) => merged.map(|()| ExitCode::SUCCESS),
    }
}

/// `workbook test-runner SLUG INPUT_DIR OUTPUT_DIR`: the Exercism
/// test-runner interface, one submission of one chapter. INPUT_DIR is the
/// chapter's crate (with `src/`) or a copy of the workbook; the verdict goes
/// to OUTPUT_DIR/results.json, and the exit status is 0 whatever it says.
pub fn test_runner(
    root: &Path,
    chapters: &[Chapter],
    slug: &str,
    input: &Path,
    output: &Path,
    setup: Setup,
) -> Result<ExitCode> {
    let Some(chapter) = chapters.iter().find(|c| c.chapter.slug == slug) else {
        bail!(
            "no chapter `{slug}`; the chapters are {}",
            chapters
                .iter()
                .map(|c| c.chapter.slug.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let one = std::slice::from_ref(chapter);
    interrupt::install()?;
    std::fs::create_dir_all(output)
        .with_context(|| format!("cannot create {}", output.display()))?;
    let graded = grade_single(root, one, input, &setup);
    if let Some(sig) = interrupt::requested() {
        return Ok(interrupted(sig, Some(output)));
    }
    let (cases, r) = graded?;
    let json = report::learner_json(&cases, one, &r);
    platform::write_whole(&output.join("results.json"), &json)?;
    println!("wrote {}", output.join("results.json").display());
    Ok(ExitCode::SUCCESS)
}

/// One submission (`input`: a copy of the workbook or of `exercises/`;
/// with one chapter, also its crate folder or its bare `.rs` files)
/// graded in chapters `chapters` with one worker: the graded tests and
/// the learner's result. Fails on what is the instructor's (the config,
/// the sandbox, the pristine build) or on an interruption; whatever the
/// submission does is in the result. Used by `test-runner` and
/// `grade-one`.
pub(crate) fn grade_single(
    root: &Path,
    chapters: &[Chapter],
    input: &Path,
    setup: &Setup,
) -> Result<(Vec<Case>, LearnerResult)> {
    interrupt::install()?;
    let setup = Setup {
        jobs: Some(1),
        ..setup.clone()
    };
    let mut ctx = prepare(root, chapters, &setup, 1)?;
    ctx.places.add(input, "(input)");
    let staged = ctx
        .target_dir
        .join(format!("runner-input-{}", std::process::id()));
    let path = match platform::chapter_files(chapters, input) {
        Some((chapter, src)) => {
            let _ = std::fs::remove_dir_all(&staged);
            let dest = staged.join("exercises").join(chapter.folder()).join("src");
            platform::stage_sources(&src, &dest)?;
            staged.clone()
        }
        None => input.to_path_buf(),
    };
    let learner = submission::Learner {
        id: "submission".into(),
        path,
        notes: Vec::new(),
    };
    let worker = worker::Worker::new(&ctx, 0)?;
    let r = grade_one(&ctx, &worker, &learner);
    drop(worker);
    let _ = std::fs::remove_dir_all(&staged);
    interrupt::check()?;
    Ok((ctx.cases.clone(), r))
}

/// Everything before the first learner: the config, the sandbox, the
/// pristine workspace and its build (the dependencies, compiled once), the
/// list of graded tests.
fn prepare<'a>(
    root: &'a Path,
    chapters: &'a [Chapter],
    setup: &Setup,
    learners: usize,
) -> Result<Ctx<'a>> {
    let mut config = Config::load(root, setup.config.as_deref())?;
    if let Some(j) = setup.jobs {
        config.jobs = j;
    }
    if setup.public_only {
        config.hidden = String::new();
    }
    for rule in &config.allow {
        if !intake::RULES.contains(&rule.as_str()) {
            bail!(
                "grading config: `allow` names no rule `{rule}`; the rules are {}",
                intake::RULES.join(", ")
            );
        }
    }
    let target_dir = setup.target_dir.clone().unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| root.join("target"), PathBuf::from)
            .join("grade")
    });
    let sandbox = Sandbox::probe(setup.no_sandbox, setup.container)?;
    if sandbox.mode == Mode::Off {
        eprintln!(
            "grade: WARNING: --no-sandbox: learners' builds and tests run without a kernel sandbox"
        );
    }
    if sandbox.mode == Mode::Container {
        eprintln!(
            "grade: container mode: no bwrap; the platform's container is the isolation (see grading/README.md)"
        );
    }
    std::fs::create_dir_all(&target_dir)
        .with_context(|| format!("cannot create {}", target_dir.display()))?;
    let target_dir = target_dir.canonicalize()?;
    // Taken before any folder of this run exists, so no other run's sweep
    // can mistake them for a dead run's.
    let run = leftovers::RunLock::take(&target_dir)?;
    for line in leftovers::sweep(&target_dir) {
        eprintln!("grade: {line}");
    }
    let hidden = config.hidden_dir(root);
    let provenance = shard::Provenance::of(root, &config, hidden.as_deref())?;
    let stubs = derived_stubs(root, chapters)?;
    let answers = chapters
        .iter()
        .zip(&stubs)
        .map(|(c, s)| tables::Answers::of(root, c, hidden.as_deref(), s))
        .collect();
    // Per process, so shards that share a target directory never meet.
    let pristine_dir = target_dir.join(format!("pristine-{}", std::process::id()));
    let built = Workspace::pristine(root, &pristine_dir, chapters, &stubs, hidden.as_deref())
        .and_then(|pristine| {
            pristine.fetch()?;
            let (cases, judges) = pristine_cases(
                root,
                chapters,
                &config,
                &pristine,
                &target_dir,
                &sandbox,
                hidden.as_deref(),
            )?;
            Ok((pristine, cases, judges))
        });
    let built = built.and_then(|(pristine, cases, judges)| {
        seed::build(chapters, &stubs, &pristine, &target_dir, &sandbox)?;
        Ok((pristine, cases, judges))
    });
    let (pristine, cases, judges) = match built {
        Ok(b) => b,
        Err(e) => {
            // Nothing owns the pristine copy yet: remove it here.
            let _ = std::fs::remove_dir_all(&pristine_dir);
            return Err(e);
        }
    };
    let limits = Limits {
        wall: config.wall(),
        cpu_secs: config.cpu_limit_secs,
        memory_bytes: config.memory_limit_mb << 20,
        output_bytes: config.output_limit_kb << 10,
        tasks: config.tasks_limit,
    };
    let bar = ProgressBar::new((learners * chapters.len()) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} learner-chapters {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let self_exe = own_copy(&target_dir)?;
    let mut places = redact::Places::of(root);
    places.add(&target_dir, "(target)");
    Ok(Ctx {
        root,
        chapters,
        cases,
        judges,
        stubs,
        answers,
        config,
        seed: seed::Seed::new(
            &target_dir,
            &chapters.iter().map(Chapter::package).collect::<Vec<_>>(),
        ),
        cgroups: worker::probe_cgroups(),
        target_dir,
        pristine,
        sandbox,
        self_exe,
        limits,
        bar,
        provenance,
        places,
        _run: run,
    })
}

/// A copy of this binary for the test runs to re-execute: rebuilding the
/// workbook while a class is graded must not pull it away from them.
fn own_copy(target_dir: &Path) -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find the workbook binary")?;
    let copy = target_dir.join(format!("workbook-grader-{}", std::process::id()));
    std::fs::copy(&exe, &copy)
        .with_context(|| format!("cannot copy {} to {}", exe.display(), copy.display()))?;
    Ok(copy)
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

/// Builds the stubs once (compiling the shared dependencies, with progress
/// shown) and lists every graded test, public and hidden, with its weight
/// and source.
fn pristine_cases(
    root: &Path,
    chapters: &[Chapter],
    config: &Config,
    pristine: &Workspace,
    target: &Path,
    sandbox: &Sandbox,
    hidden: Option<&Path>,
) -> Result<(Vec<Case>, BTreeMap<String, ChapterBuild>)> {
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template(
            "{spinner} building the pristine workbook once (dependencies for the whole class): {pos} crates, {elapsed} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.enable_steady_tick(Duration::from_millis(200));
    let env = BuildEnv {
        target_dir: target,
        sandbox,
        // The instructor's own build: no limit but patience.
        limit: Duration::from_secs(6 * 3600),
        bounds: None,
    };
    let builds = pristine.build_all(chapters, &env, &|name| {
        spinner.inc(1);
        spinner.set_message(name.to_string());
    });
    spinner.finish_and_clear();
    // A build stopped by a signal reports errors that are not the workbook's.
    interrupt::check()?;
    let builds = builds?;
    let mut cases = Vec::new();
    let mut task = 0;
    let mut tasks = BTreeMap::new();
    for (ci, c) in chapters.iter().enumerate() {
        for e in &c.exercises {
            task += 1;
            tasks.insert((ci, e.name.clone()), task);
        }
        let build = &builds[&c.folder()];
        if !build.errors.is_empty() {
            bail!(
                "the pristine workbook does not build ({}):\n{}",
                c.chapter.slug,
                build.errors.join("\n")
            );
        }
        let suites = [
            (
                Suite::Public,
                Suite::Public.target(c),
                root.join("tests").join(format!("{}.rs", c.chapter.slug)),
            ),
            (
                Suite::Hidden,
                Suite::Hidden.target(c),
                hidden
                    .map(|h| h.join(format!("{}.rs", c.chapter.slug)))
                    .unwrap_or_default(),
            ),
        ];
        for (suite, target_name, file) in suites {
            let Some(binary) = build.binaries.get(&target_name) else {
                continue;
            };
            let sources = report::test_sources(&file);
            for name in workspace::list_tests(binary)? {
                let exercise = c.exercise_of(&name).map_or_else(
                    || name.split("::").next().unwrap_or_default().to_string(),
                    |e| e.name.clone(),
                );
                let shown = if suite == Suite::Hidden {
                    format!("hidden::{name}")
                } else {
                    name.clone()
                };
                cases.push(Case {
                    chapter: ci,
                    suite,
                    weight: config.weight(&c.chapter.slug, &exercise, &shown),
                    id: format!("{}/{shown}", c.chapter.slug),
                    task_id: tasks.get(&(ci, exercise.clone())).copied().unwrap_or(0),
                    code: report::source_of(&sources, &name),
                    exercise,
                    name,
                });
            }
        }
    }
    Ok((cases, builds))
}

/// Grades one learner with worker `worker`'s copy; never fails and never
/// panics: whatever goes wrong becomes this learner's error row. Its notes
/// are capped and the instructor's folders hidden in everything it says.
fn grade_one(ctx: &Ctx, worker: &worker::Worker, learner: &submission::Learner) -> LearnerResult {
    let path = learner.path.as_path();
    let mut r = LearnerResult {
        name: learner.id.clone(),
        notes: learner.notes.clone(),
        chapters: vec![ChapterStatus::NotSubmitted; ctx.chapters.len()],
        tests: vec![TestResult { run: None }; ctx.cases.len()],
        build_secs: 0.0,
        run_secs: 0.0,
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        grade_into(ctx, worker, path, &mut r)
    }));
    let failure = match outcome {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(format!("{e:#}")),
        Err(_) => Some("the grader failed on this submission (an internal error)".to_string()),
    };
    if let Some(msg) = failure {
        let msg = report::cap(&msg, 4096);
        for s in r.chapters.iter_mut() {
            if matches!(s, ChapterStatus::Graded | ChapterStatus::NotSubmitted) {
                *s = ChapterStatus::Error(msg.clone());
            }
        }
        r.notes.push(format!("grading stopped: {msg}"));
    }
    r.notes = report::cap_notes(std::mem::take(&mut r.notes));
    ctx.places.hide_result(&mut r);
    ctx.bar.inc(ctx.chapters.len() as u64);
    r
}

/// One chapter ready to build: the assembled sources.
struct Accepted {
    chapter: usize,
    files: BTreeMap<PathBuf, String>,
}

fn grade_into(
    ctx: &Ctx,
    worker: &worker::Worker,
    path: &Path,
    r: &mut LearnerResult,
) -> Result<()> {
    let folders: Vec<String> = ctx.chapters.iter().map(Chapter::folder).collect();
    let sub = submission::read(path, &folders).context("cannot read the submission")?;
    r.notes.extend(sub.notes.iter().cloned());
    r.notes.extend(ignored_notes(ctx.root, &sub));
    let mut accepted = Vec::new();
    for (ci, c) in ctx.chapters.iter().enumerate() {
        let Some(files) = sub.chapters.get(&c.folder()) else {
            continue;
        };
        let pristine = &ctx.stubs[ci];
        let stubs: Vec<String> = c.all_stubs().keys().map(|k| k.to_string()).collect();
        let crates = dependencies(&c.dir.join("Cargo.toml"));
        let taken = intake::take(pristine, files, &stubs, &ctx.config.allow, &crates);
        let folder = c.folder();
        r.notes
            .extend(taken.notes.iter().map(|n| format!("{folder}: {n}")));
        r.chapters[ci] = if !taken.refused.is_empty() {
            ChapterStatus::Rejected(
                taken
                    .refused
                    .iter()
                    .map(|f| {
                        format!(
                            "exercises/{folder}/src/{}:{}: {} (rule `{}`)",
                            f.file.display(),
                            f.line,
                            f.reason,
                            f.rule
                        )
                    })
                    .collect(),
            )
        } else if taken.files == *pristine {
            ChapterStatus::NotStarted
        } else {
            if let Some(note) = tables::table_note(&taken.files, &ctx.answers[ci]) {
                r.notes.push(format!("{folder}: {note}"));
            }
            accepted.push(Accepted {
                chapter: ci,
                files: taken.files,
            });
            ChapterStatus::Graded
        };
    }
    if accepted.is_empty() {
        return Ok(());
    }
    let work = ctx.pristine.copy_to(&worker.work)?;
    let graded = grade_chapters(ctx, worker, &work, &accepted, r);
    work.remove();
    graded
}

fn grade_chapters(
    ctx: &Ctx,
    worker: &worker::Worker,
    work: &Workspace,
    accepted: &[Accepted],
    r: &mut LearnerResult,
) -> Result<()> {
    // One time budget for all of this learner's builds, so a learner whose
    // every chapter never finishes compiling holds a worker once, not six
    // times.
    let budget = Duration::from_secs(ctx.config.build_limit_secs);
    let started = Instant::now();
    let bounds = worker.bounds(ctx);
    for a in accepted {
        interrupt::check()?;
        let c = &ctx.chapters[a.chapter];
        let left = budget.saturating_sub(started.elapsed());
        if left.is_zero() {
            r.chapters[a.chapter] = ChapterStatus::CompileError(format!(
                "not built: this learner's builds used their whole budget of {} s (wall clock) on earlier chapters",
                budget.as_secs()
            ));
            continue;
        }
        let env = BuildEnv {
            target_dir: &worker.target,
            sandbox: &ctx.sandbox,
            limit: left,
            bounds: Some(&bounds),
        };
        // The subject: the learner's code and a dispatcher, nothing else.
        let keys = c.all_stubs().keys().map(|k| k.to_string()).collect();
        let files = judge::subject_sources(&a.files, &ctx.stubs[a.chapter], &keys, c.package())?;
        work.load(c, &files)?;
        work.add_subject_bin(c)?;
        let build = work.build_chapter(c, &env)?;
        r.build_secs += build.seconds;
        let Some(subject) = build
            .binaries
            .get(judge::SUBJECT_BIN)
            .filter(|_| build.errors.is_empty())
        else {
            r.chapters[a.chapter] = ChapterStatus::CompileError(build.errors.join("\n\n"));
            continue;
        };
        let t = Instant::now();
        // The judge runs in the pristine copy, which holds its binaries
        // and the snapshots; it never sees the learner's folder.
        let judge = ctx.judges.get(&c.folder()).cloned().unwrap_or_default();
        let runner = Runner {
            self_exe: ctx.self_exe.clone(),
            limits: ctx.limits.clone(),
            sandbox: &ctx.sandbox,
            visible: vec![
                ctx.pristine.dir.join("bin").join(c.folder()),
                ctx.pristine.dir.join("tests").join("snapshots"),
            ],
            cwd: ctx.pristine.chapter_dir(c),
            workspace: ctx.pristine.dir.clone(),
            verdicts: work.dir.join("verdicts"),
            subject: Some(subject.clone()),
        };
        for (k, case) in ctx
            .cases
            .iter()
            .enumerate()
            .filter(|(_, k)| k.chapter == a.chapter)
        {
            let target = case.suite.target(c);
            interrupt::check()?;
            if let Some(binary) = judge.binaries.get(&target) {
                r.tests[k].run = Some(runner.run(binary, &case.name)?);
            }
        }
        r.run_secs += t.elapsed().as_secs_f64();
    }
    Ok(())
}

/// The crates a chapter's manifest gives its code (`num_bigint`, `rayon`),
/// not counting the optional reference the suite may point at.
fn dependencies(manifest: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(manifest) else {
        return Vec::new();
    };
    let Ok(doc) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let Some(deps) = doc.get("dependencies").and_then(|d| d.as_table()) else {
        return Vec::new();
    };
    deps.iter()
        .filter(|(_, spec)| {
            !spec
                .get("optional")
                .and_then(|o| o.as_bool())
                .unwrap_or(false)
        })
        .map(|(name, _)| name.replace('-', "_"))
        .collect()
}

/// Every chapter's stubs as the generator derives them from `solutions/`,
/// in memory. A checkout whose `exercises/` differ (an instructor who tried
/// the exercises in it) is graded exactly like a clean one; the files that
/// differ are named, so nobody wonders which copy was used.
fn derived_stubs(root: &Path, chapters: &[Chapter]) -> Result<Vec<BTreeMap<PathBuf, String>>> {
    let mut out = Vec::new();
    for c in chapters {
        let files: BTreeMap<PathBuf, String> = crate::stubs::generate(root, c)
            .with_context(|| format!("cannot derive the stubs of {} from solutions/", c.folder()))?
            .into_iter()
            .map(|f| (f.relative, f.text))
            .collect();
        let checkout = read_sources(&c.dir.join("src")).unwrap_or_default();
        let differ: Vec<String> = files
            .iter()
            .filter(|(rel, text)| checkout.get(*rel) != Some(*text))
            .map(|(rel, _)| format!("exercises/{}/src/{}", c.folder(), rel.display()))
            .collect();
        if !differ.is_empty() {
            eprintln!(
                "grade: this checkout's {} differ from the stubs derived from solutions/ (solved here?); \
                 grading uses the derived stubs",
                differ.join(", ")
            );
        }
        out.push(files);
    }
    Ok(out)
}

/// A chapter's pristine sources, by path under `src/`.
pub(crate) fn read_sources(src: &Path) -> Result<BTreeMap<PathBuf, String>> {
    fn walk(dir: &Path, rel: &Path, out: &mut BTreeMap<PathBuf, String>) -> Result<()> {
        for entry in
            std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?
        {
            let entry = entry?;
            let path = entry.path();
            let rel = rel.join(entry.file_name());
            if path.is_dir() {
                walk(&path, &rel, out)?;
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.insert(rel, std::fs::read_to_string(&path)?);
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    walk(src, Path::new(""), &mut out)?;
    Ok(out)
}

/// Notes for the instructor's files the submission changed (they were
/// ignored: the grader used its own), at most a screenful.
fn ignored_notes(root: &Path, sub: &submission::Submission) -> Vec<String> {
    const SHOWN: usize = 20;
    let changed: Vec<String> = sub
        .ignored
        .iter()
        .filter_map(|(rel, bytes)| match std::fs::read(root.join(rel)) {
            Ok(ours) if ours == *bytes => None,
            Ok(_) => Some(format!(
                "ignored `{rel}`: it differs from the instructor's copy, which was used"
            )),
            Err(_) => Some(format!("ignored `{rel}`: not a file the learner writes")),
        })
        .collect();
    let extra = changed.len().saturating_sub(SHOWN);
    let mut notes: Vec<String> = changed.into_iter().take(SHOWN).collect();
    if extra > 0 {
        notes.push(format!("... and {extra} more ignored file(s)"));
    }
    notes
}
