//! The page `workbook trace` writes: both searches in the book's player,
//! side by side, each opened at the first step where they differ.
//!
//! The problem: show the learner's search and the reference's the way the
//! book shows a search (board, tree, narration, timeline), on a page that
//! opens from `file://` with no book built and no network. The state is
//! each run turned into the player's records (the format documented in
//! solutions/trace/src/lib.rs, read back by the book's own reader, so a
//! malformed step is caught here, not in the browser); the players'
//! scripts and styles are inlined from `book/src/assets/`, with the
//! players' words in the learner's language from the book's own `ui`
//! catalogue (`book/po/ui/<lang>.po`, as the translated book's
//! `bt-strings.js` holds them) and the page's and narration's from the
//! loop's. Chapter 2's board is drawn as the learner's code holds it (its
//! recorded state), not only from the call path. Cost: linear in the steps.

use super::Verdict;
use super::events::{Event, Run};
use super::scratch::Files;
use super::specs::{self, Board, Spec};
use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use workbook_core::info::{Chapter, Exercise};
use workbook_core::lang::{self, Lang};
use workbook_core::players::{records, render};
use workbook_core::stubs;

/// What the page shows.
pub struct Sides<'a> {
    pub spec: &'a Spec,
    pub label: &'a str,
    pub index: usize,
    pub exercise: &'a Exercise,
    pub chapter: &'a Chapter,
    pub yours: (&'a Run, &'a Files),
    pub theirs: (&'a Run, &'a Files),
    pub verdict: &'a Verdict,
    pub lang: &'a Lang,
}

/// Writes the page to `path` and returns it.
pub fn write(path: &Path, root: &Path, s: Sides) -> Result<PathBuf> {
    let lang = s.lang;
    let (yours, your_start) = player(
        &s,
        "yours",
        &lang.fill("your code: {label}", &[("label", &s.label)]),
        s.yours,
        &s.chapter.shown(&s.chapter.stub_src()),
    )?;
    let (theirs, their_start) = player(
        &s,
        "reference",
        &lang.fill("the reference: {label}", &[("label", &s.label)]),
        s.theirs,
        &s.chapter.shown(&s.chapter.reference_src()),
    )?;
    let asset = |name: &str| -> Result<String> {
        let p = root.join("book/src/assets").join(name);
        std::fs::read_to_string(&p).with_context(|| {
            crate::words::lang().fill("cannot read {path}", &[("path", &p.display())])
        })
    };
    // A `</script>` inside a script would end it early.
    let script =
        |name: &str| -> Result<String> { Ok(asset(name)?.replace("</script", "<\\/script")) };
    let start = s.verdict.first_difference.unwrap_or(0);
    let start_shown = if start == 0 {
        lang.tr("0 (the start)").to_string()
    } else {
        start.to_string()
    };
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"{code}\" class=\"light\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{heading}</title>\n<style>\n{css}\n\
         :root {{ --bg: #ffffff; --fg: #000000; --links: #20609f; --mono-font: monospace; \
         --quote-bg: #f1f2f4; --table-border-color: #e6e6e6; --content-max-width: 750px; }}\n\
         body {{ background: var(--bg); color: var(--fg); font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1600px; padding: 0.5rem 1rem; }}\n\
         .wb-verdict {{ border-left: 4px solid #c60; padding: 0.4rem 0.8rem; background: #fff6ea; }}\n\
         .wb-verdict.wb-same {{ border-color: #393; background: #eefbea; }}\n\
         .wb-sides {{ display: flex; flex-wrap: wrap; gap: 1rem; }}\n\
         .wb-side {{ flex: 1 1 30rem; min-width: 0; }}\n\
         </style></head><body>\n\
         <h1>{heading} <small>({label})</small></h1>\n\
         <p class=\"wb-verdict{same}\">{verdict}</p>\n\
         <p>{opens}</p>\n\
         <div class=\"wb-sides\"><section class=\"wb-side\"><h2>{your_search}</h2>\n{yours}</section>\n\
         <section class=\"wb-side\"><h2>{their_search}</h2>\n{theirs}</section></div>\n\
         <script>\n{strings}\n</script>\n\
         <script>\n{words}\n</script>\n<script>\n{tree}\n</script>\n<script>\n{play}\n</script>\n\
         <script>\n// After the players' own start (both wait for the document): each\n\
         // at the step its own records reach the first difference by.\n\
         document.addEventListener('DOMContentLoaded', function () {{\n\
           var starts = [{your_start}, {their_start}];\n\
           document.querySelectorAll('.bt-player').forEach(function (p, i) {{\n\
             var pl = p.btPlayer; if (!pl || !pl.t) {{ return; }}\n\
             pl.k = Math.min(starts[i] || 0, pl.t.steps.length); pl.show();\n\
           }});\n\
         }});\n</script>\n</body></html>\n",
        code = render::esc(lang.code()),
        heading = render::esc(&lang.fill("trace: {exercise}", &[("exercise", &s.exercise.name)])),
        label = render::esc(s.label),
        opens = render::esc(&lang.fill(
            "Both players below open at step {start}; step with the arrow keys or the timeline.",
            &[("start", &start_shown)]
        )),
        your_search = render::esc(lang.tr("Your search")),
        their_search = render::esc(lang.tr("The reference's search")),
        your_start = step_after(&your_start, start),
        their_start = step_after(&their_start, start),
        strings = players_strings(root, lang)?,
        css = asset("bt.css")?,
        same = if s.verdict.first_difference.is_none() {
            " wb-same"
        } else {
            ""
        },
        verdict = render::esc(&s.verdict.text),
        // btT, which every word the players show goes through (the
        // language's BT_STRINGS above).
        words = script("bt-i18n.js")?,
        tree = script("bt-tree.js")?,
        play = script("bt-player.js")?,
    );
    std::fs::write(path, html).with_context(|| {
        crate::words::lang().fill("cannot write {path}", &[("path", &path.display())])
    })?;
    Ok(path.to_path_buf())
}

