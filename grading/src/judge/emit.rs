//! The text the grader writes into its two copies of a chapter: proxies in
//! the judge's, dispatch in the subject's.
//!
//! The problem: the judge must keep every signature of the pristine stubs
//! (the suites call them, and the book's line numbers appear in failure
//! messages), yet send every call away. Each stub's body is replaced, on
//! the same lines, by one call to the wire (so a failure still points at
//! the stub's line), its parameter patterns are renamed so they can be
//! sent, and a generic one gains the bound its values need to travel. The
//! subject gets, at the end of each file, one `__wb_dispatch` function
//! with an arm per stub that decodes the arguments, calls the learner's
//! function and encodes the answer; an arm per accepted type for a generic
//! one. State: one list of text edits per file, applied back to front.
//! Cost: linear in the size of the files.

use super::shape::{Param, Stub, Types, module_of};
use anyhow::Result;
use proc_macro2::LineColumn;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Text edits for one file: (start, end, replacement), byte offsets.
#[derive(Default)]
pub struct Edits {
    list: Vec<(usize, usize, String)>,
}

impl Edits {
    fn push(&mut self, text: &str, from: LineColumn, to: LineColumn, with: String) {
        self.list.push((offset(text, from), offset(text, to), with));
    }

    /// `text` with every edit applied (they never overlap).
    pub fn apply(mut self, text: &str) -> String {
        self.list.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut out = text.to_string();
        for (start, end, with) in self.list {
            out.replace_range(start..end, &with);
        }
        out
    }
}

/// Byte offset of a span position (its column counts characters).
fn offset(text: &str, at: LineColumn) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(at.line.saturating_sub(1))
        .map(str::len)
        .sum();
    let line = &text[line_start..];
    line_start
        + line
            .char_indices()
            .nth(at.column)
            .map_or(line.len(), |(i, _)| i)
}

/// The derive the codec needs, before every carried struct and enum, and
/// the array codec before each of their long-array fields.
pub fn derives(types: &Types, rel: &Path, text: &str, edits: &mut Edits) {
    let carried: Vec<&String> = types
        .carried
        .get(rel)
        .into_iter()
        .flatten()
        .map(|(_, n)| n)
        .collect();
    for (at, _) in types.carried.get(rel).into_iter().flatten() {
        edits.push(
            text,
            *at,
            *at,
            "#[derive(::serde::Serialize, ::serde::Deserialize)] ".into(),
        );
    }
    for (at, owner) in types.big_arrays.get(rel).into_iter().flatten() {
        if carried.contains(&owner) {
            edits.push(
                text,
                *at,
                *at,
                "#[serde(with = \"crate::__wb_wire::big_array\")] ".into(),
            );
        }
    }
}

/// The judge's proxy for `stub`: patterns renamed, bounds added, the body
/// one call to the wire on the body's own lines.
pub fn proxy(stub: &Stub, types: &Types, text: &str, edits: &mut Edits) -> Result<()> {
    let params = stub.params(types)?;
    let output = stub.output()?;
    let generics = stub.generics(types)?;
    let mut sent = Vec::new();
    let mut back_types = Vec::new();
    let mut write_back = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let name = format!("__wb_a{i}");
        match p {
            Param::SelfValue => sent.push("&self".to_string()),
            Param::SelfRef => sent.push("self".to_string()),
            Param::SelfMut => {
                sent.push("&*self".into());
                write_back.push(format!("*self = __wb_m.{};", back_types.len()));
                back_types.push("Self".to_string());
            }
            Param::Value { pat, .. } => {
                edits.push(text, pat.start, pat.end, name.clone());
                sent.push(format!("&{name}"));
            }
            Param::Ref { pat, .. } => {
                edits.push(text, pat.start, pat.end, name.clone());
                sent.push(name);
            }
            Param::Mut { pat, owned, slice } => {
                edits.push(text, pat.start, pat.end, name.clone());
                sent.push(format!("&*{name}"));
                let k = back_types.len();
                write_back.push(if *slice {
                    format!("crate::__wb_wire::write_slice({name}, __wb_m.{k});")
                } else {
                    format!("*{name} = __wb_m.{k};")
                });
                back_types.push(owned.clone());
            }
        }
    }
    let tag = if generics.is_empty() {
        "\"\"".to_string()
    } else {
        let names: Vec<&str> = generics.iter().map(|(n, _)| n.as_str()).collect();
        format!("::std::any::type_name::<({},)>()", names.join(", "))
    };
    let mut bounds = String::new();
    for (name, _) in &generics {
        if !bounds.is_empty() {
            bounds.push_str(", ");
        }
        bounds.push_str(&format!(
            "{name}: ::serde::Serialize + ::serde::de::DeserializeOwned"
        ));
    }
    let call = format!(
        "let (__wb_r, __wb_m): ({output}, {}) = crate::__wb_wire::call({:?}, {tag}, &{}); {} __wb_r",
        tuple(&back_types),
        stub.id,
        tuple(&sent),
        write_back.join(" ")
    );
    // The call sits on the line of the stub's first statement, and the
    // closing brace stays on its line, so no line of the file moves.
    let before = "\n".repeat(stub.first_line - stub.open.line);
    let after = "\n".repeat(stub.close.line - stub.first_line);
    let indent = if before.is_empty() { " " } else { "        " };
    let close_indent = if after.is_empty() {
        " ".to_string()
    } else {
        " ".repeat(stub.close.column.saturating_sub(1))
    };
    let mut body = format!("{{{before}{indent}{call}{after}{close_indent}}}");
    if !bounds.is_empty() {
        body = if stub.has_where {
            format!(", {bounds} {body}")
        } else {
            format!(" where {bounds} {body}")
        };
        // Bounds go right after the signature, before the body.
        edits.push(text, stub.sig_end, stub.close, body);
    } else {
        edits.push(text, stub.open, stub.close, body);
    }
    Ok(())
}

