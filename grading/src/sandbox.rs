//! The kernel sandbox around every child process the grader starts.
//!
//! The problem: a learner's code runs twice on the grader's machine, inside
//! rustc (constant evaluation) and inside the test binaries. Whatever slips
//! past the intake's grammar must still be unable to see other learners, the
//! submissions, the report or the hidden suites' sources, to reach the
//! network, to write anywhere that outlives it, or to exhaust the machine's
//! task table. Debian's `bubblewrap` (`bwrap`) gives each child fresh mount,
//! PID, network, IPC and UTS namespaces with only the folders it needs bound
//! in; `--die-with-parent` plus the PID namespace mean that killing `bwrap`
//! kills everything inside. Tests also run under an unprivileged uid (a new
//! one per test run) with `RLIMIT_NPROC`, because the kernel does not apply that limit
//! to root. On a grading platform that runs each submission in a
//! container of its own and forbids the namespaces `bwrap` needs, the
//! container mode keeps everything but `bwrap` (see `Mode::Container`),
//! and is granted only where the machine looks like a container. State:
//! which mode was chosen, and the uids to use. Cost: one `bwrap` start (a
//! few milliseconds) per build and per test process, or, for a root
//! grader's tests, per learner-chapter and role (`spawner.rs`).

use anyhow::{Result, bail};
use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The first of the unprivileged uids tests run under. Each grading process
/// takes a block of `UID_BLOCK` uids by its pid, so two graders on one
/// machine (shards side by side) never share a task limit, and each test
/// run takes the next uid of the block in turn: a process that exits may
/// stay a zombie until the system's init reaps it (some inits reap late),
/// and it still counts against its uid's `RLIMIT_NPROC`.
const UID_BASE: u32 = 200_000;
const UID_BLOCK: u32 = 4096;

/// The judges' group: a root grader runs every judge with this gid, and
/// the judges' files (`closed.rs`) are readable by their owner and this
/// group alone, so a subject (its own uid and gid, no other group) cannot
/// read the suites, the reference linked into the hidden ones or their
/// build, even where it sees the whole file system (container mode).
pub const JUDGE_GID: u32 = UID_BASE - 1;

/// How children are contained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Inside `bwrap`.
    Bwrap,
    /// No `bwrap`: the container the platform gives each submission is the
    /// isolation (`--sandbox container`). Everything else stays: the judge
    /// and subject split, their rlimits, the subject's seccomp filter, a
    /// uid per test run when root, and a private temporary folder per test.
    Container,
    /// No sandbox: the instructor asked for it with `--no-sandbox`.
    Off,
}

impl Mode {
    /// Whether children run inside `bwrap` (otherwise each leads a process
    /// group of its own, killed as a group).
    pub fn bwrap(self) -> bool {
        self == Mode::Bwrap
    }
}

/// Whether the instructor asked for the container mode, and whether to
/// grant it on a machine that does not look like a container.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Container {
    #[default]
    No,
    Yes,
    Forced,
}

/// Whether `--sandbox container` may be granted, given what `evidence`
/// finds on this machine.
fn grant_container(
    container: Container,
    no_sandbox: bool,
    evidence: impl Fn() -> Option<String>,
) -> Result<()> {
    if no_sandbox {
        bail!("--sandbox container and --no-sandbox contradict each other: choose one");
    }
    if container == Container::Yes && evidence().is_none() {
        bail!(
            "--sandbox container: this machine does not look like a container (no /.dockerenv, \
             /run/.containerenv, `container` variable, container cgroup or overlay root), and \
             without bwrap a learner's code would run beside everything on it. Use bwrap here, \
             or pass --force-container if this really is a container of its own"
        );
    }
    Ok(())
}

/// Why this machine looks like a container, or None: `/.dockerenv`,
/// `/run/.containerenv` (podman), a `container` environment variable
/// (systemd-nspawn, podman), a container runtime in PID 1's cgroup, or a
/// root file system of type `overlay`.
pub fn container_evidence() -> Option<String> {
    for file in ["/.dockerenv", "/run/.containerenv"] {
        if Path::new(file).exists() {
            return Some(format!("{file} exists"));
        }
    }
    if let Some(v) = std::env::var_os("container").filter(|v| !v.is_empty()) {
        return Some(format!("container={}", v.to_string_lossy()));
    }
    let cgroup = std::fs::read_to_string("/proc/1/cgroup").unwrap_or_default();
    for hint in ["docker", "kubepods", "containerd", "libpod", "lxc", "ecs"] {
        if cgroup.contains(hint) {
            return Some(format!("PID 1's cgroup names {hint}"));
        }
    }
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    mounts
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.get(1) == Some(&"/") && f.get(2) == Some(&"overlay"))
        .map(|_| "the root file system is an overlay".to_string())
}

#[derive(Debug, Clone)]
pub struct Sandbox {
    pub mode: Mode,
    /// Whether the grader runs as root, so tests can drop to their own uid.
    root: bool,
}

