//! `grader grade`: a class's submissions into a gradebook, and its two
//! companions, `grade prepare` (everything before the first learner, for a
//! cache) and `grade merge` (the parts of a sharded run into one gradebook).
//!
//! The problem: a class is many learners and one verdict each, and neither
//! an interruption nor one learner may leave a gradebook that looks whole
//! but is not. So the class is prepared once (`prepare`), each learner is
//! graded by a worker of its own (`learner`, `worker`), one learner per
//! core, and written as soon as graded; the gradebook is written beside
//! `--out` and moved into place only when complete (`staging`), and a
//! signal stops the workers and reports that nothing was written
//! (`interrupt`). State: the class's queue and what is graded of it, in
//! memory. Cost: the preparation, then per learner its grading, and the
//! gradebook once at the end.

use crate::interrupt;
use crate::learner::grade_one;
use crate::prepare::{Ctx, Setup, prepare};
use crate::record::{ChapterStatus, LearnerResult};
use crate::results::Results;
use crate::{report, shard, staging, submission, worker};
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;
use workbook_core::info::Chapter;

/// What the command line gives `grade`.
pub struct Options {
    pub submissions: PathBuf,
    pub out: PathBuf,
    pub setup: Setup,
    /// Grade only this shard of the class, and write a part to merge.
    pub shard: Option<shard::Shard>,
}

/// `grader grade prepare`: everything before the first learner (the
/// locked dependencies fetched and compiled, the pristine build), so a
/// cache can carry it to the machines that grade the shards.
pub fn prepare_only(root: &Path, chapters: &[Chapter], setup: Setup) -> Result<ExitCode> {
    interrupt::install()?;
    let ctx = match (prepare(root, chapters, &setup, 0), interrupt::requested()) {
        (Err(_), Some(sig)) => return Ok(interrupt::interrupted(sig, None)),
        (ctx, _) => ctx?,
    };
    println!(
        "prepared {}: {} graded test(s); later grading runs with this target directory, checkout, config and toolchain build only the learners' crates",
        ctx.target_dir.display(),
        ctx.cases.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// `grader grade SUBMISSIONS --out REPORT`: the class graded into a
/// gradebook (or, with `--shard`, into a part to merge).
pub fn run(root: &Path, chapters: &[Chapter], opts: Options) -> Result<ExitCode> {
    interrupt::install()?;
    let out = opts.out.clone();
    // Every folder of the run is gone when `grade_class` returns, however
    // it returns: only then is the interruption reported.
    // A signal that came after the report was in place changes nothing.
    match (grade_class(root, chapters, opts), interrupt::requested()) {
        (Err(_), Some(sig)) => Ok(interrupt::interrupted(sig, Some(&out))),
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
    let (records, results): (Vec<LearnerResult>, Vec<Results>) =
        grade_learners(&ctx, mine, staging.dir())
            .into_iter()
            .unzip();
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
                    results: records,
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
            report::write_class(
                staging.dir(),
                &ctx.cases,
                chapters,
                &ctx.config,
                &ctx.hidden_seed,
                &results,
            )?;
            staging.commit()?;
            summary(&records, elapsed, &opts.out);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `grader grade merge PART... --out REPORT`.
pub fn merge(chapters: &[Chapter], parts: &[PathBuf], out: &Path) -> Result<ExitCode> {
    interrupt::install()?;
    match (shard::merge(chapters, parts, out), interrupt::requested()) {
        (Err(_), Some(sig)) => Ok(interrupt::interrupted(sig, Some(out))),
        (merged, _) => merged.map(|()| ExitCode::SUCCESS),
    }
}

/// Grades `learners`, a worker per job, writing each one's results.json
/// as soon as it is graded; returns each learner's record and typed
/// results, sorted by id.
fn grade_learners(
    ctx: &Ctx,
    learners: Vec<submission::Learner>,
    out: &Path,
) -> Vec<(LearnerResult, Results)> {
    let jobs = ctx.config.jobs().min(learners.len()).max(1);
    let queue = Mutex::new(learners.into_iter().rev().collect::<Vec<_>>());
    let graded = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for index in 0..jobs {
            let (queue, graded) = (&queue, &graded);
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
                    let results = Results::of(&ctx.cases, ctx.chapters, &r);
                    if let Err(e) = report::write_learner(out, &results) {
                        ctx.bar
                            .println(format!("{}: cannot write results: {e:#}", learner.id));
                    }
                    graded
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push((r, results));
                    if ctx.bar.is_hidden() {
                        eprintln!(
                            "grade: {}",
                            crate::prepare::plain_progress(
                                &ctx.bar,
                                ctx.chapters.len(),
                                &learner.id
                            )
                        );
                    }
                }
            });
        }
    });
    ctx.bar.finish_and_clear();
    let mut graded = graded.into_inner().unwrap_or_else(|p| p.into_inner());
    graded.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    graded
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
