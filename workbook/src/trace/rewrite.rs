//! The scratch copy's rewrite: every traced function records its calls.
//!
//! The problem: see each call of an exercise's functions (recursive ones
//! included) with its arguments and its result, in the learner's code and
//! in the reference alike, without the learner writing anything. The state
//! is the source text; `syn` finds each traced function (free, in an impl,
//! in an inline module) by its `info.toml` key, and its body is wrapped by
//! a text edit, so the learner's code, layout and line numbers before it
//! are untouched:
//!
//! ```text
//! fn visit(graph: &Graph, v: usize, ...) { BODY }
//!   becomes
//! fn visit(graph: &Graph, v: usize, ...) { let call = enter("visit", [v, ...]);
//!     let result = (|| -> RET { BODY })(); call.exit(result); result }
//! ```
//!
//! A function may also record state on entry (`specs::STATE`: chapter 2's
//! board, as `@board`), an expression over its receiver or its arguments,
//! written only when the signature has what it names, so a learner's
//! renamed parameter costs the drawing, never the build.
//!
//! A `return` inside the body returns from the closure, so every way out is
//! recorded. The return type is written on the closure (so `?` knows it)
//! unless it borrows or is `impl Trait`, which a closure cannot name.
//! Cost: one parse and one pass over the text per file.

use anyhow::{Context, Result};
use quote::ToTokens;
use std::collections::BTreeSet;

/// An edit: replace bytes `start..end` with `text`.
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// A state a traced function records on entry: its key, the state's name
/// and the expression (over `self` or the arguments) that shows it.
pub type State<'a> = (&'a str, &'a str, &'a str);

/// `text` with every function named in `keys` recording its calls (and the
/// `state` of its key); the keys found, so the caller can tell a missing
/// function.
pub fn instrument(
    text: &str,
    keys: &BTreeSet<&str>,
    hidden: &[&str],
    state: &[State],
) -> Result<(String, Vec<String>)> {
    let ctx = Wanted {
        keys,
        hidden,
        state,
    };
    let file = syn::parse_file(text).context("cannot parse")?;
    let lines = line_starts(text);
    let mut edits = Vec::new();
    let mut found = Vec::new();
    collect(&file.items, &ctx, text, &lines, &mut edits, &mut found);
    edits.sort_by_key(|e| std::cmp::Reverse(e.start));
    let mut out = text.to_string();
    for e in edits {
        out.replace_range(e.start..e.end, &e.text);
    }
    Ok((out, found))
}

/// What to record: the traced keys, the arguments not shown, the states.
struct Wanted<'a> {
    keys: &'a BTreeSet<&'a str>,
    hidden: &'a [&'a str],
    state: &'a [State<'a>],
}

fn collect(
    items: &[syn::Item],
    ctx: &Wanted,
    text: &str,
    lines: &[usize],
    edits: &mut Vec<Edit>,
    found: &mut Vec<String>,
) {
    for item in items {
        match item {
            syn::Item::Fn(f) => {
                let key = f.sig.ident.to_string();
                if ctx.keys.contains(key.as_str()) {
                    edits.push(wrap(&key, &f.sig, &f.block, ctx, text, lines));
                    found.push(key);
                }
            }
            syn::Item::Impl(i) => {
                let owner = workbook_core::stubs::type_name(&i.self_ty);
                for member in &i.items {
                    if let syn::ImplItem::Fn(f) = member {
                        let key = format!("{owner}::{}", f.sig.ident);
                        if ctx.keys.contains(key.as_str()) {
                            edits.push(wrap(&key, &f.sig, &f.block, ctx, text, lines));
                            found.push(key);
                        }
                    }
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect(inner, ctx, text, lines, edits, found);
                }
            }
            _ => {}
        }
    }
}

/// The byte offset of each line's start (line 1 at index 0).
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The byte offset of a span position (1-based line, column in chars).
fn offset(text: &str, lines: &[usize], at: proc_macro2::LineColumn) -> usize {
    let start = lines.get(at.line.saturating_sub(1)).copied().unwrap_or(0);
    text[start..]
        .char_indices()
        .nth(at.column)
        .map_or(text.len(), |(i, _)| start + i)
}

