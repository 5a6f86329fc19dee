//! Chapter 2's searches as `workbook trace` reads them.
//!
//! The problem: chapter 2's `place_from` and `count_from` walk the 64
//! squares one call per square, so a call means "a queen went on the
//! previous square" or "it was skipped" only against its caller, and the
//! book draws the tree with a level per queen, not per call; a queen the
//! learner never took back, or the queen that made a square unsafe, is
//! seen only on the board the code holds. The state: each call's `square`
//! and `left` arguments, its caller's `left`, and the board recorded on
//! entry (`specs::STATE`, read here as its `Display`: eight rows of `Q` and
//! `.`). The cost: constant per call, plus one pass over the 64 squares
//! when a board is read.

use super::{Board, GridSetup, Look, Spec};
use crate::trace::events::Call;
use workbook_core::lang::Lang;

/// Chapter 2's first sample: three queens given.
pub const QUEENS_SAMPLE: Board = Board::Grid {
    rows: 8,
    cols: 8,
    boxed: 0,
    given: &[(2, 7, "Q"), (4, 2, "Q"), (6, 1, "Q")],
};

/// count_completions' instances: the first sample, then three queens
/// with one in the last square.
pub fn completions_board(index: usize, _: Option<&Call>) -> GridSetup {
    let given: &[(usize, usize)] = match index {
        0 => &[(2, 7), (4, 2), (6, 1)],
        _ => &[(1, 6), (4, 2), (7, 7)],
    };
    let given = given
        .iter()
        .map(|&(r, c)| (r, c, "Q".to_string()))
        .collect();
    (8, 8, 0, given)
}

/// Whether `spec`'s tree has a level per queen (chapter 2's searches over
/// squares, as its page draws them) rather than a level per call.
pub fn a_level_per_queen(spec: &Spec) -> bool {
    spec.chapter == "eight_queens"
}

/// Whether chapter 2's `call`, made from `parent`, goes along its row of
/// squares (the previous square left empty: as many queens left as its
/// caller) rather than one level down.
pub fn goes_along(call: &Call, parent: &Call) -> bool {
    match (call.num("left"), parent.num("left"), call.num("square")) {
        (Some(left), Some(before), Some(square)) => left == before && square > 0,
        _ => false,
    }
}

/// The queens of a recorded chapter 2 board (its `Display`: eight rows of
/// `Q` and `.`, the newlines recorded as spaces), when it reads as one.
pub fn queens_of(call: &Call) -> Option<Vec<(usize, usize)>> {
    let rows: Vec<&str> = call.state("board")?.split_whitespace().collect();
    if rows.len() != 8 || rows.iter().any(|r| r.chars().count() != 8) {
        return None;
    }
    Some(
        rows.iter()
            .enumerate()
            .flat_map(|(r, row)| {
                row.chars()
                    .enumerate()
                    .filter(|(_, ch)| *ch == 'Q')
                    .map(move |(c, _)| (r, c))
            })
            .collect(),
    )
}

/// The first queen of `queens` (reading order) that attacks `(row, col)`
/// along a row, a column or a diagonal, itself not counted.
pub fn attacker(queens: &[(usize, usize)], row: usize, col: usize) -> Option<(usize, usize)> {
    queens.iter().copied().find(|&(r, c)| {
        (r, c) != (row, col) && (r == row || c == col || r.abs_diff(row) == c.abs_diff(col))
    })
}

/// A call of chapter 2's search: from its parent, one queen fewer left
/// means the previous square got a queen; the same number means it was
/// skipped. The board the call found (when recorded) says the rest: a
/// skipped square that still holds a queen was never taken back, and a
/// skipped square a queen attacks names that queen.
pub fn queens_look(call: &Call, parent: Option<&Call>, lang: &Lang) -> Look {
    let (Some(square), Some(left)) = (call.num("square"), call.num("left")) else {
        return Look::call(call, lang);
    };
    let parent_left = parent.and_then(|p| p.num("left"));
    let (Some(prev), Some(pl)) = (square.checked_sub(1), parent_left) else {
        return Look::call(call, lang);
    };
    let (row, col) = (prev / 8, prev % 8);
    let at: [(&str, &dyn std::fmt::Display); 3] = [("row", &row), ("col", &col), ("left", &left)];
    if pl > left {
        return Look {
            cell: Some((row, col, "Q".to_string())),
            phrase: lang.fill("placed a queen on ({row}, {col}), {left} left", &at),
        };
    }
    let queens = queens_of(call);
    let skipped = |phrase: String| Look {
        cell: Some((row, col, "·".to_string())),
        phrase,
    };
    match queens {
        Some(q) if q.contains(&(row, col)) => Look {
            cell: Some((row, col, "Q".to_string())),
            phrase: lang.fill(
                "skipped ({row}, {col}), {left} left, but the board still holds its queen: it was never taken back",
                &at,
            ),
        },
        Some(q) => match attacker(&q, row, col) {
            Some((ar, ac)) => skipped(lang.fill(
                "skipped ({row}, {col}): the queen on ({arow}, {acol}) attacks it, {left} left",
                &[
                    ("row", &row),
                    ("col", &col),
                    ("left", &left),
                    ("arow", &ar),
                    ("acol", &ac),
                ],
            )),
            None => skipped(lang.fill(
                "skipped ({row}, {col}), which no queen attacks (the branch with a queen there is done), {left} left",
                &at,
            )),
        },
        None => skipped(lang.fill("skipped ({row}, {col}), {left} left", &at)),
    }
}
