//! What the book shows of chapter 4: the player's trace, figures, a quiz.
//!
//! The problem: let a reader watch [`crate::solve_fewest`] pick the blank
//! with the fewest candidates, show those candidates, write a digit, and
//! take it back when a later blank has none left. The state is the search's
//! own (grid, masks) plus the records written. One `try` per node, so the
//! player's node counter is the reference's `nodes`, which the tests check
//! along with the solution; it costs what the search costs. The records
//! are the plain tab-separated lines `workbook book build` reads
//! (workbook/src/book/records.rs).

use crate::bitmask::Masks;
use crate::fewest::fewest_choices;
use crate::{Grid, solve_fewest};
use book_trace::Out;

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
    let guessed = trace(&mut out, &puzzle);
    candidates_figure(&mut out, &puzzle);
    counts_figure(&mut out, &puzzle);
    solved_figure(&mut out, &puzzle, &guessed);
    quiz(&mut out, &puzzle);
    pick_quiz(&mut out, &puzzle);
    out.into_text()
}

/// The digits of a candidate mask, as text: 0b1010 -> "13".
fn digits(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << d) != 0)
        .map(|d| char::from(b'0' + d))
        .collect()
}

/// A cell as (row, column), 0-based like the code and the drawn labels.
fn name(cell: usize) -> String {
    format!("({}, {})", cell / 9, cell % 9)
}

/// Returns the cells where the search guessed (chose among two or more).
fn trace(out: &mut Out, puzzle: &Grid) -> Vec<usize> {
    out.rec(&["trace", "fewest", "Sudoku: fewest candidates first"]);
    out.rec(&["board", "grid", "9", "9", "3"]);
    for (i, &d) in puzzle.cells.iter().enumerate() {
        if d != 0 {
            out.rec(&[
                "given",
                &(i / 9).to_string(),
                &(i % 9).to_string(),
                &d.to_string(),
            ]);
        }
    }
    let mut grid = *puzzle;
    let mut masks = Masks::of(puzzle);
    let mut guessed = Vec::new();
    let solved = branch(&mut grid, &mut masks, 0, &mut guessed, out);
    let end = if solved {
        "Every blank is filled: solved."
    } else {
        "No solution."
    };
    out.ev("found", None, "", 0, end);
    guessed
}

/// [`crate::fewest`]'s `branch`, one `try` per node.
fn branch(
    grid: &mut Grid,
    masks: &mut Masks,
    depth: usize,
    guessed: &mut Vec<usize>,
    out: &mut Out,
) -> bool {
    let Some((cell, mut free)) = fewest_choices(grid, masks) else {
        out.ev("try", None, "", depth, "No blank is left.");
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
    out.ev("try", Some(at(cell)), &digits(free), depth, &say);
    if n > 1 && !guessed.contains(&cell) {
        guessed.push(cell);
    }
    while free != 0 {
        let digit = free.trailing_zeros() as u8;
        free &= free - 1;
        grid.cells[cell] = digit;
        masks.toggle(cell, digit);
        let d = digit.to_string();
        out.ev(
            "place",
            Some(at(cell)),
            &d,
            depth + 1,
            &format!("{} = {digit}.", name(cell)),
        );
        if branch(grid, masks, depth + 1, guessed, out) {
            return true;
        }
        masks.toggle(cell, digit);
        let rest = if free == 0 {
            "no candidate is left".to_string()
        } else {
            format!("next {{{}}}", digits(free))
        };
        out.ev(
            "undo",
            Some(at(cell)),
            "",
            depth,
            &format!(
                "{} = {digit} leads nowhere: rub it out ({rest}).",
                name(cell)
            ),
        );
    }
    grid.cells[cell] = 0;
    out.ev(
        "reject",
        Some(at(cell)),
        "",
        depth,
        &format!("Every candidate of {} failed: back up.", name(cell)),
    );
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
        "The player's puzzle with the candidates of every blank (the digits its row, column and box still allow), as the bitmasks of stage 3 compute them.",
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
            "How many candidates each blank has (the givens are left empty); fewest_choices picks the first smallest in reading order, {} (shaded), so the first branch is as narrow as it can be.",
            pick.map_or("none".to_string(), name)
        ),
    ]);
    for i in (0..81).filter(|&i| puzzle.cells[i] == 0) {
        let class = if Some(i) == pick { "queen" } else { "" };
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
            "The solution solve_fewest finds: givens in bold, the {} blanks where it had to guess shaded; {} nodes, {} guesses.",
            guessed.len(),
            outcome.stats.nodes,
            outcome.stats.guesses
        ),
    ]);
    for (i, &d) in solution.cells.iter().enumerate() {
        let class = if puzzle.cells[i] != 0 {
            "given"
        } else if guessed.contains(&i) {
            "attacked"
        } else {
            ""
        };
        out.cell(i / 9, i % 9, &d.to_string(), class);
    }
}

fn quiz(out: &mut Out, puzzle: &Grid) {
    let stats = solve_fewest(puzzle).stats;
    let blanks = 81 - puzzle.givens() as u64;
    out.rec(&[
        "quiz",
        "fewest-guesses",
        "On the player's puzzle, how many times does solve_fewest write a digit into a blank that had two or more candidates (its guesses)?",
    ]);
    let mut choices = vec![stats.guesses, 0, blanks, stats.nodes];
    choices.dedup();
    for n in choices {
        out.rec(&[
            "choice",
            if n == stats.guesses { "1" } else { "0" },
            &n.to_string(),
        ]);
    }
    out.rec(&[
        "explain",
        &format!(
            "{} guesses among {} nodes: most of the {blanks} blanks have a single candidate by the time they are picked, so they are written without a guess; only the rest branch, and the wrong branches are what the player's backtracks undo.",
            stats.guesses, stats.nodes
        ),
    ]);
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
    out.rec(&[
        "quiz",
        "first-pick",
        "Look at the candidates of the player's puzzle. Which blank does fewest_choices pick first?",
    ]);
    let mut choices = vec![pick, first, widest];
    choices.dedup();
    for c in choices {
        let text = format!("{} with candidates {{{}}}", name(c), digits(masks.free(c)));
        out.rec(&["choice", if c == pick { "1" } else { "0" }, &text]);
    }
    out.rec(&[
        "explain",
        &format!(
            "{}: the first blank in reading order with the fewest candidates, here {}; the naive search would start at {}, the first blank, whatever its candidates.",
            name(pick),
            free.count_ones(),
            name(first)
        ),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_visits_the_references_nodes_and_ends_on_its_solution() {
        let puzzle = Grid::from_literal(PUZZLE);
        let mut out = Out::default();
        let (mut grid, mut masks) = (puzzle, Masks::of(&puzzle));
        assert!(branch(&mut grid, &mut masks, 0, &mut Vec::new(), &mut out));
        let outcome = solve_fewest(&puzzle);
        assert_eq!(Some(grid), outcome.solution);
        let tries = out
            .text()
            .lines()
            .filter(|l| l.starts_with("ev\ttry"))
            .count() as u64;
        assert_eq!(tries, outcome.stats.nodes);
    }
}
