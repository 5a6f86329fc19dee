//! What the learner types, resolved: exercise, chapter and function names,
//! and pages.
//!
//! The problem: `hint`, `reset` and `watch` take a name the learner typed
//! (an exercise, a chapter, `chapter/exercise` or `chapter exercise`), and a
//! typo must get the nearest real names rather than a bare "no such". A
//! name is read where the learner stands: inside `exercises/NN_slug/` (or
//! its reference, `solutions/NN_slug/`) an exercise or function name means
//! that chapter's first, so `hint counting` there is chapter 3's even
//! though chapter 5 has a `counting` too; elsewhere an ambiguous name is
//! answered with the forms that settle it, every one of them accepted. The
//! state is the chapter list and the current directory; the nearest names
//! are ranked by Jaro-Winkler
//! similarity (`strsim`) over every exercise, chapter and `chapter/exercise`.
//! Pages are named as the book shows them: their title in `SUMMARY.md`, and
//! the address `cargo xtask book serve` gives them. Cost: linear in the number
//! of names, and one read of `SUMMARY.md` per page named.

use crate::info::{Chapter, Exercise};
use crate::lang::Lang;
use anyhow::{Result, bail};
use std::path::Path;

/// What a name typed by the learner stands for.
pub enum Named<'a> {
    Exercise(&'a Chapter, &'a Exercise),
    Chapter(&'a Chapter),
}

/// Resolves what the learner typed where they stand: [`resolve_in`] with
/// the chapter whose folder holds the current directory, if any; an error
/// is in `lang`.
pub fn resolve_here<'a>(
    root: &Path,
    chapters: &'a [Chapter],
    words: &[String],
    lang: &Lang,
) -> Result<Named<'a>> {
    resolve_in(chapters, here(root, chapters), words, lang)
}

/// The chapter whose exercise (or solution) folder holds the current
/// directory: `exercises/03_n_queens/src` is chapter 3.
pub fn here<'a>(root: &Path, chapters: &'a [Chapter]) -> Option<&'a Chapter> {
    let cwd = std::env::current_dir().ok()?;
    let cwd = cwd.canonicalize().unwrap_or(cwd);
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let rest = cwd.strip_prefix(&root).ok()?;
    let mut parts = rest.components().map(|c| c.as_os_str().to_string_lossy());
    let (Some(top), Some(folder)) = (parts.next(), parts.next()) else {
        return None;
    };
    if top != "exercises" && top != "solutions" {
        return None;
    }
    chapters.iter().find(|c| c.folder() == folder)
}

/// Resolves one or two words: `exercise`, `chapter`, `chapter/exercise`,
/// or `chapter exercise`; a lone stubbed function names its exercise. A
/// chapter is its slug, number or folder. A lone name that several
/// chapters share means `here`'s, when the learner stands in one of them.
pub fn resolve<'a>(
    chapters: &'a [Chapter],
    here: Option<&'a Chapter>,
    words: &[String],
) -> Result<Named<'a>> {
    resolve_in(chapters, here, words, &Lang::english())
}

/// [`resolve`], its errors in `lang`.
pub fn resolve_in<'a>(
    chapters: &'a [Chapter],
    here: Option<&'a Chapter>,
    words: &[String],
    lang: &Lang,
) -> Result<Named<'a>> {
    match words {
        [one] => match one.split_once('/') {
            Some((c, e)) => exercise_in(chapters, c, e, lang),
            None => single(chapters, here, one, lang),
        },
        [c, e] => exercise_in(chapters, c, e, lang),
        _ => bail!(
            "{}",
            lang.tr("give one exercise or chapter name, or a chapter and an exercise")
        ),
    }
}

