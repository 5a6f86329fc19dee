//! The page `workbook trace` writes: both searches in the book's player,
//! side by side, each opened at the first step where they differ.
//!
//! The problem: show the learner's search and the reference's the way the
//! book shows a search (board, tree, narration, timeline), on a page that
//! opens from `file://` with no book built and no network. The state is
//! each run turned into the player's records (the format documented in
//! solutions/trace/src/lib.rs, read back by the book's own reader, so a
//! malformed step is caught here, not in the browser); the players'
//! scripts and styles are inlined from `book/src/assets/`. Cost: linear in
//! the steps.

use super::Verdict;
use super::events::{Event, Run};
use super::scratch::Files;
use super::specs::{Board, Spec};
use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use workbook_core::info::{Chapter, Exercise};
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
}

/// Writes the page to `path` and returns it.
pub fn write(path: &Path, root: &Path, s: Sides) -> Result<PathBuf> {
    let yours = player(
        &s,
        "yours",
        &format!("your code: {}", s.label),
        s.yours,
        &s.chapter.shown(&s.chapter.stub_src()),
    )?;
    let theirs = player(
        &s,
        "reference",
        &format!("the reference: {}", s.label),
        s.theirs,
        &s.chapter.shown(&s.chapter.reference_src()),
    )?;
    let asset = |name: &str| -> Result<String> {
        let p = root.join("book/src/assets").join(name);
        std::fs::read_to_string(&p).with_context(|| format!("cannot read {}", p.display()))
    };
    // A `</script>` inside a script would end it early.
    let script =
        |name: &str| -> Result<String> { Ok(asset(name)?.replace("</script", "<\\/script")) };
    let start = s.verdict.first_difference.unwrap_or(0);
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\" class=\"light\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>trace: {exercise}</title>\n<style>\n{css}\n\
         :root {{ --bg: #ffffff; --fg: #000000; --links: #20609f; --mono-font: monospace; \
         --quote-bg: #f1f2f4; --table-border-color: #e6e6e6; --content-max-width: 750px; }}\n\
         body {{ background: var(--bg); color: var(--fg); font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1600px; padding: 0.5rem 1rem; }}\n\
         .wb-verdict {{ border-left: 4px solid #c60; padding: 0.4rem 0.8rem; background: #fff6ea; }}\n\
         .wb-verdict.wb-same {{ border-color: #393; background: #eefbea; }}\n\
         .wb-sides {{ display: flex; flex-wrap: wrap; gap: 1rem; }}\n\
         .wb-side {{ flex: 1 1 30rem; min-width: 0; }}\n\
         </style></head><body>\n\
         <h1>trace: {exercise} <small>({label})</small></h1>\n\
         <p class=\"wb-verdict{same}\">{verdict}</p>\n\
         <p>Both players below open at step {start_shown}; step with the arrow keys or the timeline.</p>\n\
         <div class=\"wb-sides\"><section class=\"wb-side\"><h2>Your search</h2>\n{yours}</section>\n\
         <section class=\"wb-side\"><h2>The reference's search</h2>\n{theirs}</section></div>\n\
         <script>\n{words}\n</script>\n<script>\n{tree}\n</script>\n<script>\n{play}\n</script>\n\
         <script>\n// After the players' own start (both wait for the document).\n\
         document.addEventListener('DOMContentLoaded', function () {{\n\
           document.querySelectorAll('.bt-player').forEach(function (p) {{\n\
             var pl = p.btPlayer; if (!pl || !pl.t) {{ return; }}\n\
             pl.k = Math.min({start}, pl.t.steps.length); pl.show();\n\
           }});\n\
         }});\n</script>\n</body></html>\n",
        exercise = render::esc(&s.exercise.name),
        label = render::esc(s.label),
        css = asset("bt.css")?,
        same = if s.verdict.first_difference.is_none() {
            " wb-same"
        } else {
            ""
        },
        verdict = render::esc(&s.verdict.text),
        start_shown = if start == 0 {
            "0 (the start)".to_string()
        } else {
            start.to_string()
        },
        // btT, which every word the players show goes through (English
        // here: no BT_STRINGS, so the templates themselves).
        words = script("bt-i18n.js")?,
        tree = script("bt-tree.js")?,
        play = script("bt-player.js")?,
    );
    std::fs::write(path, html).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path.to_path_buf())
}

