//! The token pass: a learner's file read, measured and parsed, and the
//! token-level checks on what is taken from it.
//!
//! The problem: `syn` parses and visits recursively, so a file of 200 KB of
//! `((((...))))` would overflow any stack before the checker saw it; and
//! some things are clearest as tokens whatever tree they sit in (a raw
//! identifier, `unsafe`, `std::fs` spelled inside a macro call). So each
//! file is lexed once, its nesting measured on the token trees before
//! `syn` parses them (iteratively, so the measure itself cannot overflow),
//! and after the splice every token inside the pieces taken is scanned.
//! State: the learner's text, tokens and syntax tree ([`Learner`]). Cost:
//! one lex, one walk of the token trees for nesting, one parse, and one
//! walk of the taken tokens.

use super::policy::{
    KEYWORDS, MAX_BRACKETS, MAX_FILE_BYTES, MAX_NESTING, RESERVED_PREFIX, STD_ROOTS, forbidden_path,
};
use proc_macro2::{Delimiter, LineColumn, Spacing, TokenStream, TokenTree};
use std::collections::BTreeMap;

/// One finding of the token pass: line, rule id, reason.
pub(super) type Found = (usize, &'static str, String);

/// The names the given code imports from forbidden modules, with the rule
/// each breaks (`given::Context::forbidden`).
pub(super) type Forbidden = BTreeMap<String, &'static str>;

/// Calls `f` on every token of `ts`, groups included, without recursion.
pub(super) fn for_each_token(ts: TokenStream, mut f: impl FnMut(&TokenTree)) {
    let mut stack = vec![ts.into_iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            Some(t) => {
                f(&t);
                if let TokenTree::Group(g) = &t {
                    stack.push(g.stream().into_iter());
                }
            }
            None => {
                stack.pop();
            }
        }
    }
}

/// The tokens of `text`, spans dropped: equal for equal code, whatever the layout.
pub(super) fn canonical(text: &str) -> Option<String> {
    let ts: TokenStream = text.parse().ok()?;
    let mut out = String::new();
    write_canonical(ts, &mut out);
    Some(out)
}

fn write_canonical(ts: TokenStream, out: &mut String) {
    for t in ts {
        match t {
            TokenTree::Ident(i) => {
                out.push_str(&i.to_string());
                out.push(' ');
            }
            TokenTree::Punct(p) => {
                out.push(p.as_char());
                if p.spacing() == Spacing::Alone {
                    out.push(' ');
                }
            }
            TokenTree::Literal(l) => {
                out.push_str(&l.to_string());
                out.push(' ');
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write_canonical(g.stream(), out);
                out.push_str(close);
            }
        }
    }
}

/// The learner's file, lexed, measured and parsed.
pub(super) struct Learner {
    pub(super) text: String,
    pub(super) tokens: TokenStream,
    pub(super) file: syn::File,
}

/// The learner's file, or the one refusal that stops it from being read
/// (too large, not UTF-8 or not Rust, not lexing, nesting too deep, not
/// parsing).
pub(super) fn read_learner(bytes: &[u8]) -> Result<Learner, Found> {
    if bytes.len() > MAX_FILE_BYTES {
        let reason = format!(
            "the file has {} bytes; the grader reads at most {MAX_FILE_BYTES}",
            bytes.len()
        );
        return Err((1, "size", reason));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.strip_prefix('\u{feff}').unwrap_or(t).to_string(),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            return Err((line, "syntax", "the file is not UTF-8 text".into()));
        }
    };
    if text.starts_with("#!") && !text[2..].trim_start().starts_with('[') {
        return Err((1, "syntax", "a `#!` line is not Rust".into()));
    }
    let tokens: TokenStream = match text.parse() {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().start().line;
            return Err((line, "syntax", format!("the file does not lex: {e}")));
        }
    };
    if let Err((line, reason)) = nesting(tokens.clone()) {
        return Err((line, "nesting", reason));
    }
    // Parsed from the tokens already lexed: one lex per file, same spans.
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => Ok(Learner { text, tokens, file }),
        Err(e) => {
            let line = e.span().start().line;
            Err((line, "syntax", format!("the file does not parse: {e}")))
        }
    }
}

