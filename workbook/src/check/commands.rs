//! The rule "every command the book and the README print runs as shown".
//!
//! The problem: a page that tells the learner to type
//! `cargo run -p workbook -- hint sudoku naive` publishes a promise the tool
//! must keep. The state: each `workbook ...` or `cargo run ... -p workbook
//! -- ...` command found in a code span or a code block of the README and
//! the book. Each is run through the tool's own clap parser, and the names
//! it carries (chapters, exercises) are resolved as the tool would; words
//! written as placeholders (`<exercise>`, `[chapter]`, `...`) are taken on
//! trust. Cost: one pass over each page, one parse per command.

use crate::info::Chapter;
use crate::names;
use crate::{Cli, Cmd};
use clap::Parser;
use clap::error::ErrorKind;
use std::path::Path;

/// Every command in `root`'s README and book that the tool would reject.
pub fn problems(root: &Path, chapters: &[Chapter]) -> Vec<String> {
    let mut pages = vec![root.join("README.md")];
    crate::markdown::markdown_files(&root.join("book/src"), &mut pages);
    pages.sort();
    let mut problems = Vec::new();
    for page in pages {
        let Ok(text) = std::fs::read_to_string(&page) else {
            continue;
        };
        let shown = page
            .strip_prefix(root)
            .unwrap_or(&page)
            .display()
            .to_string();
        for (line, (command, book_feature)) in commands(&text) {
            if let Err(why) = accepts(chapters, &command, book_feature) {
                problems.push(format!(
                    "{shown}:{line}: `workbook {}` would fail: {why}",
                    command.join(" ")
                ));
            }
        }
    }
    problems
}

/// The workbook commands of a Markdown text: (line, (arguments after the
/// program name, whether the `book` feature is on)). Code blocks are read
/// line by line, prose by code span.
fn commands(text: &str) -> Vec<(usize, (Vec<String>, bool))> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let candidates: Vec<&str> = if fenced {
            vec![line.split(" #").next().unwrap_or_default()]
        } else {
            line.split('`').skip(1).step_by(2).collect()
        };
        for c in candidates.iter().flat_map(|c| c.split("&&")) {
            if let Some(args) = workbook_args(c) {
                found.push((n + 1, args));
            }
        }
    }
    found
}

/// The arguments a command line gives the workbook, if it runs it, and
/// whether that line builds the workbook with its `book` feature (an
/// installed `workbook` is taken to have been built as it needed).
fn workbook_args(command: &str) -> Option<(Vec<String>, bool)> {
    let words: Vec<&str> = command
        .split_whitespace()
        .take_while(|w| !matches!(*w, "&&" | "|" | ";" | "||"))
        .collect();
    let owned = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect();
    match words.as_slice() {
        ["workbook", rest @ ..] => Some((owned(rest), true)),
        ["cargo", "run", rest @ ..] => {
            let (options, args) = cargo_run(rest)?;
            (options.package == Some("workbook")).then(|| (owned(args), options.book))
        }
        _ => None,
    }
}

/// What `cargo run`'s own options before `--` say.
struct RunOptions<'a> {
    package: Option<&'a str>,
    book: bool,
}

/// Splits `cargo run`'s words into its options and the program's arguments;
/// `None` when a word before `--` is not an option (not a plain run line).
fn cargo_run<'a, 'w>(words: &'w [&'a str]) -> Option<(RunOptions<'a>, &'w [&'a str])> {
    const TAKES_A_VALUE: &[&str] = &[
        "-p",
        "--package",
        "-F",
        "--features",
        "--bin",
        "--example",
        "--target-dir",
        "--manifest-path",
        "--profile",
        "-j",
        "--jobs",
        "--target",
        "--config",
        "--color",
    ];
    let mut options = RunOptions {
        package: None,
        book: false,
    };
    let mut i = 0;
    while let Some(&word) = words.get(i) {
        i += 1;
        if word == "--" {
            break;
        }
        if !word.starts_with('-') {
            return None;
        }
        options.book |= word == "--all-features";
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value)),
            None => (word, None),
        };
        if !TAKES_A_VALUE.contains(&flag) {
            continue;
        }
        let value = match inline {
            Some(value) => value,
            None => {
                i += 1;
                *words.get(i - 1)?
            }
        };
        match flag {
            "-p" | "--package" => options.package = Some(value),
            "-F" | "--features" => {
                options.book |= value
                    .split([',', ' '])
                    .any(|f| matches!(f, "book" | "workbook/book"))
            }
            _ => {}
        }
    }
    Some((options, &words[i.min(words.len())..]))
}

