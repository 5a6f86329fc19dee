//! The chapter 4 suite: sudoku, from reading puzzles to generating them.
//!
//! One file checks both the learner's crate (`sudoku`) and the reference
//! (`sudoku_solution`, with `--features reference`). Each module is one
//! exercise; its `check` helper is the only place that calls the function
//! under test. Answers are checked by an independent validator written
//! here (rows, columns, boxes, givens kept) and, where a puzzle has one
//! solution, against that solution; the search statistics of each stage
//! are snapshots recorded from the reference on a small fixed set.

#[cfg(not(feature = "reference"))]
use sudoku as subject;
#[cfg(feature = "reference")]
use sudoku_solution as subject;

use proptest::prelude::*;
use rstest::rstest;

#[macro_use]
mod support;
use subject::{Grid, Outcome};
use support::{said, why};

/// Seed 002's example (the classic one), and its solution.
const SEED_002: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SEED_002_SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// Seed 004's example, given there as a grid of digits and spaces.
const SEED_004: &str =
    "103000509002109400000704000300502006060000050700803004000401000009205800804000107";
const SEED_004_SOLVED: &str =
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127";
/// Our own puzzles, made by `generate(seed, 0)` with seeds 1, 3 and 5.
const GENERATED_1: &str =
    "4.....57867......3.....8.....1.6..9...2..9.....7.8.2.....59...7.1.....6...3..7...";
const GENERATED_3: &str =
    "..4....5...8...2.77.62.9.1....1...43.4.........5..3.....1.8.....5.3.2...2....6..8";
const GENERATED_5: &str =
    "1.84.....7.....6..43..29.....7..5..33....64..2..9..1.....1.8........798.....5....";
/// Two 5s in the first row: read fine, no solution.
const CLASHING: &str =
    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// No clash among the givens, yet row 0's last blank can take nothing:
/// 1-8 are in the row and 9 is below it.
const DEAD_END: &str =
    "12345678.........9...............................................................";
const EMPTY: &str =
    ".................................................................................";

fn grid(text: &str) -> Grid {
    // Reading a grid runs the learner's parser (the `reading` exercise).
    crate::support::guard(
        &format!("Grid::from_literal({text:?})"),
        &say!("the grid {text}", text),
        why(
            "parse_cells reads 1-9 as themselves and 0 or . as a blank, 81 cells \
         (book: chapter 4, \"Reading puzzles\")",
        ),
        || Grid::from_literal(text),
    )
}

/// SEED_002_SOLVED with a rectangle of 1s and 3s blanked (rows 4-5,
/// columns 6 and 9): the two can be swapped, so there are two solutions.
fn two_solutions() -> Grid {
    let mut g = grid(SEED_002_SOLVED);
    for cell in [3 * 9 + 5, 3 * 9 + 8, 4 * 9 + 5, 4 * 9 + 8] {
        g.cells[cell] = 0;
    }
    g
}

/// The fixed set of the statistics snapshots, by name.
fn fixed_set() -> Vec<(&'static str, Grid)> {
    vec![
        ("seed 002", grid(SEED_002)),
        ("seed 004", grid(SEED_004)),
        ("generated 1", grid(GENERATED_1)),
        ("generated 3", grid(GENERATED_3)),
        ("generated 5", grid(GENERATED_5)),
        ("two solutions", two_solutions()),
        ("full grid", grid(SEED_002_SOLVED)),
        ("clashing", grid(CLASHING)),
        ("dead end", grid(DEAD_END)),
    ]
}

/// The independent validator: why `answer` is not a solution of `puzzle`,
/// or Ok.
fn validate(puzzle: &Grid, answer: &Grid) -> Result<(), String> {
    for i in 0..81 {
        if puzzle.cells[i] != 0 && puzzle.cells[i] != answer.cells[i] {
            return Err(say!(
                "the given {given} at row {row}, column {col} was changed",
                given = puzzle.cells[i],
                row = i / 9 + 1,
                col = i % 9 + 1
            ));
        }
    }
    type CellOf = fn(usize, usize) -> usize;
    let units: [(&str, CellOf); 3] = [
        ("row", |u, k| 9 * u + k),
        ("column", |u, k| 9 * k + u),
        ("box", |u, k| 9 * (u / 3 * 3 + k / 3) + u % 3 * 3 + k % 3),
    ];
    for (name, cell) in units {
        for u in 0..9 {
            let mut digits: Vec<u8> = (0..9).map(|k| answer.cells[cell(u, k)]).collect();
            digits.sort_unstable();
            if digits != [1, 2, 3, 4, 5, 6, 7, 8, 9] {
                return Err(say!(
                    "{name} {number} holds {digits}, not 1-9 once each",
                    name,
                    number = u + 1,
                    ?digits
                ));
            }
        }
    }
    Ok(())
}

