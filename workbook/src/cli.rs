//! The learner's command line: progress (the default), hint, watch,
//! reset, run and trace. Its types are public so the maintainer's
//! published-commands rule (`cargo xtask check`) parses a documented
//! command with exactly this parser.

use crate::{language, progress, reset, run, trace, watch};
use anyhow::{Result, bail};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use workbook_core::{info, names};

#[derive(Parser)]
#[command(
    name = "workbook",
    version,
    about = "The backtracking workbook: your progress, hints, and your search beside the reference's."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Each chapter and exercise, passing or not, and what to do next (the default).
    Progress {
        /// Only this chapter (slug or number).
        chapter: Option<String>,
    },
    /// Show the hints of an exercise, one more each time you ask.
    Hint {
        /// An exercise (`count_naive`), a chapter (`apples`: its first exercise not
        /// passing), or both (`apples count_naive`, `apples/count_naive`); default:
        /// the first exercise not passing.
        #[arg(num_args = 0..=2, value_name = "NAME")]
        names: Vec<String>,
        /// Show every hint at once.
        #[arg(long)]
        all: bool,
    },
    /// Re-run the current exercise's tests whenever a file under `exercises/` is saved.
    Watch {
        /// The exercise (or chapter) to follow, named as for `hint`; default:
        /// the chapter whose folder you stand in, else the one edited last.
        #[arg(num_args = 0..=2, value_name = "NAME")]
        names: Vec<String>,
        /// Check for changes every so many milliseconds instead of waiting for
        /// the system's file notifications (for network or container mounts).
        #[arg(long)]
        poll: Option<u64>,
    },
    /// Restore the pristine stub of an exercise or a whole chapter (your work is backed up first).
    Reset {
        /// An exercise (`dfs_stack`, `intro/dfs_stack`, `intro dfs_stack`) or a
        /// chapter (`intro`, `0`); inside a chapter's folder, its exercise names
        /// mean its own.
        #[arg(required = true, num_args = 1..=2, value_name = "TARGET")]
        target: Vec<String>,
        /// Do not ask before overwriting changed files.
        #[arg(long, short)]
        yes: bool,
    },
    /// Your search beside the reference's, step by step: the first difference named, both in the book's player.
    Trace {
        /// The exercise (`dfs_recursive`, `intro dfs_recursive`), then optionally the
        /// instance: its number or label (default: the chapter player's first).
        #[arg(required = true, num_args = 1.., value_name = "EXERCISE [INSTANCE]")]
        words: Vec<String>,
        /// Write the page and print its path, but do not open it.
        #[arg(long)]
        no_open: bool,
        /// Trace the sources in this folder instead of the chapter's `src/`.
        #[arg(long, hide = true)]
        learner_src: Option<PathBuf>,
    },
    /// Run your chapter binary and the reference's on the same input, side by side.
    Run {
        /// The chapter (slug or number).
        chapter: String,
        /// An input file to feed both, or arguments passed to both (`run n_queens 5
        /// --boards`); default: type the input.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        input: Vec<String>,
    },
    /// Choose the language of the tool's and the tests' messages for this checkout
    /// (`en`, `ja`, `zh-CN`, `ru`); without one, show the language in use and why.
    Lang {
        /// A language code or a locale name (`ja`, `ja_JP.UTF-8`).
        code: Option<String>,
    },
    /// Grading moved to the instructor's own tool: `cargo run --release -p grader -- grade ...`.
    #[command(external_subcommand)]
    Moved(Vec<String>),
}

/// What each tool that once lived here is now called, for a command typed
/// from an older page.
fn moved(command: &str) -> Option<&'static str> {
    match command {
        "grade" | "grade-one" | "test-runner" => Some("cargo run --release -p grader --"),
        "book" | "check" | "stubs" => Some("cargo xtask"),
        _ => None,
    }
}

/// Runs a parsed command line: `Ok` with the exit status, `Err` for a
/// problem `main` prints (exit status 2).
pub fn run(cli: Cli) -> Result<ExitCode> {
    // The language first, so that every error below is in it; outside a
    // checkout there is no catalogue, and the error says so in English.
    if let Ok(root) = info::find_root() {
        crate::words::choose(&root);
    }
    let lang = crate::words::lang();
    if let Some(Cmd::Moved(words)) = &cli.command {
        let first = words.first().map(String::as_str).unwrap_or_default();
        match moved(first) {
            Some(tool) => {
                bail!(
                "{}",
                lang.fill(
                    "`{first}` is not a learner's command: it is `{tool} {args}` (see README.md)",
                    &[("first", &first), ("tool", &tool), ("args", &words.join(" "))]
                )
            )
            }
            None => bail!(
                "{}",
                lang.fill(
                    "no command `{first}`; `cargo workbook --help` lists them",
                    &[("first", &first)]
                )
            ),
        }
    }
    let root = info::find_root()?;
    let chapters = info::load_chapters(&root)?;
    match cli.command.unwrap_or(Cmd::Progress { chapter: None }) {
        Cmd::Progress { chapter } => progress::show(
            &root,
            &names::chapters_opt_in(&chapters, chapter.as_deref(), lang)?,
        ),
        Cmd::Hint { names, all } => progress::hint(&root, &chapters, &names, all),
        Cmd::Watch { names, poll } => watch::watch(&root, &chapters, &names, poll),
        Cmd::Reset { target, yes } => reset::reset(&root, &chapters, &target, yes),
        Cmd::Trace {
            words,
            no_open,
            learner_src,
        } => trace::trace(
            &root,
            &chapters,
            &trace::Options {
                words,
                no_open,
                learner_src,
            },
        ),
        Cmd::Run { chapter, input } => {
            let chapter = names::chapters_opt_in(&chapters, Some(&chapter), lang)?;
            run::run(&root, &chapter[0], &input)
        }
        Cmd::Lang { code } => language::choose(&root, code.as_deref()),
        Cmd::Moved(_) => unreachable!("answered above"),
    }
}
