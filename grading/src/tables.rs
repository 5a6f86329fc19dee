//! The table note: a learner's code that holds the tests' answers as
//! literals, pointed out to the instructor (a note, never a grade).
//!
//! The problem: a learner can type the public suite's cases and answers
//! into a `match` and score without searching anything. The hidden suites
//! take those points back; this note says why the learner lost them, and
//! finds the tables the hidden suites cannot (an exercise whose whole input
//! domain is a few small `n`, like the n-queens counts). The state is one
//! set of "answer literals" per chapter ([`Answers`]): the integers above
//! 16, the strings that are not words or prose, and the lists of numbers
//! written in the chapter's public suite, its snapshots and its hidden
//! suite, minus every literal that also occurs in the chapter's pristine
//! stubs or its reference's code (so a constant the given code or the
//! reference itself uses never counts; the book's recorder and the
//! reference's unit tests, which hold answers, are not its code). Cost: one scan of every character of those
//! files per chapter, and one scan of each learner's graded source.
//!
//! A learner's code looks like a table when it holds at least
//! [`MANY`] distinct answer literals, or any list of answers (three numbers
//! or more, or two with one above 16): an honest search needs neither.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use workbook_core::info::Chapter;

/// Distinct answer literals (numbers and strings) that make a table.
pub const MANY: usize = 3;
/// Numbers up to this are everywhere in honest code (loop bounds, sizes).
const SMALL: u128 = 16;
/// Lines and examples a note lists at most.
const SHOWN: usize = 8;

/// One literal as the scanner sees it, normalised so that `1_000u64`,
/// `1000` and `"1000"` are the same number and `vec![1, 2]` and a
/// snapshot's `[\n 1,\n 2,\n]` the same list.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Atom {
    /// An integer, as its decimal digits (with a leading `-` if negative).
    Number(String),
    /// A string literal's text, escapes as written.
    Text(String),
    /// A bracketed list of integers only.
    List(Vec<String>),
}

impl Atom {
    /// Whether this literal can only be an answer, not a constant that
    /// honest code would write anyway.
    fn telling(&self) -> bool {
        match self {
            Atom::Number(n) => !small(n),
            // Prose and identifiers (`"reference"`) are not answers;
            // boards (`".Q.."`) and puzzles (`"53..7...."`) are.
            Atom::Text(t) => {
                t.chars().count() >= 4
                    && !t.contains(' ')
                    && !t
                        .chars()
                        .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
            }
            Atom::List(items) => items.len() >= 3 || items.iter().any(|n| !small(n)),
        }
    }

    /// How a note shows it.
    fn shown(&self) -> String {
        match self {
            Atom::Number(n) => n.clone(),
            Atom::Text(t) => format!("{:?}", short(t)),
            Atom::List(items) => format!("[{}]", short(&items.join(", "))),
        }
    }
}

/// Whether a normalised number is in `-SMALL..=SMALL`.
fn small(n: &str) -> bool {
    n.trim_start_matches('-')
        .parse::<u128>()
        .is_ok_and(|v| v <= SMALL)
}

/// `text` cut to 24 characters, with an ellipsis when cut.
fn short(text: &str) -> String {
    match text.char_indices().nth(24) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// A chapter's answer literals: what its tests write and its given code
/// and reference do not.
#[derive(Debug, Clone, Default)]
pub struct Answers {
    known: BTreeSet<Atom>,
}

impl Answers {
    /// The answers of `chapter`: the literals of `tests/<slug>.rs`, of its
    /// snapshots `tests/snapshots/<slug>__*.snap` and of the hidden suite
    /// `<hidden>/<slug>.rs` when there is one, minus those of the pristine
    /// stubs (`stubs`, by path under `src/`: the grader's derived ones, not
    /// the checkout's `exercises/`, which an instructor may have solved) and
    /// of the reference (`solutions/NN_slug/src`). Files that cannot be read
    /// add nothing.
    pub fn of(
        chapter: &Chapter,
        hidden: Option<&Path>,
        stubs: &BTreeMap<PathBuf, String>,
    ) -> Answers {
        let mut suites = vec![chapter.suite()];
        if let Some(h) = hidden {
            suites.push(chapter.hidden_suite_in(h));
        }
        if let Ok(entries) = std::fs::read_dir(chapter.snapshot_dir()) {
            suites.extend(
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| {
                        p.file_name()
                            .is_some_and(|n| chapter.owns_snapshot(&n.to_string_lossy()))
                    }),
            );
        }
        let mut given = Vec::new();
        rust_files(&chapter.reference_dir().join("src"), &mut given);
        // The book's recorder writes the chapter's answers into its quizzes
        // (92 boards, 304 tours): it is no code a learner writes.
        given.retain(|p| p.file_name().is_none_or(|n| n != "book.rs"));
        let read = |paths: &[PathBuf]| -> Vec<String> {
            paths
                .iter()
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .collect()
        };
        let suites = read(&suites);
        // Likewise a reference's own unit tests, which close its files.
        let given: Vec<String> = read(&given)
            .into_iter()
            .chain(stubs.values().cloned())
            .map(|text| match text.find("\n#[cfg(test)]") {
                Some(cut) => text[..cut].to_string(),
                None => text,
            })
            .collect();
        Answers::from_texts(
            &suites.iter().map(String::as_str).collect::<Vec<_>>(),
            &given.iter().map(String::as_str).collect::<Vec<_>>(),
        )
    }

    /// The telling literals of `suites` that none of `given` contains.
    pub fn from_texts(suites: &[&str], given: &[&str]) -> Answers {
        let given: BTreeSet<Atom> = given.iter().flat_map(|t| scan(t)).map(|(a, _)| a).collect();
        let known = suites
            .iter()
            .flat_map(|t| scan(t))
            .map(|(a, _)| a)
            .filter(|a| a.telling() && !given.contains(a))
            .collect();
        Answers { known }
    }
}

