//! The chapter 3 suite: N queens, from the naive search to the robot.
//!
//! One file checks both the learner's crate (`n_queens`) and the reference
//! (`n_queens_solution`, with `--features reference`). Each module is one
//! exercise; its `check` helper is the only place that calls the function
//! under test. Many orders of the solutions would be right, so the suite
//! compares *sets* of solutions (each board valid, no two alike, as many as
//! OEIS A000170 says), except where the order is part of the contract:
//! `solve_all`, `solve_all_flags` and `solutions` promise lexicographic
//! order, and the robot walks promise their visiting order.

#[cfg(not(feature = "reference"))]
use n_queens as subject;
#[cfg(feature = "reference")]
use n_queens_solution as subject;

use proptest::prelude::*;
use rstest::rstest;

#[macro_use]
mod support;
use std::collections::BTreeSet;
use support::{title, why};

/// OEIS A000170: the number of solutions for n = 0, 1, 2, ... (n = 0 counts
/// the one empty board).
const A000170: [u64; 16] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
];

/// Whether `cols` (one column per row) places `cols.len()` queens on a
/// square board with no two attacking; the reason when not.
fn attack(cols: &[usize]) -> Option<String> {
    let n = cols.len();
    for (r, &c) in cols.iter().enumerate() {
        if c >= n {
            return Some(say!(
                "row {r} has its queen in column {c}, off a {n}x{n} board",
                r,
                c,
                n
            ));
        }
        for (s, &d) in cols.iter().enumerate().skip(r + 1) {
            if c == d || s - r == c.abs_diff(d) {
                return Some(say!(
                    "the queens ({r}, {c}) and ({s}, {d}) attack each other",
                    r,
                    c,
                    s,
                    d
                ));
            }
        }
    }
    None
}

/// The columns of a drawn board, or why it is not a well-formed board.
fn columns(board: &[String], n: usize) -> Result<Vec<usize>, String> {
    if board.len() != n {
        return Err(say!("it has {count} rows, not {n}", count = board.len(), n));
    }
    board
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let ok = row.chars().count() == n
                && row.chars().all(|ch| ch == 'Q' || ch == '.')
                && row.matches('Q').count() == 1;
            match row.find('Q') {
                Some(c) if ok => Ok(c),
                _ => Err(say!(
                    "row {r} is {row}: it must be {n} characters, one 'Q' and the rest '.'",
                    r,
                    ?row,
                    n
                )),
            }
        })
        .collect()
}

/// Checks that `found` is exactly the set of solutions for `n` queens:
/// every entry valid, no two alike, and A000170(n) of them.
#[track_caller]
fn assert_solution_set(call: &str, n: usize, found: &[Vec<usize>], section: &str) {
    for cols in found {
        assert!(
            cols.len() == n,
            "{}",
            say!(
                "{call} returned the solution {cols} of length {cols_len}, expected {n} columns, one per row (book: chapter 3, {section})",
                call,
                ?cols,
                cols_len = cols.len(),
                n,
                section = title(section)
            )
        );
        if let Some(why) = attack(cols) {
            panic!(
                "{}",
                say!(
                    "{call} returned {cols}, which is not a solution: {why} (book: chapter 3, {section})",
                    call,
                    ?cols,
                    why,
                    section = title(section)
                )
            );
        }
    }
    let distinct: BTreeSet<&Vec<usize>> = found.iter().collect();
    assert!(
        distinct.len() == found.len(),
        "{}",
        say!(
            "{call} returned {found_len} solutions but only {distinct_len} different ones: each must be listed once (book: chapter 3, {section})",
            call,
            found_len = found.len(),
            distinct_len = distinct.len(),
            section = title(section)
        )
    );
    assert!(
        found.len() as u64 == A000170[n],
        "{}",
        say!(
            "{call} returned {found_len} solutions, expected {known} (OEIS A000170): some are missing (book: chapter 3, {section})",
            call,
            found_len = found.len(),
            known = A000170[n],
            section = title(section)
        )
    );
}

