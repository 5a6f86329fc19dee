//! A player's trace: the search tree, the lit code line and the counters.
//!
//! The problem: a reader watching a search must see where it is in the
//! tree, which line of the reference runs, and counters that agree with the
//! narration. A recorder says only what a search does (go down to a new
//! child, come back up, or stay) and names the code line by a needle, a
//! piece of text that must occur on exactly one line of the anchored region
//! the book shows ([`Code::line`] panics otherwise, so a changed solver
//! fails the recorder's tests instead of lighting the wrong line). The state
//! is the path of open nodes, the next node id and the steps so far; each
//! step costs O(1) plus its text. [`Trace::finish`] checks every declared
//! total against the steps before anything is written.

use crate::Out;

/// The anchored region `anchor` of one source file, as mdBook's
/// `{{#include file:anchor}}` shows it: the lines between `ANCHOR: anchor`
/// and `ANCHOR_END: anchor`, without any line that holds an anchor marker.
#[derive(Debug, Clone)]
pub struct Code {
    pub path: String,
    pub anchor: String,
    pub lines: Vec<String>,
}

impl Code {
    /// Reads the region; panics when the file has no such anchor (a
    /// recorder's bug, caught by its tests).
    pub fn new(path: &str, source: &str, anchor: &str) -> Code {
        let start = format!("ANCHOR: {anchor}");
        let end = format!("ANCHOR_END: {anchor}");
        let mut inside = false;
        let mut lines = Vec::new();
        let mut closed = false;
        for line in source.lines() {
            let marker = line.trim_start().starts_with("//") && line.contains("ANCHOR");
            if marker && line.trim_end().ends_with(&start) {
                inside = true;
            } else if marker && line.trim_end().ends_with(&end) {
                closed = inside;
                inside = false;
            } else if inside && !marker {
                lines.push(line.to_string());
            }
        }
        assert!(
            closed && !lines.is_empty(),
            "{path} has no anchored region `{anchor}`"
        );
        Code {
            path: path.to_string(),
            anchor: anchor.to_string(),
            lines,
        }
    }

    /// The 1-based number of the one line of the region that contains
    /// `needle`; panics when none or several do, naming them.
    pub fn line(&self, needle: &str) -> usize {
        let hits: Vec<usize> = (0..self.lines.len())
            .filter(|&i| self.lines[i].contains(needle))
            .collect();
        match hits[..] {
            [i] => i + 1,
            [] => panic!(
                "no line of {}:{} contains {needle:?}",
                self.path, self.anchor
            ),
            _ => panic!(
                "{} lines of {}:{} contain {needle:?} (lines {:?}): a needle names one line",
                hits.len(),
                self.path,
                self.anchor,
                hits.iter().map(|i| i + 1).collect::<Vec<_>>()
            ),
        }
    }
}

/// A step's marker on the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    None,
    /// The search has a solution at this step.
    Solution,
    /// The node this step leaves had no way on: a dead end.
    Dead,
    /// The node this step enters is one of two or more choices.
    Guess,
}

impl Mark {
    fn word(self) -> &'static str {
        match self {
            Mark::None => "-",
            Mark::Solution => "solution",
            Mark::Dead => "dead",
            Mark::Guess => "guess",
        }
    }
}

/// What one step does: its kind (how the board changes: try, place,
/// reject, undo, found, note), the cell and text it concerns, the code
/// line it comes from (a needle for [`Code::line`]), its marker and what
/// the narration says.
pub struct Step<'a> {
    pub kind: &'a str,
    pub cell: Option<(usize, usize)>,
    pub text: &'a str,
    pub line: &'a str,
    pub mark: Mark,
    pub say: &'a str,
}

impl<'a> Step<'a> {
    /// A step with no cell, no text and no marker.
    pub fn new(kind: &'a str, line: &'a str, say: &'a str) -> Self {
        Step {
            kind,
            cell: None,
            text: "",
            line,
            mark: Mark::None,
            say,
        }
    }

    /// The same step at `cell` with `text`.
    pub fn at(self, cell: (usize, usize), text: &'a str) -> Self {
        Step {
            cell: Some(cell),
            text,
            ..self
        }
    }

