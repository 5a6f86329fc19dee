//! Turns the records of [`super::records`] into HTML the book includes.
//!
//! The problem: a page must show a player, a drawn board or a quiz with no
//! network and in every mdBook theme. So each item becomes one snippet the
//! page pulls in with `{{#include}}`: a player is a `<div>` carrying its
//! traces as JSON in a `<script type="application/json">` (the script in
//! `book/theme/` brings it to life), a figure is
//! an inline SVG drawn with `currentColor` and classes the theme's CSS
//! colours, a quiz is a list of answers with the explanation folded in a
//! `<details>` (usable without JavaScript). Snippets have no blank line, so
//! Markdown leaves them alone. Rendering is linear in the item's size.

use super::records::{Board, Figure, Quiz, Trace};
use serde_json::json;
use std::fmt::Write;

/// One instance as the player's JSON: the board, the code, the counters
/// and the steps as arrays `[kind, node, parent, line, mark, r, c, text,
/// say]` (`parent` and `r`, `c` are -1 for none). A search says the same
/// few sentences thousands of times, so each distinct narration is written
/// once, in `says` (in order of first use), and a step's `say` is its index
/// there; the player (`readTraces` in bt-player.js) puts the sentences back
/// when it reads the page, so this halves a big player's page and nothing
/// it shows changes.
fn instance(t: &Trace) -> serde_json::Value {
    let board = match t.board {
        Board::Grid { rows, cols, boxed } => {
            json!({"kind": "grid", "rows": rows, "cols": cols, "box": boxed})
        }
        Board::Graph | Board::Tree { .. } | Board::Table { .. } => {
            json!({"kind": "graph", "nodes": t.nodes, "edges": t.edges})
        }
    };
    let mut says: Vec<&str> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let steps: Vec<_> = t
        .steps
        .iter()
        .map(|e| {
            let (r, c) = e.cell.map_or((-1, -1), |(r, c)| (r as i64, c as i64));
            let parent = e.parent.map_or(-1, |p| p as i64);
            let say = *index.entry(e.say.as_str()).or_insert_with(|| {
                says.push(e.say.as_str());
                says.len() - 1
            });
            json!([e.kind, e.node, parent, e.line, e.mark, r, c, e.text, say])
        })
        .collect();
    let totals: serde_json::Map<String, serde_json::Value> = t
        .totals
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "id": t.id, "title": t.title, "instance": t.instance, "board": board,
        "given": t.given, "code": {"path": t.code.0, "anchor": t.code.1, "lines": t.code.2},
        "counters": t.counters, "totals": totals, "says": says, "steps": steps,
        "function": t.function, "calls": t.calls, "returns": t.returns,
        "locals": t.locals,
    })
}

/// The player's snippet: every instance as JSON in a script block the
/// browser does not run, the first one's title and a line for readers
/// without JavaScript. A script block, not a `data-` attribute: inside an
/// attribute every quote of the JSON would be escaped to six bytes
/// (`&quot;`), a third of a big player's page.
pub fn player(instances: &[&Trace]) -> String {
    let first = instances[0];
    let data: Vec<_> = instances.iter().map(|t| instance(t)).collect();
    let steps: Vec<String> = instances
        .iter()
        .map(|t| t.steps.len().to_string())
        .collect();
    format!(
        "<div class=\"bt-player\" id=\"player-{id}\">\
         <script type=\"application/json\" class=\"bt-traces\">{data}</script>\
         <p class=\"bt-title\">{title}</p>\
         <p class=\"bt-noscript\">The step-through player needs JavaScript. \
         It replays the reference solver's search ({n} steps).</p></div>\n",
        id = first.id,
        data = script_json(&serde_json::Value::Array(data)),
        title = esc(&first.title),
        n = steps.join(", "),
    )
}

