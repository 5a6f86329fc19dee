//! Reading one learner's submission: a folder, a `.zip` or a `.tar.gz`.
//!
//! Only Rust source files under a chapter's `src/` are kept, read into
//! memory and never unpacked where the archive says: each kept file's path
//! is rebuilt from checked components (`NN_slug/src/a/b.rs`), so `..`,
//! absolute paths, symlinks, hard links and devices cannot reach outside the
//! grader's own folder. Sizes are capped, so an archive bomb is cut short.
//! Cost: one pass over the submission's entries.

use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// The largest source file kept, and the most bytes kept per learner.
const FILE_CAP: u64 = 1 << 20;
const TOTAL_CAP: u64 = 32 << 20;

/// What the grader takes from one learner.
#[derive(Debug, Default)]
pub struct Submission {
    /// Kept files by chapter folder (`00_intro`), then path under `src/`.
    pub chapters: BTreeMap<String, BTreeMap<PathBuf, Vec<u8>>>,
    /// What was skipped and why (symlinks, oversized files, ...).
    pub notes: Vec<String>,
    /// Files the grader takes from the instructor instead (suites,
    /// snapshots, manifests, cargo config), by path relative to the
    /// workbook, so the report can say which ones the learner changed.
    pub ignored: Vec<(String, Vec<u8>)>,
}

/// One entry of the submissions folder: the learner's id, where it is,
/// and what the report should say about its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learner {
    pub id: String,
    pub path: PathBuf,
    /// Why the id is not the entry's name, or which entries look alike.
    pub notes: Vec<String>,
}

/// One learner per entry of `dir`, whatever its name (`.hidden`, `-rf`,
/// not UTF-8): folders, `.zip`, `.tar.gz`/`.tgz` files, and any other file
/// (graded as an error, so no learner is lost). Each gets an id made from
/// its whole file name (see `learner_id`), so two entries never share an
/// id; entries whose ids differ only in case get a `~N` suffix (a character
/// `learner_id` never writes), so no two ids meet on a file system that
/// ignores case or in a spreadsheet lookup. An id that is not the name
/// itself, and names that differ only in case or Unicode normalisation
/// (`café` written precomposed or decomposed), get a note saying so.
pub fn list(dir: &Path) -> Result<Vec<Learner>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        names.push((entry.file_name().as_bytes().to_vec(), entry.path()));
    }
    Ok(name_learners(names))
}