/// An independent solution counter (plain bitmask search, written here and
/// not in the crate), up to `limit`.
fn oracle_count(puzzle: &Grid, limit: usize) -> usize {
    fn free(g: &[u8; 81], i: usize) -> u16 {
        let (r, c) = (i / 9, i % 9);
        let mut used = 0u16;
        for k in 0..9 {
            used |= 1 << g[9 * r + k]
                | 1 << g[9 * k + c]
                | 1 << g[9 * (r / 3 * 3 + k / 3) + c / 3 * 3 + k % 3];
        }
        !used & 0x3fe
    }
    fn go(g: &mut [u8; 81], limit: usize, count: &mut usize) {
        let best = (0..81)
            .filter(|&i| g[i] == 0)
            .min_by_key(|&i| free(g, i).count_ones());
        let Some(i) = best else {
            *count += 1;
            return;
        };
        for d in 1..=9u8 {
            if free(g, i) & 1 << d != 0 && *count < limit {
                g[i] = d;
                go(g, limit, count);
                g[i] = 0;
            }
        }
    }
    let mut g = puzzle.cells;
    for i in 0..81 {
        let d = std::mem::replace(&mut g[i], 0);
        if d != 0 && free(&g, i) & 1 << d == 0 {
            return 0;
        }
        g[i] = d;
    }
    let mut count = 0;
    go(&mut g, limit, &mut count);
    count
}

/// Random puzzles: a shuffled copy of a known grid (digits relabelled,
/// rows swapped inside their band) with some cells blanked. They may have
/// many solutions; every answer goes through the validator.
fn any_puzzle(max_blanks: usize) -> impl Strategy<Value = Grid> {
    (
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        proptest::collection::vec(0usize..3, 3),
        proptest::collection::vec(0usize..81, 0..max_blanks),
    )
        .prop_map(|(digits, swaps, blanks)| {
            let solved = grid(SEED_004_SOLVED);
            let mut g = Grid::EMPTY;
            for r in 0..9 {
                let band = r / 3;
                // Swap row `swaps[band]` of the band with the band's first row.
                let k = r % 3;
                let s = swaps[band];
                let from = band * 3
                    + if k == 0 {
                        s
                    } else if k == s {
                        0
                    } else {
                        k
                    };
                for c in 0..9 {
                    g.cells[9 * r + c] = digits[usize::from(solved.cells[9 * from + c]) - 1];
                }
            }
            for b in blanks {
                g.cells[b] = 0;
            }
            g
        })
}

/// The book section each stage's messages point to.
fn section(stage: &str) -> &'static str {
    match stage {
        "naive" => why("chapter 4, \"The naive DFS\""),
        "flags" => why("chapter 4, \"Used-flags and bitmasks\""),
        "bitmask" => why("chapter 4, \"Used-flags and bitmasks\", part \"Bitmasks\""),
        "fewest" => why("chapter 4, \"Fewest candidates first\""),
        _ => why("chapter 4, \"Propagation\""),
    }
}

/// The rule a stage's statistics snapshot checks.
fn stage_rule(stage: &str) -> &'static str {
    match stage {
        "naive" => crate::support::rule(
            "each puzzle's nodes and guesses: blanks filled in reading order, digits tried 1 to 9",
        ),
        "flags" | "bitmask" => crate::support::rule(
            "each puzzle's nodes and guesses equal the naive search's: only the check is faster",
        ),
        "fewest" => crate::support::rule(
            "each puzzle's nodes and guesses: the blank with the fewest candidates first, ties keep the first blank in reading order",
        ),
        _ => crate::support::rule(
            "each puzzle's nodes and guesses after propagation: singles filled before every branch",
        ),
    }
}

