//! The grader's two internal re-executions: `grader __limited` (a test's
//! process, the judge or the subject) and `grader __limited-build` (a
//! learner's build), each of which sets limits on itself and then becomes
//! the program it was given.
//!
//! The problem: a child must start under its limits (and, for a build,
//! inside its worker's control groups) before its first instruction, and
//! setting them between `fork` and `exec` needs an `unsafe` `pre_exec`
//! hook. So the grader runs its own copy, which calls `setrlimit` (a safe
//! API), joins the groups, drops to the test's uid and `exec`s the program,
//! which inherits all of it. The limits travel as command-line arguments:
//! each set is one type here ([`TestLimits`], [`BuildLimits`]) with one
//! encoding, `to_args` for the grader that starts the child (`exec.rs`,
//! `workspace.rs`) and `from_args` for the copy that reads them, so the
//! writer and the reader cannot drift apart (a unit test round-trips them).
//! State: none. Cost: one `exec` more per test process and per build.

use anyhow::{Context, Result, anyhow, bail};
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::str::FromStr;

/// The command word of a test process's re-execution (hidden in `cli.rs`).
pub const TEST_COMMAND: &str = "__limited";
/// The command word of a learner's build's re-execution.
pub const BUILD_COMMAND: &str = "__limited-build";

/// What `__limited` sets on one test's process before it becomes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestLimits {
    /// Standard input is this process's end of the judge-subject socket:
    /// it moves to a descriptor of its own, named to the program in
    /// `WORKBOOK_WIRE_FD`, and standard input becomes `/dev/null`.
    pub wire: bool,
    /// Address space (`RLIMIT_AS`).
    pub memory_bytes: u64,
    /// CPU time (`RLIMIT_CPU`; the hard limit is a second above).
    pub cpu_secs: u64,
    /// Processes and threads of the uid at once (`RLIMIT_NPROC`).
    pub tasks: u64,
    /// The uid to run as; None keeps the grader's.
    pub uid: Option<u32>,
    /// The gid to run as with `uid`; None for the uid's own number. A
    /// judge runs in the judges' group (`sandbox::JUDGE_GID`), which alone
    /// may read the judges' files; a subject never does.
    pub gid: Option<u32>,
}

/// What `__limited-build` sets on a learner's build before it becomes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildLimits {
    /// Heap and private mappings per process (`RLIMIT_DATA`).
    pub data_bytes: u64,
    /// The largest file (`RLIMIT_FSIZE`).
    pub file_bytes: u64,
    /// `RLIMIT_NPROC`; 0 for none (a control group counts the tasks, or
    /// the grader is root, whom it does not bind).
    pub nproc: u64,
    /// The `cgroup.procs` files of the worker's groups, joined first.
    pub cgroups: Vec<PathBuf>,
}

impl TestLimits {
    const USAGE: &'static str =
        "usage: grader __limited [--wire] BYTES CPU_SECS TASKS UID[:GID]|- PROGRAM [ARGS...]";

