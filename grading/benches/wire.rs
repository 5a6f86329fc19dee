//! The judge-subject round trip: what one call from a suite into a
//! learner's function costs once it crosses to the subject process.
//!
//! The problem: the grader sends every call a suite makes into the
//! learner's code over a socket, so a test that makes thousands of calls
//! (a property test, an iterator stepped one item at a time) pays the
//! round trip thousands of times. State: the wire's own code (the text the
//! grader writes into both copies of a chapter, compiled here as modules),
//! a socket pair, and a subject loop on a thread that answers with an echo
//! through the same per-call worker thread the real subject uses. Cost
//! measured: encode, frame, one write and one read each way, the worker
//! thread, decode.
//!
//! `cargo bench -p workbook --bench wire`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::os::unix::net::UnixStream;

#[path = "../src/judge/wire/common.rs"]
mod common;

/// The grader places the wire on a descriptor; here it is connected by hand.
fn open_wire() -> Option<UnixStream> {
    None
}

/// A judge per chapter's new wire; the bench connects one by hand.
#[allow(dead_code)]
fn receive_wire(_control: &UnixStream) -> Option<UnixStream> {
    None
}

#[allow(dead_code)]
mod judge {
    use super::common::*;
    use super::{open_wire, receive_wire};
    use serde::Serialize;
    use std::os::unix::net::UnixStream;
    include!("../src/judge/wire/judge.rs");
}

#[allow(dead_code)]
mod subject {
    use super::common::*;
    use super::open_wire;
    use std::os::unix::net::UnixStream;
    include!("../src/judge/wire/subject.rs");

    /// No filter in a benchmark: it would confine the benchmark itself.
    fn confine() -> Result<(), String> {
        Ok(())
    }

    /// The generated router's place: answers each call with its own
    /// argument, as `(value, ())`.
    fn route(id: &str, _tag: &str, args: &[u8]) -> Result<Vec<u8>, Fault> {
        if id.ends_with("numbers") {
            let (value,): (Vec<usize>,) = decode(args)?;
            encode(&(value, ()))
        } else {
            let (value,): (Vec<Vec<String>>,) = decode(args)?;
            encode(&(value, ()))
        }
    }
}

fn round_trip(c: &mut Criterion) {
    let (judge_end, subject_end) = UnixStream::pair().expect("a socket pair");
    std::thread::spawn(move || subject::serve_on(subject_end));
    judge::connect(judge_end);
    let small: Vec<usize> = (0..8).collect();
    c.bench_function("round trip: 8 numbers", |b| {
        b.iter(|| {
            let (r, ()): (Vec<usize>, ()) = judge::call("bench.rs::numbers", "", &(&small,));
            r
        })
    });
    // 92 boards of 8 rows, the size of the eight-queens answer.
    let boards: Vec<Vec<String>> = (0..92).map(|_| vec!["....Q...".to_string(); 8]).collect();
    c.bench_function("round trip: 92 boards of 8 rows", |b| {
        b.iter(|| {
            let (r, ()): (Vec<Vec<String>>, ()) = judge::call("bench.rs::boards", "", &(&boards,));
            r
        })
    });
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
