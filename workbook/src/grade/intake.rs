//! The grader's intake: from a learner's files, only what the learner is
//! meant to write, spliced into the pristine stubs.
//!
//! The problem: a deny-list over whole files misses what it does not visit,
//! and a learner who edits given code (a derive, a `PartialEq` impl) bends
//! the tests without any forbidden name. So the intake accepts a grammar
//! instead. Given code always comes from the pristine stub file; from the
//! learner's copy it takes the bodies of the stub functions `info.toml`
//! names (`f` or `Type::method`), their signatures only when they differ by
//! a `mut` on a parameter, and new private helper items (functions,
//! constants, types, their impls, `use` of allowed paths). Everything it
//! takes is checked structurally with `syn` (every attribute, macro, item,
//! impl and use tree in every position, macro arguments parsed as the
//! expressions they are) and token by token (raw and non-ASCII identifiers,
//! `unsafe`, `extern`, `std::fs`-style paths). A file that does not lex or
//! parse, is too large or nests too deep is refused, never skipped: nesting
//! is measured on the tokens before `syn` parses (see [`nesting`]), and the
//! whole intake runs on a thread with a 256 MiB stack, so a 200 KB
//! `((((...))))` is a refusal, not a crash.
//!
//! State: per chapter, the names the given code uses (so a helper cannot
//! shadow them) and the method names it calls (so a new method cannot take
//! them over); per file, the stub positions and the given items. Cost: one
//! lex and one parse per pristine and per submitted file, and one walk of
//! each accepted syntax tree and of its tokens.
//!
//! Use: [`take`] one chapter at a time; build [`ChapterIntake::files`] when
//! [`ChapterIntake::refused`] is empty, else reject the chapter with every
//! refusal listed; show [`ChapterIntake::notes`] to the learner. [`RULES`]
//! are the ids the instructor's `allow` may relax, [`FIXED_RULES`] the ids
//! that never relax. Helper types are recognised per file: an impl of a
//! foreign trait for a learner's type from another file of the chapter is
//! refused like one for a given type.
//!
//! rustc (1.95) on a private inherent method named like a public trait
//! method (`fn count` in `impl Solutions` beside `impl Iterator`): code
//! outside the module that defines it does not see it and calls the trait
//! method (no E0624), so the test crate is unaffected; code inside that
//! module, and anywhere in the crate for a `pub(crate)` method, calls the
//! inherent one. Given code could therefore be taken over, which is why a
//! new method on a given type (or of a learner's trait implemented for a
//! given type) may not take a name the given code mentions (`method_name`).

use crate::stubs::type_name;
use proc_macro2::{Delimiter, LineColumn, Spacing, Span, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, Expr, ImplItem, Item, Meta, Token, UseTree, Visibility};

/// The largest submitted file read, in bytes.
pub const MAX_FILE_BYTES: usize = 256 << 10;
/// The deepest bracket nesting accepted (the references use at most 9).
pub const MAX_BRACKETS: usize = 256;
/// The most nesting tokens on one path from a file's root (see [`nesting`];
/// the reference solutions reach 171, the largest file in the repository 343).
pub const MAX_NESTING: usize = 2048;
/// The deepest expression, type or pattern the checker descends into.
pub const MAX_DEPTH: usize = 512;
/// The intake thread's stack: `syn` parses and visits recursively.
const STACK_BYTES: usize = 256 << 20;

/// Rule ids the instructor's config (`allow`) may relax.
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
    "std::arch",
    "std::intrinsics",
    "std::ffi",
    "std::path",
    "std_alias",
    "extern",
    "raw_ident",
    "non_ascii",
    "static_mut",
    "macro",
];

/// Rule ids that are never relaxed: without them the grammar means nothing.
pub const FIXED_RULES: &[&str] = &[
    "syntax",
    "size",
    "nesting",
    "signature",
    "mod",
    "macro_def",
    "attribute",
    "pub",
    "given_impl",
    "trait_impl",
    "shadow",
    "method_name",
    "use",
    "glob",
    "internal",
];

/// Modules of `std`/`core`/`alloc` a solver never needs, with their rule ids.
const MODULES: &[(&str, &str)] = &[
    ("fs", "std::fs"),
    ("net", "std::net"),
    ("process", "std::process"),
    ("env", "std::env"),
    ("os", "std::os"),
    ("arch", "std::arch"),
    ("intrinsics", "std::intrinsics"),
    ("ffi", "std::ffi"),
    ("path", "std::path"),
];

const STD_ROOTS: &[&str] = &["std", "core", "alloc"];

/// The standard macros a learner may call.
const MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "format_args",
    "write",
    "writeln",
    "vec",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "matches",
    "dbg",
    "concat",
    "stringify",
    "line",
    "column",
    "file",
];

/// Macros with a rule id of their own (kept from the old lint).
const NAMED_MACROS: &[(&str, &str)] = &[
    ("include", "include"),
    ("include_str", "include_str"),
    ("include_bytes", "include_bytes"),
    ("env", "env"),
    ("option_env", "option_env"),
    ("asm", "asm"),
    ("global_asm", "asm"),
    ("naked_asm", "asm"),
    ("macro_rules", "macro_def"),
];

const DERIVES: &[&str] = &[
    "Debug",
    "Clone",
    "Copy",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Default",
];

const REPRS: &[&str] = &[
    "C",
    "transparent",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
];

/// Words that count as nesting tokens (every keyword, strict or not).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "type", "unsafe", "use",
    "where", "while", "yield", "become", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "try", "gen", "union", "auto", "default", "raw", "safe",
];

/// One reason a chapter is rejected: where, which rule, and what was found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Refusal {
    /// The file, as a path under the chapter's `src/` (empty for the chapter).
    pub file: PathBuf,
    pub line: usize,
    pub rule: &'static str,
    /// One line, naming what was found.
    pub reason: String,
}

/// What the grader builds for one chapter, and why.
#[derive(Debug, Clone, Default)]
pub struct ChapterIntake {
    /// Every pristine file (path under `src/`) and the text to build.
    pub files: BTreeMap<PathBuf, String>,
    /// Non-empty: the chapter is rejected (scores 0); every refusal is listed.
    pub refused: Vec<Refusal>,
    /// What was ignored: changed given items, missing stubs, files not taken.
    pub notes: Vec<String>,
}

/// Takes one chapter: `pristine` maps each stub file (path under `src/`)
/// to its text, `submitted` the learner's files, `stubs` the info.toml stub
/// keys (`f`, `Type::method`), `allow` the relaxed rule ids ([`RULES`]),
/// `crates` the crates the chapter's manifest lets its code use (a learner
/// may import from them as the given code may).
/// Never panics and never overflows its stack on any input.
pub fn take(
    pristine: &BTreeMap<PathBuf, String>,
    submitted: &BTreeMap<PathBuf, Vec<u8>>,
    stubs: &[String],
    allow: &[String],
    crates: &[String],
) -> ChapterIntake {
    let outcome = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("intake".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, || take_here(pristine, submitted, stubs, allow, crates))
            .map(|h| h.join())
    });
    match outcome {
        Ok(Ok(intake)) => intake,
        Ok(Err(_)) => failed(pristine, "the intake stopped on an internal error".into()),
        Err(e) => failed(pristine, format!("cannot start the intake thread: {e}")),
    }
}

fn failed(pristine: &BTreeMap<PathBuf, String>, reason: String) -> ChapterIntake {
    ChapterIntake {
        files: pristine.clone(),
        refused: vec![Refusal {
            file: PathBuf::new(),
            line: 0,
            rule: "internal",
            reason,
        }],
        notes: Vec::new(),
    }
}

