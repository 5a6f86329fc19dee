//! `workbook watch`: the learner's loop. Save a file, see the verdict.
//!
//! The state is each chapter's last verdict plus a fingerprint of its
//! sources (path, size and modification time of every file under
//! `exercises/NN_slug/src`), kept in `.workbook/progress.json` so progress
//! survives restarts; it never leaves the machine. A chapter's suite re-runs
//! only when its fingerprint changes, one chapter at a time and the most
//! recently edited first, so the chapter in hand is the first screen; the
//! others are brought up to date behind it, with one more screen once all
//! are known. A crate that does not build shows its errors and no verdict. File notifications (`notify`) only
//! wake the loop; every two seconds the fingerprints are also compared, so
//! editors that save atomically (write a temporary file, then rename) and
//! mounts that deliver no notifications at all are both covered.
//! `--poll` replaces notifications with notify's polling watcher.
//!
//! The chapter in hand is the one the learner named (`watch counting`, read
//! where they stand, as `hint` reads it), else the one whose folder they
//! stand in, else the one edited last. A failing snapshot's diff is shown
//! whole, the learner's own `+` lines included; other failures are cut to
//! their first lines.

use crate::progress::statuses;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use notify::{PollWatcher, RecommendedWatcher, RecursiveMode, Watcher};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, SystemTime};
use workbook_core::info::{Chapter, Exercise};
use workbook_core::lang::Lang;
use workbook_core::names::Named;
use workbook_core::runner::{Target, run_suite};

/// One chapter's remembered verdict.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Remembered {
    fingerprint: u64,
    /// (passed, total) per exercise; empty when the crate did not compile.
    exercises: BTreeMap<String, (usize, usize)>,
    /// The first failure to show: a test name and its message, or compiler errors.
    failure: Option<(String, String)>,
    /// Each exercise's first failing test and its message.
    #[serde(default)]
    failures: BTreeMap<String, (String, String)>,
}

type State = BTreeMap<String, Remembered>;

pub fn watch(
    root: &Path,
    chapters: &[Chapter],
    names: &[String],
    poll: Option<u64>,
) -> Result<ExitCode> {
    if chapters.is_empty() {
        anyhow::bail!(
            "{}",
            crate::words::lang().tr("no chapters under exercises/: nothing to watch")
        );
    }
    let pinned: Option<(&Chapter, Option<&Exercise>)> = if names.is_empty() {
        workbook_core::names::here(root, chapters).map(|c| (c, None))
    } else {
        Some(
            match workbook_core::names::resolve_here(root, chapters, names, crate::words::lang())? {
                Named::Exercise(c, e) => (c, Some(e)),
                Named::Chapter(c) => (c, None),
            },
        )
    };
    let state_path = root.join(".workbook").join("progress.json");
    let mut state: State = std::fs::read_to_string(&state_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let (tx, rx) = mpsc::channel();
    let handler = move |e: notify::Result<notify::Event>| {
        if e.is_ok() {
            let _ = tx.send(());
        }
    };
    let exercises = root.join("exercises");
    // Keep the watcher alive for the whole loop.
    let _watcher: Box<dyn Watcher> = match poll {
        Some(ms) => poll_watcher(handler, &exercises, ms)?,
        None => match native_watcher(handler.clone(), &exercises) {
            Some(w) => w,
            None => {
                eprintln!(
                    "{}",
                    crate::words::lang()
                        .tr("(file notifications are unavailable here; polling every second)")
                );
                poll_watcher(handler, &exercises, 1000)?
            }
        },
    };
    println!(
        "{}",
        crate::words::lang().tr("Watching exercises/ (Ctrl-C to stop).")
    );
    // Whether the screen shows the latest verdicts: None (not drawn since
    // the last change), Some(false) (the focus only, others still being
    // checked), Some(true) (everything known).
    let mut drawn: Option<bool> = None;
    loop {
        // One stale chapter at a time. The focus (the chapter in hand, the
        // most recently edited; once it is done, the first chapter with work
        // left) is checked first and is the first screen; the others are
        // brought up to date behind it without screens of their own, and the
        // screen is redrawn once they are all known.
        let scans: Vec<_> = chapters
            .iter()
            .map(|c| {
                let (fp, newest) = scan(&c.dir.join("src"));
                (c, fp, newest)
            })
            .collect();
        let current = pinned.map_or_else(|| current_chapter(&scans), |(c, _)| c);
        let exercise = pinned.and_then(|(_, e)| e);
        let fresh =
            |c: &Chapter, fp: u64| state.get(c.package()).is_some_and(|r| r.fingerprint == fp);
        let unfinished = |c: &Chapter| {
            state.get(c.package()).is_none_or(|r| {
                c.exercises.iter().any(|e| {
                    r.exercises
                        .get(&e.name)
                        .is_none_or(|&(p, t)| t == 0 || p < t)
                })
            })
        };
        let in_hand = scans
            .iter()
            .find(|(c, _, _)| c.chapter.slug == current.chapter.slug);
        let focus = in_hand
            .into_iter()
            .chain(scans.iter())
            .find(|(c, fp, _)| !fresh(c, *fp) || unfinished(c));
        let mut stale: Vec<_> = scans.iter().filter(|(c, fp, _)| !fresh(c, *fp)).collect();
        stale.sort_by_key(|(_, _, newest)| std::cmp::Reverse(*newest));
        if let Some((c, fp, _)) = focus.filter(|(c, fp, _)| !fresh(c, *fp)) {
            eprintln!(
                "{}",
                crate::words::lang().fill(
                    "(running the {package} suite...)",
                    &[("package", &c.package())]
                )
            );
            state.insert(c.package().to_string(), evaluate(root, c, *fp)?);
            save(&state_path, &state)?;
            drawn = None;
            continue;
        }
        let shown = focus.map_or(current, |(c, _, _)| *c);
        if stale.is_empty() {
            if drawn != Some(true) {
                show(root, chapters, &state, shown, exercise);
                drawn = Some(true);
            }
        } else {
            if drawn.is_none() {
                show(root, chapters, &state, shown, exercise);
                drawn = Some(false);
            }
            let (c, fp, _) = stale[0];
            eprintln!(
                "{}",
                crate::words::lang().fill(
                    "(running the {package} suite...)",
                    &[("package", &c.package())]
                )
            );
            state.insert(c.package().to_string(), evaluate(root, c, *fp)?);
            save(&state_path, &state)?;
            // Redrawn once the queue is empty, not now.
            drawn = drawn.map(|_| false);
            continue;
        }
        // Wait for a notification or two seconds, then let a burst of events
        // (an editor's atomic save) settle: 0.1 s of the 2 s budget.
        // Events only wake the loop (reading a file is one too); only a
        // changed fingerprint above makes a new verdict and a new screen.
        if rx.recv_timeout(Duration::from_secs(2)).is_ok() {
            std::thread::sleep(Duration::from_millis(100));
            while rx.try_recv().is_ok() {}
        }
    }
}

/// The chapter in hand: the one whose sources were edited last (to the
/// second; ties, as in a fresh clone, go to the earliest chapter).
fn current_chapter<'a>(scans: &[(&'a Chapter, u64, Option<SystemTime>)]) -> &'a Chapter {
    let second = |t: &Option<SystemTime>| {
        t.and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs())
    };
    scans
        .iter()
        .rev()
        .max_by_key(|(_, _, newest)| second(newest))
        .map_or(scans[0].0, |(c, _, _)| *c)
}

