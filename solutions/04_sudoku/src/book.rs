//! What the book shows of chapter 4: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch [`crate::solve_fewest`] pick the blank
//! with the fewest candidates, show those candidates, write a digit, and
//! take it back when a later blank has none left. The state is the search's
//! own (grid, masks) plus the records written. One `try` per node, so the
//! player's node counter is the reference's `nodes`, which the tests check
//! along with the solution; it costs what the search costs. The records
//! are the plain tab-separated lines `cargo xtask book build` reads
//! (core/src/players/records.rs).

use crate::bitmask::Masks;
use crate::fewest::fewest_choices;
use crate::{
    Board, Grid, STAGES, count_solutions, generate, parse_cells, solve_fewest, solve_flags,
    solve_naive, solve_propagation,
};
use book_trace::{Code, Mark, Out, Quiz, Step, Trace, thousands};

mod pages;
use pages::rows;

/// A cell's index as (row, column).
fn at(cell: usize) -> (usize, usize) {
    (cell / 9, cell % 9)
}

/// The player's puzzle: one of the suite's generated puzzles, which needs a
/// few guesses and backtracks even with the fewest candidates first.
pub const PUZZLE: &str =
    "1.84.....7.....6..43..29.....7..5..33....64..2..9..1.....1.8........798.....5....";

/// Every record of the chapter: the player, figures and a quiz.
pub fn records() -> String {
    let mut out = Out::default();
    let puzzle = Grid::from_literal(PUZZLE);
    let guessed = trace(&mut out, &puzzle, "the page's puzzle");
    for (label, other) in MORE {
        trace(&mut out, &Grid::from_literal(other), label);
    }
    next_quiz(&mut out);
    candidates_figure(&mut out, &puzzle);
    counts_figure(&mut out, &puzzle);
    solved_figure(&mut out, &puzzle, &guessed);
    quiz(&mut out, &puzzle);
    pick_quiz(&mut out, &puzzle);
    section_quizzes(&mut out, &puzzle);
    pages::figures(&mut out);
    out.into_text()
}

/// The digits of a candidate mask, as text: 0b1010 -> "13".
fn digits(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << d) != 0)
        .map(|d| char::from(b'0' + d))
        .collect()
}

/// A candidate set as the frames panel shows it: `{2,5,8}`.
fn set(mask: u16) -> String {
    let all: Vec<String> = digits(mask).chars().map(String::from).collect();
    format!("{{{}}}", all.join(","))
}

/// A cell as (row, column), 0-based like the code and the drawn labels.
fn name(cell: usize) -> String {
    format!("({}, {})", cell / 9, cell % 9)
}

/// The player's other instances, after the page's [`PUZZLE`].
pub const MORE: [(&str, &str); 2] = [
    (
        "the classic example",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    ),
    (
        "a harder puzzle",
        "4.....57867......3.....8.....1.6..9...2..9.....7.8.2.....59...7.1.....6...3..7...",
    ),
];

