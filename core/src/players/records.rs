//! The record format the solution crates' `<slug>_book` examples print.
//!
//! The problem: the reference solvers know what the book should show (the
//! steps of a search, a board, the answer to a quiz) but must not depend on
//! this tool, and this tool must not depend on them. So each example prints
//! plain lines, one record per line, fields separated by tabs, and this
//! module reads them into a [`Doc`]. The state is the item being read (the
//! last `trace`, `figure` or `quiz` header); reading is one pass, O(lines).
//!
//! The player's records (`trace`, `code`, `src`, `counter`, `total`, `step`)
//! are documented in one place, the module doc of the `book_trace` crate
//! (solutions/trace/src/lib.rs), which writes them; the others:
//!
//! ```text
//! trace   ID  TITLE  INSTANCE            an instance of player ID (see book_trace)
//! board   grid  ROWS  COLS  BOX          BOX: thick lines every BOX cells, 0 for none
//! board   graph                          nodes and edges follow
//! node    X  Y  LABEL                    a vertex at (X, Y) in 0..=100
//! edge    A  B                           an edge between vertices A and B
//! given   R  C  TEXT                     a cell filled before the search starts
//! ev      OP  R  C  TEXT  DEPTH  SAY     OP: try place reject undo found; R C: "-" for none
//! figure  ID  grid|graph|tree  ROWS  COLS  BOX  CAPTION
//!                                        tree: labelled boxes at (X = level, Y = row) of a
//!                                        COLS x ROWS lattice, an edge joins parent to child;
//!                                        table: an HTML table of computed figures, row 0 its
//!                                        header, one `cell` per entry (CLASS `num`: a number)
//! cell    R  C  TEXT  CLASS              CLASS: see render.rs (queen, attacked, given, ...)
//! line    R,C R,C ...  [CLASS]           a path through cell centres (space separated);
//!                                        with a CLASS (e.g. `join`), a highlight without end marks
//! quiz    ID  QUESTION
//! choice  RIGHT  TEXT                    RIGHT: 1 for the right answer, else 0
//! why     TEXT  FEEDBACK                 what picking the wrong choice TEXT means; every
//!                                        wrong choice needs one, or the quiz is refused
//! at      PLAYER  INSTANCE  STEP         a "what happens next?" quiz: the player (its element
//!                                        id), instance (0-based) and step it stands at
//! explain TEXT
//! ```

use anyhow::{Result, bail};

/// Everything one chapter's example printed.
#[derive(Debug, Default)]
pub struct Doc {
    pub traces: Vec<Trace>,
    pub figures: Vec<Figure>,
    pub quizzes: Vec<Quiz>,
}

/// What the player draws on: a grid of cells or a drawn graph.
#[derive(Debug, Clone, PartialEq)]
pub enum Board {
    Grid {
        rows: usize,
        cols: usize,
        boxed: usize,
    },
    Graph,
    /// A tree laid out level by level: `cols` levels left to right, `rows`
    /// rows; its nodes sit at (level, row) and carry their labels.
    Tree {
        rows: usize,
        cols: usize,
    },
    /// A table of computed figures: row 0 is the header; each cell is
    /// written as text (class `num` right-aligns it).
    Table {
        rows: usize,
        cols: usize,
    },
}

/// One instance of a player; instances sharing an `id` are one player.
#[derive(Debug)]
pub struct Trace {
    pub id: String,
    pub title: String,
    pub instance: String,
    pub board: Board,
    pub nodes: Vec<(f64, f64, String)>,
    pub edges: Vec<(usize, usize)>,
    pub given: Vec<(usize, usize, String)>,
    /// The code shown beside the board: path, anchor and its lines.
    pub code: (String, String, Vec<String>),
    /// Name, rule and definition of each counter.
    pub counters: Vec<(String, String, String)>,
    pub totals: Vec<(String, u64)>,
    pub steps: Vec<Step>,
    /// The search tree: each node's parent, by node id (the root's is None).
    pub parents: Vec<Option<usize>>,
    /// The function whose calls the tree's nodes are (`function` record),
    /// named in the frames panel; none when the nodes are not calls.
    pub function: Option<String>,
    /// What each labelled node is: its call's arguments in short form
    /// (`call` records), by node id.
    pub calls: Vec<(usize, String)>,
    /// What each returned node's call gave back (`return` records), and
    /// the number of steps before it: the player shows it from then on.
    pub returns: Vec<(usize, String, usize)>,
    /// An open call's locals in short form (`locals` records: "left = 2,
    /// sum = 3"), and the number of steps before the step they go with:
    /// the frames panel shows a call's latest from that step on.
    pub locals: Vec<(usize, String, usize)>,
}

