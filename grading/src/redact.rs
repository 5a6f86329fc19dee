//! The instructor's absolute paths, replaced by placeholders in everything
//! a learner's results say.
//!
//! The problem: an error while grading (an archive that cannot be read, a
//! copy that fails, a compiler message about a dependency) names the
//! folder it happened in, and a gradebook handed back to learners would
//! then show where the instructor keeps the submissions, the target
//! directory, the workbook and their home. Every text of a learner's
//! result goes through `Places::hide` once, when the learner is graded:
//! each known folder becomes `(submissions)`, `(target)`, `(workbook)`,
//! `(cargo home)` or `(home)`, longest first, and only where the path ends
//! (so `/home/ann` is not cut out of `/home/anna`). State: the list of
//! folders. Cost: one scan of each text per folder.

use crate::record::{ChapterStatus, LearnerResult};
use std::path::Path;

/// Folders to hide and their placeholders, longest first.
#[derive(Debug, Clone, Default)]
pub struct Places {
    known: Vec<(String, &'static str)>,
}

impl Places {
    /// Adds `dir` (as given and, if it exists, canonical) as `placeholder`.
    pub fn add(&mut self, dir: &Path, placeholder: &'static str) {
        let mut forms = vec![dir.to_path_buf()];
        if let Ok(c) = dir.canonicalize() {
            forms.push(c);
        }
        for f in forms {
            let s = f.display().to_string();
            let s = s.trim_end_matches('/').to_string();
            // `/` alone, or a relative path, would match everywhere.
            if s.len() > 1 && s.starts_with('/') && !self.known.iter().any(|(k, _)| *k == s) {
                self.known.push((s, placeholder));
            }
        }
        self.known.sort_by_key(|k| std::cmp::Reverse(k.0.len()));
    }

    /// The usual places: the workbook, cargo's home and the user's home.
    pub fn of(root: &Path) -> Self {
        let mut p = Places::default();
        p.add(root, "(workbook)");
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        if let Some(h) = std::env::var_os("CARGO_HOME") {
            p.add(Path::new(&h), "(cargo home)");
        } else if let Some(h) = &home {
            p.add(&h.join(".cargo"), "(cargo home)");
        }
        if let Some(h) = &home {
            p.add(h, "(home)");
        }
        p
    }

    /// `text` with every known folder replaced by its placeholder.
    pub fn hide(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (path, placeholder) in &self.known {
            if !out.contains(path.as_str()) {
                continue;
            }
            let mut next = String::with_capacity(out.len());
            let mut rest = out.as_str();
            while let Some(at) = rest.find(path.as_str()) {
                let after = &rest[at + path.len()..];
                let ends = after
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')));
                next.push_str(&rest[..at]);
                next.push_str(if ends { placeholder } else { path });
                rest = after;
            }
            next.push_str(rest);
            out = next;
        }
        out
    }

    /// Every text of `r` (notes, chapter errors, test messages and output)
    /// with the known folders hidden.
    pub fn hide_result(&self, r: &mut LearnerResult) {
        if self.known.is_empty() {
            return;
        }
        for n in &mut r.notes {
            *n = self.hide(n);
        }
        for s in &mut r.chapters {
            match s {
                ChapterStatus::CompileError(e) | ChapterStatus::Error(e) => *e = self.hide(e),
                ChapterStatus::Rejected(list) => {
                    for e in list {
                        *e = self.hide(e);
                    }
                }
                ChapterStatus::Graded | ChapterStatus::NotSubmitted | ChapterStatus::NotStarted => {
                }
            }
        }
        for t in r.tests.iter_mut().filter_map(|t| t.run.as_mut()) {
            t.message = self.hide(&t.message);
            t.output = self.hide(&t.output);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_folders_become_placeholders_only_where_the_path_ends() {
        let mut p = Places::default();
        p.add(Path::new("/srv/class/subs"), "(submissions)");
        p.add(Path::new("/srv/class"), "(workbook)");
        p.add(Path::new("/"), "(root)");
        p.add(Path::new("relative"), "(relative)");
        assert_eq!(
            p.hide("/srv/class/subs/bob.zip is not a zip archive; see /srv/class/Cargo.toml"),
            "(submissions)/bob.zip is not a zip archive; see (workbook)/Cargo.toml"
        );
        assert_eq!(
            p.hide("/srv/classes/x and /srv/class"),
            "/srv/classes/x and (workbook)"
        );
        assert_eq!(p.hide("a relative path"), "a relative path");
    }
}