/// Checks one stage's answer to `puzzle`: `expected` is the solution when
/// the puzzle has exactly one, "none" when it has none, and "any" when any
/// valid solution will do.
#[track_caller]
fn check_stage(stage: &str, solve: fn(&Grid) -> Outcome, puzzle: &Grid, expected: &str) -> Outcome {
    let call = format!("solve_{stage}({})", puzzle.line());
    let where_ = section(stage);
    let got = crate::support::guard(
        &call,
        &match expected {
            "none" => say!("no solution (None)"),
            "any" => say!("a solution"),
            one => one.to_string(),
        },
        &say!(
            "a solution keeps the givens and has 1-9 once in every row, column and box (book: {book})",
            book = said(where_)
        ),
        || solve(puzzle),
    );
    match (expected, got.solution) {
        ("none", None) => {}
        ("none", Some(s)) => panic!(
            "{}",
            say!(
                "{call} returned the grid {grid}, but the puzzle has no solution (its givens clash, or a blank runs out of digits): the search must fail and return None (book: {book})",
                call,
                grid = s.line(),
                book = said(where_)
            )
        ),
        (_, None) => panic!(
            "{}",
            say!(
                "{call} returned no solution, but the puzzle has one, e.g. {example}: is a digit taken back but left in the grid or the used-sets? (book: {book})",
                call,
                example = if expected == "any" {
                    SEED_002_SOLVED
                } else {
                    expected
                },
                book = said(where_)
            )
        ),
        ("any", Some(s)) => {
            if let Err(why) = validate(puzzle, &s) {
                panic!(
                    "{}",
                    say!(
                        "{call} returned {grid}, which is not a solution: {why} (book: {book})",
                        call,
                        grid = s.line(),
                        why,
                        book = said(where_)
                    )
                );
            }
        }
        (want, Some(s)) => assert_eq!(
            s.line(),
            want,
            "{}",
            say!(
                "{call} returned {grid}, expected the puzzle's only solution {want} (book: {book})",
                call,
                grid = s.line(),
                want,
                book = said(where_)
            )
        ),
    }
    got
}

/// The statistics of a stage on the fixed set, one line per puzzle.
fn stats_table(stage: &str, solve: fn(&Grid) -> Outcome) -> String {
    let mut out = format!("{:<14} {:>8} {:>8}\n", "puzzle", "nodes", "guesses");
    for (name, puzzle) in fixed_set() {
        let expected = match name {
            "clashing" | "dead end" => "none",
            _ => "any",
        };
        let got = check_stage(stage, solve, &puzzle, expected);
        out += &format!(
            "{name:<14} {:>8} {:>8}\n",
            got.stats.nodes, got.stats.guesses
        );
    }
    out
}

/// Givens that clash: every stage but propagation must notice them
/// itself. Propagation's entry is given code that rejects a clash before
/// `propagate` runs, so there the case would pass on the stub.
macro_rules! clash_case {
    () => {
        #[test]
        fn a_clashing_grid_has_no_solution() {
            check(&grid(CLASHING), "none");
        }
    };
}

/// The same cases for every stage: (puzzle, expected), see [`check_stage`].
macro_rules! stage_cases {
    ($stage:literal, $solve:path) => {
        #[track_caller]
        fn check(puzzle: &Grid, expected: &str) -> Outcome {
            check_stage($stage, $solve, puzzle, expected)
        }

        #[rstest]
        #[case::seed_002s_example(grid(SEED_002), SEED_002_SOLVED)]
        #[case::seed_004s_example(grid(SEED_004), SEED_004_SOLVED)]
        #[case::a_generated_puzzle(grid(GENERATED_3), "any")]
        #[case::the_empty_grid_has_a_solution(grid(EMPTY), "any")]
        #[case::a_full_valid_grid_is_its_own_solution(grid(SEED_002_SOLVED), SEED_002_SOLVED)]
        #[case::a_blank_with_no_digit_left_has_no_solution(grid(DEAD_END), "none")]
        #[case::a_puzzle_with_two_solutions_gets_one_of_them(two_solutions(), "any")]
        fn solves(#[case] puzzle: Grid, #[case] expected: &str) {
            check(&puzzle, expected);
        }

        #[test]
        fn a_full_grid_is_one_node_and_no_guess() {
            let got = check(&grid(SEED_002_SOLVED), SEED_002_SOLVED);
            assert_eq!(
                (got.stats.nodes, got.stats.guesses),
                (1, 0),
                "{}", say!("solve_{stage}(a full grid) reported {stats}: the search is entered once (one node) and writes nothing (no guess) (book: {book})", stage = $stage, stats = ?got.stats, book = said(section($stage))));
        }

        #[test]
        fn statistics_on_the_fixed_set() {
            let _book = crate::support::explain(section($stage), stage_rule($stage));
            insta::assert_snapshot!(stats_table($stage, $solve));
        }

        proptest! {
            #![proptest_config(crate::support::quiet(48))]
            #[test]
            fn every_answer_passes_the_validator(puzzle in any_puzzle(50)) {
                let expected = if oracle_count(&puzzle, 1) == 0 { "none" } else { "any" };
                check(&puzzle, expected);
            }
        }
    };
}