/// One step of a search (see `book_trace` for the fields). `cell` is
/// `(row, col)`, or `(vertex, 0)` on a graph; `line` 0 lights no line.
#[derive(Debug)]
pub struct Step {
    pub kind: String,
    pub node: usize,
    pub parent: Option<usize>,
    pub line: usize,
    pub mark: String,
    pub cell: Option<(usize, usize)>,
    pub text: String,
    pub say: String,
}

#[derive(Debug)]
pub struct Figure {
    pub id: String,
    pub board: Board,
    pub caption: String,
    pub nodes: Vec<(f64, f64, String)>,
    pub edges: Vec<(usize, usize)>,
    pub cells: Vec<(usize, usize, String, String)>,
    pub lines: Vec<(Vec<(usize, usize)>, String)>,
}

#[derive(Debug)]
pub struct Quiz {
    pub id: String,
    pub question: String,
    pub choices: Vec<(bool, String)>,
    /// Feedback for a wrong choice, by its text.
    pub why: Vec<(String, String)>,
    pub explain: String,
    /// The player's element id, instance and step a "what happens next?"
    /// quiz stands at.
    pub at: Option<(String, usize, usize)>,
}

/// The item the next body record belongs to.
enum Open {
    None,
    Trace,
    Figure,
    Quiz,
}

const KINDS: [&str; 6] = ["try", "place", "reject", "undo", "found", "note"];
const MARKS: [&str; 4] = ["-", "solution", "dead", "guess"];

/// Reads an example's output; an error names the line and what is wrong.
pub fn parse(text: &str) -> Result<Doc> {
    let mut doc = Doc::default();
    let mut open = Open::None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if let Err(e) = record(&mut doc, &mut open, &f) {
            bail!("line {}: {e} (in {line:?})", i + 1);
        }
    }
    for q in &doc.quizzes {
        reasoned(q)?;
    }
    Ok(doc)
}

/// A quiz must say why each of its answers is right or wrong: the right one
/// through its explanation, every wrong one through its `why`, so a reader
/// who picks it learns what the pick meant, not just "try again".
fn reasoned(q: &Quiz) -> Result<()> {
    if q.explain.trim().is_empty() {
        bail!("quiz `{}` has no explanation of its answer", q.id);
    }
    for (right, text) in &q.choices {
        if !right && !q.why.iter().any(|w| &w.0 == text && !w.1.trim().is_empty()) {
            bail!(
                "quiz `{}`: the wrong choice `{text}` does not say why it is wrong (write a `why` record)",
                q.id
            );
        }
    }
    Ok(())
}

fn record(doc: &mut Doc, open: &mut Open, f: &[&str]) -> Result<()> {
    match (f[0], &*open) {
        ("trace", _) => {
            want(f, 4)?;
            doc.traces.push(Trace {
                id: id(f[1])?,
                title: f[2].to_string(),
                instance: f[3].to_string(),
                board: Board::Graph,
                nodes: Vec::new(),
                edges: Vec::new(),
                given: Vec::new(),
                code: Default::default(),
                counters: Vec::new(),
                totals: Vec::new(),
                steps: Vec::new(),
                parents: vec![None],
                function: None,
                calls: Vec::new(),
                returns: Vec::new(),
                locals: Vec::new(),
            });
            *open = Open::Trace;
        }
        ("figure", _) => {
            want(f, 7)?;
            doc.figures.push(Figure {
                id: id(f[1])?,
                board: board(f[2], &f[3..6])?,
                caption: f[6].to_string(),
                nodes: Vec::new(),
                edges: Vec::new(),
                cells: Vec::new(),
                lines: Vec::new(),
            });
            *open = Open::Figure;
        }
        ("quiz", _) => {
            want(f, 3)?;
            doc.quizzes.push(Quiz {
                id: id(f[1])?,
                question: f[2].to_string(),
                choices: Vec::new(),
                why: Vec::new(),
                explain: String::new(),
                at: None,
            });
            *open = Open::Quiz;
        }
        (_, Open::Trace) => trace_body(doc, f)?,
        (_, Open::Figure) => figure_body(doc, f)?,
        (_, Open::Quiz) => quiz_body(doc, f)?,
        (kind, Open::None) => bail!("record `{kind}` before any trace, figure or quiz"),
    }
    Ok(())
}