/// Every `.rs` file under `dir`, into `out`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The note for a learner's chapter whose graded source (`learner`: each
/// file under `src/` as graded, the learner's bodies and helpers spliced
/// into the pristine stubs) holds the tests' answers as literals; `None`
/// when it does not look like a table.
pub fn table_note(learner: &BTreeMap<PathBuf, String>, known: &Answers) -> Option<String> {
    // Each matched literal once, with every line it is written on.
    let mut found: BTreeMap<&Atom, Vec<(&Path, usize)>> = BTreeMap::new();
    let scanned: Vec<(&Path, Vec<(Atom, usize)>)> = learner
        .iter()
        .map(|(path, text)| (path.as_path(), scan(text)))
        .collect();
    for (path, atoms) in &scanned {
        for (atom, line) in atoms {
            if let Some(k) = known.known.get(atom) {
                found.entry(k).or_default().push((path, *line));
            }
        }
    }
    let lists = found.keys().any(|a| matches!(a, Atom::List(_)));
    if found.len() < MANY && !lists {
        return None;
    }
    let mut places: BTreeMap<&Path, BTreeSet<usize>> = BTreeMap::new();
    for (path, line) in found.values().flatten() {
        places.entry(path).or_default().insert(*line);
    }
    let lines: usize = places.values().map(BTreeSet::len).sum();
    let mut shown = 0;
    let mut wheres = Vec::new();
    for (path, set) in &places {
        let take: Vec<String> = set
            .iter()
            .take(SHOWN.saturating_sub(shown))
            .map(usize::to_string)
            .collect();
        if take.is_empty() {
            break;
        }
        shown += take.len();
        let word = if take.len() == 1 { "line" } else { "lines" };
        wheres.push(format!("src/{} {word} {}", path.display(), take.join(", ")));
    }
    let more = if lines > shown { ", ..." } else { "" };
    // Lists first: a list of answers is the plainest evidence.
    let mut examples: Vec<&Atom> = found.keys().copied().collect();
    examples.sort_by_key(|a| !matches!(a, Atom::List(_)));
    let examples: Vec<String> = examples.iter().take(3).map(|a| a.shown()).collect();
    Some(format!(
        "contains {} literal answers of the chapter's test cases ({}{more}; e.g. {}): a table, not a search? (a note for the instructor, not part of the grade)",
        found.len(),
        wheres.join("; "),
        examples.join(", "),
    ))
}

/// A bracket being scanned: the numbers inside it, and whether anything
/// but numbers and commas was.
struct Frame {
    items: Vec<String>,
    pure: bool,
    line: usize,
}