fn single<'a>(
    chapters: &'a [Chapter],
    here: Option<&'a Chapter>,
    name: &str,
    lang: &Lang,
) -> Result<Named<'a>> {
    if let Some(c) = here {
        // Where the learner stands, its own exercises and functions first.
        if let Some(e) = c.exercises.iter().find(|e| e.name == name) {
            return Ok(Named::Exercise(c, e));
        }
        if chapter(chapters, name).is_none()
            && let Some(e) = c.exercises.iter().find(|e| stubs_function(e, name))
        {
            return Ok(Named::Exercise(c, e));
        }
    }
    let exercises: Vec<_> = chapters
        .iter()
        .flat_map(|c| c.exercises.iter().map(move |e| (c, e)))
        .filter(|(_, e)| e.name == name)
        .collect();
    match exercises.as_slice() {
        [(c, e)] => return Ok(Named::Exercise(c, e)),
        [] => {}
        many => {
            bail!(
                "{}",
                lang.fill(
                    "`{name}` is an exercise of several chapters; say which: {forms} (or run the \
                     command inside the chapter's folder, exercises/NN_slug)",
                    &[("name", &name), ("forms", &spelled(many, lang))]
                )
            );
        }
    }
    if let Some(c) = chapter(chapters, name) {
        return Ok(Named::Chapter(c));
    }
    // A function the learner writes names the exercise that stubs it.
    let owners: Vec<_> = chapters
        .iter()
        .flat_map(|c| c.exercises.iter().map(move |e| (c, e)))
        .filter(|(_, e)| stubs_function(e, name))
        .collect();
    match owners.as_slice() {
        [(c, e)] => return Ok(Named::Exercise(c, e)),
        [] => {}
        many => {
            bail!(
                "{}",
                lang.fill(
                    "`{name}` is a function of several chapters' exercises; say which: {forms}",
                    &[("name", &name), ("forms", &spelled(many, lang))]
                )
            );
        }
    }
    bail!(
        "{}",
        lang.fill(
            "no exercise or chapter `{name}`{nearest}",
            &[
                ("name", &name),
                ("nearest", &did_you_mean(chapters, name, lang))
            ]
        )
    )
}

/// Exercises of several chapters, as the forms the learner may type.
fn spelled(many: &[(&Chapter, &Exercise)], lang: &Lang) -> String {
    many.iter()
        .map(|(c, e)| format!("`{} {}`", c.chapter.slug, e.name))
        .collect::<Vec<_>>()
        .join(lang.tr(" or "))
}

/// Whether exercise `e` stubs the function `name` (`count`, or a method
/// as `Flags::is_free` or plain `is_free`).
fn stubs_function(e: &Exercise, name: &str) -> bool {
    e.stubs
        .keys()
        .any(|k| k == name || k.rsplit_once("::").is_some_and(|(_, m)| m == name))
}

fn exercise_in<'a>(chapters: &'a [Chapter], c: &str, e: &str, lang: &Lang) -> Result<Named<'a>> {
    let Some(ch) = chapter(chapters, c) else {
        bail!(
            "{}",
            lang.fill(
                "no chapter `{chapter}`{nearest}",
                &[
                    ("chapter", &c),
                    ("nearest", &did_you_mean(chapters, c, lang))
                ]
            )
        );
    };
    match ch.exercises.iter().find(|x| x.name == e) {
        Some(x) => Ok(Named::Exercise(ch, x)),
        None => {
            let names: Vec<_> = ch.exercises.iter().map(|x| x.name.as_str()).collect();
            let nearest = nearest(&names, e)
                .map(|n| lang.fill(" (did you mean `{name}`?)", &[("name", &n)]))
                .unwrap_or_default();
            bail!(
                "{}",
                lang.fill(
                    "chapter {chapter} has no exercise `{name}`{nearest}; its exercises are {listed}",
                    &[
                        ("chapter", &ch.chapter.slug),
                        ("name", &e),
                        ("nearest", &nearest),
                        ("listed", &names.join(", "))
                    ]
                )
            )
        }
    }
}

/// The chapter called `name` by slug, number or folder: the one matcher
/// every tool resolves a chapter's name with.
pub fn chapter<'a>(chapters: &'a [Chapter], name: &str) -> Option<&'a Chapter> {
    chapters.iter().find(|c| {
        c.chapter.slug == name || c.chapter.number.to_string() == name || c.folder() == name
    })
}

/// The chapters `names` name (slug, number or folder; each word may list
/// several, comma- or space-separated), in the workbook's order, each once;
/// all of them when `names` is empty. An unknown name is an error that
/// lists the chapters.
pub fn chapters(all: &[Chapter], names: &[String]) -> Result<Vec<Chapter>> {
    chapters_in(all, names, &Lang::english())
}

