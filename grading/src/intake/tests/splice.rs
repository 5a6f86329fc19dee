//! What the splice takes and where it puts it: the pristine text back
//! byte for byte when nothing is written, the learner's bodies in place,
//! given items and files ignored (and noted), and the refusals that guard
//! given code (a changed signature, a new trait impl or method on a given
//! type, a helper that would shadow a given name).

use super::*;

#[test]
fn the_untouched_stubs_come_back_byte_for_byte() {
    let i = assert_accepted(LIB);
    assert_eq!(i.files, chapter());
    assert!(i.notes.is_empty(), "{:?}", i.notes);
}

#[test]
fn a_solved_file_is_spliced_into_the_pristine_text() {
    let src = solved("vec![n]");
    let i = assert_accepted(&src);
    assert_eq!(lib_of(&i), src);
}

#[test]
fn a_parameter_made_mut_keeps_the_learners_signature() {
    let src = solved("n += 1; vec![n]").replace("solve(n: usize", "solve(mut n: usize");
    let i = assert_accepted(&src);
    assert!(lib_of(&i).contains("pub fn solve(mut n: usize, board: &Board)"));
}

#[test]
fn a_changed_signature_is_refused() {
    assert_refused(
        &solved("vec![]").replace("solve(n: usize", "solve(n: u64"),
        "signature",
    );
    assert_refused(
        &solved("vec![]").replace("board: &Board", "board: &mut Board"),
        "signature",
    );
    assert_refused(
        &solved("vec![]").replace("fn solve(", "fn solve(#[cfg(any())] "),
        "signature",
    );
}

#[test]
fn a_missing_stub_keeps_its_todo_and_is_noted() {
    let src = solved("vec![n]").replace(
        "    fn step(&mut self) -> bool {\n        self.n > 0\n    }\n",
        "",
    );
    let i = assert_accepted(&src);
    assert!(lib_of(&i).contains("todo!(\"step\")"));
    assert!(
        i.notes
            .iter()
            .any(|n| n.contains("`Solutions::step` not found"))
    );
}

#[test]
fn a_changed_given_impl_is_ignored_and_the_pristine_one_is_built() {
    let src = solved("vec![n]").replace(
        "self.cells.len() == other.cells.len() && self.cells == other.cells",
        "true",
    );
    let i = assert_accepted(&src);
    assert!(
        lib_of(&i).contains("self.cells.len() == other.cells.len() && self.cells == other.cells")
    );
    assert!(i.notes.iter().any(|n| n.contains("`Board::eq` is given")));
    let derive = solved("vec![n]").replace(
        "#[derive(Clone, Debug)]",
        "#[derive(Clone, Debug, PartialOrd)]",
    );
    let i = assert_accepted(&derive);
    assert!(!lib_of(&i).contains("PartialOrd"));
}

#[test]
fn a_changed_binary_and_a_file_outside_the_chapter_are_ignored() {
    let lib = solved("vec![n]");
    let i = take_files(
        &[
            ("lib.rs", lib.as_bytes()),
            (
                "main.rs",
                b"fn main() { std::fs::remove_dir_all(\"/\").ok(); }",
            ),
            ("extra.rs", b"pub fn x() {}"),
        ],
        &[],
    );
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    assert_eq!(i.files[Path::new("main.rs")], MAIN);
    assert!(!i.files.contains_key(Path::new("extra.rs")));
    assert!(
        i.notes
            .iter()
            .any(|n| n.contains("`main.rs`: has no function to write"))
    );
    assert!(i.notes.iter().any(|n| n.contains("ignored `extra.rs`")));
}

#[test]
fn a_new_trait_impl_for_a_given_type_is_refused_at_any_depth() {
    assert_refused(
        &with(
            "impl PartialOrd for Board { fn partial_cmp(&self, _: &Self) -> Option<std::cmp::Ordering> { None } }",
        ),
        "trait_impl",
    );
    assert_refused(
        &solved("impl Default for Board { fn default() -> Self { todo!() } } vec![]"),
        "trait_impl",
    );
    assert_refused(
        &with("type Mine = Board;\nimpl Eq for Mine {}"),
        "trait_impl",
    );
    assert_refused(
        &with("struct Mine;\nfn h() { use crate::Board as Mine; impl Eq for Mine {} }"),
        "trait_impl",
    );
}

