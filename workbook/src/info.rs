//! The chapter list, read from `exercises/NN_slug/info.toml`.
//!
//! Each chapter's exercise list, the functions its stubs hide and its hints
//! live in one file beside the exercise crate, so adding a chapter touches no
//! shared list: the workbook finds chapters by listing `exercises/`. Loading
//! is a directory listing plus one small TOML parse per chapter.

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
    /// Typical mistakes the suite must catch (`[[exercise.mutant]]`),
    /// proven by `workbook check --mutants` (`check/mutants.rs`).
    #[serde(default, rename = "mutant")]
    pub mutants: Vec<Mutant>,
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
    let dir = root.join("exercises");
    let mut chapters = Vec::new();
    let entries =
        std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        let info = path.join("info.toml");
        if info.is_file() {
            chapters.push(load_chapter(&info)?);
        }
    }
    chapters.sort_by_key(|c| c.chapter.number);
    Ok(chapters)
}

fn load_chapter(info: &Path) -> Result<Chapter> {
    let text =
        std::fs::read_to_string(info).with_context(|| format!("cannot read {}", info.display()))?;
    let mut chapter: Chapter = toml::from_str(&text)
        .with_context(|| format!("{} is not a valid chapter file", info.display()))?;
    chapter.dir = info.parent().map(Path::to_path_buf).unwrap_or_default();
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
