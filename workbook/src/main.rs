//! `workbook`: the one tool of the backtracking workbook.
//!
//! Learners see their progress and ask for hints; readers build and serve the
//! book; maintainers regenerate the stubs and prove the invariants with
//! `check`. Every subcommand finds the workspace from the current directory,
//! so it works from the root and from inside an exercise alike.

mod book;
mod check;
mod grade;
mod info;
mod markdown;
mod names;
mod progress;
mod reset;
mod run;
mod runner;
mod stubs;
mod trace;
mod watch;

use anyhow::{Result, bail};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "workbook",
    version,
    about = "The backtracking workbook: read, solve, check."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
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
    /// Instructors: grade a folder of submissions into a gradebook (see grading/README.md).
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade {
        #[command(subcommand)]
        action: Option<GradeAction>,
        /// A folder with one entry per learner: a folder, a .zip or a .tar.gz.
        #[arg(required = true)]
        submissions: Option<PathBuf>,
        /// Where to write grades.csv, report.md, report.html and learners/LEARNER/results.json.
        #[arg(long, required = true)]
        out: Option<PathBuf>,
        /// The grading config; default: grading/grading.toml when it exists.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The shared target directory for the graded builds; default: target/grade.
        #[arg(long)]
        target_dir: Option<PathBuf>,
        /// Learners graded at once; default: one per core.
        #[arg(long)]
        jobs: Option<usize>,
        /// Run learners' builds and tests without the bwrap sandbox (only for a trusted class).
        #[arg(long)]
        no_sandbox: bool,
        #[command(flatten)]
        sandbox: SandboxArgs,
        /// Grade only shard I of N (e.g. 2/8), by a hash of each learner id; merge the parts with `grade merge`.
        #[arg(long, value_name = "I/N")]
        shard: Option<grade::Shard>,
    },
    /// Platforms: grade one submission of one chapter (the Exercism test-runner interface).
    TestRunner {
        /// The chapter's slug (`intro`, `apples`, ...).
        slug: String,
        /// The submission: the chapter's crate folder (with src/) or a copy of the workbook.
        input: PathBuf,
        /// Where to write results.json.
        output: PathBuf,
        /// Run without the bwrap sandbox (only for trusted code).
        #[arg(long)]
        no_sandbox: bool,
        #[command(flatten)]
        sandbox: SandboxArgs,
    },
    /// Platforms: grade one submission into Gradescope's, PrairieLearn's,
    /// Classroom's or Exercism's results file; exits 0 with a valid file
    /// whatever happens (see grading/platforms/).
    GradeOne {
        /// The submission: a folder holding a copy of the workbook, of its
        /// `exercises/`, or (one chapter) the chapter's crate or its `.rs` files.
        submission: PathBuf,
        /// The chapters to grade (slug or number; repeat, or comma-separated); default: all.
        #[arg(long = "chapter", value_name = "CHAPTER")]
        chapters: Vec<String>,
        /// The results file's format.
        #[arg(long, value_enum)]
        format: grade::platform::Format,
        /// Where to write the results file.
        #[arg(long)]
        out: PathBuf,
        /// The grading config; default: grading/grading.toml when it exists.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The shared target directory for the graded builds; default: target/grade.
        #[arg(long)]
        target_dir: Option<PathBuf>,
        /// Grade with the public suites only, leaving out the config's
        /// hidden suites (where learners can read whatever the grading
        /// reads, as in a GitHub Classroom workflow).
        #[arg(long)]
        public_only: bool,
        #[command(flatten)]
        sandbox: SandboxArgs,
    },
    /// Internal: set resource limits on this process, then run a program (used by `grade`).
    #[command(name = "__limited", hide = true)]
    Limited {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Internal: run a learner's build under memory and file-size limits (used by `grade`).
    #[command(name = "__limited-build", hide = true)]
    LimitedBuild {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Build the book to `book/book`, or serve it on localhost.
    Book {
        #[command(subcommand)]
        action: Option<BookAction>,
    },
    /// Internal: write a chapter's reference as a learner would submit it
    /// (the stubs' files with the reference bodies), for the grader's tests.
    #[command(name = "__learner-reference", hide = true)]
    LearnerReference {
        /// The chapter (slug or number).
        chapter: String,
        /// The folder to write the chapter's `src/` files into.
        out: PathBuf,
    },
    /// Maintainers: regenerate the stubs in `exercises/` from `solutions/`.
    Stubs {
        /// Only this chapter (slug or number).
        chapter: Option<String>,
    },
    /// Maintainers: prove the workbook's invariants (stubs in sync, hints, book includes, suites).
    Check {
        /// Only run the suites of this chapter (slug or number); the quick rules always cover all.
        chapter: Option<String>,
        /// Skip running the suites (the slow part).
        #[arg(long)]
        no_suites: bool,
        /// Also build and run the suite once per seeded bug listed in
        /// info.toml (`[[exercise.mutant]]`), each of which it must catch.
        #[arg(long)]
        mutants: bool,
    },
}

/// How learners' code is contained (`grade`, `grade prepare`,
/// `test-runner`, `grade-one`).
#[derive(clap::Args, Clone, Default)]
struct SandboxArgs {
    /// `bwrap` (the default), `container` (the platform's container is the
    /// isolation: no bwrap, everything else kept; refused outside a
    /// container) or `off` (the same as --no-sandbox).
    #[arg(long, value_enum, value_name = "MODE")]
    sandbox: Option<SandboxKind>,
    /// With --sandbox container: grant it on a machine that does not look
    /// like a container.
    #[arg(long)]
    force_container: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
enum SandboxKind {
    Bwrap,
    Container,
    Off,
}

impl SandboxArgs {
    /// `grade::Setup` with these choices and `--no-sandbox`.
    fn setup(
        &self,
        config: Option<PathBuf>,
        target_dir: Option<PathBuf>,
        jobs: Option<usize>,
        no_sandbox: bool,
    ) -> grade::Setup {
        use grade::sandbox::Container;
        let container = match (self.sandbox, self.force_container) {
            (Some(SandboxKind::Container), true) => Container::Forced,
            (Some(SandboxKind::Container), false) => Container::Yes,
            _ => Container::No,
        };
        grade::Setup {
            config,
            target_dir,
            jobs,
            no_sandbox: no_sandbox || self.sandbox == Some(SandboxKind::Off),
            container,
            public_only: false,
        }
    }
}

#[derive(Subcommand, Clone)]
enum GradeAction {
    /// Fetch and build what grading needs once (for a cache shared by shards).
    Prepare {
        /// Only these chapters (slug or number; repeat, or comma-separated),
        /// as `grade-one --chapter` will grade them; default: all.
        #[arg(long = "chapter", value_name = "CHAPTER")]
        chapters: Vec<String>,
        /// The grading config; default: grading/grading.toml when it exists.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The shared target directory for the graded builds; default: target/grade.
        #[arg(long)]
        target_dir: Option<PathBuf>,
        /// Build without the bwrap sandbox.
        #[arg(long)]
        no_sandbox: bool,
        #[command(flatten)]
        sandbox: SandboxArgs,
    },
    /// Merge the parts written by `grade --shard I/N` into one gradebook.
    Merge {
        /// The parts' folders (each holds a part.json).
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// Where to write grades.csv, report.md, report.html and learners/.
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Subcommand, Clone)]
enum BookAction {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match &cli.command {
        Some(Cmd::Limited { args }) => return Ok(grade::limited_exec(args)),
        Some(Cmd::LimitedBuild { args }) => return Ok(grade::limited_build_exec(args)),
        // Always 0 with a valid results file, even when no workbook is found.
        Some(Cmd::GradeOne {
            submission,
            chapters,
            format,
            out,
            config,
            target_dir,
            public_only,
            sandbox,
        }) => {
            let setup = grade::Setup {
                public_only: *public_only,
                ..sandbox.setup(config.clone(), target_dir.clone(), None, false)
            };
            return Ok(grade::platform::run(grade::platform::GradeOne {
                submission: submission.clone(),
                chapters: chapters.clone(),
                format: *format,
                out: out.clone(),
                setup,
            }));
        }
        _ => {}
    }
    let root = info::find_root()?;
    let chapters = info::load_chapters(&root)?;
    match cli.command.unwrap_or(Cmd::Progress { chapter: None }) {
        Cmd::Progress { chapter } => progress::show(&root, &select(&chapters, chapter.as_deref())?),
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
            let chapter = select(&chapters, Some(&chapter))?;
            run::run(&root, &chapter[0], &input)
        }
        Cmd::Grade {
            action: Some(GradeAction::Merge { parts, out }),
            ..
        } => grade::merge(&chapters, &parts, &out),
        Cmd::Grade {
            action:
                Some(GradeAction::Prepare {
                    chapters: chosen,
                    config,
                    target_dir,
                    no_sandbox,
                    sandbox,
                }),
            ..
        } => grade::prepare_only(
            &root,
            &grade::platform::select(&chapters, &chosen)?,
            sandbox.setup(config, target_dir, None, no_sandbox),
        ),
        Cmd::Grade {
            action: None,
            submissions,
            out,
            config,
            target_dir,
            jobs,
            no_sandbox,
            sandbox,
            shard,
        } => {
            let (Some(submissions), Some(out)) = (submissions, out) else {
                bail!("grade needs SUBMISSIONS and --out REPORT (see `workbook grade --help`)");
            };
            grade::run(
                &root,
                &chapters,
                grade::Options {
                    submissions,
                    out,
                    setup: sandbox.setup(config, target_dir, jobs, no_sandbox),
                    shard,
                },
            )
        }
        Cmd::TestRunner {
            slug,
            input,
            output,
            no_sandbox,
            sandbox,
        } => grade::test_runner(
            &root,
            &chapters,
            &slug,
            &input,
            &output,
            sandbox.setup(None, None, None, no_sandbox),
        ),
        Cmd::GradeOne { .. } => {
            unreachable!("grade-one is dispatched before the workbook is found")
        }
        Cmd::Limited { args } => Ok(grade::limited_exec(&args)),
        Cmd::LimitedBuild { args } => Ok(grade::limited_build_exec(&args)),
        Cmd::Book { action } => match action.unwrap_or(BookAction::Build { lang: None }) {
            BookAction::Build { lang } => {
                book::build(&root, lang.as_deref()).map(|_| ExitCode::SUCCESS)
            }
            BookAction::Serve { port, open, lang } => {
                book::serve(&root, port, open, lang.as_deref())
            }
            BookAction::Extract => book::extract(&root),
        },
        Cmd::LearnerReference { chapter, out } => {
            for c in select(&chapters, Some(&chapter))? {
                learner_reference(&root, &c, &out)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Stubs { chapter } => {
            for c in select(&chapters, chapter.as_deref())? {
                let n = stubs::write(&root, &c)?;
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
            let selected = select(&chapters, chapter.as_deref())?;
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

/// The chapters a command applies to: all, or the one named by slug or number.
fn select(chapters: &[info::Chapter], which: Option<&str>) -> Result<Vec<info::Chapter>> {
    let Some(which) = which else {
        return Ok(chapters.to_vec());
    };
    let found: Vec<_> = chapters
        .iter()
        .filter(|c| {
            c.chapter.slug == which || c.chapter.number.to_string() == which || c.folder() == which
        })
        .cloned()
        .collect();
    if found.is_empty() {
        let known: Vec<_> = chapters.iter().map(|c| c.chapter.slug.as_str()).collect();
        bail!(
            "no chapter `{which}`; the chapters are: {}",
            known.join(", ")
        );
    }
    Ok(found)
}

/// Writes chapter `c`'s reference as a learner would hand it in
/// ([`stubs::learner_reference`]) under `out`.
fn learner_reference(
    root: &std::path::Path,
    c: &info::Chapter,
    out: &std::path::Path,
) -> Result<()> {
    for f in stubs::learner_reference(root, c)? {
        let path = out.join(&f.relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, f.text)?;
    }
    Ok(())
}
