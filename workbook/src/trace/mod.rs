//! `workbook trace EXERCISE [INSTANCE]`: the learner's search beside the
//! reference's, step by step, with the first difference named.
//!
//! The problem: a wrong search fails a test with its answer, but the
//! mistake is somewhere in the thousands of calls before it. So the
//! learner's chapter is copied to a scratch build (`scratch.rs`), the
//! exercise's functions are rewritten to record every call and result
//! (`rewrite.rs`, `recorder.rs`), the reference is recorded the same way,
//! and the two lists of calls are compared: the first index where they
//! differ is the step the terminal names, in the chapter's words
//! (`specs.rs`), and both searches are written as the book's player into
//! one page that works offline (`page.rs`). The learner writes nothing and
//! no file of theirs is touched. The state is the two recorded runs; the
//! comparison is linear in the steps, and the cost is the scratch build
//! (the chapter's two small crates once warm) plus two runs.
//!
//! Everything trace says, in the terminal and on the page, is in the
//! learner's language (`workbook_core::lang`: the loop's catalogue for
//! trace's own words, the book's `ui` catalogue for the players'); the
//! values (squares, calls, counts) are written as recorded.

mod events;
mod page;
mod rewrite;
mod scratch;
mod specs;

use anyhow::{Result, bail};
use events::{Ending, Event, Run};
use scratch::Scratch;
use specs::Spec;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use workbook_core::info::{Chapter, Exercise};
use workbook_core::lang::Lang;
use workbook_core::names::{self, Named};

/// What the learner asked for.
pub struct Options {
    /// The exercise (as `hint` takes it), then optionally the instance.
    pub words: Vec<String>,
    /// Write the page but do not open it.
    pub no_open: bool,
    /// Trace these sources instead of the chapter's `src/` (the tests'
    /// seeded learners).
    pub learner_src: Option<PathBuf>,
}

/// Runs `workbook trace`.
pub fn trace(root: &Path, chapters: &[Chapter], options: &Options) -> Result<ExitCode> {
    let lang = Lang::chosen(root);
    let lang = &lang;
    let (chapter, exercise, instance_words) = pick(root, chapters, &options.words, lang)?;
    let spec = specs::find(&chapter.chapter.slug, &exercise.name).filter(|_| exercise.trace);
    let Some(spec) = spec else {
        let traceable: Vec<&str> = specs::SPECS
            .iter()
            .filter(|s| s.chapter == chapter.chapter.slug)
            .map(|s| s.exercise)
            .collect();
        let listed = if traceable.is_empty() {
            lang.tr("none yet").to_string()
        } else {
            traceable.join(", ")
        };
        bail!(
            "{}",
            lang.fill(
                "`{exercise}` is not a search `trace` can follow; in {chapter} it follows: {listed}",
                &[
                    ("exercise", &exercise.name),
                    ("chapter", &chapter.chapter.slug),
                    ("listed", &listed)
                ]
            )
        );
    };
    let index = instance(spec, &instance_words, lang)?;
    let label = lang.tr(spec.instances[index].0);
    eprintln!(
        "{}",
        lang.fill(
            "(tracing {exercise} on {label}: building your {chapter} and the reference with a recorder...)",
            &[
                ("exercise", &exercise.name),
                ("label", &label),
                ("chapter", &chapter.chapter.slug)
            ]
        )
    );
    let learner_src = options
        .learner_src
        .clone()
        .unwrap_or_else(|| chapter.dir.join("src"));
    let learner = scratch::learner_files(&learner_src)?;
    let reference = scratch::reference_files(chapter)?;
    let scratch = Scratch::prepare(root, chapter, spec, &learner, &reference)?;
    if let Err(scratch::BuildError(first)) = scratch.build()? {
        eprintln!(
            "{}",
            lang.tr("your code does not compile, so it cannot be traced; the first error:")
        );
        eprintln!("  {}/{}", chapter.dir.display(), first);
        eprintln!(
            "{}",
            lang.fill(
                "(`cargo build` in {folder} shows every error; the compiler's own words stay in English)",
                &[("folder", &chapter.dir.display())]
            )
        );
        return Ok(ExitCode::from(1));
    }
    let book = short_page(root, &exercise.book, lang);
    let run_both = |index: usize| -> Result<(Run, Run)> {
        let mut yours = scratch.run("learner", index)?;
        // The copy keeps the learner's line numbers; only its folder differs.
        if let Ending::Panicked { place, .. } = &mut yours.ending {
            *place = place.replacen(
                "learner/src/",
                &format!("{}/", chapter.shown(&chapter.stub_src())),
                1,
            );
        }
        Ok((yours, scratch.run("reference", index)?))
    };
    let (mut yours, mut theirs) = run_both(index)?;
    let mut verdict = compare(spec, chapter, &yours, &theirs, &exercise.name, &book, lang);
    let mut index = index;
    // The same on the first instance, none named: a failing test's input
    // may be like another instance, so those are traced too, and the first
    // where the searches part is the one shown.
    if verdict.first_difference.is_none() && instance_words.is_empty() {
        let same_steps = yours.events.len();
        let mut parted = false;
        for other in 1..spec.instances.len() {
            let (y, t) = run_both(other)?;
            let v = compare(spec, chapter, &y, &t, &exercise.name, &book, lang);
            if v.first_difference.is_some() {
                verdict = Verdict {
                    text: lang.fill(
                        "the same on {label} ({n} steps), but not on instance {k} ({other}): {verdict}",
                        &[
                            ("label", &label),
                            ("n", &same_steps),
                            ("k", &(other + 1)),
                            ("other", &lang.tr(spec.instances[other].0)),
                            ("verdict", &v.text),
                        ],
                    ),
                    first_difference: v.first_difference,
                };
                (yours, theirs, index) = (y, t, other);
                parted = true;
                break;
            }
        }
        if !parted {
            verdict.text = same_everywhere(spec, &exercise.name, index, same_steps, true, lang);
        }
    } else if verdict.first_difference.is_none() {
        verdict.text =
            same_everywhere(spec, &exercise.name, index, yours.events.len(), false, lang);
    }
    let label = lang.tr(spec.instances[index].0);
    println!("{}", verdict.text);
    let page = page::write(
        &scratch.dir.join(format!("{}.html", exercise.name)),
        root,
        page::Sides {
            spec,
            label,
            index,
            exercise,
            chapter,
            yours: (&yours, &learner),
            theirs: (&theirs, &reference),
            verdict: &verdict,
            lang,
        },
    )?;
    println!(
        "{}",
        lang.fill("page: {path}", &[("path", &page.display())])
    );
    if !options.no_open {
        open(&page, lang);
    }
    Ok(ExitCode::SUCCESS)
}