    /// The arguments after the command word, up to the program.
    pub fn to_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        if self.wire {
            args.push("--wire".into());
        }
        args.push(self.memory_bytes.to_string().into());
        args.push(self.cpu_secs.to_string().into());
        args.push(self.tasks.to_string().into());
        let ids = match (self.uid, self.gid) {
            (None, _) => "-".to_string(),
            (Some(u), None) => u.to_string(),
            (Some(u), Some(g)) => format!("{u}:{g}"),
        };
        args.push(ids.into());
        args
    }

    /// The limits, and the program with its arguments, from what follows
    /// the command word.
    pub fn from_args(args: &[String]) -> Result<(Self, &[String])> {
        let (wire, args) = match args {
            [flag, rest @ ..] if flag == "--wire" => (true, rest),
            _ => (false, args),
        };
        let [bytes, cpu, tasks, uid, program @ ..] = args else {
            bail!("{}", Self::USAGE);
        };
        if program.is_empty() {
            bail!("no PROGRAM to run ({})", Self::USAGE);
        }
        let (uid, gid) = match uid.split_once(':') {
            _ if uid == "-" => (None, None),
            None => (Some(number::<u32>("UID", uid, Self::USAGE)?), None),
            Some((u, g)) => (
                Some(number::<u32>("UID", u, Self::USAGE)?),
                Some(number::<u32>("GID", g, Self::USAGE)?),
            ),
        };
        let limits = TestLimits {
            wire,
            memory_bytes: number("BYTES", bytes, Self::USAGE)?,
            cpu_secs: number("CPU_SECS", cpu, Self::USAGE)?,
            tasks: number("TASKS", tasks, Self::USAGE)?,
            uid,
            gid,
        };
        Ok((limits, program))
    }

    /// Sets these limits on this process (and drops to the uid, and places
    /// the wire) as `cmd` is `exec`ed.
    fn apply(&self, cmd: &mut Command) -> Result<()> {
        self.set_rlimits()?;
        if self.wire {
            let fd = wire_fd().context("cannot place the wire")?;
            cmd.env("WORKBOOK_WIRE_FD", fd.to_string())
                .stdin(Stdio::null());
        }
        self.set_ids(cmd);
        Ok(())
    }

    /// Sets the limits on this process: every child it starts after
    /// inherits them (a spawner sets them on itself, then starts the test
    /// under them, see `spawner.rs`).
    pub fn set_rlimits(&self) -> Result<()> {
        let (bytes, cpu, tasks) = (self.memory_bytes, self.cpu_secs, self.tasks);
        let set = [
            (rlimit::Resource::AS, bytes, bytes),
            (rlimit::Resource::CPU, cpu, cpu + 1),
            (rlimit::Resource::NPROC, tasks, tasks),
            (rlimit::Resource::CORE, 0, 0),
            (rlimit::Resource::FSIZE, 1 << 20, 1 << 20),
        ];
        for (res, soft, hard) in set {
            rlimit::setrlimit(res, soft, hard).with_context(|| format!("cannot set {res:?}"))?;
        }
        Ok(())
    }

    /// Makes `cmd` run as the test's uid and gid, when given.
    pub fn set_ids(&self, cmd: &mut Command) {
        if let Some(uid) = self.uid {
            // std drops the supplementary groups too when root switches uid.
            cmd.uid(uid).gid(self.gid.unwrap_or(uid));
        }
    }
}

impl BuildLimits {
    const USAGE: &'static str = "usage: grader __limited-build DATA_BYTES FILE_BYTES NPROC [--cgroup PROCS_FILE]... -- PROGRAM [ARGS...]";

    /// The arguments after the command word, up to the program (the last
    /// is `--`).
    pub fn to_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec![
            self.data_bytes.to_string().into(),
            self.file_bytes.to_string().into(),
            self.nproc.to_string().into(),
        ];
        for f in &self.cgroups {
            args.push("--cgroup".into());
            args.push(f.clone().into_os_string());
        }
        args.push("--".into());
        args
    }

    /// The limits, and the program with its arguments, from what follows
    /// the command word.
    pub fn from_args(args: &[String]) -> Result<(Self, &[String])> {
        let split = args
            .iter()
            .position(|a| a == "--")
            .ok_or_else(|| anyhow!("no `--` before the PROGRAM ({})", Self::USAGE))?;
        let (head, program) = (&args[..split], &args[split + 1..]);
        let [data, file, nproc, flags @ ..] = head else {
            bail!("{}", Self::USAGE);
        };
        if program.is_empty() {
            bail!("no PROGRAM to run ({})", Self::USAGE);
        }
        let mut cgroups = Vec::new();
        let mut words = flags.iter();
        while let Some(w) = words.next() {
            match (w.as_str(), words.next()) {
                ("--cgroup", Some(f)) => cgroups.push(PathBuf::from(f)),
                ("--cgroup", None) => bail!("--cgroup needs a PROCS_FILE ({})", Self::USAGE),
                (other, _) => bail!("unexpected `{other}` ({})", Self::USAGE),
            }
        }
        let limits = BuildLimits {
            data_bytes: number("DATA_BYTES", data, Self::USAGE)?,
            file_bytes: number("FILE_BYTES", file, Self::USAGE)?,
            nproc: number("NPROC", nproc, Self::USAGE)?,
            cgroups,
        };
        Ok((limits, program))
    }

    /// Joins the groups and sets these limits on this process.
    fn apply(&self) -> Result<()> {
        crate::cgroup::join(&self.cgroups)?;
        let mut set = vec![
            (rlimit::Resource::DATA, self.data_bytes),
            (rlimit::Resource::FSIZE, self.file_bytes),
            (rlimit::Resource::CORE, 0),
        ];
        if self.nproc > 0 {
            set.push((rlimit::Resource::NPROC, self.nproc));
        }
        for (res, limit) in set {
            rlimit::setrlimit(res, limit, limit).with_context(|| format!("cannot set {res:?}"))?;
        }
        Ok(())
    }
}