#[test]
fn a_trait_impl_for_the_learners_own_type_is_accepted() {
    let i = assert_accepted(&with(
        "#[derive(Debug, Clone, Copy, PartialEq, Eq)]\nstruct Frame {\n    at: usize,\n}\n\nimpl PartialOrd for Frame {\n    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {\n        self.at.partial_cmp(&o.at)\n    }\n}\n\nimpl Frame {\n    pub fn new() -> Self {\n        Frame { at: 0 }\n    }\n}",
    ));
    assert!(lib_of(&i).contains("impl PartialOrd for Frame"));
}

#[test]
fn a_method_added_to_a_given_trait_impl_is_refused() {
    let src = solved("vec![n]").replace(
        "type Item = usize;",
        "type Item = usize;\n\n    fn count(self) -> usize {\n        92\n    }",
    );
    assert_refused(&src, "given_impl");
}

#[test]
fn a_private_helper_method_on_a_given_type_is_spliced_into_its_impl() {
    let src = solved("vec![n]").replace(
        "    fn step(&mut self)",
        "    fn advance_by_one(&mut self) {\n        self.n -= 1;\n    }\n\n    fn step(&mut self)",
    );
    let i = assert_accepted(&src);
    let lib = lib_of(&i);
    let helper = lib.find("fn advance_by_one").unwrap_or(usize::MAX);
    let iterator = lib.find("impl Iterator").unwrap_or(0);
    assert!(
        helper < iterator,
        "the helper sits in `impl Solutions`:\n{lib}"
    );
}

#[test]
fn a_new_method_named_like_one_the_given_code_calls_is_refused() {
    assert_refused(
        &with("impl Board { fn len(&self) -> usize { 0 } }"),
        "method_name",
    );
    assert_refused(
        &with("trait Cheat { fn len(&self) -> usize { 0 } }\nimpl<T> Cheat for T {}"),
        "method_name",
    );
    assert_refused(
        &with("impl Solutions { pub fn count(self) -> usize { 92 } }"),
        "pub",
    );
}

#[test]
fn a_pub_helper_is_refused_and_a_crate_visible_one_is_not() {
    assert_refused(&with("pub fn helper() -> usize { 1 }"), "pub");
    assert_refused(&with("fn h() { pub struct Inner; }"), "pub");
    assert_accepted(&with(
        "pub(crate) fn helper() -> usize { 1 }\nfn other() {}\nconst LIMIT: usize = 3;\nstatic TABLE: [u8; 2] = [1, 2];\ntype Pair = (usize, usize);\nenum Step { Up, Down }",
    ));
}

/// The fixture chapter with a `pub use` of its own, as a stub may give
/// one (chapter 0 re-exporting `islands::count_islands`), and the learner's
/// `lib.rs` taken against it.
fn take_with_given_pub_use(lib: &str) -> ChapterIntake {
    const GIVEN: &str = "\npub use std::collections::BTreeMap as Given;\n";
    let mut pristine = chapter();
    pristine.insert(PathBuf::from("lib.rs"), format!("{LIB}{GIVEN}"));
    let submitted = BTreeMap::from([(PathBuf::from("lib.rs"), lib.as_bytes().to_vec())]);
    take(&pristine, &submitted, &stubs(), &[], &[])
}

#[test]
fn a_pub_use_the_stub_itself_gives_is_kept_as_given_and_not_refused() {
    let lib = format!(
        "{}\npub use std::collections::BTreeMap as Given;\n",
        solved("vec![n]")
    );
    let i = take_with_given_pub_use(&lib);
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    // Built once, from the pristine line: the learner's copy adds nothing.
    assert_eq!(lib_of(&i).matches("pub use").count(), 1, "{}", lib_of(&i));
    assert!(lib_of(&i).contains("vec![n]"));
}

#[test]
fn a_pub_use_of_what_the_stub_imports_privately_is_noted_and_exports_nothing() {
    // The fixture's stub has `use std::fmt;`: the learner's `pub` is dropped.
    let i = assert_accepted(&with("").replacen("use std::fmt;", "pub use std::fmt;", 1));
    assert!(!lib_of(&i).contains("pub use"), "{}", lib_of(&i));
    assert!(
        i.notes
            .iter()
            .any(|n| n.contains("`pub use std::fmt`: the stub imports it without `pub`")),
        "{:?}",
        i.notes
    );
}

