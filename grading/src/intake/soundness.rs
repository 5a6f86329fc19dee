//! A stopgap against known rustc soundness bugs, in what the learner writes.
//!
//! The problem: the grammar keeps `unsafe` out, but rustc has soundness
//! bugs that give memory-unsafe behaviour without it. The known exploits of
//! the oldest, rust-lang/rust#25860 (used by the `cve-rs` crate: a
//! lifetime extended to `'static` through a function-pointer coercion
//! that forgets the implied bound `'b: 'a` of `&'a &'b ()`), need a
//! function that names two lifetimes, a function-pointer type or a
//! higher-ranked binder to coerce it to, and often a cast of a function or
//! pointer to an integer. The exercises never need any of these, so the
//! intake refuses them in learner-written code (the bodies of stubbed
//! functions and new items; never the given signatures, which come from the
//! pristine stubs), each under its own rule so a test fixture can relax one
//! to attack the next line of defence, the sandbox:
//!
//! * `lifetime`: a named lifetime, declared (`<'a>`) or used (`&'a T`,
//!   `T: 'a`, `Foo<'a>`). `'static` and `'_` stay allowed: neither relates
//!   two lifetimes, so neither can state the bound the bug forgets, and
//!   `&'static str` tables and `Formatter<'_>` are ordinary code. Labels
//!   (`'outer: loop`) are not lifetimes and stay allowed.
//! * `higher_ranked`: a `for<...>` binder, in a bound or a type.
//! * `fn_pointer`: a function-pointer type, `fn(..) -> ..`, anywhere (a
//!   binding's type, a field, a parameter, an alias, a cast target).
//!   Closures, `impl Fn`, `dyn Fn` and passing a function by name stay
//!   allowed.
//! * `ptr_cast`: an `as` cast to a raw pointer (`&x as *const u8`), or to
//!   an integer (or `_`) of what is syntactically a function or a pointer:
//!   a path to a function (a name the learner or the given code defines as
//!   a function and no pattern has bound since, an imported lower-case
//!   name, a path of several segments whose last is lower case, a
//!   turbofish), a cast to a raw or function pointer, or `as_ptr()` /
//!   `as_mut_ptr()`. A pointer or function held in a variable is out of its
//!   reach (the variable's type is not known without type checking); the
//!   rules above keep such variables from being typed by hand.
//! * `dyn_binding`: a trait object with an associated-type binding, `dyn
//!   Trait<.., Assoc = ..>`. rust-lang/rust#57893 (a blanket impl of a
//!   trait with an associated type that overlaps the trait object's own)
//!   gives a transmute with none of the constructions above, and it needs
//!   exactly this type to name the object whose projection rustc gets
//!   wrong. `dyn Fn(u8) -> u8` (whose output is written in parentheses)
//!   stays allowed; the exercises never need the rest.
//!
//! State: none of its own; it reads the checker's scopes (what a name means
//! where the cast is) and its `given` flag. Cost: a look at each lifetime,
//! binder, function-pointer type and cast the checker visits.

use super::checker::{Checker, Kind};
use super::given::fn_like;
use syn::{Expr, PathArguments, Type};

/// The integer types a cast may target.
const INTEGERS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// Why the rules exist, in every reason (one line).
const WHY: &str = "a construction the exercises never need and known exploits of rustc soundness bugs do (rust-lang/rust#25860)";

/// The same for `dyn_binding`.
const WHY_57893: &str = "a construction the exercises never need and the known exploit of rust-lang/rust#57893 (a transmute without `unsafe`) does";

