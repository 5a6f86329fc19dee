//! What the pristine stubs give, and what the chapter's given code uses.
//!
//! The problem: the splice must know, for each pristine file, where every
//! stub function's signature and body sit, which names and impls are given,
//! and, for the whole chapter, which names the given code refers to (a
//! helper named like one would shadow it) and which methods it calls (a new
//! method named like one would take the call over). State: a [`Context`]
//! per chapter and a [`Given`] per pristine file, built once from the
//! parsed pristine stubs, plus what the checker and the splice share
//! about names: the flattened leaves of `use` trees and which names may be
//! functions ([`fn_like`]). Cost: one walk of each pristine syntax tree.

use super::policy::{STD_ROOTS, forbidden_path};
use super::tokens::for_each_token;
use proc_macro2::TokenTree;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{ImplItem, Item, UseTree, Visibility};
use workbook_core::stubs::type_name;

/// Whether an imported name may be a function: functions are named in
/// lower case, types, traits and constants are not (modules are, but a
/// module cannot be cast).
pub(super) fn fn_like(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
}

/// What the given code of the whole chapter uses.
pub(super) struct Context<'a> {
    pub(super) allow: &'a [String],
    /// Every path segment, method-call name and macro-token identifier.
    pub(super) methods: BTreeSet<String>,
    /// First path segments, in any pristine file.
    pub(super) first: BTreeSet<String>,
    /// Names bound by patterns, in any pristine file.
    pub(super) bound: BTreeSet<String>,
    /// Names the given code imports from a forbidden module, with the rule.
    pub(super) forbidden: BTreeMap<String, &'static str>,
    /// Crate roots the given code imports from (`rayon`, `num_bigint`, ...).
    pub(super) crates: BTreeSet<String>,
    /// Some given file glob-imports from the crate itself.
    pub(super) local_glob: bool,
}

impl<'a> Context<'a> {
    pub(super) fn new<'f>(files: impl Iterator<Item = &'f syn::File>, allow: &'a [String]) -> Self {
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
pub(super) struct Names {
    pub(super) methods: BTreeSet<String>,
    /// First segments of paths (and every identifier in macro tokens).
    pub(super) first: BTreeSet<String>,
    /// Names bound by patterns (a constant of that name would change them).
    pub(super) bound: BTreeSet<String>,
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

/// One leaf of a `use` tree: `::a::b::c`, `a::b::c as d`, `a::b::*`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Leaf {
    pub(super) rooted: bool,
    pub(super) prefix: Vec<String>,
    pub(super) end: End,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum End {
    Name(String),
    Rename(String, String),
    Glob,
}

impl Leaf {
    /// The whole path the leaf names (without the rename).
    pub(super) fn path(&self) -> Vec<&str> {
        let mut p: Vec<&str> = self.prefix.iter().map(String::as_str).collect();
        match &self.end {
            End::Name(n) | End::Rename(n, _) if n != "self" => p.push(n),
            _ => {}
        }
        p
    }

    pub(super) fn root(&self) -> &str {
        self.path().first().copied().unwrap_or("")
    }

    /// The name the leaf binds, if any.
    pub(super) fn binding(&self) -> Option<String> {
        match &self.end {
            End::Name(n) if n == "self" => self.prefix.last().cloned(),
            End::Name(n) => Some(n.clone()),
            End::Rename(_, r) if r == "_" => None,
            End::Rename(_, r) => Some(r.clone()),
            End::Glob => None,
        }
    }

    /// The rule of the forbidden module the leaf reaches, if any.
    pub(super) fn forbidden(&self) -> Option<&'static str> {
        forbidden_path(&self.path())
    }

    pub(super) fn render(&self) -> String {
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

pub(super) fn use_leaves(item: &Item) -> Vec<Leaf> {
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
pub(super) fn item_name(item: &Item) -> Option<String> {
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

pub(super) fn item_vis(item: &Item) -> Option<&Visibility> {
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

pub(super) fn impl_item_name(item: &ImplItem) -> Option<String> {
    match item {
        ImplItem::Fn(f) => Some(f.sig.ident.to_string()),
        ImplItem::Const(c) => Some(c.ident.to_string()),
        ImplItem::Type(t) => Some(t.ident.to_string()),
        _ => None,
    }
}

pub(super) fn impl_item_vis(item: &ImplItem) -> Option<&Visibility> {
    match item {
        ImplItem::Fn(f) => Some(&f.vis),
        ImplItem::Const(c) => Some(&c.vis),
        ImplItem::Type(t) => Some(&t.vis),
        _ => None,
    }
}

/// Top-level names of a file (items and `use` bindings) with their byte ranges.
pub(super) fn top_names(file: &syn::File) -> BTreeMap<String, Range<usize>> {
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
pub(super) fn impl_key(i: &syn::ItemImpl) -> (String, String) {
    let tr = i
        .trait_
        .as_ref()
        .and_then(|(_, p, _)| p.segments.last())
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    (tr, type_name(&i.self_ty))
}

/// Where a stub function sits in the pristine text.
pub(super) struct FnAt {
    pub(super) sig: Range<usize>,
    pub(super) body: Range<usize>,
}

fn fn_at(sig: &syn::Signature, block: &syn::Block) -> FnAt {
    FnAt {
        sig: sig.span().byte_range(),
        body: block.brace_token.span.join().byte_range(),
    }
}

/// A pristine impl block.
pub(super) struct ImplAt {
    pub(super) key: (String, String),
    pub(super) is_trait: bool,
    /// The byte offset of its closing brace.
    pub(super) close: usize,
    pub(super) items: BTreeMap<String, Range<usize>>,
    pub(super) stubs: BTreeMap<String, FnAt>,
}

/// What one pristine file gives.
pub(super) struct Given {
    pub(super) names: BTreeMap<String, Range<usize>>,
    pub(super) leaves: BTreeSet<String>,
    /// The leaves of its `pub use` items: a learner's `pub use` of a leaf
    /// the stub imports privately is noted (the stub's line is built).
    pub(super) pub_leaves: BTreeSet<String>,
    pub(super) first: BTreeSet<String>,
    pub(super) bound: BTreeSet<String>,
    pub(super) stub_fns: BTreeMap<String, FnAt>,
    pub(super) impls: Vec<ImplAt>,
    /// Top-level functions, and imports named like functions (lower case):
    /// what a learner's cast to an integer may not take.
    pub(super) fns: BTreeSet<String>,
}

impl Given {
    pub(super) fn new(file: &syn::File, stubs: &[String]) -> Self {
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
            pub_leaves: file
                .items
                .iter()
                .filter(
                    |i| matches!(i, Item::Use(u) if matches!(u.vis, syn::Visibility::Public(_))),
                )
                .flat_map(use_leaves)
                .map(|l| l.render())
                .collect(),
            first: names.first,
            bound: names.bound,
            stub_fns: BTreeMap::new(),
            impls: Vec::new(),
            fns: file
                .items
                .iter()
                .flat_map(use_leaves)
                .filter_map(|l| l.binding())
                .filter(|b| fn_like(b))
                .collect(),
        };
        for item in &file.items {
            if let Item::Fn(f) = item {
                g.fns.insert(f.sig.ident.to_string());
            }
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

    pub(super) fn has_stubs(&self) -> bool {
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