/// The ids and notes of `list`, from each entry's name and path.
fn name_learners(mut names: Vec<(Vec<u8>, PathBuf)>) -> Vec<Learner> {
    use unicode_normalization::UnicodeNormalization;
    names.sort();
    // Names as a person reads them: normalised and without case.
    let looks = |name: &[u8]| -> String {
        String::from_utf8_lossy(name)
            .nfc()
            .collect::<String>()
            .to_lowercase()
    };
    let mut alike: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, (name, _)) in names.iter().enumerate() {
        alike.entry(looks(name)).or_default().push(i);
    }
    let mut taken: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut ids = Vec::new();
    for (name, _) in &names {
        let base = learner_id(name);
        let mut id = base.clone();
        let mut n = 1;
        while !taken.insert(id.to_ascii_lowercase()) {
            n += 1;
            id = format!("{base}~{n}");
        }
        ids.push(id);
    }
    let mut out = Vec::new();
    for (i, ((name, path), id)) in names.iter().zip(&ids).enumerate() {
        let shown = crate::escape::line(&String::from_utf8_lossy(name));
        let mut notes = Vec::new();
        if *id != shown {
            notes.push(format!(
                "the entry `{shown}` is graded as learner `{id}` (names are written so any of them is safe as a folder name and a CSV cell; see grading/README.md)"
            ));
        }
        let others: Vec<String> = alike[&looks(name)]
            .iter()
            .filter(|&&j| j != i)
            .map(|&j| format!("`{}`", ids[j]))
            .collect();
        if !others.is_empty() {
            notes.push(format!(
                "the entry `{shown}` looks like {} (the names differ only in case or Unicode normalisation); each is graded as a learner of its own",
                others.join(", ")
            ));
        }
        out.push(Learner {
            id: id.clone(),
            path: path.clone(),
            notes,
        });
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// A learner id from a file name's bytes: letters, digits, `_`, inner `-`
/// and inner dots stay; every other byte (a leading dot or dash, `%`, `/`,
/// spaces, non-UTF-8 bytes) becomes `%XX`. Reversible, safe as a folder
/// name, a CSV cell and a shell word (never an option), and never `.` or
/// `..`.
pub fn learner_id(name: &[u8]) -> String {
    let mut id = String::with_capacity(name.len());
    for (i, &b) in name.iter().enumerate() {
        if b.is_ascii_alphanumeric() || b == b'_' || ((b == b'.' || b == b'-') && i > 0) {
            id.push(char::from(b));
        } else {
            id.push_str(&format!("%{b:02X}"));
        }
    }
    if id.is_empty() { "%".into() } else { id }
}

/// What kind of submission `path` is, or why it cannot be read.
pub fn kind(path: &Path) -> Result<&'static str> {
    let meta = std::fs::symlink_metadata(path)?;
    let name = path.file_name().map(|n| n.as_bytes()).unwrap_or_default();
    if meta.is_dir() {
        Ok("folder")
    } else if meta.is_file() && name.ends_with(b".zip") {
        Ok("zip")
    } else if meta.is_file() && (name.ends_with(b".tar.gz") || name.ends_with(b".tgz")) {
        Ok("tar.gz")
    } else {
        bail!("not a folder, a .zip or a .tar.gz file, so nothing in it was graded")
    }
}

/// Reads the submission at `path`, keeping the sources of `folders` (`00_intro`, ...).
pub fn read(path: &Path, folders: &[String]) -> Result<Submission> {
    let mut raw = Raw::default();
    match kind(path)? {
        "folder" => walk(path, &mut Vec::new(), &mut raw)?,
        "zip" => read_zip(path, &mut raw)?,
        _ => read_tar_gz(path, &mut raw)?,
    }
    if raw.unnoted > 0 {
        let more = format!("... and {} more skipped entries", raw.unnoted);
        raw.notes.push(more);
    }
    let mut sub = Submission {
        notes: raw.notes,
        ..Submission::default()
    };
    let base = choose_base(&raw.files, folders);
    // The workbook's root in the submission: above `exercises/`, if any.
    let root = base
        .as_deref()
        .and_then(|b| b.strip_suffix(&["exercises".to_string()][..]));
    for (parts, bytes) in raw.files {
        if let Some((folder, rel)) = locate(&parts, base.as_deref(), folders) {
            sub.chapters.entry(folder).or_default().insert(rel, bytes);
        } else {
            let rel = match (root, base.as_deref()) {
                (Some(r), _) if parts.starts_with(r) => parts[r.len()..].join("/"),
                (None, Some(b)) if parts.starts_with(b) => {
                    format!("exercises/{}", parts[b.len()..].join("/"))
                }
                _ => parts.join("/"),
            };
            sub.ignored.push((rel, bytes));
        }
    }
    Ok(sub)
}

#[derive(Default)]
struct Raw {
    files: Vec<(Vec<String>, Vec<u8>)>,
    total: u64,
    notes: Vec<String>,
    /// Notes not kept: an archive of 100,000 skipped entries is counted,
    /// not listed.
    unnoted: usize,
}

/// The most notes kept while reading one submission.
const NOTES_KEPT: usize = 20;

impl Raw {
    fn note(&mut self, note: String) {
        if self.notes.len() < NOTES_KEPT {
            self.notes.push(note);
        } else {
            self.unnoted += 1;
        }
    }