fn native_watcher(handler: impl notify::EventHandler, dir: &Path) -> Option<Box<dyn Watcher>> {
    let mut w = RecommendedWatcher::new(handler, notify::Config::default()).ok()?;
    w.watch(dir, RecursiveMode::Recursive).ok()?;
    Some(Box::new(w))
}

fn poll_watcher(
    handler: impl notify::EventHandler,
    dir: &Path,
    ms: u64,
) -> Result<Box<dyn Watcher>> {
    let config = notify::Config::default().with_poll_interval(Duration::from_millis(ms.max(100)));
    let mut w = PollWatcher::new(handler, config).with_context(|| {
        crate::words::lang()
            .tr("cannot start the polling watcher")
            .to_string()
    })?;
    w.watch(dir, RecursiveMode::Recursive).with_context(|| {
        crate::words::lang().fill("cannot watch {path}", &[("path", &dir.display())])
    })?;
    Ok(Box::new(w))
}

/// Hash of every source file's path, size and modification time, and the
/// newest modification time among them.
fn scan(dir: &Path) -> (u64, Option<SystemTime>) {
    use std::hash::{Hash, Hasher};
    let mut files = Vec::new();
    list(dir, &mut files);
    files.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut newest = None;
    for f in files {
        if let Ok(meta) = std::fs::metadata(&f) {
            let modified = meta.modified().ok();
            f.hash(&mut h);
            meta.len().hash(&mut h);
            modified.hash(&mut h);
            newest = newest.max(modified);
        }
    }
    (h.finish(), newest)
}

