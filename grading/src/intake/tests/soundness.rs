//! The stopgap against rustc soundness bugs: each construction the known
//! exploits need is refused where the learner writes it, under its own
//! rule and on its own line, and taken when the config relaxes that rule;
//! the given signatures and the ordinary code around them stay taken.

use super::*;

/// The 1-based line of the first occurrence of `needle` in `src`.
#[track_caller]
fn line_of(src: &str, needle: &str) -> usize {
    let at = src
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is not in the source"));
    1 + src[..at].matches('\n').count()
}

/// `src` is refused under `rule` on the line of `needle`, and taken once
/// `allow` (which includes `rule`) is relaxed.
#[track_caller]
fn refused_then_relaxed(src: &str, rule: &str, needle: &str, allow: &[&str]) {
    let i = take_lib(src);
    let lines: Vec<usize> = i
        .refused
        .iter()
        .filter(|r| r.rule == rule)
        .map(|r| r.line)
        .collect();
    assert!(
        lines.contains(&line_of(src, needle)),
        "expected `{rule}` on the line of `{needle}`:\n{src}\ngot {:?}",
        i.refused
    );
    let reason = &i
        .refused
        .iter()
        .find(|r| r.rule == rule)
        .map(|r| r.reason.clone());
    assert!(
        reason.as_deref().is_some_and(|r| r.contains("25860")),
        "the reason names the bug: {reason:?}"
    );
    let relaxed = take_files(&[("lib.rs", src.as_bytes())], allow);
    assert!(
        relaxed.refused.is_empty(),
        "relaxing {allow:?} takes:\n{src}\ngot {:?}",
        relaxed.refused
    );
}

#[test]
fn the_new_rules_are_relaxable_and_the_reserved_prefix_is_not() {
    for rule in [
        "lifetime",
        "higher_ranked",
        "fn_pointer",
        "ptr_cast",
        "dyn_binding",
    ] {
        assert!(
            RULES.contains(&rule) && !FIXED_RULES.contains(&rule),
            "{rule}"
        );
    }
    assert!(FIXED_RULES.contains(&"reserved"));
}

#[test]
fn a_named_lifetime_is_refused_in_a_helper_and_in_a_body() {
    let helper = "fn longer<'a>(a: &'a [u8], b: &'a [u8]) -> &'a [u8] {\n    if a.len() > b.len() { a } else { b }\n}";
    refused_then_relaxed(&with(helper), "lifetime", "fn longer", &["lifetime"]);
    let view = "struct View<'v> {\n    cells: &'v [u8],\n}";
    refused_then_relaxed(&with(view), "lifetime", "struct View", &["lifetime"]);
    let bound = "fn keep<T: 'static + Clone>(t: &T) -> T {\n    t.clone()\n}\ntrait Named<'n> {}";
    refused_then_relaxed(&with(bound), "lifetime", "trait Named", &["lifetime"]);
    let body = solved(
        "let first: Option<&'b u8> = board.cells.first();\n    vec![first.map_or(n, |c| usize::from(*c))]",
    );
    refused_then_relaxed(&body, "lifetime", "let first", &["lifetime"]);
}

#[test]
fn static_and_anonymous_lifetimes_and_labels_are_taken() {
    assert_accepted(&with(
        "const NAMES: &[&'static str] = &[\"up\", \"down\"];\n\nstruct Shown;\n\nimpl std::fmt::Display for Shown {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        write!(f, \"{}\", NAMES[0])\n    }\n}",
    ));
    assert_accepted(&solved(
        "let mut out = vec![];\n    'rows: for r in 0..n {\n        for c in 0..n {\n            if c > r {\n                continue 'rows;\n            }\n            if r * c > 9 {\n                break 'rows;\n            }\n            out.push(r * c);\n        }\n    }\n    out",
    ));
}

#[test]
fn a_higher_ranked_binder_is_refused() {
    let src =
        with("fn apply<F>(f: F) -> u8\nwhere\n    F: for<'x> Fn(&'x u8) -> u8,\n{\n    f(&1)\n}");
    refused_then_relaxed(
        &src,
        "higher_ranked",
        "F: for",
        &["higher_ranked", "lifetime"],
    );
    let i = take_files(&[("lib.rs", src.as_bytes())], &["lifetime"]);
    assert_eq!(rules(&i), ["higher_ranked"], "{:?}", i.refused);
    let empty = with("fn apply(f: &dyn for<> Fn(u8) -> u8) -> u8 {\n    f(1)\n}");
    refused_then_relaxed(&empty, "higher_ranked", "fn apply", &["higher_ranked"]);
}