/// Refuses token trees that `syn` could not parse or visit within its
/// stack; otherwise the most nesting tokens on one path (for measuring).
///
/// Every level of syntax-tree nesting needs at least one punctuation mark,
/// bracket group or keyword on its own level of brackets. So the nesting
/// tokens of one segment (see [`segment`]), added up along any path of
/// brackets from the root, bound the depth of the tree `syn` builds there.
/// Siblings do not add up: a segment ends where a new sibling starts (after
/// `,` or `;`, or where an item or a block-like statement ends), so a file
/// of a thousand functions or a `match` of a thousand arms is as deep as
/// its deepest one. Identifiers, literals, attributes and `::` never nest,
/// so plain code stays far below [`MAX_NESTING`]; a long chain of binary
/// operators or method calls does count, since `syn` builds it as deep as
/// it is long. Iterative, so the check itself cannot overflow.
pub(super) fn nesting(tokens: TokenStream) -> Result<usize, (usize, String)> {
    let mut deepest = 0;
    let mut stack = vec![(tokens, 0usize, 0usize)];
    while let Some((ts, base, depth)) = stack.pop() {
        let toks: Vec<TokenTree> = ts.into_iter().collect();
        let mut start = 0;
        while start < toks.len() {
            let (end, cost) = segment(&toks, start);
            let here = base + cost;
            if here > MAX_NESTING {
                let line = toks.get(start).map_or(1, |t| t.span().start().line);
                let reason = format!(
                    "code nests deeper than the grader checks ({MAX_NESTING} nesting tokens on one path)"
                );
                return Err((line, reason));
            }
            deepest = deepest.max(here);
            for t in &toks[start..end] {
                if let TokenTree::Group(g) = t {
                    if depth + 1 > MAX_BRACKETS {
                        let reason = format!("brackets nest deeper than {MAX_BRACKETS} levels");
                        return Err((g.span().start().line, reason));
                    }
                    stack.push((g.stream(), here, depth + 1));
                }
            }
            start = end;
        }
    }
    Ok(deepest)
}

/// The end of the segment starting at `start` (the index after its last
/// token) and its nesting tokens.
///
/// A segment ends after a `;`, and after a `{...}` group that a new sibling
/// follows: an identifier (an item's or statement's first word, a match
/// arm's pattern) other than `else` and `as` (which continue an `if` chain
/// or a cast), a literal (a pattern), or a `#` (an attribute or doc
/// comment) or `'` (a label). In code that parses, nothing deeper than the
/// group continues past that point, so the sibling starts from the depth of
/// the group's own level; in code that does not, `syn` stops there with an
/// error. Anything else after a `}` (an operator, `.`, another group) may
/// continue the expression, and is counted with it.
///
/// A segment also ends after a `,`, unless a list that `syn` nests into is
/// open on this level: generics (`<` without its `>`; `->` and `=>` close
/// nothing) or a closure's parameters (an odd number of single `|`). The
/// elements of such a list sit deeper than what opened it, so
/// `T<u8, T<u8, ...>>` and `|a, b| |a, b| ...` keep adding up. A `<` or
/// `|` that is an operator only makes the rest of its segment count more.
fn segment(toks: &[TokenTree], start: usize) -> (usize, usize) {
    let punct = |i: usize| match toks.get(i) {
        Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing() == Spacing::Joint)),
        _ => None,
    };
    let is = |i: usize, c: char| punct(i).is_some_and(|(p, _)| p == c);
    let group = |i: usize, d: Delimiter| matches!(toks.get(i), Some(TokenTree::Group(g)) if g.delimiter() == d);
    let sibling = |i: usize| match toks.get(i) {
        Some(TokenTree::Ident(id)) => id != "else" && id != "as",
        Some(TokenTree::Literal(_)) => true,
        Some(TokenTree::Punct(p)) => matches!(p.as_char(), '#' | '\''),
        _ => false,
    };
    let (mut angles, mut bars) = (0usize, false);
    let mut cost = 0;
    let mut i = start;
    while i < toks.len() {
        if is(i, ';') || (is(i, ',') && angles == 0 && !bars) {
            return (i + 1, cost);
        }
        if is(i, '#') && group(i + 1, Delimiter::Bracket) {
            i += 2;
            continue;
        }
        if is(i, '#') && is(i + 1, '!') && group(i + 2, Delimiter::Bracket) {
            i += 3;
            continue;
        }
        match punct(i) {
            // `::` separates path segments, which `syn` reads in a loop.
            Some((':', true)) if is(i + 1, ':') => {
                i += 2;
                continue;
            }
            // `||`: no parameters, or a logical or; neither opens a list.
            Some(('|', true)) if is(i + 1, '|') => {
                cost += 2;
                i += 2;
                continue;
            }
            Some(('|', _)) => bars = !bars,
            Some(('<', _)) => angles += 1,
            Some(('>', _)) if !matches!(punct(i.wrapping_sub(1)), Some(('-' | '=', true))) => {
                angles = angles.saturating_sub(1);
            }
            _ => {}
        }
        cost += match &toks[i] {
            TokenTree::Ident(id) => usize::from(KEYWORDS.contains(&id.to_string().as_str())),
            TokenTree::Literal(_) => 0,
            TokenTree::Punct(p) if p.as_char() == ',' => 0,
            _ => 1,
        };
        if group(i, Delimiter::Brace) && sibling(i + 1) {
            return (i + 1, cost);
        }
        i += 1;
    }
    (i, cost)
}

