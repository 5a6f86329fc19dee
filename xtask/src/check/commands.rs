//! The rule "every command the book and the README print runs as shown".
//!
//! The problem: a page that tells the learner to type
//! `cargo run -p workbook -- hint sudoku naive` publishes a promise the tool
//! must keep. The state: each command of the workbook's three tools found
//! in a code span or a code block of the README, `grading/`'s pages and the
//! book: the learner's (`workbook ...`, `cargo workbook ...`, `cargo run ...
//! -p workbook -- ...`), the instructor's (`grader ...`, `cargo run ... -p grader --
//! ...`) and the maintainer's (`cargo xtask ...`, `cargo run ... -p xtask
//! -- ...`). Each is run through its tool's own clap parser, and the names
//! it carries (chapters, exercises) are resolved as the tool would; words
//! written as placeholders (`<exercise>`, `[chapter]`, `...`) are taken on
//! trust. Cost: one pass over each page, one parse per command.

use crate::cli as xtask;
use clap::Parser;
use clap::error::ErrorKind;
use grader::cli as grader;
use std::path::Path;
use workbook::cli as learner;
use workbook_core::info::Chapter;
use workbook_core::names;

/// The workbook's tools, by the package that builds each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Learner,
    Grader,
    Xtask,
}

impl Tool {
    fn of_package(package: &str) -> Option<Tool> {
        match package {
            "workbook" => Some(Tool::Learner),
            "grader" => Some(Tool::Grader),
            "xtask" => Some(Tool::Xtask),
            _ => None,
        }
    }

    fn program(self) -> &'static str {
        match self {
            Tool::Learner => "workbook",
            Tool::Grader => "grader",
            Tool::Xtask => "cargo xtask",
        }
    }
}

/// Every command in `root`'s README, grading pages and book that its tool
/// would reject.
pub fn problems(root: &Path, chapters: &[Chapter]) -> Vec<String> {
    let mut pages = vec![root.join("README.md")];
    workbook_core::markdown::markdown_files(&root.join("grading"), &mut pages);
    pages.extend(super::book_pages(root));
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
        for (line, (tool, command), mention) in commands(&text) {
            if let Err(why) = accepts(chapters, tool, &command, mention) {
                problems.push(format!(
                    "{shown}:{line}: `{} {}` would fail: {why}",
                    tool.program(),
                    command.join(" ")
                ));
            }
        }
    }
    problems
}

/// The tools' commands of a Markdown text: (line, (tool, arguments after
/// the program name), whether it is a mention in prose). Code blocks are
/// read line by line (a line ending in `\` goes on in the next), prose by
/// code span.
fn commands(text: &str) -> Vec<(usize, (Tool, Vec<String>), bool)> {
    let mut found = Vec::new();
    let mut fenced = false;
    let mut continued: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            let code = line.split(" #").next().unwrap_or_default();
            let (first, mut whole) = continued.take().unwrap_or((n + 1, String::new()));
            whole.push_str(code.trim_end().trim_end_matches('\\'));
            whole.push(' ');
            if code.trim_end().ends_with('\\') {
                continued = Some((first, whole));
                continue;
            }
            for c in whole.split("&&") {
                if let Some(args) = tool_args(c) {
                    found.push((first, args, false));
                }
            }
        } else {
            for c in line
                .split('`')
                .skip(1)
                .step_by(2)
                .flat_map(|c| c.split("&&"))
            {
                if let Some(args) = tool_args(c) {
                    found.push((n + 1, args, true));
                }
            }
        }
    }
    found
}

/// The tool a command line runs and the arguments it gives it, if it runs
/// one of the workbook's tools.
fn tool_args(command: &str) -> Option<(Tool, Vec<String>)> {
    let words: Vec<&str> = command
        .split_whitespace()
        .take_while(|w| !matches!(*w, "&&" | "|" | ";" | "||"))
        .collect();
    let owned = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect();
    match words.as_slice() {
        ["workbook", rest @ ..] => Some((Tool::Learner, owned(rest))),
        ["grader", rest @ ..] => Some((Tool::Grader, owned(rest))),
        ["cargo", "xtask", rest @ ..] => Some((Tool::Xtask, owned(rest))),
        // The learner's alias (`.cargo/config.toml`): `cargo run -p workbook --`
        // in the tools' own build directory.
        ["cargo", "workbook", rest @ ..] => Some((Tool::Learner, owned(rest))),
        ["cargo", "run", rest @ ..] => {
            let (options, args) = cargo_run(rest)?;
            Some((Tool::of_package(options.package?)?, owned(args)))
        }
        _ => None,
    }
}

