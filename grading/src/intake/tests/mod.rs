//! The intake's tests, by room: [`splice`] (what is taken and where it
//! goes), [`grammar`] (what the checker and the token scan refuse),
//! [`nesting`] (deep code refused before `syn` parses it, wide code
//! taken), [`soundness`] (the stopgap against rustc soundness bugs), and
//! [`chapters`] (every real chapter's reference taken whole, and mutated
//! references never crash the intake).
//!
//! The fixture is a small chapter: a given type with given impls, a stub
//! function, an iterator whose `next` and an inherent method are stubs,
//! and a binary. The helpers here build a learner's file from it.

mod chapters;
mod grammar;
mod nesting;
mod soundness;
mod splice;

use super::policy::{MAX_BRACKETS, MAX_FILE_BYTES, MAX_NESTING};
use super::tokens;
use super::tokens::canonical;
use super::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A small chapter: a given type with a given impl, a stub function, an
/// iterator whose `next` and an inherent method are stubs, and a binary.
const LIB: &str = r#"//! A given chapter.

use std::fmt;

/// A given board.
#[derive(Clone, Debug)]
pub struct Board {
    cells: Vec<u8>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.cells.len() == other.cells.len() && self.cells == other.cells
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:?}", self.cells)
    }
}

/// Solves.
pub fn solve(n: usize, board: &Board) -> Vec<usize> {
    todo!("solve it")
}

/// The iterator.
pub struct Solutions {
    n: usize,
}

impl Solutions {
    /// Given.
    pub fn size(&self) -> usize {
        self.n
    }

    fn step(&mut self) -> bool {
        todo!("step")
    }
}

impl Iterator for Solutions {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        todo!("next")
    }
}
"#;

const MAIN: &str =
    "use std::process::ExitCode;\n\nfn main() -> ExitCode {\n    ExitCode::SUCCESS\n}\n";

fn stubs() -> Vec<String> {
    ["solve", "Solutions::step", "Solutions::next"]
        .map(String::from)
        .to_vec()
}

fn chapter() -> BTreeMap<PathBuf, String> {
    BTreeMap::from([
        (PathBuf::from("lib.rs"), LIB.to_string()),
        (PathBuf::from("main.rs"), MAIN.to_string()),
    ])
}

fn take_files(files: &[(&str, &[u8])], allow: &[&str]) -> ChapterIntake {
    let submitted = files
        .iter()
        .map(|(p, b)| (PathBuf::from(p), b.to_vec()))
        .collect();
    let allow: Vec<String> = allow.iter().map(|a| a.to_string()).collect();
    let intake = take(&chapter(), &submitted, &stubs(), &allow, &[]);
    for r in &intake.refused {
        assert!(
            RULES.contains(&r.rule) || FIXED_RULES.contains(&r.rule),
            "refusal with an unlisted rule: {r:?}"
        );
        assert!(!r.reason.contains('\n'), "a reason is one line: {r:?}");
    }
    intake
}

fn take_lib(lib: &str) -> ChapterIntake {
    take_files(&[("lib.rs", lib.as_bytes())], &[])
}

/// The chapter solved: every stub has a body.
fn solved(solve_body: &str) -> String {
    LIB.replace("todo!(\"solve it\")", solve_body)
        .replace("todo!(\"step\")", "self.n > 0")
        .replace("todo!(\"next\")", "self.step().then_some(self.n)")
}

/// The solved chapter with `extra` items appended.
fn with(extra: &str) -> String {
    format!("{}\n{extra}\n", solved("vec![n, board.cells.len()]"))
}

fn rules(i: &ChapterIntake) -> Vec<&'static str> {
    i.refused.iter().map(|r| r.rule).collect()
}

#[track_caller]
fn assert_refused(src: &str, rule: &str) {
    let i = take_lib(src);
    assert!(
        rules(&i).contains(&rule),
        "expected rule `{rule}` for:\n{src}\ngot {:?}",
        i.refused
    );
}

#[track_caller]
fn assert_accepted(src: &str) -> ChapterIntake {
    let i = take_lib(src);
    assert!(i.refused.is_empty(), "refused:\n{src}\n{:?}", i.refused);
    i
}

fn lib_of(i: &ChapterIntake) -> &str {
    &i.files[Path::new("lib.rs")]
}

/// One chapter of the workbook as the grader sees it: its pristine stubs,
/// the reference as a learner would hand it in (by path under `src/`), its
/// stub keys and the crates its manifest gives its code.
struct RealChapter {
    folder: String,
    pristine: BTreeMap<PathBuf, String>,
    solution: BTreeMap<PathBuf, String>,
    stubs: Vec<String>,
    crates: Vec<String>,
}

/// The workbook's root and its chapters, every chapter folder included.
fn workbook() -> (PathBuf, Vec<workbook_core::info::Chapter>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let chapters = workbook_core::info::load_chapters(&root).unwrap_or_default();
    let folders = std::fs::read_dir(root.join("exercises"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().join("info.toml").is_file())
                .count()
        })
        .unwrap_or_default();
    assert!(!chapters.is_empty(), "no chapters under {}", root.display());
    assert_eq!(chapters.len(), folders, "every chapter folder is a chapter");
    (root, chapters)
}

/// One chapter as the grader sees it, with the reference as a learner
/// would hand it in (what `grader learner-reference` writes).
fn real_chapter(c: &workbook_core::info::Chapter) -> RealChapter {
    let pristine = crate::prepare::read_sources(&c.stub_dir().join("src"))
        .unwrap_or_else(|e| panic!("{}: no stubs: {e:#}", c.folder()));
    let solution = workbook_core::stubs::learner_reference(c)
        .unwrap_or_else(|e| panic!("{}: no learner's reference: {e:#}", c.folder()))
        .into_iter()
        .map(|f| (f.relative, f.text))
        .collect();
    RealChapter {
        folder: c.folder(),
        pristine,
        solution,
        stubs: c.all_stubs().keys().map(|k| k.to_string()).collect(),
        crates: crate::prepare::dependencies(&c.dir.join("Cargo.toml")),
    }
}

/// Every chapter, as the grader sees it.
fn real_chapters() -> Vec<RealChapter> {
    let (_, chapters) = workbook();
    chapters.iter().map(real_chapter).collect()
}

/// The first chapter (intro), as the grader sees it.
fn intro() -> RealChapter {
    let (_, chapters) = workbook();
    real_chapter(&chapters[0])
}

/// Takes `chapter` with its file `rel` replaced by `text` (the other files
/// of the reference as handed in).
fn take_real(chapter: &RealChapter, rel: &str, text: &str, allow: &[&str]) -> ChapterIntake {
    let mut submitted: BTreeMap<PathBuf, Vec<u8>> = chapter
        .solution
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
        .collect();
    submitted.insert(PathBuf::from(rel), text.as_bytes().to_vec());
    let allow: Vec<String> = allow.iter().map(|a| a.to_string()).collect();
    take(
        &chapter.pristine,
        &submitted,
        &chapter.stubs,
        &allow,
        &chapter.crates,
    )
}