/// The intake proper, on the big-stack thread (spans live in its thread-local
/// source map, so every span is read here).
fn take_here(
    pristine: &BTreeMap<PathBuf, String>,
    submitted: &BTreeMap<PathBuf, Vec<u8>>,
    stubs: &[String],
    allow: &[String],
    crates: &[String],
) -> ChapterIntake {
    let mut out = ChapterIntake::default();
    let mut parsed = BTreeMap::new();
    for (rel, text) in pristine {
        match syn::parse_file(text) {
            Ok(file) => {
                parsed.insert(rel.clone(), file);
            }
            Err(e) => out.refused.push(Refusal {
                file: rel.clone(),
                line: e.span().start().line,
                rule: "internal",
                reason: format!("the pristine stub does not parse: {e}"),
            }),
        }
    }
    let mut ctx = Context::new(parsed.values(), allow);
    ctx.crates.extend(crates.iter().cloned());
    for (rel, text) in pristine {
        let spliced = match parsed.get(rel) {
            Some(file) => {
                let theirs = submitted.get(rel).map(Vec::as_slice);
                take_file(&ctx, rel, text, file, theirs, stubs, &mut out)
            }
            None => text.clone(),
        };
        out.files.insert(rel.clone(), spliced);
    }
    for rel in submitted.keys().filter(|k| !pristine.contains_key(*k)) {
        out.notes.push(format!(
            "ignored `{}`: not a file of this chapter",
            rel.display()
        ));
    }
    let relaxed = |r: &Refusal| {
        RULES.contains(&r.rule)
            && !FIXED_RULES.contains(&r.rule)
            && allow.iter().any(|a| a == r.rule)
    };
    out.refused.retain(|r| !relaxed(r));
    out.refused.sort();
    out.refused
        .dedup_by(|a, b| a.file == b.file && a.line == b.line && a.rule == b.rule);
    out
}

/// What the given code of the whole chapter uses.
struct Context<'a> {
    allow: &'a [String],
    /// Every path segment, method-call name and macro-token identifier.
    methods: BTreeSet<String>,
    /// First path segments, in any pristine file.
    first: BTreeSet<String>,
    /// Names bound by patterns, in any pristine file.
    bound: BTreeSet<String>,
    /// Names the given code imports from a forbidden module, with the rule.
    forbidden: BTreeMap<String, &'static str>,
    /// Crate roots the given code imports from (`rayon`, `num_bigint`, ...).
    crates: BTreeSet<String>,
    /// Some given file glob-imports from the crate itself.
    local_glob: bool,
}

impl<'a> Context<'a> {
    fn new<'f>(files: impl Iterator<Item = &'f syn::File>, allow: &'a [String]) -> Self {
        let mut ctx = Context {
            allow,
            methods: BTreeSet::from(["write_fmt".to_string()]),
            first: BTreeSet::new(),
            bound: BTreeSet::new(),
            forbidden: BTreeMap::new(),
            crates: BTreeSet::new(),
            local_glob: false,
        };
        for file in files {
            let mut names = Names::default();
            names.visit_file(file);
            ctx.methods.extend(names.methods);
            ctx.first.extend(names.first);
            ctx.bound.extend(names.bound);
            let own = top_names(file);
            for leaf in file.items.iter().flat_map(use_leaves) {
                let root = leaf.root().to_string();
                if let Some(rule) = leaf.forbidden()
                    && let Some(b) = leaf.binding()
                {
                    ctx.forbidden.insert(b, rule);
                }
                let local =
                    ["crate", "self", "super"].contains(&root.as_str()) || own.contains_key(&root);
                ctx.local_glob |= local && leaf.end == End::Glob;
                if !local && !STD_ROOTS.contains(&root.as_str()) {
                    ctx.crates.insert(root);
                }
            }
        }
        ctx
    }
}

/// Collects the names given code refers to.
#[derive(Default)]
struct Names {
    methods: BTreeSet<String>,
    /// First segments of paths (and every identifier in macro tokens).
    first: BTreeSet<String>,
    /// Names bound by patterns (a constant of that name would change them).
    bound: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Names {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.leading_colon.is_none()
            && let Some(s) = p.segments.first()
        {
            self.first.insert(s.ident.to_string());
        }
        for s in &p.segments {
            self.methods.insert(s.ident.to_string());
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.methods.insert(m.method.to_string());
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.bound.insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        for_each_token(m.tokens.clone(), |t| {
            if let TokenTree::Ident(i) = t {
                self.first.insert(i.to_string());
                self.methods.insert(i.to_string());
            }
        });
        syn::visit::visit_macro(self, m);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        for leaf in use_leaves(&Item::Use(u.clone())) {
            self.first.insert(leaf.root().to_string());
            self.first.extend(leaf.binding());
        }
    }
}

/// Calls `f` on every token of `ts`, groups included, without recursion.
fn for_each_token(ts: TokenStream, mut f: impl FnMut(&TokenTree)) {
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

/// One leaf of a `use` tree: `::a::b::c`, `a::b::c as d`, `a::b::*`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Leaf {
    rooted: bool,
    prefix: Vec<String>,
    end: End,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum End {
    Name(String),
    Rename(String, String),
    Glob,
}

impl Leaf {
    /// The whole path the leaf names (without the rename).
    fn path(&self) -> Vec<&str> {
        let mut p: Vec<&str> = self.prefix.iter().map(String::as_str).collect();
        match &self.end {
            End::Name(n) | End::Rename(n, _) if n != "self" => p.push(n),
            _ => {}
        }
        p
    }

    fn root(&self) -> &str {
        self.path().first().copied().unwrap_or("")
    }

    /// The name the leaf binds, if any.
    fn binding(&self) -> Option<String> {
        match &self.end {
            End::Name(n) if n == "self" => self.prefix.last().cloned(),
            End::Name(n) => Some(n.clone()),
            End::Rename(_, r) if r == "_" => None,
            End::Rename(_, r) => Some(r.clone()),
            End::Glob => None,
        }
    }

    /// The rule of the forbidden module the leaf reaches, if any.
    fn forbidden(&self) -> Option<&'static str> {
        forbidden_path(&self.path())
    }

    fn render(&self) -> String {
        let mut s = if self.rooted {
            "::".to_string()
        } else {
            String::new()
        };
        for p in &self.prefix {
            s.push_str(p);
            s.push_str("::");
        }
        match &self.end {
            End::Name(n) if n == "self" => s.push_str("{self}"),
            End::Name(n) => s.push_str(n),
            End::Rename(n, r) if n == "self" => s.push_str(&format!("{{self as {r}}}")),
            End::Rename(n, r) => s.push_str(&format!("{n} as {r}")),
            End::Glob => s.push('*'),
        }
        s
    }
}

/// `std::fs::...` and the like: the rule, if the path reaches a forbidden module.
fn forbidden_path(path: &[&str]) -> Option<&'static str> {
    match path {
        [root, module, ..] if STD_ROOTS.contains(root) => MODULES
            .iter()
            .find(|(m, _)| m == module)
            .map(|(_, rule)| *rule),
        _ => None,
    }
}

fn use_leaves(item: &Item) -> Vec<Leaf> {
    let mut out = Vec::new();
    if let Item::Use(u) = item {
        flatten(
            &u.tree,
            u.leading_colon.is_some(),
            &mut Vec::new(),
            &mut out,
        );
    }
    out
}

fn flatten(tree: &UseTree, rooted: bool, prefix: &mut Vec<String>, out: &mut Vec<Leaf>) {
    let leaf = |prefix: &Vec<String>, end| Leaf {
        rooted,
        prefix: prefix.clone(),
        end,
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, rooted, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => out.push(leaf(prefix, End::Name(n.ident.to_string()))),
        UseTree::Rename(r) => out.push(leaf(
            prefix,
            End::Rename(r.ident.to_string(), r.rename.to_string()),
        )),
        UseTree::Glob(_) => out.push(leaf(prefix, End::Glob)),
        UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, rooted, prefix, out);
            }
        }
    }
}

/// The name a top-level item defines, if it has one.
fn item_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Fn(i) => &i.sig.ident,
        Item::Struct(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Union(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Const(i) => &i.ident,
        Item::Static(i) => &i.ident,
        Item::Mod(i) => &i.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        Item::ExternCrate(i) => i.rename.as_ref().map_or(&i.ident, |r| &r.1),
        _ => return None,
    };
    Some(ident.to_string())
}

fn item_vis(item: &Item) -> Option<&Visibility> {
    Some(match item {
        Item::Fn(i) => &i.vis,
        Item::Struct(i) => &i.vis,
        Item::Enum(i) => &i.vis,
        Item::Union(i) => &i.vis,
        Item::Type(i) => &i.vis,
        Item::Trait(i) => &i.vis,
        Item::TraitAlias(i) => &i.vis,
        Item::Const(i) => &i.vis,
        Item::Static(i) => &i.vis,
        Item::Mod(i) => &i.vis,
        Item::Use(i) => &i.vis,
        Item::ExternCrate(i) => &i.vis,
        _ => return None,
    })
}

fn impl_item_name(item: &ImplItem) -> Option<String> {
    match item {
        ImplItem::Fn(f) => Some(f.sig.ident.to_string()),
        ImplItem::Const(c) => Some(c.ident.to_string()),
        ImplItem::Type(t) => Some(t.ident.to_string()),
        _ => None,
    }
}

