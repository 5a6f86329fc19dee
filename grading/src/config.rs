//! The instructor's grading configuration (`grading/grading.toml`).
//!
//! Every field has a default, so grading works with no file at all: each
//! graded test is worth one point, a test gets a few seconds of CPU time
//! (with a generous wall clock behind it), a gibibyte of address space, 64
//! tasks and 64 KiB of output (and is stopped after five seconds without
//! any CPU progress), a learner's tests get ten minutes in all, its builds
//! five minutes in all,
//! 2 GiB of memory, 256 tasks, files of at most 256 MiB and 1 GiB of disk
//! in all, and the hidden suites are read from `grading/hidden/` when that
//! folder exists. Its `[platforms]` table says who sees what on the
//! platforms `grade-one` writes for ([`Platforms`], [`Visibility`]).

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Wall-clock backstop for one test, in seconds: a test still running
    /// then (asleep, or starved on a loaded machine) is stopped. The CPU
    /// limit is what judges a runaway test; keep this well above it.
    pub time_limit_secs: f64,
    /// CPU-time limit for one test, in seconds (RLIMIT_CPU).
    pub cpu_limit_secs: u64,
    /// Processes and threads one test may have at once (RLIMIT_NPROC).
    pub tasks_limit: u64,
    /// Wall-clock budget for building all of one learner's chapters (one
    /// cargo run), in seconds: a chapter not built when it is spent scores
    /// zero. Only the build spends it.
    pub build_limit_secs: u64,
    /// Wall-clock budget for running all of one learner's tests, in
    /// seconds: a test running when it is spent is stopped, and the tests
    /// after it are not run (each `over budget`).
    pub test_budget_secs: u64,
    /// Seconds a test's processes (judge and subject) may make no CPU
    /// progress, none waiting for the CPU or the disk, before the test is
    /// stopped as `idle`.
    pub idle_limit_secs: f64,
    /// Memory one learner's build may use, in MiB (`RLIMIT_DATA` on cargo
    /// and every compiler it starts).
    pub build_memory_mb: u64,
    /// The largest file one learner's build may write, in MiB
    /// (`RLIMIT_FSIZE`).
    pub build_file_mb: u64,
    /// What one learner's build may write to its target directory in all,
    /// in MiB (weighed while it runs).
    pub build_disk_mb: u64,
    /// Processes and threads one learner's build may have at once (the
    /// worker's cgroup `pids.max`, else `RLIMIT_NPROC` when not root).
    pub build_tasks: u64,
    /// Address-space limit for one test, in MiB (RLIMIT_AS).
    pub memory_limit_mb: u64,
    /// Bytes of stdout + stderr one test may print before it is stopped, in KiB.
    pub output_limit_kb: usize,
    /// Learners graded at once; 0 means one per core.
    pub jobs: usize,
    /// What the subject cache (`TARGET/subjects`: learners' chapters built
    /// once, reused on a regrade or a resubmission) may hold, in MiB; the
    /// least recently used go first, at the start of a run.
    pub subject_cache_mb: u64,
    /// The hidden suites' folder, relative to the workbook root; "" for none.
    pub hidden: String,
    /// A file outside the learners' repository holding the hidden suites'
    /// seed (one number), relative to the workbook root or absolute; ""
    /// draws a fresh seed per run (written into the report).
    /// `WORKBOOK_HIDDEN_SEED_FILE` wins over it.
    pub hidden_seed_file: String,
    /// Lint rules to relax, by id (`std::env`, `include_str`, `unsafe`, ...).
    pub allow: Vec<String>,
    /// Points per test, by `slug`, `slug/exercise` or `slug/full::test::name`;
    /// the most specific key wins, and a test no key names is worth 1.
    pub weights: BTreeMap<String, f64>,
    /// What `grade-one` writes for Gradescope, PrairieLearn and Classroom.
    pub platforms: Platforms,
}

/// Who sees a test's result on Gradescope (its four documented values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    Hidden,
    AfterDueDate,
    AfterPublished,
    Visible,
}

/// The `[platforms]` table.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Platforms {
    /// Who sees a hidden test's name, points and message on Gradescope.
    /// PrairieLearn and Classroom have no such setting: there a hidden
    /// test's message is shown only when this is `visible`.
    pub hidden_visibility: Visibility,
    /// The same for the public suite's tests.
    pub public_visibility: Visibility,
}

impl Default for Platforms {
    fn default() -> Self {
        Self {
            hidden_visibility: Visibility::AfterPublished,
            public_visibility: Visibility::Visible,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            time_limit_secs: 30.0,
            cpu_limit_secs: 5,
            tasks_limit: 64,
            build_limit_secs: 300,
            test_budget_secs: 600,
            idle_limit_secs: 5.0,
            build_memory_mb: 2048,
            build_file_mb: 256,
            build_disk_mb: 1024,
            build_tasks: 256,
            memory_limit_mb: 1024,
            output_limit_kb: 64,
            jobs: 0,
            subject_cache_mb: 2048,
            hidden: "grading/hidden".into(),
            hidden_seed_file: String::new(),
            allow: Vec::new(),
            weights: BTreeMap::new(),
            platforms: Default::default(),
        }
    }
}

impl Config {
    /// Reads `path`, or the default `grading/grading.toml` when it exists.
    pub fn load(root: &Path, path: Option<&Path>) -> Result<Self> {
        let default = root.join("grading").join("grading.toml");
        let path = match path {
            Some(p) => p.to_path_buf(),
            None if default.is_file() => default,
            None => return Ok(Self::default()),
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        toml::from_str(&text)
            .with_context(|| format!("{} is not a valid grading config", path.display()))
    }

    pub fn wall(&self) -> Duration {
        Duration::from_secs_f64(self.time_limit_secs.max(0.1))
    }

    pub fn idle(&self) -> Duration {
        Duration::from_secs_f64(self.idle_limit_secs.max(0.5))
    }

    pub fn jobs(&self) -> usize {
        if self.jobs > 0 {
            return self.jobs;
        }
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// The hidden suites' folder, if configured and present.
    pub fn hidden_dir(&self, root: &Path) -> Option<PathBuf> {
        let dir = root.join(&self.hidden);
        (!self.hidden.is_empty() && dir.is_dir()).then_some(dir)
    }

    /// Points for one test of chapter `slug`, exercise `exercise`.
    pub fn weight(&self, slug: &str, exercise: &str, test: &str) -> f64 {
        [
            format!("{slug}/{test}"),
            format!("{slug}/{exercise}"),
            slug.to_string(),
        ]
        .iter()
        .find_map(|k| self.weights.get(k).copied())
        .unwrap_or(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_grading_toml_states_the_defaults() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let shipped = Config::load(&root, Some(&root.join("grading/grading.toml"))).unwrap();
        assert_eq!(
            shipped,
            Config::default(),
            "grading/grading.toml documents every key at its default"
        );
    }

    #[test]
    fn the_platforms_table_defaults_to_after_published_for_hidden_tests() {
        let p: Platforms = toml::from_str("").unwrap();
        assert_eq!(p.hidden_visibility, Visibility::AfterPublished);
        let p: Platforms = toml::from_str("hidden_visibility = \"hidden\"").unwrap();
        assert_eq!(p.hidden_visibility, Visibility::Hidden);
        assert!(toml::from_str::<Platforms>("hidden_visibility = \"later\"").is_err());
    }
}
