//! Everything before the first learner: the config, the sandbox, the
//! pristine copy (its stubs derived from `solutions/`, never read from the
//! checkout), its build and the list of graded tests.
//!
//! The problem: every learner must be judged against the same pristine
//! workbook, built once, whatever state the instructor's checkout is in.
//! State: the [`Ctx`] it returns (everything the workers share), made from
//! a [`Setup`] (how the grader is set up, whatever it then grades). Cost:
//! one build of the stubs and the dependencies (the seed) per run, cheap
//! when the target directory is warm.

use crate::config::Config;
use crate::exec::Limits;
use crate::hidden_seed::{self, HiddenSeed};
use crate::record::{Case, Suite};
use crate::sandbox::{Container, Mode, Sandbox};
use crate::workspace::{BuildEnv, ChapterBuild, Workspace};
use crate::{cgroup, intake, interrupt, judge, leftovers, redact, seed, shard, tables};
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use syn::spanned::Spanned;
use workbook_core::info::Chapter;

mod prepared;
mod stubs_cache;

/// How the grader is set up, whatever it then grades (`grade`,
/// `grade prepare`, `test-runner`).
#[derive(Clone, Default)]
pub struct Setup {
    pub config: Option<PathBuf>,
    pub target_dir: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub no_sandbox: bool,
    /// `--sandbox container`: the platform's container is the isolation.
    pub container: Container,
    /// `grade-one --public-only`: the config's hidden suites are left out
    /// (a grading whose every input the learner can read, as on Classroom).
    pub public_only: bool,
}

/// Everything the workers share.
pub(crate) struct Ctx<'a> {
    pub(crate) root: &'a Path,
    pub(crate) chapters: &'a [Chapter],
    pub(crate) cases: Vec<Case>,
    /// The judges: each chapter's suites, built once for the class.
    pub(crate) judges: BTreeMap<String, ChapterBuild>,
    /// Each chapter's pristine stubs, derived from `solutions/` (never read
    /// from the checkout's `exercises/`, which an instructor may have
    /// solved), by path under `src/`.
    pub(crate) stubs: Vec<BTreeMap<PathBuf, String>>,
    /// Each chapter's answer literals, for the table note: read once.
    pub(crate) answers: Vec<tables::Answers>,
    pub(crate) config: Config,
    pub(crate) target_dir: PathBuf,
    /// The subjects built for this prepared class, by their sources' hash.
    pub(crate) subjects: crate::subjects::Subjects,
    /// The compiled dependencies every worker's builds link to.
    pub(crate) seed: seed::Seed,
    /// Whether each worker's builds get a control group.
    pub(crate) cgroups: bool,
    pub(crate) pristine: Workspace,
    pub(crate) sandbox: Sandbox,
    pub(crate) self_exe: PathBuf,
    pub(crate) limits: Limits,
    pub(crate) bar: ProgressBar,
    pub(crate) provenance: shard::Provenance,
    /// The seed the hidden suites' judges draw their inputs from.
    pub(crate) hidden_seed: HiddenSeed,
    /// The instructor's folders, hidden in every learner's results.
    pub(crate) places: redact::Places,
    /// This run's hold on the prepared class (`TARGET/prepared/KEY`, the
    /// pristine copy and its judges): shared while it grades, so no sweep
    /// removes it.
    _hold: prepared::Hold,
    /// This run's claim on its folders in the target directory; dropped
    /// after them.
    _run: leftovers::RunLock,
}

impl Drop for Ctx<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.self_exe);
    }
}