fn impl_item_vis(item: &ImplItem) -> Option<&Visibility> {
    match item {
        ImplItem::Fn(f) => Some(&f.vis),
        ImplItem::Const(c) => Some(&c.vis),
        ImplItem::Type(t) => Some(&t.vis),
        _ => None,
    }
}

/// Top-level names of a file (items and `use` bindings) with their byte ranges.
fn top_names(file: &syn::File) -> BTreeMap<String, Range<usize>> {
    let mut names = BTreeMap::new();
    for item in &file.items {
        let range = item.span().byte_range();
        if let Some(n) = item_name(item) {
            names.entry(n).or_insert(range.clone());
        }
        for b in use_leaves(item).iter().filter_map(Leaf::binding) {
            names.entry(b).or_insert(range.clone());
        }
    }
    names
}

/// How an impl block is matched between the pristine file and the learner's:
/// the trait's last segment and the self type's name.
fn impl_key(i: &syn::ItemImpl) -> (String, String) {
    let tr = i
        .trait_
        .as_ref()
        .and_then(|(_, p, _)| p.segments.last())
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    (tr, type_name(&i.self_ty))
}

/// Where a stub function sits in the pristine text.
struct FnAt {
    sig: Range<usize>,
    body: Range<usize>,
}

fn fn_at(sig: &syn::Signature, block: &syn::Block) -> FnAt {
    FnAt {
        sig: sig.span().byte_range(),
        body: block.brace_token.span.join().byte_range(),
    }
}

/// A pristine impl block.
struct ImplAt {
    key: (String, String),
    is_trait: bool,
    /// The byte offset of its closing brace.
    close: usize,
    items: BTreeMap<String, Range<usize>>,
    stubs: BTreeMap<String, FnAt>,
}

/// What one pristine file gives.
struct Given {
    names: BTreeMap<String, Range<usize>>,
    leaves: BTreeSet<String>,
    first: BTreeSet<String>,
    bound: BTreeSet<String>,
    stub_fns: BTreeMap<String, FnAt>,
    impls: Vec<ImplAt>,
}

impl Given {
    fn new(file: &syn::File, stubs: &[String]) -> Self {
        let is_stub = |k: &str| stubs.iter().any(|s| s == k);
        let mut names = Names::default();
        names.visit_file(file);
        let mut g = Given {
            names: top_names(file),
            leaves: file
                .items
                .iter()
                .flat_map(use_leaves)
                .map(|l| l.render())
                .collect(),
            first: names.first,
            bound: names.bound,
            stub_fns: BTreeMap::new(),
            impls: Vec::new(),
        };
        for item in &file.items {
            match item {
                Item::Fn(f) if is_stub(&f.sig.ident.to_string()) => {
                    g.stub_fns
                        .insert(f.sig.ident.to_string(), fn_at(&f.sig, &f.block));
                }
                Item::Impl(i) => g.impls.push(impl_at(i, &is_stub)),
                _ => {}
            }
        }
        g
    }

    fn has_stubs(&self) -> bool {
        !self.stub_fns.is_empty() || self.impls.iter().any(|i| !i.stubs.is_empty())
    }
}

fn impl_at(i: &syn::ItemImpl, is_stub: &dyn Fn(&str) -> bool) -> ImplAt {
    let owner = type_name(&i.self_ty);
    let mut at = ImplAt {
        key: impl_key(i),
        is_trait: i.trait_.is_some(),
        close: i.brace_token.span.close().byte_range().start,
        items: BTreeMap::new(),
        stubs: BTreeMap::new(),
    };
    for member in &i.items {
        let Some(name) = impl_item_name(member) else {
            continue;
        };
        at.items.insert(name.clone(), member.span().byte_range());
        if let ImplItem::Fn(f) = member
            && is_stub(&format!("{owner}::{name}"))
        {
            at.stubs.insert(name, fn_at(&f.sig, &f.block));
        }
    }
    at
}

/// The tokens of `text`, spans dropped: equal for equal code, whatever the layout.
fn canonical(text: &str) -> Option<String> {
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

/// Slices `text` by a byte range, or "" if the range does not fit.
fn slice<'t>(text: &'t str, r: &Range<usize>) -> &'t str {
    text.get(r.clone()).unwrap_or("")
}

/// Collects one file's refusals and notes.
struct FileOut<'o> {
    rel: PathBuf,
    out: &'o mut ChapterIntake,
}

impl FileOut<'_> {
    fn refuse(&mut self, line: usize, rule: &'static str, reason: String) {
        self.out.refused.push(Refusal {
            file: self.rel.clone(),
            line,
            rule,
            reason,
        });
    }

    fn note(&mut self, what: String) {
        let rel = self.rel.display();
        self.out.notes.push(format!("`{rel}`: {what}"));
    }
}

/// One pristine file: the text to build from it and the learner's copy.
fn take_file(
    ctx: &Context,
    rel: &Path,
    text: &str,
    file: &syn::File,
    submitted: Option<&[u8]>,
    stubs: &[String],
    out: &mut ChapterIntake,
) -> String {
    let given = Given::new(file, stubs);
    let mut fo = FileOut {
        rel: rel.to_path_buf(),
        out,
    };
    let Some(bytes) = submitted else {
        if given.has_stubs() {
            fo.note("not submitted; the stub was used".into());
        }
        return text.to_string();
    };
    if !given.has_stubs() {
        if bytes != text.as_bytes() {
            fo.note("has no function to write; your changes were ignored".into());
        }
        return text.to_string();
    }
    match read_learner(bytes, &mut fo) {
        Some(learner) => splice(ctx, &given, text, &learner, &mut fo),
        None => text.to_string(),
    }
}

/// The learner's file, lexed, measured and parsed; refusals on the way.
struct Learner {
    text: String,
    tokens: TokenStream,
    file: syn::File,
}

fn read_learner(bytes: &[u8], fo: &mut FileOut) -> Option<Learner> {
    if bytes.len() > MAX_FILE_BYTES {
        let reason = format!(
            "the file has {} bytes; the grader reads at most {MAX_FILE_BYTES}",
            bytes.len()
        );
        fo.refuse(1, "size", reason);
        return None;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.strip_prefix('\u{feff}').unwrap_or(t).to_string(),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            fo.refuse(line, "syntax", "the file is not UTF-8 text".into());
            return None;
        }
    };
    if text.starts_with("#!") && !text[2..].trim_start().starts_with('[') {
        fo.refuse(1, "syntax", "a `#!` line is not Rust".into());
        return None;
    }
    let tokens: TokenStream = match text.parse() {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().start().line;
            fo.refuse(line, "syntax", format!("the file does not lex: {e}"));
            return None;
        }
    };
    if let Err((line, reason)) = nesting(tokens.clone()) {
        fo.refuse(line, "nesting", reason);
        return None;
    }
    // Parsed from the tokens already lexed: one lex per file, same spans.
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => Some(Learner { text, tokens, file }),
        Err(e) => {
            let line = e.span().start().line;
            fo.refuse(line, "syntax", format!("the file does not parse: {e}"));
            None
        }
    }
}

/// Refuses token trees that `syn` could not parse or visit within its stack.
///
/// Every level of syntax-tree nesting needs at least one punctuation mark,
/// bracket group or keyword on its own level of brackets, and siblings are
/// separated by `,` or `;`. So the nesting tokens of one `,`/`;` segment,
/// added up along any path of brackets from the root, bound the depth of
/// the tree `syn` builds there (attributes, `#[...]`, are siblings and are
/// not counted). Identifiers and literals never nest, so plain code stays
/// far below [`MAX_NESTING`]. Iterative, so the check itself cannot overflow.
fn nesting(tokens: TokenStream) -> Result<(), (usize, String)> {
    let mut stack = vec![(tokens, 0usize, 0usize)];
    while let Some((ts, base, depth)) = stack.pop() {
        let toks: Vec<TokenTree> = ts.into_iter().collect();
        let mut start = 0;
        while start <= toks.len() {
            let (end, cost) = segment(&toks, start);
            let here = base + cost;
            if here > MAX_NESTING {
                let line = toks.get(start).map_or(1, |t| t.span().start().line);
                let reason = format!(
                    "code nests deeper than the grader checks ({MAX_NESTING} nesting tokens on one path)"
                );
                return Err((line, reason));
            }
            for t in &toks[start..end] {
                if let TokenTree::Group(g) = t {
                    if depth + 1 > MAX_BRACKETS {
                        let reason = format!("brackets nest deeper than {MAX_BRACKETS} levels");
                        return Err((g.span().start().line, reason));
                    }
                    stack.push((g.stream(), here, depth + 1));
                }
            }
            start = end + 1;
        }
    }
    Ok(())
}

