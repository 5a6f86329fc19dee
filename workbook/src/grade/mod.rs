//! `workbook grade`: the instructor's batch grader.
//!
//! The problem: turn a folder of learners' copies into a gradebook that a
//! hostile class cannot bend. The grader takes only each learner's
//! `exercises/*/src/**/*.rs` (everything else is the instructor's), lints
//! those files before building, builds each learner in a pristine copy of
//! the workbook with dependencies shared across the class, and runs every
//! test alone in a child process under time, memory and output limits.
//! State: one pristine slot per worker, one shared target directory.
//! Cost: one dependency build for the class, then per learner one build of
//! the learner's crates and one short process per test; learners are graded
//! in parallel, one per core. See `grading/README.md` for the threat model.

mod config;
mod exec;
mod lint;
mod report;
mod slot;
mod submission;

pub use exec::limited_exec;

use crate::info::Chapter;
use anyhow::{Context, Result, bail};
use config::Config;
use exec::{Limits, Outcome, Runner};
use indicatif::{ProgressBar, ProgressStyle};
use slot::Slot;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// What the command line gives.
pub struct Options {
    pub submissions: PathBuf,
    pub out: PathBuf,
    pub config: Option<PathBuf>,
    pub target_dir: Option<PathBuf>,
    pub jobs: Option<usize>,
}

/// Whether a test comes from the suite learners see or a hidden one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    Public,
    Hidden,
}

/// One graded test, as found in the pristine build.
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone)]
pub enum ChapterStatus {
    Graded,
    NotSubmitted,
    CompileError(String),
    Rejected(Vec<String>),
    Error(String),
}

impl ChapterStatus {
    pub fn label(&self) -> &'static str {
        match self {
            Self::Graded => "graded",
            Self::NotSubmitted => "not submitted",
            Self::CompileError(_) => "compile error",
            Self::Rejected(_) => "rejected",
            Self::Error(_) => "error",
        }
    }
}

/// One test's result for one learner (None: the test did not run).
#[derive(Debug, Clone)]
pub struct TestResult {
    pub run: Option<exec::TestRun>,
}

#[derive(Debug, Clone)]
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
    config: Config,
    target_dir: PathBuf,
    build_lock: Mutex<()>,
    runner_template: (PathBuf, Limits),
    bar: ProgressBar,
}

