//! The chapter list, read from `exercises/NN_slug/info.toml`, and every
//! path and name of a chapter.
//!
//! Each chapter's exercise list, the functions its stubs hide and its hints
//! live in one file beside the exercise crate, so adding a chapter touches no
//! shared list: the workbook finds chapters by listing `exercises/`. Loading
//! is a directory listing plus one small TOML parse per chapter.
//!
//! A [`Chapter`] owns the eight places a chapter lives (its text, stub,
//! reference, suite, snapshots, hidden suite, recorder, trace spec), so no
//! caller joins a chapter's path by hand: ARCHITECTURE.md's table lists
//! them in the same order as the methods below. The grader's copies of the
//! workspace keep its layout, so [`Chapter::in_copy`] gives a copy's places
//! through the same methods.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One chapter as its `info.toml` describes it, plus where it lives.
#[derive(Debug, Clone, Deserialize)]
pub struct Chapter {
    pub chapter: ChapterHead,
    #[serde(rename = "exercise", default)]
    pub exercises: Vec<Exercise>,
    /// `exercises/NN_slug`, filled in after parsing.
    #[serde(skip)]
    pub dir: PathBuf,
    /// The workspace root the chapter was loaded from.
    #[serde(skip)]
    pub root: PathBuf,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChapterHead {
    pub number: u32,
    pub slug: String,
    pub title: String,
    /// The chapter's first page, relative to `book/src`.
    pub book: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// The suite module holding this exercise's tests (`name::*`).
    pub name: String,
    pub title: String,
    /// Where the book explains it, relative to `book/src`.
    pub book: String,
    /// Functions whose bodies the stub replaces, with the nudge the stub's
    /// `todo!()` prints. Methods are written `Type::method`.
    #[serde(default)]
    pub stubs: BTreeMap<String, String>,
    pub hints: Vec<String>,
    /// Typical mistakes the suite must catch, proven by `cargo xtask check
    /// --mutants` (`check/mutants.rs`). They quote the reference, so they
    /// live in the maintainer's `xtask/mutants/<slug>.toml`
    /// ([`Chapter::mutants_file`]), never in the `info.toml` a learner reads.
    #[serde(skip)]
    pub mutants: Vec<Mutant>,
    /// A `[[exercise.mutant]]` left in `info.toml`: read only to refuse it
    /// with a message that says where it goes.
    #[serde(default, rename = "mutant")]
    stray_mutants: Vec<toml::Value>,
    /// Whether `workbook trace` follows this exercise's search (the suite's
    /// last line then names the command); its table is workbook/src/trace/specs.rs.
    #[serde(default)]
    pub trace: bool,
}

/// A seeded bug: `find` replaced by `replace` inside the reference's
/// function `function` (`name` or `Type::method`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mutant {
    /// The exercise whose suite must catch it (in `xtask/mutants/<slug>.toml`).
    #[serde(default)]
    pub exercise: String,
    pub function: String,
    pub find: String,
    pub replace: String,
    /// The mistake in a few words (`"the undo dropped"`).
    pub mistake: String,
}

impl Chapter {
    /// The package name of the learner's crate (`apples`).
    pub fn package(&self) -> &str {
        &self.chapter.slug
    }

    /// The package name of the reference crate (`apples_solution`).
    pub fn solution_package(&self) -> String {
        format!("{}_solution", self.chapter.slug)
    }

    /// The folder name shared by `exercises/` and `solutions/` (`01_apples`).
    pub fn folder(&self) -> String {
        format!("{:02}_{}", self.chapter.number, self.chapter.slug)
    }

    /// The chapter's first book page (`book/src/<book>`).
    pub fn text(&self) -> PathBuf {
        self.root.join("book/src").join(&self.chapter.book)
    }