/// What `cargo run`'s own options before `--` say.
struct RunOptions<'a> {
    package: Option<&'a str>,
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
    let mut options = RunOptions { package: None };
    let mut i = 0;
    while let Some(&word) = words.get(i) {
        i += 1;
        if word == "--" {
            break;
        }
        if !word.starts_with('-') {
            return None;
        }
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
        if matches!(flag, "-p" | "--package") {
            options.package = Some(value);
        }
    }
    Some((options, &words[i.min(words.len())..]))
}

/// A clap parse's verdict: `Ok(None)` when it printed help or a version
/// (which "fails" by printing what was asked for), the first line of its
/// error when it rejects the words.
fn parsed<T: Parser>(program: &str, args: &[String]) -> Result<Option<T>, String> {
    match T::try_parse_from(std::iter::once(program.to_string()).chain(args.to_vec())) {
        Ok(cli) => Ok(Some(cli)),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            Ok(None)
        }
        // The tool named alone: a mention of it, or its help.
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Ok(None),
        Err(e) => Err(e.to_string().lines().next().unwrap_or_default().to_string()),
    }
}

/// `<exercise>`, `[chapter]`, `...`, `N`, `I/N`, `a|b`: words the reader
/// fills in or chooses.
fn placeholder(w: &str) -> bool {
    w.contains(['<', '[', '{', '…', '|'])
        || w.contains("...")
        || w.chars()
            .all(|c| c.is_ascii_uppercase() || !c.is_ascii_alphanumeric())
}

/// Whether `tool` accepts `args`: clap first, then the names. A `mention`
/// (a code span in prose) may name a command without its required
/// arguments (`grader grade-one`), and one written with placeholders is
/// taken on trust.
fn accepts(chapters: &[Chapter], tool: Tool, args: &[String], mention: bool) -> Result<(), String> {
    match accepted(chapters, tool, args) {
        // A command typed to the wrong tool stays wrong whatever fills it in.
        Err(why)
            if !why.contains("not a learner's command") && args.iter().any(|w| placeholder(w)) =>
        {
            Ok(())
        }
        Err(why) if mention && why.contains("required arguments were not provided") => Ok(()),
        verdict => verdict,
    }
}