/// `text` as the number argument `name`, or an error naming both.
fn number<T: FromStr>(name: &str, text: &str, usage: &str) -> Result<T> {
    text.parse()
        .map_err(|_| anyhow!("{name} must be a number, not `{text}` ({usage})"))
}

/// `grader __limited [--wire] BYTES CPU_SECS TASKS UID|- PROGRAM ARGS...`:
/// sets the limits on this process, drops to UID (when given), then
/// becomes PROGRAM (exec), which inherits them.
pub fn limited_exec(args: &[String]) -> ExitCode {
    let (limits, program) = match TestLimits::from_args(args) {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(TEST_COMMAND, &e),
    };
    let mut cmd = Command::new(&program[0]);
    cmd.args(&program[1..]);
    if let Err(e) = limits.apply(&mut cmd) {
        eprintln!("{TEST_COMMAND}: {e:#}");
        return ExitCode::from(2);
    }
    let err = cmd.exec();
    eprintln!("{TEST_COMMAND}: cannot run {}: {err}", program[0]);
    ExitCode::from(127)
}

/// `grader __limited-build DATA_BYTES FILE_BYTES NPROC [--cgroup PROCS]...
/// -- PROGRAM ARGS...`: a learner's build (the sandbox, cargo and every
/// compiler it starts inherit all of it) under a memory limit per process
/// (`RLIMIT_DATA`: heap and private mappings, which a constant evaluated
/// without end or a huge static fill), a file size limit, a task limit
/// (`RLIMIT_NPROC`, unless NPROC is 0), no core dumps, and inside the
/// worker's control groups (which cap the build's memory and tasks as a
/// whole), joined here, before the build's first instruction.
pub fn limited_build_exec(args: &[String]) -> ExitCode {
    let (limits, program) = match BuildLimits::from_args(args) {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(BUILD_COMMAND, &e),
    };
    if let Err(e) = limits.apply() {
        eprintln!("{BUILD_COMMAND}: {e:#}");
        return ExitCode::from(2);
    }
    let err = Command::new(&program[0]).args(&program[1..]).exec();
    eprintln!("{BUILD_COMMAND}: cannot run {}: {err}", program[0]);
    ExitCode::from(127)
}

fn usage_error(command: &str, e: &anyhow::Error) -> ExitCode {
    eprintln!("{command}: {e:#}");
    ExitCode::from(2)
}

