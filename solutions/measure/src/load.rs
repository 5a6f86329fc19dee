//! The machine's load, printed beside every figure so a reader can tell a
//! quiet run from a busy one. Linux only: elsewhere the load is unknown
//! and the figures say so.

/// The 1-minute load average from the text of `/proc/loadavg` (its first
/// field), or `None` when the text does not start with a number.
pub fn parse_load(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

/// The 1-minute load average now, or `None` where `/proc` is missing.
pub fn load_average() -> Option<f64> {
    parse_load(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The 1-minute load average now, with the two decimals `/proc/loadavg`
/// gives it ("1.20"), or "unknown".
pub fn load_text() -> String {
    load_words(load_average())
}

fn load_words(load: Option<f64>) -> String {
    load.map_or_else(|| "unknown".into(), |load| format!("{load:.2}"))
}

/// The load when a run started, kept to be printed beside its figures
/// with the load when it ended: a rise means the run itself, or others,
/// kept the cores busy.
#[derive(Debug, Clone)]
pub struct RunLoad {
    before: String,
}

impl RunLoad {
    /// Notes the load now, as the run starts.
    pub fn start() -> Self {
        RunLoad {
            before: load_text(),
        }
    }

    /// "Load average (1 minute) before the run: 2.04; after it: 2.74.",
    /// the end read now.
    pub fn sentence(&self) -> String {
        before_after(&self.before, &load_text())
    }
}

fn before_after(before: &str, after: &str) -> String {
    format!("Load average (1 minute) before the run: {before}; after it: {after}.")
}

/// The cores this process may run on (1 if the system will not say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_is_the_first_field_of_proc_loadavg() {
        assert_eq!(parse_load("0.19 1.20 1.71 2/345 6789\n"), Some(0.19));
    }

    #[test]
    fn text_that_does_not_start_with_a_number_has_no_load() {
        assert_eq!(parse_load(""), None);
        assert_eq!(parse_load("load: high"), None);
    }

    #[test]
    fn a_load_is_written_with_the_two_decimals_proc_loadavg_prints() {
        assert_eq!(load_words(Some(0.19)), "0.19");
        assert_eq!(load_words(Some(2.0)), "2.00");
    }

    #[test]
    fn the_sentence_gives_the_load_before_and_after_the_run() {
        assert_eq!(
            before_after("2.04", "2.74"),
            "Load average (1 minute) before the run: 2.04; after it: 2.74."
        );
    }

    #[test]
    fn a_missing_load_is_written_as_unknown() {
        assert_eq!(load_words(None), "unknown");
    }
}