pub fn run(root: &Path, chapters: &[Chapter], opts: Options) -> Result<ExitCode> {
    let start = Instant::now();
    let mut config = Config::load(root, opts.config.as_deref())?;
    if let Some(j) = opts.jobs {
        config.jobs = j;
    }
    for rule in &config.allow {
        if !lint::RULES.contains(&rule.as_str()) {
            bail!(
                "grading config: `allow` names no rule `{rule}`; the rules are {}",
                lint::RULES.join(", ")
            );
        }
    }
    let target_dir = opts.target_dir.clone().unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| root.join("target"), PathBuf::from)
            .join("grade")
    });
    let learners = submission::list(&opts.submissions)?;
    if learners.is_empty() {
        bail!(
            "{} holds no submissions (folders, .zip or .tar.gz files)",
            opts.submissions.display()
        );
    }
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("cannot create {}", opts.out.display()))?;
    let jobs = config.jobs().min(learners.len()).max(1);
    let hidden = config.hidden_dir(root);
    eprintln!(
        "grade: preparing {jobs} pristine workspace(s) and building the dependencies once..."
    );
    let slots_dir = target_dir.join("slots");
    let slots = (0..jobs)
        .map(|i| {
            Slot::create(
                root,
                &slots_dir.join(format!("slot-{i}")),
                chapters,
                hidden.as_deref(),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let cases = pristine_cases(
        root,
        chapters,
        &config,
        &slots[0],
        &target_dir,
        hidden.as_deref(),
    )?;
    let self_exe = std::env::current_exe().context("cannot find the workbook binary")?;
    let limits = Limits {
        wall: config.wall(),
        cpu_secs: config.cpu_limit_secs,
        memory_bytes: config.memory_limit_mb << 20,
        output_bytes: config.output_limit_kb << 10,
    };
    let bar = ProgressBar::new((learners.len() * chapters.len()) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} learner-chapters {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let ctx = Ctx {
        root,
        chapters,
        cases,
        config,
        target_dir,
        build_lock: Mutex::new(()),
        runner_template: (self_exe, limits),
        bar,
    };
    let queue = Mutex::new(learners.clone());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for slot in &slots {
            s.spawn(|| {
                while let Some((name, path)) = next(&queue) {
                    ctx.bar.set_message(name.clone());
                    let r = grade_one(&ctx, slot, &name, &path);
                    if let Err(e) = report::write_learner(&opts.out, &ctx.cases, ctx.chapters, &r) {
                        ctx.bar
                            .println(format!("{name}: cannot write results: {e:#}"));
                    }
                    results.lock().unwrap_or_else(|p| p.into_inner()).push(r);
                }
            });
        }
    });
    ctx.bar.finish_and_clear();
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by(|a, b| a.name.cmp(&b.name));
    let elapsed = start.elapsed().as_secs_f64();
    report::write_class(&opts.out, &ctx.cases, chapters, &ctx.config, &results)?;
    summary(&results, chapters.len(), elapsed, &opts.out);
    Ok(ExitCode::SUCCESS)
}

fn next(queue: &Mutex<Vec<(String, PathBuf)>>) -> Option<(String, PathBuf)> {
    let mut q = queue.lock().unwrap_or_else(|p| p.into_inner());
    if q.is_empty() {
        None
    } else {
        Some(q.remove(0))
    }
}

fn summary(results: &[LearnerResult], chapters: usize, elapsed: f64, out: &Path) {
    let n = results.len().max(1) as f64;
    let build: f64 = results.iter().map(|r| r.build_secs).sum();
    let run: f64 = results.iter().map(|r| r.run_secs).sum();
    eprintln!(
        "grade: {} learner(s) in {elapsed:.1} s; per learner per chapter: build {:.2} s, tests {:.2} s",
        results.len(),
        build / n / chapters.max(1) as f64,
        run / n / chapters.max(1) as f64
    );
    println!("wrote {}", out.join("grades.csv").display());
    println!("wrote {}", out.join("report.md").display());
    println!("wrote {}", out.join("report.html").display());
}

/// Builds the stubs once (compiling the shared dependencies) and lists every
/// graded test, public and hidden, with its weight and source.
fn pristine_cases(
    root: &Path,
    chapters: &[Chapter],
    config: &Config,
    slot: &Slot,
    target: &Path,
    hidden: Option<&Path>,
) -> Result<Vec<Case>> {
    slot.load(root, chapters, None, &[])?;
    let builds = slot.build(chapters, target)?;
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
                c.package().to_string(),
                root.join("tests").join(format!("{}.rs", c.chapter.slug)),
            ),
            (
                Suite::Hidden,
                format!("hidden_{}", c.chapter.slug),
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
            for name in slot::list_tests(binary)? {
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
    Ok(cases)
}

/// Grades one learner in `slot`; never fails, errors become the result.
fn grade_one(ctx: &Ctx, slot: &Slot, name: &str, path: &Path) -> LearnerResult {
    let mut r = LearnerResult {
        name: name.to_string(),
        notes: Vec::new(),
        chapters: vec![ChapterStatus::NotSubmitted; ctx.chapters.len()],
        tests: vec![TestResult { run: None }; ctx.cases.len()],
        build_secs: 0.0,
        run_secs: 0.0,
    };
    if let Err(e) = grade_into(ctx, slot, path, &mut r) {
        let msg = format!("{e:#}");
        for s in r.chapters.iter_mut() {
            if matches!(s, ChapterStatus::Graded) {
                *s = ChapterStatus::Error(msg.clone());
            }
        }
        r.notes.push(format!("grading stopped: {msg}"));
    }
    ctx.bar.inc(ctx.chapters.len() as u64);
    r
}

fn grade_into(ctx: &Ctx, slot: &Slot, path: &Path, r: &mut LearnerResult) -> Result<()> {
    let folders: Vec<String> = ctx.chapters.iter().map(Chapter::folder).collect();
    let sub = submission::read(path, &folders).context("cannot read the submission")?;
    r.notes.extend(sub.notes.iter().cloned());
    let mut candidates = Vec::new();
    for (ci, c) in ctx.chapters.iter().enumerate() {
        let Some(files) = sub.chapters.get(&c.folder()) else {
            continue;
        };
        let mut findings = Vec::new();
        for (rel, bytes) in files {
            let text = String::from_utf8_lossy(bytes);
            // Given code (a chapter's binary may read files or set an exit
            // code) may keep what its pristine stub already uses, in that file.
            let pristine = std::fs::read_to_string(c.dir.join("src").join(rel)).unwrap_or_default();
            let mut baseline: Vec<String> = lint::lint(&pristine, &[])
                .into_iter()
                .map(|f| f.rule)
                .collect();
            for f in lint::lint(&text, &ctx.config.allow) {
                if let Some(i) = baseline.iter().position(|r| *r == f.rule) {
                    baseline.swap_remove(i);
                    continue;
                }
                findings.push(format!(
                    "exercises/{}/src/{}:{}: {} (rule `{}`)",
                    c.folder(),
                    rel.display(),
                    f.line,
                    f.what,
                    f.rule
                ));
            }
        }
        r.chapters[ci] = if findings.is_empty() {
            candidates.push(ci);
            ChapterStatus::Graded
        } else {
            ChapterStatus::Rejected(findings)
        };
    }
    if candidates.is_empty() {
        return Ok(());
    }
    let graded: Vec<Chapter> = candidates
        .iter()
        .map(|&ci| ctx.chapters[ci].clone())
        .collect();
    let stubs: Vec<String> = folders
        .iter()
        .enumerate()
        .filter(|(i, _)| !candidates.contains(i))
        .map(|(_, f)| f.clone())
        .collect();
    let builds = {
        let _guard = ctx.build_lock.lock().unwrap_or_else(|p| p.into_inner());
        let t = Instant::now();
        slot.load(ctx.root, ctx.chapters, Some(&sub), &stubs)?;
        let b = slot.build(&graded, &ctx.target_dir)?;
        r.build_secs = t.elapsed().as_secs_f64();
        b
    };
    let t = Instant::now();
    for &ci in &candidates {
        let c = &ctx.chapters[ci];
        let build = &builds[&c.folder()];
        if !build.errors.is_empty() || !build.binaries.contains_key(c.package()) {
            r.chapters[ci] = ChapterStatus::CompileError(build.errors.join("\n\n"));
            continue;
        }
        let runner = Runner {
            self_exe: ctx.runner_template.0.clone(),
            limits: ctx.runner_template.1.clone(),
            cwd: slot.dir.join("exercises").join(c.folder()),
            workspace: slot.dir.clone(),
        };
        for (k, case) in ctx
            .cases
            .iter()
            .enumerate()
            .filter(|(_, k)| k.chapter == ci)
        {
            let target = match case.suite {
                Suite::Public => c.package().to_string(),
                Suite::Hidden => format!("hidden_{}", c.chapter.slug),
            };
            if let Some(binary) = build.binaries.get(&target) {
                r.tests[k].run = Some(runner.run(binary, &case.name)?);
            }
        }
    }
    r.run_secs = t.elapsed().as_secs_f64();
    Ok(())
}
