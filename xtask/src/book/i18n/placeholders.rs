//! Numbers as placeholders: the one idea the players' messages (`ui.rs`)
//! and the measurement pages (`measured.rs`) share.
//!
//! The problem: a recorder or a measurement run computes its sentences
//! ("a queen on row 2, column 5"; "0.054 s"), so a catalogue of whole
//! sentences would need one entry per number. A message is the string with
//! its digit runs replaced by `{0}`, `{1}`, ... in order, and a translation
//! may reorder them. A leaf module: both rooms use it, it uses neither.
//! Cost: one pass over the string.

/// The string with each run of ASCII digits replaced by `{i}`, and the runs.
pub fn template(s: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(s.len());
    let mut args: Vec<String> = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut run = c.to_string();
            while let Some(&d) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                run.push(d);
                chars.next();
            }
            out.push_str(&format!("{{{}}}", args.len()));
            args.push(run);
        } else {
            out.push(c);
        }
    }
    (out, args)
}

/// `translation` with each `{i}` replaced by `args[i]`.
pub fn fill(translation: &str, args: &[String]) -> String {
    let mut out = translation.to_string();
    // Highest index first, so `{1}` is not found inside `{10}`.
    for (i, arg) in args.iter().enumerate().rev() {
        out = out.replace(&format!("{{{i}}}"), arg);
    }
    out
}
