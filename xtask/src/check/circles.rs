//! The rule "no two modules of a tool import each other".
//!
//! The problem: when module A uses B and B uses A, neither can be read,
//! tested or moved alone, and the room boundary they were meant to draw is
//! gone; the cure is a leaf module for what both need, or the type moved
//! to the room that owns it. The state: every `.rs` file under each tool
//! crate's `src/` is a module (`lib.rs`/`main.rs` the root, `x.rs` or
//! `x/mod.rs` the module `x`), and its `crate::`, `super::` and `self::`
//! paths (in `use` trees and in code, parsed with `syn`) are resolved to
//! the deepest module file that exists; inline modules (`mod tests { .. }`)
//! belong to their file. Two modules, neither inside the other, form a
//! circle when each refers to the other or to something inside it. Cost:
//! one parse of each source file of the four tools.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The crates whose modules must not import each other.
pub const CRATES: [&str; 4] = ["core", "workbook", "grading", "xtask"];

/// A module's path inside its crate (`["intake", "given"]`; empty: the root).
type Module = Vec<String>;

/// Every circle in the tools' crates, as `crate: a <-> b`.
pub fn problems(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for krate in CRATES {
        match circles(&root.join(krate).join("src")) {
            Ok(found) => out.extend(found.into_iter().map(|(a, b)| {
                format!(
                    "{krate}/src: `{}` and `{}` import each other (move what both need to a leaf module, or the type to the room that owns it)",
                    shown(&a),
                    shown(&b)
                )
            })),
            Err(e) => out.push(format!("{krate}/src: {e}")),
        }
    }
    out
}

fn shown(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// The pairs of modules under `src` that refer to each other.
fn circles(src: &Path) -> Result<Vec<(Module, Module)>, String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeMap<Module, PathBuf> = files
        .into_iter()
        .filter_map(|f| Some((module_of(src, &f)?, f)))
        .collect();
    let mut edges: BTreeMap<&Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let parsed = syn::parse_file(&text)
            .map_err(|e| format!("{} does not parse: {e}", file.display()))?;
        let mut refs = Refs {
            base: module.clone(),
            found: Vec::new(),
        };
        refs.visit_file(&parsed);
        let targets = refs
            .found
            .into_iter()
            .filter_map(|path| deepest(&modules, path))
            .filter(|t| t != module)
            .collect();
        edges.insert(module, targets);
    }
    let inside = |a: &Module, b: &Module| a.starts_with(b);
    let refers = |a: &Module, b: &Module| {
        edges
            .get(a)
            .is_some_and(|ts| ts.iter().any(|t| inside(t, b)))
    };
    let all: Vec<&Module> = modules.keys().collect();
    let mut found = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if inside(a, b) || inside(b, a) {
                continue;
            }
            if refers(a, b) && refers(b, a) {
                found.push(((*a).clone(), (*b).clone()));
            }
        }
    }
    Ok(found)
}

/// The module a file under `src` is (`None` for a file outside it).
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("lib" | "main" | "mod")
    ) {
        parts.pop();
    }
    Some(parts)
}

/// The deepest module that is `path` or holds it (an item's path ends in
/// the item's name, which is no module).
fn deepest(modules: &BTreeMap<Module, PathBuf>, mut path: Module) -> Option<Module> {
    loop {
        if modules.contains_key(&path) {
            return Some(path);
        }
        path.pop()?;
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The crate-relative paths a file refers to, each resolved from the
/// module it is written in (`base`, with inline modules pushed on it).
struct Refs {
    base: Module,
    found: Vec<Module>,
}

impl Refs {
    /// `words` (a path's identifiers) resolved, if it starts at `crate`,
    /// `super` or `self`.
    fn add(&mut self, words: &[String]) {
        let mut at: Module = match words.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("self" | "super") => self.base.clone(),
            _ => return,
        };
        let start = usize::from(words.first().is_some_and(|w| w != "super"));
        for w in &words[start..] {
            match w.as_str() {
                "super" => {
                    at.pop();
                }
                "self" => {}
                _ => at.push(w.clone()),
            }
        }
        self.found.push(at);
    }

    /// Every full path of a `use` tree, prefix included.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.add(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.add(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.add(&prefix.clone()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let words: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(&words);
        syn::visit::visit_path(self, p);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if m.content.is_some() {
            self.base.push(m.ident.to_string());
            syn::visit::visit_item_mod(self, m);
            self.base.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, file: &str, text: &str) {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn two_modules_that_use_each_other_are_a_circle_and_a_leaf_between_them_is_not() {
        let dir = tempfile::tempdir().expect("a folder");
        let src = dir.path();
        write(src, "lib.rs", "mod a; mod b; mod leaf; mod c;");
        write(src, "a.rs", "use crate::b::Thing; pub fn f() {}");
        write(src, "b.rs", "pub struct Thing; fn g() { super::a::f() }");
        write(src, "leaf.rs", "pub fn shared() {}");
        write(src, "c/mod.rs", "mod d; use crate::leaf::shared;");
        write(
            src,
            "c/d.rs",
            "use super::super::leaf::{self}; #[cfg(test)] mod tests { use super::*; }",
        );
        let found = circles(src).expect("the sources parse");
        let names: Vec<_> = found.iter().map(|(a, b)| (shown(a), shown(b))).collect();
        assert_eq!(names, [("a".to_string(), "b".to_string())]);
    }
}
