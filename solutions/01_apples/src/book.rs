//! What the book shows of chapter 1: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch [`crate::count_naive`] hand out apples
//! person by person, count one way at every base case and take each
//! choice back, and see why the calls explode. The state is the
//! recursion's (people left, apples left, who took what) plus the records
//! written. The recorder makes one event per call and per decision, so it
//! costs what the naive count costs; its tests prove it makes exactly the
//! reference's calls and counts its ways. The records are the plain
//! tab-separated lines `cargo xtask book build` reads (core/src/players/records.rs).

use crate::{
    binomial, count_checked, count_exact, count_memo, count_naive, distributions, traced_calls,
};
use book_trace::{Code, Mark, Out, Quiz, Step, Trace, separated, thousands};

/// The player's instances, (people, apples): the page's 3 people and 4
/// apples first, then a smaller and a bigger one.
pub const INSTANCES: [(u32, u32); 3] = [(PEOPLE, APPLES), (2, 3), (4, 2)];

/// The page's instance: 3 people, 4 apples.
pub const PEOPLE: u32 = 3;
pub const APPLES: u32 = 4;

/// Every record of the chapter: the player, three figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    for (people, apples) in INSTANCES {
        trace(&mut out, people, apples);
    }
    next_quiz(&mut out);
    ways_figure(&mut out);
    calls_figure(&mut out);
    tree_figure(&mut out);
    overflow_figure(&mut out);
    quiz(&mut out);
    ways_quiz(&mut out);
    section_quizzes(&mut out);
    out.into_text()
}

/// The code the player lights: [`crate::count_naive`] as the book shows it.
fn code() -> Code {
    Code::new(
        "solutions/01_apples/src/naive.rs",
        include_str!("naive.rs"),
        "count_naive",
    )
}

fn trace(out: &mut Out, people: u32, apples: u32) {
    let mut t = Trace::new(
        "apples",
        "count_naive: one cell per person, one tree node per call",
        &format!("{people} people, {apples} apples"),
        code(),
    );
    t.rec(&["board", "grid", "1", &people.to_string(), "0"]);
    t.function("count_naive");
    t.counter(
        "calls",
        "steps:try",
        "calls of count_naive made so far, the first one included (one tree node each)",
    );
    t.counter(
        "ways",
        "marks:solution",
        "base cases reached so far that returned 1: each is one way to share the apples",
    );
    t.counter(
        "depth",
        "depth",
        "calls open below the first one (the current node's depth in the tree)",
    );
    let run = traced_calls(people, apples);
    t.total("calls", run.calls);
    t.total("ways", count_naive(people, apples));
    t.total("depth", 0);
    t.stay(Step::new(
        "try",
        "pub fn count_naive",
        &format!("count_naive({people}, {apples}): {people} people share {apples} apples."),
    ));
    t.call(&format!("{people}, {apples}"));
    let mut ways = 0;
    let mut taken = Vec::new();
    call(people, people, apples, &mut taken, &mut ways, &mut t);
    t.ret(&ways.to_string());
    t.stay(Step::new(
        "note",
        "",
        &format!(
            "The first call returns: {} ways in all, from {} calls.",
            thousands(ways),
            thousands(run.calls)
        ),
    ));
    t.finish(out);
}