/// Standard input duplicated to a descriptor (3 or above) that survives
/// `exec`, for the wire; its number.
fn wire_fd() -> std::io::Result<i32> {
    use std::os::fd::IntoRawFd;
    let fd = rustix::io::fcntl_dupfd_cloexec(std::io::stdin(), 3)?;
    rustix::io::fcntl_setfd(&fd, rustix::io::FdFlags::empty())?;
    // Left open on purpose: the program exec'd next owns it.
    Ok(fd.into_raw_fd())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the reader is handed: the writer's arguments, then the program.
    fn argv(args: Vec<OsString>, program: &[&str]) -> Vec<String> {
        args.into_iter()
            .map(|a| a.into_string().unwrap())
            .chain(program.iter().map(|p| p.to_string()))
            .collect()
    }

    #[test]
    fn test_limits_read_back_as_written_with_the_program_untouched() {
        // The judge's own arguments look like flags, and one is `--`.
        let program = [
            "/bin/judge",
            "--logfile",
            "/v/verdict",
            "--exact",
            "a::b",
            "--",
        ];
        for limits in [
            TestLimits {
                wire: true,
                memory_bytes: 1 << 30,
                cpu_secs: 5,
                tasks: 64,
                uid: Some(60_001),
                gid: None,
            },
            TestLimits {
                wire: true,
                memory_bytes: 1 << 30,
                cpu_secs: 5,
                tasks: 64,
                uid: Some(60_001),
                gid: Some(199_999),
            },
            TestLimits {
                wire: false,
                memory_bytes: 0,
                cpu_secs: u64::MAX,
                tasks: 1,
                uid: None,
                gid: None,
            },
        ] {
            let args = argv(limits.to_args(), &program);
            let (back, rest) = TestLimits::from_args(&args).unwrap();
            assert_eq!(back, limits);
            assert_eq!(rest, program);
        }
    }

    #[test]
    fn build_limits_read_back_as_written_with_the_program_untouched() {
        let program = [
            "/usr/bin/bwrap",
            "--bind",
            "/a",
            "/a",
            "--",
            "cargo",
            "build",
        ];
        for cgroups in [vec![], vec![PathBuf::from("/sys/fs/cgroup/g/cgroup.procs")]] {
            let limits = BuildLimits {
                data_bytes: 2 << 30,
                file_bytes: 256 << 20,
                nproc: 0,
                cgroups: cgroups.clone(),
            };
            let args = argv(limits.to_args(), &program);
            let (back, rest) = BuildLimits::from_args(&args).unwrap();
            assert_eq!(back, limits);
            assert_eq!(rest, program);
        }
    }

    #[test]
    fn a_bad_argument_is_named() {
        let err = |args: &[&str], test: bool| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let e = if test {
                TestLimits::from_args(&args).map(|_| ()).unwrap_err()
            } else {
                BuildLimits::from_args(&args).map(|_| ()).unwrap_err()
            };
            format!("{e:#}")
        };
        let e = err(&["1024", "5x", "64", "-", "/bin/t"], true);
        assert!(e.starts_with("CPU_SECS must be a number, not `5x`"), "{e}");
        let e = err(&["1024", "5", "64", "root", "/bin/t"], true);
        assert!(e.starts_with("UID must be a number, not `root`"), "{e}");
        let e = err(&["1024", "5", "64", "-"], true);
        assert!(e.starts_with("no PROGRAM"), "{e}");
        let e = err(&["1", "2", "3", "cargo"], false);
        assert!(e.starts_with("no `--` before the PROGRAM"), "{e}");
        let e = err(&["1", "2", "3", "--cgroup"], false);
        assert!(e.contains("no `--`"), "{e}");
        let e = err(&["1", "2", "3", "--cgroup", "--", "cargo"], false);
        assert!(e.starts_with("--cgroup needs a PROCS_FILE"), "{e}");
        let e = err(&["1", "2", "3", "--jobs", "4", "--", "cargo"], false);
        assert!(e.starts_with("unexpected `--jobs`"), "{e}");
        let e = err(&["1", "-2", "3", "--", "cargo"], false);
        assert!(
            e.starts_with("FILE_BYTES must be a number, not `-2`"),
            "{e}"
        );
    }
}
