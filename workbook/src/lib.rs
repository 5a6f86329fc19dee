//! `workbook`: the learner's tool.
//!
//! A learner sees their progress, asks for hints, re-runs the chapter
//! they edit on every save, puts back a stub, runs their binary beside the
//! reference's and traces their search beside the reference's. Every
//! command finds the workspace from the current directory, so it works
//! from the root and from inside an exercise alike. Nothing here grades or
//! builds the book: those are the instructor's `grader` and the
//! maintainer's `xtask`, which a learner never compiles.
//!
//! Rooms: `cli` (the command line), `language` (`lang`: the loop's
//! language remembered for the checkout), `progress` (progress and hints),
//! `watch`, `reset`, `run`, `trace` (its own module doc lists its rooms),
//! `words` (the learner's language for errors and `main`).

pub mod cli;
mod language;
mod progress;
mod reset;
mod run;
mod trace;
mod watch;
pub mod words;