/// The end of the `,`/`;` segment starting at `start`, and its nesting tokens.
fn segment(toks: &[TokenTree], start: usize) -> (usize, usize) {
    let is =
        |i: usize, c: char| matches!(toks.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let bracket = |i: usize| matches!(toks.get(i), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket);
    let mut cost = 0;
    let mut i = start;
    while i < toks.len() {
        if is(i, ',') || is(i, ';') {
            break;
        }
        if is(i, '#') && bracket(i + 1) {
            i += 2;
            continue;
        }
        if is(i, '#') && is(i + 1, '!') && bracket(i + 2) {
            i += 3;
            continue;
        }
        cost += match &toks[i] {
            TokenTree::Ident(id) => usize::from(KEYWORDS.contains(&id.to_string().as_str())),
            TokenTree::Literal(_) => 0,
            _ => 1,
        };
        i += 1;
    }
    (i, cost)
}

/// An edit of the pristine text: replace `range` with `text`.
struct Edit {
    range: Range<usize>,
    text: String,
}

fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        let fits = at <= e.range.start && e.range.start <= e.range.end && e.range.end <= text.len();
        if !fits || !text.is_char_boundary(e.range.start) || !text.is_char_boundary(e.range.end) {
            continue;
        }
        out.push_str(&text[at..e.range.start]);
        out.push_str(&e.text);
        at = e.range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The learner's accepted pieces, spliced into the pristine text.
fn splice(ctx: &Context, given: &Given, text: &str, learner: &Learner, fo: &mut FileOut) -> String {
    let mut sp = Splicer {
        ctx,
        given,
        text,
        learner,
        edits: Vec::new(),
        accepted: Vec::new(),
        found: BTreeSet::new(),
        checker: Checker::new(ctx),
        appended: String::new(),
        inserted: BTreeMap::new(),
    };
    sp.checker
        .scopes
        .push(top_scope(&learner.file, &given.names));
    for item in &learner.file.items {
        sp.item(item, fo);
    }
    sp.missing(fo);
    for (line, rule, reason) in std::mem::take(&mut sp.checker.found) {
        fo.refuse(line, rule, reason);
    }
    for (line, rule, reason) in scan(learner.tokens.clone(), &sp.accepted, ctx) {
        fo.refuse(line, rule, reason);
    }
    let mut edits = sp.edits;
    for (close, items) in sp.inserted {
        edits.push(Edit {
            range: close..close,
            text: items,
        });
    }
    if !sp.appended.is_empty() {
        edits.push(Edit {
            range: text.len()..text.len(),
            text: sp.appended,
        });
    }
    apply(text, edits)
}

/// The names a learner's file defines at top level, by kind.
fn top_scope(file: &syn::File, given: &BTreeMap<String, Range<usize>>) -> Scope {
    let mut scope = Scope::default();
    for item in &file.items {
        if let Some(name) = item_name(item)
            && given.contains_key(&name)
        {
            scope.insert(name, Kind::Other);
            continue;
        }
        scope.add(item);
    }
    for name in given.keys() {
        scope.insert(name.clone(), Kind::Other);
    }
    scope
}

struct Splicer<'a> {
    ctx: &'a Context<'a>,
    given: &'a Given,
    text: &'a str,
    learner: &'a Learner,
    edits: Vec<Edit>,
    /// Where the pieces of the learner's text that are built start and end:
    /// scanned token by token.
    accepted: Vec<(LineColumn, LineColumn)>,
    /// Stubs found (`f`, `Type::method` as the impl key and name).
    found: BTreeSet<String>,
    checker: Checker<'a>,
    appended: String,
    /// New items for given inherent impls, by the offset of their closing brace.
    inserted: BTreeMap<usize, String>,
}

impl<'a> Splicer<'a> {
    /// Marks a piece of the learner's file as built: its tokens get scanned.
    fn accept(&mut self, span: Span) {
        self.accepted.push((span.start(), span.end()));
    }

    fn learner_text(&self, r: &Range<usize>) -> &str {
        slice(&self.learner.text, r)
    }

    fn item(&mut self, item: &Item, fo: &mut FileOut) {
        match item {
            Item::Fn(f) if self.given.stub_fns.contains_key(&f.sig.ident.to_string()) => {
                let name = f.sig.ident.to_string();
                let given: &'a Given = self.given;
                if self.found.insert(name.clone()) {
                    let at = &given.stub_fns[&name];
                    self.stub(&name, &f.sig, &f.block, &f.attrs, at);
                }
            }
            Item::Impl(i) if self.given.impls.iter().any(|p| p.key == impl_key(i)) => {
                self.given_impl(i, fo)
            }
            Item::Use(u) => self.new_use(u, fo),
            _ => match item_name(item) {
                Some(name) if self.given.names.contains_key(&name) => {
                    let r = &self.given.names[&name];
                    self.given_item(&name, r, item.span().byte_range(), fo);
                }
                _ => self.new_item(item),
            },
        }
    }

    /// A given item in the learner's copy: ignored, noted when it differs.
    fn given_item(
        &self,
        name: &str,
        pristine: &Range<usize>,
        learner: Range<usize>,
        fo: &mut FileOut,
    ) {
        let (theirs, ours) = (self.learner_text(&learner), slice(self.text, pristine));
        if theirs != ours && canonical(theirs) != canonical(ours) {
            fo.note(format!(
                "`{name}` is given; your changed copy was ignored (the original is built)"
            ));
        }
    }

    /// A stub function: the learner's body, and signature if only `mut` was added.
    fn stub(
        &mut self,
        name: &str,
        sig: &syn::Signature,
        block: &syn::Block,
        attrs: &[Attribute],
        at: &FnAt,
    ) {
        for a in attrs
            .iter()
            .filter(|a| matches!(a.style, syn::AttrStyle::Inner(_)))
        {
            self.checker.visit_attribute(a);
        }
        let sig_range = sig.span().byte_range();
        let theirs = self.learner_text(&sig_range).to_string();
        let ours = slice(self.text, &at.sig);
        let pristine = canonical(ours);
        if theirs != ours && canonical(&theirs) != pristine {
            if canonical(&without_muts(sig, &self.learner.text)) == pristine {
                self.checker.visit_signature(sig);
                self.accept(sig.span());
                self.edits.push(Edit {
                    range: at.sig.clone(),
                    text: theirs,
                });
            } else {
                let line = sig.ident.span().start().line;
                let reason = format!(
                    "the signature of `{name}` was changed (only `mut` may be added to a parameter)"
                );
                self.checker.found.push((line, "signature", reason));
            }
        }
        let body = block.brace_token.span.join();
        self.checker.visit_block(block);
        self.edits.push(Edit {
            range: at.body.clone(),
            text: self.learner_text(&body.byte_range()).to_string(),
        });
        self.accept(body);
    }

    /// A learner impl block that matches a pristine one.
    fn given_impl(&mut self, i: &syn::ItemImpl, fo: &mut FileOut) {
        let given: &'a Given = self.given;
        // A type may have several pristine blocks under one key (two
        // `impl Board`): a member belongs to the block that has it.
        let key = impl_key(i);
        let blocks: Vec<&ImplAt> = given.impls.iter().filter(|p| p.key == key).collect();
        let Some(first) = blocks.first() else {
            return;
        };
        let (tr, ty) = &key;
        let header = if tr.is_empty() {
            format!("impl {ty}")
        } else {
            format!("impl {tr} for {ty}")
        };
        for member in &i.items {
            let name = impl_item_name(member).unwrap_or_default();
            let stub = blocks.iter().find_map(|b| b.stubs.get(&name));
            let own = blocks.iter().find_map(|b| b.items.get(&name));
            match (member, stub, own) {
                (ImplItem::Fn(f), Some(at), _) => {
                    if self.found.insert(format!("{header}::{name}")) {
                        self.stub(&format!("{ty}::{name}"), &f.sig, &f.block, &f.attrs, at);
                    }
                }
                (_, _, Some(at)) => {
                    self.given_item(&format!("{ty}::{name}"), at, member.span().byte_range(), fo);
                }
                _ if first.is_trait => {
                    let line = member.span().start().line;
                    let reason = format!(
                        "`{name}` added to the given `{header}`: it would replace what the trait provides, which the tests may call"
                    );
                    self.checker.found.push((line, "given_impl", reason));
                }
                _ => {
                    self.checker.given_type_member(member);
                    self.checker.visit_impl_item(member);
                    let r = member.span().byte_range();
                    let text = format!("\n{}\n", self.learner_text(&r));
                    self.inserted
                        .entry(first.close)
                        .or_default()
                        .push_str(&text);
                    self.accept(member.span());
                }
            }
        }
    }

