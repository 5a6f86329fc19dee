//! The loop's language for the tool's words that have no [`Lang`] at hand.
//!
//! The problem: an error is built deep in a command (a file that cannot be
//! read, a build that cannot start) and printed by `main`, far from the
//! `Lang` the command loaded, yet a learner who chose Japanese must read
//! it, and `main`'s `error:` before it, in Japanese. The state: one `Lang`,
//! chosen once by [`crate::cli::run`] as soon as the repository is found;
//! English before that, since without the repository there is no catalogue
//! to read (and clap's own usage errors and `--help` stay English). The
//! cost: one catalogue read per process.

use std::path::Path;
use std::sync::{LazyLock, OnceLock};
use workbook_core::lang::Lang;

static CHOSEN: OnceLock<Lang> = OnceLock::new();
static ENGLISH: LazyLock<Lang> = LazyLock::new(Lang::english);

/// Reads the learner's language for the repository at `root`, once.
pub fn choose(root: &Path) {
    let _ = CHOSEN.get_or_init(|| Lang::chosen(root));
}

/// The learner's language, or English before [`choose`].
pub fn lang() -> &'static Lang {
    CHOSEN.get().unwrap_or(&ENGLISH)
}