    /// The same step with a marker.
    pub fn mark(self, mark: Mark) -> Self {
        Step { mark, ..self }
    }
}

/// The board kinds a step may name; `note` changes nothing on the board.
pub const KINDS: [&str; 6] = ["try", "place", "reject", "undo", "found", "note"];

/// What [`Trace::finish`] checks of one step written: its kind, marker,
/// the depth after it and the code line it lit.
struct Done {
    kind: &'static str,
    mark: Mark,
    depth: usize,
    line: usize,
}

/// One instance of a player being recorded.
pub struct Trace {
    head: Out,
    steps: Out,
    code: Code,
    /// The open nodes from the root (node 0) to the current one.
    path: Vec<usize>,
    parents: Vec<Option<usize>>,
    counters: Vec<(String, String)>,
    totals: Vec<(String, u64)>,
    /// Per step, what the totals are checked against.
    done: Vec<Done>,
}

impl Trace {
    /// Player `id` (traces with the same id are one player's instances, in
    /// the order written), its title, this instance's label and the code
    /// shown beside the board.
    pub fn new(id: &str, title: &str, instance: &str, code: Code) -> Trace {
        let mut head = Out::default();
        head.rec(&["trace", id, title, instance]);
        head.rec(&["code", &code.path, &code.anchor]);
        for line in &code.lines {
            head.rec(&["src", line]);
        }
        Trace {
            head,
            steps: Out::default(),
            code,
            path: vec![0],
            parents: vec![None],
            counters: Vec::new(),
            totals: Vec::new(),
            done: Vec::new(),
        }
    }

    /// The board and givens records (`board`, `node`, `edge`, `given`).
    pub fn rec(&mut self, fields: &[&str]) {
        self.head.rec(fields);
    }

    /// A counter the player shows: `rule` is `steps:KIND,KIND` (the steps
    /// of those kinds so far), `marks:MARK` (the steps with that marker
    /// so far), `nodes` (the tree nodes entered so far, the root included),
    /// `depth` (the current node's depth) or `line:NEEDLE` (the steps lit
    /// at the code line NEEDLE names, written as its number); `definition`
    /// is the legend's sentence.
    pub fn counter(&mut self, name: &str, rule: &str, definition: &str) {
        let line;
        let rule = match rule.strip_prefix("line:") {
            Some(needle) => {
                line = format!("line:{}", self.code.line(needle));
                line.as_str()
            }
            None => rule,
        };
        assert!(
            rule == "depth"
                || rule == "nodes"
                || rule.starts_with("line:")
                || rule
                    .strip_prefix("steps:")
                    .is_some_and(|k| k.split(',').all(|k| KINDS.contains(&k)))
                || ["marks:solution", "marks:dead", "marks:guess"].contains(&rule),
            "unknown counter rule {rule:?}"
        );
        self.head.rec(&["counter", name, rule, definition]);
        self.counters.push((name.to_string(), rule.to_string()));
    }

    /// The value counter `name` must show after the last step, computed by
    /// the caller from the reference (not from the steps): [`Trace::finish`]
    /// panics when the steps disagree.
    pub fn total(&mut self, name: &str, value: u64) {
        self.head.rec(&["total", name, &value.to_string()]);
        self.totals.push((name.to_string(), value));
    }

    /// The current node's depth (the root's is 0).
    pub fn depth(&self) -> usize {
        self.path.len() - 1
    }

    /// A step into a new child of the current node.
    pub fn down(&mut self, step: Step) {
        let node = self.parents.len();
        self.parents.push(Some(self.node()));
        self.path.push(node);
        self.write(step);
    }

    /// A step back from the current node to its parent.
    pub fn up(&mut self, step: Step) {
        assert!(self.path.len() > 1, "up from the root: {:?}", step.say);
        self.path.pop();
        self.write(step);
    }

    /// A step from the current node to a new sibling of it (a new child
    /// of the same parent), as a tree walk's "right" move.
    pub fn side(&mut self, step: Step) {
        assert!(
            self.path.len() > 1,
            "the root has no sibling: {:?}",
            step.say
        );
        self.path.pop();
        self.down(step);
    }