    /// A new top-level item: checked, then appended to the file.
    fn new_item(&mut self, item: &Item) {
        let line = item.span().start().line;
        if let Some(name) = item_name(item).filter(|n| n != "_") {
            let restricted = item_vis(item).is_some_and(|v| !matches!(v, Visibility::Inherited));
            self.shadow(&name, matches!(item, Item::Fn(_)), restricted, line);
        }
        match item {
            Item::Macro(m) if m.mac.path.is_ident("macro_rules") => {}
            Item::Macro(_) => {
                let reason = "a macro call is not an item you may add".to_string();
                self.checker.found.push((line, "macro", reason));
            }
            _ => {}
        }
        self.checker.visit_item(item);
        let r = item.span().byte_range();
        self.appended
            .push_str(&format!("\n{}\n", self.learner_text(&r)));
        self.accept(item.span());
    }

    /// Refuses a new top-level name that given code already uses. A local
    /// binding hides a function of the same name, so for a function a name
    /// the given code binds is free; a constant or a unit struct would turn
    /// that binding into a pattern, so for them it is not.
    fn shadow(&mut self, name: &str, is_fn: bool, restricted: bool, line: usize) {
        let hit = |first: &BTreeSet<String>, bound: &BTreeSet<String>| {
            if is_fn {
                first.contains(name) && !bound.contains(name)
            } else {
                first.contains(name) || bound.contains(name)
            }
        };
        let wide = restricted || self.ctx.local_glob;
        if hit(&self.given.first, &self.given.bound)
            || (wide && hit(&self.ctx.first, &self.ctx.bound))
        {
            let reason =
                format!("a new item named `{name}` would shadow a name the given code uses");
            self.checker.found.push((line, "shadow", reason));
        }
    }

    /// A top-level `use`: each new leaf is checked and re-emitted on its own.
    fn new_use(&mut self, u: &syn::ItemUse, fo: &mut FileOut) {
        let line = u.use_token.span.start().line;
        for a in &u.attrs {
            self.checker.visit_attribute(a);
        }
        if matches!(u.vis, Visibility::Public(_)) {
            let reason = "`pub use` would export a name the tests might reach".to_string();
            self.checker.found.push((line, "pub", reason));
        }
        let vis = match &u.vis {
            Visibility::Inherited => String::new(),
            v => format!("{} ", self.learner_text(&v.span().byte_range())),
        };
        for leaf in use_leaves(&Item::Use(u.clone())) {
            if self.given.leaves.contains(&leaf.render()) {
                continue;
            }
            if let Some(b) = leaf.binding()
                && self.given.names.contains_key(&b)
            {
                fo.note(format!(
                    "`use {}` ignored: the given code already imports `{b}`",
                    leaf.render()
                ));
                continue;
            }
            if self.use_leaf(&leaf, line, !vis.is_empty()) {
                self.appended
                    .push_str(&format!("\n{vis}use {};\n", leaf.render()));
            }
        }
    }

    /// Checks one new top-level use leaf; true when it may be emitted.
    fn use_leaf(&mut self, leaf: &Leaf, line: usize, restricted: bool) -> bool {
        let before = self.checker.found.len();
        self.checker.use_leaf(leaf, line);
        let root = leaf.root();
        let local = ["crate", "self", "super"].contains(&root);
        let known = local
            || STD_ROOTS.contains(&root)
            || self.ctx.crates.contains(root)
            || self
                .checker
                .scopes
                .first()
                .is_some_and(|s| s.kinds.contains_key(root));
        if !known {
            let reason = format!(
                "`use {}`: only the crate, std/core and the crates the given code uses may be imported",
                leaf.render()
            );
            self.checker.found.push((line, "use", reason));
        }
        let own_root = local
            || self
                .checker
                .scopes
                .first()
                .is_some_and(|s| s.kinds.contains_key(root));
        if leaf.end == End::Glob && own_root {
            let reason = format!(
                "`use {}`: a glob of the crate's own items could shadow names the given code uses",
                leaf.render()
            );
            self.checker.found.push((line, "glob", reason));
        }
        if let Some(b) = leaf.binding() {
            self.shadow(&b, false, restricted, line);
        }
        for seg in leaf.path().iter().copied().chain(leaf.binding().as_deref()) {
            scan_name(seg, line, self.ctx, &mut self.checker.found);
        }
        self.checker.found.len() == before
    }

    fn missing(&self, fo: &mut FileOut) {
        for name in self.given.stub_fns.keys() {
            if !self.found.contains(name) {
                fo.note(format!("`{name}` not found; its stub was kept"));
            }
        }
        for at in &self.given.impls {
            let (tr, ty) = &at.key;
            let header = if tr.is_empty() {
                format!("impl {ty}")
            } else {
                format!("impl {tr} for {ty}")
            };
            for name in at.stubs.keys() {
                if !self.found.contains(&format!("{header}::{name}")) {
                    fo.note(format!("`{ty}::{name}` not found; its stub was kept"));
                }
            }
        }
    }
}

/// The learner's signature text with the `mut` of each parameter blanked.
fn without_muts(sig: &syn::Signature, text: &str) -> String {
    let whole = sig.span().byte_range();
    let mut cut: Vec<Range<usize>> = Vec::new();
    for input in &sig.inputs {
        match input {
            syn::FnArg::Receiver(r) if r.reference.is_none() => {
                cut.extend(r.mutability.map(|m| m.span.byte_range()));
            }
            syn::FnArg::Typed(t) => {
                if let syn::Pat::Ident(p) = &*t.pat
                    && p.by_ref.is_none()
                    && p.subpat.is_none()
                {
                    cut.extend(p.mutability.map(|m| m.span.byte_range()));
                }
            }
            syn::FnArg::Receiver(_) => {}
        }
    }
    let edits = cut
        .into_iter()
        .filter(|c| c.start >= whole.start && c.end <= whole.end)
        .map(|c| Edit {
            range: c.start - whole.start..c.end - whole.start,
            text: " ".into(),
        })
        .collect();
    apply(slice(text, &whole), edits)
}

/// What a name in scope is, for deciding which impls a learner may write.
#[derive(Debug, Clone)]
enum Kind {
    /// A struct or enum the learner defines.
    Type,
    /// A trait the learner defines, with the names of its items.
    Trait(Vec<String>),
    /// Anything else: a given item, an import, an alias.
    Other,
}

#[derive(Debug, Default)]
struct Scope {
    kinds: BTreeMap<String, Kind>,
}

impl Scope {
    fn insert(&mut self, name: String, kind: Kind) {
        self.kinds.entry(name).or_insert(kind);
    }

    fn add(&mut self, item: &Item) {
        let kind = match item {
            Item::Struct(_) | Item::Enum(_) => Kind::Type,
            Item::Trait(t) => Kind::Trait(
                t.items
                    .iter()
                    .filter_map(|i| match i {
                        syn::TraitItem::Fn(f) => Some(f.sig.ident.to_string()),
                        syn::TraitItem::Const(c) => Some(c.ident.to_string()),
                        syn::TraitItem::Type(t) => Some(t.ident.to_string()),
                        _ => None,
                    })
                    .collect(),
            ),
            _ => Kind::Other,
        };
        if let Some(name) = item_name(item) {
            self.insert(name, kind);
        }
        for b in use_leaves(item).iter().filter_map(Leaf::binding) {
            self.insert(b, Kind::Other);
        }
    }
}

/// The structural checks, run on every accepted syntax tree.
struct Checker<'a> {
    ctx: &'a Context<'a>,
    found: Vec<(usize, &'static str, String)>,
    depth: usize,
    too_deep: bool,
    scopes: Vec<Scope>,
}

fn line_of(s: Span) -> usize {
    s.start().line
}

impl<'a> Checker<'a> {
    fn new(ctx: &'a Context<'a>) -> Self {
        Checker {
            ctx,
            found: Vec::new(),
            depth: 0,
            too_deep: false,
            scopes: Vec::new(),
        }
    }

