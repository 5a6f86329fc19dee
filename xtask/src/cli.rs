//! The maintainer's command line: `stubs`, `check` and `book` (build,
//! serve, extract). Its types are public within the crate so the
//! published-commands rule parses `cargo xtask ...` commands with exactly
//! this parser.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "xtask",
    bin_name = "cargo xtask",
    version,
    about = "The backtracking workbook's maintainer tasks: stubs, checks and the book."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Cmd,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Build the book to `book/book`, or serve it on localhost.
    Book {
        #[command(subcommand)]
        action: Option<BookAction>,
    },
    /// Regenerate the stubs in `exercises/` from `solutions/`.
    Stubs {
        /// Only this chapter (slug or number).
        chapter: Option<String>,
    },
    /// Prove the workbook's invariants (stubs in sync, hints, book includes, suites).
    Check {
        /// Only run the suites of this chapter (slug or number); the quick rules always cover all.
        chapter: Option<String>,
        /// Skip running the suites (the slow part).
        #[arg(long)]
        no_suites: bool,
        /// Also build and run the suite once per seeded bug of
        /// `xtask/mutants/<slug>.toml`, each of which it must catch.
        #[arg(long)]
        mutants: bool,
    },
}

#[derive(Subcommand, Clone)]
pub enum BookAction {
    /// Build the static site into `book/book` (the default): English, and each
    /// complete language into `book/book/<lang>` (book/po/languages.toml).
    Build {
        /// Also build this language, complete or not (ja, zh-CN, ru).
        #[arg(long)]
        lang: Option<String>,
    },
    /// Build, serve on http://127.0.0.1:PORT, and rebuild when a source changes.
    Serve {
        #[arg(long, default_value_t = 3000)]
        port: u16,
        /// Open the book in the default browser.
        #[arg(long)]
        open: bool,
        /// Also build this language, complete or not, and open it (ja, zh-CN, ru).
        #[arg(long)]
        lang: Option<String>,
    },
    /// Translators: regenerate book/po/messages.pot from the English book and
    /// merge every language's catalogue (see book/po/README.md).
    Extract,
}
