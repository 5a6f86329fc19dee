//! What crosses between judge and subject: the stubbed functions of a
//! chapter, found with `syn`, and how each of their values is carried.
//!
//! The problem: every call from a suite into code a learner wrote must be
//! sent to another process and answered, with the same signature on the
//! judge's side. A call carries its arguments by value (`&T` as the `T` it
//! points at, `&[T]` as a `Vec<T>`, `&str` as a `String`), and its answer
//! carries the return value plus the new value of every `&mut` argument
//! (and of `&mut self`), which the judge writes back. Generic functions are
//! sent with the name of the type they were called with, and the subject
//! has an arm for every type of the crate that meets the bound. State: the
//! parsed files, the type aliases (so `&Graph` is known to be a slice) and
//! the trait implementations. Cost: one parse of each source file.

use anyhow::{Result, bail};
use proc_macro2::LineColumn;
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::spanned::Spanned;

/// One stubbed function, as it stands in a source file.
pub struct Stub {
    /// The file under `src/` it is in.
    pub file: PathBuf,
    /// Its key in `info.toml` (`count`, `QueensTree::is_up`).
    pub key: String,
    /// The name both sides use on the wire (`robot.rs::QueensTree::is_up`).
    pub id: String,
    /// The impl's self type and trait, for a method.
    pub self_ty: Option<String>,
    pub trait_path: Option<String>,
    pub sig: syn::Signature,
    /// The body's braces, and the line of its first statement.
    pub open: LineColumn,
    pub close: LineColumn,
    pub first_line: usize,
    /// Where a `where` clause goes (the end of the signature).
    pub sig_end: LineColumn,
    pub has_where: bool,
    /// Declared `pub` (or `pub(crate)`): the suites may call it.
    pub public: bool,
}

/// How one parameter travels.
pub enum Param {
    /// `self`, `&self`, `&mut self`.
    SelfValue,
    SelfRef,
    SelfMut,
    /// `x: T`: sent as `T`.
    Value {
        pat: PatSpan,
        ty: String,
    },
    /// `x: &T`: sent as `T`, received as the owned form (`Vec`, `String`).
    Ref {
        pat: PatSpan,
        owned: String,
    },
    /// `x: &mut T`: sent, then its new value comes back; `slice` when `T`
    /// is a slice, written back element by element.
    Mut {
        pat: PatSpan,
        owned: String,
        slice: bool,
    },
}

/// A parameter's pattern, to be renamed `__wb_aN` in the judge's copy.
pub struct PatSpan {
    pub start: LineColumn,
    pub end: LineColumn,
}

/// The crate's types as the carrying needs them.
#[derive(Default)]
pub struct Types {
    /// `type Graph = [Vec<usize>];`: alias name to its tokens.
    pub aliases: BTreeMap<String, syn::Type>,
    /// Trait name to the concrete types implementing it (with generic
    /// wrappers applied once: `Counted<Tree>` for `impl<R: Robot> Robot for
    /// Counted<R>`).
    pub implementors: BTreeMap<String, Vec<String>>,
    /// Structs and enums the judge and subject derive the codec for, by
    /// file: (position of the item, name).
    pub carried: BTreeMap<PathBuf, Vec<(LineColumn, String)>>,
    /// Fields of those types that are arrays serde does not carry by itself
    /// (over 32 items, or a length it cannot see): (position, type name).
    pub big_arrays: BTreeMap<PathBuf, Vec<(LineColumn, String)>>,
}

/// Fields holding arrays longer than serde's own impls reach (32), or of a
/// length given by a constant, with their owner's name.
fn big_arrays<'a>(
    owner: &str,
    fields: impl Iterator<Item = &'a syn::Field>,
) -> Vec<(LineColumn, String)> {
    fields
        .filter(|f| match &f.ty {
            syn::Type::Array(a) => match &a.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse::<usize>().map_or(true, |n| n > 32),
                _ => true,
            },
            _ => false,
        })
        .map(|f| (f.span().start(), owner.to_string()))
        .collect()
}

/// Whether a file belongs to the library (binaries are not carried).
pub fn library_file(rel: &Path) -> bool {
    rel.extension().is_some_and(|e| e == "rs")
        && rel != Path::new("main.rs")
        && !rel.starts_with("bin")
        && !rel
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("__wb"))
}

/// The module path of a library file (`crate::robot` for `robot.rs`).
pub fn module_of(rel: &Path) -> String {
    let mut parts = vec!["crate".to_string()];
    let mut comps: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if comps.last().is_some_and(|l| l == "lib" || l == "mod") {
        comps.pop();
    }
    parts.extend(comps);
    parts.join("::")
}