/// Returns the cells where the search guessed (chose among two or more).
fn trace(out: &mut Out, puzzle: &Grid, label: &str) -> Vec<usize> {
    let code = Code::new(
        "solutions/04_sudoku/src/fewest.rs",
        include_str!("fewest.rs"),
        "solve_fewest",
    );
    let mut t = Trace::new(
        "fewest",
        "Sudoku, fewest candidates first: one tree node per call of branch",
        label,
        code,
    );
    t.rec(&["board", "grid", "9", "9", "3"]);
    t.function("branch");
    for (i, &d) in puzzle.cells.iter().enumerate() {
        if d != 0 {
            t.rec(&[
                "given",
                &(i / 9).to_string(),
                &(i % 9).to_string(),
                &d.to_string(),
            ]);
        }
    }
    let outcome = solve_fewest(puzzle);
    t.counter(
        "nodes",
        "nodes",
        "calls of branch so far, the first one included (the nodes of Stats)",
    );
    t.counter(
        "guesses",
        "marks:guess",
        "digits written so far into a blank that had two or more candidates (the guesses of Stats)",
    );
    t.counter(
        "depth",
        "depth",
        "digits the search has written and not taken back",
    );
    t.total("nodes", outcome.stats.nodes);
    t.total("guesses", outcome.stats.guesses);
    let mut grid = *puzzle;
    let mut masks = Masks::of(puzzle);
    let mut guessed = Vec::new();
    t.stay(Step::new(
        "note",
        "stats.nodes += 1;",
        "branch: the first call, on the puzzle as given.",
    ));
    t.call("puzzle");
    let solved = branch(&mut grid, &mut masks, true, &mut guessed, &mut t);
    let end = if solved {
        format!(
            "Every blank is filled: solved, after {} nodes and {} guesses.",
            thousands(outcome.stats.nodes),
            thousands(outcome.stats.guesses)
        )
    } else {
        format!(
            "No solution, after {} nodes.",
            thousands(outcome.stats.nodes)
        )
    };
    t.stay(Step::new("note", "solution: solved.then_some(grid)", &end));
    t.finish(out);
    guessed
}

/// [`crate::fewest`]'s `branch`, one tree node per call (the caller's
/// `place` step enters it); `first` is the outermost call.
fn branch(
    grid: &mut Grid,
    masks: &mut Masks,
    first: bool,
    guessed: &mut Vec<usize>,
    t: &mut Trace,
) -> bool {
    let pick = "fewest_choices(grid, masks) else";
    let Some((cell, mut free)) = fewest_choices(grid, masks) else {
        t.stay(Step::new("found", pick, "No blank is left: return true.").mark(Mark::Solution));
        return true;
    };
    let n = free.count_ones();
    let say = match n {
        0 => format!("{} has no candidate left: this branch is dead.", name(cell)),
        1 => format!(
            "{} has one candidate, {}: write it, no guess needed.",
            name(cell),
            digits(free)
        ),
        _ => format!(
            "The blank with the fewest candidates is {}: {{{}}}. Guess in order.",
            name(cell),
            digits(free)
        ),
    };
    // branch's locals in the frames panel: the cell it fills and the
    // candidates still to try.
    t.locals(&format!("cell = {}, free = {}", name(cell), set(free)));
    t.stay(Step::new("try", pick, &say).at(at(cell), &digits(free)));
    if n > 1 && !guessed.contains(&cell) {
        guessed.push(cell);
    }
    while free != 0 {
        let digit = free.trailing_zeros() as u8;
        free &= free - 1;
        grid.cells[cell] = digit;
        masks.toggle(cell, digit);
        let d = digit.to_string();
        let say = format!(
            "{} = {digit}{}; call branch.",
            name(cell),
            if n > 1 { " (a guess)" } else { "" }
        );
        let mark = if n > 1 { Mark::Guess } else { Mark::None };
        t.locals(&format!(
            "cell = {}, digit = {digit}, free = {}",
            name(cell),
            set(free)
        ));
        t.down(
            Step::new("place", "grid.cells[cell] = digit;", &say)
                .at(at(cell), &d)
                .mark(mark),
        );
        // branch's argument is the whole grid: its short form is the
        // digit just written.
        t.call(&format!("{}={digit}", name(cell).replace(' ', "")));
        if branch(grid, masks, false, guessed, t) {
            return true;
        }
        masks.toggle(cell, digit);
        let rest = if free == 0 {
            "no candidate is left".to_string()
        } else {
            format!("next {{{}}}", digits(free))
        };
        t.stay(
            Step::new(
                "undo",
                "while free != 0",
                &format!(
                    "{} = {digit} leads nowhere: rub it out ({rest}).",
                    name(cell)
                ),
            )
            .at(at(cell), ""),
        );
    }
    grid.cells[cell] = 0;
    let say = if n == 0 {
        format!("{} has no candidate: return false, a dead end.", name(cell))
    } else {
        format!("Every candidate of {} failed: return false.", name(cell))
    };
    let step = Step::new("reject", "grid.cells[cell] = 0;", &say).at(at(cell), "");
    let step = if n == 0 { step.mark(Mark::Dead) } else { step };
    if first {
        t.stay(step);
    } else {
        t.ret("false");
        t.up(step);
    }
    false
}