/// The subject's `__wb_dispatch` for the stubs of one file.
pub fn dispatch(stubs: &[&Stub], types: &Types) -> Result<String> {
    let mut arms = String::new();
    for stub in stubs {
        let params = stub.params(types)?;
        let generics = stub.generics(types)?;
        // Every combination of accepted types (one list per parameter).
        let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for (name, accepted) in &generics {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    accepted.iter().map(move |t| {
                        let mut c = c.clone();
                        c.push((name.clone(), t.clone()));
                        c
                    })
                })
                .collect();
        }
        let mut body = String::new();
        for combo in &combos {
            let subst = |ty: &str| {
                combo.iter().fold(ty.to_string(), |t, (p, by)| {
                    super::shape::substitute(&t, p, by)
                })
            };
            let self_ty = stub.self_ty.as_deref().map(&subst).unwrap_or_default();
            let mut decl = Vec::new();
            let mut decl_types = Vec::new();
            let mut args = Vec::new();
            let mut back = Vec::new();
            for (i, p) in params.iter().enumerate() {
                let name = format!("__wb_a{i}");
                let (ty, arg, returned) = match p {
                    Param::SelfValue => (self_ty.clone(), name.clone(), false),
                    Param::SelfRef => (self_ty.clone(), format!("&{name}"), false),
                    Param::SelfMut => (self_ty.clone(), format!("&mut {name}"), true),
                    Param::Value { ty, .. } => (subst(ty), name.clone(), false),
                    Param::Ref { owned, .. } => (subst(owned), format!("&{name}"), false),
                    Param::Mut { owned, .. } => (subst(owned), format!("&mut {name}"), true),
                };
                let ty = super::shape::substitute(&ty, "Self", &self_ty);
                decl.push(format!("mut {name}"));
                decl_types.push(ty);
                args.push(arg);
                if returned {
                    back.push(name);
                }
            }
            let guard = if generics.is_empty() {
                "tag.is_empty()".to_string()
            } else {
                let names: Vec<String> = combo.iter().map(|(_, t)| t.clone()).collect();
                format!("tag == ::std::any::type_name::<({},)>()", names.join(", "))
            };
            body.push_str(&format!(
                "            if {guard} {{\n                let {}: {} = crate::__wb_wire::decode(args)?;\n                let __wb_r = {}({});\n                return crate::__wb_wire::encode(&(__wb_r, {}));\n            }}\n",
                tuple(&decl),
                tuple(&decl_types),
                super::shape::substitute(&stub.callee(), "Self", &self_ty),
                args.join(", "),
                tuple(&back),
            ));
        }
        arms.push_str(&format!(
            "        {:?} => {{\n{body}            Err(crate::__wb_wire::Fault::Type(tag.to_string()))\n        }}\n",
            stub.id
        ));
    }
    Ok(format!(
        "\n\n// Generated by `grader grade` for its subject process: one arm per\n// stubbed function of this file.\n#[doc(hidden)]\n#[allow(unused_mut, unused_variables, unreachable_code, clippy::all)]\npub(crate) fn __wb_dispatch(id: &str, tag: &str, args: &[u8]) -> Result<Vec<u8>, crate::__wb_wire::Fault> {{\n    match id {{\n{arms}        _ => Err(crate::__wb_wire::Fault::NotHere),\n    }}\n}}\n"
    ))
}

/// A tuple expression or type of `items`: `()`, `(a,)`, `(a, b,)`.
fn tuple(items: &[String]) -> String {
    if items.is_empty() {
        "()".into()
    } else {
        format!("({},)", items.join(", "))
    }
}

/// The subject's router: asks each file's dispatcher in turn.
pub fn router(files: &BTreeMap<PathBuf, Vec<&Stub>>) -> String {
    let mut tries = String::new();
    for rel in files.keys() {
        tries.push_str(&format!(
            "    match {}::__wb_dispatch(id, tag, args) {{\n        Err(Fault::NotHere) => {{}}\n        other => return other,\n    }}\n",
            module_of(rel)
        ));
    }
    format!(
        "\n/// Every file's dispatcher, asked in turn (generated).\nfn route(id: &str, tag: &str, args: &[u8]) -> Result<Vec<u8>, Fault> {{\n{tries}    Err(Fault::Unknown(id.to_string()))\n}}\n"
    )
}
