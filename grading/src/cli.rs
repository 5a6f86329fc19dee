//! The grader's command line: `grader grade`, `grade prepare`, `grade
//! merge`, `test-runner` and `grade-one`, and the internal re-executions
//! the sandbox uses. Its types are public so the maintainer's published-
//! commands rule (`cargo xtask check`) parses a documented command with
//! exactly this parser.

use crate::limited::{self, limited_build_exec, limited_exec};
use crate::platform::{self, Format, GradeOne};
use crate::prepare::Setup;
use crate::sandbox::Container;
use crate::shard::Shard;
use crate::spawner;
use crate::{class, single};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "grader",
    version,
    about = "The backtracking workbook's grader: a class's submissions into a gradebook (see grading/README.md)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Cmd,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Grade a folder of submissions into a gradebook (see grading/README.md).
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
        shard: Option<Shard>,
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
        format: Format,
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
    /// Write a chapter's reference as a learner would hand it in (the stub
    /// files with the reference bodies), to try a grading setup with a
    /// submission that earns every point.
    LearnerReference {
        /// The chapter (slug or number).
        chapter: String,
        /// The folder to write the chapter's `src/` files into.
        out: PathBuf,
    },
    /// Internal: set resource limits on this process, then run a program (used by `grader grade`).
    #[command(name = limited::TEST_COMMAND, hide = true)]
    Limited {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Internal: run a learner's build under memory and file-size limits (used by `grader grade`).
    #[command(name = limited::BUILD_COMMAND, hide = true)]
    LimitedBuild {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Internal: start each test of a learner-chapter inside one sandbox (used by `grader grade`).
    #[command(name = spawner::COMMAND, hide = true)]
    Spawner {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// How learners' code is contained (`grade`, `grade prepare`,
/// `test-runner`, `grade-one`).
#[derive(clap::Args, Clone, Default)]
pub struct SandboxArgs {
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
pub enum SandboxKind {
    Bwrap,
    Container,
    Off,
}

impl SandboxArgs {
    /// `Setup` with these choices and `--no-sandbox`.
    pub fn setup(
        &self,
        config: Option<PathBuf>,
        target_dir: Option<PathBuf>,
        jobs: Option<usize>,
        no_sandbox: bool,
    ) -> Setup {
        let container = match (self.sandbox, self.force_container) {
            (Some(SandboxKind::Container), true) => Container::Forced,
            (Some(SandboxKind::Container), false) => Container::Yes,
            _ => Container::No,
        };
        Setup {
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
pub enum GradeAction {
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
        /// Prepare the class `grade-one --public-only` grades with (the
        /// config's hidden suites left out): its key is another one.
        #[arg(long)]
        public_only: bool,
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

/// Runs a parsed command line: `Ok` with the exit status, `Err` for a
/// problem `main` prints (exit status 2).
pub fn run(cli: Cli) -> anyhow::Result<std::process::ExitCode> {
    use workbook_core::{info, names};
    match cli.command {
        Cmd::Limited { args } => Ok(limited_exec(&args)),
        Cmd::LimitedBuild { args } => Ok(limited_build_exec(&args)),
        Cmd::Spawner { args } => Ok(spawner::serve(&args)),
        // Always 0 with a valid results file, even when no workbook is found.
        Cmd::GradeOne {
            submission,
            chapters,
            format,
            out,
            config,
            target_dir,
            public_only,
            sandbox,
        } => {
            let setup = Setup {
                public_only,
                ..sandbox.setup(config, target_dir, None, false)
            };
            Ok(platform::run(GradeOne {
                submission,
                chapters,
                format,
                out,
                setup,
            }))
        }
        command => {
            let root = info::find_root()?;
            let chapters = info::load_chapters(&root)?;
            match command {
                Cmd::Grade {
                    action: Some(GradeAction::Merge { parts, out }),
                    ..
                } => class::merge(&chapters, &parts, &out),
                Cmd::Grade {
                    action:
                        Some(GradeAction::Prepare {
                            chapters: chosen,
                            config,
                            target_dir,
                            no_sandbox,
                            public_only,
                            sandbox,
                        }),
                    ..
                } => class::prepare_only(
                    &root,
                    &names::chapters(&chapters, &chosen)?,
                    Setup {
                        public_only,
                        ..sandbox.setup(config, target_dir, None, no_sandbox)
                    },
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
                        anyhow::bail!(
                            "grade needs SUBMISSIONS and --out REPORT (see `grader grade --help`)"
                        );
                    };
                    class::run(
                        &root,
                        &chapters,
                        class::Options {
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
                } => single::test_runner(
                    &root,
                    &chapters,
                    &slug,
                    &input,
                    &output,
                    sandbox.setup(None, None, None, no_sandbox),
                ),
                Cmd::LearnerReference { chapter, out } => {
                    for c in names::chapters(&chapters, &[chapter])? {
                        workbook_core::stubs::write_learner_reference(&c, &out)?;
                        println!(
                            "{}: the reference as a learner would hand it in, in {}",
                            c.chapter.slug,
                            out.display()
                        );
                    }
                    Ok(std::process::ExitCode::SUCCESS)
                }
                Cmd::Limited { .. }
                | Cmd::LimitedBuild { .. }
                | Cmd::Spawner { .. }
                | Cmd::GradeOne { .. } => {
                    unreachable!("dispatched before the workbook is found")
                }
            }
        }
    }
}