fn candidates_figure(out: &mut Out, puzzle: &Grid) {
    let masks = Masks::of(puzzle);
    out.rec(&[
        "figure",
        "candidates",
        "grid",
        "9",
        "9",
        "3",
        "The chapter's puzzle with the candidates of every blank (the digits its row, column and box still allow), as the bitmasks of stage 3 compute them.",
    ]);
    for (i, &d) in puzzle.cells.iter().enumerate() {
        if d != 0 {
            out.cell(i / 9, i % 9, &d.to_string(), "given");
        } else {
            out.cell(i / 9, i % 9, &digits(masks.free(i)), "cand");
        }
    }
}

fn counts_figure(out: &mut Out, puzzle: &Grid) {
    let masks = Masks::of(puzzle);
    let pick = fewest_choices(puzzle, &masks).map(|p| p.0);
    out.rec(&[
        "figure",
        "candidate-counts",
        "grid",
        "9",
        "9",
        "3",
        &format!(
            "How many candidates each blank has (the givens are left empty); fewest_choices picks the first smallest in reading order, {} (ringed), so the first branch is as narrow as it can be.",
            pick.map_or("none".to_string(), name)
        ),
    ]);
    for i in (0..81).filter(|&i| puzzle.cells[i] == 0) {
        // Ringed: the cell the player's first step decides.
        let class = if Some(i) == pick { "cur" } else { "" };
        out.cell(i / 9, i % 9, &masks.free(i).count_ones().to_string(), class);
    }
}

fn solved_figure(out: &mut Out, puzzle: &Grid, guessed: &[usize]) {
    let outcome = solve_fewest(puzzle);
    let Some(solution) = outcome.solution else {
        return;
    };
    out.rec(&[
        "figure",
        "solved",
        "grid",
        "9",
        "9",
        "3",
        &format!(
            "The solution solve_fewest finds: givens tinted and bold, the {} blanks where it had to guess in orange, as the player marks a guess; {} nodes, {} guesses.",
            guessed.len(),
            outcome.stats.nodes,
            outcome.stats.guesses
        ),
    ]);
    for (i, &d) in solution.cells.iter().enumerate() {
        let class = if puzzle.cells[i] != 0 {
            "given"
        } else if guessed.contains(&i) {
            "guess"
        } else {
            ""
        };
        out.cell(i / 9, i % 9, &d.to_string(), class);
    }
}

fn quiz(out: &mut Out, puzzle: &Grid) {
    let stats = solve_fewest(puzzle).stats;
    let blanks = 81 - puzzle.givens() as u64;
    out.quiz(Quiz {
        id: "fewest-guesses",
        question: &format!(
            "On the chapter's puzzle (rows {}), the player's first instance, how many times does solve_fewest write a digit into a blank that had two or more candidates (its guesses)?",
            rows(puzzle)
        ),
        right: thousands(stats.guesses),
        wrong: [0, blanks, stats.nodes].map(thousands).to_vec(),
        explain: format!(
            "{} guesses among {} nodes: most of the {blanks} blanks have a single candidate by the time they are picked, so they are written without a guess; only the rest branch, and the wrong branches are what the player's backtracks undo.",
            stats.guesses, stats.nodes
        ),
    });
    out.why(
        "0",
        "0 would mean every blank had a single candidate when it was picked; this puzzle needs some guesses, the marks on the player's timeline.",
    );
    out.why(
        &thousands(blanks),
        &format!(
            "{blanks} is the number of blanks; most of them have a single candidate when they are picked and are written without a guess."
        ),
    );
    out.why(
        &thousands(stats.nodes),
        &format!(
            "{} counts every node, forced writes included; a guess is a write into a blank that had two or more candidates.",
            thousands(stats.nodes)
        ),
    );
}