/// The wrapped body of one function.
fn wrap(
    key: &str,
    sig: &syn::Signature,
    block: &syn::Block,
    ctx: &Wanted,
    text: &str,
    lines: &[usize],
) -> Edit {
    let start = offset(text, lines, block.brace_token.span.open().start());
    let end = offset(text, lines, block.brace_token.span.close().end());
    let body = &text[start..end];
    let names: Vec<String> = sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            syn::FnArg::Typed(t) => match &*t.pat {
                syn::Pat::Ident(p) => Some(p.ident.to_string()),
                _ => None,
            },
            syn::FnArg::Receiver(_) => Some("self".to_string()),
        })
        .collect();
    let mut args: Vec<String> = names
        .iter()
        .filter(|name| *name != "self" && !ctx.hidden.contains(&name.as_str()))
        .map(|name| format!("(\"{name}\", (&&&crate::__wb_trace::Show(&{name})).show())"))
        .collect();
    // The states whose expression names only what this signature has.
    for (_, name, expr) in ctx.state.iter().filter(|(k, _, _)| *k == key) {
        let root: String = expr
            .trim_start_matches(['*', '&'])
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if names.contains(&root) {
            args.push(format!(
                "(\"@{name}\", (&&&crate::__wb_trace::Show(&{expr})).show())"
            ));
        }
    }
    let ret = match &sig.output {
        syn::ReturnType::Default => " -> ()".to_string(),
        syn::ReturnType::Type(_, ty) => {
            let spelled = ty.to_token_stream().to_string();
            if spelled.contains('&') || spelled.contains("impl ") || spelled.contains('\'') {
                String::new()
            } else {
                format!(" -> {spelled}")
            }
        }
    };
    let text = format!(
        "{{ #[allow(unused_imports)] use crate::__wb_trace::{{ShowDebug as _, ShowDisplay as _, ShowOther as _}}; \
         let __wb_call = crate::__wb_trace::enter(\"{key}\", &[{args}]); \
         #[allow(clippy::redundant_closure_call)] \
         let __wb_result = (||{ret} {body})(); \
         __wb_call.exit((&&&crate::__wb_trace::Show(&__wb_result)).show()); \
         __wb_result }}",
        args = args.join(", "),
    );
    Edit { start, end, text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recursive_function_is_wrapped_and_its_hidden_argument_not_shown() {
        let src = "fn visit(graph: &G, v: usize) -> u64 {\n    if v == 0 { return 1; }\n    visit(graph, v - 1)\n}\nfn other() {}\n";
        let keys = BTreeSet::from(["visit"]);
        let (out, found) = instrument(src, &keys, &["graph"], &[]).expect("parses");
        assert_eq!(found, vec!["visit".to_string()]);
        assert!(out.contains("enter(\"visit\", &[(\"v\","), "{out}");
        assert!(!out.contains("(\"graph\""), "{out}");
        assert!(out.contains("(|| -> u64 {\n    if v == 0"), "{out}");
        assert!(out.ends_with("fn other() {}\n"), "{out}");
        syn::parse_file(&out).expect("the rewrite still parses");
    }

    #[test]
    fn a_method_is_found_by_its_type_and_a_borrowed_return_is_not_annotated() {
        let src = "struct S;\nimpl S {\n    fn first(&self, xs: &[u8]) -> &u8 { &xs[0] }\n}\n";
        let keys = BTreeSet::from(["S::first"]);
        let (out, found) = instrument(src, &keys, &[], &[]).expect("parses");
        assert_eq!(found, vec!["S::first".to_string()]);
        assert!(out.contains("(|| { &xs[0] })()"), "{out}");
    }

    #[test]
    fn a_state_is_recorded_only_where_the_signature_names_it() {
        let src = "struct S { board: u8 }\nimpl S {\n    fn go(&mut self, k: usize) -> bool { k > 0 }\n}\nfn count(board: &mut u8, k: usize) -> u64 { k as u64 }\nfn other(b: &mut u8) -> u64 { 0 }\n";
        let keys = BTreeSet::from(["S::go", "count", "other"]);
        let state = [
            ("S::go", "board", "self.board"),
            ("count", "board", "*board"),
            ("other", "board", "*board"),
        ];
        let (out, _) = instrument(src, &keys, &["board"], &state).expect("parses");
        assert!(
            out.contains("(\"@board\", (&&&crate::__wb_trace::Show(&self.board))"),
            "{out}"
        );
        assert!(
            out.contains("(\"@board\", (&&&crate::__wb_trace::Show(&*board))"),
            "{out}"
        );
        assert_eq!(
            out.matches("\"@board\"").count(),
            2,
            "none for `other`, whose parameter is `b`: {out}"
        );
        syn::parse_file(&out).expect("the rewrite still parses");
    }
}