/// JSON that can sit inside a `<script>` element: every `<` written as the
/// JSON escape `\u003c`, so no text of a trace can close the element
/// (`</script>`) or open a comment; the parsed value is the same.
fn script_json(value: &serde_json::Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// The quiz's snippet: answers as buttons, the answer and why folded.
pub fn quiz(q: &Quiz) -> String {
    // A "what happens next?" quiz names the player step it stands at; the
    // page's script offers a button that takes the player there.
    let at = q
        .at
        .as_ref()
        .map_or(String::new(), |(player, instance, step)| {
            format!(" data-player=\"{player}\" data-instance=\"{instance}\" data-step=\"{step}\"")
        });
    let mut html = format!(
        "<div class=\"bt-quiz\" id=\"quiz-{}\" data-quiz=\"{}\"{at}>\n<p class=\"bt-question\"><strong>Quiz.</strong> {}</p>\n<ol class=\"bt-choices\">\n",
        q.id,
        q.id,
        esc(&q.question)
    );
    // A fixed order that does not depend on where the example put the
    // right answer (examples tend to list it first).
    let mut choices: Vec<&(bool, String)> = q.choices.iter().collect();
    choices.sort_by(|a, b| a.1.len().cmp(&b.1.len()).then_with(|| a.1.cmp(&b.1)));
    for (right, text) in choices {
        let why = q
            .why
            .iter()
            .find(|w| &w.0 == text)
            .map_or(String::new(), |w| format!(" data-why=\"{}\"", esc(&w.1)));
        let _ = writeln!(
            html,
            "<li><button type=\"button\" data-right=\"{}\"{why}>{}</button></li>",
            u8::from(*right),
            esc(text)
        );
    }
    let right: Vec<&str> = q
        .choices
        .iter()
        .filter(|c| c.0)
        .map(|c| c.1.as_str())
        .collect();
    let _ = write!(
        html,
        "</ol>\n<details class=\"bt-answer\"><summary>Show the answer</summary>\n<p>{}</p>\n</details>\n</div>\n",
        answer_line(&right.join(", "), &q.explain)
    );
    html
}

/// The chapter's quiz ids, for its first page's score ("3 of 11 answered"):
/// a hidden element with no words, so no catalogue holds it.
pub fn quiz_list(quizzes: &[Quiz]) -> String {
    let ids: Vec<&str> = quizzes.iter().map(|q| q.id.as_str()).collect();
    format!(
        "<div class=\"bt-quiz-list\" data-quizzes=\"{}\" hidden></div>\n",
        ids.join(" ")
    )
}

/// The answer in bold, then its explanation. Explanations tend to open by
/// restating the answer ("4: the mirror image..."): that opening is not
/// printed twice, the bold answer stands in for it. An answer that is a
/// sentence of its own ("... back to row 4.") already ends in its stop: no
/// second one follows it.
fn answer_line(answer: &str, explain: &str) -> String {
    let restated = explain
        .get(..answer.len())
        .filter(|head| head.eq_ignore_ascii_case(answer))
        .map(|_| &explain[answer.len()..])
        .filter(|rest| rest.starts_with([' ', ':', '.', ',', ';']));
    match restated {
        Some(rest) => format!("<strong>{}</strong>{}", esc(answer), esc(rest)),
        None if answer.ends_with(['.', '!', '?', ':']) => {
            format!("<strong>{}</strong> {}", esc(answer), esc(explain))
        }
        None => format!("<strong>{}</strong>. {}", esc(answer), esc(explain)),
    }
}

/// Side of one grid cell in SVG units; text sizes follow it.
const CELL: f64 = 40.0;
/// Margin around a grid for the row and column labels.
const PAD: f64 = 22.0;

/// The figure's snippet: an inline SVG in a `<figure>` with its caption.
pub fn figure(f: &Figure) -> String {
    if let Board::Table { rows, cols } = f.board {
        return table(f, rows, cols);
    }
    let (w, h, body) = match f.board {
        Board::Grid { rows, cols, boxed } => grid(f, rows, cols, boxed),
        Board::Graph => graph(f),
        Board::Tree { rows, cols } => tree(f, rows, cols),
        Board::Table { .. } => (0.0, 0.0, String::new()),
    };
    let width = match f.board {
        Board::Grid { cols, .. } => (cols as f64 * 3.0).clamp(12.0, 36.0),
        Board::Graph => 30.0,
        // One em per 16 units: drawn at its own size, never wider.
        Board::Tree { .. } | Board::Table { .. } => w / 16.0,
    };
    // A tree's 14-unit labels must stay 11 px on a phone: it is never drawn
    // below 11/14 of its size, and scrolls sideways inside its figure
    // instead (class bt-scroll).
    let (scroll, least) = match f.board {
        Board::Tree { .. } => (
            " bt-scroll",
            format!(";min-width:{}px", (w * 11.0 / 14.0).ceil()),
        ),
        _ => ("", String::new()),
    };
    format!(
        "<figure class=\"bt-figure{scroll}\" id=\"fig-{id}\">\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" style=\"max-width:{width}em{least}\" role=\"img\" aria-labelledby=\"fig-{id}-t\">\
         <title id=\"fig-{id}-t\">{cap}</title>\n{body}</svg>\n\
         <figcaption>{cap}</figcaption>\n</figure>\n",
        id = f.id,
        cap = esc(&f.caption),
    )
}

/// A table of computed figures, as Markdown would write it (mdBook's
/// `.table-wrapper` so it scrolls and widens like the pages' tables), with
/// the caption under it. A missing cell stays empty.
fn table(f: &Figure, rows: usize, cols: usize) -> String {
    let mut s = format!(
        "<figure class=\"bt-figure bt-table\" id=\"fig-{}\">\n<div class=\"table-wrapper\"><table>",
        f.id
    );
    for r in 0..rows {
        let tag = if r == 0 { "th" } else { "td" };
        if r == 0 {
            s.push_str("<thead>");
        } else if r == 1 {
            s.push_str("<tbody>");
        }
        s.push_str("<tr>");
        for c in 0..cols {
            let cell = f.cells.iter().find(|x| x.0 == r && x.1 == c);
            let (text, class) = cell.map_or(("", ""), |x| (x.2.as_str(), x.3.as_str()));
            let align = if class == "num" {
                " style=\"text-align: right\""
            } else {
                ""
            };
            let _ = write!(s, "<{tag}{align}>{}</{tag}>", esc(text));
        }
        s.push_str("</tr>");
        if r == 0 {
            s.push_str("</thead>");
        }
    }
    if rows > 1 {
        s.push_str("</tbody>");
    }
    let _ = write!(
        s,
        "</table></div>\n<figcaption>{}</figcaption>\n</figure>\n",
        esc(&f.caption)
    );
    s
}

fn grid(f: &Figure, rows: usize, cols: usize, boxed: usize) -> (f64, f64, String) {
    let (w, h) = (cols as f64 * CELL + PAD, rows as f64 * CELL + PAD);
    let mut s = String::new();
    // Labels: columns along the top, rows down the left (0-based, as the
    // code counts), every fifth from 13 on; a big board, drawn for its
    // path, has neither labels nor inner lines.
    let big = rows.max(cols) > 16;
    // Boards drawn side by side (with gaps) get no labels: one set of
    // labels across them would read as one big board.
    let composite = f.cells.iter().any(|c| c.3 == "gap");
    let step = if rows.max(cols) > 12 { 5 } else { 1 };
    // A wide board is drawn smaller on a phone (its column is about 345 px
    // at 390), so its labels grow to stay 11 px there, up to what the
    // margin holds.
    let lbl = (11.0 * w / 345.0).ceil().clamp(13.0, 18.0);
    // The column labels' baseline moves down as they grow, so their em box
    // stays inside the drawing.
    let top = (lbl + 2.0).max(15.0);
    for c in (0..cols).filter(|c| !big && !composite && c % step == 0) {
        let x = PAD + (c as f64 + 0.5) * CELL;
        let _ = write!(
            s,
            "<text class=\"lbl\" x=\"{x}\" y=\"{top}\" font-size=\"{lbl}\">{c}</text>"
        );
    }
    for r in (0..rows).filter(|r| !big && !composite && r % step == 0) {
        let y = PAD + (r as f64 + 0.5) * CELL + lbl * 0.35;
        let _ = write!(
            s,
            "<text class=\"lbl\" x=\"11\" y=\"{y}\" font-size=\"{lbl}\">{r}</text>"
        );
    }
    let mut texts = String::new();
    for (r, c, text, class) in &f.cells {
        let (x, y) = (PAD + *c as f64 * CELL, PAD + *r as f64 * CELL);
        if !class.is_empty() {
            let _ = write!(
                s,
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"/>"
            );
        }
        // A class may hold several names ("cand cur"): the candidates'
        // layout goes with the name, whatever else the cell is.
        if class.split_whitespace().any(|c| c == "cand") {
            candidates(&mut texts, x, y, text);
        } else if !text.is_empty() {
            let size = match text.chars().count() {
                1 => 24.0,
                2 => 20.0,
                3 => 15.0,
                _ => 11.0,
            };
            let _ = write!(
                texts,
                "<text class=\"t {class}\" x=\"{}\" y=\"{}\" font-size=\"{size}\">{}</text>",
                x + CELL / 2.0,
                y + CELL / 2.0 + size * 0.35,
                esc(text)
            );
        }
    }
    let boxed = if big { rows.max(cols) } else { boxed };
    grid_lines(&mut s, rows, cols, boxed, big);
    // A gap between boards drawn side by side covers the lines through it.
    for (r, c, _, class) in f.cells.iter().filter(|c| c.3 == "gap") {
        let (x, y) = (PAD + *c as f64 * CELL, PAD + *r as f64 * CELL);
        let _ = write!(
            s,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            x + 1.5,
            y + 1.5,
            CELL - 3.0,
            CELL - 3.0
        );
    }
    for (points, class) in &f.lines {
        // A path through numbered cells (a tour's move numbers) stops short
        // of each number, so no line crosses one (issue 35).
        let numbered = points.iter().all(|&(r, c)| {
            f.cells
                .iter()
                .any(|x| x.0 == r && x.1 == c && !x.2.is_empty())
        });
        if numbered && class.is_empty() && !big {
            gapped(&mut s, points);
        } else {
            polyline(&mut s, points, class, rows.max(cols));
        }
    }
    // Texts last, over the paths, each with its halo: no mark covers them.
    s.push_str(&texts);
    (w, h, s)
}

/// A sudoku blank's candidates: digit d at its place in a 3 x 3 grid, so
/// the same digit is always in the same corner of every cell.
fn candidates(s: &mut String, x: f64, y: f64, digits: &str) {
    for d in digits
        .chars()
        .filter_map(|c| c.to_digit(10))
        .filter(|d| *d >= 1)
    {
        let (row, col) = (f64::from((d - 1) / 3), f64::from((d - 1) % 3));
        let _ = write!(
            s,
            "<text class=\"t cand\" x=\"{}\" y=\"{}\" font-size=\"13\">{d}</text>",
            x + 7.0 + col * 13.0,
            y + 12.0 + row * 12.5
        );
    }
}

/// The cell borders; on a big board only the outer border (`boxed` is then
/// the board's side), so a drawn path is not lost among them.
fn grid_lines(s: &mut String, rows: usize, cols: usize, boxed: usize, big: bool) {
    let (x1, y1) = (PAD + cols as f64 * CELL, PAD + rows as f64 * CELL);
    for r in (0..=rows).filter(|r| !big || r % boxed == 0) {
        let y = PAD + r as f64 * CELL;
        let class = if boxed > 0 && r % boxed == 0 {
            "gl thick"
        } else {
            "gl"
        };
        let _ = write!(
            s,
            "<line class=\"{class}\" x1=\"{PAD}\" y1=\"{y}\" x2=\"{x1}\" y2=\"{y}\"/>"
        );
    }
    for c in (0..=cols).filter(|c| !big || c % boxed == 0) {
        let x = PAD + c as f64 * CELL;
        let class = if boxed > 0 && c % boxed == 0 {
            "gl thick"
        } else {
            "gl"
        };
        let _ = write!(
            s,
            "<line class=\"{class}\" x1=\"{x}\" y1=\"{PAD}\" x2=\"{x}\" y2=\"{y1}\"/>"
        );
    }
}

/// How far from a numbered cell's centre its path's lines stop: clear of
/// a two-digit number at the figure's sizes.
const GAP: f64 = 0.45 * CELL;

/// A path through numbered cells as one segment per move, each stopping
/// `GAP` short of both centres; the start is ringed, the end is the
/// highest number.
fn gapped(s: &mut String, points: &[(usize, usize)]) {
    let centre =
        |(r, c): (usize, usize)| (PAD + (c as f64 + 0.5) * CELL, PAD + (r as f64 + 0.5) * CELL);
    let mut d = String::new();
    for pair in points.windows(2) {
        let ((x1, y1), (x2, y2)) = (centre(pair[0]), centre(pair[1]));
        let len = (x2 - x1).hypot(y2 - y1);
        if len <= 2.0 * GAP {
            continue;
        }
        let (ux, uy) = ((x2 - x1) / len * GAP, (y2 - y1) / len * GAP);
        let _ = write!(
            d,
            "M{:.1} {:.1}L{:.1} {:.1}",
            x1 + ux,
            y1 + uy,
            x2 - ux,
            y2 - uy
        );
    }
    let _ = write!(s, "<path class=\"path\" d=\"{d}\"/>");
    if let Some(&first) = points.first() {
        let (x, y) = centre(first);
        let _ = write!(
            s,
            "<circle class=\"start ring\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
            GAP
        );
    }
}

/// A path through cell centres; its end marks grow with the board so they
/// stay visible when a big board is shrunk to fit.
fn polyline(s: &mut String, points: &[(usize, usize)], class: &str, side: usize) {
    let mark = 7.0 * (side as f64 / 10.0).max(1.0);
    let pts: Vec<String> = points
        .iter()
        .map(|(r, c)| {
            format!(
                "{},{}",
                PAD + (*c as f64 + 0.5) * CELL,
                PAD + (*r as f64 + 0.5) * CELL
            )
        })
        .collect();
    let _ = write!(
        s,
        "<polyline class=\"path {class}\" points=\"{}\"/>",
        pts.join(" ")
    );
    if !class.is_empty() {
        return;
    }
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        for ((r, c), class) in [(first, "start"), (last, "end")] {
            let _ = write!(
                s,
                "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{mark}\"/>",
                PAD + (*c as f64 + 0.5) * CELL,
                PAD + (*r as f64 + 0.5) * CELL
            );
        }
    }
}