/// The token-level checks on the accepted pieces of a learner's file:
/// raw and non-ASCII identifiers, `unsafe`, `extern`, forbidden paths and
/// names the given code imports from forbidden modules. Iterative.
pub(super) fn scan(
    tokens: TokenStream,
    accepted: &[(LineColumn, LineColumn)],
    forbidden: &Forbidden,
) -> Vec<Found> {
    // Line and column, not byte offsets: proc-macro2 finds a byte offset by
    // walking the characters, a line by a binary search.
    let inside = |r: &(LineColumn, LineColumn)| accepted.iter().any(|a| a.0 <= r.0 && r.1 <= a.1);
    let overlaps = |r: &(LineColumn, LineColumn)| accepted.iter().any(|a| a.0 < r.1 && r.0 < a.1);
    let mut found = Vec::new();
    let mut stack = vec![tokens];
    while let Some(ts) = stack.pop() {
        let toks: Vec<TokenTree> = ts.into_iter().collect();
        for (i, t) in toks.iter().enumerate() {
            let r = (t.span().start(), t.span().end());
            match t {
                TokenTree::Group(g) if overlaps(&r) => stack.push(g.stream()),
                TokenTree::Ident(id) if inside(&r) => {
                    ident(&toks, i, &id.to_string(), forbidden, &mut found)
                }
                _ => {}
            }
        }
    }
    found
}

/// The checks of one identifier on its own: spelling and forbidden imports.
pub(super) fn scan_name(name: &str, line: usize, forbidden: &Forbidden, found: &mut Vec<Found>) {
    let mut push = |rule: &'static str, reason: String| found.push((line, rule, reason));
    if name.starts_with("r#") {
        push("raw_ident", format!("the raw identifier `{name}`"));
    }
    if !name.is_ascii() {
        push("non_ascii", format!("the identifier `{name}` is not ASCII"));
    }
    let bare = name.strip_prefix("r#").unwrap_or(name);
    if bare
        .get(..RESERVED_PREFIX.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(RESERVED_PREFIX))
    {
        push(
            "reserved",
            format!("`{name}`: identifiers starting with `{RESERVED_PREFIX}` are the grader's"),
        );
    }
    if let Some(rule) = forbidden.get(name) {
        push(
            rule,
            format!("`{name}` is imported by the given code from `{rule}`"),
        );
    }
}

fn ident(toks: &[TokenTree], i: usize, name: &str, forbidden: &Forbidden, found: &mut Vec<Found>) {
    let line = toks[i].span().start().line;
    scan_name(name, line, forbidden, found);
    let mut push = |rule: &'static str, reason: String| found.push((line, rule, reason));
    match name {
        "unsafe" => push("unsafe", "`unsafe` code".into()),
        "extern" => match toks.get(i + 1) {
            Some(TokenTree::Ident(c)) if c == "crate" => {
                push("extern_crate", "`extern crate`".into())
            }
            _ => push("extern", "`extern` declares foreign code".into()),
        },
        _ => {}
    }
    let colon = |k: usize| matches!(toks.get(k), Some(TokenTree::Punct(p)) if p.as_char() == ':');
    if STD_ROOTS.contains(&name) && colon(i + 1) && colon(i + 2) {
        let mut modules = Vec::new();
        tail(toks.get(i + 3), &mut modules);
        for m in modules {
            if let Some(rule) = forbidden_path(&[name, m.as_str()]) {
                push(rule, format!("the path `{name}::{m}`"));
            }
        }
    }
}

/// The module names right after `std::`: an identifier, or the first
/// identifier of each element of a `{...}` group, nested groups included.
fn tail(t: Option<&TokenTree>, out: &mut Vec<String>) {
    match t {
        Some(TokenTree::Ident(m)) => out.push(m.to_string()),
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            let toks: Vec<TokenTree> = g.stream().into_iter().collect();
            let mut at_start = true;
            for t in &toks {
                if at_start {
                    tail(Some(t), out);
                }
                at_start = matches!(t, TokenTree::Punct(p) if p.as_char() == ',');
            }
        }
        _ => {}
    }
}