impl Checker<'_> {
    /// `'a` anywhere in learner code, but `'static` and `'_`.
    pub(super) fn lifetime(&mut self, l: &syn::Lifetime) {
        let name = l.ident.to_string();
        if self.given || name == "static" || name == "_" {
            return;
        }
        let reason =
            format!("the named lifetime `'{name}` (only `'static` and `'_` may be named): {WHY}");
        self.refuse(l.apostrophe, "lifetime", reason);
    }

    /// `for<'a>` in a bound, a where clause or a type.
    pub(super) fn higher_ranked(&mut self, b: &syn::BoundLifetimes) {
        if self.given {
            return;
        }
        let reason = format!("a higher-ranked `for<...>` binder: {WHY}");
        self.refuse(b.for_token.span, "higher_ranked", reason);
    }

    /// `fn(..) -> ..` as a type.
    pub(super) fn fn_pointer(&mut self, t: &syn::TypeBareFn) {
        if self.given {
            return;
        }
        let reason = format!(
            "the function-pointer type `fn(..)` (closures, `impl Fn` and passing a function by name are fine): {WHY}"
        );
        self.refuse(t.fn_token.span, "fn_pointer", reason);
    }

    /// `dyn Trait<.., Assoc = ..>` (a binding in angle brackets; the
    /// parenthesized `dyn Fn(..) -> ..` has none).
    pub(super) fn dyn_binding(&mut self, t: &syn::TypeTraitObject) {
        if self.given {
            return;
        }
        for b in &t.bounds {
            let syn::TypeParamBound::Trait(tb) = b else {
                continue;
            };
            for seg in &tb.path.segments {
                let PathArguments::AngleBracketed(a) = &seg.arguments else {
                    continue;
                };
                let bound = a.args.iter().any(|g| {
                    matches!(
                        g,
                        syn::GenericArgument::AssocType(_)
                            | syn::GenericArgument::AssocConst(_)
                            | syn::GenericArgument::Constraint(_)
                    )
                });
                if bound {
                    let reason = format!(
                        "the trait object `dyn {}<.., {} = ..>` with an associated-type binding: {WHY_57893}",
                        seg.ident,
                        a.args
                            .iter()
                            .find_map(|g| match g {
                                syn::GenericArgument::AssocType(x) => Some(x.ident.to_string()),
                                syn::GenericArgument::AssocConst(x) => Some(x.ident.to_string()),
                                syn::GenericArgument::Constraint(x) => Some(x.ident.to_string()),
                                _ => None,
                            })
                            .unwrap_or_default()
                    );
                    self.refuse(seg.ident.span(), "dyn_binding", reason);
                    return;
                }
            }
        }
    }

    /// `x as *const T`, and `f as usize` for a function or pointer `f`.
    pub(super) fn cast(&mut self, c: &syn::ExprCast) {
        if self.given {
            return;
        }
        let what = match peel_type(&c.ty) {
            Type::Ptr(_) => Some("a cast to a raw pointer".to_string()),
            t if is_integer(t) || matches!(t, Type::Infer(_)) => self
                .pointer_like(&c.expr)
                .map(|what| format!("a cast of {what} to an integer")),
            _ => None,
        };
        if let Some(what) = what {
            self.refuse(c.as_token.span, "ptr_cast", format!("{what}: {WHY}"));
        }
    }

    /// What `e` is, when it is syntactically a function or a pointer.
    fn pointer_like(&self, e: &Expr) -> Option<String> {
        match peel_expr(e) {
            Expr::Cast(inner) => match peel_type(&inner.ty) {
                Type::Ptr(_) => Some("a raw pointer".into()),
                Type::BareFn(_) => Some("a function pointer".into()),
                _ => None,
            },
            Expr::MethodCall(m) if m.method == "as_ptr" || m.method == "as_mut_ptr" => {
                Some(format!("the pointer from `{}()`", m.method))
            }
            Expr::Path(p) if self.names_fn(p) => {
                let path: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                Some(format!("the function `{}`", path.join("::")))
            }
            _ => None,
        }
    }

    /// Whether a path expression names a function, as far as syntax and the
    /// checker's scopes tell.
    fn names_fn(&self, p: &syn::ExprPath) -> bool {
        let segments = &p.path.segments;
        let turbofish = segments
            .iter()
            .any(|s| matches!(s.arguments, PathArguments::AngleBracketed(_)));
        let Some(last) = segments.last() else {
            return false;
        };
        let name = last.ident.to_string();
        if turbofish {
            return true;
        }
        if p.qself.is_some() || segments.len() > 1 || p.path.leading_colon.is_some() {
            return fn_like(&name);
        }
        matches!(self.kind(&name), Some(Kind::Fn))
    }
}

/// `e` without the parentheses and invisible groups around it.
fn peel_expr(mut e: &Expr) -> &Expr {
    loop {
        match e {
            Expr::Paren(p) => e = &p.expr,
            Expr::Group(g) => e = &g.expr,
            _ => return e,
        }
    }
}

/// `t` without the parentheses and invisible groups around it.
fn peel_type(mut t: &Type) -> &Type {
    loop {
        match t {
            Type::Paren(p) => t = &p.elem,
            Type::Group(g) => t = &g.elem,
            _ => return t,
        }
    }
}

/// `usize`, `u8`, ... (also spelled `std::primitive::u8`).
fn is_integer(t: &Type) -> bool {
    let Type::Path(p) = t else {
        return false;
    };
    p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| {
            s.arguments.is_none() && INTEGERS.contains(&s.ident.to_string().as_str())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_recognised_however_they_are_spelled() {
        for (ty, integer) in [
            ("usize", true),
            ("(u8)", true),
            ("std::primitive::i64", true),
            ("f64", false),
            ("char", false),
            ("Vec<u8>", false),
        ] {
            let t: Type = syn::parse_str(ty).unwrap_or_else(|e| panic!("{ty}: {e}"));
            assert_eq!(is_integer(peel_type(&t)), integer, "{ty}");
        }
    }
}