/// Checks boards drawn as strings: well formed, then a solution set.
#[track_caller]
fn assert_board_set(
    call: &str,
    n: usize,
    boards: &[Vec<String>],
    section: &str,
) -> Vec<Vec<usize>> {
    let cols: Vec<Vec<usize>> = boards
        .iter()
        .map(|b| {
            columns(b, n).unwrap_or_else(|why| {
                panic!("{}", say!("{call} returned the board {b}, which is malformed: {why} (book: chapter 3, {section})", call, ?b, why, section = title(section)))
            })
        })
        .collect();
    assert_solution_set(call, n, &cols, section);
    cols
}

/// Checks a list of solutions is in strictly increasing lexicographic order.
#[track_caller]
fn assert_lexicographic(call: &str, cols: &[Vec<usize>], section: &str) {
    if let Some(w) = cols.windows(2).find(|w| w[0] >= w[1]) {
        panic!(
            "{}",
            say!("{call} returned {first} before {second}: the search tries columns from left to right, row by row, so solutions come in lexicographic order (book: chapter 3, {section})", call, first = ?w[0], second = ?w[1], section = title(section))
        );
    }
}

mod solve_all {
    use super::*;
    use subject::{draw, is_valid, solve_all};

    const SECTION: &str = "Every board";

    #[track_caller]
    fn check(n: usize) {
        crate::support::quiet_panics();
        let call = format!("solve_all({n})");
        let boards = crate::support::guard(
            &call,
            &say!("A000170({n}) = {known} boards", n, known = A000170[n]),
            &say!(
                "every board of {n} queens, in lexicographic order (book: chapter 3, {section})",
                n,
                section = title(SECTION)
            ),
            || solve_all(n),
        );
        let cols = assert_board_set(&call, n, &boards, SECTION);
        assert_lexicographic(&call, &cols, SECTION);
    }

    #[rstest]
    fn every_board_is_valid_distinct_and_present(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)] n: usize,
    ) {
        check(n);
    }

    #[test]
    fn zero_queens_make_one_empty_board() {
        let got = solve_all(0);
        assert!(
            got == vec![Vec::<String>::new()],
            "{}",
            say!(
                "solve_all(0) returned {got}, expected [[]]: placing no queen on an empty board is one solution (book: chapter 3, {section})",
                ?got,
                section = title(SECTION)
            )
        );
    }

    #[test]
    fn the_two_boards_of_four_queens_are_drawn_in_order() {
        let _book = crate::support::explain(
            "chapter 3, \"The search\"",
            crate::support::rule(
                "the boards in the order the search finds them: columns tried left to right in each row",
            ),
        );
        insta::assert_debug_snapshot!(solve_all(4));
    }

    #[rstest]
    #[case::the_first_queen_is_always_safe(vec![], 0, true)]
    #[case::the_same_column_is_attacked(vec![2], 2, false)]
    #[case::a_falling_diagonal_is_attacked(vec![1], 2, false)]
    #[case::a_rising_diagonal_is_attacked(vec![3], 2, false)]
    #[case::a_diagonal_from_far_above_is_attacked(vec![0, 2, 4], 3, false)]
    #[case::a_knight_move_away_is_safe(vec![0], 2, true)]
    #[case::a_safe_square_under_three_queens(vec![1, 3, 0], 2, true)]
    fn is_valid_checks_columns_and_both_diagonals(
        #[case] cols: Vec<usize>,
        #[case] col: usize,
        #[case] expected: bool,
    ) {
        let got = is_valid(&cols, col);
        let row = cols.len();
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "is_valid({cols}, {col}) returned {got}, expected {expected}: a queen at row {row}, column {col} is attacked by (r, c) when c == {col}, r + c == {row} + {col} or r - c == {row} - {col} (book: chapter 3, {section})",
                ?cols,
                col,
                got,
                expected,
                row,
                section = title(SECTION)
            )
        );
    }

    #[rstest]
    #[case::four_queens(vec![1, 3, 0, 2], &[".Q..", "...Q", "Q...", "..Q."])]
    #[case::one_queen(vec![0], &["Q"])]
    #[case::no_queen(vec![], &[])]
    fn draw_puts_one_queen_per_row(#[case] cols: Vec<usize>, #[case] expected: &[&str]) {
        let got = draw(&cols);
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "draw({cols}) returned {got}, expected {expected}: row r has 'Q' in column cols[r] and '.' elsewhere (book: chapter 3, {section})",
                ?cols,
                ?got,
                ?expected,
                section = title(SECTION)
            )
        );
    }
}