/// [`accepts`] for a whole command.
fn accepted(chapters: &[Chapter], tool: Tool, args: &[String]) -> Result<(), String> {
    let chapter_ok = |c: Option<&String>| match c {
        Some(c) if !placeholder(c) && names::chapter(chapters, c).is_none() => {
            Err(format!("no chapter `{c}`"))
        }
        _ => Ok(()),
    };
    let resolves = |words: &[String]| {
        if words.is_empty() || words.iter().any(|w| placeholder(w)) {
            return Ok(());
        }
        names::resolve(chapters, None, words)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    match tool {
        Tool::Learner => {
            let Some(cli) = parsed::<learner::Cli>("workbook", args)? else {
                return Ok(());
            };
            match cli.command {
                Some(learner::Cmd::Hint { names: words, .. })
                | Some(learner::Cmd::Watch { names: words, .. })
                | Some(learner::Cmd::Reset { target: words, .. }) => resolves(&words),
                Some(learner::Cmd::Run { chapter, .. }) => chapter_ok(Some(&chapter)),
                Some(learner::Cmd::Progress { chapter }) => chapter_ok(chapter.as_ref()),
                Some(learner::Cmd::Moved(words)) if words.iter().all(|w| placeholder(w)) => Ok(()),
                Some(learner::Cmd::Moved(words)) => Err(format!(
                    "`{}` is not a learner's command",
                    words.first().map(String::as_str).unwrap_or_default()
                )),
                _ => Ok(()),
            }
        }
        Tool::Grader => {
            let Some(cli) = parsed::<grader::Cli>("grader", args)? else {
                return Ok(());
            };
            match cli.command {
                grader::Cmd::TestRunner { slug, .. } => chapter_ok(Some(&slug)),
                grader::Cmd::GradeOne {
                    chapters: named, ..
                }
                | grader::Cmd::Grade {
                    action:
                        Some(grader::GradeAction::Prepare {
                            chapters: named, ..
                        }),
                    ..
                } => named.iter().try_for_each(|c| chapter_ok(Some(c))),
                _ => Ok(()),
            }
        }
        Tool::Xtask => {
            let Some(cli) = parsed::<xtask::Cli>("xtask", args)? else {
                return Ok(());
            };
            match cli.command {
                xtask::Cmd::Stubs { chapter } | xtask::Cmd::Check { chapter, .. } => {
                    chapter_ok(chapter.as_ref())
                }
                xtask::Cmd::Book { .. } => Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn commands_of_every_tool_are_found_in_spans_and_blocks() {
        let text = "Run `cargo run -p workbook -- hint dfs_stack` or `cargo test`.\n\
                    ```sh\ncd exercises/00_intro && cargo run -p workbook   # progress\n\
                    cargo xtask check --no-suites\n\
                    cargo workbook lang ja\n\
                    cargo run --release -p grader -- grade subs/ --out r/\n```\n";
        let found = commands(text);
        let got: Vec<_> = found
            .iter()
            .map(|(_, (tool, a), _)| (*tool, a.join(" ")))
            .collect();
        assert_eq!(
            got,
            [
                (Tool::Learner, "hint dfs_stack".to_string()),
                (Tool::Learner, String::new()),
                (Tool::Xtask, "check --no-suites".to_string()),
                (Tool::Learner, "lang ja".to_string()),
                (Tool::Grader, "grade subs/ --out r/".to_string()),
            ],
            "{found:?}"
        );
    }

    #[test]
    fn cargo_flags_before_the_dashes_are_not_arguments() {
        let args = |line| tool_args(line).map(|(tool, args)| (tool, args.join(" ")));
        assert_eq!(
            args("cargo run --release -p grader -- grade subs/ --out r/"),
            Some((Tool::Grader, "grade subs/ --out r/".into()))
        );
        assert_eq!(
            args("cargo run -p workbook"),
            Some((Tool::Learner, String::new()))
        );
        assert_eq!(
            args("cargo run --locked -q -p xtask -- book build"),
            Some((Tool::Xtask, "book build".into()))
        );
        assert_eq!(args("cargo run -p apples_solution"), None);
        assert_eq!(args("cargo run -p workbook --features"), None);
    }

    #[test]
    fn a_command_of_another_tool_is_reported_where_it_is_typed() {
        let learner_grade = accepts(&[], Tool::Learner, &words(&["grade", "subs/"]), false);
        assert!(learner_grade.is_err(), "{learner_grade:?}");
        let with_placeholders = accepts(&[], Tool::Learner, &words(&["grade", "SUBS"]), true);
        assert!(with_placeholders.is_err(), "{with_placeholders:?}");
        let grader_hint = accepts(&[], Tool::Grader, &words(&["hint"]), false);
        assert!(grader_hint.is_err(), "{grader_hint:?}");
        assert!(
            accepts(
                &[],
                Tool::Xtask,
                &words(&["book", "serve", "--open"]),
                false
            )
            .is_ok()
        );
        assert!(
            accepts(
                &[],
                Tool::Grader,
                &words(&["grade", "s/", "--out", "r/"]),
                false
            )
            .is_ok()
        );
    }

    #[test]
    fn an_argument_clap_rejects_is_reported() {
        let learner = |args: &[&str]| accepts(&[], Tool::Learner, &words(args), false);
        let err = learner(&["hint", "a", "b", "c"]);
        assert!(err.is_err(), "three names are one too many: {err:?}");
        assert!(accepts(&[], Tool::Xtask, &words(&["check", "--no-suites"]), false).is_ok());
        assert!(learner(&["--help"]).is_ok());
        assert!(learner(&["hint", "nothing_by_this_name"]).is_err());
    }

    /// The workbook's own chapters, read from the repository.
    fn repo_chapters() -> Vec<Chapter> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        workbook_core::info::load_chapters(root).expect("the chapters load")
    }

    #[test]
    fn run_passes_its_arguments_through_and_reset_takes_two_words() {
        let chapters = repo_chapters();
        let accepts = |args: &[&str]| accepts(&chapters, Tool::Learner, &words(args), false);
        assert_eq!(accepts(&["run", "n_queens", "5", "--boards"]), Ok(()));
        assert_eq!(accepts(&["run", "n_queens", "--", "5", "--boards"]), Ok(()));
        assert_eq!(accepts(&["reset", "n_queens", "counting", "--yes"]), Ok(()));
        assert_eq!(accepts(&["reset", "n_queens/counting"]), Ok(()));
        assert_eq!(accepts(&["watch", "n_queens", "counting"]), Ok(()));
        assert!(accepts(&["reset"]).is_err(), "reset needs a target");
    }

    #[test]
    fn a_grader_chapter_that_does_not_exist_is_reported() {
        let chapters = repo_chapters();
        let grader = |args: &[&str]| accepts(&chapters, Tool::Grader, &words(args), false);
        assert!(grader(&["test-runner", "intro", "in/", "out/"]).is_ok());
        assert!(grader(&["test-runner", "nope", "in/", "out/"]).is_err());
    }

    #[test]
    fn a_mention_in_prose_may_leave_out_required_arguments_but_a_block_may_not() {
        let text = "Grade one with `grader grade-one`.\n```sh\ngrader grade-one\n\
                    grader grade subs/ \\\n  --out r/\n```\n";
        let problems: Vec<_> = commands(text)
            .into_iter()
            .filter(|(_, (tool, args), mention)| accepts(&[], *tool, args, *mention).is_err())
            .map(|(line, _, _)| line)
            .collect();
        assert_eq!(problems, [3], "only the block's bare grade-one fails");
    }
}
