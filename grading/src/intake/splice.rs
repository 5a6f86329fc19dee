//! The splice: what is taken from a learner's file, and where it goes in
//! the pristine text.
//!
//! The problem: given code must come from the pristine stubs whatever the
//! learner's copy says, yet the learner's bodies and helpers must land
//! where they compile as written. So the pristine text is edited, never
//! the learner's: each stub body is replaced by the learner's body (and
//! its signature by the learner's only when they differ by a `mut` on a
//! parameter), a new method on a given type goes before the closing brace
//! of the given impl that owns the type, and new items and `use` leaves
//! are appended to the file. A given item in the learner's copy is
//! compared with the pristine one and, when it differs, noted and ignored.
//! Every piece taken goes through the [`Checker`] and is marked for the
//! token scan. State: a [`Splicer`] per file: the edits, the spans taken,
//! the stubs found and the checker. Cost: one walk of the learner's items
//! and one pass over the pristine text to apply the edits.

use super::checker::{Checker, Kind, Scope, bindings};
use super::given::{
    Context, End, FnAt, Given, ImplAt, Leaf, impl_item_name, impl_key, item_name, item_vis,
    use_leaves,
};
use super::policy::STD_ROOTS;
use super::tokens::{Learner, canonical, read_learner, scan, scan_name};
use proc_macro2::{LineColumn, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, ImplItem, Item, Visibility};

/// Slices `text` by a byte range, or "" if the range does not fit.
fn slice<'t>(text: &'t str, r: &Range<usize>) -> &'t str {
    text.get(r.clone()).unwrap_or("")
}

/// One file's refusals (line, rule, reason) and notes, in the order they
/// are found; the intake files them under the file's path.
#[derive(Debug, Default)]
pub(super) struct FileOut {
    pub(super) refused: Vec<(usize, &'static str, String)>,
    pub(super) notes: Vec<String>,
}

impl FileOut {
    fn refuse(&mut self, line: usize, rule: &'static str, reason: String) {
        self.refused.push((line, rule, reason));
    }

    fn note(&mut self, what: String) {
        self.notes.push(what);
    }
}

/// One pristine file and the learner's copy of it: the text to build, and
/// what was refused and noted on the way.
pub(super) fn take_file(
    ctx: &Context,
    text: &str,
    file: &syn::File,
    submitted: Option<&[u8]>,
    stubs: &[String],
) -> (String, FileOut) {
    let given = Given::new(file, stubs);
    let mut fo = FileOut::default();
    let Some(bytes) = submitted else {
        if given.has_stubs() {
            fo.note("not submitted; the stub was used".into());
        }
        return (text.to_string(), fo);
    };
    if !given.has_stubs() {
        if bytes != text.as_bytes() {
            fo.note("has no function to write; your changes were ignored".into());
        }
        return (text.to_string(), fo);
    }
    let spliced = match read_learner(bytes) {
        Ok(learner) => splice(ctx, &given, text, &learner, &mut fo),
        Err((line, rule, reason)) => {
            fo.refuse(line, rule, reason);
            text.to_string()
        }
    };
    (spliced, fo)
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
    sp.checker.scopes.push(top_scope(&learner.file, given));
    for item in &learner.file.items {
        sp.item(item, fo);
    }
    sp.missing(fo);
    for (line, rule, reason) in std::mem::take(&mut sp.checker.found) {
        fo.refuse(line, rule, reason);
    }
    for (line, rule, reason) in scan(learner.tokens.clone(), &sp.accepted, &ctx.forbidden) {
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
fn top_scope(file: &syn::File, given: &Given) -> Scope {
    let kind = |name: &str| {
        if given.fns.contains(name) {
            Kind::Fn
        } else {
            Kind::Other
        }
    };
    let mut scope = Scope::default();
    for item in &file.items {
        if let Some(name) = item_name(item)
            && given.names.contains_key(&name)
        {
            scope.insert(name.clone(), kind(&name));
            continue;
        }
        scope.add(item);
    }
    for name in given.names.keys() {
        scope.insert(name.clone(), kind(name));
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
                // Given code, but for a `mut`: checked as what it is, and
                // not held to the stopgap on what learners write.
                self.checker.given = true;
                self.checker.visit_signature(sig);
                self.checker.given = false;
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
        // The parameters are bound in the body (a cast must know a
        // parameter from a function of the same name).
        let mut params = Scope::default();
        for input in &sig.inputs {
            if let syn::FnArg::Typed(t) = input {
                for name in bindings(&t.pat) {
                    params.bind(name);
                }
            }
        }
        self.checker.scopes.push(params);
        self.checker.visit_block(block);
        self.checker.scopes.pop();
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

    /// A top-level `use`: each new leaf is checked and re-emitted on its
    /// own. A leaf the pristine file itself imports is given: the pristine
    /// line is built whatever the learner's copy says, so a stub's own
    /// `pub use` handed back unchanged is no export of the learner's. A
    /// new leaf of a `pub use` is built without its `pub` (and noted): the
    /// learner's code may use the name, no test can ever reach it through
    /// the crate (rule `pub`: a chapter exports only what its stub does).
    fn new_use(&mut self, u: &syn::ItemUse, fo: &mut FileOut) {
        let line = u.use_token.span.start().line;
        for a in &u.attrs {
            self.checker.visit_attribute(a);
        }
        let public = matches!(u.vis, Visibility::Public(_));
        let vis = match &u.vis {
            Visibility::Inherited | Visibility::Public(_) => String::new(),
            v => format!("{} ", self.learner_text(&v.span().byte_range())),
        };
        let mut new = Vec::new();
        for leaf in use_leaves(&Item::Use(u.clone())) {
            if self.given.leaves.contains(&leaf.render()) {
                if public && !self.given.pub_leaves.contains(&leaf.render()) {
                    fo.note(format!(
                        "`pub use {}`: the stub imports it without `pub`; the stub's line was built",
                        leaf.render()
                    ));
                }
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
            new.push(leaf);
        }
        for leaf in new {
            if self.use_leaf(&leaf, line, !vis.is_empty()) {
                if public {
                    fo.note(format!(
                        "`pub use {}`: a chapter exports only what its stub exports; imported without `pub`",
                        leaf.render()
                    ));
                }
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
            scan_name(seg, line, &self.ctx.forbidden, &mut self.checker.found);
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
