//! What the checker and the token scan refuse, in every position they can
//! hide: attributes, forbidden paths and macros, raw and non-ASCII
//! identifiers, renames and globs of `std`, files that do not lex, parse or
//! fit; and which refusals the config may relax.

use super::*;

#[test]
fn static_mut_extern_no_mangle_and_global_allocator_are_refused() {
    assert_refused(&with("static mut COUNT: u32 = 0;"), "static_mut");
    assert_refused(&with("fn h() { static mut C: u8 = 0; }"), "static_mut");
    assert_refused(&with("extern \"C\" { fn abs(x: i32) -> i32; }"), "extern");
    assert_refused(&with("extern \"C\" fn h() {}"), "extern");
    assert_refused(&with("extern crate core as c;"), "extern_crate");
    assert_refused(&with("#[no_mangle]\nfn h() {}"), "attribute");
    assert_refused(
        &with("#[global_allocator]\nstatic A: std::alloc::System = std::alloc::System;"),
        "attribute",
    );
    assert_refused(&solved("unsafe { vec![] }"), "unsafe");
    assert_refused(&with("mod m {}"), "mod");
}

#[test]
fn attributes_are_checked_in_every_position() {
    let cases = [
        ("#[path = \"x.rs\"] mod m; vec![]", "path"),
        (
            "#[cfg_attr(all(), path = \"x\")] let v = vec![]; v",
            "attribute",
        ),
        ("#[cfg(any())] let v = 1; vec![]", "attribute"),
        (
            "let f = #[cfg(any())] |x: usize| x; vec![f(1)]",
            "attribute",
        ),
        (
            "match n { #[cfg(any())] 0 => vec![], _ => vec![] }",
            "attribute",
        ),
        (
            "let f = |#[cfg(any())] x: usize| x; vec![f(1)]",
            "attribute",
        ),
        ("fn g<#[cfg(any())] T>() {} vec![]", "attribute"),
        ("struct S { #[cfg(any())] a: u8 } vec![]", "attribute"),
        ("#![cfg(any())] vec![]", "attribute"),
        (
            "#[doc = include_str!(\"/etc/passwd\")] fn g() {} vec![]",
            "attribute",
        ),
        ("#[test] fn g() {} vec![]", "attribute"),
    ];
    for (body, rule) in cases {
        assert_refused(&solved(body), rule);
    }
    assert_accepted(&solved(
        "#[allow(clippy::needless_range_loop, reason = \"clear\")] let v = vec![n]; v",
    ));
    assert_accepted(&with(
        "/// Documented.\n#[inline(always)]\n#[must_use]\n#[rustfmt::skip]\nfn h() -> u8 { 1 }",
    ));
    assert_refused(&with("#[rustfmt::skip::macros(m)]\nfn h() {}"), "attribute");
}

#[test]
fn forbidden_paths_are_refused_in_every_position() {
    let cases = [
        ("struct H<T = std::fs::File>(T); vec![]", "std::fs"),
        (
            "struct K<const N: usize = { std::env::args().count() }>; vec![]",
            "std::env",
        ),
        (
            "match n { _ if std::process::id() > 0 => vec![], _ => vec![] }",
            "std::process",
        ),
        ("let f = |x: std::os::raw::c_int| x; vec![]", "std::os"),
        (
            "let _ = Vec::<std::net::TcpStream>::new(); vec![]",
            "std::net",
        ),
        (
            "fn g() where std::ffi::CString: Sized {} vec![]",
            "std::ffi",
        ),
        ("let _ = ::std::fs::read(\"x\"); vec![]", "std::fs"),
        ("let _ = core::arch::x86_64::_rdtsc; vec![]", "std::arch"),
        ("use std::{io, {fs as f}}; vec![]", "std::fs"),
        (
            "let _ = std::path::Path::new(\"/\").read_dir(); vec![]",
            "std::path",
        ),
    ];
    for (body, rule) in cases {
        assert_refused(&solved(body), rule);
    }
    assert_refused(&with("use std::env::args;"), "std::env");
    assert_refused(
        &with("fn h() -> std::process::ExitCode { todo!() }"),
        "std::process",
    );
}

#[test]
fn raw_and_non_ascii_identifiers_are_refused() {
    assert_refused(&solved("let r#unsafe = 1; vec![r#unsafe]"), "raw_ident");
    assert_refused(&solved("let ｎ = 1; vec![ｎ]"), "non_ascii");
    assert_refused(&with("fn ѕolve() {}"), "non_ascii");
    assert_refused(&solved("'а: loop { break 'а; } vec![]"), "non_ascii");
}