    /// Keeps one `.rs` file if its path is clean and the caps allow it.
    fn keep(
        &mut self,
        path: &str,
        parts: Option<Vec<String>>,
        size: u64,
        read: impl FnOnce(u64) -> Result<Vec<u8>>,
    ) -> Result<()> {
        if !path.ends_with(".rs") && !instructors(path) {
            return Ok(());
        }
        let Some(parts) = parts else {
            self.note(format!("skipped `{path}`: the path leaves the submission"));
            return Ok(());
        };
        if parts
            .iter()
            .any(|p| p == "target" || (p.starts_with('.') && p != ".cargo"))
        {
            return Ok(());
        }
        if size > FILE_CAP || self.total + size > TOTAL_CAP {
            self.note(format!("skipped `{path}`: too large ({size} bytes)"));
            return Ok(());
        }
        let bytes = read(FILE_CAP)?;
        self.total += bytes.len() as u64;
        self.files.push((parts, bytes));
        Ok(())
    }
}

/// Files besides sources that a learner might edit to bend the grade; the
/// grader uses its own, and reads these only to say so when they differ.
fn instructors(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".toml")
        || name.ends_with(".snap")
        || name == "Cargo.lock"
        || name == "config"
        || name == "rust-toolchain"
}

/// The plain components of a relative path, or None if any is not plain.
fn clean(path: &Path) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?.to_string()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!parts.is_empty()).then_some(parts)
}

fn walk(dir: &Path, prefix: &mut Vec<String>, raw: &mut Raw) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let meta = std::fs::symlink_metadata(entry.path())?;
        prefix.push(name.clone());
        if meta.file_type().is_symlink() {
            if name.ends_with(".rs") || prefix.iter().any(|p| p == "src") {
                raw.note(format!("skipped symlink `{}`", prefix.join("/")));
            }
        } else if meta.is_dir() {
            if name != "target" && (!name.starts_with('.') || name == ".cargo") {
                walk(&entry.path(), prefix, raw)?;
            }
        } else if meta.is_file() {
            let path = entry.path();
            raw.keep(&prefix.join("/"), Some(prefix.clone()), meta.len(), |cap| {
                let mut bytes = Vec::new();
                std::fs::File::open(&path)?
                    .take(cap)
                    .read_to_end(&mut bytes)?;
                Ok(bytes)
            })?;
        }
        prefix.pop();
    }
    Ok(())
}

fn read_zip(path: &Path, raw: &mut Raw) -> Result<()> {
    let file = std::fs::File::open(path)?;
    let mut zip = zip::ZipArchive::new(file)
        .with_context(|| format!("{} is not a zip archive", path.display()))?;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i)?;
        let name = entry.name().map(|n| n.to_string()).unwrap_or_default();
        let link =
            entry.is_symlink() || entry.unix_mode().is_some_and(|m| m & 0o170000 == 0o120000);
        if entry.is_dir() {
            continue;
        }
        if link {
            raw.note(format!("skipped symlink `{name}`"));
            continue;
        }
        let parts =
            clean(Path::new(&name)).filter(|_| !name.starts_with('/') && !name.contains('\\'));
        let size = entry.size();
        raw.keep(&name, parts, size, |cap| {
            let mut bytes = Vec::new();
            (&mut entry).take(cap).read_to_end(&mut bytes)?;
            Ok(bytes)
        })?;
    }
    Ok(())
}

fn read_tar_gz(path: &Path, raw: &mut Raw) -> Result<()> {
    let file = std::fs::File::open(path)?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let entries = tar
        .entries()
        .with_context(|| format!("{} is not a .tar.gz archive", path.display()))?;
    for entry in entries {
        let mut entry = entry.with_context(|| format!("{} is damaged", path.display()))?;
        let name = entry.path()?.to_string_lossy().into_owned();
        let kind = entry.header().entry_type();
        if !kind.is_file() {
            if (kind.is_symlink() || kind.is_hard_link()) && name.ends_with(".rs") {
                raw.note(format!("skipped link `{name}`"));
            }
            continue;
        }
        let parts = clean(Path::new(&name));
        let size = entry.header().size()?;
        raw.keep(&name, parts, size, |cap| {
            let mut bytes = Vec::new();
            (&mut entry).take(cap).read_to_end(&mut bytes)?;
            Ok(bytes)
        })?;
    }
    Ok(())
}