/// The exercise and the instance words: `EXERCISE [INSTANCE...]` or
/// `CHAPTER EXERCISE [INSTANCE...]`, resolved where the learner stands.
fn pick<'a>(
    root: &Path,
    chapters: &'a [Chapter],
    words: &[String],
    lang: &Lang,
) -> Result<(&'a Chapter, &'a Exercise, Vec<String>)> {
    if words.len() >= 2
        && let Ok(Named::Exercise(c, e)) = names::resolve_here(root, chapters, &words[..2], lang)
    {
        return Ok((c, e, words[2..].to_vec()));
    }
    let Some(first) = words.first() else {
        bail!(
            "{}",
            lang.tr("trace needs an exercise: `workbook trace dfs_recursive`")
        );
    };
    match names::resolve_here(root, chapters, std::slice::from_ref(first), lang)? {
        Named::Exercise(c, e) => Ok((c, e, words[1..].to_vec())),
        Named::Chapter(c) => {
            let traceable: Vec<&str> = specs::SPECS
                .iter()
                .filter(|s| s.chapter == c.chapter.slug)
                .map(|s| s.exercise)
                .collect();
            bail!(
                "{}",
                lang.fill(
                    "`{first}` is a chapter; trace one of its searches: {listed}",
                    &[("first", first), ("listed", &traceable.join(", "))]
                )
            )
        }
    }
}

/// The instance the words choose: none is the player's first; a number
/// counts from 1; else the label itself.
fn instance(spec: &Spec, words: &[String], lang: &Lang) -> Result<usize> {
    if words.is_empty() {
        return Ok(0);
    }
    let typed = words.join(" ");
    let n = spec.instances.len();
    if let Ok(k) = typed.parse::<usize>()
        && (1..=n).contains(&k)
    {
        return Ok(k - 1);
    }
    // The label in English or as the learner's language says it.
    if let Some(i) = spec
        .instances
        .iter()
        .position(|(l, _)| *l == typed || lang.tr(l) == typed)
    {
        return Ok(i);
    }
    let listed: Vec<String> = spec
        .instances
        .iter()
        .enumerate()
        .map(|(i, (l, _))| format!("{} ({})", i + 1, lang.tr(l)))
        .collect();
    bail!(
        "{}",
        lang.fill(
            "no instance `{typed}` for {exercise}; its instances are: {listed}",
            &[
                ("typed", &typed),
                ("exercise", &spec.exercise),
                ("listed", &listed.join(", "))
            ]
        )
    )
}