mod counting {
    use super::*;
    use subject::count;

    #[track_caller]
    fn check(n: usize) {
        let got = crate::support::guard(
            &format!("count({n})"),
            &A000170[n].to_string(),
            why("OEIS A000170 (book: chapter 3, \"Only the count\")"),
            || count(n),
        );
        assert_eq!(
            got,
            A000170[n],
            "{}",
            say!(
                "count({n}) returned {got}, expected {known} (OEIS A000170) (book: chapter 3, \"Only the count\")",
                n,
                got,
                known = A000170[n]
            )
        );
    }

    // The naive search is slow in debug builds; the fast counters go to 14.
    #[rstest]
    fn matches_oeis_a000170(#[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)] n: usize) {
        check(n);
    }
}

mod flags {
    use super::*;
    use subject::{Flags, count_flags, solve_all_flags};

    const SECTION: &str = "An O(1) check";

    /// The squares of a 4x4 board attacked by one queen at (1, 2).
    const ATTACKED_BY_ONE_TWO: [(usize, usize); 9] = [
        (0, 2),
        (2, 2),
        (3, 2),
        (0, 1),
        (2, 3),
        (0, 3),
        (2, 1),
        (3, 0),
        (1, 2),
    ];

    #[track_caller]
    fn check_free(flags: &Flags, row: usize, col: usize, expected: bool, story: &str) {
        let got = crate::support::guard(
            &format!("{story}: is_free({row}, {col})"),
            &expected.to_string(),
            &say!(
                "a square is free when its column and both diagonals are unflagged (book: chapter 3, {section})",
                section = title(SECTION)
            ),
            || flags.is_free(row, col),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "{story}: is_free({row}, {col}) returned {got}, expected {expected}; a square is free when its column, its row+col diagonal and its row-col diagonal are all unflagged (book: chapter 3, {section})",
                story,
                row,
                col,
                got,
                expected,
                section = title(SECTION)
            )
        );
    }

    /// `Flags::new(n)`, whose panic (an underflow at n = 0) is a message.
    #[track_caller]
    fn new_flags(n: usize) -> Flags {
        crate::support::guard(
            &format!("Flags::new({n})"),
            &say!(
                "fresh flags: {n} columns and {diagonals} diagonals each way",
                n,
                diagonals = (2 * n).saturating_sub(1)
            ),
            &say!(
                "a board of n columns has 2n - 1 diagonals each way, none when n = 0, so count them without subtracting below zero (book: chapter 3, {section})",
                section = title(SECTION)
            ),
            || Flags::new(n),
        )
    }

    /// `flags.set(row, col, taken)`, guarded like every call of the learner's code.
    #[track_caller]
    fn set(flags: &mut Flags, row: usize, col: usize, taken: bool) {
        crate::support::guard(
            &format!("set({row}, {col}, {taken}) on a 4x4 board"),
            &say!("the column and both diagonals of the square flagged"),
            &say!(
                "set writes `taken` into the column flag and both diagonal flags (book: chapter 3, {section})",
                section = title(SECTION)
            ),
            || flags.set(row, col, taken),
        );
    }

    #[test]
    fn a_queen_takes_its_column_and_both_diagonals() {
        let mut flags = new_flags(4);
        set(&mut flags, 1, 2, true);
        for r in 0..4 {
            for c in 0..4 {
                let attacked = ATTACKED_BY_ONE_TWO.contains(&(r, c));
                check_free(
                    &flags,
                    r,
                    c,
                    !attacked,
                    &say!("after set(1, 2, true) on a 4x4 board"),
                );
            }
        }
    }

    #[test]
    fn clearing_a_queen_frees_its_lines_again() {
        let mut flags = new_flags(4);
        set(&mut flags, 1, 2, true);
        set(&mut flags, 1, 2, false);
        for (r, c) in ATTACKED_BY_ONE_TWO {
            check_free(
                &flags,
                r,
                c,
                true,
                &say!("after set(1, 2, true) then set(1, 2, false)"),
            );
        }
    }

    #[test]
    fn an_empty_board_has_no_lines_to_underflow() {
        let flags = new_flags(1);
        check_free(&flags, 0, 0, true, "Flags::new(1)");
        let _ = new_flags(0);
    }

    #[rstest]
    fn finds_every_board_in_order_with_flags(#[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)] n: usize) {
        let call = format!("solve_all_flags({n})");
        let boards = crate::support::guard(
            &call,
            &say!("A000170({n}) = {known} boards", n, known = A000170[n]),
            &say!(
                "every board of {n} queens, in lexicographic order (book: chapter 3, {section})",
                n,
                section = title(SECTION)
            ),
            || solve_all_flags(n),
        );
        let cols = assert_board_set(&call, n, &boards, SECTION);
        assert_lexicographic(&call, &cols, SECTION);
    }

    #[rstest]
    fn count_flags_matches_oeis_a000170(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)] n: usize,
    ) {
        let got = crate::support::guard(
            &format!("count_flags({n})"),
            &A000170[n].to_string(),
            &format!("OEIS A000170 (book: chapter 3, \"{SECTION}\")"),
            || count_flags(n),
        );
        assert_eq!(
            got,
            A000170[n],
            "{}",
            say!(
                "count_flags({n}) returned {got}, expected {known} (OEIS A000170) (book: chapter 3, {section})",
                n,
                got,
                known = A000170[n],
                section = title(SECTION)
            )
        );
    }
}

