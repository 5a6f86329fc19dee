//! The source lint run on a learner's files before anything is built.
//!
//! A solver needs no files, network, processes, environment or foreign
//! code, so a submission that names them is rejected with the rule, the
//! file and the line, before the compiler sees it (a macro such as
//! `include_str!` runs at compile time, so the build itself must not be
//! the first to meet it). Each file is parsed with `syn`; use trees are read
//! structurally (so `use std::{fs as f}` and `use std as s` are caught), and
//! every token stream, including macro bodies and attributes, is scanned
//! for forbidden macros, `unsafe` and `std::` paths. Cost: one parse and one
//! token walk per file.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::collections::BTreeSet;
use syn::visit::Visit;

/// Forbidden macros and the rule id that relaxes each.
const MACROS: &[(&str, &str)] = &[
    ("include", "include"),
    ("include_str", "include_str"),
    ("include_bytes", "include_bytes"),
    ("env", "env"),
    ("option_env", "option_env"),
    ("asm", "asm"),
    ("global_asm", "asm"),
    ("naked_asm", "asm"),
];

/// Modules of `std` a solver never needs.
const MODULES: &[&str] = &["fs", "net", "process", "env", "os"];

/// Every rule id, for the config's `allow` list and the documentation.
pub const RULES: &[&str] = &[
    "include",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "asm",
    "path",
    "extern_crate",
    "unsafe",
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "std::os",
    "std_alias",
];

/// One broken rule: which, where, and what was found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub rule: String,
    pub line: usize,
    pub what: String,
}

/// The findings in one file's text, minus the rules in `allow`.
pub fn lint(text: &str, allow: &[String]) -> Vec<Finding> {
    let file = match syn::parse_file(text) {
        Ok(f) => f,
        Err(e) => {
            return vec![Finding {
                rule: "syntax".into(),
                line: e.span().start().line,
                what: format!("the file cannot be parsed, so it cannot be checked: {e}"),
            }];
        }
    };
    let mut v = Visitor::default();
    v.visit_file(&file);
    if let Ok(tokens) = text.parse::<TokenStream>() {
        scan(tokens, &mut v.found);
    }
    let mut seen = BTreeSet::new();
    v.found
        .into_iter()
        .filter(|f| !allow.iter().any(|a| a == &f.rule))
        .filter(|f| seen.insert((f.rule.clone(), f.line)))
        .collect()
}

#[derive(Default)]
struct Visitor {
    found: BTreeSet<Finding>,
}

fn add(found: &mut BTreeSet<Finding>, rule: &str, line: usize, what: String) {
    found.insert(Finding {
        rule: rule.into(),
        line,
        what,
    });
}

impl<'ast> Visit<'ast> for Visitor {
    fn visit_item_extern_crate(&mut self, i: &'ast syn::ItemExternCrate) {
        let line = i.extern_token.span.start().line;
        add(
            &mut self.found,
            "extern_crate",
            line,
            format!("`extern crate {}`", i.ident),
        );
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if a.path().is_ident("path") {
            let line = a.pound_token.span.start().line;
            add(
                &mut self.found,
                "path",
                line,
                "`#[path]` points a module at another file".into(),
            );
        }
        syn::visit::visit_attribute(self, a);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let line = u.use_token.span.start().line;
        let root = u.leading_colon.is_some();
        use_tree(&u.tree, &mut Vec::new(), root, line, &mut self.found);
    }
}

/// Checks each path a use tree imports, its renames and its globs.
fn use_tree(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    rooted: bool,
    line: usize,
    found: &mut BTreeSet<Finding>,
) {
    let at_std = |p: &[String]| (p.len() == 1 && p[0] == "std") || (p.is_empty() && rooted);
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            check_path(prefix, line, found);
            use_tree(&p.tree, prefix, rooted, line, found);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            prefix.push(n.ident.to_string());
            check_path(prefix, line, found);
            prefix.pop();
        }
        syn::UseTree::Rename(r) => {
            let name = r.ident.to_string();
            let whole = if name == "self" {
                prefix.clone()
            } else {
                [prefix.clone(), vec![name]].concat()
            };
            check_path(&whole, line, found);
            if matches!(whole.as_slice(), [one] if one == "std" || one == "core" || one == "alloc")
            {
                add(
                    found,
                    "std_alias",
                    line,
                    format!("`{}` renamed to `{}`", whole.join("::"), r.rename),
                );
            }
        }
        syn::UseTree::Glob(_) => {
            if at_std(prefix) {
                add(
                    found,
                    "std_alias",
                    line,
                    "a glob import of all of `std`".into(),
                );
            }
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_tree(t, prefix, rooted, line, found);
            }
        }
    }
}