impl Sandbox {
    /// Checks that `bwrap` can start here; without it grading refuses,
    /// unless the instructor turned the sandbox off explicitly.
    pub fn probe(no_sandbox: bool, container: Container) -> Result<Self> {
        let root = effective_uid() == Some(0);
        if container != Container::No {
            grant_container(container, no_sandbox, container_evidence)?;
            return Ok(Self {
                mode: Mode::Container,
                root,
            });
        }
        if no_sandbox {
            return Ok(Self {
                mode: Mode::Off,
                root,
            });
        }
        let ok = Command::new("bwrap")
            .args(["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent"])
            .arg("true")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output();
        match ok {
            Ok(out) if out.status.success() => Ok(Self {
                mode: Mode::Bwrap,
                root,
            }),
            Ok(out) => bail!(
                "the sandbox cannot start: `bwrap` failed ({}). Grading untrusted code needs it; \
                 fix it (e.g. allow unprivileged user namespaces) or pass --no-sandbox to grade without one",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            Err(e) => bail!(
                "the sandbox cannot start: `bwrap` was not found ({e}). Install it \
                 (`apt-get install bubblewrap`) or pass --no-sandbox to grade without one"
            ),
        }
    }

    /// Whether the grader runs as root: tests then run under uids of their
    /// own and judges in [`JUDGE_GID`].
    pub fn root(&self) -> bool {
        self.root
    }

    /// The gid a judge runs in, when the grader can switch ids.
    pub fn judge_gid(&self) -> Option<u32> {
        self.root.then_some(JUDGE_GID)
    }

    /// The uid test run number `run` runs under, when the grader can
    /// switch uid.
    pub fn test_uid(&self, run: usize) -> Option<u32> {
        let block = std::process::id() % 100_000;
        self.root
            .then(|| UID_BASE + block * UID_BLOCK + (run % UID_BLOCK as usize) as u32)
    }

    /// `program` (cargo), wrapped for a build in `work` that writes only
    /// `work` and `target` and sees `cargo`'s toolchain and `readonly` (the
    /// compiled dependencies a learner's build links to) read-only.
    pub fn build(
        &self,
        program: &Path,
        work: &Path,
        target: &Path,
        readonly: &[&Path],
        cargo: &Path,
    ) -> Command {
        if !self.mode.bwrap() {
            let mut cmd = Command::new(program);
            cmd.process_group(0);
            return cmd;
        }
        let mut cmd = Command::new("bwrap");
        base(&mut cmd, true);
        for dir in toolchain_dirs(cargo) {
            ro(&mut cmd, &dir);
        }
        for dir in readonly {
            ro(&mut cmd, dir);
        }
        rw(&mut cmd, work);
        rw(&mut cmd, target);
        cmd.arg("--chdir").arg(work).arg("--").arg(program);
        cmd
    }

    /// The words that wrap one test's command: `bwrap` and its binds, or
    /// nothing. The test sees `visible` and its crate folder `cwd`
    /// read-only, writes only `writable` (where libtest leaves its verdict)
    /// and a private /tmp; everything else of its root is read-only. `bwrap`
    /// runs as the grader's user, so it can bind folders inside private
    /// parents (a checkout under a 0700 home); the limiting re-exec of this
    /// program inside it (which must be in `visible`) then drops to the
    /// test's uid.
    pub fn test_prefix(&self, visible: &[PathBuf], writable: &Path, cwd: &Path) -> Vec<OsString> {
        if !self.mode.bwrap() {
            return Vec::new();
        }
        let mut cmd = Command::new("bwrap");
        base(&mut cmd, !self.root);
        open_parents(
            &mut cmd,
            visible.iter().map(PathBuf::as_path).chain([cwd, writable]),
        );
        for p in visible {
            ro(&mut cmd, p);
        }
        ro(&mut cmd, cwd);
        rw(&mut cmd, writable);
        cmd.args(["--remount-ro", "/"])
            .arg("--chdir")
            .arg(cwd)
            .arg("--");
        std::iter::once(OsString::from("bwrap"))
            .chain(cmd.get_args().map(OsString::from))
            .collect()
    }
}

impl Sandbox {
    /// The words that wrap a subject (the learner's code behind the wire):
    /// it sees `visible` (its binary, and this program to set its limits)
    /// and the system's libraries, all read-only; no /tmp, no /etc, no
    /// network, nothing writable.
    pub fn subject_prefix(&self, visible: &[PathBuf]) -> Vec<OsString> {
        if !self.mode.bwrap() {
            return Vec::new();
        }
        let mut cmd = Command::new("bwrap");
        namespaces(&mut cmd, !self.root);
        system_libraries(&mut cmd);
        cmd.args(["--proc", "/proc", "--dev", "/dev"]);
        open_parents(&mut cmd, visible.iter().map(PathBuf::as_path));
        for p in visible {
            ro(&mut cmd, p);
        }
        cmd.args(["--remount-ro", "/", "--chdir", "/", "--"]);
        std::iter::once(OsString::from("bwrap"))
            .chain(cmd.get_args().map(OsString::from))
            .collect()
    }
}

/// What every sandbox has: the system read-only, fresh namespaces, a
/// private /tmp, /proc and /dev of its own, and no network.
fn base(cmd: &mut Command, user_namespace: bool) {
    namespaces(cmd, user_namespace);
    ro(cmd, Path::new("/etc"));
    system_libraries(cmd);
    cmd.args(["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]);
}

/// Fresh namespaces, and death with the grader.
fn namespaces(cmd: &mut Command, user_namespace: bool) {
    if user_namespace {
        cmd.arg("--unshare-all");
    } else {
        // Root needs no user namespace, and must not have one: inside it the
        // test's uid would be unmapped, and `RLIMIT_NPROC` would count root.
        cmd.args([
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
        ]);
    }
    cmd.args(["--die-with-parent", "--new-session"]);
}

/// /usr read-only, and the top-level links or folders into it.
fn system_libraries(cmd: &mut Command) {
    ro(cmd, Path::new("/usr"));
    for dir in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
        let path = Path::new(dir);
        match std::fs::read_link(path) {
            Ok(to) => {
                cmd.arg("--symlink").arg(to).arg(path);
            }
            Err(_) if path.is_dir() => ro(cmd, path),
            Err(_) => {}
        }
    }
}

/// Creates every parent of `paths` in the sandbox as a plain 0755 folder:
/// bwrap would copy each parent's mode from the host, and a private parent
/// (a 0700 home or temporary folder) would lock the test's uid out.
fn open_parents<'a>(cmd: &mut Command, paths: impl Iterator<Item = &'a Path>) {
    let mut parents = std::collections::BTreeSet::new();
    for path in paths {
        parents.extend(path.ancestors().skip(1).filter(|a| a.parent().is_some()));
    }
    // A BTreeSet of paths lists every parent before its children.
    for dir in parents {
        cmd.args(["--perms", "0755", "--dir"]).arg(dir);
    }
}

fn ro(cmd: &mut Command, path: &Path) {
    cmd.arg("--ro-bind").arg(path).arg(path);
}

fn rw(cmd: &mut Command, path: &Path) {
    cmd.arg("--bind").arg(path).arg(path);
}

/// The folders cargo and rustc need: cargo's home (the dependency cache),
/// rustup's, and the folder the cargo binary itself lives in.
fn toolchain_dirs(program: &Path) -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".cargo")));
    let rustup_home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".rustup")));
    let mut dirs: Vec<PathBuf> = [cargo_home, rustup_home]
        .into_iter()
        .flatten()
        .filter(|d| d.is_dir())
        .collect();
    if let Some(parent) = program.parent().filter(|p| p.is_dir())
        && !dirs.iter().any(|d| parent.starts_with(d))
        && !parent.starts_with("/usr")
    {
        dirs.push(parent.to_path_buf());
    }
    dirs
}

