//! Whether a browser can be opened here, and if not, why.
//!
//! The problem: `book serve --open` and `trace` hand a page to the
//! system's opener (`xdg-open` on Linux), which on a machine with no
//! graphical session starts, finds no browser and exits quietly, so the
//! learner waited for a window that never came. The state: `$BROWSER`,
//! the display variables and whether `xdg-open` is on `PATH`, read before
//! trying; a reason is said with the address to open by hand, in the
//! reader's language (the learner's `trace` passes theirs, the
//! maintainer's `book serve --open` English). The cost: a few variable
//! reads and a walk of `PATH`.

use crate::lang::Lang;
use std::path::Path;

/// Why no browser will open on this machine (Linux and the other Unix
/// systems that use `xdg-open`), in `lang`, or `None` when one may. `var`
/// reads the environment.
pub fn why_not(var: impl Fn(&str) -> Option<String>, lang: &Lang) -> Option<String> {
    if cfg!(target_os = "macos") || cfg!(windows) {
        return None;
    }
    let set = |name: &str| var(name).is_some_and(|v| !v.trim().is_empty());
    if set("BROWSER") {
        return None;
    }
    if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
        return Some(
            lang.tr(
                "no graphical session here (DISPLAY and WAYLAND_DISPLAY are unset) and no $BROWSER",
            )
            .into(),
        );
    }
    let on_path = var("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| Path::new(&dir).join("xdg-open").is_file())
    });
    if !on_path {
        return Some(
            lang.tr("`xdg-open` is not installed and $BROWSER is unset")
                .into(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    #[cfg(all(unix, not(target_os = "macos")))]
    fn a_machine_without_a_display_or_an_opener_is_said_to_have_no_browser() {
        let english = Lang::english();
        let why = why_not(env(&[("PATH", "/usr/bin")]), &english).expect("no display");
        assert!(why.contains("DISPLAY"), "{why}");
        let nowhere = std::env::temp_dir().join("no-opener-here");
        let why = why_not(
            |name| match name {
                "DISPLAY" => Some(":0".to_string()),
                "PATH" => Some(nowhere.display().to_string()),
                _ => None,
            },
            &english,
        )
        .expect("no xdg-open on that PATH");
        assert!(why.contains("xdg-open"), "{why}");
        assert_eq!(why_not(env(&[("BROWSER", "firefox")]), &english), None);
    }

    #[test]
    #[cfg(all(unix, not(target_os = "macos")))]
    fn the_reason_no_browser_opens_is_in_the_readers_language() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let english = why_not(env(&[("PATH", "/usr/bin")]), &Lang::english()).expect("no display");
        for code in ["ja", "zh-CN", "ru"] {
            let why = why_not(env(&[("PATH", "/usr/bin")]), &Lang::load(&root, code))
                .expect("no display");
            assert_ne!(why, english, "{code} translates the reason");
            assert!(
                why.contains("DISPLAY") && why.contains("$BROWSER"),
                "{code} keeps the variables' names: {why}"
            );
            assert!(!why.contains("graphical session"), "{code}: {why}");
        }
    }
}