fn check_path(path: &[String], line: usize, found: &mut BTreeSet<Finding>) {
    if let [first, second, ..] = path
        && first == "std"
        && MODULES.contains(&second.as_str())
    {
        add(
            found,
            &format!("std::{second}"),
            line,
            format!("`std::{second}`"),
        );
    }
}

/// Walks every token: forbidden macros, `unsafe`, `extern crate`, `std::x`.
fn scan(tokens: TokenStream, found: &mut BTreeSet<Finding>) {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tt) in tts.iter().enumerate() {
        match tt {
            TokenTree::Group(g) => scan(g.stream(), found),
            TokenTree::Ident(id) => {
                let name = id.to_string();
                let line = id.span().start().line;
                let next = |k: usize| tts.get(i + k);
                let is_punct = |t: Option<&TokenTree>, c: char| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
                if name == "unsafe" {
                    add(found, "unsafe", line, "`unsafe`".into());
                }
                if is_punct(next(1), '!')
                    && let Some((_, rule)) = MACROS.iter().find(|(m, _)| *m == name)
                {
                    add(found, rule, line, format!("`{name}!`"));
                }
                if name == "extern" && matches!(next(1), Some(TokenTree::Ident(c)) if c == "crate")
                {
                    add(found, "extern_crate", line, "`extern crate`".into());
                }
                if name == "std" && is_punct(next(1), ':') && is_punct(next(2), ':') {
                    std_tail(next(3), line, found);
                }
            }
            _ => {}
        }
    }
}

/// What follows `std::`: a forbidden module, or a `{...}` group naming one.
fn std_tail(tt: Option<&TokenTree>, line: usize, found: &mut BTreeSet<Finding>) {
    match tt {
        Some(TokenTree::Ident(m)) if MODULES.contains(&m.to_string().as_str()) => {
            add(found, &format!("std::{m}"), line, format!("`std::{m}`"));
        }
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            let mut at_start = true;
            for t in g.stream() {
                match &t {
                    TokenTree::Ident(m)
                        if at_start && MODULES.contains(&m.to_string().as_str()) =>
                    {
                        add(found, &format!("std::{m}"), line, format!("`std::{m}`"));
                    }
                    _ => {}
                }
                at_start = matches!(&t, TokenTree::Punct(p) if p.as_char() == ',');
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(src: &str) -> Vec<String> {
        lint(src, &[]).into_iter().map(|f| f.rule).collect()
    }

    #[test]
    fn a_plain_solver_passes() {
        assert!(
            rules("use std::collections::HashMap; pub fn f(v: &[u8]) -> usize { v.len() }")
                .is_empty()
        );
    }

    #[test]
    fn each_forbidden_form_is_named() {
        assert_eq!(
            rules("const S: &str = include_str!(\"/etc/passwd\");"),
            ["include_str"]
        );
        assert_eq!(
            rules("fn f() { let _ = std::fs::read(\"x\"); }"),
            ["std::fs"]
        );
        assert_eq!(rules("use std::{io, process as p};"), ["std::process"]);
        assert_eq!(rules("use std as s;"), ["std_alias"]);
        assert_eq!(rules("use ::std::*;"), ["std_alias"]);
        assert_eq!(rules("#[path = \"x.rs\"] mod m;"), ["path"]);
        assert_eq!(rules("extern crate core as c;"), ["extern_crate"]);
        assert_eq!(rules("fn f() { unsafe {} }"), ["unsafe"]);
        assert_eq!(
            rules("macro_rules! m { () => { std::env::args() } }"),
            ["std::env"]
        );
        assert_eq!(
            rules("fn f() { println!(\"{}\", env!(\"HOME\")); }"),
            ["env"]
        );
    }

    #[test]
    fn the_config_relaxes_a_rule() {
        assert!(lint("fn f() { let _ = std::env::args(); }", &["std::env".into()]).is_empty());
    }
}
