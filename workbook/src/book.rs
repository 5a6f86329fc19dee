//! Building and serving the book with mdBook 0.5's own crates.
//!
//! No separate `mdbook` install: `MDBook::load(..).build()` renders
//! `book/src` to static HTML in `book/book`, search index included. `serve`
//! is a small static file server on the loopback interface that rebuilds
//! the book when anything under `book/src` or `solutions/` changes (it polls
//! modification times once a second, which works with every editor).
//!
//! Before each build, [`generate`] runs every chapter's `<slug>_book`
//! example (the reference solvers recording their own traces, figures and
//! quiz answers) into `book/src/<slug>/generated/`; the players, styles and
//! quizzes come alive through `book/theme/head.hbs`. The parts live in
//! `book/`: `records.rs` (what the examples print), `render.rs` (HTML and
//! SVG), `generate.rs` (running them, and the check that they are fresh)
//! and `site.rs` (the mdBook build and the server).
//!
//! mdBook itself (and the server) sit behind the `book` cargo feature, in
//! `site.rs`: without it, `book build` and `book serve` say which command
//! has it, and everything else (the generated files, `workbook check`'s
//! proof that they are current) works the same.

mod generate;
pub mod i18n;
// `workbook trace` writes its players with the book's own reader and writer.
pub(crate) mod records;
pub(crate) mod render;
#[cfg(feature = "book")]
mod site;

#[cfg(feature = "book")]
pub use generate::generate;
// For `workbook check` (check.rs).
pub use generate::stale;
#[cfg(feature = "book")]
pub use site::{build, serve};

/// `workbook book extract`: the template and every language's catalogue.
#[cfg(feature = "book")]
pub fn extract(root: &std::path::Path) -> anyhow::Result<std::process::ExitCode> {
    let done = i18n::extract::extract(root)?;
    println!(
        "Extracted {} messages to book/po/messages.pot.",
        done.messages
    );
    for (lang, translated, total) in done.languages {
        println!("  book/po/{lang}.po: {translated} of {total} messages translated");
    }
    println!(
        "Extracted {} player, quiz and figure messages to book/po/ui.pot.",
        done.ui_messages
    );
    for (lang, translated, total) in done.ui_languages {
        println!("  book/po/ui/{lang}.po: {translated} of {total} messages translated");
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(not(feature = "book"))]
mod without {
    use anyhow::{Result, bail};
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    /// What a build without mdBook's crates answers to `book build`.
    pub fn build(_root: &Path, _lang: Option<&str>) -> Result<PathBuf> {
        bail!("{}", needs_feature("build"))
    }

    /// What a build without mdBook's crates answers to `book serve`.
    pub fn serve(_root: &Path, _port: u16, _open: bool, _lang: Option<&str>) -> Result<ExitCode> {
        bail!("{}", needs_feature("serve --open"))
    }

    /// What a build without mdBook's crates answers to `book extract`.
    pub fn extract(_root: &Path) -> Result<ExitCode> {
        bail!("{}", needs_feature("extract"))
    }

    fn needs_feature(action: &str) -> String {
        format!(
            "the book is built by mdBook's crates, which the default build of the workbook leaves out \
             (so progress and hints compile quickly); run `cargo run -p workbook --features book -- book {action}`"
        )
    }
}
#[cfg(not(feature = "book"))]
pub use without::{build, extract, serve};
