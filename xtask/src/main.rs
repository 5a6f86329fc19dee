//! `xtask`: the maintainer's tool (`cargo xtask ...`, an alias in
//! `.cargo/config.toml`). It regenerates the stubs from the solutions,
//! proves the workbook's invariants (`check`, ARCHITECTURE.md's numbered
//! list) and builds, serves and translates the book with mdBook's crates.
//! Neither a learner nor an instructor compiles it.
//!
//! Rooms: `cli` (the command line), `check` (one function per invariant,
//! its rules in `check/`), `book` (the generated players and the site,
//! its languages in `book/i18n/`).

mod book;
mod check;
mod cli;

use anyhow::Result;
use clap::Parser;
use cli::{BookAction, Cli, Cmd};
use std::process::ExitCode;
use workbook_core::{info, names, stubs};

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let root = info::find_root()?;
    let chapters = info::load_chapters(&root)?;
    match cli.command {
        Cmd::Book { action } => match action.unwrap_or(BookAction::Build { lang: None }) {
            BookAction::Build { lang } => {
                book::build(&root, lang.as_deref()).map(|_| ExitCode::SUCCESS)
            }
            BookAction::Serve { port, open, lang } => {
                book::serve(&root, port, open, lang.as_deref())
            }
            BookAction::Extract => book::extract(&root),
        },
        Cmd::Stubs { chapter } => {
            for c in names::chapters_opt(&chapters, chapter.as_deref())? {
                let n = stubs::write(&c)?;
                println!(
                    "{}: wrote {n} stub file(s) to {}",
                    c.chapter.slug,
                    c.dir.display()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Check {
            chapter,
            no_suites,
            mutants,
        } => {
            let selected = names::chapters_opt(&chapters, chapter.as_deref())?;
            let suites = if no_suites {
                Vec::new()
            } else {
                selected.clone()
            };
            let with_mutants = if mutants { selected } else { Vec::new() };
            check::run(&root, &chapters, &suites, &with_mutants)
        }
    }
}
