//! Stopping a grading run on Ctrl-C (SIGINT) or SIGTERM without leaving
//! anything behind.
//!
//! The problem: a run interrupted by default dies at once, leaving its
//! sandboxed children running a moment longer, its work folders under the
//! target directory and a half-written report that looks like a gradebook.
//! Here the signal only sets a number; the workers poll it (between
//! learners, chapters and tests, and in the loops that wait for a build or
//! a test, which then kill the child with everything it started), every
//! folder is removed as the stack unwinds, and the report, written in a
//! folder beside `--out` (see `staging`), is never renamed into place. A
//! second signal ends the process at once (status 128 + signal), for when
//! the cleanup itself hangs; the next run then sweeps what it left (see
//! `leftovers`). State: one process-wide number, the signal received (0
//! until then). Cost: one atomic load per poll.

use anyhow::{Result, bail};
use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signal received, or 0.
static SIGNAL: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Routes SIGINT and SIGTERM to the flag (once per process; later calls
/// do nothing).
pub fn install() -> Result<()> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let signal = SIGNAL.get_or_init(|| Arc::new(AtomicUsize::new(0))).clone();
    let seen = Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM] {
        // In this order: the shutdown only fires if a signal came before.
        signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, seen.clone())?;
        signal_hook::flag::register(sig, seen.clone())?;
        signal_hook::flag::register_usize(sig, signal.clone(), sig as usize)?;
    }
    let _ = INSTALLED.set(());
    Ok(())
}

/// The signal that asked this process to stop, if any.
pub fn requested() -> Option<i32> {
    let sig = SIGNAL.get()?.load(Ordering::Relaxed);
    (sig != 0).then(|| i32::try_from(sig).unwrap_or(SIGTERM))
}

/// An error once a stop was asked for, so `?` unwinds the work in hand.
pub fn check() -> Result<()> {
    match requested() {
        Some(sig) => bail!("interrupted by {}", name(sig)),
        None => Ok(()),
    }
}

/// `SIGINT` or `SIGTERM`, for messages.
pub fn name(sig: i32) -> &'static str {
    if sig == SIGINT { "SIGINT" } else { "SIGTERM" }
}

/// The exit status of a process stopped by `sig`, as a shell reports it.
pub fn status(sig: i32) -> u8 {
    u8::try_from(128 + sig).unwrap_or(1)
}

/// What an interrupted command returns once everything it started is
/// stopped and removed: the shell's status for the signal, and one line
/// (naming `out`, the report it did not write).
pub fn interrupted(sig: i32, out: Option<&std::path::Path>) -> std::process::ExitCode {
    let report = match out {
        Some(out) => format!("; nothing was written to {}", out.display()),
        None => String::new(),
    };
    eprintln!(
        "grade: interrupted by {}: the workers were stopped and their folders removed{report}",
        name(sig)
    );
    std::process::ExitCode::from(status(sig))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_is_named_and_mapped_to_the_shells_status() {
        assert_eq!((name(SIGINT), status(SIGINT)), ("SIGINT", 130));
        assert_eq!((name(SIGTERM), status(SIGTERM)), ("SIGTERM", 143));
    }
}