/// Graph coordinates are 0..=100; the drawing is 400 x 300 units.
fn graph(f: &Figure) -> (f64, f64, String) {
    // A label of three or more characters ("3,2", "[1,2]") is written at
    // 13 units, 11 px where a phone draws the graph at 0.87 of its size,
    // in a circle wide enough to hold five; short labels keep 15 units in
    // the small circle. The margin keeps every circle inside the drawing.
    let long = f
        .nodes
        .iter()
        .any(|n| n.2.split(':').next().unwrap_or("").chars().count() > 2);
    let radius: f64 = if long { 23.0 } else { 17.0 };
    let margin = radius + 3.0;
    let at = |v: usize| {
        f.nodes.get(v).map_or((0.0, 0.0), |n| {
            (
                margin + n.0 * (400.0 - 2.0 * margin) / 100.0,
                margin + n.1 * (300.0 - 2.0 * margin) / 100.0,
            )
        })
    };
    // Edges are directed (A to B): each ends in an arrowhead at B's rim.
    let mut s = format!(
        "<defs><marker id=\"arrow-{id}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path class=\"arrow\" d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>",
        id = f.id
    );
    for &(a, b) in &f.edges {
        let ((x1, y1), (x2, y2)) = (at(a), at(b));
        let len = (x2 - x1).hypot(y2 - y1).max(1.0);
        let rim = radius + 2.0;
        let (ux, uy) = ((x2 - x1) / len * rim, (y2 - y1) / len * rim);
        let _ = write!(
            s,
            "<line class=\"edge\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" marker-end=\"url(#arrow-{})\"/>",
            x1 + ux,
            y1 + uy,
            x2 - ux,
            y2 - uy,
            f.id
        );
    }
    // A label "V:NOTE" puts V inside the circle and NOTE beside it, so no
    // label spills over its circle.
    for (v, (_, _, label)) in f.nodes.iter().enumerate() {
        let (x, y) = at(v);
        let class = node_class(f, v);
        let (inside, beside) = label.split_once(':').unwrap_or((label, ""));
        let _ = write!(
            s,
            "<circle class=\"node {class}\" cx=\"{x}\" cy=\"{y}\" r=\"{radius}\"/><text class=\"t\" x=\"{x}\" y=\"{}\" font-size=\"{}\">{}</text>",
            y + 5.0,
            if inside.chars().count() > 2 { 13 } else { 15 },
            esc(inside)
        );
        if !beside.is_empty() {
            let _ = write!(
                s,
                "<text class=\"t note\" x=\"{}\" y=\"{}\" font-size=\"14\">{}</text>",
                x + radius + 5.0,
                y + 5.0,
                esc(beside)
            );
        }
    }
    (400.0, 300.0, s)
}