#[test]
fn a_function_pointer_type_is_refused_wherever_it_is_written() {
    let cases = [
        (
            solved("let step: fn(usize) -> usize = |x| x + 1;\n    vec![step(n)]"),
            "let step",
        ),
        (
            with("struct Table {\n    step: fn(u8) -> u8,\n}"),
            "step: fn",
        ),
        (with("type Step = fn(&Board) -> usize;"), "type Step"),
        (
            with("fn run(f: fn(u8) -> u8) -> u8 {\n    f(1)\n}"),
            "fn run",
        ),
        (
            solved("let _ = solve as fn(usize, &Board) -> Vec<usize>;\n    vec![]"),
            "let _",
        ),
    ];
    for (src, needle) in cases {
        refused_then_relaxed(&src, "fn_pointer", needle, &["fn_pointer"]);
    }
}

#[test]
fn closures_fn_traits_and_functions_passed_by_name_are_taken() {
    assert_accepted(&with(
        "fn twice(k: impl Fn(usize) -> usize, x: usize) -> usize {\n    k(k(x))\n}\n\nfn boxed() -> Box<dyn Fn(usize) -> usize> {\n    Box::new(|x| x + 1)\n}\n\nfn counts(v: &[u32]) -> Vec<u32> {\n    v.iter().copied().map(u32::count_ones).collect()\n}\n\nfn add_one(x: usize) -> usize {\n    x + 1\n}\n\nfn all(x: usize) -> usize {\n    twice(add_one, x) + boxed()(x) + twice(|y| y * 2, x)\n}",
    ));
}

#[test]
fn a_cast_of_a_function_or_pointer_to_an_integer_is_refused() {
    let helper = "fn helper() -> u8 {\n    1\n}";
    let cases = [
        (solved("let at = solve as usize;\n    vec![at]"), "let at"),
        (solved("let at = (solve) as _;\n    vec![at]"), "let at"),
        (
            with(&format!(
                "{helper}\nfn address() -> u64 {{\n    helper as u64\n}}"
            )),
            "helper as",
        ),
        (
            solved("let at = Solutions::step as usize;\n    vec![at]"),
            "let at",
        ),
        (
            solved("let at = std::mem::drop::<u8> as usize;\n    vec![at]"),
            "let at",
        ),
        (solved("let at = &n as *const usize;\n    vec![]"), "let at"),
        (
            solved("let at = &n as *const usize as usize;\n    vec![at]"),
            "let at",
        ),
        (
            solved("let at = board.cells.as_ptr() as usize;\n    vec![at]"),
            "let at",
        ),
        (
            solved("let at = vec![n].as_mut_ptr() as usize;\n    vec![at]"),
            "let at",
        ),
        (
            solved("println!(\"{}\", solve as usize);\n    vec![]"),
            "println",
        ),
    ];
    for (src, needle) in cases {
        refused_then_relaxed(&src, "ptr_cast", needle, &["ptr_cast"]);
    }
}

#[test]
fn numeric_casts_and_locals_named_like_functions_are_taken() {
    assert_accepted(&solved(
        "let solve = n * 2;\n    let cells = board.cells.len() as u32;\n    let top = u8::MAX as usize + (solve as usize) + (cells as usize);\n    vec![top, n as u64 as usize, 'a' as usize, true as usize]",
    ));
    assert_accepted(&with(
        "enum Step {\n    Up,\n    Down,\n}\n\nfn code(solve: u8, s: Step) -> u64 {\n    let by = |solve: u8| solve as u64;\n    match s {\n        Step::Up => solve as u64 + Step::Down as u64,\n        Step::Down => by(solve),\n    }\n}",
    ));
}

#[test]
fn a_given_signature_keeps_its_named_lifetimes_when_mut_is_added() {
    let pristine = BTreeMap::from([(
        PathBuf::from("lib.rs"),
        "/// The first cell.\npub fn first<'a>(cells: &'a [u8]) -> Option<&'a u8> {\n    todo!(\"first\")\n}\n".to_string(),
    )]);
    let take_first = |src: &str| {
        let submitted = BTreeMap::from([(PathBuf::from("lib.rs"), src.as_bytes().to_vec())]);
        take(&pristine, &submitted, &["first".into()], &[], &[])
    };
    let i = take_first(
        "/// The first cell.\npub fn first<'a>(mut cells: &'a [u8]) -> Option<&'a u8> {\n    cells = &cells[..];\n    cells.first()\n}\n",
    );
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    assert!(i.files[Path::new("lib.rs")].contains("mut cells"));
    // The body is the learner's: a lifetime named there is refused.
    let i = take_first(
        "pub fn first<'a>(cells: &'a [u8]) -> Option<&'a u8> {\n    let c: Option<&'a u8> = cells.first();\n    c\n}\n",
    );
    assert_eq!(rules(&i), ["lifetime"], "{:?}", i.refused);
    assert_eq!(i.refused[0].line, 2);
}

