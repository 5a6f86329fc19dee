//! `workbook trace`, as a learner meets it: the untouched stub, the
//! reference handed in as the learner's code, a seeded mistake, and code
//! that loops, overflows or panics.
//!
//! The problem: the command must name the first step where a learner's
//! search leaves the reference's, in the chapter's words, and survive any
//! learner code. Each test traces one chapter's exercise from inside the
//! chapter's folder, with the learner's sources given by the hidden
//! `--learner-src` (a temporary folder), so the repository's stubs are
//! never edited. The seeded mistakes come from `info.toml`: every mutant
//! listed for a traced exercise (the typical mistakes `cargo xtask check
//! --mutants` proves the suite catches) must be named by trace too, and the
//! tests that pin trace's exact words seed the same mutants by their
//! `mistake`. The state: the scratch build under the target directory (its
//! dependencies compiled once, then only the chapter's two small crates);
//! each trace costs one such build and two short runs.

mod common;

use common::{replace_body, repo, write_learner_reference};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use workbook_core::info::{Chapter, Exercise, Mutant, load_chapters};
use workbook_core::stubs::item_ranges;

/// The learner's copy of `chapter`'s reference, in a fresh folder.
fn reference_src(chapter: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let src = dir.path().join("src");
    write_learner_reference(&repo(), chapter, &src);
    (dir, src)
}

/// The reference with one edit in `file`: the first `find` becomes
/// `replace` (the first is the traced function's: each chapter's file
/// lists its recursive stage first).
fn seeded(chapter: &str, file: &str, find: &str, replace: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, src) = reference_src(chapter);
    let path = src.join(file);
    let text = std::fs::read_to_string(&path).expect("the reference file");
    assert!(text.contains(find), "`{find}` in {file}");
    std::fs::write(&path, text.replacen(find, replace, 1)).expect("write");
    (dir, src)
}

/// The workbook's chapters, as `info.toml` lists them.
fn chapters() -> Vec<Chapter> {
    load_chapters(&repo()).expect("the chapters load")
}

/// The learner's copy of `chapter`'s reference with `mutant` applied: its
/// `find` replaced by its `replace` inside its function, in whichever
/// source file holds that function (as `cargo xtask check --mutants`
/// applies it to the reference).
fn mutated(chapter: &str, mutant: &Mutant) -> (tempfile::TempDir, PathBuf) {
    let (dir, src) = reference_src(chapter);
    for entry in std::fs::read_dir(&src).expect("the learner's sources") {
        let path = entry.expect("a source file").path();
        let text = std::fs::read_to_string(&path).expect("a source file's text");
        let ranges = item_ranges(&text).expect("the reference parses");
        let Some((_, range)) = ranges.iter().find(|(name, _)| *name == mutant.function) else {
            continue;
        };
        let body = &text[range.clone()];
        let at = body.find(&mutant.find).unwrap_or_else(|| {
            panic!(
                "`{}` is not in {}'s {}",
                mutant.find, chapter, mutant.function
            )
        });
        let start = range.start + at;
        let mut edited = text.clone();
        edited.replace_range(start..start + mutant.find.len(), &mutant.replace);
        std::fs::write(&path, edited).expect("write the mutant");
        return (dir, src);
    }
    panic!("no function {} in {chapter}'s sources", mutant.function)
}

/// The learner's copy of `chapter`'s reference with the mutant of
/// `exercise` whose mistake is `mistake` (from `info.toml`).
fn mistake(chapter: &str, exercise: &str, mistake: &str) -> (tempfile::TempDir, PathBuf) {
    let chapters = chapters();
    let mutant = chapters
        .iter()
        .filter(|c| c.chapter.slug == chapter)
        .flat_map(|c| &c.exercises)
        .filter(|e| e.name == exercise)
        .flat_map(|e| &e.mutants)
        .find(|m| m.mistake == mistake)
        .unwrap_or_else(|| panic!("{chapter}/{exercise} lists no mutant \"{mistake}\""));
    mutated(chapter, mutant)
}

/// `workbook trace WORDS --no-open` from `folder`, learner sources in `src`
/// (the chapter's own when `None`); stdout and stderr together.
fn trace(folder: &str, words: &[&str], src: Option<&Path>) -> (Output, String) {
    trace_in("en", folder, words, src)
}