/// The comparison's outcome: the sentence for the terminal and the step
/// (1-based) where the two searches part, if they do.
pub struct Verdict {
    pub text: String,
    pub first_difference: Option<usize>,
}

/// What the step of `run` at `k` (0-based) did, after "you" / "the
/// reference".
fn phrase(spec: &Spec, run: &Run, k: usize, lang: &Lang) -> String {
    match &run.events[k] {
        Event::Call(call) => {
            let parent = caller(run, k);
            (spec.look)(call, parent, lang).phrase
        }
        // The call it ends, with its arguments: "returned 0 from
        // count_from(square = 64, left = 0)" points at the base case.
        Event::Return { name, value } => {
            let call = match caller(run, k) {
                Some(call) if call.name == *name => call.spelled(),
                _ => name.clone(),
            };
            lang.fill(
                "returned {value} from {call}",
                &[("value", value), ("call", &call)],
            )
        }
    }
}

/// The verdict when the two searches agree: on which instances, and what a
/// still failing test then means (its input is none of trace's).
fn same_everywhere(
    spec: &Spec,
    exercise: &str,
    index: usize,
    steps: usize,
    all: bool,
    lang: &Lang,
) -> String {
    let label = lang.tr(spec.instances[index].0);
    let others: Vec<String> = (0..spec.instances.len())
        .filter(|&i| i != index)
        .map(|i| format!("{} ({})", i + 1, lang.tr(spec.instances[i].0)))
        .collect();
    let args: [(&str, &dyn std::fmt::Display); 4] = [
        ("n", &steps),
        ("label", &label),
        ("others", &others.join(", ")),
        ("exercise", &exercise),
    ];
    if others.is_empty() {
        lang.fill(
            "the same for all {n} steps: your search is the reference's on this instance \
             ({label}), the only one trace has. If a test still fails, its input is another: the \
             test's message names it.",
            &args,
        )
    } else if all {
        lang.fill(
            "the same for all {n} steps: your search is the reference's on this instance \
             ({label}) and on the others ({others}). If a test still fails, its input is none of \
             these: the test's message names it.",
            &args,
        )
    } else {
        lang.fill(
            "the same for all {n} steps: your search is the reference's on this instance \
             ({label}). If a test still fails, try the others (`workbook trace {exercise} N`): \
             {others}.",
            &args,
        )
    }
}

/// Two results holding a numbered board (`Board 5x5  3 20 ...`, a tour):
/// the first number the two boards put on different squares, said
/// (a whole board on one line is hard to compare by eye).
fn tours_apart(a: &str, b: &str, lang: &Lang) -> Option<String> {
    fn squares(text: &str) -> Option<(usize, Vec<u64>)> {
        let rest = &text[text.find("Board ")? + 6..];
        let (size, rest) = rest.split_once(char::is_whitespace)?;
        let (rows, cols) = size.split_once('x')?;
        let (rows, cols): (usize, usize) = (rows.parse().ok()?, cols.parse().ok()?);
        let cells: Vec<u64> = rest
            .split_whitespace()
            .take(rows * cols)
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        (cells.len() == rows * cols).then_some((cols, cells))
    }
    let ((cols, mine), (their_cols, theirs)) = (squares(a)?, squares(b)?);
    if cols != their_cols || mine.len() != theirs.len() {
        return None;
    }
    let at = |cells: &[u64], k: u64| {
        let i = cells.iter().position(|&c| c == k)?;
        Some((i / cols, i % cols))
    };
    let k = (1..=mine.len() as u64).find(|&k| at(&mine, k) != at(&theirs, k))?;
    let said = |p: Option<(usize, usize)>| match p {
        Some((r, c)) => lang.fill("on ({row}, {col})", &[("row", &r), ("col", &c)]),
        None => lang.tr("nowhere").to_string(),
    };
    Some(lang.fill(
        " (the boards part at {k}: yours puts it {mine}, the reference's {theirs})",
        &[
            ("k", &k),
            ("mine", &said(at(&mine, k))),
            ("theirs", &said(at(&theirs, k))),
        ],
    ))
}

/// The call that made the call at `k` (the innermost one still open).
fn caller(run: &Run, k: usize) -> Option<&events::Call> {
    let mut open: Vec<&events::Call> = Vec::new();
    for e in &run.events[..k] {
        match e {
            Event::Call(c) => open.push(c),
            Event::Return { .. } => {
                open.pop();
            }
        }
    }
    open.last().copied()
}