    /// A step that stays on the current node.
    pub fn stay(&mut self, step: Step) {
        self.write(step);
    }

    /// Says the tree's nodes are calls of `name`: the player's frames
    /// panel lists the open calls as `name(args)`.
    pub fn function(&mut self, name: &str) {
        self.head.rec(&["function", name]);
    }

    /// Names the current node by its call's arguments in short form
    /// ("2, 3"): the tree shows it on the node, the frames panel on the
    /// open call. Write it right after the step that entered the node.
    pub fn call(&mut self, args: &str) {
        let node = self.node().to_string();
        self.steps.rec(&["call", &node, args]);
    }

    /// What the current node's call returns ("3", "false"), shown on the
    /// node once the search has left it. Write it before the step back up.
    pub fn ret(&mut self, value: &str) {
        let node = self.node().to_string();
        self.steps.rec(&["return", &node, value]);
    }

    /// The current node's call's locals in short form ("left = 2, sum =
    /// 3"), shown under its open call in the frames panel from the next
    /// step on, until its next `locals`. Write it before the step it goes
    /// with, while the search stands on the call's own node.
    pub fn locals(&mut self, text: &str) {
        let node = self.node().to_string();
        self.steps.rec(&["locals", &node, text]);
    }

    /// The caller's locals once the current call has returned (its sum
    /// grown by the return): written between [`Trace::ret`] and the step
    /// back up, which they go with.
    pub fn caller_locals(&mut self, text: &str) {
        let caller = self.path.len().checked_sub(2).map(|i| self.path[i]);
        let caller = caller.expect("the root has no caller").to_string();
        self.steps.rec(&["locals", &caller, text]);
    }

    fn node(&self) -> usize {
        *self.path.last().expect("the root stays on the path")
    }

    fn write(&mut self, s: Step) {
        let kind = KINDS
            .iter()
            .find(|k| **k == s.kind)
            .unwrap_or_else(|| panic!("unknown step kind {:?}", s.kind));
        let line = if s.line.is_empty() {
            0
        } else {
            self.code.line(s.line)
        };
        let node = self.node();
        let parent = self.parents[node].map_or("-".to_string(), |p| p.to_string());
        let (r, c) = s.cell.map_or(("-".into(), "-".into()), |(r, c)| {
            (r.to_string(), c.to_string())
        });
        self.steps.rec(&[
            "step",
            kind,
            &node.to_string(),
            &parent,
            &line.to_string(),
            s.mark.word(),
            &r,
            &c,
            s.text,
            s.say,
        ]);
        self.done.push(Done {
            kind,
            mark: s.mark,
            depth: self.depth(),
            line,
        });
    }

    /// What counter `rule` shows after every step.
    pub fn value(&self, rule: &str) -> u64 {
        if rule == "depth" {
            return self.done.last().map_or(0, |d| d.depth as u64);
        }
        if rule == "nodes" {
            return if self.done.is_empty() {
                0
            } else {
                self.parents.len() as u64
            };
        }
        let hits = |f: &dyn Fn(&Done) -> bool| self.done.iter().filter(|d| f(d)).count() as u64;
        match rule.split_once(':') {
            Some(("line", n)) => hits(&|d| d.line.to_string() == n),
            Some(("steps", kinds)) => hits(&|d| kinds.split(',').any(|k| k == d.kind)),
            Some(("marks", mark)) => hits(&|d| d.mark.word() == mark),
            _ => panic!("unknown counter rule {rule:?}"),
        }
    }