#[test]
fn identifiers_with_the_graders_prefix_are_refused_in_any_case() {
    for (src, needle) in [
        (with("fn __wb_helper() {}"), "fn __wb"),
        (solved("let __WB_n = n;\n    vec![__WB_n]"), "let __WB"),
        (
            solved("'__wb: loop {\n        break '__wb;\n    }\n    vec![]"),
            "'__wb: loop",
        ),
        (
            with("use std::collections::HashMap as __wbMap;"),
            "HashMap as",
        ),
    ] {
        let i = take_files(&[("lib.rs", src.as_bytes())], &["reserved"]);
        let hit = i
            .refused
            .iter()
            .find(|r| r.rule == "reserved")
            .unwrap_or_else(|| panic!("not refused:\n{src}\n{:?}", i.refused));
        assert_eq!(hit.line, line_of(&src, needle), "{src}");
    }
    assert_accepted(&with("fn wb_helper() {}\nconst _WB: u8 = 0;"));
}

#[test]
fn every_chapters_reference_is_taken_with_the_stopgap_on() {
    // Measured on 2026-11-23: the six references, handed in as
    // `grader learner-reference` writes them, are taken whole with
    // every rule of the stopgap in force (no allow list).
    for chapter in real_chapters() {
        let submitted = chapter
            .solution
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
            .collect();
        let i = take(
            &chapter.pristine,
            &submitted,
            &chapter.stubs,
            &[],
            &chapter.crates,
        );
        assert!(i.refused.is_empty(), "{}: {:?}", chapter.folder, i.refused);
    }
}

#[test]
fn the_57893_transmute_is_refused_at_its_trait_object_and_dyn_fn_stays_taken() {
    // rust-lang/rust#57893's transmute as a learner's helpers: no
    // `unsafe`, no named lifetime, no `for<>`, no `fn` type, no cast.
    let exploit = "trait Object<U> {\n    type Output;\n}\n\nimpl<T: ?Sized, U> Object<U> for T {\n    type Output = U;\n}\n\nfn foo<T: ?Sized, U>(x: <T as Object<U>>::Output) -> U {\n    x\n}\n\nfn transmute<T, U>(x: T) -> U {\n    foo::<dyn Object<U, Output = T>, U>(x)\n}";
    let src = with(exploit);
    let i = take_lib(&src);
    assert_eq!(rules(&i), ["dyn_binding"], "{:?}", i.refused);
    let r = &i.refused[0];
    assert_eq!(r.line, line_of(&src, "foo::<dyn"), "{r:?}");
    assert!(
        r.reason.contains("57893") && r.reason.contains("Output"),
        "{r:?}"
    );
    assert!(
        take_files(&[("lib.rs", src.as_bytes())], &["dyn_binding"])
            .refused
            .is_empty(),
        "relaxing dyn_binding takes it"
    );
    let in_a_type = with("type Boxed = Box<dyn Iterator<Item = usize>>;");
    let i = take_lib(&in_a_type);
    assert_eq!(rules(&i), ["dyn_binding"], "{:?}", i.refused);
    assert_accepted(&with(
        "fn boxed() -> Box<dyn Fn(usize) -> usize> {\n    Box::new(|x| x + 1)\n}\n\nfn each(v: &[usize]) -> impl Iterator<Item = usize> + '_ {\n    v.iter().copied()\n}",
    ));
}

#[test]
fn the_cve_rs_lifetime_expansion_is_refused_on_three_counts() {
    // cve-rs's `lifetime_expansion`, as a learner's helpers: each of its
    // three constructions is refused on its own, so relaxing one rule
    // (to attack the sandbox behind it) leaves the other two standing.
    let exploit = "static UNIT: &&() = &&();\n\nfn translate<'a, 'b, T>(_: &'a &'b (), v: &'b T) -> &'a T {\n    v\n}\n\nfn expand<'a, 'b, T>(x: &'a T) -> &'b T {\n    let f: for<'x> fn(_, &'x T) -> &'b T = translate;\n    f(UNIT, x)\n}";
    let src = with(exploit);
    let i = take_lib(&src);
    for (rule, needle) in [
        ("lifetime", "fn translate"),
        ("higher_ranked", "let f"),
        ("fn_pointer", "let f"),
    ] {
        assert!(
            i.refused
                .iter()
                .any(|r| r.rule == rule && r.line == line_of(&src, needle)),
            "{rule}: {:?}",
            i.refused
        );
    }
    let all = ["lifetime", "higher_ranked", "fn_pointer"];
    for relaxed in all {
        let i = take_files(&[("lib.rs", src.as_bytes())], &[relaxed]);
        let left: std::collections::BTreeSet<&str> = rules(&i).into_iter().collect();
        let others: std::collections::BTreeSet<&str> =
            all.into_iter().filter(|r| *r != relaxed).collect();
        assert_eq!(left, others, "{relaxed}: {:?}", i.refused);
    }
    assert!(
        take_files(&[("lib.rs", src.as_bytes())], &all)
            .refused
            .is_empty()
    );
}
