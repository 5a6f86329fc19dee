//! The one writer of the book's records, shared by every chapter's recorder.
//!
//! The problem: each solution crate's `book.rs` records what the book shows
//! (a player's steps, a figure's cells, a quiz with its computed answer) as
//! the tab-separated lines `cargo xtask book build` reads
//! (core/src/players/records.rs reads them), and six copies of the same
//! writer drift apart. The state is the text written so far, in an [`Out`];
//! each record costs its length. This crate is reference-side only: solution
//! crates depend on it, never an exercise crate or the `workbook` tool (which
//! reads the lines, not this code).
//!
//! # The player's trace format
//!
//! One record per line, fields separated by tabs (a tab or newline inside a
//! field becomes a space). A player is one or more instances (`trace`
//! records sharing an ID, shown in the order written, with a chooser); each
//! instance is recorded from the reference at build time by [`Trace`].
//! Anything that can run a search and write these lines can be replayed in
//! the same player: a learner-side recorder writes the same records with
//! `LINE` 0 when it has no anchored code, and the player then shows no lit
//! line.
//!
//! ```text
//! trace   ID  TITLE  INSTANCE           an instance of player ID; INSTANCE labels it ("n = 5")
//! board   grid ROWS COLS BOX | graph    what the board is (see records.rs), then node/edge/given
//! code    PATH  ANCHOR                  the code shown beside the board: region ANCHOR of PATH
//! src     TEXT                          one line of that region, in order, as the book includes it
//! counter NAME  RULE  DEFINITION        a counter and its legend; RULE is one of
//!                                         steps:KIND,KIND  the steps of those kinds so far
//!                                         marks:MARK       the steps with that marker so far
//!                                         nodes            the tree nodes entered so far (the
//!                                                          root counts from the first step)
//!                                         depth            the current node's depth (root 0)
//!                                         line:N           the steps lit at code line N so far
//!                                                          (e.g. a function's first line: its calls)
//! total   NAME  VALUE                   what counter NAME shows after the last step, computed
//!                                       from the reference; the writer refuses a trace whose
//!                                       steps end elsewhere
//! step    KIND NODE PARENT LINE MARK R C TEXT SAY
//! function NAME                        the nodes are calls of NAME (the frames panel names it)
//! call    NODE  ARGS                    node NODE (entered by a step before) is the call
//!                                       with these arguments, in short form ("2, 3")
//! return  NODE  VALUE                   what node NODE's call returned ("3", "false")
//! ```
//!
//! `call` and `return` are what the tree shows on each node without
//! hovering (VisuAlgo's `f(args) → value`), and the player's frames panel
//! lists the open calls by their `call` labels. They are optional: a node
//! without one is named by its step's cell.
//!
//! A `step` is one thing the search does:
//! - `KIND` says how the board changes: `try` (fill an empty cell
//!   tentatively), `place` (fill it), `reject` (clear a tried cell), `undo`
//!   (take a placed cell back; on a graph the vertex stays seen), `found`
//!   (nothing changes; the search has an answer), `note` (nothing changes).
//! - `NODE` is the search-tree node current after the step and `PARENT` its
//!   parent (`-` for the root, node 0). Node ids are given in the order the
//!   nodes are first entered, so a node's first step introduces it; a node's
//!   parent never changes. The depth is the number of its ancestors: it is
//!   never written, so it cannot lag.
//! - `LINE` is the 1-based line of the `code` region the step comes from
//!   (0: none). A recorder never writes a number: it names a needle that
//!   must occur on exactly one line of the region ([`Code::line`]), so a
//!   changed solver fails the recorder's tests instead of lighting the
//!   wrong line.
//! - `MARK` is `-`, `solution` (an answer at this step), `dead` (the node
//!   the step leaves had no way on) or `guess` (the node the step enters is
//!   one of two or more choices); the timeline shows them and the player's
//!   keys jump to the next of each.
//! - `R C` is the cell (`row col`, or `vertex 0` on a graph; `- -` for
//!   none), `TEXT` what the cell shows, `SAY` the narration.

mod next;
pub mod numbers;
mod player;

pub use player::{Code, KINDS, Mark, Step, Trace};

/// Tab-separated record lines, one record per line.
#[derive(Debug, Default)]
pub struct Out(String, String);

impl Out {
    /// Everything written, for the example to print.
    pub fn into_text(self) -> String {
        self.0
    }

    /// Everything written so far.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// Appends what another writer recorded (e.g. one kept by a search).
    pub fn rec_all(&mut self, other: Out) {
        self.0.push_str(&other.0);
    }