/// [`chapters`], its error in `lang`.
pub fn chapters_in(all: &[Chapter], names: &[String], lang: &Lang) -> Result<Vec<Chapter>> {
    if names.is_empty() {
        return Ok(all.to_vec());
    }
    let mut out: Vec<Chapter> = Vec::new();
    for name in names
        .iter()
        .flat_map(|n| n.split([',', ' ']))
        .filter(|n| !n.is_empty())
    {
        let Some(c) = chapter(all, name) else {
            let listed = all
                .iter()
                .map(|c| c.chapter.slug.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            bail!(
                "{}",
                lang.fill(
                    "no chapter `{name}`; the chapters are: {listed}",
                    &[("name", &name), ("listed", &listed)]
                )
            );
        };
        if !out.iter().any(|o| o.folder() == c.folder()) {
            out.push(c.clone());
        }
    }
    out.sort_by_key(|c| c.chapter.number);
    Ok(out)
}

/// [`chapters`] for at most one name (a command's optional CHAPTER).
pub fn chapters_opt(all: &[Chapter], name: Option<&str>) -> Result<Vec<Chapter>> {
    chapters_opt_in(all, name, &Lang::english())
}

/// [`chapters_opt`], its error in `lang`.
pub fn chapters_opt_in(all: &[Chapter], name: Option<&str>, lang: &Lang) -> Result<Vec<Chapter>> {
    chapters_in(
        all,
        &name.map(String::from).into_iter().collect::<Vec<_>>(),
        lang,
    )
}

/// "; did you mean `a`, `b`?" over every name the learner could have meant,
/// or a pointer to the list when nothing is close.
pub fn did_you_mean(chapters: &[Chapter], typed: &str, lang: &Lang) -> String {
    let mut names: Vec<String> = chapters.iter().map(|c| c.chapter.slug.clone()).collect();
    for c in chapters {
        names.extend(c.exercises.iter().map(|e| e.name.clone()));
    }
    let mut scored: Vec<(f64, &String)> = names
        .iter()
        .map(|n| (strsim::jaro_winkler(typed, n), n))
        .filter(|(s, _)| *s >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.dedup_by(|a, b| a.1 == b.1);
    if scored.is_empty() {
        return lang
            .tr("; `cargo workbook` lists every chapter and exercise")
            .into();
    }
    let best: Vec<_> = scored
        .iter()
        .take(3)
        .map(|(_, n)| format!("`{n}`"))
        .collect();
    lang.fill("; did you mean {names}?", &[("names", &best.join(", "))])
}

fn nearest<'a>(names: &[&'a str], typed: &str) -> Option<&'a str> {
    names
        .iter()
        .map(|n| (strsim::jaro_winkler(typed, n), *n))
        .filter(|(s, _)| *s >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

/// A book page as the book shows it: `"Title" (book/src/file.md; at
/// http://127.0.0.1:3000/file.html#part when served)`. `book` is relative
/// to `book/src`, with an optional `#fragment`.
pub fn page(root: &Path, book: &str) -> String {
    page_in(root, book, &crate::lang::Lang::english())
}

/// [`page`] as the reader of `lang` finds it: the titles their book prints
/// and the address of their language's site (`/ja/...`).
pub fn page_in(root: &Path, book: &str, lang: &crate::lang::Lang) -> String {
    let (file, fragment) = book
        .split_once('#')
        .map_or((book, None), |(f, a)| (f, Some(a)));
    let shown = titled_in(root, book, lang);
    let html = file.strip_suffix(".md").unwrap_or(file);
    let anchor = fragment.map(|f| format!("#{f}")).unwrap_or_default();
    let serve = if lang.is_english() {
        "cargo xtask book serve".to_string()
    } else {
        format!("cargo xtask book serve --lang {}", lang.code())
    };
    let url = format!(
        "http://127.0.0.1:3000/{}{html}.html{anchor}",
        lang.site_dir()
    );
    lang.fill(
        "{shown} (book/src/{file}; {url} once `{serve}` runs)",
        &[
            ("shown", &shown),
            ("file", &file),
            ("url", &url),
            ("serve", &serve),
        ],
    )
    .trim_start()
    .to_string()
}

/// A book place (`file.md#fragment`) by the titles `lang`'s book prints:
/// `"Title", section "Section"` in its words and quotes; empty when
/// neither title is found.
pub fn titled_in(root: &Path, book: &str, lang: &crate::lang::Lang) -> String {
    let (file, fragment) = book
        .split_once('#')
        .map_or((book, None), |(f, a)| (f, Some(a)));
    let summary = std::fs::read_to_string(root.join("book/src/SUMMARY.md")).unwrap_or_default();
    let title = crate::lang::summary_title(&summary, file);
    let section = fragment.and_then(|f| {
        let text = std::fs::read_to_string(root.join("book/src").join(file)).ok()?;
        crate::lang::section_title(&text, f)
    });
    let title = title.as_deref().map(|t| lang.title(t));
    let section = section.as_deref().map(|s| lang.title(s));
    match (title, section) {
        (Some(t), Some(s)) => lang.fill(
            "\"{title}\", section \"{section}\"",
            &[("title", &t), ("section", &s)],
        ),
        (Some(t), None) => lang.fill("\"{title}\"", &[("title", &t)]),
        (None, Some(s)) => lang.fill("section \"{section}\"", &[("section", &s)]),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_link_gives_the_page_title() {
        let summary =
            "- [Handing out apples](apples/index.md)\n  - [Memoization](apples/memo.md)\n";
        assert_eq!(
            crate::lang::summary_title(summary, "apples/memo.md").as_deref(),
            Some("Memoization")
        );
        assert_eq!(crate::lang::summary_title(summary, "apples/none.md"), None);
    }

    #[test]
    fn a_fragment_names_its_heading() {
        let page = "# Top\n\n## The explicit stack\n";
        assert_eq!(
            crate::lang::section_title(page, "the-explicit-stack").as_deref(),
            Some("The explicit stack")
        );
    }

    /// The workbook's own chapters, read from the repository.
    fn chapters() -> Vec<Chapter> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        crate::info::load_chapters(root).expect("the chapters load")
    }

    fn named(named: Named<'_>) -> String {
        match named {
            Named::Exercise(c, e) => format!("{}/{}", c.chapter.slug, e.name),
            Named::Chapter(c) => c.chapter.slug.clone(),
        }
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn inside_a_chapter_its_own_exercise_is_meant() {
        let all = chapters();
        let n_queens = chapter(&all, "n_queens");
        let knights = chapter(&all, "knights_tour");
        let got = |here, typed| resolve(&all, here, &words(typed)).map(named).ok();
        assert_eq!(
            got(n_queens, "counting").as_deref(),
            Some("n_queens/counting")
        );
        assert_eq!(
            got(knights, "counting").as_deref(),
            Some("knights_tour/counting")
        );
        assert_eq!(got(n_queens, "is_free").as_deref(), Some("n_queens/flags"));
        assert_eq!(
            got(n_queens, "Flags::new").as_deref(),
            Some("n_queens/flags")
        );
        // A chapter's name still means the chapter, and other chapters' own
        // names still resolve from inside this one.
        assert_eq!(got(n_queens, "apples").as_deref(), Some("apples"));
        assert_eq!(
            got(n_queens, "dfs_stack").as_deref(),
            Some("intro/dfs_stack")
        );
    }

    #[test]
    fn every_form_an_ambiguity_suggests_is_accepted() {
        let all = chapters();
        let Err(err) = resolve(&all, None, &words("counting")) else {
            panic!("`counting` is in two chapters: ambiguous outside them");
        };
        let err = err.to_string();
        let forms: Vec<&str> = err.split('`').skip(1).step_by(2).skip(1).collect();
        assert!(forms.len() >= 2, "{err}");
        for form in forms {
            let how = resolve(&all, None, &words(form)).map(named);
            assert!(
                how.is_ok(),
                "`{form}` (from {err:?}) is refused: {:?}",
                how.err()
            );
            let slashed = form.replace(' ', "/");
            assert!(resolve(&all, None, &words(&slashed)).is_ok(), "{slashed}");
        }
    }
}
