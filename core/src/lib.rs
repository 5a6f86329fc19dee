//! `workbook-core`: what the workbook's three tools share.
//!
//! The learner's `workbook`, the instructor's `grader` and the
//! maintainer's `xtask` each read the same chapters and derive the same
//! stubs; this crate is that common ground and nothing else, so none of
//! the tools compiles another's code. Its rooms, leaves first:
//!
//! * [`browser`]: whether a browser can be opened here (`--open`, `trace`),
//!   and why not.
//! * [`comments`]: the stubs' doc comments in the learner's language
//!   (`workbook lang` rewrites those that still read as generated).
//! * [`info`]: the chapter list (`exercises/NN_slug/info.toml`) and every
//!   path and name of a chapter ([`info::Chapter`]).
//! * [`lang`]: the loop's language (environment, remembered choice, locale)
//!   and its catalogue `book/po/loop/<lang>.po`; std only, the suites include it.
//! * [`markdown`]: the book's Markdown helpers (its pages, mdBook heading ids).
//! * [`names`]: the names a person types (chapter, exercise, function) and
//!   the one matcher that resolves them; book pages by their title.
//! * [`stubs`]: stubs derived from the solutions (syn spans, rustfmt), and
//!   the learner's copy of the reference.
//! * [`runner`]: runs a chapter's suite with cargo and reads libtest's verdicts.
//! * [`players`]: the book's players, figures and quizzes: the records the
//!   solutions' `<slug>_book` examples print and the HTML written from them
//!   (the book's build and `workbook trace` both write players).
//!
//! With the `testkit` feature (a dev-dependency of the tools), [`testkit`]
//! holds what their integration tests share.

pub mod browser;
pub mod comments;
pub mod info;
pub mod lang;
pub mod markdown;
pub mod names;
pub mod players;
pub mod runner;
pub mod stubs;
#[cfg(feature = "testkit")]
pub mod testkit;
