//! The checker: the grammar, checked on every syntax tree the splice takes.
//!
//! The problem: a deny-list misses what it does not visit, so the checker
//! is a `syn` visitor that sees every node of what is taken (stub bodies,
//! changed signatures, new items, members added to given impls, the
//! arguments of allowed macros parsed as the expressions they are) and
//! checks each attribute, macro call, item, impl and `use` tree against
//! [`policy`](super::policy)'s tables, wherever it sits. Which impls a
//! learner may write depends on what a name means where the impl is, so
//! the checker keeps a stack of [`Scope`]s (the learner's top level, then
//! one per block). State: that stack, the depth of the current
//! expression, type or pattern (bounded by `MAX_DEPTH`, so the visit cannot
//! overflow), and the refusals found. Cost: one visit of each taken tree.
//!
//! rustc (1.95) on a private inherent method named like a public trait
//! method (`fn count` in `impl Solutions` beside `impl Iterator`): code
//! outside the module that defines it does not see it and calls the trait
//! method (no E0624), so the test crate is unaffected; code inside that
//! module, and anywhere in the crate for a `pub(crate)` method, calls the
//! inherent one. Given code could therefore be taken over, which is why a
//! new method on a given type (or of a learner's trait implemented for a
//! given type) may not take a name the given code mentions (`method_name`).

use super::given::{
    Context, End, Leaf, fn_like, impl_item_name, impl_item_vis, item_name, item_vis, use_leaves,
};
use super::policy::{DERIVES, MACROS, MAX_DEPTH, NAMED_MACROS, REPRS, RULES, STD_ROOTS};
use proc_macro2::Span;
use std::collections::BTreeMap;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, Expr, ImplItem, Item, Meta, Token, Visibility};

/// What a name in scope is, for deciding which impls a learner may write.
#[derive(Debug, Clone)]
pub(super) enum Kind {
    /// A struct or enum the learner defines.
    Type,
    /// A trait the learner defines, with the names of its items.
    Trait(Vec<String>),
    /// A function, or an import named like one (lower case): what a cast
    /// to an integer may not take (see [`soundness`](super::soundness)).
    Fn,
    /// A binding of a pattern (a parameter, a `let`), which hides an item
    /// of the same name from where it is bound.
    Local,
    /// Anything else: a given item, an import, an alias.
    Other,
}

#[derive(Debug, Default)]
pub(super) struct Scope {
    pub(super) kinds: BTreeMap<String, Kind>,
}

impl Scope {
    pub(super) fn insert(&mut self, name: String, kind: Kind) {
        self.kinds.entry(name).or_insert(kind);
    }

    /// A pattern binds `name` here: it hides whatever the name meant.
    pub(super) fn bind(&mut self, name: String) {
        self.kinds.insert(name, Kind::Local);
    }

    pub(super) fn add(&mut self, item: &Item) {
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
            Item::Fn(_) => Kind::Fn,
            _ => Kind::Other,
        };
        if let Some(name) = item_name(item) {
            self.insert(name, kind);
        }
        for b in use_leaves(item).iter().filter_map(Leaf::binding) {
            let kind = if fn_like(&b) { Kind::Fn } else { Kind::Other };
            self.insert(b, kind);
        }
    }
}

/// The structural checks, run on every accepted syntax tree.
/// The names a pattern binds.
pub(super) fn bindings(p: &syn::Pat) -> Vec<String> {
    #[derive(Default)]
    struct Bound(Vec<String>);
    impl<'ast> Visit<'ast> for Bound {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut bound = Bound::default();
    bound.visit_pat(p);
    bound.0
}

pub(super) struct Checker<'a> {
    ctx: &'a Context<'a>,
    /// Visiting given code (a stub's signature with only `mut` added): the
    /// soundness stopgap, which is about what the learner writes, is off.
    pub(super) given: bool,
    pub(super) found: Vec<(usize, &'static str, String)>,
    depth: usize,
    too_deep: bool,
    pub(super) scopes: Vec<Scope>,
}

fn line_of(s: Span) -> usize {
    s.start().line
}

impl<'a> Checker<'a> {
    pub(super) fn new(ctx: &'a Context<'a>) -> Self {
        Checker {
            ctx,
            found: Vec::new(),
            depth: 0,
            too_deep: false,
            scopes: Vec::new(),
            given: false,
        }
    }

    pub(super) fn refuse(&mut self, span: Span, rule: &'static str, reason: String) {
        self.found.push((line_of(span), rule, reason));
    }

    fn allowed(&self, rule: &str) -> bool {
        RULES.contains(&rule) && self.ctx.allow.iter().any(|a| a == rule)
    }

    /// The innermost meaning of a single-identifier name.
    pub(super) fn kind(&self, name: &str) -> Option<&Kind> {
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
    pub(super) fn given_type_member(&mut self, member: &ImplItem) {
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
    pub(super) fn use_leaf(&mut self, leaf: &Leaf, line: usize) {
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

    fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
        self.lifetime(l);
    }

    // Labels are not lifetimes, though `syn` spells them alike.
    fn visit_label(&mut self, _: &'ast syn::Label) {}

    fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
        for a in &b.attrs {
            self.visit_attribute(a);
        }
        if let Some(e) = &b.expr {
            self.visit_expr(e);
        }
    }

    fn visit_expr_continue(&mut self, c: &'ast syn::ExprContinue) {
        for a in &c.attrs {
            self.visit_attribute(a);
        }
    }

    fn visit_bound_lifetimes(&mut self, b: &'ast syn::BoundLifetimes) {
        self.higher_ranked(b);
        syn::visit::visit_bound_lifetimes(self, b);
    }

    fn visit_type_bare_fn(&mut self, t: &'ast syn::TypeBareFn) {
        self.fn_pointer(t);
        syn::visit::visit_type_bare_fn(self, t);
    }

    fn visit_type_trait_object(&mut self, t: &'ast syn::TypeTraitObject) {
        self.dyn_binding(t);
        syn::visit::visit_type_trait_object(self, t);
    }

    fn visit_expr_cast(&mut self, c: &'ast syn::ExprCast) {
        self.cast(c);
        syn::visit::visit_expr_cast(self, c);
    }

    // Where pattern bindings live, so a cast knows a local from a function:
    // a function's parameters, a closure's, a match arm's; a `let` binds in
    // its block from the next statement on (its initializer is visited
    // first). `if let`, `while let` and `for` bind in the enclosing block,
    // which can only hide a function too many, never one too few.
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.bind(p.ident.to_string());
        }
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        for a in &l.attrs {
            self.visit_attribute(a);
        }
        if let Some(init) = &l.init {
            self.visit_local_init(init);
        }
        self.visit_pat(&l.pat);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.scopes.push(Scope::default());
        syn::visit::visit_item_fn(self, f);
        self.scopes.pop();
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.scopes.push(Scope::default());
        syn::visit::visit_impl_item_fn(self, f);
        self.scopes.pop();
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.scopes.push(Scope::default());
        syn::visit::visit_trait_item_fn(self, f);
        self.scopes.pop();
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.scopes.push(Scope::default());
        syn::visit::visit_expr_closure(self, c);
        self.scopes.pop();
    }

    fn visit_arm(&mut self, a: &'ast syn::Arm) {
        self.scopes.push(Scope::default());
        syn::visit::visit_arm(self, a);
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