fn list(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() {
            list(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn evaluate(root: &Path, c: &Chapter, fingerprint: u64) -> Result<Remembered> {
    let run = run_suite(root, c.package(), Target::Learner)?;
    let mut r = Remembered {
        fingerprint,
        ..Remembered::default()
    };
    if let Some(err) = run.build_error {
        r.failure = Some(("does not compile".into(), err));
        return Ok(r);
    }
    for (e, s) in statuses(c, &run) {
        r.exercises.insert(e.name.clone(), (s.passed, s.total));
        if !s.done() {
            let prefix = format!("{}::", e.name);
            let first = run
                .messages
                .iter()
                .find(|(t, _)| t.starts_with(&prefix))
                .map(|(t, m)| (t.clone(), m.clone()));
            if let Some(first) = first {
                r.failure.get_or_insert_with(|| first.clone());
                r.failures.insert(e.name.clone(), first);
            }
        }
    }
    Ok(r)
}

/// A failing test's name as the learner reads it: a build failure is kept
/// as "does not compile" in the remembered state and said in `lang`.
fn shown_test<'a>(lang: &'a Lang, test: &'a str) -> &'a str {
    if test == "does not compile" {
        lang.tr("does not compile")
    } else {
        test
    }
}

fn save(path: &Path, state: &State) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, serde_json::to_string_pretty(state)?)?;
    Ok(())
}

fn show(
    root: &Path,
    chapters: &[Chapter],
    state: &State,
    current: &Chapter,
    exercise: Option<&Exercise>,
) {
    if std::io::stdout().is_terminal() {
        print!("\x1b[2J\x1b[H");
    }
    let done_of = |c: &Chapter, name: &str| {
        state
            .get(c.package())
            .and_then(|r| r.exercises.get(name))
            .is_some_and(|&(p, t)| t > 0 && p == t)
    };
    // The chapter in hand first; once it is all done, the first chapter
    // with work left.
    let focus = std::iter::once(current)
        .chain(chapters.iter())
        .find(|c| c.exercises.iter().any(|e| !done_of(c, &e.name)));
    match focus {
        None => println!(
            "{}",
            Lang::chosen(root).tr(
                "Every exercise passes. Well done! Try `cargo workbook run <chapter>` to explore further."
            )
        ),
        Some(c) => {
            // The exercise named, while it is in the chapter shown.
            let named = exercise.filter(|e| c.exercises.iter().any(|x| x.name == e.name));
            show_chapter(root, c, state.get(c.package()), &done_of, named)
        }
    }
    let known = chapters.iter().all(|c| state.contains_key(c.package()));
    if known {
        let total: usize = chapters.iter().map(|c| c.exercises.len()).sum();
        let done: usize = chapters
            .iter()
            .map(|c| c.exercises.iter().filter(|e| done_of(c, &e.name)).count())
            .sum();
        let bar = ProgressBar::with_draw_target(
            Some(total as u64),
            indicatif::ProgressDrawTarget::stdout(),
        );
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "\n{{bar:40}} {}",
                Lang::chosen(root).tr("{pos}/{len} exercises done")
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_position(done as u64);
        bar.abandon();
    } else {
        println!(
            "\n{}",
            Lang::chosen(root).tr("(checking the other chapters in the background...)")
        );
    }
    println!(
        "{}",
        Lang::chosen(root).tr("(watching exercises/ for changes; Ctrl-C to stop)")
    );
}

/// One chapter's screen: its exercises and the first failure, or only the
/// compiler's errors when it does not build (no verdicts: nothing ran).
fn show_chapter(
    root: &Path,
    c: &Chapter,
    remembered: Option<&Remembered>,
    done_of: &dyn Fn(&Chapter, &str) -> bool,
    named: Option<&Exercise>,
) {
    let lang = Lang::chosen(root);
    let r = remembered.cloned().unwrap_or_default();
    let Some(e) = named.or_else(|| c.exercises.iter().find(|e| !done_of(c, &e.name))) else {
        return;
    };
    println!(
        "{}",
        lang.fill(
            "Chapter {number} ({slug}), exercise `{name}`: {title}",
            &[
                ("number", &c.chapter.number),
                ("slug", &c.chapter.slug),
                ("name", &e.name),
                ("title", &lang.title(&e.title)),
            ]
        )
    );
    if let Some((test, msg)) = r.failure.as_ref().filter(|_| r.exercises.is_empty()) {
        println!(
            "\n{}",
            lang.fill(
                "{folder} {test}: fix this first, then save again (the compiler's errors are in English)",
                &[("folder", &c.folder()), ("test", &shown_test(&lang, test))]
            )
        );
        for line in workbook_core::runner::shown_lines(msg, 20) {
            println!("    {line}");
        }
        return;
    }
    for ex in &c.exercises {
        let (p, t) = r.exercises.get(&ex.name).copied().unwrap_or((0, 0));
        let mark = if done_of(c, &ex.name) { "✓" } else { "✗" };
        println!("  {mark} {:<24} {p}/{t}", ex.name);
    }
    let failure = r.failures.get(&e.name).or(r.failure.as_ref());
    if let Some((test, msg)) = failure {
        println!("\n{}:", shown_test(&lang, test));
        for line in workbook_core::runner::shown_lines(msg, 15) {
            println!("    {line}");
        }
    } else if done_of(c, &e.name) {
        println!("\n{}", lang.fill("`{name}` passes.", &[("name", &e.name)]));
    }
    println!(
        "\n{}",
        lang.fill(
            "Read {page}; stuck? `cargo workbook hint {slug} {name}`",
            &[
                ("page", &workbook_core::names::page_in(root, &e.book, &lang)),
                ("slug", &c.chapter.slug),
                ("name", &e.name),
            ]
        )
    );
}