/// One run as a player: its records, read back and rendered.
fn player(
    s: &Sides,
    id: &str,
    instance: &str,
    side: (&Run, &Files),
    src_dir: &str,
) -> Result<String> {
    let (run, files) = side;
    let text = records_of(s.spec, s.index, id, instance, run, files, src_dir);
    let doc = records::parse(&text).context("the trace's records do not read back")?;
    let Some(trace) = doc.traces.first() else {
        bail!("the trace's records hold no player");
    };
    Ok(render::player(&[trace]))
}

/// The records of one run (see `book_trace`'s module doc for the format).
#[allow(clippy::too_many_arguments)]
pub fn records_of(
    spec: &Spec,
    index: usize,
    id: &str,
    instance: &str,
    run: &Run,
    files: &Files,
    src_dir: &str,
) -> String {
    let mut out = Vec::<Vec<String>>::new();
    let mut rec = |f: &[&str]| {
        out.push(f.iter().map(|x| x.replace(['\t', '\n'], " ")).collect());
    };
    rec(&["trace", id, spec.title, instance]);
    let graph = matches!(spec.board, Board::Graph { .. });
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
    let (path, lines) = code_of(spec, files, src_dir);
    rec(&["code", &path, &spec.traced.join(", ")]);
    for l in &lines {
        rec(&["src", l]);
    }
    rec(&[
        "counter",
        "calls",
        "nodes",
        "calls of the traced functions so far, the first one included",
    ]);
    rec(&[
        "counter",
        "depth",
        "depth",
        "calls open now (the current node's depth)",
    ]);
    // The open calls: their node and the cell each one filled.
    let mut open: Vec<Opened> = Vec::new();
    let mut parents: Vec<Option<usize>> = vec![None];
    let dash = "-".to_string();
    for e in &run.events {
        match e {
            Event::Call(call) => {
                let parent_call = open.last().map(|o| o.2);
                let look = (spec.look)(call, parent_call);
                let parent = open.last().map_or(0, |o| o.0);
                let node = parents.len();
                parents.push(Some(parent));
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
                rec(&[
                    "step",
                    kind,
                    &node.to_string(),
                    &parent.to_string(),
                    "0",
                    "-",
                    &r,
                    &c,
                    &text,
                    &format!("{} {}", first_upper(&look.phrase), spelled_note(call)),
                ]);
                open.push((node, cell, call));
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
                    Some((r, c)) if !graph => ("undo", r.to_string(), c.to_string()),
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
                    &format!("{name} returned {value}."),
                ]);
            }
        }
    }
    if run.ending != super::events::Ending::Finished {
        let node = open.last().map_or(0, |o| o.0);
        let parent = parents[node].map_or(dash.clone(), |p| p.to_string());
        let who = if id == "yours" {
            "Your code"
        } else {
            "The reference"
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
            &format!("{who} {}.", run.ending.words()),
        ]);
    }
    out.iter().map(|f| f.join("\t") + "\n").collect()
}

/// An open call: its tree node, the cell it filled, and the call.
type Opened<'a> = (usize, Option<(usize, usize)>, &'a super::events::Call);

/// The call as written, for the narration: `(visit(v = 3, ...))`.
fn spelled_note(call: &super::events::Call) -> String {
    format!("[{}]", call.spelled())
}

fn first_upper(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

/// The traced functions' source on this side, for the code panel: the
/// file that holds the first of them, and their lines.
fn code_of(spec: &Spec, files: &Files, src_dir: &str) -> (String, Vec<String>) {
    let keys: BTreeSet<&str> = spec.traced.iter().copied().collect();
    let mut path = src_dir.to_string();
    let mut lines = Vec::new();
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
            lines.extend(all[from..to].iter().map(|l| l.to_string()));
        }
    }
    (path, lines)
}
