//! Grading a course in shards, and merging the parts into one gradebook.
//!
//! The problem: a course of thousands of submissions outgrows one machine,
//! and instructors already run an engine that fans work out (a CI matrix, a
//! Slurm array, a Kubernetes Indexed Job). `grade --shard I/N` grades the
//! learners whose id hashes to shard I (a SHA-256 of the id, so adding a
//! learner never moves another between shards) and writes, beside the usual
//! per-learner files, `part.json`: a manifest (the class, the shard, the
//! workbook commit, digests of the workbook's graded files, the config and
//! the hidden suites) with the graded cases and results. `grade merge`
//! checks that every part was graded by the same workbook, config,
//! hidden suites and hidden seed, that every learner of the class is in exactly one part,
//! then writes the gradebook exactly as an unsharded run would. State: none
//! beyond the files. Cost: one hash per learner; merging reads the parts.

use crate::config::Config;
use crate::hidden_seed::HiddenSeed;
use crate::record::{Case, LearnerResult};
use crate::report;
use crate::results::Results;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use workbook_core::info::Chapter;

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let bad = || format!("`{s}` is not a shard: write I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<usize>().map_err(|_| bad())?,
            n.trim().parse::<usize>().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether learner `id` is graded by this shard.
    pub fn holds(&self, id: &str) -> bool {
        let hash = Sha256::digest(id.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&hash[..8]);
        (u64::from_be_bytes(first) % self.count as u64) as usize == self.index - 1
    }
}

/// What a part was graded with; two parts merge only if these agree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// `git rev-parse HEAD` of the workbook, or "unknown" outside git.
    pub commit: String,
    /// SHA-256 over the files the grader copies into its pristine workspace.
    pub workbook_digest: String,
    /// SHA-256 of the effective config (limits, weights, allowances).
    pub config_digest: String,
    /// SHA-256 over the hidden suites' files ("" when there are none).
    pub hidden_digest: String,
    /// The seed the hidden suites drew their inputs from.
    pub hidden_seed: u64,
    /// The file it was read from (None: drawn for the run); for the
    /// report only, since shards on different machines may keep it apart.
    pub hidden_seed_file: Option<PathBuf>,
}

/// One shard's output: `PART/part.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Part {
    pub shard: Shard,
    /// Every learner id of the class, so a merge can tell one is missing.
    pub class: Vec<String>,
    pub provenance: Provenance,
    pub config: Config,
    pub cases: Vec<Case>,
    pub results: Vec<LearnerResult>,
}