/// One call of [`crate::count_naive`] (its `try` step is written by the
/// caller): `people` of `all` share `apples`; `taken` holds what the people
/// before them took.
fn call(all: u32, people: u32, apples: u32, taken: &mut Vec<u32>, ways: &mut u64, t: &mut Trace) {
    let me = (all - people) as usize;
    match people {
        0 => {
            *ways += u64::from(apples == 0);
            t.stay(Step::new(
                "note",
                "0 => u64::from(apples == 0)",
                "Nobody is left: 1 way if no apple is left, else 0.",
            ));
        }
        1 => {
            *ways += 1;
            taken.push(apples);
            let all_of = apples.to_string();
            t.stay(
                Step::new(
                    "place",
                    "1 => 1,",
                    &format!(
                        "Base case, one person left: person {me} takes all {apples}. That is 1 way."
                    ),
                )
                .at((0, me), &all_of),
            );
            t.stay(
                Step::new(
                    "found",
                    "1 => 1,",
                    &format!("Way number {ways}: {}.", spell(taken)),
                )
                .at((0, me), &all_of)
                .mark(Mark::Solution),
            );
            taken.pop();
            t.stay(
                Step::new(
                    "undo",
                    "1 => 1,",
                    &format!("Return 1: person {me} puts the {apples} back."),
                )
                .at((0, me), ""),
            );
        }
        _ => {
            // The running `.sum()` of this call, shown with `left` as its
            // locals in the frames panel.
            let start = *ways;
            for left in 0..=apples {
                let take = apples - left;
                taken.push(take);
                let text = take.to_string();
                t.locals(&format!("left = {left}, sum = {}", *ways - start));
                t.down(
                    Step::new(
                        "try",
                        "_ => (0..=apples)",
                        &format!(
                            "Person {me} takes {take}, leaving {left} for {} more: call count_naive({}, {left}).",
                            people - 1,
                            people - 1
                        ),
                    )
                    .at((0, me), &text),
                );
                t.call(&format!("{}, {left}", people - 1));
                let before = *ways;
                call(all, people - 1, left, taken, ways, t);
                t.ret(&(*ways - before).to_string());
                taken.pop();
                t.caller_locals(&format!("left = {left}, sum = {}", *ways - start));
                t.up(
                    Step::new(
                        "undo",
                        "_ => (0..=apples)",
                        &format!(
                            "count_naive({}, {left}) returns: back in count_naive({people}, {apples}), person {me} gives the {take} back{}.",
                            people - 1,
                            if left == 0 { " and this call returns the sum" } else { " and takes one fewer" }
                        ),
                    )
                    .at((0, me), ""),
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
        "Calls that count_naive(n, m) makes, for n = 0 to 6 people (rows) and m = 0 to 6 apples (columns), counted by traced_calls; shaded where the calls outnumber the ways more than 2 to 1.",
    ]);
    for n in 0..=6u32 {
        for m in 0..=6u32 {
            let run = traced_calls(n, m);
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

/// The people of the overflow page's table (2 and 3 share its first row).
pub const OVERFLOW_PEOPLE: [u32; 8] = [2, 3, 4, 5, 20, 34, 35, 1000];

/// The last number of apples whose count fits a `u64` for `people`
/// people, by bisection on [`count_checked`] (its answers fit up to a point
/// and never after it); `None` when every `u32` fits.
pub fn last_fitting(people: u32) -> Option<u32> {
    if count_checked(people, u32::MAX).is_some() {
        return None;
    }
    // count_checked(people, lo) fits, count_checked(people, hi) does not.
    let (mut lo, mut hi) = (0u32, u32::MAX);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if count_checked(people, mid).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// The overflow page's table: for each number of people, the last number of
/// apples whose count fits a u64 and the first that does not, from
/// [`count_checked`]; the caption gives the diagonal N = M, with the exact
/// counts on either side of the boundary from [`count_exact`].
fn overflow_figure(out: &mut Out) {
    let diagonal = (1..).find(|&n| count_checked(n, n).is_none()).unwrap_or(1);
    let last = diagonal - 1;
    out.rec(&[
        "figure",
        "overflow-table",
        "table",
        &(OVERFLOW_PEOPLE.len()).to_string(),
        "3",
        "0",
        &format!(
            "Where a u64 runs out, found by count_checked. On the diagonal N = M, the last square that fits is {last} x {last} (C({}, {}) = {}), and the first that overflows is {diagonal} x {diagonal} (C({}, {}) = {}).",
            2 * last - 1,
            last - 1,
            separated(&count_exact(last, last).to_string()),
            2 * diagonal - 1,
            diagonal - 1,
            separated(&count_exact(diagonal, diagonal).to_string()),
        ),
    ]);
    for (c, head) in ["people N", "last M that fits", "first M that overflows"]
        .into_iter()
        .enumerate()
    {
        out.cell(0, c, head, "");
    }
    let mut row = 1;
    for people in OVERFLOW_PEOPLE {
        match last_fitting(people) {
            // Two and three people fit for every u32; one row says so.
            None if people == 2 => continue,
            None => {
                let most = count_checked(people, u32::MAX).unwrap_or(0);
                out.cell(row, 0, &format!("{}, {people}", people - 1), "num");
                out.cell(row, 1, "every u32", "num");
                out.cell(
                    row,
                    2,
                    &format!("never (at most {})", thousands(most)),
                    "num",
                );
            }
            Some(m) => {
                out.cell(row, 0, &people.to_string(), "num");
                out.cell(row, 1, &thousands(u64::from(m)), "num");
                out.cell(row, 2, &thousands(u64::from(m) + 1), "num");
            }
        }
        row += 1;
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
    let run = traced_calls(3, 2);
    out.rec(&[
        "figure",
        "call-tree",
        "graph",
        "0",
        "0",
        "0",
        &format!(
            "The calls of count_naive(3, 2), each labelled (people, apples): {} calls for {} ways. The shaded, dashed calls repeat a question already answered to their left; a memo would answer them at once.",
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
            // Not `seen` (the link colour, which the player gives the
            // calls on the current path): a repeat has a meaning of its own.
            out.rec(&["cell", &i.to_string(), "0", "", "again"]);
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
    let run = traced_calls(4, 4);
    out.quiz(Quiz {
        id: "calls-4-4",
        question: "count_naive(4, 4) answers 35 ways. How many times is the function entered, the first call included?",
        right: run.calls.to_string(),
        wrong: [run.ways, run.calls * 2, 4u64.pow(4)].map(|n| n.to_string()).to_vec(),
        explain: format!(
            "{} calls (traced_calls says so): every one of the {} ways ends in its own base-case call, and every inner call is entered too, so the calls always outnumber the ways; that is the explosion memoization removes.",
            run.calls,
            count_naive(4, 4)
        ),
    });
    out.why(
        &run.ways.to_string(),
        &format!(
            "{} counts the ways, one per base case that returns 1; every inner call is entered too, so the calls outnumber the ways.",
            run.ways
        ),
    );
    out.why(
        &(run.calls * 2).to_string(),
        &format!(
            "{} is twice the calls: each call is entered once, the first one included.",
            run.calls * 2
        ),
    );
    out.why(
        &4u64.pow(4).to_string(),
        "256 = 4^4 would let each of the 4 people take any of 4 amounts with no total to respect; the recursion only enters calls for the apples that are left.",
    );
}

/// Predict the count of the player's run.
fn ways_quiz(out: &mut Out) {
    let run = traced_calls(PEOPLE, APPLES);
    out.quiz(Quiz {
        id: "ways-3-4",
        question: &format!(
            "Before playing it: in how many ways can {APPLES} apples go to {PEOPLE} people?"
        ),
        right: run.ways.to_string(),
        wrong: [run.calls, u64::from(APPLES).pow(PEOPLE), 12].map(|n| n.to_string()).to_vec(),
        explain: format!(
            "{}: the player's last step counts them, one per base case; that is C({}, {}), the closed form. The recursion made {} calls to find them.",
            run.ways,
            APPLES + PEOPLE - 1,
            PEOPLE - 1,
            run.calls
        ),
    });
    out.why(
        &run.calls.to_string(),
        &format!(
            "{} counts the calls of count_naive({PEOPLE}, {APPLES}), the first one included (the player's \"calls\"), not the base cases that return 1.",
            run.calls
        ),
    );
    out.why(
        &u64::from(APPLES).pow(PEOPLE).to_string(),
        &format!(
            "{} = {APPLES}^{PEOPLE} would let each person take any number up to {APPLES} independently; the apples must add up to {APPLES}.",
            u64::from(APPLES).pow(PEOPLE)
        ),
    );
    out.why(
        "12",
        "12 is 3 x 4, people times apples: no rule of the recursion multiplies them.",
    );
}

/// The quizzes that close the chapter's other pages, one each.
fn section_quizzes(out: &mut Out) {
    edges_quiz(out);
    memo_quiz(out);
    closed_form_quiz(out);
    overflow_quiz(out);
    listing_quiz(out);
}

fn num(n: Option<u64>) -> String {
    n.map_or("does not fit".into(), |n| n.to_string())
}

/// The index page's edge cases: nobody to take the apples.
fn edges_quiz(out: &mut Out) {
    let (nobody, none) = (count_naive(0, 3), count_naive(3, 0));
    out.quiz(Quiz {
        id: "edges-0-3",
        question: "How many ways are there to hand 3 apples to 0 people, and 0 apples to 3 people (count_naive(0, 3) and count_naive(3, 0))?",
        right: format!("{nobody} and {none}"),
        wrong: vec![
            format!("{none} and {none}"),
            format!("{nobody} and {nobody}"),
            "3 and 3".into(),
        ],
        explain: format!(
            "{nobody} and {none}: with nobody to take them the apples cannot all be handed out, so no way; with no apples everyone gets nothing, which is one way. These are the edges every function of the chapter agrees on."
        ),
    });
    out.why(
        &format!("{none} and {none}"),
        &format!(
            "With nobody to take them, 3 apples cannot all be handed out: count_naive(0, 3) is {nobody}."
        ),
    );
    out.why(
        &format!("{nobody} and {nobody}"),
        &format!(
            "With no apples, everyone getting nothing is one way: count_naive(3, 0) is {none}."
        ),
    );
    out.why(
        "3 and 3",
        "Nobody can take 3 apples, so there is no way; and 0 apples go to 3 people in one way, everyone getting nothing.",
    );
}

/// The memo page's recurrence, with the two table entries given.
fn memo_quiz(out: &mut Out) {
    let (left, up) = (count_memo(3, 4), count_memo(2, 5));
    let right = count_memo(3, 5);
    let product = left.zip(up).map(|(a, b)| a * b);
    out.quiz(Quiz {
        id: "memo-3-5",
        question: &format!(
            "The table holds ways(3, 4) = {} and ways(2, 5) = {}. What does count_memo put at ways(3, 5)?",
            num(left),
            num(up)
        ),
        right: num(right),
        wrong: vec![num(product), num(count_memo(3, 4)), num(count_memo(2, 6))],
        explain: format!(
            "{}: ways(n, m) = ways(n, m-1) + ways(n-1, m), one addition: either the first person takes nothing and 2 people share 5, or they take at least one apple and the 3 share the other 4.",
            num(right)
        ),
    });
    out.why(
        &num(product),
        &format!(
            "{} multiplies the two entries; ways(n, m) adds them: the first person takes nothing, or at least one apple.",
            num(product)
        ),
    );
    out.why(
        &num(left),
        &format!(
            "{} is ways(3, 4), the entry to the left; ways(3, 5) adds the entry above, ways(2, 5), to it.",
            num(left)
        ),
    );
    out.why(
        &num(count_memo(2, 6)),
        &format!(
            "{} is ways(2, 6), two people sharing 6 apples, not three sharing 5.",
            num(count_memo(2, 6))
        ),
    );
}

/// The closed form C(M+N-1, N-1), against its off-by-one neighbours.
fn closed_form_quiz(out: &mut Out) {
    let (people, apples) = (4u64, 6u64);
    let right = binomial(apples + people - 1, people - 1);
    out.quiz(Quiz {
        id: "closed-4-6",
        question: "In how many ways can 6 apples go to 4 people? (The closed form is a binomial coefficient.)",
        right: right.to_string(),
        wrong: vec![
            binomial(apples + people, people - 1).to_string(),
            binomial(apples + people - 1, people).to_string(),
            binomial(apples + people, people).to_string(),
        ],
        explain: format!(
            "C(9, 3) = {right}: line up the 6 apples and 3 separators between the 4 people; a way is a choice of which 3 of the 9 places hold separators."
        ),
    });
    out.why(
        &binomial(apples + people, people - 1).to_string(),
        &format!(
            "{} = C(10, 3) counts one place too many: 6 apples and 3 separators fill 9 places, not 10.",
            binomial(apples + people, people - 1)
        ),
    );
    out.why(
        &binomial(apples + people - 1, people).to_string(),
        &format!(
            "{} = C(9, 4) chooses 4 separators; 4 people need only 3 separators between them.",
            binomial(apples + people - 1, people)
        ),
    );
    out.why(
        &binomial(apples + people, people).to_string(),
        &format!(
            "{} = C(10, 4) has one place too many and one separator too many.",
            binomial(apples + people, people)
        ),
    );
}

/// Where a u64 runs out for 20 people, found with count_checked.
fn overflow_quiz(out: &mut Out) {
    let people = 20;
    let first = (1..).find(|&m| count_checked(people, m).is_none());
    let first = first.unwrap_or(0);
    out.quiz(Quiz {
        id: "overflow-20",
        question: "For 20 people, what is the first number of apples for which count_checked returns None (the count no longer fits a u64)?",
        right: first.to_string(),
        wrong: vec![
            (first - 1).to_string(),
            "35".into(),
            "64".into(),
        ],
        explain: format!(
            "{first}: count_checked({people}, {}) still fits, count_checked({people}, {first}) does not. The running values never decrease, so the first one that overflows proves the answer overflows; 35 is where the diagonal N = M runs out, 64 is the bits of a u64, not a count of apples.",
            first - 1
        ),
    });
    out.why(
        &(first - 1).to_string(),
        &format!(
            "count_checked({people}, {}) still fits: {} is the last number of apples that fits, and the first that overflows is one more.",
            first - 1,
            first - 1
        ),
    );
    out.why(
        "35",
        "35 is where the diagonal N = M runs out (35 people, 35 apples); with 20 people the count grows more slowly in M.",
    );
    out.why("64", "64 is the bits of a u64, not a count of apples.");
}

/// The lazy listing's next step: back up to the deepest share that can grow.
fn listing_quiz(out: &mut Out) {
    let all: Vec<Vec<u32>> = distributions(3, 3).collect();
    let at = all.iter().position(|d| d == &vec![0, 3, 0]).unwrap_or(0);
    let show = |d: &Vec<u32>| format!("{d:?}");
    let right = all.get(at + 1).map_or(String::new(), show);
    out.quiz(Quiz {
        id: "listing-next",
        question: "distributions(3, 3) has just yielded [0, 3, 0]. What does the next call of next() yield?",
        right: right.clone(),
        wrong: vec!["[0, 2, 1]".into(), "[1, 2, 0]".into(), "[3, 0, 0]".into()],
        explain: format!(
            "{right}: the last share is 0 and person 2 holds everything that is left, so the deepest person whose share can grow is person 1; they take one more apple, and below them everyone takes 0 except the last person, who takes the rest. The list is in lexicographic order, {} distributions in all.",
            all.len()
        ),
    });
    out.why(
        "[0, 2, 1]",
        "[0, 2, 1] comes before [0, 3, 0] in lexicographic order, not after: the listing never goes back.",
    );
    out.why(
        "[1, 2, 0]",
        "[1, 2, 0] comes later, but not next: below the person who grows, everyone takes 0 except the last, who takes the rest.",
    );
    out.why(
        "[3, 0, 0]",
        "[3, 0, 0] is the last distribution of all; person 0 grows by one apple at a time.",
    );
}

/// "What happens next?" at the player's first backtrack: the reader sees
/// the step before it and predicts it.
fn next_quiz(out: &mut Out) {
    if let Some(k) = ["undo", "reject"]
        .into_iter()
        .find_map(|kind| out.step_before_first("apples", 0, kind))
    {
        out.next_step_quiz("next-apples", "apples", 0, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str, prefix: &str) -> u64 {
        text.lines().filter(|l| l.starts_with(prefix)).count() as u64
    }

    #[test]
    fn the_section_quizzes_answer_what_the_reference_computes() {
        let text = records();
        let right = |id: &str| book_trace::answer(&text, id).expect("quiz").0;
        assert_eq!(right("edges-0-3"), "0 and 1");
        assert_eq!(right("memo-3-5"), count_naive(3, 5).to_string());
        assert_eq!(right("closed-4-6"), count_naive(4, 6).to_string());
        assert_eq!(right("overflow-20"), "73");
        assert!(count_checked(20, 72).is_some() && count_checked(20, 73).is_none());
        assert_eq!(right("listing-next"), "[1, 0, 2]");
        for id in [
            "edges-0-3",
            "memo-3-5",
            "closed-4-6",
            "overflow-20",
            "listing-next",
        ] {
            assert_eq!(book_trace::answer(&text, id).expect("quiz").1, 4, "{id}");
        }
    }

    /// The overflow table's boundary, recomputed with the exact big-integer
    /// count: each row's last M fits in a u64 and its first M does not.
    #[test]
    fn the_overflow_table_names_the_boundary_the_exact_count_puts_there() {
        let text = records();
        let table: Vec<Vec<String>> = text
            .split("figure\toverflow-table\t")
            .nth(1)
            .expect("the overflow table")
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("cell\t"))
            .map(|l| l.split('\t').map(String::from).collect())
            .collect();
        let cell = |r: usize, c: usize| -> String {
            table
                .iter()
                .find(|f| f[1] == r.to_string() && f[2] == c.to_string())
                .map(|f| f[3].replace(',', ""))
                .expect("a cell")
        };
        let max = num_bigint::BigUint::from(u64::MAX);
        let rows = table.iter().filter(|f| f[2] == "0").count();
        assert_eq!(
            rows,
            OVERFLOW_PEOPLE.len(),
            "a header and one row per N but 2"
        );
        for r in 2..rows {
            let people: u32 = cell(r, 0).parse().expect("N");
            let last: u32 = cell(r, 1).parse().expect("last M");
            let first: u32 = cell(r, 2).parse().expect("first M");
            assert_eq!(first, last + 1);
            assert!(
                count_exact(people, last) <= max,
                "{people} people, {last} apples fit"
            );
            assert!(
                count_exact(people, first) > max,
                "{people} people, {first} apples overflow"
            );
        }
        // The first row: 2 and 3 people fit for every u32.
        assert!(count_exact(3, u32::MAX) <= max);
        assert_eq!(cell(1, 1), "every u32");
        // The row the page once had wrong: 35 people, 34 apples overflow.
        assert!(count_exact(35, 34) > max);
        assert!(text.contains("the last square that fits is 34 x 34"));
    }

    #[test]
    fn the_player_makes_the_references_calls_and_finds_its_ways() {
        let text = records();
        for (i, (people, apples)) in INSTANCES.into_iter().enumerate() {
            let player: String = text
                .split("trace\tapples\t")
                .nth(i + 1)
                .expect("an instance")
                .lines()
                .take_while(|l| !l.starts_with("figure"))
                .map(|l| format!("{l}\n"))
                .collect();
            let run = traced_calls(people, apples);
            assert_eq!(count(&player, "step\ttry"), run.calls);
            assert_eq!(count(&player, "step\tfound"), count_naive(people, apples));
            assert!(player.contains(&format!("{} ways in all", thousands(run.ways))));
        }
    }
}