/// Predict the next step: which blank fewest_choices picks first.
fn pick_quiz(out: &mut Out, puzzle: &Grid) {
    let masks = Masks::of(puzzle);
    let Some((pick, free)) = fewest_choices(puzzle, &masks) else {
        return;
    };
    let blanks: Vec<usize> = (0..81).filter(|&i| puzzle.cells[i] == 0).collect();
    let first = blanks[0];
    let widest = blanks
        .iter()
        .copied()
        .max_by_key(|&i| (masks.free(i).count_ones(), usize::MAX - i))
        .unwrap_or(first);
    // The candidates as a set of digits, "{1, 2, 4}": run together they
    // would read as one big number.
    let choice = |c: usize| {
        let set: Vec<String> = digits(masks.free(c)).chars().map(String::from).collect();
        format!("{} with candidates {{{}}}", name(c), set.join(", "))
    };
    out.quiz(Quiz {
        id: "first-pick",
        question: "Look at the candidates of the chapter's puzzle drawn above. Which blank does fewest_choices pick first?",
        right: choice(pick),
        wrong: vec![choice(first), choice(widest)],
        explain: format!(
            "{}: the first blank in reading order with the fewest candidates, here {}; the naive search would start at {}, the first blank, whatever its candidates.",
            name(pick),
            free.count_ones(),
            name(first)
        ),
    });
    if first != pick {
        out.why(
            &choice(first),
            &format!(
                "{} is the first blank in reading order, the naive search's pick; it has {} candidates, more than the {} of the fewest.",
                name(first),
                masks.free(first).count_ones(),
                free.count_ones()
            ),
        );
    }
    if widest != pick && widest != first {
        out.why(
            &choice(widest),
            &format!(
                "{} has the most candidates, {}: the worst pick, not the best.",
                name(widest),
                masks.free(widest).count_ones()
            ),
        );
    }
}

/// The quizzes that close the chapter's other pages, one each.
fn section_quizzes(out: &mut Out, puzzle: &Grid) {
    ladder_quiz(out, puzzle);
    reading_quiz(out);
    naive_quiz(out, puzzle);
    flags_quiz(out, puzzle);
    fewest_quiz(out, puzzle);
    propagation_quiz(out, puzzle);
    unique_quiz(out);
    general_quiz(out);
    generator_quiz(out);
    figures_quiz(out);
}

/// Each stage's (name, nodes, guesses) on `puzzle`.
fn ladder(puzzle: &Grid) -> Vec<(&'static str, u64, u64)> {
    STAGES
        .iter()
        .map(|(name, stage)| {
            let s = stage(puzzle).stats;
            (*name, s.nodes, s.guesses)
        })
        .collect()
}

/// The index page: where the distance to a good solver comes from.
fn ladder_quiz(out: &mut Out, puzzle: &Grid) {
    let stages = ladder(puzzle);
    let best = stages.iter().min_by_key(|s| s.1).map_or("", |s| s.0);
    let say: Vec<String> = stages.iter().map(|s| format!("{} {}", s.0, s.1)).collect();
    out.quiz(Quiz {
        id: "ladder-fewest-nodes",
        question: &format!(
            "Of the chapter's five stages (naive, flags, bitmask, fewest, propagation), which visits the fewest nodes on the chapter's puzzle, whose rows are {} ('.' for a blank)?",
            rows(puzzle)
        ),
        right: best.to_string(),
        wrong: stages.iter().map(|s| s.0.to_string()).collect(),
        explain: format!(
            "{best}. The nodes per stage: {}. A faster check (flags, bitmask) leaves the tree as it is; choosing the blank and filling forced cells first is what shrinks it.",
            say.join(", ")
        ),
    });
    let fewest = stages.iter().map(|s| s.1).min().unwrap_or(0);
    for (name, nodes, _) in stages.iter().filter(|s| s.0 != best) {
        out.why(
            name,
            &format!(
                "{name} visits {} nodes, more than {best}'s {}.",
                thousands(*nodes),
                thousands(fewest)
            ),
        );
    }
}