/// [`trace`] with the learner's language `code` (`WORKBOOK_LANG`).
fn trace_in(code: &str, folder: &str, words: &[&str], src: Option<&Path>) -> (Output, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_workbook"));
    cmd.current_dir(repo().join(folder))
        .env("WORKBOOK_LANG", code)
        .arg("trace")
        .args(words)
        .arg("--no-open")
        .env("WORKBOOK_TRACE_SECONDS", "3")
        .env_remove("BROWSER");
    if let Some(src) = src {
        cmd.arg("--learner-src").arg(src);
    }
    let out = cmd.output().expect("workbook runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

/// The page a trace printed (the line that ends in the page's path, in
/// any language), read.
fn page_of(said: &str) -> String {
    let path = said
        .lines()
        .find_map(|l| {
            let at = l.find('/')?;
            l.ends_with(".html").then(|| &l[at..])
        })
        .unwrap_or_else(|| panic!("no page printed: {said}"));
    std::fs::read_to_string(path).expect("the page exists")
}

#[test]
fn intro_the_stub_the_reference_a_reversed_order_and_a_loop_are_each_named() {
    let folder = "exercises/00_intro";
    let (out, said) = trace(folder, &["dfs_recursive"], None);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("your dfs_recursive is not written yet: at step 2 it stops at a todo!()"),
        "{said}"
    );
    let page = page_of(&said);
    assert!(
        page.contains("class=\"bt-player\""),
        "both players on the page"
    );
    assert!(page.contains("BT.Player"), "the player's script is inlined");
    assert!(!page.contains("src=\"http"), "nothing is fetched");

    let (_d, right) = reference_src("intro");
    let (_, said) = trace(folder, &["dfs_recursive", "2"], Some(&right));
    assert!(
        said.contains(
            "the same for all 20 steps: your search is the reference's on this instance \
             (from vertex 4). If a test still fails, try the others (`workbook trace \
             dfs_recursive N`): 1 (from vertex 0), 3 (from vertex 6)."
        ),
        "{said}"
    );

    let (_d, wrong) = mistake(
        "intro",
        "dfs_recursive",
        "the neighbours tried in reverse order",
    );
    let (_, said) = trace(folder, &["dfs_recursive"], Some(&wrong));
    assert!(
        said.contains(
            "the same for 2 steps; at step 3 you entered vertex 2 (order so far [0]), \
             the reference entered vertex 1 (order so far [0]): book: \"0. Depth-first search\", \
             section \"The recursive template\""
        ),
        "{said}"
    );

    let (_d, looping) = seeded(
        "intro",
        "lib.rs",
        "    if v >= graph.len() || seen[v] {",
        "    while v < graph.len() {}\n    if v >= graph.len() || seen[v] {",
    );
    let (out, said) = trace(folder, &["dfs_recursive"], Some(&looping));
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(
            "the same for 2 steps; at step 3 your code was stopped after 3 s without finishing (a loop?)"
        ),
        "{said}"
    );
}

/// The page runs on its own: every global function one of the book's
/// scripts defines (`window.NAME = ...`) and the page calls is defined on
/// the page (the players' words all go through `btT`, from bt-i18n.js; a
/// page without it showed only "needs JavaScript").
#[test]
fn the_page_defines_every_global_its_players_call() {
    let (out, said) = trace("exercises/00_intro", &["dfs_recursive"], None);
    assert!(out.status.success(), "{said}");
    let page = page_of(&said);
    let assets = repo().join("book/src/assets");
    let mut checked = 0;
    for entry in std::fs::read_dir(&assets).expect("the book's assets") {
        let path = entry.expect("an asset").path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("an asset's text");
        for (at, _) in text.match_indices("window.") {
            let name: String = text[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let defined = format!("window.{name} = function");
            if !text[at..].starts_with(&defined) || !page.contains(&format!("{name}(")) {
                continue;
            }
            checked += 1;
            assert!(
                page.contains(&defined),
                "the page calls {name}() but does not define it ({})",
                path.display()
            );
        }
    }
    assert!(checked > 0, "btT at least is called and checked");
}

#[test]
fn intro_code_that_overflows_its_stack_is_traced_up_to_there() {
    let (_d, src) = reference_src("intro");
    let path = src.join("lib.rs");
    let text = std::fs::read_to_string(&path).expect("lib.rs");
    let deep =
        "fn deep(n: u64) -> u64 { let pad = [n; 64]; deep(pad[(n % 64) as usize] + 1) + pad[3] }\n";
    let text = replace_body(&text, "subsets_with_sum", "let _ = deep(0); Vec::new()") + deep;
    std::fs::write(&path, text).expect("write");
    let (out, said) = trace("exercises/00_intro", &["subsets_with_sum"], Some(&src));
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("the same for 1 steps; at step 2 your code overflowed its stack"),
        "{said}"
    );
}