fn trace_body(doc: &mut Doc, f: &[&str]) -> Result<()> {
    let Some(t) = doc.traces.last_mut() else {
        bail!("no trace is open");
    };
    match f[0] {
        "board" => {
            want(f, 2)?;
            let sizes = f.get(2..5).unwrap_or(&["0", "0", "0"]).to_vec();
            t.board = board(f[1], &sizes)?;
        }
        "node" => t.nodes.push(node(f)?),
        "edge" => t.edges.push(pair(f)?),
        "given" => {
            want(f, 4)?;
            t.given.push((num(f[1])?, num(f[2])?, f[3].to_string()));
        }
        "code" => {
            want(f, 3)?;
            t.code = (f[1].to_string(), f[2].to_string(), Vec::new());
        }
        "src" => t.code.2.push(f.get(1).unwrap_or(&"").to_string()),
        "counter" => {
            want(f, 4)?;
            t.counters
                .push((f[1].to_string(), f[2].to_string(), f[3].to_string()));
        }
        "total" => {
            want(f, 3)?;
            if !t.counters.iter().any(|c| c.0 == f[1]) {
                bail!("a total for `{}`, which is no counter", f[1]);
            }
            t.totals.push((f[1].to_string(), num(f[2])? as u64));
        }
        "step" => {
            let s = step(t, f)?;
            t.steps.push(s);
        }
        "function" => {
            want(f, 2)?;
            t.function = Some(f[1].to_string());
        }
        "call" | "return" | "locals" => {
            want(f, 3)?;
            let node = num(f[1])?;
            if node >= t.parents.len() {
                bail!("`{}` for node {node}, which no step has entered", f[0]);
            }
            match f[0] {
                "call" => t.calls.push((node, f[2].to_string())),
                "return" => t.returns.push((node, f[2].to_string(), t.steps.len())),
                // Locals are written before the step they go with: they
                // hold from that step on.
                _ => t.locals.push((node, f[2].to_string(), t.steps.len() + 1)),
            }
        }
        kind => bail!("unknown record `{kind}` inside a trace"),
    }
    Ok(())
}

fn step(t: &mut Trace, f: &[&str]) -> Result<Step> {
    want(f, 10)?;
    if !KINDS.contains(&f[1]) {
        bail!("unknown step `{}` (one of {KINDS:?})", f[1]);
    }
    if !MARKS.contains(&f[5]) {
        bail!("unknown marker `{}` (one of {MARKS:?})", f[5]);
    }
    let node = num(f[2])?;
    let parent = match f[3] {
        "-" => None,
        p => Some(num(p)?),
    };
    // A node's first step introduces it with its parent (node ids in the
    // order first entered); its parent never changes.
    if node == t.parents.len() {
        match parent {
            Some(p) if p < node => t.parents.push(parent),
            _ => bail!("node {node} is entered from an unknown parent"),
        }
    } else if t.parents.get(node) != Some(&parent) {
        bail!("node {node} is not the next new node and not a known one with that parent");
    }
    let line = num(f[4])?;
    if line > t.code.2.len() {
        bail!("line {line} is past the code's {} lines", t.code.2.len());
    }
    let cell = match (f[6], f[7]) {
        ("-", _) | (_, "-") => None,
        (r, c) => Some((num(r)?, num(c)?)),
    };
    Ok(Step {
        kind: f[1].to_string(),
        node,
        parent,
        line,
        mark: f[5].to_string(),
        cell,
        text: f[8].to_string(),
        say: f[9].to_string(),
    })
}

fn figure_body(doc: &mut Doc, f: &[&str]) -> Result<()> {
    let Some(fig) = doc.figures.last_mut() else {
        bail!("no figure is open");
    };
    match f[0] {
        "node" => fig.nodes.push(node(f)?),
        "edge" => fig.edges.push(pair(f)?),
        "cell" => {
            want(f, 5)?;
            fig.cells
                .push((num(f[1])?, num(f[2])?, f[3].to_string(), f[4].to_string()));
        }
        "line" => {
            want(f, 2)?;
            let mut points = Vec::new();
            for p in f[1].split_whitespace() {
                let Some((r, c)) = p.split_once(',') else {
                    bail!("a line point is `ROW,COL`, not `{p}`");
                };
                points.push((num(r)?, num(c)?));
            }
            fig.lines
                .push((points, f.get(2).unwrap_or(&"").to_string()));
        }
        kind => bail!("unknown record `{kind}` inside a figure"),
    }
    Ok(())
}