/// The reading page: columns count characters, spaces included, from 1.
fn reading_quiz(out: &mut Out) {
    let line = "5 3 0 0 7 x 0 0 0";
    let (column, ch) = parse_cells(line).err().unwrap_or((0, ' '));
    out.quiz(Quiz {
        id: "reading-column",
        question: &format!("parse_cells(\"{line}\") stops at the first character it does not know. Which column does it report?"),
        right: format!("column {column}"),
        wrong: vec!["column 6".into(), format!("column {}", column - 1), "column 1".into()],
        explain: format!(
            "Column {column}, the '{ch}': columns count characters from 1, spaces included, so the number matches what an editor shows; 6 would be the cell's number in the row, {} the index counted from 0.",
            column - 1
        ),
    });
    out.why(
        "column 6",
        "6 is the x's place among the cells of the row (the sixth cell); columns count characters, spaces included.",
    );
    out.why(
        &format!("column {}", column - 1),
        &format!(
            "{} counts from 0; columns count from 1, as an editor shows them.",
            column - 1
        ),
    );
    out.why(
        "column 1",
        "Column 1 holds the 5, a digit parse_cells knows; it stops at the x.",
    );
}

/// The naive page: the size of the fixed-order tree.
fn naive_quiz(out: &mut Out, puzzle: &Grid) {
    let naive = solve_naive(puzzle).stats;
    let fewest = solve_fewest(puzzle).stats;
    out.quiz(Quiz {
        id: "naive-nodes",
        question: &format!(
            "The chapter's puzzle, whose rows are {} ('.' for a blank), has {} blanks. How many nodes does solve_naive visit on it?",
            rows(puzzle),
            81 - puzzle.givens()
        ),
        right: thousands(naive.nodes),
        wrong: vec![
            (81 - puzzle.givens() + 1).to_string(),
            thousands(fewest.nodes),
            thousands(naive.nodes * 9),
        ],
        explain: format!(
            "{}: blanks in reading order, digits 1 to 9, and every wrong digit is found out only deeper down; a search that never backed up would need {} nodes (one per blank, plus the full grid).",
            thousands(naive.nodes),
            81 - puzzle.givens() + 1
        ),
    });
    out.why(
        &(81 - puzzle.givens() + 1).to_string(),
        &format!(
            "{} is one node per blank plus the full grid: a search that never backs up. The naive order finds most wrong digits out only deeper down.",
            81 - puzzle.givens() + 1
        ),
    );
    out.why(
        &thousands(fewest.nodes),
        &format!(
            "{} is what solve_fewest visits, picking the blank with the fewest candidates; solve_naive takes the blanks in reading order.",
            thousands(fewest.nodes)
        ),
    );
    out.why(
        &thousands(naive.nodes * 9),
        &format!(
            "{} is nine times the answer, as if every node had nine children; a digit its row, column or box already holds is never entered.",
            thousands(naive.nodes * 9)
        ),
    );
}

/// The flags page: a faster check, the same tree.
fn flags_quiz(out: &mut Out, puzzle: &Grid) {
    let naive = solve_naive(puzzle).stats.nodes;
    let flags = solve_flags(puzzle).stats.nodes;
    out.quiz(Quiz {
        id: "flags-same-tree",
        question: &format!(
            "solve_naive visits {} nodes on the chapter's puzzle (rows {}). How many does solve_flags visit?",
            thousands(naive),
            rows(puzzle)
        ),
        right: thousands(flags),
        wrong: [naive / 27, naive / 3, naive / 9].map(thousands).to_vec(),
        explain: format!(
            "{}, the same: the flags answer \"is this digit allowed?\" in three lookups instead of 27 reads, but the blanks and digits are tried in the same order, so the tree is the same node for node. Only the time per node falls.",
            thousands(flags)
        ),
    });
    for k in [27, 3, 9] {
        out.why(
            &thousands(naive / k),
            &format!(
                "{} is {} / {k}: the flags make each check cheaper, not the tree smaller; blanks and digits are tried in the same order, so the tree is the same.",
                thousands(naive / k),
                thousands(naive)
            ),
        );
    }
}