mod bitmask {
    use super::*;
    use subject::bits::full_mask;
    use subject::{count_bits, count_mirror};

    const SECTION: &str = "Bitmasks, then symmetry";

    #[track_caller]
    fn check(name: &str, counter: fn(usize) -> u64, n: usize) {
        let got = crate::support::guard(
            &format!("{name}({n})"),
            &A000170[n].to_string(),
            &format!("OEIS A000170 (book: chapter 3, \"{SECTION}\")"),
            || counter(n),
        );
        assert_eq!(
            got,
            A000170[n],
            "{}",
            say!(
                "{name}({n}) returned {got}, expected {known} (OEIS A000170) (book: chapter 3, {section})",
                name,
                n,
                got,
                known = A000170[n],
                section = title(SECTION)
            )
        );
    }

    #[rstest]
    #[case::no_column(0, 0)]
    #[case::one_column(1, 1)]
    #[case::four_columns(4, 0b1111)]
    #[case::thirty_two_columns_fill_the_word(32, u32::MAX)]
    fn full_mask_has_one_bit_per_column(#[case] n: usize, #[case] expected: u32) {
        let got = crate::support::guard(
            &format!("full_mask({n})"),
            &format!("{expected:#b}"),
            &say!(
                "the low {n} bits set; a shift by 32 or more overflows a u32, so n == 32 needs its own case (book: chapter 3, {section})",
                n,
                section = title(SECTION)
            ),
            || full_mask(n),
        );
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "full_mask({n}) returned {got}, expected {expected}: the low {n} bits set, without overflowing the shift at 0 or 32 (book: chapter 3, {section})",
                n,
                got = format!("{:#b}", got),
                expected = format!("{:#b}", expected),
                section = title(SECTION)
            )
        );
    }

    #[rstest]
    fn count_bits_matches_oeis_a000170(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)] n: usize,
    ) {
        check("count_bits", count_bits, n);
    }

    #[rstest]
    fn count_mirror_matches_oeis_a000170(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)] n: usize,
    ) {
        check("count_mirror", count_mirror, n);
    }
}

mod robot {
    use super::*;
    use subject::{
        Counted, QueensTree, Robot, Tree, robot_solutions, walk_all, walk_around, walk_leaves,
    };

    const SECTION: &str = "The robot";