    /// The folder of the chapter's book pages (`book/src/slug`).
    pub fn book_dir(&self) -> PathBuf {
        self.text()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.root.join("book/src"))
    }

    /// The learner's crate (`exercises/NN_slug`).
    pub fn stub_dir(&self) -> &Path {
        &self.dir
    }

    /// The learner's sources (`exercises/NN_slug/src`).
    pub fn stub_src(&self) -> PathBuf {
        self.dir.join("src")
    }

    /// The stub's files: every `.rs` file directly in [`Chapter::stub_src`],
    /// sorted, so every tool that walks them goes in the same order.
    pub fn stub_files(&self) -> std::io::Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.stub_src())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs"))
            .collect();
        files.sort();
        Ok(files)
    }

    /// The reference crate (`solutions/NN_slug`).
    pub fn reference_dir(&self) -> PathBuf {
        self.root.join("solutions").join(self.folder())
    }

    /// The reference's sources (`solutions/NN_slug/src`).
    pub fn reference_src(&self) -> PathBuf {
        self.reference_dir().join("src")
    }

    /// `path` relative to the workspace root, for a message (the path
    /// itself when it lies elsewhere).
    pub fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// The suite both crates run (`tests/slug.rs`).
    pub fn suite(&self) -> PathBuf {
        self.root
            .join("tests")
            .join(format!("{}.rs", self.chapter.slug))
    }

    /// The folder of every suite's snapshots (`tests/snapshots`).
    pub fn snapshot_dir(&self) -> PathBuf {
        self.root.join("tests/snapshots")
    }

    /// Whether a file of [`Self::snapshot_dir`] is this chapter's
    /// (insta names them `slug__test.snap`).
    pub fn owns_snapshot(&self, file_name: &str) -> bool {
        file_name.starts_with(&format!("{}__", self.chapter.slug))
    }

    /// The grader's hidden suite of the chapter (`grading/hidden/slug.rs`).
    pub fn hidden_suite(&self) -> PathBuf {
        self.hidden_suite_in(&self.root.join("grading/hidden"))
    }

    /// The chapter's hidden suite in a folder of hidden suites
    /// (`folder/slug.rs`): the grader's config may name another folder than
    /// `grading/hidden`.
    pub fn hidden_suite_in(&self, folder: &Path) -> PathBuf {
        folder.join(format!("{}.rs", self.chapter.slug))
    }

    /// The example that records the book's players, figures and quizzes
    /// from the reference (`solutions/NN_slug/examples/slug_book.rs`).
    pub fn recorder(&self) -> PathBuf {
        self.reference_dir()
            .join("examples")
            .join(format!("{}.rs", self.recorder_name()))
    }

    /// The recorder example's name (`slug_book`).
    pub fn recorder_name(&self) -> String {
        format!("{}_book", self.chapter.slug)
    }

    /// Where `workbook trace`'s table describes this chapter's traceable
    /// exercises (one table for every chapter, keyed by exercise).
    pub fn trace_spec(&self) -> PathBuf {
        self.root.join("workbook/src/trace/specs.rs")
    }

    /// The maintainer's list of the chapter's seeded bugs
    /// (`xtask/mutants/<slug>.toml`), kept out of the learner's path.
    pub fn mutants_file(&self) -> PathBuf {
        mutants_file(&self.root, &self.chapter.slug)
    }

    /// The same chapter in a copy of the workspace at `root` (the grader's
    /// pristine and work copies keep the checkout's layout), so that every
    /// place of a copy comes from the methods above too.
    pub fn in_copy(&self, root: &Path) -> Chapter {
        Chapter {
            dir: exercises_dir(root).join(self.folder()),
            root: root.to_path_buf(),
            ..self.clone()
        }
    }

    /// Every stubbed function name with the message its `todo!()` prints:
    /// the nudge and the book section that explains the exercise.
    pub fn all_stubs(&self) -> BTreeMap<&str, String> {
        self.exercises
            .iter()
            .flat_map(|e| {
                e.stubs
                    .iter()
                    .map(move |(k, v)| (k.as_str(), format!("{v} (book: {})", e.book)))
            })
            .collect()
    }

    /// The exercise a test belongs to, by its module prefix.
    pub fn exercise_of(&self, test: &str) -> Option<&Exercise> {
        let module = test.split("::").next()?;
        self.exercises.iter().find(|e| e.name == module)
    }
}