    fn refuse(&mut self, span: Span, rule: &'static str, reason: String) {
        self.found.push((line_of(span), rule, reason));
    }

    fn allowed(&self, rule: &str) -> bool {
        RULES.contains(&rule) && self.ctx.allow.iter().any(|a| a == rule)
    }

    /// The innermost meaning of a single-identifier name.
    fn kind(&self, name: &str) -> Option<&Kind> {
        self.scopes.iter().rev().find_map(|s| s.kinds.get(name))
    }

    fn learner_type(&self, ty: &syn::Type, generics: &syn::Generics) -> bool {
        let syn::Type::Path(p) = ty else {
            return false;
        };
        let (Some(seg), 1) = (p.path.segments.first(), p.path.segments.len()) else {
            return false;
        };
        let shadowed = generics.type_params().any(|t| t.ident == seg.ident);
        p.qself.is_none()
            && p.path.leading_colon.is_none()
            && !shadowed
            && matches!(self.kind(&seg.ident.to_string()), Some(Kind::Type))
    }

    fn learner_trait(&self, path: &syn::Path) -> Option<Vec<String>> {
        let (Some(seg), 1) = (path.segments.first(), path.segments.len()) else {
            return None;
        };
        match (path.leading_colon, self.kind(&seg.ident.to_string())) {
            (None, Some(Kind::Trait(items))) => Some(items.clone()),
            _ => None,
        }
    }

    /// An item added to an impl of a type the learner did not define.
    fn given_type_member(&mut self, member: &ImplItem) {
        let span = member.span();
        if impl_item_vis(member).is_some_and(|v| matches!(v, Visibility::Public(_))) {
            let reason = "a `pub` item on a given type could replace what the tests call".into();
            self.refuse(span, "pub", reason);
        }
        if let Some(name) = impl_item_name(member) {
            self.method_name(&name, span);
        }
        if matches!(member, ImplItem::Macro(_) | ImplItem::Verbatim(_)) {
            self.refuse(
                span,
                "syntax",
                "only functions, constants and types may be added to an impl".into(),
            );
        }
    }

    fn method_name(&mut self, name: &str, span: Span) {
        if self.ctx.methods.contains(name) {
            let reason = format!(
                "a new `{name}` on a given type could take over a `{name}` the given code calls"
            );
            self.refuse(span, "method_name", reason);
        }
    }

    /// A new impl block anywhere: which impls a learner may write.
    fn check_impl(&mut self, i: &syn::ItemImpl) {
        let mine = self.learner_type(&i.self_ty, &i.generics);
        match &i.trait_ {
            None if mine => {}
            None => {
                for member in &i.items {
                    self.given_type_member(member);
                }
            }
            Some(_) if mine => {}
            Some((_, path, _)) => match self.learner_trait(path) {
                Some(names) => {
                    let members = i.items.iter().filter_map(impl_item_name);
                    for name in names.into_iter().chain(members) {
                        self.method_name(&name, i.span());
                    }
                }
                None => {
                    let reason = format!(
                        "a new impl of `{}` for a type you did not define could change how given code and the tests behave",
                        path.segments
                            .last()
                            .map(|s| s.ident.to_string())
                            .unwrap_or_default()
                    );
                    self.refuse(i.impl_token.span, "trait_impl", reason);
                }
            },
        }
    }

    /// Checks the shape of any item the learner writes, at any depth.
    fn check_item(&mut self, item: &Item) {
        let span = item.span();
        if item_vis(item).is_some_and(|v| matches!(v, Visibility::Public(_))) {
            let reason =
                "a `pub` item could be reached, or re-exported, beside what the tests call";
            self.refuse(span, "pub", reason.into());
        }
        match item {
            Item::Mod(_) => self.refuse(
                span,
                "mod",
                "a `mod` item could bring in another file".into(),
            ),
            Item::ForeignMod(_) => self.refuse(
                span,
                "extern",
                "an `extern` block declares foreign code".into(),
            ),
            Item::ExternCrate(_) => self.refuse(
                span,
                "extern_crate",
                "`extern crate` links another crate".into(),
            ),
            Item::Static(s) if matches!(s.mutability, syn::StaticMutability::Mut(_)) => self
                .refuse(
                    span,
                    "static_mut",
                    "a `static mut` is shared mutable state".into(),
                ),
            Item::Impl(i) => self.check_impl(i),
            Item::Use(u) => {
                for leaf in use_leaves(item) {
                    self.use_leaf(&leaf, line_of(u.use_token.span));
                }
            }
            Item::Verbatim(_) | Item::TraitAlias(_) => {
                self.refuse(span, "syntax", "an item the grader cannot check".into())
            }
            _ => {}
        }
    }

    /// Renames and globs of std, forbidden modules, in any `use`.
    fn use_leaf(&mut self, leaf: &Leaf, line: usize) {
        let path = leaf.path();
        let std_root = matches!(path.as_slice(), [r] if STD_ROOTS.contains(r));
        let renamed = matches!(leaf.end, End::Rename(..));
        if std_root && (renamed || leaf.end == End::Glob) {
            let reason = format!(
                "`use {}` renames or spreads a standard crate",
                leaf.render()
            );
            self.found.push((line, "std_alias", reason));
        }
        if let Some(rule) = leaf.forbidden() {
            self.found.push((
                line,
                rule,
                format!("`use {}` reaches a forbidden module", leaf.render()),
            ));
        }
    }

    fn check_attr(&mut self, a: &Attribute) {
        let span = a.pound_token.span;
        let tool: Vec<String> = a
            .path()
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        if tool == ["rustfmt", "skip"] && matches!(a.meta, Meta::Path(_)) {
            return;
        }
        let Some(name) = a.path().get_ident().map(|i| i.to_string()) else {
            let reason = format!("`#[{}]` is not on the allow-list", tool.join("::"));
            self.refuse(span, "attribute", reason);
            return;
        };
        let ok = match (name.as_str(), &a.meta) {
            ("doc", Meta::NameValue(nv)) => is_str_lit(&nv.value),
            ("must_use", Meta::NameValue(nv)) => is_str_lit(&nv.value),
            ("inline" | "cold" | "track_caller" | "must_use", Meta::Path(_)) => true,
            ("inline", Meta::List(_)) => {
                idents_in(a).is_some_and(|v| v.len() == 1 && (v[0] == "always" || v[0] == "never"))
            }
            ("allow" | "warn" | "deny" | "forbid" | "expect", Meta::List(_)) => lint_args(a),
            ("derive", Meta::List(_)) => {
                idents_in(a).is_some_and(|v| v.iter().all(|d| DERIVES.contains(&d.as_str())))
            }
            ("repr", Meta::List(_)) => {
                idents_in(a).is_some_and(|v| v.iter().all(|d| REPRS.contains(&d.as_str())))
            }
            _ => false,
        };
        if !ok {
            let rule = if name == "path" { "path" } else { "attribute" };
            let reason = format!("`#[{name}]` in this form is not on the allow-list");
            self.refuse(span, rule, reason);
        }
    }

    fn check_macro(&mut self, m: &syn::Macro) {
        let span = m.path.span();
        let segs: Vec<String> = m
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let plain = m.path.segments.iter().all(|s| s.arguments.is_none());
        let last = segs.last().map_or("", String::as_str);
        let rule = NAMED_MACROS
            .iter()
            .find(|(n, _)| *n == last)
            .map_or("macro", |(_, r)| *r);
        let name = match segs.as_slice() {
            [n] if m.path.leading_colon.is_none() => Some(n.as_str()),
            [root, n] if root == "std" || root == "core" => Some(n.as_str()),
            _ => None,
        }
        .filter(|_| plain);
        let Some(name) = name else {
            let reason = format!("`{}!` is not a standard macro", segs.join("::"));
            self.refuse(span, rule, reason);
            return;
        };
        if !MACROS.contains(&name) && !self.allowed(rule) {
            let reason = format!("`{name}!` is not on the grader's list of macros");
            self.refuse(span, rule, reason);
            return;
        }
        self.macro_args(name, m);
    }