/// The CSS class a graph's or a tree's node `v` gets from its `cell`
/// record (the row field names the node), or none.
fn node_class(f: &Figure, v: usize) -> &str {
    f.cells
        .iter()
        .find(|c| c.0 == v)
        .map_or("", |c| c.3.as_str())
}

/// A tree's lattice: a column per level, a row per box.
const TREE_PITCH_X: f64 = 84.0;
const TREE_PITCH_Y: f64 = 26.0;
const TREE_BOX: (f64, f64) = (66.0, 21.0);

/// A tree: labelled boxes at (level, row), each edge from the right side
/// of the parent to the left side of the child; a box's class (`bad`,
/// `queen`, ...) comes from its `cell` record.
fn tree(f: &Figure, rows: usize, cols: usize) -> (f64, f64, String) {
    let at = |v: usize| {
        f.nodes.get(v).map_or((0.0, 0.0), |n| {
            (4.0 + n.0 * TREE_PITCH_X, 4.0 + n.1 * TREE_PITCH_Y)
        })
    };
    let (bw, bh) = TREE_BOX;
    let mut s = String::new();
    // One line from a parent to a bracket beside its family, and a tick
    // from the bracket to each child: a family reads as one group.
    let mut families: Vec<(usize, Vec<usize>)> = Vec::new();
    for &(a, b) in &f.edges {
        match families.iter_mut().find(|(p, _)| *p == a) {
            Some((_, kids)) => kids.push(b),
            None => families.push((a, vec![b])),
        }
    }
    for (parent, kids) in &families {
        let (x1, y1) = at(*parent);
        let mids: Vec<f64> = kids.iter().map(|&k| at(k).1 + bh / 2.0).collect();
        let x2 = kids.first().map_or(x1, |&k| at(k).0);
        let bus = x2 - 9.0;
        let (top, bottom) = mids
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), &y| (lo.min(y), hi.max(y)));
        let _ = write!(
            s,
            "<line class=\"edge\" x1=\"{}\" y1=\"{}\" x2=\"{bus}\" y2=\"{}\"/><line class=\"edge\" x1=\"{bus}\" y1=\"{top}\" x2=\"{bus}\" y2=\"{bottom}\"/>",
            x1 + bw,
            y1 + bh / 2.0,
            (top + bottom) / 2.0
        );
        for y in mids {
            let _ = write!(
                s,
                "<line class=\"edge\" x1=\"{bus}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/>"
            );
        }
    }
    for (v, (_, _, label)) in f.nodes.iter().enumerate() {
        let (x, y) = at(v);
        let class = node_class(f, v);
        let _ = write!(
            s,
            "<rect class=\"box {class}\" x=\"{x}\" y=\"{y}\" width=\"{bw}\" height=\"{bh}\" rx=\"4\"/><text class=\"t node-label\" x=\"{}\" y=\"{}\" font-size=\"14\">{}</text>",
            x + bw / 2.0,
            y + bh / 2.0 + 5.0,
            esc(label)
        );
    }
    let w = 8.0 + (cols.max(1) - 1) as f64 * TREE_PITCH_X + bw;
    let h = 8.0 + (rows.max(1) - 1) as f64 * TREE_PITCH_Y + bh;
    (w, h, s)
}

