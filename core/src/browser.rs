//! Whether a browser can be opened here, and if not, why.
//!
//! The problem: `book serve --open` and `trace` hand a page to the
//! system's opener (`xdg-open` on Linux), which on a machine with no
//! graphical session starts, finds no browser and exits quietly, so the
//! learner waited for a window that never came. The state: `$BROWSER`,
//! the display variables and whether `xdg-open` is on `PATH`, read before
//! trying; a reason is said with the address to open by hand. The cost:
//! a few variable reads and a walk of `PATH`.

use std::path::Path;

/// Why no browser will open on this machine (Linux and the other Unix
/// systems that use `xdg-open`), or `None` when one may. `var` reads the
/// environment.
pub fn why_not(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    if cfg!(target_os = "macos") || cfg!(windows) {
        return None;
    }
    let set = |name: &str| var(name).is_some_and(|v| !v.trim().is_empty());
    if set("BROWSER") {
        return None;
    }
    if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
        return Some(
            "no graphical session here (DISPLAY and WAYLAND_DISPLAY are unset) and no $BROWSER"
                .into(),
        );
    }
    let on_path = var("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| Path::new(&dir).join("xdg-open").is_file())
    });
    if !on_path {
        return Some("`xdg-open` is not installed and $BROWSER is unset".into());
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
        let why = why_not(env(&[("PATH", "/usr/bin")])).expect("no display");
        assert!(why.contains("DISPLAY"), "{why}");
        let nowhere = std::env::temp_dir().join("no-opener-here");
        let why = why_not(|name| match name {
            "DISPLAY" => Some(":0".to_string()),
            "PATH" => Some(nowhere.display().to_string()),
            _ => None,
        })
        .expect("no xdg-open on that PATH");
        assert!(why.contains("xdg-open"), "{why}");
        assert_eq!(why_not(env(&[("BROWSER", "firefox")])), None);
    }
}