    /// Writes the instance to `out`; panics when a total disagrees with
    /// the steps, so a player never contradicts its narration.
    pub fn finish(self, out: &mut Out) {
        for (name, want) in &self.totals {
            let (_, rule) = self
                .counters
                .iter()
                .find(|c| &c.0 == name)
                .unwrap_or_else(|| panic!("a total for the undeclared counter {name:?}"));
            let got = self.value(rule);
            assert_eq!(
                got, *want,
                "counter {name:?} ({rule}) ends at {got}, the reference says {want}"
            );
        }
        out.rec_all(self.head);
        out.rec_all(self.steps);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "fn a() {}\n// ANCHOR: f\n/// Doc.\nfn f(x: u32) -> u32 {\n    // ANCHOR: inner\n    x + 1\n    // ANCHOR_END: inner\n}\n// ANCHOR_END: f\n";

    #[test]
    fn a_region_is_what_the_book_includes_and_a_needle_names_one_line() {
        let code = Code::new("src/f.rs", SOURCE, "f");
        assert_eq!(
            code.lines,
            ["/// Doc.", "fn f(x: u32) -> u32 {", "    x + 1", "}"]
        );
        assert_eq!(code.line("x + 1"), 3);
        assert_eq!(Code::new("src/f.rs", SOURCE, "inner").lines, ["    x + 1"]);
    }

    #[test]
    #[should_panic(expected = "2 lines of src/f.rs:f contain \"x\"")]
    fn an_ambiguous_needle_is_refused() {
        Code::new("src/f.rs", SOURCE, "f").line("x");
    }

    #[test]
    #[should_panic(expected = "has no anchored region `g`")]
    fn a_missing_anchor_is_refused() {
        Code::new("src/f.rs", SOURCE, "g");
    }

    #[test]
    fn steps_name_their_node_parent_and_line_and_the_totals_are_checked() {
        let mut t = Trace::new("p", "A walk", "x = 1", Code::new("f.rs", SOURCE, "f"));
        t.counter("calls", "steps:try", "calls of f");
        t.counter("found", "marks:solution", "answers");
        t.counter("depth", "depth", "open calls");
        t.total("calls", 1);
        t.total("found", 1);
        t.down(Step::new("try", "fn f", "call").at((0, 1), "1"));
        t.stay(Step::new("found", "x + 1", "done").mark(Mark::Solution));
        assert_eq!(t.value("depth"), 1);
        t.up(Step::new("undo", "", "back"));
        assert_eq!(t.value("depth"), 0);
        let mut out = Out::default();
        t.finish(&mut out);
        let text = out.into_text();
        assert!(text.starts_with("trace\tp\tA walk\tx = 1\ncode\tf.rs\tf\nsrc\t/// Doc.\n"));
        assert!(
            text.contains("step\ttry\t1\t0\t2\t-\t0\t1\t1\tcall\n"),
            "{text}"
        );
        assert!(text.contains("step\tfound\t1\t0\t3\tsolution\t-\t-\t\tdone\n"));
        assert!(text.contains("step\tundo\t0\t-\t0\t-\t-\t-\t\tback\n"));
    }

    #[test]
    fn a_node_carries_its_calls_arguments_locals_and_return_and_a_line_counter_counts_its_line() {
        let mut t = Trace::new("p", "A walk", "x", Code::new("f.rs", SOURCE, "f"));
        t.function("f");
        t.counter("calls", "line:fn f", "calls of f");
        t.total("calls", 2);
        t.stay(Step::new("note", "fn f", "first call"));
        t.call("1");
        t.locals("x = 1");
        t.down(Step::new("note", "fn f", "second call"));
        t.call("2");
        t.ret("3");
        t.caller_locals("x = 4");
        t.up(Step::new("note", "x + 1", "back"));
        assert_eq!(t.value("line:2"), 2);
        let mut out = Out::default();
        t.finish(&mut out);
        let text = out.into_text();
        assert!(text.contains("function\tf\n"), "{text}");
        assert!(
            text.contains("counter\tcalls\tline:2\tcalls of f\n"),
            "{text}"
        );
        assert!(
            text.contains("call\t0\t1\nlocals\t0\tx = 1\nstep\tnote\t1\t0\t2\t-\t-\t-\t\tsecond call\ncall\t1\t2\nreturn\t1\t3\nlocals\t0\tx = 4\n"),
            "{text}"
        );
    }

    #[test]
    #[should_panic(expected = "counter \"found\" (marks:solution) ends at 0, the reference says 4")]
    fn a_total_the_steps_do_not_reach_is_refused() {
        let mut t = Trace::new("p", "A walk", "x", Code::new("f.rs", SOURCE, "f"));
        t.counter("found", "marks:solution", "answers");
        t.total("found", 4);
        t.stay(Step::new("note", "", "nothing"));
        t.finish(&mut Out::default());
    }
}