/// Compares the learner's run with the reference's.
pub fn compare(
    spec: &Spec,
    chapter: &Chapter,
    yours: &Run,
    theirs: &Run,
    exercise: &str,
    book: &str,
    lang: &Lang,
) -> Verdict {
    let same = yours
        .events
        .iter()
        .zip(&theirs.events)
        .take_while(|(a, b)| a == b)
        .count();
    if let Ending::Panicked { message, .. } = &yours.ending
        && yours.ending.is_todo()
        && same == yours.events.len()
    {
        let nudge = message.trim_start_matches("not yet implemented: ");
        let owner = chapter
            .exercises
            .iter()
            .find(|e| e.stubs.values().any(|n| nudge.starts_with(n.as_str())));
        // The stub generator writes `<info.toml's words> (book: <page>)`:
        // the words are the catalogue's message, the page is kept.
        let shown = match nudge.rsplit_once(" (book: ") {
            Some((words, page)) => lang.fill(
                "{what} (book: {page})",
                &[
                    ("what", &lang.tr(words)),
                    ("page", &page.strip_suffix(')').unwrap_or(page)),
                ],
            ),
            None => lang.tr(nudge).to_string(),
        };
        let text = match owner {
            Some(o) if o.name != exercise => lang.fill(
                "at step {step} your code stops at a todo!() of `{owner}` (\"{nudge}\"), which this \
                 search needs: solve `{owner}` first, then trace again.",
                &[("step", &(same + 1)), ("owner", &o.name), ("nudge", &shown)],
            ),
            _ => lang.fill(
                "your {exercise} is not written yet: at step {step} it stops at a todo!() \
                 (\"{nudge}\"). The reference's search takes {n} steps; write yours and trace \
                 again. book: {book}",
                &[
                    ("exercise", &exercise),
                    ("step", &(same + 1)),
                    ("nudge", &shown),
                    ("n", &theirs.events.len()),
                    ("book", &book),
                ],
            ),
        };
        return Verdict {
            text,
            first_difference: Some(same + 1),
        };
    }
    let longest = yours.events.len().max(theirs.events.len());
    if same == longest && yours.ending == theirs.ending {
        return Verdict {
            text: lang.fill(
                "the same for all {n} steps: your search is the reference's.",
                &[("n", &same)],
            ),
            first_difference: None,
        };
    }
    let head = if same == 0 {
        lang.tr("different from the first step").to_string()
    } else {
        lang.fill("the same for {n} steps", &[("n", &same)])
    };
    let step = same + 1;
    let (you, reference) = match (same < yours.events.len(), same < theirs.events.len()) {
        (true, true) => (
            phrase(spec, yours, same, lang),
            phrase(spec, theirs, same, lang),
        ),
        (true, false) => (phrase(spec, yours, same, lang), theirs.ending.words(lang)),
        (false, true) => (yours.ending.words(lang), phrase(spec, theirs, same, lang)),
        (false, false) => (yours.ending.words(lang), theirs.ending.words(lang)),
    };
    let alike = you == reference;
    let you = if same < yours.events.len() {
        lang.fill("you {did}", &[("did", &you)])
    } else {
        lang.fill("your code {did}", &[("did", &you)])
    };
    // Both returning from the same call (the steps before are equal), with
    // different values: the call once, then each value.
    if let (Some(Event::Return { value: a, .. }), Some(Event::Return { value: b, .. })) =
        (yours.events.get(same), theirs.events.get(same))
        && let Some(call) = caller(yours, same)
    {
        return Verdict {
            text: lang.fill(
                "{head}; at step {step} your {call} returned {mine}, the reference's returned \
                 {theirs}{apart}: book: {book}",
                &[
                    ("head", &head),
                    ("step", &step),
                    ("call", &call.spelled()),
                    ("mine", a),
                    ("theirs", b),
                    ("apart", &tours_apart(a, b, lang).unwrap_or_default()),
                    ("book", &book),
                ],
            ),
            first_difference: Some(step),
        };
    }
    let reference = lang.fill("the reference {did}", &[("did", &reference)]);
    // Two calls that read alike but differ: name the first argument apart,
    // else the first square their boards hold differently.
    let apart = match (yours.events.get(same), theirs.events.get(same)) {
        (Some(Event::Call(a)), Some(Event::Call(b))) if alike && a.name == b.name => a
            .args
            .iter()
            .zip(&b.args)
            .find(|(x, y)| x != y)
            .map(|((k, v), (_, w))| {
                lang.fill(
                    " (your {name} = {mine}, the reference's {theirs})",
                    &[("name", k), ("mine", v), ("theirs", w)],
                )
            })
            .or_else(|| boards_apart(a, b, lang))
            .unwrap_or_default(),
        _ => String::new(),
    };
    Verdict {
        text: lang.fill(
            "{head}; at step {step} {you}, {reference}{apart}: book: {book}",
            &[
                ("head", &head),
                ("step", &step),
                ("you", &you),
                ("reference", &reference),
                ("apart", &apart),
                ("book", &book),
            ],
        ),
        first_difference: Some(step),
    }
}

