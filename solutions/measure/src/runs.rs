//! Whole programs timed against each other: the workbook's command and a
//! peer's, run in turn (ours, peer, ours, peer, …) so each pair meets the
//! same load and gives one ratio; the medians of the pairs are reported.
//! A command is its program and arguments, `[program, arg, …]`; its output
//! is thrown away and a failing run is an error, never a time.

use crate::stats::{median, median_duration};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Two commands timed in pairs: the median wall time of each and the median
/// of the pairwise ratios `ours / peer` (below 1: ours is faster).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair {
    pub ours: Duration,
    pub peer: Duration,
    pub ratio: f64,
}

/// A command line: `program` followed by `args`.
pub fn argv(program: &str, args: &[&str]) -> Vec<String> {
    std::iter::once(program)
        .chain(args.iter().copied())
        .map(String::from)
        .collect()
}

/// Times `ours` and `peer` in `rounds` interleaved pairs; with more than
/// 3 rounds, one untimed warm-up pair runs first (caches, page cache).
pub fn paired(ours: &[String], peer: &[String], rounds: usize) -> Result<Pair, String> {
    if rounds > 3 {
        once(ours)?;
        once(peer)?;
    }
    let times = (0..rounds)
        .map(|_| Ok((once(ours)?, once(peer)?)))
        .collect::<Result<Vec<_>, String>>()?;
    summarize(&times).ok_or_else(|| format!("no pairs timed (rounds = {rounds})"))
}

/// The medians of timed pairs `(ours, peer)`, or `None` for no pairs.
pub fn summarize(times: &[(Duration, Duration)]) -> Option<Pair> {
    let ratios: Vec<f64> = times
        .iter()
        .map(|(a, b)| a.as_secs_f64() / b.as_secs_f64())
        .collect();
    let ours: Vec<Duration> = times.iter().map(|t| t.0).collect();
    let peer: Vec<Duration> = times.iter().map(|t| t.1).collect();
    Some(Pair {
        ours: median_duration(&ours)?,
        peer: median_duration(&peer)?,
        ratio: median(&ratios)?,
    })
}

/// The wall time of one run of `command`, its output thrown away; an error
/// unless it starts and exits successfully.
pub fn once(command: &[String]) -> Result<Duration, String> {
    let (program, args) = command.split_first().ok_or("empty command")?;
    let start = Instant::now();
    let status = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let time = start.elapsed();
    if !status.success() {
        return Err(format!("`{}` failed: {status}", command.join(" ")));
    }
    Ok(time)
}

/// The instructions `command` executes, as `valgrind --tool=callgrind`
/// counts them (the whole process). Unlike a time, the load cannot move it.
pub fn instructions(command: &[String]) -> Result<u64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .args(command)
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    collected(&String::from_utf8_lossy(&out.stderr)).ok_or(format!(
        "no instruction count from valgrind for `{}`",
        command.join(" ")
    ))
}

/// The count on callgrind's `Collected : N` line of its log, if any.
pub fn collected(log: &str) -> Option<u64> {
    log.lines()
        .find_map(|line| line.split("Collected : ").nth(1))
        .and_then(|n| n.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn argv_puts_the_program_before_its_arguments() {
        assert_eq!(argv("peer", &["16", "p"]), ["peer", "16", "p"]);
    }

    #[test]
    fn a_summary_takes_each_median_and_the_median_ratio() {
        let pair = summarize(&[(ms(10), ms(20)), (ms(30), ms(20)), (ms(12), ms(40))]);
        assert_eq!(
            pair,
            Some(Pair {
                ours: ms(12),
                peer: ms(20),
                ratio: 0.5,
            })
        );
    }

    #[test]
    fn the_median_ratio_comes_from_the_pairs_not_from_the_median_times() {
        // The median times, 20 ms and 20 ms, would say 1.0; the pairs say
        // 0.33, 2.0 and 1.5, so their median is 1.5.
        let pair = summarize(&[(ms(10), ms(30)), (ms(20), ms(10)), (ms(30), ms(20))]);
        assert_eq!(pair.map(|p| p.ratio), Some(1.5));
    }

    #[test]
    fn no_pairs_have_no_summary() {
        assert_eq!(summarize(&[]), None);
    }

    #[test]
    fn the_instruction_count_is_read_from_callgrinds_collected_line() {
        let log = "==1== Callgrind, a call-graph generating cache profiler\n\
                   ==1== Events    : Ir\n==1== Collected : 427118215\n==1==\n==1== I   refs:      427,118,215\n";
        assert_eq!(collected(log), Some(427_118_215));
    }

    #[test]
    fn a_log_without_a_collected_line_has_no_count() {
        assert_eq!(collected("valgrind: command not found\n"), None);
    }

    #[test]
    fn a_failing_command_is_an_error_naming_it() {
        let err = once(&argv("false", &[])).err();
        assert!(err.is_some_and(|e| e.contains("`false` failed")));
    }

    #[test]
    fn an_empty_command_is_an_error() {
        assert_eq!(once(&[]), Err("empty command".into()));
    }

    #[test]
    fn zero_rounds_are_an_error_not_a_panic() {
        let err = paired(&argv("true", &[]), &argv("true", &[]), 0);
        assert!(err.is_err_and(|e| e.contains("no pairs")));
    }
}
