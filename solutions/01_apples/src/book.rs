//! What the book shows of chapter 1: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch [`crate::count_naive`] hand out apples
//! person by person, count one way at every base case and take each
//! choice back, and see why the calls explode. The state is the
//! recursion's (people left, apples left, who took what) plus the records
//! written. The recorder makes one event per call and per decision, so it
//! costs what the naive count costs; its tests prove it makes exactly the
//! reference's calls and counts its ways. The records are the plain
//! tab-separated lines `workbook book build` reads (workbook/src/book/records.rs).

use crate::{count_memo, count_naive, count_naive_traced};
use book_trace::Out;

/// The player's instance: 3 people, 4 apples.
pub const PEOPLE: u32 = 3;
pub const APPLES: u32 = 4;

/// Every record of the chapter: the player, three figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    trace(&mut out);
    ways_figure(&mut out);
    calls_figure(&mut out);
    tree_figure(&mut out);
    quiz(&mut out);
    ways_quiz(&mut out);
    out.into_text()
}

fn trace(out: &mut Out) {
    out.rec(&[
        "trace",
        "apples",
        &format!("count_naive({PEOPLE}, {APPLES}): one cell per person"),
    ]);
    out.rec(&["board", "grid", "1", &PEOPLE.to_string(), "0"]);
    out.ev(
        "try",
        None,
        "",
        0,
        &format!("count_naive({PEOPLE}, {APPLES}): {PEOPLE} people share {APPLES} apples."),
    );
    let mut ways = 0;
    let mut taken = Vec::new();
    call(PEOPLE, APPLES, 1, &mut taken, &mut ways, out);
    out.ev(
        "found",
        None,
        "",
        0,
        &format!("Every call has returned: {ways} ways in all."),
    );
}

/// One call of [`crate::count_naive`]: `people` share `apples`; `taken`
/// holds what the people before them took.
fn call(
    people: u32,
    apples: u32,
    depth: usize,
    taken: &mut Vec<u32>,
    ways: &mut u64,
    out: &mut Out,
) {
    let me = PEOPLE - people;
    match people {
        0 => {
            if apples == 0 {
                *ways += 1;
            }
        }
        1 => {
            *ways += 1;
            taken.push(apples);
            out.ev(
                "place",
                Some((0, me as usize)),
                &apples.to_string(),
                depth,
                &format!(
                    "Base case, one person left: person {me} takes all {apples}. That is 1 way."
                ),
            );
            out.ev(
                "found",
                Some((0, me as usize)),
                &apples.to_string(),
                depth,
                &format!("Way number {ways}: {}.", spell(taken)),
            );
            taken.pop();
            out.ev(
                "undo",
                Some((0, me as usize)),
                "",
                depth,
                "Return 1 to the caller.",
            );
        }
        _ => {
            for left in 0..=apples {
                let take = apples - left;
                taken.push(take);
                out.ev(
                    "try", Some((0, me as usize)),
                    &take.to_string(),
                    depth,
                    &format!(
                        "Person {me} takes {take}, leaving {left} for {} more: call count_naive({}, {left}).",
                        people - 1,
                        people - 1
                    ),
                );
                call(people - 1, left, depth + 1, taken, ways, out);
                taken.pop();
                out.ev(
                    "undo", Some((0, me as usize)),
                    "",
                    depth,
                    &format!("Back in count_naive({people}, {apples}): person {me} gives the {take} back."),
                );
            }
        }
    }
}

fn spell(taken: &[u32]) -> String {
    let parts: Vec<String> = taken.iter().map(u32::to_string).collect();
    parts.join(" + ")
}

fn ways_figure(out: &mut Out) {
    let diagonal: Vec<String> = (0..=5u32)
        .map(|m| count_memo(m + 1, m).unwrap_or(0).to_string())
        .collect();
    out.rec(&[
        "figure",
        "ways-table",
        "grid",
        "7",
        "7",
        "0",
        &format!(
            "ways(n, m) for n = 0 to 6 people (rows) and m = 0 to 6 apples (columns), from count_memo. Each entry is the sum of the row above up to its column; the shaded diagonal ({}) grows by a factor that approaches 4 per step.",
            diagonal.join(", ")
        ),
    ]);
    for n in 0..=6u32 {
        for m in 0..=6u32 {
            let ways = count_memo(n, m).unwrap_or(0);
            let class = if n == m + 1 { "given" } else { "" };
            out.rec(&[
                "cell",
                &n.to_string(),
                &m.to_string(),
                &ways.to_string(),
                class,
            ]);
        }
    }
}

fn calls_figure(out: &mut Out) {
    out.rec(&[
        "figure",
        "calls-table",
        "grid",
        "7",
        "7",
        "0",
        "Calls that count_naive(n, m) makes, for n = 0 to 6 people (rows) and m = 0 to 6 apples (columns), counted by count_naive_traced; shaded where the calls outnumber the ways more than 2 to 1.",
    ]);
    for n in 0..=6u32 {
        for m in 0..=6u32 {
            let run = count_naive_traced(n, m);
            let class = if run.calls > 2 * run.ways {
                "attacked"
            } else {
                ""
            };
            out.rec(&[
                "cell",
                &n.to_string(),
                &m.to_string(),
                &run.calls.to_string(),
                class,
            ]);
        }
    }
}