/// The stubs of `keys` in `files`, and the crate's types.
pub fn find(
    files: &BTreeMap<PathBuf, String>,
    keys: &BTreeSet<String>,
) -> Result<(Vec<Stub>, Types)> {
    let mut stubs = Vec::new();
    let mut types = Types::default();
    let mut generic_impls: Vec<(String, String, String)> = Vec::new();
    for (rel, text) in files.iter().filter(|(r, _)| library_file(r)) {
        let file = match syn::parse_file(text) {
            Ok(f) => f,
            Err(e) => bail!("{}: does not parse: {e}", rel.display()),
        };
        for item in &file.items {
            match item {
                syn::Item::Fn(f) => {
                    let key = f.sig.ident.to_string();
                    if keys.contains(&key) {
                        let public = !matches!(f.vis, syn::Visibility::Inherited);
                        stubs.push(stub(rel, key, None, None, &f.sig, &f.block, public));
                    }
                }
                syn::Item::Impl(i) => {
                    let owner = workbook_core::stubs::type_name(&i.self_ty);
                    let self_ty = i.self_ty.to_token_stream().to_string();
                    let trait_path = i
                        .trait_
                        .as_ref()
                        .map(|(_, p, _)| p.to_token_stream().to_string());
                    if let Some(t) = &trait_path {
                        implementor(i, t, &self_ty, &mut types, &mut generic_impls);
                    }
                    for member in &i.items {
                        if let syn::ImplItem::Fn(f) = member {
                            let key = format!("{owner}::{}", f.sig.ident);
                            if keys.contains(&key) {
                                stubs.push(stub(
                                    rel,
                                    key,
                                    Some(self_ty.clone()),
                                    trait_path.clone(),
                                    &f.sig,
                                    &f.block,
                                    !matches!(f.vis, syn::Visibility::Inherited),
                                ));
                            }
                        }
                    }
                }
                syn::Item::Type(t) => {
                    types.aliases.insert(t.ident.to_string(), (*t.ty).clone());
                }
                syn::Item::Struct(s) if s.generics.lifetimes().next().is_none() => {
                    let name = s.ident.to_string();
                    types
                        .big_arrays
                        .entry(rel.clone())
                        .or_default()
                        .extend(big_arrays(&name, s.fields.iter()));
                    types
                        .carried
                        .entry(rel.clone())
                        .or_default()
                        .push((item.span().start(), name));
                }
                syn::Item::Enum(e) if e.generics.lifetimes().next().is_none() => {
                    let name = e.ident.to_string();
                    types
                        .big_arrays
                        .entry(rel.clone())
                        .or_default()
                        .extend(big_arrays(
                            &name,
                            e.variants.iter().flat_map(|v| v.fields.iter()),
                        ));
                    types
                        .carried
                        .entry(rel.clone())
                        .or_default()
                        .push((item.span().start(), name));
                }
                _ => {}
            }
        }
    }
    // A generic wrapper implements the trait for every concrete implementor.
    for (trait_path, wrapper, param) in generic_impls {
        let base = types
            .implementors
            .get(&trait_path)
            .cloned()
            .unwrap_or_default();
        let wrapped: Vec<String> = base
            .iter()
            .map(|b| substitute(&wrapper, &param, b))
            .collect();
        types
            .implementors
            .entry(trait_path)
            .or_default()
            .extend(wrapped);
    }
    Ok((stubs, types))
}

fn implementor(
    i: &syn::ItemImpl,
    trait_path: &str,
    self_ty: &str,
    types: &mut Types,
    generic_impls: &mut Vec<(String, String, String)>,
) {
    let params: Vec<String> = i
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    match params.as_slice() {
        [] => types
            .implementors
            .entry(trait_path.to_string())
            .or_default()
            .push(self_ty.to_string()),
        [one] => generic_impls.push((trait_path.to_string(), self_ty.to_string(), one.clone())),
        _ => {}
    }
}

