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
//! quizzes come alive through `book/theme/head.hbs`. The parts: the
//! core's `players` (what the examples print, and the HTML and SVG written
//! from it, shared with `workbook trace`), `generate.rs` (running the
//! examples, and the check that their output is fresh), `site.rs` (the
//! mdBook build and the server) and `i18n/` (the other languages).

mod generate;
pub mod i18n;
mod site;

pub use generate::generate;
// For `cargo xtask check` (check.rs).
pub use generate::stale;
pub use site::{build, serve};

/// `cargo xtask book extract`: the template and every language's catalogue.
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
