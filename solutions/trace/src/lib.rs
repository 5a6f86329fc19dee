//! The one writer of the book's records, shared by every chapter's recorder.
//!
//! The problem: each solution crate's `book.rs` records what the book shows
//! (a player's steps, a figure's cells, a quiz with its computed answer) as
//! the tab-separated lines `workbook book build` reads
//! (workbook/src/book/records.rs describes them), and six copies of the same
//! writer drift apart. The state is the text written so far, in an [`Out`];
//! each record costs its length. This crate is reference-side only: solution
//! crates depend on it, never an exercise crate or the `workbook` tool (which
//! reads the lines, not this code).

/// Tab-separated record lines, one record per line.
#[derive(Debug, Default)]
pub struct Out(String);

/// One step of a player: `op` is try, place, reject, undo or found; `cell`
/// is `(row, col)` on a grid, `(vertex, 0)` on a graph, or `None`.
pub struct Step<'a> {
    pub op: &'a str,
    pub cell: Option<(usize, usize)>,
    pub text: &'a str,
    pub depth: usize,
    pub say: &'a str,
}

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

    /// One step of the open trace.
    pub fn step(&mut self, s: Step) {
        let (r, c) = s.cell.map_or(("-".into(), "-".into()), |(r, c)| {
            (r.to_string(), c.to_string())
        });
        self.rec(&["ev", s.op, &r, &c, s.text, &s.depth.to_string(), s.say]);
    }

    /// One step, positional: the shape every chapter's recorder calls.
    pub fn ev(
        &mut self,
        op: &str,
        cell: Option<(usize, usize)>,
        text: &str,
        depth: usize,
        say: &str,
    ) {
        self.step(Step {
            op,
            cell,
            text,
            depth,
            say,
        });
    }

    /// One cell of the open figure, with its text and CSS class.
    pub fn cell(&mut self, row: usize, col: usize, text: &str, class: &str) {
        self.rec(&["cell", &row.to_string(), &col.to_string(), text, class]);
    }

    /// A quiz: its question, the right answer (computed by the caller from
    /// the reference), the tempting wrong ones, and why. A wrong answer equal
    /// to the right one, or to an earlier wrong one, is dropped, so a quiz
    /// never offers the right answer twice or marks it wrong.
    pub fn quiz(&mut self, q: Quiz) {
        self.rec(&["quiz", q.id, q.question]);
        self.rec(&["choice", "1", &q.right]);
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
    fn a_step_without_a_cell_writes_dashes() {
        let mut out = Out::default();
        out.ev("found", None, "", 0, "done");
        out.ev("try", Some((3, 4)), "Q", 2, "put");
        assert_eq!(
            out.into_text(),
            "ev\tfound\t-\t-\t\t0\tdone\nev\ttry\t3\t4\tQ\t2\tput\n"
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