/// One run as a player: its records, read back and rendered, and the
/// player's step after `k` events (the board's own steps add some).
fn player(
    s: &Sides,
    id: &str,
    instance: &str,
    side: (&Run, &Files),
    src_dir: &str,
) -> Result<(String, Vec<usize>)> {
    let (run, files) = side;
    let (text, shown) = records_of(s.spec, s.index, id, instance, run, files, src_dir, s.lang);
    let doc = records::parse(&text).with_context(|| {
        crate::words::lang()
            .tr("the trace's records do not read back")
            .to_string()
    })?;
    let Some(trace) = doc.traces.first() else {
        bail!(
            "{}",
            crate::words::lang().tr("the trace's records hold no player")
        );
    };
    let mut html = render::player(&[trace]);
    // The player's fallback for a reader without scripts, in their words.
    let open = "<p class=\"bt-noscript\">";
    if let Some(from) = html.find(open)
        && let Some(len) = html[from..].find("</p>")
    {
        let said = render::esc(s.lang.tr("The step-through player needs JavaScript."));
        html.replace_range(from + open.len()..from + len, &said);
    }
    Ok((html, shown))
}

/// The player's step once `k` events are shown (`shown` from
/// [`records_of`]).
fn step_after(shown: &[usize], k: usize) -> usize {
    shown.get(k).or(shown.last()).copied().unwrap_or(k)
}

/// `window.BT_STRINGS` for the players' own words (their `btT("...")`
/// templates) in `lang`, from the book's `ui` catalogue: what the
/// translated book's `assets/bt-strings.js` holds. English: none.
fn players_strings(root: &Path, lang: &Lang) -> Result<String> {
    let mut strings = serde_json::Map::new();
    if !lang.is_english() {
        let path = root.join("book/po/ui").join(format!("{}.po", lang.code()));
        let text = std::fs::read_to_string(&path).with_context(|| {
            crate::words::lang().fill("cannot read {path}", &[("path", &path.display())])
        })?;
        let catalogue = lang::parse(&text);
        let mut scripts = String::new();
        for name in ["bt-i18n.js", "bt-tree.js", "bt-player.js"] {
            let p = root.join("book/src/assets").join(name);
            scripts += &std::fs::read_to_string(&p).with_context(|| {
                crate::words::lang().fill("cannot read {path}", &[("path", &p.display())])
            })?;
        }
        for (id, forms) in catalogue {
            let quoted = serde_json::Value::String(id.clone()).to_string();
            if let Some(t) = forms.first().filter(|t| !t.is_empty())
                && scripts.contains(&format!("btT({quoted}"))
            {
                strings.insert(id, t.clone().into());
            }
        }
    }
    Ok(format!(
        "window.BT_STRINGS = {};",
        serde_json::Value::Object(strings)
            .to_string()
            .replace("</", "<\\/")
    ))
}

