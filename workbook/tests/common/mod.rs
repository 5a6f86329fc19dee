//! What the grader's integration tests share: where the repository is, and
//! one `workbook grade` run with the settings every such test uses.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (the parent of `workbook/`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workbook/ has a parent")
        .to_path_buf()
}

/// Grades `subs` with the workbook at `root` into `out`, two learners at a
/// time, building in `target` (a folder of cargo's per-test scratch space, so
/// later runs only rebuild the learners' crates); panics with grade's
/// stderr if it fails.
pub fn grade(root: &Path, subs: &Path, out: &Path, target: &Path) {
    let run = Command::new(env!("CARGO_BIN_EXE_workbook"))
        .current_dir(root)
        .arg("grade")
        .arg(subs)
        .arg("--out")
        .arg(out)
        .arg("--target-dir")
        .arg(target)
        .args(["--jobs", "2"])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "grade failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
