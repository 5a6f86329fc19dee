//! `workbook lang`: the language of the loop, remembered for the checkout.
//!
//! The problem: a reader of the Japanese book should not have to export
//! `WORKBOOK_LANG=ja` in every terminal. The state: `.workbook/lang` at the
//! repository's root (git-ignored, beside the hints shown and the progress
//! kept), read by the tool and by every suite through
//! [`workbook_core::lang`]; `WORKBOOK_LANG` still wins over it, and it wins
//! over the locale. The cost: one small file written.

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::ExitCode;
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
            "no language `{code}`: the tool and the tests speak {}",
            LANGUAGES.join(", ")
        );
    };
    let path = root.join(REMEMBERED);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(&path, format!("{found}\n"))
        .with_context(|| format!("cannot write {}", path.display()))?;
    let now = Lang::load(root, found);
    println!(
        "{}",
        now.fill(
            "From now on the tool and the tests speak {code} in this checkout (WORKBOOK_LANG still overrides it). The compiler's own errors stay in English.",
            &[("code", &found)]
        )
    );
    Ok(ExitCode::SUCCESS)
}
