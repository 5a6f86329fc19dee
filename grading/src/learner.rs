//! One learner, from submission to result: read it, take what it may write
//! (the intake), then build and test each chapter within one build budget
//! and one test budget for the whole learner.
//!
//! The problem: whatever a submission holds or does, it ends as this
//! learner's row (a grade, or an error naming why), never as the class's
//! failure. State: the worker's copy and target directory, reused chapter
//! after chapter. Cost: per chapter one build of the learner's crate and
//! one short process per test.

use crate::exec::{self, Budget, Runner};
use crate::interrupt;
use crate::prepare::{Ctx, checkout_relative, dependencies};
use crate::record::{ChapterStatus, LearnerResult, TestResult};
use crate::results::{MESSAGE_CHARS, cap, cap_notes};
use crate::spawner::Spawners;
use crate::subjects::Subjects;
use crate::workspace::{BuildEnv, Workspace};
use crate::{intake, judge, submission, tables, worker};
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use workbook_core::info::Chapter;

/// Grades one learner with worker `worker`'s copy; never fails and never
/// panics: whatever goes wrong becomes this learner's error row. Its notes
/// are capped and the instructor's folders hidden in everything it says.
pub(super) fn grade_one(
    ctx: &Ctx,
    worker: &worker::Worker,
    learner: &submission::Learner,
) -> LearnerResult {
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
        let capped = cap(&msg, MESSAGE_CHARS);
        for s in r.chapters.iter_mut() {
            if matches!(s, ChapterStatus::Graded | ChapterStatus::NotSubmitted) {
                *s = ChapterStatus::Error(capped.clone());
            }
        }
        // Whole: `cap_notes` caps it once, counting what it cuts.
        r.notes.push(format!("grading stopped: {msg}"));
    }
    r.notes = cap_notes(std::mem::take(&mut r.notes));
    ctx.places.hide_result(&mut r);
    ctx.bar.inc(ctx.chapters.len() as u64);
    r
}

/// One chapter ready to build: the assembled sources.
pub(super) struct Accepted {
    chapter: usize,
    files: BTreeMap<PathBuf, String>,
}

