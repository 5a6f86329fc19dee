//! Nesting: code deep enough to overflow `syn`'s recursion is refused
//! before it is parsed, in every shape that nests; code just under the
//! budget parses on the intake's stack.

use super::*;

/// 200 KB of one nesting shape as the body of `solve`.
fn deep(shape: &str) -> String {
    // About 200 KB: shapes that close again spend half on the closing side.
    let two_sided = ["(", "-(", "{", "Vec<", "T<u8, "].contains(&shape);
    let n = if two_sided { 100_000 } else { 200_000 } / shape.len();
    let body = match shape {
        "(" => format!("{}1{}", "(".repeat(n), ")".repeat(n)),
        "!" => format!("let _ = {}true; vec![]", "!".repeat(n)),
        "+1" => format!("let _ = 1{}; vec![]", "+1".repeat(n)),
        "-(" => format!("let _ = {}1{}; vec![]", "-(".repeat(n), ")".repeat(n)),
        "{" => format!("{}vec![]{}", "{".repeat(n), "}".repeat(n)),
        "Vec<" => format!("let _: {}u8{} ; vec![]", "Vec<".repeat(n), ">".repeat(n)),
        ".f()" => format!("let _ = n{}; vec![]", ".f()".repeat(n)),
        "&" => format!("let _ = {}n; vec![]", "&".repeat(n)),
        "|x| " => format!("let _ = {}1; vec![]", "|x| ".repeat(n)),
        // Commas inside a list `syn` nests into do not end the nesting.
        "|a, b| " => format!("let _ = {}1; vec![]", "|a, b| ".repeat(n)),
        "T<u8, " => format!(
            "let _: {}u8{} = todo!(); vec![]",
            "T<u8, ".repeat(n),
            ">".repeat(n)
        ),
        _ => unreachable!(),
    };
    solved(&body)
}

#[test]
fn deep_nesting_of_every_shape_is_refused_without_a_crash() {
    let shapes = [
        "(", "!", "+1", "-(", "{", "Vec<", ".f()", "&", "|x| ", "|a, b| ", "T<u8, ",
    ];
    for shape in shapes {
        let src = deep(shape);
        // Refused by the token pass, before `syn` could recurse into it
        // (`|a, b| ` 30,000 deep overflowed the intake's 256 MiB stack).
        let tokens = src.parse().unwrap_or_else(|e| panic!("{shape}: {e}"));
        assert!(
            tokens::nesting(tokens).is_err(),
            "shape {shape}: under the budget"
        );
        let i = take_lib(&src);
        assert_eq!(rules(&i), ["nesting"], "shape {shape}: {:?}", i.refused);
    }
}

#[test]
fn nesting_just_under_the_budget_is_parsed_without_a_crash() {
    // Each shape at the deepest the token pass lets through (brackets are
    // also held to MAX_BRACKETS levels): syn must parse it on the intake's
    // stack; the checker may still refuse it for depth, never for syntax.
    let deepest = MAX_NESTING - 40;
    for (open, close, n) in [
        ("{", "}", MAX_BRACKETS - 8),
        ("(", ")", MAX_BRACKETS - 8),
        ("!", "", deepest),
        ("&", "", deepest),
        ("-", "", deepest),
        ("|x| ", "", deepest / 2),
    ] {
        let body = format!("let _ = {}1{}; vec![]", open.repeat(n), close.repeat(n));
        let src = solved(&body);
        let tokens = src.parse().unwrap_or_else(|e| panic!("{open}: {e}"));
        assert!(tokens::nesting(tokens).is_ok(), "{open}: over the budget");
        let i = take_lib(&src);
        assert!(
            rules(&i).iter().all(|r| *r == "nesting"),
            "{open}: {:?}",
            i.refused
        );
    }
    let n = deepest / 2;
    let ty = format!(
        "let _: {}u8{} = Vec::new(); vec![]",
        "Vec<".repeat(n),
        ">".repeat(n)
    );
    assert!(
        take_lib(&solved(&ty))
            .refused
            .iter()
            .all(|r| r.rule == "nesting")
    );
    assert_accepted(&solved(&format!(
        "let _ = {}1{}; vec![]",
        "(".repeat(100),
        ")".repeat(100)
    )));
}

#[test]
fn a_hundred_thousand_nested_parentheses_are_still_refused() {
    let body = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let i = take_lib(&solved(&body));
    assert_eq!(rules(&i), ["nesting"], "{:?}", i.refused);
    let solve_line = LIB.lines().position(|l| l.contains("todo!(\"solve it\")"));
    assert_eq!(Some(i.refused[0].line - 1), solve_line, "{:?}", i.refused);
}

/// A helper of about 700 bytes as rustfmt lays it out: a loop, a `match`
/// whose arms are blocks without commas, an `if`, a closure.
fn helper(k: usize) -> String {
    format!(
        r#"
/// Helper {k}: the first row at or after `at` whose cell in `at`'s column is
/// above {k}, or where the column ends.
fn helper_{k}(grid: &[Vec<u8>], at: (usize, usize), limit: usize) -> Option<usize> {{
    let (row, col) = at;
    let mut best = None;
    for (r, line) in grid.iter().enumerate().skip(row) {{
        match line.get(col) {{
            Some(&0) => {{
                if r > limit {{
                    break;
                }}
            }}
            Some(v) if usize::from(*v) > {k} => {{
                best = Some(best.map_or(r, |b: usize| b.min(r + usize::from(*v))));
            }}
            Some(_) => continue,
            None => return best,
        }}
    }}
    best
}}
"#
    )
}

#[test]
fn a_255_kib_file_of_the_reference_and_helpers_is_taken() {
    let chapter = intro();
    let mut text = chapter.solution[Path::new("lib.rs")].clone();
    let mut k = 0;
    while text.len() + helper(k).len() <= MAX_FILE_BYTES {
        text.push_str(&helper(k));
        k += 1;
    }
    assert!(text.len() > 255 << 10, "{} bytes", text.len());
    let i = take_real(&chapter, "lib.rs", &text, &[]);
    assert!(i.refused.is_empty(), "{k} helpers: {:?}", i.refused);
    let lib = lib_of(&i);
    assert!(
        lib.contains(&format!("fn helper_{}(", k - 1)),
        "the last helper is built"
    );
}

#[test]
fn the_reference_with_450_one_line_helpers_is_taken() {
    let chapter = intro();
    let mut text = chapter.solution[Path::new("lib.rs")].clone();
    for k in 0..450 {
        text.push_str(&format!(
            "fn helper_{k}(x: u64) -> u64 {{ x.wrapping_mul({k}) + 1 }}\n"
        ));
    }
    let i = take_real(&chapter, "lib.rs", &text, &[]);
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    assert!(lib_of(&i).contains("fn helper_449("));
}

#[test]
fn siblings_do_not_add_up_at_any_depth() {
    // Inside one body: 3,000 block statements without `;`, then a `match`
    // of 3,000 arms whose blocks need no comma.
    let ifs = "if n > 1 { let _ = n; }\n".repeat(3000);
    let arms: String = (0..3000)
        .map(|k| format!("{k} => {{ vec![{k}] }}\n"))
        .collect();
    let body = format!("{ifs}match n {{ {arms} _ => vec![] }}");
    assert_accepted(&solved(&body));
}

#[test]
fn a_long_chain_still_counts_as_deep() {
    // `syn` builds `1 + 1 + ... + 1` as deep as it is long: one segment.
    let body = format!("let _ = 1{}; vec![]", " + 1".repeat(MAX_NESTING));
    assert_refused(&solved(&body), "nesting");
}