/// Everything before the first learner: the config, the sandbox, the
/// pristine workspace and its build (the dependencies, compiled once), the
/// list of graded tests.
pub(crate) fn prepare<'a>(
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
    let groups = cgroup::sweep(&|pid| leftovers::gone(&target_dir, pid));
    if !groups.is_empty() {
        eprintln!(
            "grade: removed the control groups of grading runs that are gone: {}",
            groups.join(", ")
        );
    }
    let hidden = config.hidden_dir(root);
    let hidden_seed = HiddenSeed::choose(root, &config)?;
    if sandbox.mode == Mode::Container && sandbox.root() {
        // The tests see the whole file system: the seed must be closed.
        hidden_seed.closed_to_others()?;
    }
    if hidden.is_some() {
        for w in hidden_seed::warnings(root, hidden.as_deref(), &hidden_seed) {
            eprintln!("grade: WARNING: {w}");
        }
        eprintln!("grade: {}", hidden_seed.describe());
    }
    let provenance = shard::Provenance::of(root, &config, hidden.as_deref(), &hidden_seed)?;
    for line in [stubs_cache::sweep(&target_dir), seed::sweep(&target_dir)]
        .into_iter()
        .flatten()
    {
        eprintln!("grade: {line}");
    }
    let stubs = derived_stubs(chapters, &stubs_cache::StubsCache::new(&target_dir, root))?;
    let answers = chapters
        .iter()
        .zip(&stubs)
        .map(|(c, s)| tables::Answers::of(c, hidden.as_deref(), s))
        .collect();
    // Made fresh per process (so shards that share a target directory never
    // meet), then digested: the key of the prepared class. A class ready
    // under that key is graded with as it is; else this run builds it (in
    // the kept copy when no other run holds it, so what did not change is
    // not built again) and leaves it ready for the next.
    let pristine_dir = target_dir.join(format!("pristine-{}", std::process::id()));
    let fresh = Workspace::pristine(root, &pristine_dir, chapters, &stubs, hidden.as_deref())
        .and_then(|fresh| Ok((prepared::key(&fresh.dir, &config.hidden)?, fresh)));
    let (key, fresh) = match fresh {
        Ok(f) => f,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&pristine_dir);
            return Err(e);
        }
    };
    for line in prepared::sweep(&target_dir, &key) {
        eprintln!("grade: {line}");
    }
    if let Some(line) = crate::subjects::sweep(&target_dir, config.subject_cache_mb << 20) {
        eprintln!("grade: {line}");
    }
    let mut hold = match prepared::Hold::take(&target_dir, &key) {
        Ok(h) => h,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&pristine_dir);
            return Err(e);
        }
    };
    if hold.ready() {
        let _ = std::fs::remove_dir_all(&fresh.dir);
        eprintln!(
            "grade: prepared class reused (key {key}): nothing to build before the first learner"
        );
    } else {
        eprintln!(
            "grade: preparing the class (key {key}): building the pristine copy and its judges"
        );
        if let Err(e) = build_prepared(fresh, &hold, chapters, &target_dir, &sandbox) {
            hold.discard();
            let _ = std::fs::remove_dir_all(&pristine_dir);
            return Err(e);
        }
    }
    let pristine = Workspace {
        dir: hold.dir().to_path_buf(),
    };
    let judges = match hold.judges(chapters) {
        Ok(j) => j,
        Err(e) => {
            // Whatever damaged it, the next run must not find it ready.
            hold.discard();
            return Err(
                e.context("the prepared class is incomplete; the next run prepares it afresh")
            );
        }
    };
    let built = (|| {
        let cases = list_cases(chapters, &config, &judges, hidden.as_deref())?;
        if !hold.seed_built(&target_dir) {
            build_seed(chapters, &stubs, &pristine, &target_dir, &sandbox)?;
            hold.mark_seed(&target_dir)?;
        }
        if !hold.ready() {
            hold.mark_ready()?;
        }
        Ok((cases, judges))
    })();
    let (cases, judges) = match built {
        Ok(b) => b,
        Err(e) => {
            if !hold.ready() {
                hold.discard();
            }
            return Err(e);
        }
    };
    if sandbox.root() {
        // Tests run under uids of their own: the judges' files become the
        // judges' group's alone, whoever opened them since.
        crate::closed::close(&target_dir)?;
    }
    let limits = Limits {
        wall: config.wall(),
        cpu_secs: config.cpu_limit_secs,
        memory_bytes: config.memory_limit_mb << 20,
        output_bytes: config.output_limit_kb << 10,
        tasks: config.tasks_limit,
        idle: config.idle(),
    };
    let bar = ProgressBar::new((learners * chapters.len()) as u64);
    let per_learner = chapters.len().max(1) as u64;
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} learner-chapters {elapsed} {pace} {msg}",
        )
        .map(|style| {
            style.with_key(
                "pace",
                move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&pace(
                        state.pos() / per_learner,
                        state.len().unwrap_or(0) / per_learner,
                        state.elapsed(),
                    ));
                },
            )
        })
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
        cgroups: cgroup::available(),
        subjects: crate::subjects::Subjects::new(&target_dir, &key),
        target_dir,
        pristine,
        sandbox,
        self_exe,
        limits,
        bar,
        provenance,
        hidden_seed,
        places,
        _hold: hold,
        _run: run,
    })
}

/// The progress line written after each learner when no terminal shows the
/// bar (a platform's log, a file, CI), so a long run still says how far it
/// is: `12/50 learners graded (last: NAME; 2.0 learners/min, about 19m00s
/// left)`.
pub(crate) fn plain_progress(bar: &ProgressBar, chapters: usize, last: &str) -> String {
    let per_learner = chapters.max(1) as u64;
    let (done, total) = (
        bar.position() / per_learner,
        bar.length().unwrap_or(0) / per_learner,
    );
    format!(
        "{done}/{total} learners graded (last: {last}; {})",
        pace(done, total, bar.elapsed())
    )
}