/// The fewest page: what the order buys, in nodes.
fn fewest_quiz(out: &mut Out, puzzle: &Grid) {
    let naive = solve_naive(puzzle).stats.nodes;
    let fewest = solve_fewest(puzzle).stats;
    out.quiz(Quiz {
        id: "fewest-nodes",
        question: &format!(
            "solve_naive visits {} nodes on the chapter's puzzle (rows {}), the player's first instance. How many does solve_fewest visit?",
            thousands(naive),
            rows(puzzle)
        ),
        right: thousands(fewest.nodes),
        wrong: [naive, naive / 2, fewest.guesses].map(thousands).to_vec(),
        explain: format!(
            "{} nodes, {} of them after a guess: a blank with one candidate is filled without a guess, and a blank with none is found at once, instead of many levels deeper.",
            thousands(fewest.nodes),
            thousands(fewest.guesses)
        ),
    });
    out.why(
        &thousands(naive),
        &format!(
            "{} is solve_naive's count; choosing the blank with the fewest candidates changes the tree, not only the time.",
            thousands(naive)
        ),
    );
    out.why(
        &thousands(naive / 2),
        &format!(
            "{} is half of solve_naive's; the order does much more than halve it, since a blank with one candidate never branches.",
            thousands(naive / 2)
        ),
    );
    out.why(
        &thousands(fewest.guesses),
        &format!(
            "{} counts the guesses only; every blank written without a guess is a node too.",
            thousands(fewest.guesses)
        ),
    );
}

/// The propagation page: how many guesses are left.
fn propagation_quiz(out: &mut Out, puzzle: &Grid) {
    let fewest = solve_fewest(puzzle).stats;
    let prop = solve_propagation(puzzle).stats;
    out.quiz(Quiz {
        id: "propagation-guesses",
        question: &format!(
            "solve_fewest guesses {} times on the chapter's puzzle (rows {}). How many guesses does solve_propagation make?",
            fewest.guesses,
            rows(puzzle)
        ),
        right: thousands(prop.guesses),
        wrong: ["0".into(), thousands(prop.nodes), thousands(fewest.nodes)].to_vec(),
        explain: format!(
            "{} guesses{}, but in {} nodes instead of {}: every naked and hidden single is filled inside a node before it guesses, and a dead end shows up at once as a blank with no candidate or a digit with no place.",
            prop.guesses,
            if prop.guesses == fewest.guesses {
                ", the same (the blanks this puzzle must guess at are not decided by any single)"
            } else {
                ""
            },
            prop.nodes,
            fewest.nodes
        ),
    });
    out.why(
        "0",
        "0 would mean the singles alone solve the puzzle; some of its blanks are decided by no single, so the search still guesses.",
    );
    out.why(
        &thousands(prop.nodes),
        &format!(
            "{} is the nodes of solve_propagation, not its guesses.",
            thousands(prop.nodes)
        ),
    );
    out.why(
        &thousands(fewest.nodes),
        &format!(
            "{} is the nodes of solve_fewest, not a count of guesses.",
            thousands(fewest.nodes)
        ),
    );
}

