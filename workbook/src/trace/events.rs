//! A recorded search read back: its calls and returns, and how it ended.
//!
//! The problem: the scratch program writes one line per event (see
//! `recorder.rs`) and may die at any line (a panic, a stack overflow, the
//! time limit); both sides must read as the same kind of list so the first
//! difference is one comparison away. The state is the list of events and
//! the ending; reading is linear in the lines.

use workbook_core::lang::Lang;

/// One call's name and its shown arguments, in order, and the state it
/// found (what the spec's `STATE` table records on entry, such as chapter
/// 2's board: recorded with a leading `@`, compared like the arguments but
/// not written in the call).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub name: String,
    pub args: Vec<(String, String)>,
    pub state: Vec<(String, String)>,
}

impl Call {
    /// The shown value of argument `name`, or `?` when it is not shown.
    pub fn arg(&self, name: &str) -> &str {
        self.args
            .iter()
            .find(|(k, _)| k == name)
            .map_or("?", |(_, v)| v.as_str())
    }

    /// The recorded state `name` (see [`Call`]), when there is one.
    pub fn state(&self, name: &str) -> Option<&str> {
        self.state
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Argument `name` as a number, when it is one.
    pub fn num(&self, name: &str) -> Option<usize> {
        self.arg(name).parse().ok()
    }

    /// `name(a = 1, b = [2])`.
    pub fn spelled(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        format!("{}({})", self.name, args.join(", "))
    }
}

/// One thing a search did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Call(Call),
    /// A call of `name` returned `value`.
    Return {
        name: String,
        value: String,
    },
}

/// How a recorded run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The entry point returned.
    Finished,
    /// A panic: its message and where (`src/lib.rs:12`).
    Panicked { message: String, place: String },
    /// More calls than the recorder allows: a loop, most likely.
    Capped(usize),
    /// Still running when the time limit came.
    TimedOut(u64),
    /// The thread's stack overflowed (unbounded recursion).
    Overflowed,
    /// Died some other way (a signal), with what stderr said last.
    Died(String),
}

impl Ending {
    /// A `todo!()` still in the code: the exercise is not written yet.
    pub fn is_todo(&self) -> bool {
        matches!(self, Ending::Panicked { message, .. } if message.starts_with("not yet implemented"))
    }

    /// The ending in words, after "your code" / "the reference" (in the
    /// learner's language: the catalogue's templates, values untouched).
    pub fn words(&self, lang: &Lang) -> String {
        match self {
            Ending::Finished => lang.tr("finished").to_string(),
            Ending::Panicked { message, place } => lang.fill(
                "panicked at {place}: {message}",
                &[("place", place), ("message", message)],
            ),
            Ending::Capped(n) => lang.fill("was stopped after {n} calls (a loop?)", &[("n", n)]),
            Ending::TimedOut(s) => lang.fill(
                "was stopped after {s} s without finishing (a loop?)",
                &[("s", s)],
            ),
            Ending::Overflowed => lang
                .tr("overflowed its stack (a recursion that never reaches its base case?)")
                .to_string(),
            Ending::Died(why) => lang.fill("died: {why}", &[("why", why)]),
        }
    }
}

/// A whole recorded run.
#[derive(Debug, Clone)]
pub struct Run {
    pub events: Vec<Event>,
    pub ending: Ending,
}

/// Reads the events file; `ended` is how the process ended when the file
/// does not say (no `end`, `panic` or `cap` line).
pub fn read(text: &str, ended: Ending) -> Run {
    let mut events = Vec::new();
    let mut ending = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["call", name, rest @ ..] => {
                let (mut args, mut state) = (Vec::new(), Vec::new());
                for kv in rest.chunks(2) {
                    let value = kv.get(1).unwrap_or(&"").to_string();
                    match kv[0].strip_prefix('@') {
                        Some(k) => state.push((k.to_string(), value)),
                        None => args.push((kv[0].to_string(), value)),
                    }
                }
                events.push(Event::Call(Call {
                    name: name.to_string(),
                    args,
                    state,
                }))
            }
            ["ret", name, value] => events.push(Event::Return {
                name: name.to_string(),
                value: value.to_string(),
            }),
            ["panic", message, place] => {
                ending = Some(Ending::Panicked {
                    message: message.to_string(),
                    place: place.to_string(),
                })
            }
            ["cap", n] => ending = Some(Ending::Capped(n.parse().unwrap_or(0))),
            ["end"] => ending = Some(Ending::Finished),
            _ => {}
        }
    }
    Run {
        events,
        ending: ending.unwrap_or(ended),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_cut_short_keeps_its_events_and_the_process_ending() {
        let run = read(
            "call\tvisit\tv\t0\torder\t[]\nret\tvisit\t()\ncall\tvisit\tv\t1\n",
            Ending::Overflowed,
        );
        assert_eq!(run.events.len(), 3);
        assert_eq!(run.ending, Ending::Overflowed);
        let Event::Call(c) = &run.events[2] else {
            panic!("the third event is a call: {:?}", run.events[2]);
        };
        assert_eq!(c.num("v"), Some(1));
        assert_eq!(c.spelled(), "visit(v = 1)");
    }

    #[test]
    fn a_recorded_state_is_kept_apart_from_the_arguments() {
        let run = read(
            "call\tcount_from\tsquare\t3\t@board\tQ....... ........\n",
            Ending::Finished,
        );
        let Event::Call(c) = &run.events[0] else {
            panic!("a call: {:?}", run.events[0]);
        };
        assert_eq!(c.spelled(), "count_from(square = 3)");
        assert_eq!(c.state("board"), Some("Q....... ........"));
    }

    #[test]
    fn a_todo_panic_reads_as_unwritten() {
        let run = read(
            "panic\tnot yet implemented: mark the vertex\tsrc/lib.rs:9\n",
            Ending::Died("exit 101".into()),
        );
        assert!(run.ending.is_todo());
    }
}
