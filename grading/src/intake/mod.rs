//! The grader's intake: from a learner's files, only what the learner is
//! meant to write, spliced into the pristine stubs.
//!
//! The problem: a deny-list over whole files misses what it does not visit,
//! and a learner who edits given code (a derive, a `PartialEq` impl) bends
//! the tests without any forbidden name. So the intake accepts a grammar
//! instead. Given code always comes from the pristine stub file; from the
//! learner's copy it takes the bodies of the stub functions `info.toml`
//! names (`f` or `Type::method`), their signatures only when they differ by
//! a `mut` on a parameter, and new private helper items (functions,
//! constants, types, their impls, `use` of allowed paths). Everything it
//! takes is checked structurally with `syn` (every attribute, macro, item,
//! impl and use tree in every position, macro arguments parsed as the
//! expressions they are, and the constructions known rustc soundness-bug
//! exploits need) and token by token (raw and non-ASCII identifiers,
//! `unsafe`, `extern`, `std::fs`-style paths, the grader's own `__wb`
//! prefix). A file that does not lex or
//! parse, is too large or nests too deep is refused, never skipped: nesting
//! is measured on the tokens before `syn` parses (see [`tokens`]), and the
//! whole intake runs on a thread with a 256 MiB stack, so a 200 KB
//! `((((...))))` is a refusal, not a crash.
//!
//! State: per chapter, the names the given code uses (so a helper cannot
//! shadow them) and the method names it calls (so a new method cannot take
//! them over); per file, the stub positions and the given items. Cost: one
//! lex and one parse per pristine and per submitted file, and one walk of
//! each accepted syntax tree and of its tokens.
//!
//! Use: [`take`] one chapter at a time; build [`ChapterIntake::files`] when
//! [`ChapterIntake::refused`] is empty, else reject the chapter with every
//! refusal listed; show [`ChapterIntake::notes`] to the learner. [`RULES`]
//! are the ids the instructor's `allow` may relax, [`FIXED_RULES`] the ids
//! that never relax. Helper types are recognised per file: an impl of a
//! foreign trait for a learner's type from another file of the chapter is
//! refused like one for a given type.
//!
//! The rooms, in the order a file goes through them:
//!
//! * [`policy`]: the tables (rule ids, allowed macros, attributes,
//!   forbidden modules) and the limits;
//! * [`given`]: what the pristine stubs give (names, stub positions,
//!   impls) and what the chapter's given code uses;
//! * [`tokens`]: the token pass: the learner's file read, measured for
//!   nesting and lexed before `syn` parses it, and the token-level scan of
//!   what is taken;
//! * [`splice`]: what is taken from the learner's file and where it goes in
//!   the pristine text;
//! * [`checker`]: the structural checks on every taken syntax tree, with
//!   [`soundness`], the stopgap against known rustc soundness bugs
//!   (named lifetimes, `for<...>`, function-pointer types, casts of
//!   functions and pointers to integers);
//! * `tests`: one file per room that has tests of its own, and the real
//!   chapters' references taken whole.

mod checker;
mod given;
mod policy;
mod soundness;
mod splice;
mod tokens;

#[cfg(test)]
mod tests;

use given::Context;
use policy::STACK_BYTES;
pub use policy::{FIXED_RULES, RULES};
use splice::take_file;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One reason a chapter is rejected: where, which rule, and what was found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Refusal {
    /// The file, as a path under the chapter's `src/` (empty for the chapter).
    pub file: PathBuf,
    pub line: usize,
    pub rule: &'static str,
    /// One line, naming what was found.
    pub reason: String,
}

/// What the grader builds for one chapter, and why.
#[derive(Debug, Clone, Default)]
pub struct ChapterIntake {
    /// Every pristine file (path under `src/`) and the text to build.
    pub files: BTreeMap<PathBuf, String>,
    /// Non-empty: the chapter is rejected (scores 0); every refusal is listed.
    pub refused: Vec<Refusal>,
    /// What was ignored: changed given items, missing stubs, files not taken.
    pub notes: Vec<String>,
}

/// Takes one chapter: `pristine` maps each stub file (path under `src/`)
/// to its text, `submitted` the learner's files, `stubs` the info.toml stub
/// keys (`f`, `Type::method`), `allow` the relaxed rule ids ([`RULES`]),
/// `crates` the crates the chapter's manifest lets its code use (a learner
/// may import from them as the given code may).
/// Never panics and never overflows its stack on any input.
pub fn take(
    pristine: &BTreeMap<PathBuf, String>,
    submitted: &BTreeMap<PathBuf, Vec<u8>>,
    stubs: &[String],
    allow: &[String],
    crates: &[String],
) -> ChapterIntake {
    let outcome = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("intake".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, || take_here(pristine, submitted, stubs, allow, crates))
            .map(|h| h.join())
    });
    match outcome {
        Ok(Ok(intake)) => intake,
        Ok(Err(_)) => failed(pristine, "the intake stopped on an internal error".into()),
        Err(e) => failed(pristine, format!("cannot start the intake thread: {e}")),
    }
}

fn failed(pristine: &BTreeMap<PathBuf, String>, reason: String) -> ChapterIntake {
    ChapterIntake {
        files: pristine.clone(),
        refused: vec![Refusal {
            file: PathBuf::new(),
            line: 0,
            rule: "internal",
            reason,
        }],
        notes: Vec::new(),
    }
}

/// The intake proper, on the big-stack thread (spans live in its thread-local
/// source map, so every span is read here).
fn take_here(
    pristine: &BTreeMap<PathBuf, String>,
    submitted: &BTreeMap<PathBuf, Vec<u8>>,
    stubs: &[String],
    allow: &[String],
    crates: &[String],
) -> ChapterIntake {
    let mut out = ChapterIntake::default();
    let mut parsed = BTreeMap::new();
    for (rel, text) in pristine {
        match syn::parse_file(text) {
            Ok(file) => {
                parsed.insert(rel.clone(), file);
            }
            Err(e) => out.refused.push(Refusal {
                file: rel.clone(),
                line: e.span().start().line,
                rule: "internal",
                reason: format!("the pristine stub does not parse: {e}"),
            }),
        }
    }
    let mut ctx = Context::new(parsed.values(), allow);
    ctx.crates.extend(crates.iter().cloned());
    for (rel, text) in pristine {
        let spliced = match parsed.get(rel) {
            Some(file) => {
                let theirs = submitted.get(rel).map(Vec::as_slice);
                let (spliced, found) = take_file(&ctx, text, file, theirs, stubs);
                out.refused.extend(
                    found
                        .refused
                        .into_iter()
                        .map(|(line, rule, reason)| Refusal {
                            file: rel.clone(),
                            line,
                            rule,
                            reason,
                        }),
                );
                let shown = rel.display();
                out.notes
                    .extend(found.notes.iter().map(|n| format!("`{shown}`: {n}")));
                spliced
            }
            None => text.clone(),
        };
        out.files.insert(rel.clone(), spliced);
    }
    for rel in submitted.keys().filter(|k| !pristine.contains_key(*k)) {
        out.notes.push(format!(
            "ignored `{}`: not a file of this chapter",
            rel.display()
        ));
    }
    let relaxed = |r: &Refusal| {
        RULES.contains(&r.rule)
            && !FIXED_RULES.contains(&r.rule)
            && allow.iter().any(|a| a == r.rule)
    };
    out.refused.retain(|r| !relaxed(r));
    out.refused.sort();
    out.refused
        .dedup_by(|a, b| a.file == b.file && a.line == b.line && a.rule == b.rule);
    out
}