#[test]
fn paths_built_inside_macros_are_refused() {
    let cases = [
        (
            "println!(\"{:?}\", std::fs::read(\"x\")); vec![]",
            "std::fs",
        ),
        ("vec![{ use std::{fs as f}; 1 }]", "std::fs"),
        (
            "vec![format!(\"{}\", std::env::args().count()).len()]",
            "std::env",
        ),
        (
            "assert!(matches!(n, _ if std::process::id() > 0)); vec![]",
            "std::process",
        ),
        ("vec![{ #[path = \"x\"] mod m; 1 }]", "mod"),
        ("vec![{ macro_rules! m { () => {} } 1 }]", "macro_def"),
        (
            "println!(\"{}\", stringify!(x), unsafe { 1 }); vec![]",
            "unsafe",
        ),
    ];
    for (body, rule) in cases {
        assert_refused(&solved(body), rule);
    }
}

#[test]
fn forbidden_and_unknown_macros_are_refused() {
    let cases = [
        (
            "let s = ::core::include_str!(\"/etc/passwd\"); vec![s.len()]",
            "include_str",
        ),
        (
            "let s = std::include_bytes!(\"/etc/passwd\"); vec![s.len()]",
            "include_bytes",
        ),
        ("let s = env!(\"HOME\"); vec![s.len()]", "env"),
        (
            "let s = option_env!(\"HOME\"); vec![s.is_some() as usize]",
            "option_env",
        ),
        ("std::arch::asm!(\"nop\"); vec![]", "asm"),
        ("thread_local!(static X: u8 = 0); vec![]", "macro"),
        ("macro_rules! m { () => { 1 } } vec![m!()]", "macro_def"),
        ("rayon::join!(); vec![]", "macro"),
    ];
    for (body, rule) in cases {
        assert_refused(&solved(body), rule);
    }
    assert_refused(&with("macro_rules! m { () => {} }"), "macro_def");
    assert_refused(&with("thread_local! { static X: u8 = 0; }"), "macro");
    assert_accepted(&solved(
        "let v = vec![0; n]; assert_eq!(v.len(), n, \"{}\", n); debug_assert!(matches!(n, 0 | 1 if true)); let _ = format!(\"{n}{}\", line!()); std::println!(); v",
    ));
}

#[test]
fn a_file_that_does_not_lex_parse_or_fit_is_refused_not_skipped() {
    assert_refused(&solved("\"unterminated"), "syntax");
    assert_refused(&solved("vec![) }"), "syntax");
    assert_refused(&solved("let x = ; vec![]"), "syntax");
    let i = take_files(&[("lib.rs", b"fn solve() { \xff }")], &[]);
    assert_eq!(rules(&i), ["syntax"]);
    let big = with(&format!(
        "const PAD: &str = \"{}\";",
        "x".repeat(MAX_FILE_BYTES)
    ));
    assert_refused(&big, "size");
}

#[test]
fn std_renames_and_globs_are_refused() {
    assert_refused(&with("use std as s;"), "std_alias");
    assert_refused(&with("use std::{self as s};"), "std_alias");
    assert_refused(&with("use ::core::*;"), "std_alias");
    assert_refused(&with("use crate::*;"), "glob");
    assert_refused(&with("use some_crate::Thing;"), "use");
    assert_refused(&solved("use std as s; vec![]"), "std_alias");
    let i = assert_accepted(&with(
        "use std::collections::{HashMap, HashSet as Set};\nuse std::fmt;\nuse std::cmp::*;",
    ));
    let lib = lib_of(&i);
    assert!(lib.contains("use std::collections::HashMap;"));
    assert!(lib.contains("use std::collections::HashSet as Set;"));
    assert_eq!(
        lib.matches("use std::fmt;").count(),
        1,
        "a given import is not repeated"
    );
}

#[test]
fn names_the_given_code_imports_from_a_forbidden_module_are_refused() {
    let pristine = BTreeMap::from([(
        PathBuf::from("lib.rs"),
        "use std::process::ExitCode;\n\npub fn code() -> u8 {\n    todo!()\n}\n\npub fn given() -> ExitCode {\n    ExitCode::SUCCESS\n}\n".to_string(),
    )]);
    let submitted = BTreeMap::from([(
        PathBuf::from("lib.rs"),
        b"use std::process::ExitCode;\npub fn code() -> u8 { let _ = ExitCode::from(3); 0 }\n"
            .to_vec(),
    )]);
    let i = take(&pristine, &submitted, &["code".into()], &[], &[]);
    assert_eq!(rules(&i), ["std::process"]);
}

#[test]
fn the_config_relaxes_a_relaxable_rule_but_never_a_fixed_one() {
    let src = solved("let _ = std::env::args(); vec![]");
    assert!(
        take_files(&[("lib.rs", src.as_bytes())], &["std::env"])
            .refused
            .is_empty()
    );
    let src = with("pub fn helper() {}");
    assert_eq!(
        rules(&take_files(&[("lib.rs", src.as_bytes())], &["pub"])),
        ["pub"]
    );
    assert!(RULES.iter().all(|r| !FIXED_RULES.contains(r)));
}