fn quiz_body(doc: &mut Doc, f: &[&str]) -> Result<()> {
    let Some(q) = doc.quizzes.last_mut() else {
        bail!("no quiz is open");
    };
    match f[0] {
        "choice" => {
            want(f, 3)?;
            q.choices.push((f[1] == "1", f[2].to_string()));
        }
        "why" => {
            want(f, 3)?;
            if !q.choices.iter().any(|c| !c.0 && c.1 == f[1]) {
                bail!("feedback for `{}`, which is no wrong choice", f[1]);
            }
            q.why.push((f[1].to_string(), f[2].to_string()));
        }
        "explain" => {
            want(f, 2)?;
            q.explain = f[1].to_string();
        }
        "at" => {
            want(f, 4)?;
            q.at = Some((id(f[1])?, num(f[2])?, num(f[3])?));
        }
        kind => bail!("unknown record `{kind}` inside a quiz"),
    }
    Ok(())
}

fn board(kind: &str, sizes: &[&str]) -> Result<Board> {
    match kind {
        "graph" => Ok(Board::Graph),
        "grid" => {
            if sizes.len() < 3 {
                bail!("a grid needs ROWS COLS BOX");
            }
            Ok(Board::Grid {
                rows: num(sizes[0])?,
                cols: num(sizes[1])?,
                boxed: num(sizes[2])?,
            })
        }
        "tree" => {
            if sizes.len() < 2 {
                bail!("a tree needs ROWS COLS");
            }
            Ok(Board::Tree {
                rows: num(sizes[0])?,
                cols: num(sizes[1])?,
            })
        }
        "table" => {
            if sizes.len() < 2 {
                bail!("a table needs ROWS COLS");
            }
            Ok(Board::Table {
                rows: num(sizes[0])?,
                cols: num(sizes[1])?,
            })
        }
        other => bail!("a board is `grid`, `graph`, `tree` or `table`, not `{other}`"),
    }
}