/// The records of one run (see `book_trace`'s module doc for the format),
/// and the number of steps written after each number of events (a drawn
/// board's own steps make it more than the events).
#[allow(clippy::too_many_arguments)]
pub fn records_of(
    spec: &Spec,
    index: usize,
    id: &str,
    instance: &str,
    run: &Run,
    files: &Files,
    src_dir: &str,
    lang: &Lang,
) -> (String, Vec<usize>) {
    let mut out = Vec::<Vec<String>>::new();
    let mut rec = |f: &[&str]| {
        out.push(f.iter().map(|x| x.replace(['\t', '\n'], " ")).collect());
    };
    rec(&["trace", id, lang.tr(spec.title), instance]);
    let graph = matches!(spec.board, Board::Graph { .. });
    // What the board shows now, cell by cell, as the player draws it (a
    // given cell never changes, `try` fills only an empty cell): a
    // recorded board (chapter 2) is compared with it.
    let mut drawn: BTreeMap<(usize, usize), String> = BTreeMap::new();
    let mut givens: BTreeSet<(usize, usize)> = BTreeSet::new();
    match &spec.board {
        Board::Grid {
            rows,
            cols,
            boxed,
            given,
        } => {
            rec(&[
                "board",
                "grid",
                &rows.to_string(),
                &cols.to_string(),
                &boxed.to_string(),
            ]);
            for (r, c, t) in *given {
                rec(&["given", &r.to_string(), &c.to_string(), t]);
                drawn.insert((*r, *c), t.to_string());
                givens.insert((*r, *c));
            }
        }
        Board::Sized(setup) => {
            let first = run.events.iter().find_map(|e| match e {
                Event::Call(c) => Some(c),
                Event::Return { .. } => None,
            });
            let (rows, cols, boxed, given) = setup(index, first);
            rec(&[
                "board",
                "grid",
                &rows.to_string(),
                &cols.to_string(),
                &boxed.to_string(),
            ]);
            for (r, c, t) in given {
                rec(&["given", &r.to_string(), &c.to_string(), &t]);
                drawn.insert((r, c), t);
                givens.insert((r, c));
            }
        }
        Board::Graph { nodes, edges } => {
            rec(&["board", "graph"]);
            for (v, (x, y)) in nodes.iter().enumerate() {
                rec(&["node", &x.to_string(), &y.to_string(), &v.to_string()]);
            }
            for (a, b) in *edges {
                rec(&["edge", &a.to_string(), &b.to_string()]);
            }
        }
    }
    let (path, lines, starts) = code_of(spec, files, src_dir);
    rec(&["code", &path, &spec.traced.join(", ")]);
    for l in &lines {
        rec(&["src", l]);
    }
    // The recursive function (the last traced, the entry first): the
    // tree's nodes are its calls, the frames panel names it, and each call
    // lights its first line, so a counter of that line counts its calls.
    let recursive = spec.traced.last().copied().unwrap_or_default();
    let short = recursive.rsplit("::").next().unwrap_or(recursive);
    let queens = specs::eight_queens::a_level_per_queen(spec);
    match starts.get(recursive) {
        Some(line) if queens => {
            rec(&[
                "counter",
                lang.tr("calls"),
                &format!("line:{line}"),
                &lang.fill(
                    "calls of {function} so far, the first one included",
                    &[("function", &short)],
                ),
            ]);
            rec(&[
                "counter",
                lang.tr("depth"),
                "depth",
                lang.tr(
                    "queens kept so far, given ones included: the tree's level (leaving a square \
                     empty does not go deeper)",
                ),
            ]);
        }
        _ => {
            rec(&[
                "counter",
                lang.tr("calls"),
                "nodes",
                lang.tr("calls of the traced functions so far, the first one included"),
            ]);
            rec(&[
                "counter",
                lang.tr("depth"),
                "depth",
                lang.tr("calls open now (the current node's depth)"),
            ]);
        }
    }
    if !short.is_empty() {
        rec(&["function", short]);
    }
    // The open calls: their node and the cell each one filled.
    let mut open: Vec<Opened> = Vec::new();
    let mut parents: Vec<Option<usize>> = vec![None];
    let mut steps = 0usize;
    let mut shown = vec![0usize];
    let dash = "-".to_string();
    for e in &run.events {
        match e {
            Event::Call(call) => {
                let parent_call = open.last().map(|o| o.2);
                let look = (spec.look)(call, parent_call, lang);
                // A level per queen (chapter 2, as its page tells it): a call
                // after a square left empty is its caller's node going on,
                // not a node one level down.
                let along =
                    queens && parent_call.is_some_and(|p| specs::eight_queens::goes_along(call, p));
                let (node, parent) = match open.last() {
                    Some(o) if along => (o.0, parents[o.0].unwrap_or(0)),
                    _ => {
                        let parent = open.last().map_or(0, |o| o.0);
                        parents.push(Some(parent));
                        (parents.len() - 1, parent)
                    }
                };
                let line = starts.get(call.name.as_str()).copied().unwrap_or(0);
                let cell = look.cell.as_ref().map(|(r, c, _)| (*r, *c));
                let (r, c, text) = match &look.cell {
                    Some((r, c, t)) => (r.to_string(), c.to_string(), t.clone()),
                    None => (dash.clone(), dash.clone(), String::new()),
                };
                let kind = match (cell, graph) {
                    (None, _) => "note",
                    (Some(_), true) => "place",
                    (Some(_), false) => "try",
                };
                let node_parent = if node == 0 {
                    dash.clone()
                } else {
                    parent.to_string()
                };
                rec(&[
                    "step",
                    kind,
                    &node.to_string(),
                    &node_parent,
                    &line.to_string(),
                    "-",
                    &r,
                    &c,
                    &text,
                    &narrated(&look.phrase, call),
                ]);
                steps += 1;
                if let Some(at) = cell {
                    drawn.entry(at).or_insert_with(|| text.clone());
                }
                if !along {
                    let args: Vec<&str> = call.args.iter().map(|(_, v)| v.as_str()).collect();
                    rec(&["call", &node.to_string(), &args.join(", ")]);
                }
                // The board as the code holds it: a queen the path does not
                // explain is drawn (and said), one it lost is taken off.
                if let Some(queens) = specs::eight_queens::queens_of(call) {
                    let parent = node_parent.clone();
                    let node = node.to_string();
                    // One step on this call's node, with no line lit: the
                    // board's change that the call path alone does not tell.
                    let mut board_step =
                        |kind: &str, (qr, qc): (usize, usize), text: &str, note: String| {
                            rec(&[
                                "step",
                                kind,
                                &node,
                                &parent,
                                "0",
                                "-",
                                &qr.to_string(),
                                &qc.to_string(),
                                text,
                                &note,
                            ]);
                            steps += 1;
                        };
                    let stale: Vec<(usize, usize)> = drawn
                        .iter()
                        .filter(|(at, t)| *t == "Q" && !givens.contains(at) && !queens.contains(at))
                        .map(|(at, _)| *at)
                        .collect();
                    for (qr, qc) in stale {
                        drawn.remove(&(qr, qc));
                        board_step(
                            "undo",
                            (qr, qc),
                            "",
                            lang.fill(
                                "The board holds no queen on ({row}, {col}) any more.",
                                &[("row", &qr), ("col", &qc)],
                            ),
                        );
                    }
                    for &(qr, qc) in &queens {
                        if drawn.get(&(qr, qc)).is_some_and(|t| t == "Q") {
                            continue;
                        }
                        drawn.insert((qr, qc), "Q".to_string());
                        board_step(
                            "place",
                            (qr, qc),
                            "Q",
                            lang.fill(
                                "The board still holds a queen on ({row}, {col}): its call has \
                                 returned, but the queen was never taken back.",
                                &[("row", &qr), ("col", &qc)],
                            ),
                        );
                    }
                }
                open.push((node, cell, call, !along));
            }
            Event::Return { name, value } => {
                let closed = open.pop();
                let node = open.last().map_or(0, |o| o.0);
                let parent = parents[node].map_or(dash.clone(), |p| p.to_string());
                let mark = match value.as_str() {
                    "true" => "solution",
                    "false" | "0" => "dead",
                    _ => "-",
                };
                // The call's cell taken back as it returns: an undo, whatever
                // it returned ("reject" read as a verdict on a found solution).
                let (kind, r, c) = match closed.and_then(|o| o.1) {
                    Some((r, c)) if !graph => {
                        if !givens.contains(&(r, c)) {
                            drawn.remove(&(r, c));
                        }
                        ("undo", r.to_string(), c.to_string())
                    }
                    _ => ("note", dash.clone(), dash.clone()),
                };
                rec(&[
                    "step",
                    kind,
                    &node.to_string(),
                    &parent,
                    "0",
                    mark,
                    &r,
                    &c,
                    "",
                    &lang.fill(
                        "{name} returned {value}.",
                        &[("name", name), ("value", value)],
                    ),
                ]);
                steps += 1;
                // A node's value is what its own call returned (a call
                // going along a row returns through its node's call).
                if let Some(closed) = closed.filter(|o| o.3) {
                    rec(&["return", &closed.0.to_string(), value]);
                }
            }
        }
        shown.push(steps);
    }
    if run.ending != super::events::Ending::Finished {
        let node = open.last().map_or(0, |o| o.0);
        let parent = parents[node].map_or(dash.clone(), |p| p.to_string());
        let ended = run.ending.words(lang);
        let said = if id == "yours" {
            lang.fill("Your code {ended}.", &[("ended", &ended)])
        } else {
            lang.fill("The reference {ended}.", &[("ended", &ended)])
        };
        rec(&[
            "step",
            "note",
            &node.to_string(),
            &parent,
            "0",
            "dead",
            "-",
            "-",
            "",
            &said,
        ]);
    }
    (out.iter().map(|f| f.join("\t") + "\n").collect(), shown)
}