/// The unique page: one given less.
fn unique_quiz(out: &mut Out) {
    let fewer = PUZZLE.replacen('1', ".", 1);
    let grid = Grid::from_literal(&fewer);
    let found = count_solutions(&grid, 2);
    let meaning = match found {
        0 => "no solution",
        1 => "still unique",
        _ => "more than one solution",
    };
    out.quiz(Quiz {
        id: "unique-one-less",
        question: &format!(
            "Take the chapter's puzzle (rows {}) and remove its first given, the 1 in the top-left corner. What does count_solutions(&puzzle, 2) return?",
            rows(&Grid::from_literal(PUZZLE))
        ),
        right: found.to_string(),
        wrong: ["0", "1", "2", "81"].map(String::from).to_vec(),
        explain: format!(
            "{found}: {meaning}. With a limit of 2 the answer is 0, 1 or 2, never more; to say 1 the search has to exhaust the whole tree."
        ),
    });
    out.why(
        "0",
        "0 would mean no solution; removing a given only allows more grids, and the puzzle's own solution still fits.",
    );
    out.why(
        "1",
        "1 would mean the puzzle is still unique; with the 1 gone, count_solutions finds a second grid.",
    );
    out.why(
        "2",
        "2 would mean a second solution; with the 1 gone the puzzle still has only its own.",
    );
    out.why(
        "81",
        "With a limit of 2, count_solutions stops at the second grid: it never returns more than 2.",
    );
}

/// The general page: the sizes of a 16x16 board.
fn general_quiz(out: &mut Out) {
    let side = Board::new(4, vec![0; 256]).map_or(0, |b| b.side());
    out.quiz(Quiz {
        id: "general-16",
        question: "A Board with boxes of 4 x 4 cells: what is its side, and how many units (rows, columns, boxes) does it have?",
        right: format!("side {side}, {} units", 3 * side),
        wrong: vec![
            format!("side {side}, {} units", 3 * 9),
            "side 12, 36 units".into(),
            format!("side {side}, {} units", side * side),
        ],
        explain: format!(
            "Side n² = {side} with digits 1 to {side}, and 3n² = {} units: {side} rows, {side} columns and {side} boxes. The masks still fit a u32.",
            3 * side
        ),
    });
    out.why(
        &format!("side {side}, {} units", 3 * 9),
        &format!(
            "{} units is the 9 x 9 board's count (9 rows, 9 columns, 9 boxes); a side of {side} has {side} of each.",
            3 * 9
        ),
    );
    out.why(
        "side 12, 36 units",
        &format!(
            "12 would be three boxes of 4 across; a box is 4 x 4 cells and the side holds 4 boxes, so it is {side} cells long."
        ),
    );
    out.why(
        &format!("side {side}, {} units", side * side),
        &format!(
            "{} is the number of cells, {side} x {side}; the units are the {side} rows, {side} columns and {side} boxes.",
            side * side
        ),
    );
}

/// The generator page: a minimal puzzle, reproducible from its seed.
fn generator_quiz(out: &mut Out) {
    let givens = generate(1, 0).givens();
    out.quiz(Quiz {
        id: "generator-givens",
        question: "generate(1, 0) carves a full grid until every given is needed. How many givens does the puzzle of seed 1 keep?",
        right: givens.to_string(),
        wrong: vec!["17".into(), (givens + 6).to_string(), "81".into()],
        explain: format!(
            "{givens}, on every machine: the generator is a ChaCha8 stream seeded with 1. Minimal puzzles usually keep 22 to 26 givens; 17 is the fewest any proper sudoku can have, and only rare puzzles reach it."
        ),
    });
    out.why(
        "17",
        "17 is the fewest givens any proper sudoku can have; a generator that carves in random order almost never reaches it.",
    );
    out.why(
        &(givens + 6).to_string(),
        &format!(
            "{} is more than the generator keeps: it removes a given whenever the puzzle stays unique, until no given can go.",
            givens + 6
        ),
    );
    out.why(
        "81",
        "81 is the full grid before carving; the generator removes every given it can.",
    );
}