/// The class's pace for its progress line: learners graded per minute and
/// the time left, estimated from the `done` learners of `total` graded in
/// `elapsed` (every learner taken to cost what those did).
fn pace(done: u64, total: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if done == 0 || secs <= 0.0 {
        return "(pace after the first learner)".into();
    }
    let per_min = done as f64 * 60.0 / secs;
    let left = (secs / done as f64 * total.saturating_sub(done) as f64).round() as u64;
    let left = match left {
        0..60 => format!("{left}s"),
        60..3600 => format!("{}m{:02}s", left / 60, left % 60),
        _ => format!("{}h{:02}m", left / 3600, left % 3600 / 60),
    };
    format!("{per_min:.1} learners/min, about {left} left")
}

/// Builds every chapter's subject from its pristine `stubs` into `target`
/// (in a copy of `pristine` that is removed after): the seed.
fn build_seed(
    chapters: &[Chapter],
    stubs: &[BTreeMap<PathBuf, String>],
    pristine: &Workspace,
    target: &Path,
    sandbox: &Sandbox,
) -> Result<()> {
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template(
            "{spinner} compiling what every learner's build links to, once: {elapsed}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.enable_steady_tick(Duration::from_millis(200));
    let dir = target
        .join("work")
        .join(format!("{}-wseed", std::process::id()));
    let built = pristine.copy_to(&dir).and_then(|ws| {
        for (c, files) in chapters.iter().zip(stubs) {
            let keys = c.all_stubs().keys().map(|k| k.to_string()).collect();
            let subject = judge::subject_sources(files, files, &keys, c.package())?;
            ws.load(c, &subject)?;
            ws.add_subject_bin(c)?;
        }
        let env = BuildEnv {
            target_dir: target,
            sandbox,
            // The instructor's own code: no limit but patience.
            limit: Duration::from_secs(6 * 3600),
            bounds: None,
        };
        let done = ws.build_seed(chapters, &env);
        ws.remove();
        done
    });
    spinner.finish_and_clear();
    let _ = std::fs::remove_dir_all(&dir);
    built
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

/// Builds the prepared class from the fresh copy `fresh` into `hold`'s
/// folder: in the kept copy (`TARGET/pristine`, settled file by file so
/// cargo rebuilds only what changed) when no other run holds it, else in
/// the fresh copy itself, then copied with its judges' binaries.
fn build_prepared(
    fresh: Workspace,
    hold: &prepared::Hold,
    chapters: &[Chapter],
    target: &Path,
    sandbox: &Sandbox,
) -> Result<()> {
    let fresh_dir = fresh.dir.clone();
    let slot = leftovers::PristineSlot::try_take(target)?;
    let done = (|| {
        let ws = match &slot {
            Some(slot) => crate::kept::settle(fresh, slot.dir())?,
            None => fresh,
        };
        ws.fetch()?;
        // Written again by this build: a suite gone must leave no judge.
        let _ = std::fs::remove_dir_all(ws.dir.join(crate::workspace::BIN));
        build_judges(chapters, &ws, target, sandbox)?;
        let _ = std::fs::remove_dir_all(hold.dir());
        crate::workspace::copy_tree(&ws.dir, hold.dir())
    })();
    let _ = std::fs::remove_dir_all(&fresh_dir);
    if let (Err(_), Some(slot)) = (&done, &slot) {
        // Half settled or half built: the next run starts it afresh.
        let _ = std::fs::remove_dir_all(slot.dir());
    }
    done
}

/// Builds every chapter's judges (compiling the shared dependencies, with
/// progress shown) into `pristine`'s `bin/`; fails if any does not build.
fn build_judges(
    chapters: &[Chapter],
    pristine: &Workspace,
    target: &Path,
    sandbox: &Sandbox,
) -> Result<()> {
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
    for c in chapters {
        let build = builds.get(&c.folder()).cloned().unwrap_or_default();
        if !build.errors.is_empty() {
            bail!(
                "the pristine workbook does not build ({}):\n{}",
                c.chapter.slug,
                build.errors.join("\n")
            );
        }
    }
    Ok(())
}

/// Every graded test, public and hidden, with its weight and source, from
/// the judges' binaries (`--list`).
fn list_cases(
    chapters: &[Chapter],
    config: &Config,
    builds: &BTreeMap<String, ChapterBuild>,
    hidden: Option<&Path>,
) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    let mut task = 0;
    let mut tasks = BTreeMap::new();
    for (ci, c) in chapters.iter().enumerate() {
        for e in &c.exercises {
            task += 1;
            tasks.insert((ci, e.name.clone()), task);
        }
        let build = &builds[&c.folder()];
        let suites = [
            (Suite::Public, Suite::Public.target(c), c.suite()),
            (
                Suite::Hidden,
                Suite::Hidden.target(c),
                hidden.map(|h| c.hidden_suite_in(h)).unwrap_or_default(),
            ),
        ];
        for (suite, target_name, file) in suites {
            let Some(binary) = build.binaries.get(&target_name) else {
                continue;
            };
            let sources = test_sources(&file);
            for name in list_tests(binary)? {
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
                    code: source_of(&sources, &name),
                    exercise,
                    name,
                });
            }
        }
    }
    Ok(cases)
}