/// Every literal in `text` with its line (1-based): integers, strings and
/// bracketed lists of integers. Skips comments, character literals and
/// the digits inside identifiers (`u32`, `x2`); floats are not literals
/// here. Works on Rust and on snapshot text alike: an unknown character
/// only ends a list.
fn scan(text: &str) -> Vec<(Atom, usize)> {
    let s: Vec<char> = text.chars().collect();
    let (mut i, mut line) = (0, 1);
    let mut out = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    // The last character outside literals and blanks, to tell `-1` from
    // `a - 1`.
    let mut last = ' ';
    let impure = |frames: &mut Vec<Frame>| {
        if let Some(f) = frames.last_mut() {
            f.pure = false;
        }
    };
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied().unwrap_or('\0');
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '/' && next == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && next == '*' {
            i += 2;
            while i < s.len() && !(s[i] == '*' && s.get(i + 1) == Some(&'/')) {
                line += usize::from(s[i] == '\n');
                i += 1;
            }
            i += 2;
            continue;
        }
        if c == '"' || (c == 'r' && (next == '"' || next == '#') && raw_start(&s, i + 1)) {
            let start_line = line;
            let (body, end) = string(&s, i, &mut line);
            i = end;
            impure(&mut frames);
            let atom = if !body.is_empty() && body.chars().all(|d| d.is_ascii_digit()) {
                Atom::Number(normal(&body, false))
            } else {
                Atom::Text(body)
            };
            out.push((atom, start_line));
            last = '"';
            continue;
        }
        if c == '\'' {
            // A character literal ('x', '\n', '\u{41}') or a lifetime ('a).
            if next == '\\' {
                // Past the backslash and the escaped character, which may
                // be a quote itself; then to the closing quote.
                i += 3;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if s.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
            impure(&mut frames);
            last = '\'';
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            impure(&mut frames);
            last = 'a';
            continue;
        }
        if c.is_ascii_digit() {
            let negative = i > 0 && s[i - 1] == '-' && "[(,=:;{|>".contains(last);
            let (number, end) = number(&s, i);
            i = end;
            match number {
                Some(digits) => {
                    let n = normal(&digits, negative);
                    if let Some(f) = frames.last_mut() {
                        f.items.push(n.clone());
                    }
                    out.push((Atom::Number(n), line));
                }
                None => impure(&mut frames),
            }
            last = '0';
            continue;
        }
        match c {
            '[' => {
                impure(&mut frames);
                frames.push(Frame {
                    items: Vec::new(),
                    pure: true,
                    line,
                });
            }
            ']' => {
                if let Some(f) = frames.pop()
                    && f.pure
                    && f.items.len() >= 2
                {
                    out.push((Atom::List(f.items), f.line));
                }
            }
            // A sign belongs to the number after it (see `negative`).
            ',' | '-' => {}
            _ => impure(&mut frames),
        }
        if c != '-' {
            last = c;
        }
        i += 1;
    }
    out
}

/// Whether `s[i..]` (after an `r`) opens a raw string: `#`s then `"`.
fn raw_start(s: &[char], mut i: usize) -> bool {
    while s.get(i) == Some(&'#') {
        i += 1;
    }
    s.get(i) == Some(&'"')
}

/// The string literal at `s[i]` (`"..."` or `r#"..."#`): its text as
/// written and the index after it; counts the newlines it spans.
fn string(s: &[char], mut i: usize, line: &mut usize) -> (String, usize) {
    let mut hashes = 0;
    let raw = s[i] == 'r';
    if raw {
        i += 1;
        while s.get(i) == Some(&'#') {
            hashes += 1;
            i += 1;
        }
    }
    i += 1;
    let mut body = String::new();
    while i < s.len() {
        let c = s[i];
        if c == '\\' && !raw {
            body.push(c);
            if let Some(&e) = s.get(i + 1) {
                body.push(e);
                *line += usize::from(e == '\n');
            }
            i += 2;
            continue;
        }
        if c == '"' && (0..hashes).all(|k| s.get(i + 1 + k) == Some(&'#')) {
            return (body, i + 1 + hashes);
        }
        *line += usize::from(c == '\n');
        body.push(c);
        i += 1;
    }
    (body, i)
}

/// The integer at `s[i]`: its digits (hex, octal and binary converted to
/// decimal when they fit a `u128`) and the index after it with its suffix;
/// `None` for a float.
fn number(s: &[char], mut i: usize) -> (Option<String>, usize) {
    let radix = match (s[i], s.get(i + 1)) {
        ('0', Some('x')) => 16,
        ('0', Some('o')) => 8,
        ('0', Some('b')) => 2,
        _ => 10,
    };
    if radix != 10 {
        i += 2;
    }
    let mut digits = String::new();
    while i < s.len() && (s[i].is_digit(radix) || s[i] == '_') {
        if s[i] != '_' {
            digits.push(s[i]);
        }
        i += 1;
    }
    let mut float = false;
    if radix == 10 && s.get(i) == Some(&'.') && s.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
        float = true;
        i += 1;
        while i < s.len() && (s[i].is_ascii_digit() || s[i] == '_') {
            i += 1;
        }
    }
    // The suffix (`u64`, `usize`, `f64`, an exponent `e3`).
    let suffix_start = i;
    while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
        i += 1;
    }
    let suffix: String = s[suffix_start..i].iter().collect();
    if float || suffix.starts_with('f') || suffix.starts_with('e') || suffix.starts_with('E') {
        return (None, i);
    }
    if radix != 10 {
        return match u128::from_str_radix(&digits, radix) {
            Ok(v) => (Some(v.to_string()), i),
            Err(_) => (None, i),
        };
    }
    (Some(digits), i)
}

