//! What a platform's container lacks, found before grading starts.
//!
//! The problem: a grading image built without a tool the grader runs
//! (`rustfmt` left out of a minimal toolchain, `RUSTUP_HOME` not in the
//! entry point's environment so rustup's proxies find no toolchain, no C
//! linker) used to fail deep inside the preparation, and the learner saw
//! "0 of 0 points" as if the submission had been graded. So `grade-one`
//! runs each tool's `--version` first; anything missing makes the format's
//! error result (`gradable: false`, no points given or taken), whose first
//! line names the tools and why each failed. State: none. Cost: one short
//! process per tool (a few milliseconds each through rustup's proxies),
//! once per submission.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One tool the container cannot run, and what trying said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lack {
    pub tool: String,
    pub why: String,
}

/// The tools the grader runs: cargo and rustc build, rustfmt derives the
/// stubs, `cc` links (rustc's default linker driver), and `bwrap` when
/// the sandbox is not the container mode.
pub fn needed(bwrap: bool) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut tools = vec![cargo, "rustc".into(), "rustfmt".into(), "cc".into()];
    if bwrap {
        tools.push("bwrap".into());
    }
    tools
}

/// Each of `tools` that does not answer `TOOL --version` with success.
pub fn lacking(tools: &[String]) -> Vec<Lack> {
    tools.iter().filter_map(|t| probe(t)).collect()
}

fn probe(tool: &str) -> Option<Lack> {
    let out = Command::new(tool)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let why = match out {
        Ok(o) if o.status.success() => return None,
        Ok(o) => {
            let said = String::from_utf8_lossy(&o.stderr);
            let first = said.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            format!("`{tool} --version` failed ({}): {}", o.status, first.trim())
        }
        Err(e) => format!(
            "cannot run `{tool}`: {e} (PATH={})",
            std::env::var("PATH").unwrap_or_default()
        ),
    };
    Some(Lack {
        tool: tool.to_string(),
        why,
    })
}

/// The first folder on the way to `path` (itself included) that other
/// users cannot enter. In container mode a root grader runs each test as
/// an unprivileged uid, which must reach the workbook and the target
/// directory; behind a `0700` folder (a checkout under `mktemp -d`) every
/// test failed with "Permission denied" and the learner got 0 points.
pub fn closed_folder(path: &Path) -> Option<PathBuf> {
    // The target directory may not exist yet: its nearest folder that does.
    let path = path
        .ancestors()
        .find_map(|p| std::fs::canonicalize(p).ok())?;
    path.ancestors()
        .find(|dir| {
            std::fs::metadata(dir).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o001 == 0)
        })
        .map(Path::to_path_buf)
}

/// Why the tests' uids cannot reach `path` (the workbook or the target
/// directory), and what to do; None when they can.
pub fn unreachable(what: &str, path: &Path) -> Option<String> {
    let closed = closed_folder(path)?;
    let mode = std::fs::metadata(&closed).map_or(0, |m| m.permissions().mode() & 0o7777);
    Some(format!(
        "Not graded: the tests' unprivileged uids cannot reach the {what} {}: the folder {} \
         (mode {mode:04o}) is closed to other users. Open it (`chmod o+x {}`) or keep the \
         workbook and its target directory outside it.",
        path.display(),
        closed.display(),
        closed.display()
    ))
}

/// The first line of the error result, then one line per tool.
pub fn describe(lacks: &[Lack]) -> String {
    let names: Vec<&str> = lacks.iter().map(|l| l.tool.as_str()).collect();
    let mut s = format!(
        "Not graded: the grading container lacks {}.",
        names.join(", ")
    );
    for l in lacks {
        s.push_str(&format!("\n{}: {}", l.tool, l.why));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_that_is_not_installed_is_named_with_the_path_searched() {
        let lacks = lacking(&["workbook-no-such-tool".to_string(), "true".to_string()]);
        assert_eq!(lacks.len(), 1, "{lacks:?}");
        assert_eq!(lacks[0].tool, "workbook-no-such-tool");
        assert!(lacks[0].why.contains("PATH="), "{}", lacks[0].why);
    }

    #[test]
    fn a_tool_that_fails_is_named_with_its_first_error_line() {
        let lacks = lacking(&["false".to_string()]);
        assert_eq!(lacks.len(), 1);
        assert!(
            lacks[0].why.contains("`false --version` failed"),
            "{}",
            lacks[0].why
        );
    }

    #[test]
    fn the_first_line_names_every_lacking_tool() {
        let text = describe(&[
            Lack {
                tool: "rustfmt".into(),
                why: "no default".into(),
            },
            Lack {
                tool: "cc".into(),
                why: "not found".into(),
            },
        ]);
        assert_eq!(
            text.lines().next(),
            Some("Not graded: the grading container lacks rustfmt, cc.")
        );
        assert!(text.contains("rustfmt: no default"));
    }

    #[test]
    fn a_folder_closed_to_other_users_on_the_way_is_named() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let inner = tmp.path().join("a/b");
        std::fs::create_dir_all(&inner).expect("folders");
        let open = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(tmp.path(), open.clone()).expect("chmod");
        std::fs::set_permissions(tmp.path().join("a"), open).expect("chmod");
        assert_eq!(closed_folder(&inner), None);
        let closed = std::fs::Permissions::from_mode(0o700);
        std::fs::set_permissions(tmp.path().join("a"), closed).expect("chmod");
        let said = unreachable("workbook", &inner).expect("a closed folder");
        assert!(said.contains("mode 0700"), "{said}");
        assert!(
            said.contains(&format!("chmod o+x {}", tmp.path().join("a").display())),
            "{said}"
        );
    }

    #[test]
    fn the_tools_the_grader_runs_are_all_checked() {
        let tools = needed(true);
        for t in ["rustc", "rustfmt", "cc", "bwrap"] {
            assert!(tools.iter().any(|x| x == t), "{t} in {tools:?}");
        }
        assert!(!needed(false).iter().any(|x| x == "bwrap"));
    }
}