/// The test names in a suite binary (`--list`), run on the pristine build.
fn list_tests(binary: &Path) -> Result<Vec<String>> {
    let out = Command::new(binary)
        .args(["--list", "--format", "terse"])
        .env_clear()
        .output()?;
    if !out.status.success() {
        bail!("cannot list the tests of {}", binary.display());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
}

/// The source text of every function in a suite file, by `mod::fn` path.
fn test_sources(file: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(file) else {
        return out;
    };
    let Ok(parsed) = syn::parse_file(&text) else {
        return out;
    };
    let lines: Vec<&str> = text.lines().collect();
    collect(&parsed.items, "", &lines, &mut out);
    out
}

fn collect(items: &[syn::Item], prefix: &str, lines: &[&str], out: &mut BTreeMap<String, String>) {
    for item in items {
        match item {
            syn::Item::Fn(f) => {
                let (a, b) = (f.span().start().line, f.span().end().line);
                let body = lines
                    .get(a.saturating_sub(1)..b.min(lines.len()))
                    .unwrap_or_default();
                out.insert(format!("{prefix}{}", f.sig.ident), dedent(body));
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect(inner, &format!("{prefix}{}::", m.ident), lines, out);
                }
            }
            _ => {}
        }
    }
}

fn dedent(lines: &[&str]) -> String {
    let pad = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(pad..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The function a test name comes from (an rstest case names its function).
fn source_of(sources: &BTreeMap<String, String>, test: &str) -> String {
    let mut name = test;
    loop {
        if let Some(s) = sources.get(name) {
            return s.clone();
        }
        match name.rsplit_once("::") {
            Some((head, _)) => name = head,
            None => return String::new(),
        }
    }
}

/// The crates a chapter's manifest gives its code (`num_bigint`, `rayon`),
/// not counting the optional reference the suite may point at.
pub(crate) fn dependencies(manifest: &Path) -> Vec<String> {
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
/// in memory (kept in `cache` between runs, see `prepare/stubs_cache.rs`). A checkout whose `exercises/` differ (an instructor who tried
/// the exercises in it) is graded exactly like a clean one; the files that
/// differ are named, so nobody wonders which copy was used.
fn derived_stubs(
    chapters: &[Chapter],
    cache: &stubs_cache::StubsCache,
) -> Result<Vec<BTreeMap<PathBuf, String>>> {
    let mut out = Vec::new();
    for c in chapters {
        let files = cache.get_or_derive(c, || {
            Ok(workbook_core::stubs::generate(c)
                .with_context(|| {
                    format!("cannot derive the stubs of {} from solutions/", c.folder())
                })?
                .into_iter()
                .map(|f| (f.relative, f.text))
                .collect())
        })?;
        let checkout = read_sources(&c.stub_dir().join("src")).unwrap_or_default();
        let shown = checkout_relative(c.stub_dir(), c).join("src");
        let differ: Vec<String> = files
            .iter()
            .filter(|(rel, text)| checkout.get(*rel) != Some(*text))
            .map(|(rel, _)| shown.join(rel).display().to_string())
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

/// `path`, a place of chapter `c` in the checkout, as messages name it:
/// relative to the workbook's root (`exercises/00_intro`).
pub(crate) fn checkout_relative(path: &Path, c: &Chapter) -> PathBuf {
    path.strip_prefix(&c.root).unwrap_or(path).to_path_buf()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_progress_line_counts_learners_not_learner_chapters() {
        let bar = ProgressBar::hidden();
        bar.set_length(6 * 4);
        bar.inc(6 * 3);
        let line = plain_progress(&bar, 6, "ana");
        assert!(
            line.starts_with("3/4 learners graded (last: ana; "),
            "{line}"
        );
        assert!(line.contains("learners/min, about "), "{line}");
    }

    #[test]
    fn the_pace_is_learners_per_minute_and_the_time_the_rest_would_take() {
        assert_eq!(
            pace(0, 10, Duration::from_secs(30)),
            "(pace after the first learner)"
        );
        assert_eq!(
            pace(2, 10, Duration::from_secs(60)),
            "2.0 learners/min, about 4m00s left"
        );
        assert_eq!(
            pace(1, 200, Duration::from_secs(30)),
            "2.0 learners/min, about 1h39m left"
        );
        assert_eq!(
            pace(10, 10, Duration::from_secs(90)),
            "6.7 learners/min, about 0s left"
        );
    }
}
