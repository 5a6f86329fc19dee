//! The grader's integration tests, as one test binary.
//!
//! The problem: the grader is only proved by running it (`grader grade`,
//! `grade-one` through the platforms' scripts, `test-runner`, shards and
//! `grade merge`) on real submissions in its sandbox, and each run compiles
//! what the chapters depend on unless a target directory already holds it.
//! State: one target directory for the whole binary and one turn at a time
//! to grade in it (`tool`), so the dependencies are compiled once per run
//! of this binary, not once per file, and the pristine copy and judges
//! a run keeps are reused by the next where nothing they depend on
//! changed. Cost: a few minutes to prepare, then each module's runs. Each module opens with what it proves:
//!
//! - `batch`: a judge per chapter gives each test a fresh subject and the
//!   verdicts a judge per test gives;
//! - `budget`: one build budget and one test budget per learner, not per
//!   chapter; a sleeping test stopped as idle; a busy machine changes no grade;
//! - `class`: a hostile class in one batch, every learner's points as
//!   deserved and why, and nothing learner-controlled becoming markup;
//! - `closed`: in container mode a subject without seccomp cannot read
//!   the judges' files or the hidden seed;
//! - `hidden`: the hidden suites pass on the reference, fail on the stubs
//!   and on a table of the public answers;
//! - `interrupt`: SIGINT leaves nothing, the next run sweeps a dead run;
//! - `platforms`: Gradescope's, PrairieLearn's and Classroom's scripts;
//! - `prepared`: a prepared class reused under its key, another key for
//!   another config, a stale one swept; a resubmission not built again;
//! - `seeded`: a table of the repository's hidden inputs earns, under the
//!   secret seed, only what a public table earns;
//! - `shards`: shards merged give the gradebook of one run; `test-runner`;
//! - `spawner`: a test in a learner-chapter's sandbox finds nothing of the
//!   test before it (processes, `/tmp`), killed or not.
//!
//! Tests that need the sandbox skip with one line when `bwrap` cannot run
//! here, and fail instead under `CI=true` (`tool::sandbox_or_skip`).

mod batch;
mod budget;
mod class;
mod closed;
mod hidden;
mod interrupt;
mod platforms;
mod prepared;
mod seeded;
mod shards;
mod spawner;
mod tool;