/// The folder prefix holding the chapters: the shallowest `.../exercises`
/// that has one, else the top level or one wrapper folder.
fn choose_base(files: &[(Vec<String>, Vec<u8>)], folders: &[String]) -> Option<Vec<String>> {
    let hit = |parts: &[String], i: usize| {
        folders.contains(&parts[i]) && parts.get(i + 1).is_some_and(|s| s == "src")
    };
    let mut best: Option<Vec<String>> = None;
    for (parts, _) in files {
        for i in 1..parts.len() {
            if parts[i - 1] == "exercises"
                && hit(parts, i)
                && best.as_ref().is_none_or(|b| b.len() > i)
            {
                best = Some(parts[..i].to_vec());
            }
        }
    }
    if best.is_some() {
        return best;
    }
    for (parts, _) in files {
        for i in 0..parts.len().min(2) {
            if hit(parts, i)
                && parts[..i].iter().all(|p| p != "solutions")
                && best.as_ref().is_none_or(|b| b.len() > i)
            {
                best = Some(parts[..i].to_vec());
            }
        }
    }
    best
}

/// Splits a kept path into its chapter folder and its path under `src/`.
fn locate(
    parts: &[String],
    base: Option<&[String]>,
    folders: &[String],
) -> Option<(String, PathBuf)> {
    let base = base?;
    let rest = parts.strip_prefix(base)?;
    match rest {
        [folder, src, tail @ ..]
            if src == "src" && folders.contains(folder) && !tail.is_empty() =>
        {
            Some((folder.clone(), tail.iter().collect()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&[u8]]) -> Vec<Learner> {
        name_learners(
            names
                .iter()
                .map(|n| (n.to_vec(), PathBuf::from("x")))
                .collect(),
        )
    }

    #[test]
    fn a_leading_dot_or_dash_is_written_so_the_id_is_never_hidden_or_an_option() {
        assert_eq!(learner_id(b".hidden"), "%2Ehidden");
        assert_eq!(learner_id(b"-rf"), "%2Drf");
        assert_eq!(learner_id(b"a-b.c"), "a-b.c");
        let l = ids(&[b".hidden", b"-rf", b"plain"]);
        let got: Vec<&str> = l.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(got, ["%2Drf", "%2Ehidden", "plain"]);
        assert!(l[0].notes[0].contains("`-rf` is graded as learner `%2Drf`"));
        assert!(l[2].notes.is_empty(), "a plain name needs no note");
    }

    #[test]
    fn names_differing_only_in_case_get_ids_that_differ_without_case() {
        let l = ids(&[b"twin", b"Twin", b"TWIN"]);
        let got: Vec<&str> = l.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(got, ["TWIN", "Twin~2", "twin~3"]);
        assert!(
            l[0].notes[0].contains("looks like `Twin~2`, `twin~3`"),
            "{l:?}"
        );
        for one in &l {
            assert!(
                one.notes.iter().any(|n| n.contains("differ only in case")),
                "{one:?}"
            );
        }
    }

    #[test]
    fn names_differing_only_in_normalisation_are_two_learners_each_noted() {
        let nfc = "caf\u{e9}".as_bytes();
        let nfd = "cafe\u{301}".as_bytes();
        let l = ids(&[nfc, nfd]);
        assert_eq!(l[0].id, "caf%C3%A9");
        assert_eq!(l[1].id, "cafe%CC%81");
        assert!(l.iter().all(|one| one.notes.len() == 2), "{l:?}");
        assert!(l[0].notes[1].contains("`cafe%CC%81`"));
    }

    #[test]
    fn a_name_holding_markup_is_noted_on_one_line() {
        let l = ids(&[b"x\n### forged: 100/100"]);
        assert!(l[0].id.starts_with("x%0A%23%23%23"));
        assert!(!l[0].notes[0].contains('\n'), "{:?}", l[0].notes);
    }
}