/// The call tree of count_naive(3, 2), each node labelled (n,m); a node
/// whose (n, m) was already met further left is shaded: memoization would
/// answer it without a call.
fn tree_figure(out: &mut Out) {
    let mut nodes: Vec<(f64, u32, String, bool)> = Vec::new();
    let mut edges = Vec::new();
    let mut met = Vec::new();
    grow(3, 2, 0, None, &mut nodes, &mut edges, &mut met);
    let run = count_naive_traced(3, 2);
    out.rec(&[
        "figure",
        "call-tree",
        "graph",
        "0",
        "0",
        "0",
        &format!(
            "The calls of count_naive(3, 2), each labelled (people, apples): {} calls for {} ways. The filled calls repeat a question already answered to their left; a memo would answer them at once.",
            run.calls, run.ways
        ),
    ]);
    let leaves = nodes.iter().filter(|n| n.1 == 2).count().max(2);
    for (x, y, label, _) in &nodes {
        let x = x * 100.0 / (leaves - 1) as f64;
        out.rec(&["node", &format!("{x:.1}"), &(y * 50).to_string(), label]);
    }
    for (a, b) in &edges {
        out.rec(&["edge", &a.to_string(), &b.to_string()]);
    }
    for (i, n) in nodes.iter().enumerate() {
        if n.3 {
            out.rec(&["cell", &i.to_string(), "0", "", "seen"]);
        }
    }
}

/// The naive recursion's calls as a tree; x is the leaf order (0, 1, ...).
fn grow(
    people: u32,
    apples: u32,
    depth: u32,
    parent: Option<usize>,
    nodes: &mut Vec<(f64, u32, String, bool)>,
    edges: &mut Vec<(usize, usize)>,
    met: &mut Vec<(u32, u32)>,
) -> f64 {
    let me = nodes.len();
    let repeat = met.contains(&(people, apples));
    met.push((people, apples));
    nodes.push((0.0, depth, format!("{people},{apples}"), repeat));
    if let Some(p) = parent {
        edges.push((p, me));
    }
    let x = if people <= 1 {
        nodes.iter().filter(|n| n.1 == depth && people <= 1).count() as f64 - 1.0
    } else {
        let xs: Vec<f64> = (0..=apples)
            .map(|left| grow(people - 1, left, depth + 1, Some(me), nodes, edges, met))
            .collect();
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    nodes[me].0 = x;
    x
}

fn quiz(out: &mut Out) {
    let run = count_naive_traced(4, 4);
    out.rec(&[
        "quiz",
        "calls-4-4",
        "count_naive(4, 4) answers 35 ways. How many times is the function entered, the first call included?",
    ]);
    for (n, right) in [
        (run.ways, false),
        (run.calls, true),
        (run.calls * 2, false),
        (4u64.pow(4), false),
    ] {
        out.rec(&["choice", if right { "1" } else { "0" }, &n.to_string()]);
    }
    out.rec(&[
        "explain",
        &format!(
            "{} calls (count_naive_traced says so): every one of the {} ways ends in its own base-case call, and every inner call is entered too, so the calls always outnumber the ways; that is the explosion memoization removes.",
            run.calls,
            count_naive(4, 4)
        ),
    ]);
}

/// Predict the count of the player's run.
fn ways_quiz(out: &mut Out) {
    let run = count_naive_traced(PEOPLE, APPLES);
    out.rec(&[
        "quiz",
        "ways-3-4",
        &format!("Before playing it: in how many ways can {APPLES} apples go to {PEOPLE} people?"),
    ]);
    let mut choices = vec![run.ways, run.calls, u64::from(APPLES).pow(PEOPLE), 12];
    choices.dedup();
    for n in choices {
        out.rec(&[
            "choice",
            if n == run.ways { "1" } else { "0" },
            &n.to_string(),
        ]);
    }
    out.rec(&[
        "explain",
        &format!(
            "{}: the player's last step counts them, one per base case; that is C({}, {}), the closed form. The recursion made {} calls to find them.",
            run.ways,
            APPLES + PEOPLE - 1,
            PEOPLE - 1,
            run.calls
        ),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str, prefix: &str) -> u64 {
        text.lines().filter(|l| l.starts_with(prefix)).count() as u64
    }

    #[test]
    fn the_player_makes_the_references_calls_and_finds_its_ways() {
        let text = records();
        let player: String = text
            .lines()
            .take_while(|l| !l.starts_with("figure"))
            .map(|l| format!("{l}\n"))
            .collect();
        let run = count_naive_traced(PEOPLE, APPLES);
        assert_eq!(count(&player, "ev\ttry"), run.calls);
        assert_eq!(count(&player, "ev\tfound\t0"), run.ways);
    }

    #[test]
    fn every_choice_is_taken_back() {
        let text = records();
        assert_eq!(
            count(&text, "ev\ttry\t0"),
            count(&text, "ev\tundo") - count(&text, "ev\tplace")
        );
    }
}
