//! `grader`: the instructor's batch grader.
//!
//! The problem: turn a folder of learners' copies into a gradebook that a
//! hostile class cannot bend, where one learner can neither touch another's
//! grade nor stop the class. The rooms, in the order a submission meets them:
//!
//! * `submission`: reads a folder or archive into memory (sources, and the
//!   instructor's files only to note that they were ignored); gives every
//!   entry a unique, reversible learner id.
//! * `intake`: takes from each chapter only what the learner is meant to
//!   write (the bodies of the stubbed functions and private helpers, checked
//!   against a grammar) and splices it into the pristine stubs.
//! * `workspace`: the pristine copy, built once (dependencies and the test
//!   list), and a throwaway copy per learner, built a chapter at a time;
//!   `kept`: the pristine copy kept between runs, so the next run rebuilds
//!   only what changed in it.
//! * `sandbox`: `bwrap` around every build and test, and a uid per test run;
//!   `spawner`: as root, one `bwrap` per learner-chapter and role, whose
//!   spawner starts each test and leaves nothing of it behind;
//!   `closed`: the judges' files readable by root and the judges' group
//!   alone, so no subject's uid can read them.
//! * `subjects`: each subject kept under the hash of its sources, so the
//!   same sources are never built twice.
//! * `seed`, `worker`, `cgroup`: every dependency compiled once for the
//!   class; each worker builds in a target directory of its own linked to
//!   them (read-only), in a control group capping its build's memory and
//!   tasks, so builds run side by side and none can take the machine.
//! * `exec`, `limited`: a subject process per test and a judge per
//!   chapter (`exec::batch`; a test it did not pass runs alone, a judge of
//!   its own), under CPU, memory, task and output limits, set by the
//!   grader re-executing itself (`limited`, which also limits a learner's
//!   build); `idle`: a test whose processes make no CPU progress for a few
//!   seconds is stopped.
//! * `hidden_seed`: the secret seed the hidden suites draw their inputs
//!   from (the instructor's file, else drawn per run and reported), given
//!   to the judges alone.
//! * `tables`: a note for the instructor when a learner's code holds the
//!   tests' answers as literals (a table, not a search); never a grade.
//! * `record`, `results`, `report`: what grading records of a learner
//!   (whole), the typed results every output is written from (once per
//!   learner: points, verdicts, capped texts), and the outputs:
//!   `results.json` per learner, `grades.csv`, `report.md`/`.html`; every
//!   name, note and message in them made inert by `escape`, and the
//!   instructor's folders hidden by `redact`. `platform` writes the same
//!   results in Gradescope's, PrairieLearn's and Classroom's formats.
//! * `shard`: a deterministic share of the class per run (`--shard I/N`),
//!   and the merge of the parts into one gradebook.
//!
//! The flow through them: `class` (`grader grade`) runs `prepare` (the
//! config, the pristine copy and its build, the seed, the graded tests),
//! then `learner` per submission (intake, then build and test each chapter
//! within one budget for builds and one for tests); `single` grades one submission alone for the
//! platforms (`test-runner`, `grade-one`). `cli` is the command line.
//!
//! Around them: `interrupt` (SIGINT or SIGTERM stops the workers and
//! removes their folders), `staging` (the report is written beside `--out`
//! and renamed into place only when complete) and `leftovers` (each run
//! locks its folders in the target directory, and sweeps those of runs
//! that died).
//!
//! This file only names the rooms and what the crate offers; no room uses
//! another both ways (the map and the check: `grading/ARCHITECTURE.md`).
//!
//! State: one pristine copy, kept between runs (a run that finds it held
//! by another makes its own), one work copy and one target
//! directory per worker, one shared target directory for the dependencies.
//! Cost: one dependency build for the class, then per learner and chapter
//! one build of the learner's crate, a judge per suite binary and one
//! short subject process per test;
//! learners are graded in parallel, one per core. See `grading/README.md`.

mod cgroup;
mod class;
pub mod cli;
mod closed;
mod config;
mod escape;
mod exec;
mod hidden_seed;
mod idle;
mod intake;
mod interrupt;
mod judge;
mod kept;
mod learner;
mod leftovers;
mod limited;
pub mod platform;
mod prepare;
mod record;
mod redact;
mod report;
mod results;
pub mod sandbox;
mod seed;
mod shard;
mod single;
pub mod spawner;
mod staging;
mod subjects;
mod submission;
mod tables;
mod test_proc;
mod worker;
mod workspace;

pub use class::{Options, merge, prepare_only, run};
pub use limited::{limited_build_exec, limited_exec};
pub use prepare::Setup;
pub use record::{Case, ChapterStatus, LearnerResult, Suite, TestResult};
pub use shard::Shard;
pub use single::test_runner;