#[test]
fn apples_a_wrong_base_case_is_named_at_its_first_call() {
    let folder = "exercises/01_apples";
    let (_, said) = trace(folder, &["count_naive"], None);
    assert!(
        said.contains("your count_naive is not written yet: at step 2 it stops at a todo!()"),
        "{said}"
    );
    let (_d, right) = reference_src("apples");
    let (_, said) = trace(
        folder,
        &["apples", "count_naive", "4 people, 2 apples"],
        Some(&right),
    );
    assert!(said.contains("the same for all "), "{said}");
    let (_d, wrong) = seeded("apples", "naive.rs", "        1 => 1,\n", "");
    let (_, said) = trace(folder, &["count_naive"], Some(&wrong));
    // Both sides spell the call alike, with its argument names: a bare
    // `count_naive(0, 0)` beside `count_naive(people = 1, ...)` reads as
    // two different ways of writing one thing.
    assert!(
        said.contains(
            "at step 4 you called count_naive(people = 0, apples = 0), the reference returned 1 \
             from count_naive(people = 1, apples = 0)"
        ),
        "{said}"
    );
}

#[test]
fn eight_queens_a_dropped_undo_is_named_where_the_searches_part() {
    let folder = "exercises/02_eight_queens";
    let (_, said) = trace(folder, &["solve"], None);
    assert!(said.contains("your solve is not written yet"), "{said}");
    let (_d, right) = reference_src("eight_queens");
    let (_, said) = trace(folder, &["solve"], Some(&right));
    assert!(said.contains("the same for all 278 steps"), "{said}");
    let (_d, wrong) = mistake(
        "eight_queens",
        "solve",
        "the undo dropped: a queen stays after its branch failed",
    );
    let (_, said) = trace(folder, &["solve"], Some(&wrong));
    assert!(said.contains("; at step "), "{said}");
    assert!(said.contains("you skipped ("), "{said}");
}

/// The base cases in the wrong order ("no square left" tested before "no
/// queen left") lose only the completions whose last queen is on the last
/// square: the first instance cannot show it, so trace, asked for none,
/// goes on to the instance that does, and says so.
#[test]
fn eight_queens_a_wrong_base_case_is_found_on_the_next_instance() {
    let folder = "exercises/02_eight_queens";
    let (_d, right) = reference_src("eight_queens");
    let (_, said) = trace(folder, &["count_completions"], Some(&right));
    assert!(
        said.contains(
            "your search is the reference's on this instance (the first sample) and on the \
             others (2 (a queen given in the last square)). If a test still fails, its input \
             is none of these"
        ),
        "{said}"
    );
    let (_d, wrong) = seeded(
        "eight_queens",
        "search.rs",
        "    if left == 0 {\n        return 1;\n    }\n    if square == SQUARES {\n        return 0;\n    }\n",
        "    if square == SQUARES {\n        return 0;\n    }\n    if left == 0 {\n        return 1;\n    }\n",
    );
    let (_, said) = trace(folder, &["count_completions"], Some(&wrong));
    assert!(
        said.contains(
            "the same on the first sample (4096 steps), but not on instance 2 (a queen given \
             in the last square): the same for "
        ),
        "{said}"
    );
    assert!(
        said.contains(
            "your count_from(square = 64, left = 0) returned 0, the reference's returned 1"
        ),
        "{said}"
    );
    let page = page_of(&said);
    assert!(
        page.contains("[\"undo\",") && !page.contains("[\"reject\","),
        "a return takes its cell back as an undo, not a reject (it may have found a solution)"
    );
    // Named, the first instance alone is traced, and the others offered.
    let (_, said) = trace(folder, &["count_completions", "1"], Some(&wrong));
    assert!(
        said.contains("try the others (`workbook trace count_completions N`): 2 (a queen"),
        "{said}"
    );
}

#[test]
fn an_unknown_exercise_or_instance_is_refused_with_status_2() {
    let (out, said) = trace("exercises/00_intro", &["dfs_recursiv"], None);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("dfs_recursive"),
        "the nearest name is offered: {said}"
    );
    let (out, said) = trace("exercises/00_intro", &["dfs_recursive", "9"], None);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("no instance `9` for dfs_recursive; its instances are: 1 (from vertex 0)"),
        "{said}"
    );
}