impl Provenance {
    pub fn of(
        root: &Path,
        config: &Config,
        hidden: Option<&Path>,
        seed: &HiddenSeed,
    ) -> Result<Self> {
        let commit = std::process::Command::new("git")
            .current_dir(root)
            .args(["rev-parse", "HEAD"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown".into());
        let mut files = Vec::new();
        for part in [
            "Cargo.toml",
            "Cargo.lock",
            // The suites read the core too (`tests/support.rs` includes
            // `core/src/lang.rs`), so a part graded against another core
            // is another workbook.
            "core",
            "exercises",
            "solutions",
            "tests",
        ] {
            list(&root.join(part), &mut files)?;
        }
        let mut hidden_files = Vec::new();
        if let Some(h) = hidden {
            list(h, &mut hidden_files)?;
        }
        Ok(Provenance {
            commit,
            workbook_digest: digest_files(root, &files)?,
            config_digest: hex(&Sha256::digest(serde_json::to_vec(config)?)),
            hidden_digest: match hidden {
                Some(h) => digest_files(h, &hidden_files)?,
                None => String::new(),
            },
            hidden_seed: seed.value,
            hidden_seed_file: seed.file.clone(),
        })
    }
}

/// Writes `out/part.json`.
pub fn write_part(out: &Path, part: &Part) -> Result<()> {
    let text = serde_json::to_string(part)?;
    std::fs::write(out.join("part.json"), text)
        .with_context(|| format!("cannot write {}", out.join("part.json").display()))
}

/// `grader grade merge PART... --out REPORT`.
pub fn merge(chapters: &[Chapter], parts: &[PathBuf], out: &Path) -> Result<()> {
    let mut loaded: Vec<(PathBuf, Part)> = Vec::new();
    for dir in parts {
        let file = dir.join("part.json");
        let text = std::fs::read_to_string(&file).with_context(|| {
            format!(
                "{}: no part.json (was it written by `grade --shard`?)",
                dir.display()
            )
        })?;
        let part: Part = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a grading part", file.display()))?;
        loaded.push((dir.clone(), part));
    }
    let Some(((first_dir, first), rest)) = loaded.split_first() else {
        bail!("grade merge needs at least one part");
    };
    for (dir, p) in rest {
        let differs = |what: &str| {
            anyhow::anyhow!(
                "{} was graded with a different {what} than {}; grade every shard with the same workbook, config and hidden suites",
                dir.display(),
                first_dir.display()
            )
        };
        if p.provenance.commit != first.provenance.commit
            || p.provenance.workbook_digest != first.provenance.workbook_digest
        {
            return Err(differs("workbook"));
        }
        if p.provenance.config_digest != first.provenance.config_digest || p.config != first.config
        {
            return Err(differs("config"));
        }
        if p.provenance.hidden_digest != first.provenance.hidden_digest {
            return Err(differs("set of hidden suites"));
        }
        if p.provenance.hidden_seed != first.provenance.hidden_seed {
            return Err(differs(
                "hidden seed (give every shard the same `hidden_seed_file`)",
            ));
        }
        if p.cases != first.cases {
            return Err(differs("list of graded tests"));
        }
        if p.class != first.class || p.shard.count != first.shard.count {
            return Err(differs("class (submissions folder or shard count)"));
        }
    }
    let mut owner: BTreeMap<&str, &Path> = BTreeMap::new();
    for (dir, p) in &loaded {
        for r in &p.results {
            if let Some(other) = owner.insert(&r.name, dir) {
                bail!(
                    "learner {} is graded twice: in {} and in {}",
                    r.name,
                    other.display(),
                    dir.display()
                );
            }
        }
    }
    let missing: Vec<&String> = first
        .class
        .iter()
        .filter(|id| !owner.contains_key(id.as_str()))
        .collect();
    if !missing.is_empty() {
        bail!(
            "{} learner(s) of the class are in no part (a shard is missing?): {}",
            missing.len(),
            missing
                .iter()
                .take(10)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let (cases, config) = (first.cases.clone(), first.config.clone());
    let seed = HiddenSeed {
        value: first.provenance.hidden_seed,
        file: first.provenance.hidden_seed_file.clone(),
    };
    let mut records: Vec<LearnerResult> = loaded.into_iter().flat_map(|(_, p)| p.results).collect();
    records.sort_by(|a, b| a.name.cmp(&b.name));
    let results: Vec<Results> = records
        .iter()
        .map(|r| Results::of(&cases, chapters, r))
        .collect();
    // Written beside `out` and moved into place whole, like a run's report.
    let staging = crate::staging::Staging::beside(out)?;
    for r in &results {
        crate::interrupt::check()?;
        report::write_learner(staging.dir(), r)?;
    }
    report::write_class(staging.dir(), &cases, chapters, &config, &seed, &results)?;
    crate::interrupt::check()?;
    staging.commit()?;
    println!(
        "merged {} part(s), {} learner(s): wrote {}",
        parts.len(),
        results.len(),
        out.join("grades.csv").display()
    );
    Ok(())
}

fn list(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    if meta.is_file() {
        out.push(path.to_path_buf());
    } else if meta.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.file_name().is_some_and(|n| n != "target"))
            .collect();
        entries.sort();
        for e in entries {
            list(&e, out)?;
        }
    }
    Ok(())
}

fn digest_files(base: &Path, files: &[PathBuf]) -> Result<String> {
    let mut h = Sha256::new();
    for f in files {
        let rel = f.strip_prefix(base).unwrap_or(f);
        h.update(rel.to_string_lossy().as_bytes());
        h.update([0]);
        h.update(std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?);
        h.update([0]);
    }
    Ok(hex(&h.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