#[test]
fn a_learners_own_pub_use_is_built_without_pub_and_noted() {
    let i = assert_accepted(&with("pub use std::collections::HashMap;"));
    assert!(
        lib_of(&i).contains("\nuse std::collections::HashMap;\n"),
        "{}",
        lib_of(&i)
    );
    assert!(!lib_of(&i).contains("pub use"), "{}", lib_of(&i));
    assert!(
        i.notes.iter().any(|n| n.contains(
            "`pub use std::collections::HashMap`: a chapter exports only what its stub exports; imported without `pub`"
        )),
        "{:?}",
        i.notes
    );
    // A crate-visible one is no export: kept as written, nothing noted.
    let i = assert_accepted(&with("pub(crate) use std::collections::HashMap;"));
    assert!(
        lib_of(&i).contains("pub(crate) use std::collections::HashMap;"),
        "{}",
        lib_of(&i)
    );
    assert!(
        i.notes.iter().all(|n| !n.contains("pub use")),
        "{:?}",
        i.notes
    );
    // Still checked as any `use`: a path it may not import is refused.
    assert_refused(&with("pub use std::process::Command;"), "std::process");
}

#[test]
fn a_pub_use_beside_a_given_one_builds_the_given_line_and_the_new_leaf_without_pub() {
    let lib = format!(
        "{}\npub use std::collections::BTreeMap as Given;\npub use std::collections::HashMap;\n",
        solved("vec![n]")
    );
    let i = take_with_given_pub_use(&lib);
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    let built = lib_of(&i);
    assert_eq!(built.matches("pub use").count(), 1, "{built}");
    assert!(
        built.contains("pub use std::collections::BTreeMap as Given;"),
        "{built}"
    );
    assert!(
        built.contains("\nuse std::collections::HashMap;\n"),
        "{built}"
    );
    let grouped = format!(
        "{}\npub use std::collections::{{BTreeMap as Given, HashSet}};\n",
        solved("vec![n]")
    );
    let i = take_with_given_pub_use(&grouped);
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    let built = lib_of(&i);
    assert_eq!(built.matches("pub use").count(), 1, "{built}");
    assert!(
        built.contains("\nuse std::collections::HashSet;\n"),
        "{built}"
    );
}

#[test]
fn a_helper_that_shadows_a_name_the_given_code_uses_is_refused() {
    assert_refused(&with("struct Vec;"), "shadow");
    assert_refused(&with("type Option<T> = Vec<T>;"), "shadow");
    assert_refused(&with("use crate::Board as u8;"), "shadow");
    assert_refused(&with("trait Iterator {}"), "shadow");
    assert_refused(&with("use std::vec::Vec as Option;"), "shadow");
    assert_refused(&with("const n: usize = 0;"), "shadow");
    // A local binding hides a function, so a helper may take a name the
    // given code only binds (`other` is a parameter of `eq`).
    assert_accepted(&with("fn other() {}"));
}

#[test]
fn chapter_zero_with_the_stubs_own_pub_use_of_count_islands_is_taken() {
    // The line an instructor may give in chapter 0's stub, handed back
    // unchanged by the learner: the learner must not be refused for it.
    const LINE: &str = "\npub use islands::count_islands;\n";
    let mut intro = intro();
    let lib = PathBuf::from("lib.rs");
    let stub = intro.pristine[&lib].clone() + LINE;
    intro.pristine.insert(lib.clone(), stub);
    let learner = intro.solution[&lib].clone() + LINE;
    let i = take_real(&intro, "lib.rs", &learner, &[]);
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    assert_eq!(
        i.files[&lib]
            .matches("pub use islands::count_islands;")
            .count(),
        1
    );
    // An export of the learner's own is built as a private import.
    let added = format!("{learner}pub use islands::count_islands as also_exported;\n");
    let i = take_real(&intro, "lib.rs", &added, &[]);
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    assert!(
        i.files[&lib].contains("\nuse islands::count_islands as also_exported;\n"),
        "{}",
        i.files[&lib]
    );
}

#[test]
fn chapter_zero_with_a_learners_own_pub_use_of_count_islands_is_taken_without_the_pub() {
    // /tmp/trial7's ben: the reference of chapter 0 with the learner's own
    // re-export added (the stub has none). It scored 0/37, refused whole.
    let intro = intro();
    let lib = PathBuf::from("lib.rs");
    let learner = intro.solution[&lib].clone() + "\npub use islands::count_islands;\n";
    let i = take_real(&intro, "lib.rs", &learner, &[]);
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    assert!(
        !i.files[&lib].contains("pub use islands"),
        "{}",
        i.files[&lib]
    );
    assert!(
        i.files[&lib].contains("\nuse islands::count_islands;\n"),
        "{}",
        i.files[&lib]
    );
    assert!(
        i.notes
            .iter()
            .any(|n| n.contains("`pub use islands::count_islands`: a chapter exports only")),
        "{:?}",
        i.notes
    );
}