    /// A walk under test: its name and the function.
    type Walk = (&'static str, fn(&mut Counted<Tree>));

    const LEAVES: Walk = ("walk_leaves", |r| walk_leaves(r));
    const ALL: Walk = ("walk_all", |r| walk_all(r));
    const AROUND: Walk = ("walk_around", |r| walk_around(r));

    /// Seven nodes: 0 has children 1, 2, 3; 1 has 4, 5; 3 has 6.
    fn seven() -> Vec<Vec<usize>> {
        vec![
            vec![1, 2, 3],
            vec![4, 5],
            vec![],
            vec![6],
            vec![],
            vec![],
            vec![],
        ]
    }

    /// A random tree of 1 to 40 nodes: node i > 0 hangs below one of 0..i.
    fn any_tree() -> impl Strategy<Value = Vec<Vec<usize>>> {
        (1usize..40).prop_flat_map(|n| {
            (1..n)
                .map(|i| 0..i)
                .collect::<Vec<_>>()
                .prop_map(move |parents| {
                    let mut children = vec![Vec::new(); n];
                    for (i, p) in parents.into_iter().enumerate() {
                        children[p].push(i + 1);
                    }
                    children
                })
        })
    }

    /// The order each walk must process nodes in, from a plain recursion.
    fn expected(children: &[Vec<usize>], walk: &str, v: usize, out: &mut Vec<usize>) {
        let kids = &children[v];
        if kids.is_empty() || walk != "walk_leaves" {
            out.push(v);
        }
        for &k in kids {
            expected(children, walk, k, out);
        }
        if !kids.is_empty() && walk == "walk_around" {
            out.push(v);
        }
    }

    /// Runs `walk` over `children` and checks the processing order, that
    /// the robot is back at the root, and its number of operations.
    #[track_caller]
    fn check(walk: Walk, children: &[Vec<usize>]) -> Result<(), TestCaseError> {
        crate::support::quiet_panics();
        let (name, run) = walk;
        let nodes = children.len() as u64;
        let mut robot = Counted::new(Tree::new(children.to_vec()));
        run(&mut robot);
        let mut want = Vec::new();
        expected(children, name, 0, &mut want);
        let got = robot.robot.processed().to_vec();
        prop_assert_eq!(
            &got,
            &want,
            "{}",
            say!(
                "{name} on the tree {children} (children of each node) processed {got}, expected {want} (book: chapter 3, {section})",
                name,
                ?children,
                ?got,
                ?want,
                section = title(SECTION)
            )
        );
        prop_assert!(
            robot.robot.at() == 0,
            "{}",
            say!(
                "{name} on {children} ended on node {at}, expected the root 0: the walk ends when there is no way down (book: chapter 3, {section})",
                name,
                ?children,
                at = robot.robot.at(),
                section = title(SECTION)
            )
        );
        prop_assert!(
            robot.entered() == nodes - 1 && robot.ops() <= 8 * nodes,
            "{}",
            say!(
                "{name} on {children} ({nodes} nodes) entered nodes {entered} times and made {calls} robot calls; expected {entries} entries (each node but the root once) and at most 8 calls per node (book: chapter 3, {section})",
                name,
                ?children,
                nodes,
                entered = robot.entered(),
                calls = robot.ops(),
                entries = nodes - 1,
                section = title(SECTION)
            )
        );
        Ok(())
    }

    #[rstest]
    #[case::leaves_left_to_right(LEAVES)]
    #[case::every_node_before_its_children(ALL)]
    #[case::inner_nodes_before_and_after_their_children(AROUND)]
    fn walks_the_seven_node_tree(#[case] walk: Walk) {
        check(walk, &seven()).unwrap();
    }

    #[rstest]
    fn a_lone_root_is_processed_once(#[values(LEAVES, ALL, AROUND)] walk: Walk) {
        check(walk, &[vec![]]).unwrap();
    }

    #[test]
    fn walk_around_visits_the_seven_node_tree_like_this() {
        let mut tree = Tree::new(seven());
        walk_around(&mut tree);
        let _book = crate::support::explain(
            "chapter 3, \"The robot\"",
            crate::support::rule(
                "the nodes in the order walk_around processes them: each node once per visit, climbing up-left first",
            ),
        );
        insta::assert_debug_snapshot!(tree.processed());
    }

    proptest! {
        #![proptest_config(crate::support::quiet(256))]
        #[test]
        fn walk_leaves_works_on_any_tree(children in any_tree()) {
            check(LEAVES, &children)?;
        }

        #[test]
        fn walk_all_works_on_any_tree(children in any_tree()) {
            check(ALL, &children)?;
        }

        #[test]
        fn walk_around_works_on_any_tree(children in any_tree()) {
            check(AROUND, &children)?;
        }
    }

    /// Whether the last queen of `cols` is safe from the others.
    fn attack_ignoring_size(cols: &[usize]) -> bool {
        let (last, rest) = cols.split_last().expect("not empty");
        let row = rest.len();
        rest.iter()
            .enumerate()
            .all(|(r, &c)| c != *last && row - r != c.abs_diff(*last))
    }

    /// The nodes of the tree of admissible positions: the root, and n
    /// children below every safe placement of fewer than n queens.
    fn admissible_positions(n: usize) -> u64 {
        let mut by_rows = vec![0; n + 1];
        safe_partial(n, &mut Vec::new(), &mut by_rows);
        1 + n as u64 * by_rows[..n].iter().sum::<u64>()
    }

    fn safe_partial(n: usize, cols: &mut Vec<usize>, by_rows: &mut [u64]) {
        by_rows[cols.len()] += 1;
        if cols.len() == n {
            return;
        }
        for c in 0..n {
            cols.push(c);
            if attack_ignoring_size(cols) {
                safe_partial(n, cols, by_rows);
            }
            cols.pop();
        }
    }

    #[rstest]
    fn robot_solutions_finds_every_solution(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)] n: usize,
    ) {
        let call = format!("robot_solutions({n})");
        let found = robot_solutions(n);
        assert_solution_set(&call, n, &found, SECTION);
        assert_lexicographic(&call, &found, SECTION);
    }

    #[rstest]
    fn the_queens_tree_has_one_node_per_admissible_position(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8)] n: usize,
    ) {
        let nodes = admissible_positions(n);
        let mut robot = Counted::new(QueensTree::new(n));
        walk_all(&mut robot);
        assert!(
            robot.entered() + 1 == nodes && robot.ops() <= 8 * nodes,
            "{}",
            say!(
                "walk_all over QueensTree::new({n}) entered {entered} nodes besides the root and made {calls} robot calls; the tree of admissible positions has {nodes} nodes (the root, and n children under every safe placement of fewer than n queens), so expected {entries} entries and at most {most} calls (book: chapter 3, {section})",
                n,
                entered = robot.entered(),
                calls = robot.ops(),
                nodes,
                entries = nodes - 1,
                most = 8 * nodes,
                section = title(SECTION)
            )
        );
        let found = robot.robot.into_solutions();
        assert_solution_set(
            &format!("walk_all over QueensTree::new({n})"),
            n,
            &found,
            SECTION,
        );
    }

    #[test]
    fn the_robot_starts_at_the_root_of_the_queens_tree() {
        let tree = QueensTree::new(4);
        assert!(
            tree.is_up() && !tree.is_down() && !tree.is_right(),
            "{}",
            say!(
                "QueensTree::new(4) said is_up = {up}, is_down = {down}, is_right = {right}; at the root (no queen) expected true, false, false (book: chapter 3, {section})",
                up = tree.is_up(),
                down = tree.is_down(),
                right = tree.is_right(),
                section = title(SECTION)
            )
        );
    }
}