/// Two calls of chapter 2's search whose boards differ: the first square
/// (reading order) one holds a queen on and the other does not.
fn boards_apart(a: &events::Call, b: &events::Call, lang: &Lang) -> Option<String> {
    let (mine, theirs) = (
        specs::eight_queens::queens_of(a)?,
        specs::eight_queens::queens_of(b)?,
    );
    let only_mine = mine.iter().find(|q| !theirs.contains(q));
    let only_theirs = theirs.iter().find(|q| !mine.contains(q));
    match (only_mine, only_theirs) {
        (Some(&(row, col)), _) => Some(lang.fill(
            " (your board holds a queen on ({row}, {col}), the reference's board does not)",
            &[("row", &row), ("col", &col)],
        )),
        (None, Some(&(row, col))) => Some(lang.fill(
            " (the reference's board holds a queen on ({row}, {col}), yours does not)",
            &[("row", &row), ("col", &col)],
        )),
        (None, None) => None,
    }
}

/// A book section as `names::page_in` names it, without the served
/// address: `"0. Depth-first search", section "The recursive template"
/// (book/src/intro/index.md)`, in the learner's language.
fn short_page(root: &Path, book: &str, lang: &Lang) -> String {
    let file = book.split_once('#').map_or(book, |(f, _)| f);
    lang.fill(
        "{shown} (book/src/{file})",
        &[
            ("shown", &names::titled_in(root, book, lang)),
            ("file", &file),
        ],
    )
    .trim_start()
    .to_string()
}

/// Opens the page with `$BROWSER`, else the system's opener; a failure is
/// said, not fatal (the path is printed).
fn open(page: &PathBuf, lang: &Lang) {
    if let Some(why) = workbook_core::browser::why_not(|name| std::env::var(name).ok(), lang) {
        eprintln!(
            "{}",
            lang.fill(
                "(cannot open a browser: {why}; open the page yourself)",
                &[("why", &why)]
            )
        );
        return;
    }
    let browser = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty());
    let opener = browser.unwrap_or_else(|| {
        if cfg!(target_os = "macos") {
            "open".into()
        } else {
            "xdg-open".into()
        }
    });
    let spawned = std::process::Command::new(&opener)
        .arg(page)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!(
            "{}",
            lang.fill(
                "(could not start `{opener}`; open the page yourself, or set $BROWSER)",
                &[("opener", &opener)]
            )
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_traced_exercise_is_marked_in_its_info_toml_and_every_mark_has_a_spec() {
        let root = workbook_core::info::find_root().expect("the workbook's root");
        let chapters = workbook_core::info::load_chapters(&root).expect("the chapters");
        for c in &chapters {
            for e in &c.exercises {
                assert_eq!(
                    e.trace,
                    specs::find(&c.chapter.slug, &e.name).is_some(),
                    "{}/{}: `trace = true` in info.toml exactly when specs.rs can trace it",
                    c.chapter.slug,
                    e.name
                );
            }
        }
        for s in specs::SPECS {
            let chapter = chapters.iter().find(|c| c.chapter.slug == s.chapter);
            let chapter = chapter.unwrap_or_else(|| panic!("{} is no chapter", s.chapter));
            let files = scratch::learner_files(&chapter.dir.join("src")).expect("the stubs");
            let keys: std::collections::BTreeSet<&str> = s.traced.iter().copied().collect();
            let found: std::collections::BTreeSet<String> = files
                .iter()
                .flat_map(|(_, text)| workbook_core::stubs::stubbed_fns(text, &keys))
                .map(|f| f.key)
                .collect();
            for key in s.traced {
                assert!(
                    found.contains(*key),
                    "{}/{}: traced `{key}` is no function of the chapter",
                    s.chapter,
                    s.exercise
                );
            }
        }
    }
}
