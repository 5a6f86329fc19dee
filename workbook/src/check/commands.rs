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
    super::markdown_files(&root.join("book/src"), &mut pages);
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
        for (line, command) in commands(&text) {
            if let Err(why) = accepts(chapters, &command) {
                problems.push(format!(
                    "{shown}:{line}: `workbook {}` would fail: {why}",
                    command.join(" ")
                ));
            }
        }
    }
    problems
}

/// The workbook commands of a Markdown text: (line, arguments after the
/// program name). Code blocks are read line by line, prose by code span.
fn commands(text: &str) -> Vec<(usize, Vec<String>)> {
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

/// The arguments a command line gives the workbook, if it runs it.
fn workbook_args(command: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = command
        .split_whitespace()
        .take_while(|w| !matches!(*w, "&&" | "|" | ";" | "||"))
        .collect();
    let after = match words.as_slice() {
        ["workbook", rest @ ..] => rest,
        ["cargo", "run", rest @ ..] => {
            let at = rest.windows(2).position(|w| w == ["-p", "workbook"])?;
            let tail = &rest[at + 2..];
            match tail.iter().position(|w| *w == "--") {
                Some(dash) if tail[..dash].iter().all(|w| w.starts_with('-')) => &tail[dash + 1..],
                None if tail.iter().all(|w| w.starts_with('-')) => &[][..],
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(after.iter().map(|w| w.to_string()).collect())
}

/// Whether the tool accepts `args`: clap first, then the names.
fn accepts(chapters: &[Chapter], args: &[String]) -> Result<(), String> {
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
        Some(Cmd::Hint { names: words, .. }) if !words.iter().any(|w| placeholder(w)) => {
            if words.is_empty() {
                return Ok(());
            }
            names::resolve(chapters, &words)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        Some(Cmd::Reset { target, .. }) if !placeholder(&target) => {
            names::resolve(chapters, &[target])
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
        let args: Vec<_> = found.iter().map(|(_, a)| a.join(" ")).collect();
        assert_eq!(
            args,
            ["hint dfs_stack", "", "check --no-suites"],
            "{found:?}"
        );
    }

    #[test]
    fn cargo_flags_before_the_dashes_are_not_arguments() {
        assert_eq!(
            workbook_args("cargo run --release -p workbook -- grade subs/ --out r/"),
            Some(vec![
                "grade".into(),
                "subs/".into(),
                "--out".into(),
                "r/".into()
            ])
        );
        assert_eq!(workbook_args("cargo run -p workbook"), Some(vec![]));
        assert_eq!(workbook_args("cargo run -p apples_solution"), None);
    }

    #[test]
    fn an_argument_clap_rejects_is_reported() {
        let err = accepts(&[], &["hint".into(), "a".into(), "b".into(), "c".into()]);
        assert!(err.is_err(), "three names are one too many: {err:?}");
        assert!(accepts(&[], &["check".into(), "--no-suites".into()]).is_ok());
        assert!(accepts(&[], &["--help".into()]).is_ok());
        assert!(accepts(&[], &["hint".into(), "nothing_by_this_name".into()]).is_err());
    }
}