fn node(f: &[&str]) -> Result<(f64, f64, String)> {
    want(f, 4)?;
    let coord = |s: &str| match s.parse::<f64>() {
        Ok(v) if (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(anyhow::anyhow!(
            "a coordinate is a number in 0..=100, not `{s}`"
        )),
    };
    Ok((coord(f[1])?, coord(f[2])?, f[3].to_string()))
}

fn pair(f: &[&str]) -> Result<(usize, usize)> {
    want(f, 3)?;
    Ok((num(f[1])?, num(f[2])?))
}

fn want(f: &[&str], n: usize) -> Result<()> {
    if f.len() < n {
        bail!(
            "`{}` needs {} tab-separated fields, found {}",
            f[0],
            n,
            f.len()
        );
    }
    Ok(())
}

fn num(s: &str) -> Result<usize> {
    s.parse()
        .map_err(|_| anyhow::anyhow!("`{s}` is not a whole number"))
}

/// Ids name files and HTML elements, so they are kept plain.
fn id(s: &str) -> Result<String> {
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        bail!("an id is letters, digits and `-`, not `{s}`");
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_with_its_board_and_steps_is_read() {
        let text = "trace\tt1\tA walk\tn = 2\nboard\tgrid\t2\t2\t0\ngiven\t0\t0\tQ\n\
                    code\tf.rs\tf\nsrc\tfn f() {}\n\
                    step\ttry\t1\t0\t1\t-\t1\t1\tQ\tput a queen\n\
                    step\tfound\t1\t0\t0\tsolution\t-\t-\t\tdone\n";
        let doc = parse(text).expect("valid records");
        let t = &doc.traces[0];
        assert_eq!(
            t.board,
            Board::Grid {
                rows: 2,
                cols: 2,
                boxed: 0
            }
        );
        assert_eq!(t.steps.len(), 2);
        assert_eq!(t.steps[0].cell, Some((1, 1)));
        assert_eq!(t.steps[0].parent, Some(0));
        assert_eq!(t.steps[1].cell, None);
        assert_eq!(t.code.2, ["fn f() {}"]);
    }

    #[test]
    fn a_nodes_call_and_return_are_read_and_a_return_is_shown_from_its_step() {
        let text = "trace\tt1\tA walk\tn = 2\nboard\tgrid\t2\t2\t0\nfunction\tf\n\
                    code\tf.rs\tf\nsrc\tfn f() {}\n\
                    step\ttry\t1\t0\t1\t-\t1\t1\tQ\tput a queen\ncall\t1\t1, 1\n\
                    return\t1\t0\nstep\tundo\t0\t-\t0\t-\t-\t-\t\tback\n";
        let t = &parse(text).expect("valid records").traces[0];
        assert_eq!(t.function.as_deref(), Some("f"));
        assert_eq!(t.calls, [(1, "1, 1".to_string())]);
        assert_eq!(t.returns, [(1, "0".to_string(), 1)]);
        assert!(t.locals.is_empty());
        let err = parse("trace\tt\tT\tx\ncall\t3\ta\n").expect_err("no node 3");
        assert!(
            err.to_string()
                .contains("`call` for node 3, which no step has entered"),
            "{err}"
        );
    }

    #[test]
    fn a_calls_locals_are_read_and_held_from_the_step_written_after_them() {
        let text = "trace\tt1\tA walk\tn = 2\nboard\tgrid\t2\t2\t0\nfunction\tf\n\
                    code\tf.rs\tf\nsrc\tfn f() {}\n\
                    step\ttry\t0\t-\t1\t-\t-\t-\t\tstart\nlocals\t0\tleft = 1\n\
                    step\ttry\t1\t0\t1\t-\t1\t1\tQ\tput a queen\n";
        let t = &parse(text).expect("valid records").traces[0];
        assert_eq!(t.locals, [(0, "left = 1".to_string(), 2)]);
        let err = parse("trace\tt\tT\tx\nlocals\t2\ta = 1\n").expect_err("no node 2");
        assert!(
            err.to_string()
                .contains("`locals` for node 2, which no step has entered"),
            "{err}"
        );
    }

    #[test]
    fn a_quiz_whose_wrong_choice_gives_no_reason_is_refused() {
        let quiz = "quiz\tq\tHow many?\nchoice\t1\t4\nchoice\t0\t5\nchoice\t0\t6\n\
                    why\t5\tFive counts the root twice.\nexplain\tFour: one per leaf.\n";
        let err = parse(quiz).expect_err("6 has no reason");
        assert!(
            err.to_string()
                .contains("the wrong choice `6` does not say why"),
            "{err}"
        );
        let whole = format!("{quiz}why\t6\tSix counts the edges.\n");
        let doc = parse(&whole).expect("every wrong choice has its reason");
        assert_eq!(doc.quizzes[0].why.len(), 2);
        let bare = "quiz\tq\tHow many?\nchoice\t1\t4\n";
        let err = parse(bare).expect_err("no explanation");
        assert!(err.to_string().contains("no explanation"), "{err}");
    }

    #[test]
    fn a_tree_figure_is_read_with_its_lattice_and_labels() {
        let text = "figure\ttree4\ttree\t3\t2\t0\tA tree\nnode\t0\t1\tstart\n\
                    node\t1\t0.5\t0\nedge\t0\t1\ncell\t1\t0\t\tbad\n";
        let doc = parse(text).expect("valid records");
        let f = &doc.figures[0];
        assert_eq!(f.board, Board::Tree { rows: 3, cols: 2 });
        assert_eq!(f.nodes[1], (1.0, 0.5, "0".to_string()));
        assert_eq!(f.edges, vec![(0, 1)]);
        let err = parse("figure\tt\ttree\t3\tx\t0\tcap\n").expect_err("bad size");
        assert!(
            err.to_string().contains("`x` is not a whole number"),
            "{err}"
        );
    }

    #[test]
    fn a_bad_record_is_named_with_its_line() {
        let err = parse("trace\tt\tx\ty\nstep\tjump\t0\t-\t0\t-\t0\t0\t\tno\n")
            .expect_err("unknown kind");
        assert!(
            err.to_string().starts_with("line 2: unknown step `jump`"),
            "{err}"
        );
        let err = parse("cell\t0\t0\tQ\tqueen\n").expect_err("no header");
        assert!(err.to_string().contains("before any trace"), "{err}");
    }
}