/// This process's effective uid, read from /proc (no `unsafe` needed).
pub fn effective_uid() -> Option<u32> {
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

/// How many tasks (threads) the user `uid` runs now, for an `RLIMIT_NPROC`
/// that leaves a test `cap` more when the grader cannot switch uid.
pub fn user_tasks(uid: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| e.metadata().is_ok_and(|m| m.uid() == uid))
        .filter_map(|e| std::fs::read_dir(e.path().join("task")).ok())
        .map(|tasks| tasks.count() as u64)
        .sum()
}

/// Kills a child and everything it started: `bwrap`'s PID namespace dies
/// with it; without the sandbox the child leads its own process group.
pub fn kill_tree(child: &mut std::process::Child, mode: Mode) {
    if !mode.bwrap() {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    } else {
        // `bwrap`'s own child (the namespace's first process) dies with
        // it only once it has asked to (`--die-with-parent`): killed in
        // the moment between, it lives on as an orphan holding the test's
        // pipes. Its descendants are killed first, while they are listed.
        let mut found = Vec::new();
        descendants(child.id(), &mut found);
        for pid in found {
            if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
    }
    let _ = child.kill();
}

/// Every process under `pid` (`/proc/PID/task/*/children`), deepest last.
fn descendants(pid: u32, out: &mut Vec<u32>) {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return;
    };
    for t in tasks.flatten() {
        let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
        for c in children.split_whitespace().filter_map(|c| c.parse().ok()) {
            if out.len() < 4096 && !out.contains(&c) {
                out.push(c);
                descendants(c, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn container_mode_is_refused_outside_a_container_unless_forced() {
        let none = || None;
        let docker = || Some("/.dockerenv exists".to_string());
        let refused = grant_container(Container::Yes, false, none).unwrap_err();
        assert!(
            refused.to_string().contains("--force-container"),
            "{refused}"
        );
        assert!(grant_container(Container::Forced, false, none).is_ok());
        assert!(grant_container(Container::Yes, false, docker).is_ok());
        assert!(grant_container(Container::Forced, true, docker).is_err());
    }
}
