//! What every suite shares: quiet property tests and short stub failures.
//!
//! The problem: a property test that hits a `todo!()` re-runs it while
//! shrinking, and the default panic hook prints every one of those panics,
//! so an untouched chapter printed over a thousand lines; proptest also
//! tried to save regression files next to a `lib.rs` it cannot find. The
//! state: one process-wide panic hook, installed by the first property test
//! that runs, and one flag per test thread remembering whether that test
//! has already reported a panic. The cost: a thread-local lookup per panic.

use proptest::test_runner::Config;
use std::cell::Cell;
use std::sync::Once;

/// A property-test config that writes nothing into the repository.
pub fn quiet(cases: u32) -> Config {
    // The suite's own hook keeps each failure to its first panic.
    quiet_panics();
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

thread_local! {
    /// Whether this test thread has reported a panic, and whether it was a
    /// stub's `todo!()`.
    static REPORTED: Cell<Option<bool>> = const { Cell::new(None) };
}

/// Installs, once per process, the hook that prints one short report per
/// failing test: a stub's `todo!()` in two lines (where, and what to write
/// with the book section), any other panic as its message. Later panics of
/// the same test (proptest shrinking) are dropped, except proptest's own
/// summary with the minimal failing input, which is kept for real bugs.
pub fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("(a panic without a message)");
            let stub = message.starts_with("not yet implemented");
            let summary = message.starts_with("Test failed:");
            let earlier = REPORTED.with(Cell::get);
            match earlier {
                None => REPORTED.with(|r| r.set(Some(stub))),
                Some(false) if summary => {}
                Some(_) => return,
            }
            let place = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            if stub {
                let what = message.trim_start_matches("not yet implemented: ");
                eprintln!("{place}: still a todo!() stub\n    write it: {what}");
            } else if message.starts_with("snapshot assertion for") {
                // insta has printed the diff and the book section above.
                eprintln!("{message}: your output differs from the recorded one (diff above)");
            } else {
                eprintln!("panicked at {place}:\n{message}");
            }
        }));
    });
}

/// Binds, until the returned guard drops, a snapshot description that says
/// where the expected text comes from and where the book explains it; insta
/// prints it above the diff of a failing snapshot.
pub fn explain(book: &str) -> impl Sized {
    quiet_panics();
    let mut settings = insta::Settings::clone_current();
    settings.set_description(format!(
        "the expected lines (-) were recorded from the reference solution, yours are marked +; \
         the book explains what is expected and why: {book}"
    ));
    settings.bind_to_scope()
}