/// `ty` (tokens as text) with the type parameter `param` replaced by `by`.
pub fn substitute(ty: &str, param: &str, by: &str) -> String {
    ty.split_inclusive(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map(|piece| {
            let (word, rest) = piece.split_at(
                piece
                    .char_indices()
                    .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
                    .map_or(piece.len(), |(i, _)| i),
            );
            if word == param {
                format!("{by}{rest}")
            } else {
                piece.to_string()
            }
        })
        .collect()
}

fn stub(
    rel: &Path,
    key: String,
    self_ty: Option<String>,
    trait_path: Option<String>,
    sig: &syn::Signature,
    block: &syn::Block,
    public: bool,
) -> Stub {
    let open = block.brace_token.span.open().start();
    let close = block.brace_token.span.close().end();
    let first_line = block
        .stmts
        .first()
        .map_or(open.line, |s| s.span().start().line);
    Stub {
        file: rel.to_path_buf(),
        id: format!("{}::{key}", rel.display()),
        key,
        self_ty,
        trait_path,
        sig: sig.clone(),
        open,
        close,
        first_line,
        sig_end: sig.span().end(),
        has_where: sig.generics.where_clause.is_some(),
        public,
    }
}

impl Stub {
    /// How each parameter travels, or why one cannot.
    pub fn params(&self, types: &Types) -> Result<Vec<Param>> {
        let mut out = Vec::new();
        for input in &self.sig.inputs {
            match input {
                syn::FnArg::Receiver(r) => out.push(match (&r.reference, &r.mutability) {
                    (None, _) => Param::SelfValue,
                    (Some(_), None) => Param::SelfRef,
                    (Some(_), Some(_)) => Param::SelfMut,
                }),
                syn::FnArg::Typed(p) => {
                    let pat = PatSpan {
                        start: p.pat.span().start(),
                        end: p.pat.span().end(),
                    };
                    out.push(match &*p.ty {
                        syn::Type::Reference(r) => {
                            let (owned, slice) = owned(&r.elem, types);
                            if r.mutability.is_some() {
                                Param::Mut { pat, owned, slice }
                            } else {
                                Param::Ref { pat, owned }
                            }
                        }
                        syn::Type::ImplTrait(_) => bail!(
                            "`{}` takes an `impl Trait` argument, which cannot be carried to another process",
                            self.key
                        ),
                        ty => Param::Value {
                            pat,
                            ty: ty.to_token_stream().to_string(),
                        },
                    });
                }
            }
        }
        Ok(out)
    }

    /// The return type as text (`()` when none), or why it cannot travel.
    pub fn output(&self) -> Result<String> {
        match &self.sig.output {
            syn::ReturnType::Default => Ok("()".into()),
            syn::ReturnType::Type(_, ty) => {
                let text = ty.to_token_stream().to_string();
                if matches!(**ty, syn::Type::ImplTrait(_)) || text.contains('&') {
                    bail!(
                        "`{}` returns `{text}`, a borrow or an `impl Trait`, which cannot be carried to another process",
                        self.key
                    );
                }
                Ok(text)
            }
        }
    }

    /// The function's type parameters, each with the concrete types the
    /// subject accepts for it (the implementors of its first trait bound).
    pub fn generics(&self, types: &Types) -> Result<Vec<(String, Vec<String>)>> {
        let mut out = Vec::new();
        for p in self.sig.generics.type_params() {
            let bound = p.bounds.iter().find_map(|b| match b {
                syn::TypeParamBound::Trait(t) => Some(t.path.to_token_stream().to_string()),
                _ => None,
            });
            let Some(bound) = bound else {
                bail!(
                    "`{}` has a type parameter `{}` with no trait bound: the subject cannot know which types to accept",
                    self.key,
                    p.ident
                );
            };
            let list = types.implementors.get(&bound).cloned().unwrap_or_default();
            out.push((p.ident.to_string(), list));
        }
        Ok(out)
    }

    /// The call path the subject uses (`count`, `<QueensTree as Robot>::is_up`).
    pub fn callee(&self) -> String {
        let name = self.sig.ident.to_string();
        match (&self.self_ty, &self.trait_path) {
            (Some(s), Some(t)) => format!("<{s} as {t}>::{name}"),
            (Some(s), None) => format!("<{s}>::{name}"),
            _ => name,
        }
    }
}

/// The owned form of the type a reference points at, and whether it is a
/// slice (`[T]` becomes `Vec<T>`, `str` becomes `String`, an alias of
/// either is followed).
fn owned(ty: &syn::Type, types: &Types) -> (String, bool) {
    match ty {
        syn::Type::Slice(s) => (format!("Vec<{}>", s.elem.to_token_stream()), true),
        syn::Type::Path(p) if p.path.is_ident("str") => ("String".into(), true),
        syn::Type::Path(p) => match p
            .path
            .get_ident()
            .and_then(|i| types.aliases.get(&i.to_string()))
        {
            // An alias of a slice or of `str` travels as their owned form.
            Some(syn::Type::Slice(s)) => (format!("Vec<{}>", s.elem.to_token_stream()), true),
            Some(syn::Type::Path(t)) if t.path.is_ident("str") => ("String".into(), true),
            _ => (ty.to_token_stream().to_string(), false),
        },
        _ => (ty.to_token_stream().to_string(), false),
    }
}
