//! The book's Markdown, as the tool reads it: the pages under a folder and
//! the ids mdBook gives headings.
//!
//! The problem: the maintainer check (its book, fold and command rules)
//! and the learner's names (a page by its book title) both read the book's
//! pages, and when these helpers lived in `check.rs`, `names.rs` depended
//! on the check that depends on it. Here they depend on nothing of the
//! tool, so every module that reads the book can use them. State: none.
//! Cost: one directory walk per call of [`markdown_files`], one pass over
//! a line per [`heading_id`].

use std::path::{Path, PathBuf};

/// The id mdBook gives a Markdown heading line (kept in [`crate::lang`],
/// which the suites include as a file).
pub use crate::lang::heading_id;

/// Every `.md` file under `dir`, at any depth, appended to `out` (a folder
/// that cannot be read adds nothing).
pub fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_ids_follow_mdbook() {
        assert_eq!(
            heading_id("## The knight's tour: 8x8").as_deref(),
            Some("the-knights-tour-8x8")
        );
        assert_eq!(heading_id("not a heading"), None);
    }
}