/// The measurements page: nodes are exact, so they can be predicted.
fn figures_quiz(out: &mut Out) {
    let puzzle = generate(1, 0);
    let stages = ladder(&puzzle);
    let nodes = |name: &str| stages.iter().find(|s| s.0 == name).map_or(0, |s| s.1);
    out.quiz(Quiz {
        id: "figures-bitmask",
        question: &format!(
            "On generate(1, 0), solve_naive visits {} nodes. How many does solve_bitmask visit?",
            thousands(nodes("naive"))
        ),
        right: thousands(nodes("bitmask")),
        wrong: [nodes("fewest"), nodes("propagation"), nodes("naive") / 2]
            .map(thousands)
            .to_vec(),
        explain: format!(
            "{}: the bitmask stage keeps the naive order of blanks and digits, so its tree is the same; the table's equal node columns for naive, flags and bitmask say the same. fewest visits {} and propagation {}.",
            thousands(nodes("bitmask")),
            thousands(nodes("fewest")),
            thousands(nodes("propagation"))
        ),
    });
    for other in ["fewest", "propagation"] {
        out.why(
            &thousands(nodes(other)),
            &format!(
                "{} is what solve_{other} visits; the bitmask stage keeps the naive order, so it visits solve_naive's tree.",
                thousands(nodes(other))
            ),
        );
    }
    out.why(
        &thousands(nodes("naive") / 2),
        &format!(
            "{} is half; a faster check speeds up each node, it does not remove nodes.",
            thousands(nodes("naive") / 2)
        ),
    );
}

/// "What happens next?" at the player's first backtrack: the reader sees
/// the step before it and predicts it.
fn next_quiz(out: &mut Out) {
    if let Some(k) = ["undo", "reject"]
        .into_iter()
        .find_map(|kind| out.step_before_first("fewest", 0, kind))
    {
        out.next_step_quiz("next-fewest", "fewest", 0, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_quizzes_answer_what_the_reference_computes() {
        let text = records();
        let puzzle = Grid::from_literal(PUZZLE);
        let right = |id: &str| book_trace::answer(&text, id).expect("quiz");
        assert_eq!(right("ladder-fewest-nodes").0, "propagation");
        assert_eq!(right("reading-column").0, "column 11");
        let naive = solve_naive(&puzzle).stats.nodes;
        assert_eq!(right("naive-nodes").0, thousands(naive));
        assert_eq!(right("flags-same-tree").0, thousands(naive));
        let fewest = solve_fewest(&puzzle).stats;
        assert_eq!(right("fewest-nodes").0, thousands(fewest.nodes));
        let guesses = solve_propagation(&puzzle).stats.guesses;
        assert_eq!(right("propagation-guesses").0, thousands(guesses));
        assert_eq!(right("general-16").0, "side 16, 48 units");
        assert_eq!(
            right("generator-givens").0,
            generate(1, 0).givens().to_string()
        );
        let bitmask = crate::solve_bitmask(&generate(1, 0)).stats.nodes;
        assert_eq!(right("figures-bitmask").0, thousands(bitmask));
        for id in [
            "reading-column",
            "naive-nodes",
            "flags-same-tree",
            "fewest-nodes",
            "propagation-guesses",
            "unique-one-less",
            "general-16",
            "generator-givens",
            "figures-bitmask",
        ] {
            assert_eq!(right(id).1, 4, "{id}");
        }
        assert_eq!(right("ladder-fewest-nodes").1, 5);
    }

    #[test]
    fn the_player_visits_the_references_nodes_and_ends_on_its_solution() {
        // Trace::finish checks the nodes and guesses against solve_fewest.
        let text = records();
        assert_eq!(text.matches("trace\tfewest\t").count(), 3);
        for literal in [PUZZLE, MORE[0].1, MORE[1].1] {
            let puzzle = Grid::from_literal(literal);
            let code = Code::new("f.rs", include_str!("fewest.rs"), "solve_fewest");
            let mut t = Trace::new("x", "x", "x", code);
            let (mut grid, mut masks) = (puzzle, Masks::of(&puzzle));
            assert!(branch(&mut grid, &mut masks, true, &mut Vec::new(), &mut t));
            assert_eq!(Some(grid), solve_fewest(&puzzle).solution);
        }
    }
}