#[test]
fn code_that_does_not_compile_gets_its_first_error_and_status_1() {
    let (_d, src) = seeded(
        "intro",
        "lib.rs",
        "    seen[v] = true;",
        "    seen[v] = true",
    );
    let (out, said) = trace("exercises/00_intro", &["dfs_recursive"], Some(&src));
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("your code does not compile"), "{said}");
    assert!(said.contains("src/lib.rs:"), "{said}");
}

#[test]
fn n_queens_a_skipped_column_is_named_at_the_first_queen() {
    let folder = "exercises/03_n_queens";
    let (_, said) = trace(folder, &["solve_all"], None);
    assert!(said.contains("your solve_all is not written yet"), "{said}");
    let (_d, right) = reference_src("n_queens");
    let (_, said) = trace(folder, &["n_queens", "solve_all", "n = 5"], Some(&right));
    assert!(said.contains("the same for all "), "{said}");
    let (_, said) = trace(folder, &["robot", "2"], Some(&right));
    assert!(said.contains("the same for all "), "{said}");
    let (_d, wrong) = seeded(
        "n_queens",
        "naive.rs",
        "for col in 0..n {",
        "for col in 1..n {",
    );
    let (_, said) = trace(folder, &["solve_all"], Some(&wrong));
    assert!(
        said.contains(
            "the same for 2 steps; at step 3 you placed a queen on (0, 1) (columns [1]), \
             the reference placed a queen on (0, 0) (columns [0])"
        ),
        "{said}"
    );
}

#[test]
fn sudoku_a_reversed_digit_order_is_named_at_the_first_blank() {
    let folder = "exercises/04_sudoku";
    let (_d, right) = reference_src("sudoku");
    let (_, said) = trace(folder, &["naive"], Some(&right));
    assert!(said.contains("the same for all 4192 steps"), "{said}");
    // The reading exercise solved, the search not: the stub is named.
    let (_d, stub) = reference_src("sudoku");
    let path = stub.join("naive.rs");
    let text = std::fs::read_to_string(&path).expect("naive.rs");
    std::fs::write(
        &path,
        replace_body(&text, "fill", "todo!(\"count the node\")"),
    )
    .expect("write");
    let (_, said) = trace(folder, &["naive"], Some(&stub));
    assert!(
        said.contains("your naive is not written yet: at step 3"),
        "{said}"
    );
    let (_d, wrong) = seeded(
        "sudoku",
        "naive.rs",
        "for digit in 1..=9 {",
        "for digit in (1..=9).rev() {",
    );
    let (_, said) = trace(folder, &["naive"], Some(&wrong));
    assert!(
        said.contains(
            "the same for 2 steps; at step 3 you wrote 9 in (0, 1), the reference wrote 2 in (0, 1)"
        ),
        "{said}"
    );
}

#[test]
fn knights_tour_a_dropped_undo_is_named_where_the_tours_part() {
    let folder = "exercises/05_knights_tour";
    let (_, said) = trace(folder, &["plain_dfs"], None);
    assert!(said.contains("your plain_dfs is not written yet"), "{said}");
    let (_d, right) = reference_src("knights_tour");
    let (_, said) = trace(folder, &["plain_dfs"], Some(&right));
    assert!(said.contains("the same for all 364 steps"), "{said}");
    let (_d, wrong) = mistake(
        "knights_tour",
        "plain_dfs",
        "the undo dropped: a square stays numbered after its branch failed",
    );
    let (_, said) = trace(folder, &["plain_dfs"], Some(&wrong));
    assert!(
        said.contains(
            "the same for 36 steps; at step 37 you returned false from \
             Plain::extend(at = (0, 2), next = 16), the reference numbered (2, 3) 16"
        ),
        "{said}"
    );
}

/// stack_dfs is one call (its loop is not a recursion), so only its result
/// can differ: the two tours are compared square by square and the first
/// move they put apart is named, not left to be found in two boards
/// written on one line each.
#[test]
fn knights_tour_a_reversed_move_order_on_the_stack_is_named_at_its_first_move() {
    let (_d, wrong) = seeded(
        "knights_tour",
        "stack.rs",
        "moves.get(tried)",
        "moves.iter().rev().nth(tried)",
    );
    let (_, said) = trace("exercises/05_knights_tour", &["stack_dfs"], Some(&wrong));
    assert!(
        said.contains(
            "(the boards part at 2: yours puts it on (2, 3), the reference's on (1, 2)): book:"
        ),
        "{said}"
    );
}