mod reading {
    use super::*;
    use subject::{ParseError, Problem, Puzzle, read_puzzles};

    const WHY: &str = why(
        "one item per puzzle or per error, in order; lines and columns count \
                       from 1 (book: chapter 4, \"Reading puzzles\")",
    );

    /// What one item read should be: a puzzle (its line, its 81 characters)
    /// or an error (line, column, problem).
    #[derive(Debug)]
    enum Want {
        Ok(usize, &'static str),
        Err(usize, usize, Problem),
    }

    #[track_caller]
    fn check(text: &str, expected: &[Want]) {
        let want_text: Vec<String> = expected
            .iter()
            .map(|w| match w {
                Want::Ok(line, g) => format!("line {line}: puzzle {}", grid(g).line()),
                Want::Err(line, column, problem) => {
                    format!("line {line}, column {column}: {problem:?}")
                }
            })
            .collect();
        let call = format!("read_puzzles({text:?})");
        let got = crate::support::guard(&call, &format!("{want_text:#?}"), WHY, || {
            read_puzzles(text)
        });
        let got_text: Vec<String> = got
            .iter()
            .map(|r| match r {
                Ok(Puzzle { line, grid }) => format!("line {line}: puzzle {}", grid.line()),
                Err(ParseError {
                    line,
                    column,
                    problem,
                }) => {
                    format!("line {line}, column {column}: {problem:?}")
                }
            })
            .collect();
        assert_eq!(
            got_text,
            want_text,
            "{}",
            say!(
                "{call} read {got_text}, expected {want_text}: {why}",
                call,
                got_text = format!("{:#?}", got_text),
                want_text = format!("{:#?}", want_text),
                why = said(WHY)
            )
        );
    }

    const SEED_004_GRID: &str = "1 0 3 0 0 0 5 0 9\n0 0 2 1 0 9 4 0 0\n0 0 0 7 0 4 0 0 0\n\
                                 3 0 0 5 0 2 0 0 6\n0 6 0 0 0 0 0 5 0\n7 0 0 8 0 3 0 0 4\n\
                                 0 0 0 4 0 1 0 0 0\n0 0 9 2 0 5 8 0 0\n8 0 4 0 0 0 1 0 7\n";