    /// One record; a tab or a newline inside a field becomes a space, so a
    /// field can never split a record.
    pub fn rec(&mut self, fields: &[&str]) {
        let clean: Vec<String> = fields
            .iter()
            .map(|f| f.replace(['\t', '\n'], " "))
            .collect();
        self.0.push_str(&clean.join("\t"));
        self.0.push('\n');
    }

    /// One cell of the open figure, with its text and CSS class.
    pub fn cell(&mut self, row: usize, col: usize, text: &str, class: &str) {
        self.rec(&["cell", &row.to_string(), &col.to_string(), text, class]);
    }

    /// Feedback for the wrong choice `wrong` of the quiz just written: what
    /// picking it would mean, shown when a reader picks it. Every wrong
    /// choice needs one (the book's reader refuses a quiz without); feedback
    /// for a "wrong" choice that equals the right answer, which [`Out::quiz`]
    /// dropped, is dropped with it.
    pub fn why(&mut self, wrong: &str, feedback: &str) {
        if wrong != self.1 {
            self.rec(&["why", wrong, feedback]);
        }
    }

    /// A quiz: its question, the right answer (computed by the caller from
    /// the reference), the tempting wrong ones, and why. A wrong answer equal
    /// to the right one, or to an earlier wrong one, is dropped, so a quiz
    /// never offers the right answer twice or marks it wrong.
    pub fn quiz(&mut self, q: Quiz) {
        self.rec(&["quiz", q.id, q.question]);
        self.rec(&["choice", "1", &q.right]);
        self.1.clone_from(&q.right);
        let mut shown = vec![q.right.clone()];
        for w in q.wrong {
            if !shown.contains(&w) {
                self.rec(&["choice", "0", &w]);
                shown.push(w);
            }
        }
        self.rec(&["explain", &q.explain]);
    }
}

/// A multiple-choice question whose answer the recorder computed.
pub struct Quiz<'a> {
    pub id: &'a str,
    pub question: &'a str,
    pub right: String,
    pub wrong: Vec<String>,
    pub explain: String,
}

/// `n` with a comma between thousands, as the book prints big numbers:
/// 1368 -> "1,368".
pub fn thousands(n: u64) -> String {
    separated(&n.to_string())
}

/// A string of decimal digits with a comma between thousands, for numbers
/// past u64 (a u128, a big integer's digits) and for the maintainer's
/// check that prose writes them so: "28453041475240576740" ->
/// "28,453,041,475,240,576,740". The one place the book's separator rule
/// is written.
pub fn separated(digits: &str) -> String {
    separated_with(digits, ',')
}

/// [`separated`] with another language's separator between thousands (the
/// narrow no-break space of Russian: "2 095"); see [`numbers`].
pub fn separated_with(digits: &str, separator: char) -> String {
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(ch);
    }
    out
}

/// For recorders' tests: the right answer and the number of choices of the
/// quiz `id` in `records`, or `None` when there is no such quiz.
pub fn answer(records: &str, id: &str) -> Option<(String, usize)> {
    let header = format!("quiz\t{id}\t");
    let mut lines = records.lines().skip_while(|l| !l.starts_with(&header));
    lines.next()?;
    let mut right = None;
    let mut choices = 0;
    for line in lines.take_while(|l| l.starts_with("choice\t")) {
        choices += 1;
        if let Some(text) = line.strip_prefix("choice\t1\t") {
            right = Some(text.to_string());
        }
    }
    Some((right?, choices))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_with_a_tab_or_newline_stays_one_field() {
        let mut out = Out::default();
        out.rec(&["cell", "1", "2", "a\tb\nc", "q"]);
        assert_eq!(out.into_text(), "cell\t1\t2\ta b c\tq\n");
    }

    #[test]
    fn big_numbers_get_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1368), "1,368");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(
            separated("28453041475240576740"),
            "28,453,041,475,240,576,740"
        );
    }

    #[test]
    fn a_wrong_answer_equal_to_the_right_one_is_dropped_and_the_answer_is_found() {
        let mut out = Out::default();
        out.quiz(Quiz {
            id: "q",
            question: "How many?",
            right: "4".into(),
            wrong: vec!["4".into(), "5".into(), "5".into(), "6".into()],
            explain: "Count.".into(),
        });
        let text = out.into_text();
        assert_eq!(answer(&text, "q"), Some(("4".to_string(), 3)));
        assert_eq!(answer(&text, "other"), None);
    }
}