mod iterator {
    use super::*;
    use subject::solutions;

    const SECTION: &str = "A lazy iterator";

    #[rstest]
    fn yields_every_solution_in_order(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)] n: usize,
    ) {
        let call = format!("solutions({n}).collect()");
        let found: Vec<Vec<usize>> = solutions(n).collect();
        assert_solution_set(&call, n, &found, SECTION);
        assert_lexicographic(&call, &found, SECTION);
    }

    #[test]
    fn the_first_solution_costs_only_its_own_search() {
        let mut lazy = solutions(8);
        let first = lazy.next();
        let nodes = lazy.nodes_visited();
        assert!(
            first == Some(vec![0, 4, 7, 5, 2, 6, 1, 3]),
            "{}",
            say!(
                "solutions(8).next() returned {first}, expected Some([0, 4, 7, 5, 2, 6, 1, 3]), the lexicographically first board (book: chapter 3, {section})",
                ?first,
                section = title(SECTION)
            )
        );
        assert!(
            nodes != 0,
            "{}",
            say!(
                "solutions(8).next() found the first board, but nodes_visited() was 0: count one node (`self.nodes += 1`) every time `next` places a queen; this test reads that count to check that `next` stops at the first board (book: chapter 3, {section})",
                section = title(SECTION)
            )
        );
        assert!(
            nodes <= 200,
            "{}",
            say!(
                "solutions(8).next() returned the first board after placing {nodes} queens; expected at most 200 placements (finding all 92 places 2056): `next` must stop at the first board it finds (book: chapter 3, {section})",
                nodes,
                section = title(SECTION)
            )
        );
    }

    #[test]
    fn an_exhausted_iterator_stays_exhausted() {
        let mut lazy = solutions(4);
        let got: Vec<Option<Vec<usize>>> = (0..5).map(|_| lazy.next()).collect();
        let expected = vec![
            Some(vec![1, 3, 0, 2]),
            Some(vec![2, 0, 3, 1]),
            None,
            None,
            None,
        ];
        assert_eq!(
            got,
            expected,
            "{}",
            say!(
                "five calls of next() on solutions(4) returned {got}, expected {expected}: after the last board, next() keeps answering None (book: chapter 3, {section})",
                ?got,
                ?expected,
                section = title(SECTION)
            )
        );
    }
}