    #[rstest]
    #[case::a_line_of_81(SEED_002.to_string(), vec![Want::Ok(1, SEED_002)])]
    #[case::zeros_and_dots_are_both_blanks(SEED_002.replace('.', "0"), vec![Want::Ok(1, SEED_002)])]
    #[case::comments_and_blank_lines_are_skipped(format!("# seed 002\n\n   \n{SEED_002}\n"), vec![Want::Ok(4, SEED_002)])]
    #[case::two_lines_two_puzzles(format!("{SEED_002}\r\n{SEED_004}\r\n"), vec![Want::Ok(1, SEED_002), Want::Ok(2, SEED_004)])]
    #[case::seed_004s_grid_with_spaces(SEED_004_GRID.to_string(), vec![Want::Ok(1, SEED_004)])]
    #[case::a_grid_without_spaces(SEED_004_GRID.replace(' ', ""), vec![Want::Ok(1, SEED_004)])]
    #[case::blank_lines_inside_a_grid_are_skipped(SEED_004_GRID.replacen('\n', "\n\n# the rest\n", 4), vec![Want::Ok(1, SEED_004)])]
    #[case::a_grid_between_comments(format!("# one\n{}# two\n{SEED_002}", SEED_004_GRID.replace(' ', "")), vec![Want::Ok(2, SEED_004), Want::Ok(12, SEED_002)])]
    #[case::a_clashing_grid_reads_fine(CLASHING.to_string(), vec![Want::Ok(1, CLASHING)])]
    #[case::a_bad_character_names_its_column(SEED_002.replacen('7', "x", 1), vec![Want::Err(1, 5, Problem::BadCharacter('x'))])]
    #[case::a_short_line_points_past_its_end(SEED_002[..80].to_string(), vec![Want::Err(1, 81, Problem::WrongLength(80))])]
    #[case::a_long_line_points_at_its_82nd_cell(format!("{SEED_002}1"), vec![Want::Err(1, 82, Problem::WrongLength(82))])]
    #[case::a_bad_line_does_not_stop_the_rest(format!("{SEED_002}\n12?\n{SEED_004}"), vec![Want::Ok(1, SEED_002), Want::Err(2, 3, Problem::BadCharacter('?')), Want::Ok(3, SEED_004)])]
    #[case::a_grid_cut_short_at_the_end(SEED_004_GRID.lines().take(3).collect::<Vec<_>>().join("\n"), vec![Want::Err(1, 1, Problem::UnfinishedGrid(3))])]
    #[case::a_grid_cut_short_by_a_puzzle_line(format!("123456789\n{SEED_002}"), vec![Want::Err(1, 1, Problem::UnfinishedGrid(1)), Want::Ok(2, SEED_002)])]
    #[case::nothing_reads_as_nothing(String::new(), vec![])]
    fn reads(#[case] text: String, #[case] expected: Vec<Want>) {
        check(&text, &expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn any_grid_written_as_a_line_reads_back(puzzle in any_puzzle(81)) {
            let line = puzzle.line();
            let want: &'static str = Box::leak(line.clone().into_boxed_str());
            check(&line, &[Want::Ok(1, want)]);
        }
    }
}

mod naive {
    use super::*;
    stage_cases!("naive", subject::solve_naive);
    clash_case!();
}

mod flags {
    use super::*;
    stage_cases!("flags", subject::solve_flags);
    clash_case!();
}

mod bitmask {
    use super::*;
    stage_cases!("bitmask", subject::solve_bitmask);
    clash_case!();
}

mod fewest {
    use super::*;
    stage_cases!("fewest", subject::solve_fewest);
    clash_case!();
}

mod propagation {
    use super::*;
    stage_cases!("propagation", subject::solve_propagation);

    #[test]
    fn the_fixed_set_solved() {
        let mut out = String::new();
        for (name, puzzle) in fixed_set() {
            let expected = if oracle_count(&puzzle, 1) == 0 {
                "none"
            } else {
                "any"
            };
            let got = check(&puzzle, expected);
            let shown = got
                .solution
                .map_or("no solution\n".to_string(), |g| g.to_string());
            out += &format!("{name}:\n{shown}\n");
        }
        let _book = crate::support::explain(
            "chapter 4, \"Propagation\"",
            crate::support::rule(
                "each puzzle's solution after propagation and branching, or no solution",
            ),
        );
        insta::assert_snapshot!(out);
    }
}

mod count_solutions {
    use super::*;
    use subject::count_solutions;

    #[track_caller]
    fn check(puzzle: &Grid, limit: usize, expected: usize) {
        let call = format!("count_solutions({}, {limit})", puzzle.line());
        let why = say!(
            "count every solution but stop at {limit} (book: chapter 4, \"Is the puzzle unique?\")",
            limit
        );
        let got = crate::support::guard(&call, &expected.to_string(), &why, || {
            count_solutions(puzzle, limit)
        });
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{call} returned {got}, expected {expected}: {why}",
                call,
                got,
                expected,
                why
            )
        );
    }

    #[rstest]
    #[case::seed_002s_example_is_unique(grid(SEED_002), 2, 1)]
    #[case::seed_004s_example_is_unique(grid(SEED_004), 2, 1)]
    #[case::a_generated_puzzle_is_unique(grid(GENERATED_1), 2, 1)]
    #[case::a_full_grid_has_one(grid(SEED_002_SOLVED), 2, 1)]
    #[case::a_clashing_grid_has_none(grid(CLASHING), 2, 0)]
    #[case::a_dead_end_has_none(grid(DEAD_END), 2, 0)]
    #[case::the_swappable_rectangle_has_two(two_solutions(), 2, 2)]
    #[case::the_swappable_rectangle_has_exactly_two(two_solutions(), 10, 2)]
    #[case::limit_one_stops_at_the_first(two_solutions(), 1, 1)]
    #[case::limit_zero_counts_nothing(grid(SEED_002), 0, 0)]
    #[case::the_empty_grid_has_more_than_two(grid(EMPTY), 2, 2)]
    #[case::the_empty_grid_reaches_any_small_limit(grid(EMPTY), 25, 25)]
    fn counts(#[case] puzzle: Grid, #[case] limit: usize, #[case] expected: usize) {
        check(&puzzle, limit, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(48))]
        #[test]
        fn agrees_with_an_independent_count(puzzle in any_puzzle(60)) {
            check(&puzzle, 2, oracle_count(&puzzle, 2));
        }
    }
}