/// Every typical mistake `info.toml` lists for a traced exercise is one a
/// learner may make, so trace must find where it leaves the reference's
/// search (on the player's first instance or a later one) and write the
/// page: never "your search is the reference's". Cost: one trace per
/// mutant (18 today), each a rebuild of one small crate and two runs.
#[test]
fn every_listed_mistake_of_a_traced_exercise_is_named_by_trace() {
    let mut traced = 0;
    let mut missed = Vec::new();
    for c in chapters() {
        let folder = c.shown(c.stub_dir());
        let traceable = c.exercises.iter().filter(|e: &&Exercise| e.trace);
        for e in traceable {
            for m in &e.mutants {
                let (_d, src) = mutated(&c.chapter.slug, m);
                let (out, said) = trace(&folder, &[e.name.as_str()], Some(&src));
                traced += 1;
                let parted = out.status.success()
                    && said.contains("at step ")
                    && !said.contains("your search is the reference's")
                    && said.contains("page: ");
                if !parted {
                    missed.push(format!(
                        "{}/{} ({}): {said}",
                        c.chapter.slug, e.name, m.mistake
                    ));
                }
            }
        }
    }
    assert!(
        traced >= 18,
        "only {traced} mutants of traced exercises found"
    );
    assert!(
        missed.is_empty(),
        "trace did not name these mistakes:\n{}",
        missed.join("\n")
    );
}

/// The first player's trace in a page (or part of one), as JSON.
fn player_json(html: &str) -> serde_json::Value {
    let open = "class=\"bt-traces\">";
    let from = html.find(open).expect("a player") + open.len();
    let len = html[from..].find("</script>").expect("its end");
    let all: serde_json::Value = serde_json::from_str(&html[from..from + len]).expect("JSON");
    all[0].clone()
}

/// The learner's code with chapter 2's undo dropped: a queen whose branch
/// failed stays on the board.
fn forgotten_queen() -> (tempfile::TempDir, PathBuf) {
    seeded(
        "eight_queens",
        "search.rs",
        "            self.board.remove(row, col);\n",
        "",
    )
}

/// The board is drawn as the learner's code holds it: the queen never
/// taken back is drawn and said, and the squares it attacks are skipped
/// naming it, where the call path alone drew an empty square.
#[test]
fn eight_queens_a_queen_never_taken_back_is_drawn_and_named_as_the_attacker() {
    let folder = "exercises/02_eight_queens";
    let (_d, wrong) = forgotten_queen();
    let (_, said) = trace(folder, &["solve"], Some(&wrong));
    assert!(
        said.contains(
            "at step 85 you skipped (5, 6), 4 left, but the board still holds its queen: it was \
             never taken back, the reference skipped (5, 6), which no queen attacks"
        ),
        "{said}"
    );
    let page = page_of(&said);
    let (yours, theirs) = page
        .split_once("wb-side\"><h2>")
        .and_then(|(_, rest)| rest.split_once("wb-side\"><h2>"))
        .expect("two sides");
    assert!(
        yours.contains("The board still holds a queen on (5, 6): its call has returned"),
        "the forgotten queen is drawn back, and said"
    );
    assert!(
        yours.contains("Skipped (7, 6): the queen on (5, 6) attacks it"),
        "a square the forgotten queen attacks names it"
    );
    assert!(
        !theirs.contains("The board still holds a queen"),
        "the reference never leaves a queen behind"
    );
    // The tree has a level per queen, as the page's search (never more
    // than 8 queens below the entry's two calls), its nodes labelled with
    // their calls' arguments and returns.
    let trace = player_json(theirs);
    assert_eq!(trace["function"], "place_from");
    let mut parent = std::collections::BTreeMap::new();
    for step in trace["steps"].as_array().expect("steps") {
        parent.insert(
            step[1].as_i64().expect("node"),
            step[2].as_i64().unwrap_or(-1),
        );
    }
    let depth = |mut v: i64| {
        let mut d = 0;
        while let Some(&p) = parent.get(&v).filter(|&&p| p > 0) {
            (v, d) = (p, d + 1);
        }
        d
    };
    let deepest = parent.keys().map(|&v| depth(v)).max().unwrap_or(0);
    assert!(
        (8..=9).contains(&deepest),
        "a level per queen: {deepest} deep"
    );
    assert!(
        trace["calls"].as_array().is_some_and(|c| c.len() > 8),
        "labelled calls"
    );
    assert!(
        trace["returns"].as_array().is_some_and(|r| !r.is_empty()),
        "returns shown"
    );
    // Each player opens at the first difference in its own steps: the
    // learner's has the board's extra steps before it, none here.
    assert!(
        page.contains("var starts = [85, 85];"),
        "both open at step 85"
    );
}