/// Escapes text for HTML content and double-quoted attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_explanation_that_restates_the_answer_is_not_printed_twice() {
        assert_eq!(
            answer_line("4", "4: the mirror"),
            "<strong>4</strong>: the mirror"
        );
        assert_eq!(
            answer_line("56", "56 calls, one per entry"),
            "<strong>56</strong> calls, one per entry"
        );
        assert_eq!(
            answer_line("after move 21", "After move 21: stuck"),
            "<strong>after move 21</strong>: stuck"
        );
        assert_eq!(
            answer_line("2", "count_completions says 2"),
            "<strong>2</strong>. count_completions says 2"
        );
        assert_eq!(
            answer_line("1", "12 of them"),
            "<strong>1</strong>. 12 of them"
        );
    }

    #[test]
    fn an_answer_that_ends_its_own_sentence_gets_no_second_full_stop() {
        assert_eq!(
            answer_line("down: back to row 4.", "Step 44: nothing below"),
            "<strong>down: back to row 4.</strong> Step 44: nothing below"
        );
        assert_eq!(
            answer_line("Is it?", "Step 3: yes"),
            "<strong>Is it?</strong> Step 3: yes"
        );
        assert_eq!(
            answer_line("row 4", "Step 44: back"),
            "<strong>row 4</strong>. Step 44: back"
        );
    }

    use super::super::records::parse;
    use super::*;

    #[test]
    fn a_trace_cannot_close_its_script_block() {
        let doc = parse(
            "trace\tt\tx\ty\nboard\tgrid\t1\t1\t0\n\
             step\ttry\t1\t0\t0\t-\t0\t0\tQ\tsay </script><!-- here\n",
        )
        .expect("valid");
        let html = player(&[&doc.traces[0]]);
        assert_eq!(html.matches("</script>").count(), 1, "{html}");
        assert!(!html.contains("<!--"), "{html}");
        let start = html.find("bt-traces\">").expect("the block") + "bt-traces\">".len();
        let end = html.find("</script>").expect("its end");
        let back: serde_json::Value = serde_json::from_str(&html[start..end]).expect("JSON");
        assert_eq!(back[0]["steps"][0][8], 0);
        assert_eq!(back[0]["says"][0], "say </script><!-- here");
    }

    #[test]
    fn each_narration_is_written_once_and_steps_point_at_it() {
        let doc = parse(
            "trace\tt\tx\ty\nboard\tgrid\t1\t2\t0\n\
             step\ttry\t1\t0\t0\t-\t0\t0\tQ\tput it\n\
             step\tundo\t0\t-\t0\t-\t0\t0\t\ttake it back\n\
             step\ttry\t2\t0\t0\t-\t0\t1\tQ\tput it\n",
        )
        .expect("valid");
        let t = instance(&doc.traces[0]);
        assert_eq!(t["says"], json!(["put it", "take it back"]));
        let said: Vec<_> = (0..3).map(|i| t["steps"][i][8].clone()).collect();
        assert_eq!(said, [json!(0), json!(1), json!(0)]);
    }

    #[test]
    fn snippets_have_no_blank_line_so_markdown_keeps_them_whole() {
        let doc = parse(
            "figure\tf\tgrid\t2\t2\t0\tTwo <queens>\ncell\t0\t0\tQ\tqueen\nline\t0,0 1,1\n\
             quiz\tq\tHow many?\nchoice\t1\t2\nchoice\t0\t3\nwhy\t3\tOne too many.\nexplain\tCount them.\n\
             trace\tt\tA \"walk\"\tn = 1\nboard\tgrid\t1\t1\t0\n\
             step\ttry\t1\t0\t0\t-\t0\t0\tQ\tput\n",
        )
        .expect("valid");
        let all = [
            figure(&doc.figures[0]),
            quiz(&doc.quizzes[0]),
            player(&[&doc.traces[0]]),
        ];
        for html in &all {
            assert!(!html.contains("\n\n"), "{html}");
        }
        assert!(all[0].contains("Two &lt;queens&gt;"));
        assert!(all[2].contains("A \\\"walk\\\""), "{}", all[2]);
    }
}