/// Every chapter under `root/exercises`, in chapter order.
pub fn load_chapters(root: &Path) -> Result<Vec<Chapter>> {
    let dir = exercises_dir(root);
    let mut chapters = Vec::new();
    let entries =
        std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        let info = path.join("info.toml");
        if info.is_file() {
            let mut chapter = load_chapter(&info)?;
            chapter.root = root.to_path_buf();
            load_mutants(&mut chapter)?;
            chapters.push(chapter);
        }
    }
    chapters.sort_by_key(|c| c.chapter.number);
    Ok(chapters)
}

/// `xtask/mutants/<slug>.toml` under `root`.
fn mutants_file(root: &Path, slug: &str) -> PathBuf {
    root.join("xtask/mutants").join(format!("{slug}.toml"))
}

/// The file of seeded bugs: `[[mutant]]` tables, each naming its exercise.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MutantsFile {
    #[serde(default, rename = "mutant")]
    mutants: Vec<Mutant>,
}

/// Gives each exercise of `chapter` its seeded bugs from
/// [`Chapter::mutants_file`]. A copy of the workspace without the
/// maintainer's files (none is needed to learn or to grade) has none; a
/// bug naming no exercise of the chapter is an error.
fn load_mutants(chapter: &mut Chapter) -> Result<()> {
    let path = chapter.mutants_file();
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let file: MutantsFile = toml::from_str(&text)
        .with_context(|| format!("{} is not a valid list of seeded bugs", path.display()))?;
    for mutant in file.mutants {
        let Some(exercise) = chapter
            .exercises
            .iter_mut()
            .find(|e| e.name == mutant.exercise)
        else {
            bail!(
                "{}: the mutant \"{}\" names exercise `{}`, which {} does not list",
                path.display(),
                mutant.mistake,
                mutant.exercise,
                chapter.dir.join("info.toml").display()
            );
        };
        exercise.mutants.push(mutant);
    }
    Ok(())
}

/// The folder of every learner's crate (`exercises`), in a checkout or in
/// a copy of one.
fn exercises_dir(root: &Path) -> PathBuf {
    root.join("exercises")
}

fn load_chapter(info: &Path) -> Result<Chapter> {
    let text =
        std::fs::read_to_string(info).with_context(|| format!("cannot read {}", info.display()))?;
    let mut chapter: Chapter = toml::from_str(&text)
        .with_context(|| format!("{} is not a valid chapter file", info.display()))?;
    chapter.dir = info.parent().map(Path::to_path_buf).unwrap_or_default();
    if let Some(e) = chapter
        .exercises
        .iter()
        .find(|e| !e.stray_mutants.is_empty())
    {
        bail!(
            "{}: exercise `{}` lists [[exercise.mutant]]; seeded bugs quote the reference, \
             so they live in xtask/mutants/{}.toml (a [[mutant]] with `exercise = \"{}\"`), \
             out of the learner's path: move them there",
            info.display(),
            e.name,
            chapter.chapter.slug,
            e.name
        );
    }
    let expected = chapter.folder();
    let actual = chapter
        .dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if actual != expected {
        bail!(
            "{}: number and slug say the folder should be `{expected}`, but it is `{actual}`",
            info.display()
        );
    }
    Ok(chapter)
}

/// The workspace root: the nearest ancestor of the current directory that
/// holds both `Cargo.toml` and `exercises/`.
pub fn find_root() -> Result<PathBuf> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    cwd.ancestors()
        .find(|d| d.join("Cargo.toml").is_file() && d.join("exercises").is_dir())
        .map(Path::to_path_buf)
        .context(
            "not inside the workbook: no folder above this one holds Cargo.toml and exercises/",
        )
}