/// An open call: its tree node, the cell it filled, the call, and whether
/// the node is its own (not its caller's, gone along).
type Opened<'a> = (usize, Option<(usize, usize)>, &'a super::events::Call, bool);

/// The call as written, for the narration: `(visit(v = 3, ...))`.
fn spelled_note(call: &super::events::Call) -> String {
    format!("[{}]", call.spelled())
}

/// A step's narration: what the call did, then the call as written, unless
/// the phrase already writes it ("Called visit(v = 3)", not that twice).
fn narrated(phrase: &str, call: &super::events::Call) -> String {
    if phrase.contains(&call.spelled()) {
        first_upper(phrase)
    } else {
        format!("{} {}", first_upper(phrase), spelled_note(call))
    }
}

fn first_upper(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

/// The traced functions' source on this side, for the code panel: the
/// file that holds the first of them, their lines, and the (1-based) line
/// each one starts on there, by key.
fn code_of(
    spec: &Spec,
    files: &Files,
    src_dir: &str,
) -> (String, Vec<String>, BTreeMap<String, usize>) {
    let keys: BTreeSet<&str> = spec.traced.iter().copied().collect();
    let mut path = src_dir.to_string();
    let mut lines = Vec::new();
    let mut starts = BTreeMap::new();
    for (rel, text) in files {
        let all: Vec<&str> = text.lines().collect();
        let found = stubs::stubbed_fns(text, &keys);
        for f in &found {
            if lines.is_empty() {
                path = format!("{src_dir}/{}", rel.display());
            } else {
                lines.push(String::new());
            }
            let from = f.sig.saturating_sub(1);
            let to = f.close.min(all.len());
            if from < to {
                starts.insert(f.key.clone(), lines.len() + 1);
            }
            lines.extend(all[from..to].iter().map(|l| l.to_string()));
        }
    }
    (path, lines, starts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::events::Call;

    #[test]
    fn a_narration_writes_the_call_once() {
        let call = Call {
            name: "count_naive".into(),
            args: vec![("people".into(), "1".into()), ("apples".into(), "0".into())],
            state: Vec::new(),
        };
        assert_eq!(
            narrated("called count_naive(people = 1, apples = 0)", &call),
            "Called count_naive(people = 1, apples = 0)"
        );
        assert_eq!(
            narrated("wrote 3 in (0, 1)", &call),
            "Wrote 3 in (0, 1) [count_naive(people = 1, apples = 0)]"
        );
    }
}
