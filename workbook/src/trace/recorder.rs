//! The recorder `workbook trace` adds to a scratch copy of a chapter (as
//! `src/__wb_trace.rs`); never compiled into the tool itself.
//!
//! The problem: record every call of the traced functions (their arguments
//! on entry, their result on return) in the learner's code and in the
//! reference, in the same words, even when the code then panics, loops or
//! overflows its stack. The state is a call counter and the open file the
//! events go to; each event is one unbuffered `write` of one line, so
//! whatever happened before a crash is on disk. Cost: one `Debug` rendering
//! per argument per call. Past `CAP` calls the run stops itself.

use std::fmt::Debug;
use std::fs::File;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Calls recorded before the run stops itself (a search that loops).
pub const CAP: usize = 20_000;
static CALLS: AtomicUsize = AtomicUsize::new(0);
static OUT: Mutex<Option<File>> = Mutex::new(None);

/// Opens the events file the tool named.
pub fn open(path: &str) -> std::io::Result<()> {
    let file = File::create(path)?;
    if let Ok(mut out) = OUT.lock() {
        *out = Some(file);
    }
    Ok(())
}

/// One event line; fields separated by tabs (a tab or newline inside one
/// becomes a space).
pub fn event(fields: &[&str]) {
    let clean: Vec<String> = fields
        .iter()
        .map(|f| f.replace(['\t', '\n', '\r'], " "))
        .collect();
    let line = clean.join("\t") + "\n";
    if let Ok(mut out) = OUT.lock()
        && let Some(file) = out.as_mut()
    {
        let _ = file.write_all(line.as_bytes());
    }
}

/// A call in progress: its result is recorded by [`Call::exit`].
pub struct Call {
    name: &'static str,
}

/// Records the entry of `name` with its arguments, `(name, value)` pairs.
pub fn enter(name: &'static str, args: &[(&str, String)]) -> Call {
    let n = CALLS.fetch_add(1, Ordering::SeqCst) + 1;
    if n > CAP {
        event(&["cap", &CAP.to_string()]);
        std::process::exit(3);
    }
    let mut fields = vec!["call", name];
    for (k, v) in args {
        fields.push(k);
        fields.push(v);
    }
    event(&fields);
    Call { name }
}

impl Call {
    /// Records the call's result.
    pub fn exit(self, result: String) {
        event(&["ret", self.name, &result]);
    }
}

/// A value to show: its `Debug` when its type has one, else its
/// `Display`, else `_`. Shown as `(&&&Show(&x)).show()`: method lookup
/// tries the impl for `&&Show` first, then (one deref later) `&Show`, then
/// `Show` (autoref specialisation), so the best one the type has wins.
pub struct Show<'a, T: ?Sized>(pub &'a T);

/// Cuts a long rendering.
fn cut(text: String) -> String {
    if text.chars().count() > 400 {
        text.chars().take(400).collect::<String>() + "..."
    } else {
        text
    }
}

pub trait ShowDebug {
    fn show(&self) -> String;
}

impl<T: Debug + ?Sized> ShowDebug for &&Show<'_, T> {
    fn show(&self) -> String {
        cut(format!("{:?}", self.0))
    }
}

pub trait ShowDisplay {
    fn show(&self) -> String;
}

impl<T: std::fmt::Display + ?Sized> ShowDisplay for &Show<'_, T> {
    fn show(&self) -> String {
        cut(self.0.to_string())
    }
}

pub trait ShowOther {
    fn show(&self) -> String;
}

impl<T: ?Sized> ShowOther for Show<'_, T> {
    fn show(&self) -> String {
        "_".to_string()
    }
}

/// The driver's frame: open the file, record panics, run `body`.
pub fn main(body: impl FnOnce()) {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: trace EVENTS_FILE");
        std::process::exit(2);
    };
    if let Err(err) = open(&path) {
        eprintln!("cannot write {path}: {err}");
        std::process::exit(2);
    }
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        event(&["panic", &message, &place]);
    }));
    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).is_err() {
        std::process::exit(101);
    }
    event(&["end"]);
}