mod general {
    use super::*;
    use subject::{Board, GeneralOutcome, solve_general};

    /// A full valid board of box size `n`: the classic shifted pattern.
    fn pattern(n: usize) -> Vec<u8> {
        let side = n * n;
        (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                ((r % n * n + r / n + c) % side + 1) as u8
            })
            .collect()
    }

    /// The pattern of box size `n` with every cell `i` where `i * 7 % k == 0`
    /// blanked.
    fn holes(n: usize, k: usize) -> Board {
        let cells = pattern(n)
            .into_iter()
            .enumerate()
            .map(|(i, d)| if i * 7 % k == 0 { 0 } else { d })
            .collect();
        Board::new(n, cells).expect("a valid board")
    }

    fn board_valid(puzzle: &Board, answer: &Board) -> Result<(), String> {
        let (n, side) = (puzzle.box_size(), puzzle.side());
        let a = answer.cells();
        if a.len() != side * side {
            return Err(format!("{} cells, expected {}", a.len(), side * side));
        }
        for (i, (&p, &s)) in puzzle.cells().iter().zip(a).enumerate() {
            if p != 0 && p != s {
                return Err(say!("the given at cell {i} was changed", i));
            }
        }
        for u in 0..side {
            let row: Vec<u8> = (0..side).map(|k| a[side * u + k]).collect();
            let col: Vec<u8> = (0..side).map(|k| a[side * k + u]).collect();
            let bx: Vec<u8> = (0..side)
                .map(|k| a[side * (u / n * n + k / n) + u % n * n + k % n])
                .collect();
            for (name, mut unit) in [("row", row), ("column", col), ("box", bx)] {
                unit.sort_unstable();
                if unit != (1..=side as u8).collect::<Vec<_>>() {
                    return Err(say!(
                        "{name} {u} is not 1..={side} once each",
                        name,
                        u,
                        side
                    ));
                }
            }
        }
        Ok(())
    }

    #[track_caller]
    fn check(puzzle: &Board, solvable: bool) -> GeneralOutcome {
        let side = puzzle.side();
        let wanted = if solvable {
            say!("a solution")
        } else {
            say!("None (its givens clash)")
        };
        let got = crate::support::guard(
            &say!(
                "solve_general on the {side}x{side} board\n{puzzle}",
                side,
                puzzle
            ),
            &wanted,
            why(
                "a solution keeps the givens and has 1 to side once in every row, column and box \
             (book: chapter 4, \"Boards of any size\")",
            ),
            || solve_general(puzzle),
        );
        match (&got.solution, solvable) {
            (None, false) => {}
            (Some(s), false) => panic!(
                "{}",
                say!(
                    "solve_general({side}x{side} board) returned\n{s}but its givens clash (book: chapter 4, \"Boards of any size\")",
                    side,
                    s
                )
            ),
            (None, true) => panic!(
                "{}",
                say!(
                    "solve_general on the {side}x{side} board\n{puzzle}returned no solution, but it has one (book: chapter 4, \"Boards of any size\")",
                    side,
                    puzzle
                )
            ),
            (Some(s), true) => {
                if let Err(why) = board_valid(puzzle, s) {
                    panic!(
                        "{}",
                        say!(
                            "solve_general on the {side}x{side} board\n{puzzle}returned\n{s}which is wrong: {why} (book: chapter 4, \"Boards of any size\")",
                            side,
                            puzzle,
                            s,
                            why
                        )
                    );
                }
            }
        }
        got
    }

    #[rstest]
    #[case::an_empty_4x4(Board::new(2, vec![0; 16]).expect("valid"), true)]
    #[case::a_4x4_puzzle(Board::new(2, vec![1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]).expect("valid"), true)]
    #[case::a_clashing_4x4(Board::new(2, vec![1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).expect("valid"), false)]
    #[case::seed_002s_9x9(Board::from_grid(&grid(SEED_002)), true)]
    #[case::a_clashing_9x9(Board::from_grid(&grid(CLASHING)), false)]
    #[case::a_16x16_with_a_third_blank(holes(4, 3), true)]
    #[case::a_25x25_with_a_third_blank(holes(5, 3), true)]
    #[case::a_25x25_with_one_blank(holes(5, 1_000_000), true)]
    fn solves(#[case] puzzle: Board, #[case] solvable: bool) {
        check(&puzzle, solvable);
    }

    #[test]
    fn on_9x9_the_statistics_are_those_of_stage_4() {
        let mut out = format!("{:<14} {:>8} {:>8}\n", "puzzle", "nodes", "guesses");
        for (name, puzzle) in fixed_set() {
            let solvable = oracle_count(&puzzle, 1) > 0;
            let got = check(&Board::from_grid(&puzzle), solvable);
            out += &format!(
                "{name:<14} {:>8} {:>8}\n",
                got.stats.nodes, got.stats.guesses
            );
        }
        // The same table as fewest's `statistics_on_the_fixed_set`.
        let _book = crate::support::explain(
            "chapter 4, \"Boards of any size\"",
            crate::support::rule(
                "the nodes and guesses of each puzzle match the 9 x 9 stage's: fewest candidates first, ties keep the first blank in reading order",
            ),
        );
        insta::assert_snapshot!(out);
    }
}