/// In each language of the loop, the terminal's verdict and the page are
/// in that language: its words from the catalogues (the loop's for trace's
/// own, the book's `ui` for the players'), no English narration left.
#[test]
fn trace_speaks_the_learners_language_in_the_terminal_and_on_the_page() {
    use workbook_core::lang::Lang;
    let folder = "exercises/02_eight_queens";
    let (_d, wrong) = forgotten_queen();
    for code in ["ja", "zh-CN", "ru"] {
        let lang = Lang::load(&repo(), code);
        let (out, said) = trace_in(code, folder, &["solve"], Some(&wrong));
        assert!(out.status.success(), "{code}: {said}");
        // The verdict: the language's sentence around the values.
        let verdict = lang.fill(
            "{head}; at step {step} {you}, {reference}{apart}: book: {book}",
            &[
                ("head", &lang.fill("the same for {n} steps", &[("n", &84)])),
                ("step", &85),
                ("you", &"\u{1}"),
                ("reference", &"\u{1}"),
                ("apart", &""),
                ("book", &"\u{1}"),
            ],
        );
        for piece in verdict.split('\u{1}').filter(|p| !p.trim().is_empty()) {
            assert!(said.contains(piece), "{code}: `{piece}` in {said}");
        }
        let skipped = lang.fill(
            "skipped ({row}, {col}), {left} left, but the board still holds its queen: it was never taken back",
            &[("row", &5), ("col", &6), ("left", &4)],
        );
        assert!(said.contains(&skipped), "{code}: `{skipped}` in {said}");
        for english in [
            "at step",
            "the reference",
            "skipped (",
            "the same for",
            "tracing ",
            ", section ",
        ] {
            assert!(
                !said.contains(english),
                "{code}: English `{english}` in {said}"
            );
        }
        let page = page_of(&said);
        assert!(
            page.contains(&format!("<html lang=\"{code}\"")),
            "{code}: the page's language"
        );
        assert!(
            page.contains(lang.tr("Your search")),
            "{code}: the page's headings"
        );
        // The players' own words, from the book's ui catalogue.
        let ui = std::fs::read_to_string(repo().join(format!("book/po/ui/{code}.po")))
            .expect("the ui catalogue");
        let ui = workbook_core::lang::parse(&ui);
        let step_word = ui
            .get("The search tree and the code")
            .and_then(|f| f.first())
            .expect("translated");
        assert!(
            page.contains(&serde_json::Value::String(step_word.clone()).to_string()),
            "{code}: the players' strings in BT_STRINGS"
        );
        let attacked = lang.fill(
            "skipped ({row}, {col}): the queen on ({arow}, {acol}) attacks it, {left} left",
            &[
                ("row", &7),
                ("col", &6),
                ("arow", &5),
                ("acol", &6),
                ("left", &2),
            ],
        );
        // The narration starts with a capital where the language has them.
        let tail: String = attacked.chars().skip(1).collect();
        assert!(page.contains(&tail), "{code}: `{attacked}` on the page");
        for english in [
            "Skipped (",
            "Placed a queen",
            "returned false.",
            "The board still holds",
            "Your search",
            "calls of the traced functions",
        ] {
            assert!(
                !page.contains(english),
                "{code}: English `{english}` on the page"
            );
        }
    }
}

#[test]
fn an_unwritten_stub_is_named_by_its_translated_todo_and_book_section() {
    use workbook_core::lang::Lang;
    let english = "mark the vertex, record it, then visit each neighbour in order";
    for code in ["ja", "zh-CN", "ru"] {
        let lang = Lang::load(&repo(), code);
        let (out, said) = trace_in(code, "exercises/00_intro", &["dfs_recursive"], None);
        assert!(out.status.success(), "{code}: {said}");
        assert_ne!(
            lang.tr(english),
            english,
            "{code} translates the stub's words"
        );
        assert!(
            said.contains(lang.tr(english)),
            "{code}: the stub's translated words in {said}"
        );
        let section = lang.title("The recursive template");
        assert!(said.contains(section), "{code}: `{section}` in {said}");
        for english in [english, ", section ", "(book: "] {
            assert!(
                !said.contains(english),
                "{code}: English `{english}` in {said}"
            );
        }
    }
}