pub(super) fn grade_into(
    ctx: &Ctx,
    worker: &worker::Worker,
    path: &Path,
    r: &mut LearnerResult,
) -> Result<()> {
    let folders: Vec<String> = ctx.chapters.iter().map(Chapter::folder).collect();
    let sub = submission::read(path, &folders).context("cannot read the submission")?;
    r.notes.extend(sub.notes.iter().cloned());
    let first = folders.first().map_or("NN_slug", String::as_str);
    r.notes.extend(ignored_notes(ctx.root, &sub, first));
    let mut accepted = Vec::new();
    for (ci, c) in ctx.chapters.iter().enumerate() {
        let Some(files) = sub.chapters.get(&c.folder()) else {
            continue;
        };
        let pristine = &ctx.stubs[ci];
        let stubs: Vec<String> = c.all_stubs().keys().map(|k| k.to_string()).collect();
        let crates = dependencies(&c.stub_dir().join("Cargo.toml"));
        let taken = intake::take(pristine, files, &stubs, &ctx.config.allow, &crates);
        let folder = c.folder();
        r.notes
            .extend(taken.notes.iter().map(|n| format!("{folder}: {n}")));
        // Each file as the learner knows it: under the workbook's root.
        let src = checkout_relative(c.stub_dir(), c).join("src");
        r.chapters[ci] = if !taken.refused.is_empty() {
            ChapterStatus::Rejected(
                taken
                    .refused
                    .iter()
                    .map(|f| {
                        format!(
                            "{}/{}:{}: {} (rule `{}`)",
                            src.display(),
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

pub(super) fn grade_chapters(
    ctx: &Ctx,
    worker: &worker::Worker,
    work: &Workspace,
    accepted: &[Accepted],
    r: &mut LearnerResult,
) -> Result<()> {
    // One time budget for this learner's build and one for all of its
    // tests, each spent only by what it is for: a learner whose chapters
    // never finish compiling (or whose every test sleeps) holds a worker
    // once, and a slow test never costs a chapter its build (the build
    // comes first: a busy machine must not change a grade).
    let budget = Duration::from_secs(ctx.config.build_limit_secs);
    let test_budget = Duration::from_secs(ctx.config.test_budget_secs);
    let subjects = build_subjects(ctx, worker, work, accepted, budget, r)?;
    let mut tested = Duration::ZERO;
    for a in accepted {
        interrupt::check()?;
        let Some(subject) = subjects.get(&a.chapter) else {
            continue;
        };
        let c = &ctx.chapters[a.chapter];
        let t = Instant::now();
        // The judge runs in the pristine copy, which holds its binaries
        // and the snapshots; it never sees the learner's folder.
        let judge = ctx.judges.get(&c.folder()).cloned().unwrap_or_default();
        let pristine = ctx.pristine.chapter(c);
        let runner = Runner {
            self_exe: ctx.self_exe.clone(),
            limits: ctx.limits.clone(),
            sandbox: &ctx.sandbox,
            visible: vec![ctx.pristine.bin_dir(&c.folder()), pristine.snapshot_dir()],
            cwd: pristine.stub_dir().to_path_buf(),
            workspace: ctx.pristine.dir.clone(),
            verdicts: work.dir.join("verdicts"),
            subject: Some(subject.clone()),
            budget: Some(Budget {
                until: t + test_budget.saturating_sub(tested),
                secs: test_budget.as_secs(),
            }),
            hidden_seed: ctx.hidden_seed.value,
            // One sandbox per role for this learner-chapter's tests.
            spawners: Spawners::wanted(ctx.sandbox.mode, ctx.sandbox.root()),
        };
        // Each suite binary's tests: first all in one judge (a pass is
        // taken from it), then each test it did not pass alone.
        let mut by_binary: BTreeMap<&PathBuf, Vec<usize>> = BTreeMap::new();
        for (k, case) in ctx.cases.iter().enumerate() {
            if case.chapter == a.chapter
                && let Some(binary) = judge.binaries.get(&case.suite.target(c))
            {
                by_binary.entry(binary).or_default().push(k);
            }
        }
        for (binary, ks) in by_binary {
            interrupt::check()?;
            let mut passed = if exec::batch::wanted() {
                let names: Vec<&str> = ks.iter().map(|&k| ctx.cases[k].name.as_str()).collect();
                runner.run_batch(binary, &names)?
            } else {
                BTreeMap::new()
            };
            for k in ks {
                interrupt::check()?;
                let name = &ctx.cases[k].name;
                r.tests[k].run = Some(match passed.remove(name) {
                    Some(run) => run,
                    None => runner.run(binary, name)?,
                });
            }
        }
        tested += t.elapsed();
        r.run_secs += t.elapsed().as_secs_f64();
    }
    Ok(())
}

/// Each accepted chapter's subject, by chapter: from the subject cache
/// when the same sources were built before (a resubmission, a regrade, an
/// unchanged chapter: the same binary, no build), else from one cargo run
/// for all the others within the learner's build `budget`. A chapter that
/// did not build gets its compile error here and no subject.
fn build_subjects(
    ctx: &Ctx,
    worker: &worker::Worker,
    work: &Workspace,
    accepted: &[Accepted],
    budget: Duration,
    r: &mut LearnerResult,
) -> Result<BTreeMap<usize, PathBuf>> {
    let mut subjects = BTreeMap::new();
    let mut missing = Vec::new();
    for a in accepted {
        let c = &ctx.chapters[a.chapter];
        // The subject: the learner's code and a dispatcher, nothing else.
        let keys = c.all_stubs().keys().map(|k| k.to_string()).collect();
        let files = judge::subject_sources(&a.files, &ctx.stubs[a.chapter], &keys, c.package())?;
        let hash = Subjects::hash(c.package(), &files);
        match ctx.subjects.get(&hash) {
            Some(kept) => {
                subjects.insert(a.chapter, kept);
            }
            None => {
                work.load(c, &files)?;
                work.add_subject_bin(c)?;
                missing.push((a.chapter, hash));
            }
        }
    }
    if missing.is_empty() {
        return Ok(subjects);
    }
    interrupt::check()?;
    let bounds = worker.bounds(ctx);
    let env = BuildEnv {
        target_dir: &worker.target,
        sandbox: &ctx.sandbox,
        limit: budget,
        bounds: Some(&bounds),
    };
    let chapters: Vec<Chapter> = missing
        .iter()
        .map(|(ci, _)| ctx.chapters[*ci].clone())
        .collect();
    let mut builds = work.build_subjects(&chapters, &env)?;
    for ((ci, hash), c) in missing.iter().zip(&chapters) {
        let build = builds.remove(&c.folder()).unwrap_or_default();
        r.build_secs = r.build_secs.max(build.seconds);
        let Some(subject) = build
            .binaries
            .get(judge::SUBJECT_BIN)
            .filter(|_| build.errors.is_empty())
        else {
            r.chapters[*ci] = ChapterStatus::CompileError(build.errors.join("\n\n"));
            continue;
        };
        // Not kept (a full disk, say): graded from where it was built.
        let kept = ctx
            .subjects
            .put(hash, subject)
            .unwrap_or_else(|_| subject.clone());
        subjects.insert(*ci, kept);
    }
    Ok(subjects)
}

/// Notes for the instructor's files the submission changed (they were
/// ignored: the grader used its own), at most a screenful.
pub(super) fn ignored_notes(root: &Path, sub: &submission::Submission, first: &str) -> Vec<String> {
    const SHOWN: usize = 20;
    let changed: Vec<String> = sub
        .ignored
        .iter()
        .filter_map(|(rel, bytes)| match std::fs::read(root.join(rel)) {
            Ok(ours) if ours == *bytes => None,
            Ok(_) => Some(format!(
                "ignored `{rel}`: it differs from the instructor's copy, which was used"
            )),
            Err(_) => Some(format!(
                "ignored `{rel}`: not a file the learner writes{}",
                where_sources_go(rel, first)
            )),
        })
        .collect();
    let extra = changed.len().saturating_sub(SHOWN);
    let mut notes: Vec<String> = changed.into_iter().take(SHOWN).collect();
    if extra > 0 {
        notes.push(format!("... and {extra} more ignored file(s)"));
    }
    notes
}

/// For a Rust file the grader did not take and that is not under
/// `exercises/` (a flat layout), where a chapter's sources are read from, with `first` (`00_intro`) as the example: a learner who
/// handed in `lib.rs` at the top learns where it should have been.
fn where_sources_go(rel: &str, first: &str) -> String {
    if !rel.ends_with(".rs") || rel.starts_with("exercises/") {
        return String::new();
    }
    let name = rel.rsplit('/').next().unwrap_or(rel);
    format!(
        "; a chapter's sources are read from `exercises/NN_slug/src/` in the submission \
         (e.g. `NAME/exercises/{first}/src/{name}`, or `NAME/{first}/src/{name}` in a copy of `exercises/`)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notes_for(rel: &str) -> Vec<String> {
        let sub = submission::Submission {
            ignored: vec![(rel.to_string(), b"pub fn f() {}".to_vec())],
            ..Default::default()
        };
        ignored_notes(Path::new("/nonexistent/workbook"), &sub, "00_intro")
    }

    #[test]
    fn a_flat_lib_rs_is_told_where_a_chapters_sources_are_expected() {
        let notes = notes_for("lib.rs");
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].starts_with("ignored `lib.rs`: not a file the learner writes; ")
                && notes[0].contains("`NAME/exercises/00_intro/src/lib.rs`"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_file_beside_the_sources_in_the_right_layout_gets_no_layout_hint() {
        let notes = notes_for("exercises/00_intro/build.rs");
        assert_eq!(
            notes,
            ["ignored `exercises/00_intro/build.rs`: not a file the learner writes"]
        );
    }
}