mod parallel {
    use super::*;
    use subject::count_parallel;

    #[track_caller]
    fn check(n: usize) {
        let got = crate::support::guard(
            &format!("count_parallel({n})"),
            &A000170[n].to_string(),
            why("OEIS A000170 (book: chapter 3, \"A parallel count\")"),
            || count_parallel(n),
        );
        assert_eq!(
            got,
            A000170[n],
            "{}",
            say!(
                "count_parallel({n}) returned {got}, expected {known} (OEIS A000170): every task counts its subtree once, with the mirror weight 2 for the left half and 1 for the middle column (book: chapter 3, \"A parallel count\")",
                n,
                got,
                known = A000170[n]
            )
        );
    }

    #[rstest]
    fn matches_oeis_a000170(
        #[values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)] n: usize,
    ) {
        check(n);
    }
}

/// The beautiful arrangements of 1..=n counted with no search: a table
/// over the sets of numbers used, where the numbers of a set of size p
/// fill positions 1..=p and the last of them, at position p, is any member
/// of the set that divides p or that p divides.
fn beautiful_by_subsets(n: usize) -> u64 {
    let mut ways = vec![0u64; 1 << n];
    ways[0] = 1;
    for set in 1usize..1 << n {
        let position = set.count_ones() as usize;
        ways[set] = (1..=n)
            .filter(|&k| {
                set >> (k - 1) & 1 == 1
                    && (k.is_multiple_of(position) || position.is_multiple_of(k))
            })
            .map(|k| ways[set & !(1 << (k - 1))])
            .sum();
    }
    ways[(1 << n) - 1]
}

mod count_beautiful {
    use super::*;
    use subject::count_beautiful;

    const WHY: &str = "fill the positions one by one (the last first), trying each unused number \
                       that divides the position or that the position divides, and add up the \
                       completions (book: chapter 3, practice, \"Solved in the workbook: beautiful \
                       arrangements\")";

    #[track_caller]
    fn check(n: usize, expected: u64) {
        let call = format!("count_beautiful({n})");
        let got = crate::support::guard(&call, &format!("{expected}"), WHY, || count_beautiful(n));
        assert_eq!(
            got, expected,
            "{call} returned {got}, expected {expected} arrangement(s): {WHY}"
        );
    }

    #[rstest]
    #[case::no_number_has_one_empty_order(0, 1)]
    #[case::one_number_has_one_order(1, 1)]
    #[case::two_numbers_fit_both_ways(2, 2)]
    #[case::three_numbers_have_three_orders(3, 3)]
    #[case::four_numbers_have_eight_orders(4, 8)]
    #[case::six_numbers_have_thirty_six_orders(6, 36)]
    fn counts_the_arrangements(#[case] n: usize, #[case] expected: u64) {
        check(n, expected);
    }

    #[test]
    fn agrees_with_a_table_over_subsets_up_to_twelve() {
        for n in 0..=12 {
            check(n, beautiful_by_subsets(n));
        }
    }
}