    /// Parses an allowed macro's arguments as the expressions they are and
    /// checks them like any other code.
    fn macro_args(&mut self, name: &str, m: &syn::Macro) {
        if name == "stringify" {
            return;
        }
        let parsed = match name {
            "vec" => m
                .parse_body_with(parse_vec)
                .map(|v| v.into_iter().map(Node::Expr).collect()),
            "matches" => m.parse_body_with(parse_matches),
            _ => m
                .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                .map(|p| p.into_iter().map(Node::Expr).collect::<Vec<_>>()),
        };
        match parsed {
            Ok(nodes) => {
                for n in &nodes {
                    match n {
                        Node::Expr(e) => self.visit_expr(e),
                        Node::Pat(p) => self.visit_pat(p),
                    }
                }
            }
            Err(_) if !MACROS.contains(&name) => {}
            Err(e) => {
                let reason = format!(
                    "the arguments of `{name}!` do not parse, so they cannot be checked: {e}"
                );
                self.refuse(m.path.span(), "syntax", reason);
            }
        }
    }

    /// Refuses a node `syn` kept as raw tokens.
    fn verbatim(&mut self, span: Span) {
        self.refuse(span, "syntax", "syntax the grader cannot check".into());
    }

    /// Counts one level of nesting; false when the limit is passed.
    fn enter(&mut self, span: Span) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                let reason = format!("code nests deeper than {MAX_DEPTH} levels");
                self.refuse(span, "nesting", reason);
            }
            self.depth -= 1;
            return false;
        }
        true
    }
}

enum Node {
    Expr(Expr),
    Pat(syn::Pat),
}

fn parse_vec(input: syn::parse::ParseStream) -> syn::Result<Vec<Expr>> {
    if input.is_empty() {
        return Ok(Vec::new());
    }
    let first: Expr = input.parse()?;
    if input.peek(Token![;]) {
        input.parse::<Token![;]>()?;
        let n: Expr = input.parse()?;
        return Ok(vec![first, n]);
    }
    let mut all = vec![first];
    while input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        all.push(input.parse()?);
    }
    if !input.is_empty() {
        return Err(input.error("unexpected tokens"));
    }
    Ok(all)
}

fn parse_matches(input: syn::parse::ParseStream) -> syn::Result<Vec<Node>> {
    let e: Expr = input.parse()?;
    input.parse::<Token![,]>()?;
    let p = syn::Pat::parse_multi_with_leading_vert(input)?;
    let mut out = vec![Node::Expr(e), Node::Pat(p)];
    if input.peek(Token![if]) {
        input.parse::<Token![if]>()?;
        out.push(Node::Expr(input.parse()?));
    }
    if input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
    }
    if !input.is_empty() {
        return Err(input.error("unexpected tokens"));
    }
    Ok(out)
}

fn is_str_lit(e: &Expr) -> bool {
    matches!(e, Expr::Lit(l) if matches!(l.lit, syn::Lit::Str(_)))
}

/// The identifiers of an attribute's list, if it is a plain list of them.
fn idents_in(a: &Attribute) -> Option<Vec<String>> {
    let list = a
        .parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
        .ok()?;
    list.iter()
        .map(|p| p.get_ident().map(|i| i.to_string()))
        .collect()
}

/// `allow(a, clippy::b, reason = "...")`: lint paths and a string reason.
fn lint_args(a: &Attribute) -> bool {
    let Ok(list) = a.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) else {
        return false;
    };
    list.iter().all(|m| match m {
        Meta::Path(p) => p.segments.iter().all(|s| s.arguments.is_none()),
        Meta::NameValue(nv) => nv.path.is_ident("reason") && is_str_lit(&nv.value),
        Meta::List(_) => false,
    })
}

impl<'ast> Visit<'ast> for Checker<'_> {
    fn visit_attribute(&mut self, a: &'ast Attribute) {
        self.check_attr(a);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.check_macro(m);
    }

    fn visit_item(&mut self, i: &'ast Item) {
        self.check_item(i);
        syn::visit::visit_item(self, i);
    }

    fn visit_impl_item(&mut self, i: &'ast ImplItem) {
        if let ImplItem::Verbatim(_) = i {
            self.verbatim(i.span());
        }
        syn::visit::visit_impl_item(self, i);
    }

    fn visit_trait_item(&mut self, i: &'ast syn::TraitItem) {
        if let syn::TraitItem::Verbatim(_) = i {
            self.verbatim(i.span());
        }
        syn::visit::visit_trait_item(self, i);
    }

    fn visit_type_param_bound(&mut self, b: &'ast syn::TypeParamBound) {
        if let syn::TypeParamBound::Verbatim(_) = b {
            self.verbatim(b.span());
        }
        syn::visit::visit_type_param_bound(self, b);
    }

    fn visit_lit(&mut self, l: &'ast syn::Lit) {
        if let syn::Lit::Verbatim(_) = l {
            self.verbatim(l.span());
        }
    }

    fn visit_abi(&mut self, a: &'ast syn::Abi) {
        self.refuse(
            a.extern_token.span,
            "extern",
            "an `extern` ABI is foreign code".into(),
        );
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        let mut scope = Scope::default();
        for s in &b.stmts {
            if let syn::Stmt::Item(i) = s {
                scope.add(i);
            }
        }
        self.scopes.push(scope);
        syn::visit::visit_block(self, b);
        self.scopes.pop();
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        if let Expr::Verbatim(_) = e {
            self.verbatim(e.span());
        }
        if self.enter(e.span()) {
            syn::visit::visit_expr(self, e);
            self.depth -= 1;
        }
    }

    fn visit_type(&mut self, t: &'ast syn::Type) {
        if let syn::Type::Verbatim(_) = t {
            self.verbatim(t.span());
        }
        if self.enter(t.span()) {
            syn::visit::visit_type(self, t);
            self.depth -= 1;
        }
    }

    fn visit_pat(&mut self, p: &'ast syn::Pat) {
        if let syn::Pat::Verbatim(_) = p {
            self.verbatim(p.span());
        }
        if self.enter(p.span()) {
            syn::visit::visit_pat(self, p);
            self.depth -= 1;
        }
    }
}

/// The token-level checks on the accepted pieces of a learner's file:
/// raw and non-ASCII identifiers, `unsafe`, `extern`, forbidden paths and
/// names the given code imports from forbidden modules. Iterative.
fn scan(
    tokens: TokenStream,
    accepted: &[(LineColumn, LineColumn)],
    ctx: &Context,
) -> Vec<(usize, &'static str, String)> {
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
                    ident(&toks, i, &id.to_string(), ctx, &mut found)
                }
                _ => {}
            }
        }
    }
    found
}

