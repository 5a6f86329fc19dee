//! One worker's own places: the folder its learner's copy goes in, the target
//! directory its builds write (links to the seed, kept between runs in a
//! slot it holds alone, see `seed.rs`), and its control group (see
//! `cgroup.rs`). Nothing here is shared with another worker, so workers
//! never wait for each other; the copy's folder is named after the run's
//! pid, so a dead run's leftovers are found and swept.

use crate::cgroup::Cgroup;
use crate::prepare::Ctx;
use crate::workspace::BuildBounds;
use anyhow::Result;
use std::path::PathBuf;

pub struct Worker {
    /// `TARGET/work/PID-wN`: the learner's throwaway copy.
    pub work: PathBuf,
    /// `TARGET/workers/wN`: the worker's build output.
    pub target: PathBuf,
    pub cgroup: Option<Cgroup>,
    /// The hold on `target`: its links to the seed are kept for the next
    /// run, what the builds wrote is removed when the worker is done.
    _slot: crate::seed::WorkerTarget,
}

impl Worker {
    /// Worker `index`'s places, its target directory linked to the seed.
    pub fn new(ctx: &Ctx, index: usize) -> Result<Self> {
        let base = ctx
            .target_dir
            .join("work")
            .join(format!("{}-w{index}", std::process::id()));
        let slot = ctx.seed.worker_target(&ctx.target_dir, index)?;
        let cgroup = ctx
            .cgroups
            .then(|| {
                Cgroup::create(
                    &crate::cgroup::worker_name(index),
                    ctx.config.build_memory_mb << 20,
                    ctx.config.build_tasks,
                )
                .ok()
            })
            .flatten();
        Ok(Self {
            work: base,
            target: slot.dir.clone(),
            cgroup,
            _slot: slot,
        })
    }

    /// The limits of one of this worker's learner builds.
    pub fn bounds<'a>(&'a self, ctx: &'a Ctx) -> BuildBounds<'a> {
        let tasks = ctx.config.build_tasks;
        // `RLIMIT_NPROC` counts every process of the uid, the grader's and
        // the user's own included: leave the build `tasks` more than now.
        // It does not bind root, and a cgroup counts the build's own.
        let nproc = match (&self.cgroup, crate::sandbox::effective_uid()) {
            (None, Some(uid)) if uid != 0 => crate::sandbox::user_tasks(uid) + tasks,
            _ => 0,
        };
        BuildBounds {
            self_exe: ctx.self_exe.clone(),
            data_bytes: ctx.config.build_memory_mb << 20,
            file_bytes: ctx.config.build_file_mb << 20,
            disk_bytes: ctx.config.build_disk_mb << 20,
            tasks,
            nproc,
            seed: &ctx.seed,
            cgroup: self.cgroup.as_ref(),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.work);
    }
}
