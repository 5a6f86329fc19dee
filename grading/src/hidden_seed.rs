//! The hidden suites' seed: the secret their random inputs are drawn from.
//!
//! The problem: the hidden suites' sources ship in the repository every
//! learner clones (as examples of the mechanism), and an input generator
//! with a known seed is a table of inputs waiting to be written: a learner
//! who runs the generators and the reference once can hand in every hidden
//! answer. So the judges draw from a seed the learners never see: the
//! instructor's (a file outside the repository, named by the config's
//! `hidden_seed_file` or the environment's `WORKBOOK_HIDDEN_SEED_FILE`),
//! else one drawn afresh for the run and written into the instructor's
//! report, so a regrade can repeat it. The judges read it at run time from
//! `WORKBOOK_HIDDEN_SEED` (set for the judge's process alone, never the
//! subject's), so a new seed rebuilds nothing. Every shard of one class
//! must use one seed: a part graded with another is refused by `grade
//! merge` (the seed is part of the part's provenance). State: none beyond
//! the value. Cost: one small file read, or eight bytes of the kernel's
//! randomness.

use crate::config::Config;
use anyhow::{Context, Result};
use std::io::Read;
use std::path::{Path, PathBuf};

/// What the judge's process reads its seed from (`grading/hidden/rng.rs`).
pub const JUDGE_ENV: &str = "WORKBOOK_HIDDEN_SEED";

/// The environment variable that names the instructor's seed file (it
/// wins over the config's `hidden_seed_file`).
pub const FILE_ENV: &str = "WORKBOOK_HIDDEN_SEED_FILE";

/// The seed a run grades with, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenSeed {
    pub value: u64,
    /// The instructor's file, or None when drawn for this run.
    pub file: Option<PathBuf>,
}

impl HiddenSeed {
    /// The seed for a run in the workbook `root` under `config`: the
    /// instructor's file, else a fresh one.
    pub fn choose(root: &Path, config: &Config) -> Result<Self> {
        let named = std::env::var_os(FILE_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                (!config.hidden_seed_file.is_empty()).then(|| root.join(&config.hidden_seed_file))
            });
        match named {
            Some(file) => Ok(Self {
                value: read(&file)?,
                file: Some(file),
            }),
            None => Ok(Self {
                value: drawn()?,
                file: None,
            }),
        }
    }

    /// Fails when the instructor's file can be read by users other than
    /// its owner and group: in container mode the tests' uids see the
    /// whole file system, and a learner's code reading the seed would know
    /// every hidden input.
    pub fn closed_to_others(&self) -> Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let Some(file) = &self.file else {
            return Ok(());
        };
        let mode = std::fs::metadata(file)
            .with_context(|| format!("cannot read the hidden seed file {}", file.display()))?
            .permissions()
            .mode();
        if mode & 0o004 != 0 {
            anyhow::bail!(
                "the hidden seed file {} can be read by every user (mode {:o}): in container mode the \
                 tests' uids see the whole file system. Close it (`chmod 600 {}`)",
                file.display(),
                mode & 0o777,
                file.display()
            );
        }
        Ok(())
    }

    /// The line the instructor's report (and the run's log) gives it.
    pub fn describe(&self) -> String {
        match &self.file {
            Some(f) => format!(
                "Hidden inputs drawn from seed {} (read from {}).",
                self.value,
                f.display()
            ),
            None => format!(
                "Hidden inputs drawn from seed {}, chosen for this run: to regrade with the same inputs, \
                 write it into a file outside the learners' repository and name that file in \
                 `hidden_seed_file` (grading.toml) or {FILE_ENV}.",
                self.value
            ),
        }
    }
}

/// The seed in `file`: one unsigned decimal number.
fn read(file: &Path) -> Result<u64> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the hidden seed file {}", file.display()))?;
    let value = text.trim();
    value.parse::<u64>().map_err(|_| {
        anyhow::anyhow!(
            "{}: a hidden seed file holds one unsigned decimal number (0 to {}), not `{}`",
            file.display(),
            u64::MAX,
            value.chars().take(40).collect::<String>()
        )
    })
}

/// Eight bytes of the kernel's randomness.
fn drawn() -> Result<u64> {
    let mut bytes = [0u8; 8];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .context("cannot draw a hidden seed from /dev/urandom")?;
    Ok(u64::from_le_bytes(bytes))
}

/// Warnings for an instructor whose hidden suites or seed file lie in the
/// learners' repository (`root`), where learners can read them.
pub fn warnings(root: &Path, hidden: Option<&Path>, seed: &HiddenSeed) -> Vec<String> {
    let inside = |p: &Path| {
        let (Ok(p), Ok(r)) = (p.canonicalize(), root.canonicalize()) else {
            return false;
        };
        p.starts_with(r)
    };
    let mut said = Vec::new();
    if let Some(h) = hidden.filter(|h| inside(h)) {
        said.push(format!(
            "the hidden suites ({}) are in the learners' repository: learners can read how their \
             inputs are made and what they check; keep your own outside it and point `hidden` at them",
            h.display()
        ));
    }
    if let Some(f) = seed.file.as_deref().filter(|f| inside(f)) {
        said.push(format!(
            "the hidden seed file ({}) is in the learners' repository: a learner who reads it can \
             compute every hidden input; keep it outside",
            f.display()
        ));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_file_holds_one_number_and_anything_else_is_named_as_the_error() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("seed");
        std::fs::write(&good, "  1234567890123\n").unwrap();
        assert_eq!(read(&good).unwrap(), 1_234_567_890_123);
        let bad = dir.path().join("bad");
        std::fs::write(&bad, "forty-two").unwrap();
        let e = format!("{:#}", read(&bad).unwrap_err());
        assert!(e.contains("bad") && e.contains("forty-two"), "{e}");
        assert!(read(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn a_seed_file_or_suites_inside_the_repository_are_warned_about() {
        let repo = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let hidden = repo.path().join("grading/hidden");
        std::fs::create_dir_all(&hidden).unwrap();
        let inside_seed = repo.path().join("seed");
        std::fs::write(&inside_seed, "7").unwrap();
        let seed = HiddenSeed {
            value: 7,
            file: Some(inside_seed),
        };
        let said = warnings(repo.path(), Some(&hidden), &seed);
        assert_eq!(said.len(), 2, "{said:?}");
        let away = HiddenSeed {
            value: 7,
            file: Some(outside.path().join("seed")),
        };
        assert!(warnings(repo.path(), Some(outside.path()), &away).is_empty());
    }

    #[test]
    fn without_a_file_each_run_draws_its_own_seed_and_says_how_to_repeat_it() {
        let a = drawn().unwrap();
        let b = drawn().unwrap();
        assert_ne!(a, b, "two draws of 64 random bits");
        let s = HiddenSeed {
            value: a,
            file: None,
        };
        assert!(s.describe().contains(&a.to_string()) && s.describe().contains(FILE_ENV));
    }
}