/// Decimal digits without leading zeros, signed.
fn normal(digits: &str, negative: bool) -> String {
    let trimmed = digits.trim_start_matches('0');
    let n = if trimmed.is_empty() { "0" } else { trimmed };
    if negative && n != "0" {
        format!("-{n}")
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chapter's stubs as the grader derives them from `solutions/`.
    fn stubs_of(c: &Chapter) -> BTreeMap<PathBuf, String> {
        workbook_core::stubs::generate(c)
            .unwrap()
            .into_iter()
            .map(|f| (f.relative, f.text))
            .collect()
    }

    fn atoms(text: &str) -> Vec<Atom> {
        scan(text).into_iter().map(|(a, _)| a).collect()
    }

    fn num(n: &str) -> Atom {
        Atom::Number(n.into())
    }

    fn list(items: &[&str]) -> Atom {
        Atom::List(items.iter().map(|s| s.to_string()).collect())
    }

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    fn chapter(slug: &str) -> Chapter {
        workbook_core::info::load_chapters(&repo())
            .unwrap()
            .into_iter()
            .find(|c| c.chapter.slug == slug)
            .unwrap()
    }

    /// A learner's files as the grader holds them: path under `src/`.
    fn files(pairs: &[(&str, &str)]) -> BTreeMap<PathBuf, String> {
        pairs
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect()
    }

    #[test]
    fn numbers_are_read_with_their_sign_underscores_suffixes_and_radix() {
        assert_eq!(
            atoms("f(1_000u64, -3, 0x10, 007, a - 4, 2.5, 1e3)"),
            vec![num("1000"), num("-3"), num("16"), num("7"), num("4"),]
        );
    }

    #[test]
    fn comments_identifiers_chars_and_lifetimes_hold_no_literals() {
        let text = "// 1234\n/* 5678 */ fn x2<'a>(c: char) -> u32 { if c == '9' || c == '\\'' { 0 } else { 1 } }";
        assert_eq!(atoms(text), vec![num("0"), num("1")]);
    }

    #[test]
    fn a_string_of_digits_is_the_number_it_spells() {
        assert_eq!(
            atoms(r##"("1001", ".Q..", r#"a"b"#)"##),
            vec![
                num("1001"),
                Atom::Text(".Q..".into()),
                Atom::Text("a\"b".into())
            ]
        );
    }

    #[test]
    fn a_list_in_rust_and_the_same_list_in_a_snapshot_are_one_list() {
        let rust = atoms("vec![vec![1, 3, 6], vec![4, 6]]");
        let snap = atoms("[\n    [\n        1,\n        3,\n        6,\n    ],\n]");
        assert!(rust.contains(&list(&["1", "3", "6"])));
        assert!(rust.contains(&list(&["4", "6"])));
        assert!(snap.contains(&list(&["1", "3", "6"])));
        assert!(
            !rust
                .iter()
                .chain(&snap)
                .any(|a| matches!(a, Atom::List(items) if items.len() > 3)),
            "a list of lists is not a list of numbers"
        );
    }

    #[test]
    fn a_repeat_or_a_list_of_names_is_no_list_of_numbers() {
        let found = atoms("let a = [0; 81]; let b = [x, 1, 2]; let c = vec![n - 1, 2, 3];");
        assert!(
            !found.iter().any(|a| matches!(a, Atom::List(_))),
            "{found:?}"
        );
    }

    #[test]
    fn lines_are_counted_across_comments_and_multiline_strings() {
        let found = scan("a\n/* x\n y */ \"p\nq\" 100\n200");
        assert_eq!(
            found,
            vec![
                (Atom::Text("p\nq".into()), 3),
                (num("100"), 4),
                (num("200"), 5),
            ]
        );
    }

    #[test]
    fn literals_the_given_code_or_the_reference_writes_are_not_answers() {
        let known = Answers::from_texts(&["check(81, 1001, 5);"], &["const CELLS: usize = 81;"]);
        assert_eq!(
            known.known,
            BTreeSet::from([num("1001")]),
            "81 is given, 5 is small"
        );
    }

    #[test]
    fn two_answers_are_a_coincidence_four_are_a_note() {
        let known = Answers::from_texts(&["assert(f(20) == 1001 && f(30) == 4096);"], &[]);
        let two = files(&[("lib.rs", "fn f() -> u64 { 20 + 1001 }")]);
        assert_eq!(table_note(&two, &known), None);
        let four = files(&[(
            "lib.rs",
            "fn f(n: u64) -> u64 {\n match n { 20 => 1001,\n 30 => 4096, _ => 0 } }",
        )]);
        let note = table_note(&four, &known).expect("four answers make a note");
        assert!(note.starts_with("contains 4 literal answers"), "{note}");
        assert!(note.contains("src/lib.rs lines 2, 3"), "{note}");
    }

    #[test]
    fn one_list_of_answers_is_a_note() {
        let known = Answers::from_texts(&["check(&diamond(), 0, vec![0, 1, 3, 2]);"], &[]);
        let learner = files(&[("lib.rs", "fn f() -> Vec<usize> {\n    vec![0, 1, 3, 2]\n}")]);
        let note = table_note(&learner, &known).expect("a list of answers makes a note");
        assert!(
            note.contains("src/lib.rs line 2") && note.contains("[0, 1, 3, 2]"),
            "{note}"
        );
    }

    /// Chapter `folder`'s table learner (`grading/tests/tables/`): the
    /// pristine stubs with each stub body a `match` on the public cases.
    fn table_learner(folder: &str) -> BTreeMap<PathBuf, String> {
        let dir = repo().join("grading/tests/tables").join(folder).join("src");
        let mut out = BTreeMap::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            out.insert(
                PathBuf::from(path.file_name().unwrap()),
                std::fs::read_to_string(&path).unwrap(),
            );
        }
        out
    }

    #[test]
    fn the_table_learners_of_chapters_0_and_1_are_noted() {
        for (slug, folder) in [("intro", "00_intro"), ("apples", "01_apples")] {
            let c = chapter(slug);
            let known = Answers::of(&c, Some(&repo().join("grading/hidden")), &stubs_of(&c));
            let note = table_note(&table_learner(folder), &known);
            let note = note.unwrap_or_else(|| panic!("{slug}'s table learner is not noted"));
            assert!(note.contains("a table, not a search?"), "{note}");
        }
    }

    #[test]
    fn count_tables_no_hidden_test_can_catch_are_noted() {
        // n-queens `count(n)` and the knight's tour counts take only small
        // arguments the public suite checks in full: the note is what
        // points at a table there.
        let queens = files(&[(
            "naive.rs",
            "pub fn count(n: usize) -> u64 {\n    match n { 0 | 1 => 1, 4 => 2, 5 => 10, 6 => 4, 7 => 40, 8 => 92, 9 => 352, 10 => 724, 11 => 2680, 12 => 14200, _ => 0 }\n}",
        )]);
        let knights = files(&[(
            "count.rs",
            "pub fn count_tours_from(n: usize, start: Square) -> u64 {\n    match (n, start) {\n        (1, _) => 1,\n        (5, (0, 0)) | (5, (4, 4)) => 304,\n        (5, (2, 2)) => 64,\n        (5, (0, 2)) => 56,\n        _ => 0,\n    }\n}\npub fn count_open_tours(n: usize) -> u64 {\n    if n == 5 { 1728 } else { u64::from(n == 1) }\n}",
        )]);
        let hidden = repo().join("grading/hidden");
        for (slug, learner) in [("n_queens", queens), ("knights_tour", knights)] {
            let known = Answers::of(&chapter(slug), Some(&hidden), &stubs_of(&chapter(slug)));
            let note = table_note(&learner, &known);
            assert!(note.is_some(), "{slug}'s table of counts is not noted");
        }
    }

    #[test]
    fn the_reference_as_a_learner_is_not_noted_in_any_chapter() {
        let root = repo();
        let hidden = root.join("grading/hidden");
        for c in workbook_core::info::load_chapters(&root).unwrap() {
            let tmp = tempfile::tempdir().unwrap();
            workbook_core::stubs::write_learner_reference(&c, tmp.path()).unwrap();
            let mut learner = BTreeMap::new();
            let mut paths = Vec::new();
            rust_files(tmp.path(), &mut paths);
            for p in paths {
                let rel = p.strip_prefix(tmp.path()).unwrap().to_path_buf();
                learner.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
            assert!(
                !learner.is_empty(),
                "{}: no reference files",
                c.chapter.slug
            );
            let known = Answers::of(&c, Some(&hidden), &stubs_of(&c));
            assert!(
                !known.known.is_empty(),
                "{}: the tests hold no answers?",
                c.chapter.slug
            );
            assert_eq!(
                table_note(&learner, &known),
                None,
                "{}'s reference, submitted as a learner's code, is noted as a table",
                c.chapter.slug
            );
        }
    }
}
