//! The judges' files, closed to every uid a subject can run under.
//!
//! The problem: in container mode a test's processes see the container's
//! whole file system, and the judges' files were world-readable there: the
//! prepared class (`TARGET/prepared/KEY/`, the suites' sources, the hidden
//! suites and the judges' binaries, the reference linked into the hidden
//! ones), the judges' build (`TARGET/debug`: the same binaries, the
//! reference's compiled units) and the kept pristine copy
//! (`TARGET/pristine`). Only the subject's seccomp filter kept a learner's
//! code from reading them, and where seccomp is not available nothing did.
//! Here a root grader (the only one that runs tests under uids of their
//! own) hands those trees to root and the judges' group
//! ([`JUDGE_GID`]) and takes every permission away from other users:
//! a judge runs with that gid and reads them, a subject (its own uid and
//! gid, no supplementary group) is refused by the kernel's permission
//! checks, whatever its filter. Done by every root run once its prepared
//! class is ready, since a platform's setup may open the target folder to
//! every user after `grade prepare` (`chmod -R a+rX`). State: none but the
//! files' owners and modes. Cost: one `lchown` and one `chmod` per file of
//! those trees (a few thousand, tens of milliseconds).

use crate::sandbox::JUDGE_GID;
use anyhow::{Context, Result};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The folders of a target directory that hold what only judges may read.
pub const JUDGE_TREES: &[&str] = &["prepared", "debug", "pristine"];

/// Closes the judges' trees of `target` to other users: owner root, group
/// [`JUDGE_GID`], the group's bits the owner's minus writing, no bits for
/// others. Links are handed over, never followed.
pub fn close(target: &Path) -> Result<()> {
    for tree in JUDGE_TREES {
        let dir = target.join(tree);
        if dir.symlink_metadata().is_ok() {
            walk(&dir).with_context(|| {
                format!(
                    "cannot close the judges' files in {} to other users",
                    dir.display()
                )
            })?;
        }
    }
    Ok(())
}

/// `mode` closed: the owner's bits, the group's the owner's reading and
/// entering (never writing), none for others; set-id bits dropped, the
/// sticky bit kept.
fn closed_mode(mode: u32) -> u32 {
    let owner = mode & 0o700;
    (mode & 0o1000) | owner | ((owner >> 3) & 0o050)
}

fn walk(path: &Path) -> Result<()> {
    let meta = path
        .symlink_metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    std::os::unix::fs::lchown(path, Some(0), Some(JUDGE_GID))
        .with_context(|| format!("cannot hand {} to the judges' group", path.display()))?;
    if meta.file_type().is_symlink() {
        return Ok(());
    }
    let mode = meta.permissions().mode() & 0o7777;
    let closed = closed_mode(mode);
    if closed != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(closed))
            .with_context(|| format!("cannot change the mode of {}", path.display()))?;
    }
    if meta.is_dir() {
        for entry in
            std::fs::read_dir(path).with_context(|| format!("cannot list {}", path.display()))?
        {
            walk(&entry?.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_gets_the_owners_reading_and_others_get_nothing() {
        // Only the mode arithmetic: handing files to root needs root.
        let close = closed_mode;
        assert_eq!(close(0o755), 0o750);
        assert_eq!(close(0o644), 0o640);
        assert_eq!(close(0o600), 0o640);
        assert_eq!(close(0o777), 0o750);
        assert_eq!(close(0o4755), 0o750);
        assert_eq!(close(0o1777), 0o1750);
    }
}