/// Whether the tool accepts `args`: clap first, then the names, then the
/// feature the `book` commands need.
fn accepts(chapters: &[Chapter], args: &[String], book_feature: bool) -> Result<(), String> {
    let cli = match Cli::try_parse_from(std::iter::once("workbook".into()).chain(args.to_vec())) {
        Ok(cli) => cli,
        // `--help` and `--version` "fail" by printing what was asked for.
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return Ok(());
        }
        Err(e) => {
            let first = e.to_string().lines().next().unwrap_or_default().to_string();
            return Err(first);
        }
    };
    // `<exercise>`, `[chapter]`, `...`, `N`: the reader fills these in.
    let placeholder = |w: &str| {
        w.contains(['<', '[', '{', '…'])
            || w.contains("...")
            || w.chars().all(|c| c.is_ascii_uppercase())
    };
    let chapter_ok = |c: &Option<String>| match c {
        Some(c) if !placeholder(c) && names::chapter(chapters, c).is_none() => {
            Err(format!("no chapter `{c}`"))
        }
        _ => Ok(()),
    };
    match cli.command {
        Some(Cmd::Book { .. }) if !book_feature => Err(
            "the book commands need mdBook's crates: `cargo run -p workbook --features book -- book ...`"
                .into(),
        ),
        Some(Cmd::Hint { names: words, .. }) if !words.iter().any(|w| placeholder(w)) => {
            if words.is_empty() {
                return Ok(());
            }
            names::resolve(chapters, None, &words)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        Some(Cmd::Reset { target, .. }) if !target.iter().any(|w| placeholder(w)) => {
            names::resolve(chapters, None, &target)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        Some(Cmd::Watch { names: words, .. })
            if !words.is_empty() && !words.iter().any(|w| placeholder(w)) =>
        {
            names::resolve(chapters, None, &words)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        Some(Cmd::Run { chapter, .. }) => chapter_ok(&Some(chapter)),
        Some(Cmd::Progress { chapter }) | Some(Cmd::Stubs { chapter }) => chapter_ok(&chapter),
        Some(Cmd::Check { chapter, .. }) => chapter_ok(&chapter),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_found_in_spans_and_blocks() {
        let text = "Run `cargo run -p workbook -- hint dfs_stack` or `cargo test`.\n\
                    ```sh\ncd exercises/00_intro && cargo run -p workbook   # progress\n\
                    workbook check --no-suites\n```\n";
        let found = commands(text);
        let args: Vec<_> = found.iter().map(|(_, (a, _))| a.join(" ")).collect();
        assert_eq!(
            args,
            ["hint dfs_stack", "", "check --no-suites"],
            "{found:?}"
        );
    }

    #[test]
    fn cargo_flags_before_the_dashes_are_not_arguments() {
        let args = |line| workbook_args(line).map(|(args, _)| args.join(" "));
        assert_eq!(
            args("cargo run --release -p workbook -- grade subs/ --out r/").as_deref(),
            Some("grade subs/ --out r/")
        );
        assert_eq!(args("cargo run -p workbook").as_deref(), Some(""));
        assert_eq!(
            args("cargo run --locked -p workbook --features book -- book build").as_deref(),
            Some("book build")
        );
        assert_eq!(args("cargo run -p apples_solution"), None);
        assert_eq!(args("cargo run -p workbook --features"), None);
    }

    #[test]
    fn the_book_feature_is_read_from_the_cargo_line() {
        let book = |line| workbook_args(line).map(|(_, book)| book);
        assert_eq!(book("cargo run -p workbook -- book serve"), Some(false));
        assert_eq!(
            book("cargo run -p workbook --features book -- book"),
            Some(true)
        );
        assert_eq!(
            book("cargo run -F workbook/book -p workbook -- book"),
            Some(true)
        );
        assert_eq!(
            book("cargo run --features=book -p workbook -- book"),
            Some(true)
        );
        assert_eq!(
            book("cargo run --all-features -p workbook -- book"),
            Some(true)
        );
        assert_eq!(book("workbook book build"), Some(true));
    }

    #[test]
    fn a_book_command_without_the_book_feature_is_reported() {
        let args = ["book".to_string(), "serve".to_string()];
        assert!(accepts(&[], &args, false).is_err());
        assert!(accepts(&[], &args, true).is_ok());
    }

    #[test]
    fn an_argument_clap_rejects_is_reported() {
        let accepts = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            accepts(&[], &args, false)
        };
        let err = accepts(&["hint", "a", "b", "c"]);
        assert!(err.is_err(), "three names are one too many: {err:?}");
        assert!(accepts(&["check", "--no-suites"]).is_ok());
        assert!(accepts(&["--help"]).is_ok());
        assert!(accepts(&["hint", "nothing_by_this_name"]).is_err());
    }

    /// The workbook's own chapters, read from the repository.
    fn repo_chapters() -> Vec<Chapter> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        crate::info::load_chapters(root).expect("the chapters load")
    }

    #[test]
    fn run_passes_its_arguments_through_and_reset_takes_two_words() {
        let chapters = repo_chapters();
        let accepts = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            accepts(&chapters, &args, false)
        };
        assert_eq!(accepts(&["run", "n_queens", "5", "--boards"]), Ok(()));
        assert_eq!(accepts(&["run", "n_queens", "--", "5", "--boards"]), Ok(()));
        assert_eq!(accepts(&["reset", "n_queens", "counting", "--yes"]), Ok(()));
        assert_eq!(accepts(&["reset", "n_queens/counting"]), Ok(()));
        assert_eq!(accepts(&["watch", "n_queens", "counting"]), Ok(()));
        assert!(accepts(&["reset"]).is_err(), "reset needs a target");
    }
}
