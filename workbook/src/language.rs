//! `workbook lang`: the language of the loop, remembered for the checkout.
//!
//! The problem: a reader of the Japanese book should not have to export
//! `WORKBOOK_LANG=ja` in every terminal. The state: `.workbook/lang` at the
//! repository's root (git-ignored, beside the hints shown and the progress
//! kept), read by the tool and by every suite through
//! [`workbook_core::lang`]; `WORKBOOK_LANG` still wins over it, and it wins
//! over the locale. The stubs' doc comments follow the choice: those that
//! still read as generated are rewritten in the chosen language
//! ([`workbook_core::comments`]; `lang en` gives the English back exactly). The cost: one
//! small file written, one pass over the stub files.

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::ExitCode;
use workbook_core::comments::Localizer;
use workbook_core::info::load_chapters;
use workbook_core::lang::{self, LANGUAGES, Lang, REMEMBERED};

/// Remembers `code` for the checkout at `root`, or, without one, says which
/// language is in use and what decided it.
pub fn choose(root: &Path, code: Option<&str>) -> Result<ExitCode> {
    let Some(code) = code else {
        let now = Lang::chosen(root);
        let why = if std::env::var_os("WORKBOOK_LANG").is_some() {
            now.tr("set by WORKBOOK_LANG")
        } else if root.join(REMEMBERED).is_file() {
            now.tr("remembered for this checkout")
        } else {
            now.tr("from the locale (LC_ALL, LC_MESSAGES, LANG), else English")
        };
        println!(
            "{}",
            now.fill(
                "The loop speaks {code} ({why}). Change it with `cargo workbook lang CODE`, one of {all}.",
                &[("code", &now.code()), ("why", &why), ("all", &LANGUAGES.join(", "))]
            )
        );
        return Ok(ExitCode::SUCCESS);
    };
    let Some(found) = lang::from_locale(code) else {
        bail!(
            "{}",
            crate::words::lang().fill(
                "no language `{code}`: the tool and the tests speak {all}",
                &[("code", &code), ("all", &LANGUAGES.join(", "))]
            )
        );
    };
    let path = root.join(REMEMBERED);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| {
            crate::words::lang().fill("cannot create {path}", &[("path", &dir.display())])
        })?;
    }
    std::fs::write(&path, format!("{found}\n")).with_context(|| {
        crate::words::lang().fill("cannot write {path}", &[("path", &path.display())])
    })?;
    let now = Lang::load(root, found);
    println!(
        "{}",
        now.fill(
            "From now on the tool and the tests speak {code} in this checkout (WORKBOOK_LANG still overrides it). The compiler's own errors stay in English.",
            &[("code", &found)]
        )
    );
    let files = comments_into(root, found)?;
    if files > 0 {
        println!(
            "{}",
            now.count(
                "The doc comments of {n} stub file are now in {code}; comments you edited and all code are as they were.",
                "The doc comments of {n} stub files are now in {code}; comments you edited and all code are as they were.",
                files as u64,
                &[("code", &found)]
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Rewrites the doc comments of every chapter's stub files that still read
/// as generated into language `code` ([`workbook_core::comments`]), and says how many
/// files changed. Only whole comment lines change; a file is written only
/// when one of them did.
pub fn comments_into(root: &Path, code: &str) -> Result<usize> {
    let localizer = Localizer::for_repository(root, code);
    let mut changed = 0;
    for chapter in load_chapters(root)? {
        let Ok(files) = chapter.stub_files() else {
            continue;
        };
        for path in files {
            let text = std::fs::read_to_string(&path).with_context(|| {
                crate::words::lang().fill("cannot read {path}", &[("path", &path.display())])
            })?;
            let wanted = localizer.localize(&text);
            if wanted != text {
                std::fs::write(&path, wanted).with_context(|| {
                    crate::words::lang().fill("cannot write {path}", &[("path", &path.display())])
                })?;
                changed += 1;
            }
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use workbook_core::testkit::{copy, repo};

    /// The lines of `text` that are not doc comments: the code.
    fn code(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|l| !l.trim_start().starts_with("///") && !l.trim_start().starts_with("//!"))
            .collect()
    }

    #[test]
    fn lang_rewrites_the_stubs_docs_and_reset_and_lang_en_keep_to_it() {
        let dir = tempfile::tempdir().expect("a folder");
        let root = dir.path();
        for p in [
            "exercises/01_apples",
            "solutions/01_apples",
            "book/po",
            "rustfmt.toml",
        ] {
            copy(&repo().join(p), &root.join(p));
        }
        let naive = root.join("exercises/01_apples/src/naive.rs");
        let english = std::fs::read_to_string(&naive).expect("the stub");
        // The learner wrote a note into one doc comment: it must survive.
        let mine = english.replacen(
            "/// The recursion itself, bumping `calls` once on every entry.",
            "/// The recursion itself, bumping `calls` once on every entry. Mine.",
            1,
        );
        assert_ne!(mine, english, "the doc comment to edit is in the stub");
        std::fs::write(&naive, &mine).expect("edit");

        choose(root, Some("ru")).expect("lang ru");
        let russian = std::fs::read_to_string(&naive).expect("the stub");
        assert!(russian.contains("/// Число способов раздать `apples` одинаковых яблок"));
        assert!(russian.contains("once on every entry. Mine."));
        // The file's header and the given items' docs too.
        assert!(russian.starts_with("//! Наивная рекурсия и та же рекурсия"));
        assert!(russian.contains("/// Что нашёл один запуск наивной рекурсии"));
        assert_eq!(code(&russian), code(&mine), "not one byte of code changed");

        // A reset stub comes back in the language the checkout speaks.
        let chapters = load_chapters(root).expect("the chapter");
        // WORKBOOK_LANG would override the checkout's choice; this part
        // reads what `lang` remembered.
        if std::env::var_os("WORKBOOK_LANG").is_none() {
            crate::reset::reset(root, &chapters, &["apples".to_string()], true).expect("reset");
            let reset = std::fs::read_to_string(&naive).expect("the stub");
            assert!(reset.contains("/// Число способов раздать `apples` одинаковых яблок"));
            assert!(!reset.contains("Mine."), "reset restores the pristine stub");
            std::fs::write(&naive, &russian).expect("back to the edited one");
        }

        choose(root, Some("en")).expect("lang en");
        let back = std::fs::read_to_string(&naive).expect("the stub");
        assert_eq!(
            back, mine,
            "English restored exactly, the learner's note kept"
        );
    }
}