/// The checks of one identifier on its own: spelling and forbidden imports.
fn scan_name(
    name: &str,
    line: usize,
    ctx: &Context,
    found: &mut Vec<(usize, &'static str, String)>,
) {
    let mut push = |rule: &'static str, reason: String| found.push((line, rule, reason));
    if name.starts_with("r#") {
        push("raw_ident", format!("the raw identifier `{name}`"));
    }
    if !name.is_ascii() {
        push("non_ascii", format!("the identifier `{name}` is not ASCII"));
    }
    if let Some(rule) = ctx.forbidden.get(name) {
        push(
            rule,
            format!("`{name}` is imported by the given code from `{rule}`"),
        );
    }
}

fn ident(
    toks: &[TokenTree],
    i: usize,
    name: &str,
    ctx: &Context,
    found: &mut Vec<(usize, &'static str, String)>,
) {
    let line = toks[i].span().start().line;
    scan_name(name, line, ctx, found);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A small chapter: a given type with a given impl, a stub function, an
    /// iterator whose `next` and an inherent method are stubs, and a binary.
    const LIB: &str = r#"//! A given chapter.

use std::fmt;

/// A given board.
#[derive(Clone, Debug)]
pub struct Board {
    cells: Vec<u8>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.cells.len() == other.cells.len() && self.cells == other.cells
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:?}", self.cells)
    }
}

/// Solves.
pub fn solve(n: usize, board: &Board) -> Vec<usize> {
    todo!("solve it")
}

/// The iterator.
pub struct Solutions {
    n: usize,
}

impl Solutions {
    /// Given.
    pub fn size(&self) -> usize {
        self.n
    }

    fn step(&mut self) -> bool {
        todo!("step")
    }
}

impl Iterator for Solutions {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        todo!("next")
    }
}
"#;

    const MAIN: &str =
        "use std::process::ExitCode;\n\nfn main() -> ExitCode {\n    ExitCode::SUCCESS\n}\n";

    fn stubs() -> Vec<String> {
        ["solve", "Solutions::step", "Solutions::next"]
            .map(String::from)
            .to_vec()
    }

    fn chapter() -> BTreeMap<PathBuf, String> {
        BTreeMap::from([
            (PathBuf::from("lib.rs"), LIB.to_string()),
            (PathBuf::from("main.rs"), MAIN.to_string()),
        ])
    }

    fn take_files(files: &[(&str, &[u8])], allow: &[&str]) -> ChapterIntake {
        let submitted = files
            .iter()
            .map(|(p, b)| (PathBuf::from(p), b.to_vec()))
            .collect();
        let allow: Vec<String> = allow.iter().map(|a| a.to_string()).collect();
        let intake = take(&chapter(), &submitted, &stubs(), &allow, &[]);
        for r in &intake.refused {
            assert!(
                RULES.contains(&r.rule) || FIXED_RULES.contains(&r.rule),
                "refusal with an unlisted rule: {r:?}"
            );
            assert!(!r.reason.contains('\n'), "a reason is one line: {r:?}");
        }
        intake
    }

    fn take_lib(lib: &str) -> ChapterIntake {
        take_files(&[("lib.rs", lib.as_bytes())], &[])
    }

    /// The chapter solved: every stub has a body.
    fn solved(solve_body: &str) -> String {
        LIB.replace("todo!(\"solve it\")", solve_body)
            .replace("todo!(\"step\")", "self.n > 0")
            .replace("todo!(\"next\")", "self.step().then_some(self.n)")
    }

    /// The solved chapter with `extra` items appended.
    fn with(extra: &str) -> String {
        format!("{}\n{extra}\n", solved("vec![n, board.cells.len()]"))
    }

    fn rules(i: &ChapterIntake) -> Vec<&'static str> {
        i.refused.iter().map(|r| r.rule).collect()
    }

    #[track_caller]
    fn assert_refused(src: &str, rule: &str) {
        let i = take_lib(src);
        assert!(
            rules(&i).contains(&rule),
            "expected rule `{rule}` for:\n{src}\ngot {:?}",
            i.refused
        );
    }

    #[track_caller]
    fn assert_accepted(src: &str) -> ChapterIntake {
        let i = take_lib(src);
        assert!(i.refused.is_empty(), "refused:\n{src}\n{:?}", i.refused);
        i
    }

    fn lib_of(i: &ChapterIntake) -> &str {
        &i.files[Path::new("lib.rs")]
    }

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
            lib_of(&i)
                .contains("self.cells.len() == other.cells.len() && self.cells == other.cells")
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
        assert_refused(&with("pub use std::collections::HashMap;"), "pub");
        assert_accepted(&with(
            "pub(crate) fn helper() -> usize { 1 }\nfn other() {}\nconst LIMIT: usize = 3;\nstatic TABLE: [u8; 2] = [1, 2];\ntype Pair = (usize, usize);\nenum Step { Up, Down }",
        ));
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

    /// The text `workbook stubs` starts from: the solution without its
    /// `#[cfg(test)]` and reference-only items, renamed to the learner's crate.
    fn learner_copy(text: &str, package: &str) -> String {
        let Ok(file) = syn::parse_file(text) else {
            return text.to_string();
        };
        let lines: Vec<&str> = text.lines().collect();
        let mut drop = BTreeSet::new();
        for item in &file.items {
            let attrs: &[Attribute] = match item {
                Item::Fn(i) => &i.attrs,
                Item::Mod(i) => &i.attrs,
                Item::Impl(i) => &i.attrs,
                Item::Struct(i) => &i.attrs,
                Item::Enum(i) => &i.attrs,
                Item::Use(i) => &i.attrs,
                Item::Const(i) => &i.attrs,
                Item::Static(i) => &i.attrs,
                Item::Type(i) => &i.attrs,
                _ => &[],
            };
            let start = attrs
                .first()
                .map_or(item.span().start().line, |a| a.span().start().line);
            let cfg_test = attrs.iter().any(|a| {
                a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
            });
            let marked = start > 1 && lines[start - 2].trim() == crate::stubs::REFERENCE_ONLY;
            if cfg_test || marked {
                drop.extend(start - usize::from(marked)..=item.span().end().line);
            }
        }
        let kept: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| !drop.contains(&(i + 1)))
            .map(|(_, l)| *l)
            .collect();
        (kept.join("\n") + "\n").replace(&format!("{package}_solution"), package)
    }

    fn rust_files(dir: &Path, base: &Path, out: &mut BTreeMap<PathBuf, String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
                out.insert(rel, std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }

    /// One chapter of the workbook: its pristine stubs, the reference as a
    /// learner would hand it in (by path under `src/`), and its stub keys.
    struct RealChapter {
        folder: String,
        pristine: BTreeMap<PathBuf, String>,
        solution: BTreeMap<PathBuf, String>,
        stubs: Vec<String>,
    }

    /// Every chapter: its pristine stubs and the reference as a learner would
    /// hand it in.
    fn real_chapters() -> Vec<RealChapter> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let chapters = crate::info::load_chapters(&root).unwrap_or_default();
        assert!(!chapters.is_empty(), "no chapters under {}", root.display());
        chapters
            .iter()
            .map(|c| {
                let mut pristine = BTreeMap::new();
                rust_files(&c.dir.join("src"), &c.dir.join("src"), &mut pristine);
                let sol = root.join("solutions").join(c.folder()).join("src");
                let mut solution = BTreeMap::new();
                rust_files(&sol, &sol, &mut solution);
                for text in solution.values_mut() {
                    *text = learner_copy(text, c.package());
                }
                let stubs = c.all_stubs().keys().map(|k| k.to_string()).collect();
                RealChapter {
                    folder: c.folder(),
                    pristine,
                    solution,
                    stubs,
                }
            })
            .collect()
    }

    #[test]
    fn every_reference_solution_is_accepted_and_rebuilds_the_reference() {
        for RealChapter {
            folder,
            pristine,
            solution,
            stubs,
        } in real_chapters()
        {
            let submitted = solution
                .iter()
                .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
                .collect();
            let i = take(&pristine, &submitted, &stubs, &[], &[]);
            assert!(i.refused.is_empty(), "{folder}: {:#?}", i.refused);
            for (rel, built) in &i.files {
                // Files without stubs are the pristine text by design; that
                // they match the reference is `workbook check`'s invariant.
                let Some(reference) = solution
                    .get(rel)
                    .filter(|_| pristine[rel].contains("todo!("))
                else {
                    continue;
                };
                assert_eq!(
                    canonical(built),
                    canonical(reference),
                    "{folder}/{}: the spliced file is not the reference",
                    rel.display()
                );
            }
        }
    }

    /// SplitMix64: the fuzz below is the same on every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    const PIECES: &[&str] = &[
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "<",
        ">",
        "!",
        "#[",
        "#![",
        "::",
        "r#",
        "unsafe",
        "mod m;",
        "\"",
        "'",
        "/*",
        "*/",
        "//",
        "\u{e9}",
        "std::fs",
        "impl",
        "pub ",
        "fn ",
        ";",
        ",",
        "=>",
        "macro_rules!",
        "b'",
        "r#\"",
        "\u{feff}",
        "\0",
        "\n",
    ];

    /// One random edit of `text`: cut, duplicate or insert a piece.
    fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
        let mut bytes = text.as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            let len = rng.below(64).min(bytes.len() - at);
            match rng.below(3) {
                0 => {
                    bytes.drain(at..at + len);
                }
                1 => {
                    let copy = bytes[at..at + len].to_vec();
                    bytes.splice(at..at, copy);
                }
                _ => {
                    let piece = PIECES[rng.below(PIECES.len())].as_bytes().to_vec();
                    bytes.splice(at..at, piece);
                }
            }
        }
        bytes
    }

    #[test]
    fn arbitrary_bytes_and_mutated_solutions_never_panic() {
        let mut rng = Rng(11);
        let chapters = real_chapters();
        for round in 0..300 {
            let RealChapter {
                folder,
                pristine,
                solution,
                stubs,
            } = &chapters[round % chapters.len()];
            let (rel, text) = solution
                .iter()
                .nth(rng.below(solution.len()))
                .unwrap_or_else(|| panic!("{folder} has no files"));
            let bytes = if round % 5 == 0 {
                (0..rng.below(400)).map(|_| rng.next() as u8).collect()
            } else {
                mutate(&mut rng, text)
            };
            let submitted = BTreeMap::from([(rel.clone(), bytes)]);
            let i = take(pristine, &submitted, stubs, &[], &[]);
            assert!(
                !rules(&i).contains(&"internal"),
                "{folder}/{} round {round}: {:?}",
                rel.display(),
                i.refused
            );
        }
    }
}
