//! Nesting: code deep enough to overflow `syn`'s recursion is refused
//! before it is parsed, in every shape that nests; code just under the
//! budget parses on the intake's stack.

use super::*;

/// 200 KB of one nesting shape as the body of `solve`.
fn deep(shape: &str) -> String {
    // About 200 KB: shapes that close again spend half on the closing side.
    let two_sided = ["(", "-(", "{", "Vec<"].contains(&shape);
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
        _ => unreachable!(),
    };
    solved(&body)
}

#[test]
fn deep_nesting_of_every_shape_is_refused_without_a_crash() {
    for shape in ["(", "!", "+1", "-(", "{", "Vec<", ".f()", "&", "|x| "] {
        let i = take_lib(&deep(shape));
        assert_eq!(rules(&i), ["nesting"], "shape {shape}: {:?}", i.refused);
    }
}

#[test]
fn nesting_just_under_the_budget_is_parsed_without_a_crash() {
    // Each shape at the deepest the token budget lets through: syn must
    // parse it on the intake's stack (the checker may still refuse it).
    for (open, close, per) in [
        ("{", "}", 1),
        ("(", ")", 1),
        ("Vec::<", ">::new()", 3),
        ("!", "", 1),
    ] {
        let n = (MAX_NESTING - 40) / per;
        let body = format!("let _ = {}true{}; vec![]", open.repeat(n), close.repeat(n));
        let i = take_lib(&solved(&body));
        assert!(
            rules(&i).iter().all(|r| *r == "nesting"),
            "{open}: {:?}",
            i.refused
        );
    }
    assert_accepted(&solved(&format!(
        "let _ = {}1{}; vec![]",
        "(".repeat(100),
        ")".repeat(100)
    )));
}