mod generator {
    use super::*;
    use subject::generate;

    /// Checks `generate(seed, min_givens)`: a proper puzzle with enough
    /// givens, the same one twice; returns it.
    #[track_caller]
    fn check(seed: u64, min_givens: usize) -> Grid {
        let call = format!("generate({seed}, {min_givens})");
        let expected = say!(
            "a puzzle with exactly one solution and at least {min_givens} givens",
            min_givens
        );
        let why = why(
            "the same seed gives the same puzzle; remove a given only while the puzzle stays \
             unique (book: chapter 4, \"A generator of unique puzzles\")",
        );
        let got = crate::support::guard(&call, &expected, why, || generate(seed, min_givens));
        let again = crate::support::guard(&call, &expected, why, || generate(seed, min_givens));
        assert_eq!(
            got,
            again,
            "{}",
            say!(
                "{call} returned two different puzzles: the generator must be seeded from `seed` only (book: chapter 4, \"A generator of unique puzzles\")",
                call
            )
        );
        assert!(
            got.givens() >= min_givens.min(81),
            "{}",
            say!(
                "{call} returned {grid} with {givens} givens, fewer than {min_givens} (book: chapter 4, \"A generator of unique puzzles\")",
                call,
                grid = got.line(),
                givens = got.givens(),
                min_givens
            )
        );
        let count = oracle_count(&got, 2);
        assert_eq!(
            count,
            1,
            "{}",
            say!(
                "{call} returned {grid}, which has {count} solutions (counted up to 2), expected exactly one: remove a given only while the puzzle stays unique (book: chapter 4, \"A generator of unique puzzles\")",
                call,
                grid = got.line(),
                count
            )
        );
        got
    }

    #[rstest]
    #[case::minimal(1, 0)]
    #[case::minimal_other_seed(2, 0)]
    #[case::with_at_least_thirty_givens(3, 30)]
    #[case::with_every_given_kept(4, 81)]
    fn makes_proper_puzzles(#[case] seed: u64, #[case] min_givens: usize) {
        check(seed, min_givens);
    }

    #[test]
    fn a_minimal_puzzle_loses_uniqueness_without_any_given() {
        let puzzle = check(7, 0);
        for i in (0..81).filter(|&i| puzzle.cells[i] != 0) {
            let mut fewer = puzzle;
            fewer.cells[i] = 0;
            assert_eq!(
                oracle_count(&fewer, 2),
                2,
                "{}",
                say!(
                    "generate(7, 0) returned {grid}, but it stays unique without the given at row {row}, column {col}: with min_givens 0 try removing every cell (book: chapter 4, \"A generator of unique puzzles\")",
                    grid = puzzle.line(),
                    row = i / 9 + 1,
                    col = i % 9 + 1
                )
            );
        }
    }

    #[test]
    fn different_seeds_give_different_puzzles() {
        let puzzles: std::collections::HashSet<Grid> = (10..20).map(|s| check(s, 0)).collect();
        assert!(
            puzzles.len() >= 9,
            "{}",
            say!(
                "generate(10..20, 0) gave only {count} different puzzles: is the seed used? (book: chapter 4, \"A generator of unique puzzles\")",
                count = puzzles.len()
            )
        );
    }

    proptest! {
        #![proptest_config(crate::support::quiet(12))]
        #[test]
        fn any_seed_gives_a_unique_puzzle(seed in any::<u64>(), min_givens in prop_oneof![Just(0usize), 17usize..=40]) {
            // `check` counts the solutions with the suite's own solver, so
            // only the generator is judged here.
            check(seed, min_givens);
        }
    }
}

/// Whether `numbers` split into `k` groups of equal sum, decided with no
/// search: a table over the subsets taken so far, in which a subset is
/// reachable when its numbers can fill whole groups in some order and
/// leave one group partly filled, never past its share.
fn partition_by_subsets(numbers: &[u32], k: usize) -> bool {
    if k == 0 {
        return numbers.is_empty();
    }
    let total: u64 = numbers.iter().map(|&x| u64::from(x)).sum();
    if !total.is_multiple_of(k as u64) {
        return false;
    }
    let share = total / k as u64;
    if share == 0 {
        return true;
    }
    let n = numbers.len();
    let sum_of = |set: usize| -> u64 {
        (0..n)
            .filter(|&i| set >> i & 1 == 1)
            .map(|i| u64::from(numbers[i]))
            .sum()
    };
    let mut reachable = vec![false; 1 << n];
    reachable[0] = true;
    for set in 0..1usize << n {
        if !reachable[set] {
            continue;
        }
        let open = sum_of(set) % share;
        for (i, &x) in numbers.iter().enumerate() {
            if set >> i & 1 == 0 && open + u64::from(x) <= share {
                reachable[set | 1 << i] = true;
            }
        }
    }
    reachable[(1 << n) - 1]
}

mod can_partition {
    use super::*;
    use subject::can_partition;

    const WHY: &str = "place each number, largest first, in a bucket it fits, undo on failure, and \
                       answer true only when every number is placed (book: chapter 4, practice, \
                       \"Solved in the workbook: k buckets of equal sum\")";

    #[track_caller]
    fn check(numbers: &[u32], k: usize, expected: bool) {
        assert_eq!(
            partition_by_subsets(numbers, k),
            expected,
            "the test's own answer for {numbers:?} into {k} is wrong"
        );
        let call = format!("can_partition(&{numbers:?}, {k})");
        let got = crate::support::guard(&call, &format!("{expected}"), WHY, || {
            can_partition(numbers, k)
        });
        assert_eq!(
            got, expected,
            "{call} returned {got}, expected {expected}: {WHY}"
        );
    }

    #[rstest]
    #[case::nothing_fits_one_bucket(vec![], 1, true)]
    #[case::zero_buckets_hold_only_nothing(vec![1], 0, false)]
    #[case::four_ones_into_four(vec![1, 1, 1, 1], 4, true)]
    #[case::a_total_that_k_does_not_divide(vec![1, 2, 3, 4], 3, false)]
    #[case::a_number_longer_than_the_share(vec![7, 1, 1, 1], 2, false)]
    #[case::five_four_three_three_two_two_one_into_fives(vec![5, 4, 3, 3, 2, 2, 1], 4, true)]
    #[case::the_first_tries_must_be_undone(vec![4, 3, 3, 2, 2, 2], 2, true)]
    #[case::matchsticks_that_make_a_square(vec![1, 1, 2, 2, 2], 4, true)]
    #[case::matchsticks_that_divide_but_do_not_fit(vec![3, 3, 3, 3, 4], 4, false)]
    fn decides_the_partition(#[case] numbers: Vec<u32>, #[case] k: usize, #[case] expected: bool) {
        check(&numbers, k, expected);
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn agrees_with_a_table_over_subsets(numbers in proptest::collection::vec(1u32..10, 0..10), k in 1usize..5) {
            let expected = partition_by_subsets(&numbers, k);
            let call = format!("can_partition(&{numbers:?}, {k})");
            let got = crate::support::guard(&call, &format!("{expected}"), WHY, || can_partition(&numbers, k));
            prop_assert_eq!(got, expected, "can_partition(&{:?}, {}) must say whether the numbers split into {} equal sums: {}", numbers, k, k, WHY);
        }
    }
}
