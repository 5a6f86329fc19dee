//! Deriving the learner's stubs from the reference solution.
//!
//! The solution crate is the single source of truth. A chapter's stubs are
//! its solution files with three kinds of edit, found with `syn` (spans with
//! line and column) and applied to the original text, so comments, docs and
//! layout survive untouched:
//!
//! * the body of every function named in `info.toml` (`stubs = { .. }`)
//!   becomes `todo!("<nudge>")`;
//! * `#[cfg(test)]` items, and items right under a `// workbook: reference-only`
//!   line, are dropped (a dropped `mod foo;` drops its file too);
//! * `<slug>_solution` becomes `<slug>`; mdBook's `// ANCHOR:` lines stay, so
//!   the book can show a stub (what to write) by the same anchor that shows
//!   the reference (the answer, folded).
//!
//! The result goes through rustfmt, so what `cargo xtask stubs` writes and
//! what `cargo xtask check` expects are byte for byte the same. Cost: one parse and
//! one rustfmt call per file.
//!
//! The same derivation with no function stubbed is the learner's copy of
//! the reference ([`learner_reference`]): what the tools' tests hand in
//! as a learner's solved chapter, derived here and nowhere else.

use crate::info::Chapter;
use anyhow::{Context, Result, bail};
use proc_macro2::LineColumn;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use syn::spanned::Spanned;

/// The line that removes the item below it from the stubs.
pub const REFERENCE_ONLY: &str = "// workbook: reference-only";

/// One generated file: its path relative to the crate's `src/`, and text.
#[derive(Debug, Clone)]
pub struct StubFile {
    pub relative: PathBuf,
    pub text: String,
}

/// The stub files of `chapter`, derived from `solutions/NN_slug/src`.
pub fn generate(chapter: &Chapter) -> Result<Vec<StubFile>> {
    generate_with(chapter, false)
}

/// [`generate`], optionally keeping the reference-only items: the
/// maintainer check stubs one exercise into an otherwise complete
/// reference, whose given code may call them.
pub fn generate_with(chapter: &Chapter, keep_reference_only: bool) -> Result<Vec<StubFile>> {
    let src = chapter.reference_src();
    let stubs = chapter.all_stubs();
    let mut files = Vec::new();
    rust_files(&src, &mut files)?;
    files.sort();
    let mut skipped = BTreeSet::new();
    let mut found = BTreeSet::new();
    let mut out = Vec::new();
    for path in &files {
        if !keep_reference_only && skipped.iter().any(|s: &PathBuf| path.starts_with(s)) {
            continue;
        }
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut editor = Editor::new(&text, &stubs);
        editor.keep_reference_only = keep_reference_only;
        let edited = editor
            .run(path, &mut found, &mut skipped)
            .with_context(|| format!("cannot derive a stub from {}", path.display()))?;
        let renamed = finish(&edited, chapter.package());
        let relative = path.strip_prefix(&src).unwrap_or(path).to_path_buf();
        out.push(StubFile {
            relative,
            text: rustfmt(&chapter.root, &renamed)?,
        });
    }
    let under_skipped = |f: &StubFile| skipped.iter().any(|s| src.join(&f.relative).starts_with(s));
    if keep_reference_only {
        // Reference-only modules stay exactly as written.
        for f in out.iter_mut().filter(|f| under_skipped(f)) {
            let original = std::fs::read_to_string(src.join(&f.relative))?;
            f.text = rustfmt(&chapter.root, &finish(&original, chapter.package()))?;
        }
    } else {
        // A module dropped late in the sort may name a file emitted earlier.
        out.retain(|f| !under_skipped(f));
    }
    let missing: Vec<_> = stubs.keys().filter(|k| !found.contains(**k)).collect();
    if !missing.is_empty() {
        bail!(
            "chapter {}: info.toml stubs {missing:?}, but no function of that name is in {}",
            chapter.chapter.slug,
            src.display()
        );
    }
    Ok(out)
}

/// Chapter `chapter`'s reference as a learner would hand it in: the stub
/// files with the reference bodies (what the grader's and the learner
/// tool's tests submit, written by [`write_learner_reference`]; derived
/// here only). A
/// reference body that calls into a reference-only module (apples' fast
/// `binomial`) gets that module's items appended as private helpers, since
/// a learner cannot add a module.
pub fn learner_reference(chapter: &Chapter) -> Result<Vec<StubFile>> {
    let mut whole = chapter.clone();
    for e in &mut whole.exercises {
        e.stubs.clear();
    }
    let mut files = generate(&whole)?;
    let src = chapter.reference_src();
    let kept: Vec<PathBuf> = files.iter().map(|f| f.relative.clone()).collect();
    let dropped: Vec<String> = std::fs::read_dir(&src)
        .with_context(|| format!("cannot list {}", src.display()))?
        .filter_map(|e| e.ok())
        .map(|e| PathBuf::from(e.file_name()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs") && !kept.contains(p))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    for f in &mut files {
        for module in &dropped {
            let call = format!("crate::{module}::");
            if f.text.contains(&call) {
                let path = src.join(format!("{module}.rs"));
                let helper = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                f.text = f.text.replace(&call, "");
                let items = privatised(&helper, &f.text);
                f.text.push('\n');
                f.text.push_str(&items);
            }
        }
    }
    Ok(files)
}

/// Writes chapter `chapter`'s [`learner_reference`] under `out` (one file
/// per stub file), as the grader's and the learner tool's tests hand it in.
pub fn write_learner_reference(chapter: &Chapter, out: &Path) -> Result<()> {
    for f in learner_reference(chapter)? {
        let path = out.join(&f.relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, f.text)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Every function and method in a file (`name`, `Type::name`) with its byte range.
pub fn item_ranges(text: &str) -> Result<Vec<(String, std::ops::Range<usize>)>> {
    let file = syn::parse_file(text)?;
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |lc: LineColumn| {
        let line = starts
            .get(lc.line.saturating_sub(1))
            .copied()
            .unwrap_or(text.len());
        let rest = &text[line..];
        line + rest
            .char_indices()
            .nth(lc.column)
            .map_or(rest.len(), |(i, _)| i)
    };
    let mut out = Vec::new();
    let mut items: Vec<&syn::Item> = file.items.iter().collect();
    while let Some(item) = items.pop() {
        match item {
            syn::Item::Fn(f) => out.push((
                f.sig.ident.to_string(),
                offset(f.span().start())..offset(f.span().end()),
            )),
            syn::Item::Impl(i) => {
                let ty = type_name(&i.self_ty);
                for it in &i.items {
                    if let syn::ImplItem::Fn(f) = it {
                        out.push((
                            format!("{ty}::{}", f.sig.ident),
                            offset(f.span().start())..offset(f.span().end()),
                        ));
                    }
                }
            }
            syn::Item::Mod(m) => items.extend(m.content.iter().flat_map(|(_, inner)| inner.iter())),
            _ => {}
        }
    }
    Ok(out)
}

/// A module's items as private items of another file (`into`): no module
/// docs, no anchors, no `pub`, and no `use` line `into` already has (a
/// second import of one name does not compile).
fn privatised(text: &str, into: &str) -> String {
    let imported = |l: &str| l.starts_with("use ") && into.lines().any(|i| i == l);
    text.lines()
        .filter(|l| !l.starts_with("//!") && !l.contains("ANCHOR") && !imported(l))
        .map(|l| {
            l.strip_prefix("pub(crate) ")
                .or_else(|| l.strip_prefix("pub "))
                .unwrap_or(l)
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// Collects byte-range edits over one file's text, then applies them.
struct Editor<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    stubs: &'a std::collections::BTreeMap<&'a str, String>,
    edits: Vec<(usize, usize, String)>,
    /// Leave `// workbook: reference-only` items in (see [`generate_with`]).
    keep_reference_only: bool,
}

impl<'a> Editor<'a> {
    fn new(text: &'a str, stubs: &'a std::collections::BTreeMap<&'a str, String>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Editor {
            text,
            line_starts,
            stubs,
            edits: Vec::new(),
            keep_reference_only: false,
        }
    }

    fn run(
        mut self,
        path: &Path,
        found: &mut BTreeSet<String>,
        skipped: &mut BTreeSet<PathBuf>,
    ) -> Result<String> {
        let file = syn::parse_file(self.text)?;
        self.items(&file.items, path, found, skipped);
        self.edits.sort_by_key(|e| e.0);
        let mut text = self.text.to_string();
        for (start, end, with) in self.edits.iter().rev() {
            text.replace_range(*start..*end, with);
        }
        Ok(text)
    }

    fn items(
        &mut self,
        items: &[syn::Item],
        path: &Path,
        found: &mut BTreeSet<String>,
        skipped: &mut BTreeSet<PathBuf>,
    ) {
        for item in items {
            let (attrs, start) = item_start(item);
            if self.keep_reference_only && self.marked_reference_only(start) {
                // Kept verbatim: neither dropped nor stubbed.
                if let syn::Item::Mod(m) = item {
                    skipped.extend(module_files(path, &m.ident.to_string()));
                }
                continue;
            }
            if is_cfg_test(attrs) || self.marked_reference_only(start) {
                self.drop_lines(
                    start.line - usize::from(self.marked_reference_only(start)),
                    item.span().end().line,
                );
                if let syn::Item::Mod(m) = item {
                    skipped.extend(module_files(path, &m.ident.to_string()));
                }
                continue;
            }
            match item {
                syn::Item::Fn(f) => {
                    self.maybe_stub(&f.sig.ident.to_string(), &f.sig, &f.block, found)
                }
                syn::Item::Impl(i) => {
                    let owner = type_name(&i.self_ty);
                    for member in &i.items {
                        if let syn::ImplItem::Fn(f) = member {
                            let key = format!("{owner}::{}", f.sig.ident);
                            self.maybe_stub(&key, &f.sig, &f.block, found);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.items(inner, path, found, skipped);
                    }
                }
                _ => {}
            }
        }
    }

    fn maybe_stub(
        &mut self,
        key: &str,
        sig: &syn::Signature,
        block: &syn::Block,
        found: &mut BTreeSet<String>,
    ) {
        let Some(nudge) = self.stubs.get(key) else {
            return;
        };
        found.insert(key.to_string());
        let indent: String = self
            .line(sig.fn_token.span.start().line)
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect();
        let escaped = nudge
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('{', "{{")
            .replace('}', "}}");
        let body = format!(
            "{{\n{indent}    todo!({})\n{indent}}}",
            nudge_literal(&escaped, &indent)
        );
        let open = self.offset(block.brace_token.span.open().start());
        let close = self.offset(block.brace_token.span.close().end());
        self.edits.push((open, close, body));
    }

    fn marked_reference_only(&self, start: LineColumn) -> bool {
        start.line > 1 && self.line(start.line - 1).trim() == REFERENCE_ONLY
    }

    /// Drops whole lines `first..=last` (1-based).
    fn drop_lines(&mut self, first: usize, last: usize) {
        let start = self.line_starts[first - 1];
        let end = self
            .line_starts
            .get(last)
            .copied()
            .unwrap_or(self.text.len());
        self.edits.push((start, end, String::new()));
    }

    fn line(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        &self.text[start..end]
    }

    /// Byte offset of a span position (its column counts characters).
    fn offset(&self, at: LineColumn) -> usize {
        let start = self.line_starts[at.line - 1];
        let line = self.line(at.line);
        start
            + line
                .char_indices()
                .nth(at.column)
                .map_or(line.len(), |(i, _)| i)
    }
}

/// The item's attributes and where it starts (its first doc line or
/// attribute, if any).
/// The widest a stub's nudge line may be, indentation included: the book
/// shows stubs in a code column about 87 characters wide at 1280 px.
const NUDGE_WIDTH: usize = 80;

/// The `todo!` argument for an escaped nudge: one string literal, continued
/// over lines with `\` (which drops the line break and the next line's
/// indentation, so the message reads as one line) when it would pass
/// [`NUDGE_WIDTH`], so the stub reads well in an editor and in the book.
fn nudge_literal(escaped: &str, indent: &str) -> String {
    let one_line = format!("\"{escaped}\"");
    if indent.len() + "    todo!()".len() + one_line.len() <= NUDGE_WIDTH {
        return one_line;
    }
    // The literal opens 8 columns in, continuations line up after its quote;
    // each line keeps room for its closing ` \` or `"`.
    let room = NUDGE_WIDTH.saturating_sub(indent.len() + 9 + 2).max(20);
    let mut lines: Vec<String> = vec![String::new()];
    for word in escaped.split(' ') {
        let last = lines.len() - 1;
        if !lines[last].is_empty() && lines[last].len() + 1 + word.len() > room {
            lines.push(word.to_string());
        } else {
            if !lines[last].is_empty() {
                lines[last].push(' ');
            }
            lines[last].push_str(word);
        }
    }
    let joint = format!(" \\\n{indent}         ");
    format!("\n{indent}        \"{}\"\n{indent}    ", lines.join(&joint))
}

fn item_start(item: &syn::Item) -> (&[syn::Attribute], LineColumn) {
    let attrs: &[syn::Attribute] = match item {
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        _ => &[],
    };
    let start = attrs
        .first()
        .map_or_else(|| item.span().start(), |a| a.span().start());
    (attrs, start)
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// The name an impl's methods are keyed under in `info.toml` (`Type::method`).
pub fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// Where `mod name;` declared in `path` may keep its code.
fn module_files(path: &Path, name: &str) -> Vec<PathBuf> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let base = if matches!(stem, "lib" | "main" | "mod") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    vec![base.join(format!("{name}.rs")), base.join(name)]
}

/// Renames the solution crate to the learner's.
fn finish(text: &str, package: &str) -> String {
    let solution = format!("{package}_solution");
    text.lines()
        .map(|l| l.replace(&solution, package))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Where one stubbed function sits in a source file (1-based lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StubbedFn {
    /// The `info.toml` key: `name` or `Type::method`.
    pub key: String,
    /// The line of the `fn` keyword.
    pub sig: usize,
    /// The lines of the body's opening and closing braces.
    pub open: usize,
    pub close: usize,
}

impl StubbedFn {
    /// Whether the lines `first..=last` show any of the body (not just the
    /// braces around it, which share lines with the signature and `}`).
    pub fn body_within(&self, first: usize, last: usize) -> bool {
        let (lo, hi) = if self.open == self.close {
            (self.open, self.open)
        } else {
            (self.open + 1, self.close - 1)
        };
        lo <= hi && first.max(lo) <= last.min(hi)
    }
}

/// The functions of `text` named in `keys`, wherever they are (free, in an
/// impl, in an inline module). Text that does not parse has none.
pub fn stubbed_fns(text: &str, keys: &BTreeSet<&str>) -> Vec<StubbedFn> {
    let Ok(file) = syn::parse_file(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    collect_fns(&file.items, keys, &mut out);
    out
}

fn collect_fns(items: &[syn::Item], keys: &BTreeSet<&str>, out: &mut Vec<StubbedFn>) {
    for item in items {
        match item {
            syn::Item::Fn(f) => push_fn(f.sig.ident.to_string(), &f.sig, &f.block, keys, out),
            syn::Item::Impl(i) => {
                let owner = type_name(&i.self_ty);
                for member in &i.items {
                    if let syn::ImplItem::Fn(f) = member {
                        let key = format!("{owner}::{}", f.sig.ident);
                        push_fn(key, &f.sig, &f.block, keys, out);
                    }
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect_fns(inner, keys, out);
                }
            }
            _ => {}
        }
    }
}

fn push_fn(
    key: String,
    sig: &syn::Signature,
    block: &syn::Block,
    keys: &BTreeSet<&str>,
    out: &mut Vec<StubbedFn>,
) {
    if keys.contains(key.as_str()) {
        out.push(StubbedFn {
            key,
            sig: sig.fn_token.span.start().line,
            open: block.brace_token.span.open().start().line,
            close: block.brace_token.span.close().end().line,
        });
    }
}

/// Formats `text` exactly as `cargo fmt` would inside the workspace.
pub fn rustfmt(root: &Path, text: &str) -> Result<String> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot run rustfmt (install it with `rustup component add rustfmt`)")?;
    child
        .stdin
        .take()
        .context("rustfmt has no stdin")?
        .write_all(text.as_bytes())?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!(
            "rustfmt rejected a generated stub:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8(out.stdout)?)
}

/// Writes the stubs of `chapter` into `exercises/NN_slug/src`.
pub fn write(chapter: &Chapter) -> Result<usize> {
    let files = generate(chapter)?;
    for f in &files {
        let path = chapter.dir.join("src").join(&f.relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, &f.text)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(files.len())
}

/// The stub files that differ from what is in `exercises/NN_slug/src`.
pub fn drift(chapter: &Chapter) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let files = generate(chapter)?;
    for f in &files {
        let path = chapter.dir.join("src").join(&f.relative);
        match std::fs::read_to_string(&path) {
            Ok(actual) if actual == f.text => {}
            Ok(_) => problems.push(format!(
                "{} differs from the stub derived from the solution",
                path.display()
            )),
            Err(_) => problems.push(format!("{} is missing", path.display())),
        }
    }
    let mut present = Vec::new();
    rust_files(&chapter.dir.join("src"), &mut present)?;
    for path in present {
        let rel = path.strip_prefix(chapter.dir.join("src")).unwrap_or(&path);
        if !files.iter().any(|f| f.relative == rel) {
            problems.push(format!(
                "{} has no counterpart in the solution",
                path.display()
            ));
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of the string literal in `todo!(...)` text.
    fn message(todo_args: &str) -> String {
        let lit: syn::LitStr = syn::parse_str(todo_args.trim()).expect("one string literal");
        lit.value()
    }

    #[test]
    fn a_short_nudge_stays_on_one_line() {
        assert_eq!(nudge_literal("count it", "    "), "\"count it\"");
    }

    #[test]
    fn a_long_nudge_is_continued_over_lines_and_still_reads_as_one_line() {
        let nudge = "keep the blank with the fewest free digits, first in reading order on ties \
                     (book: sudoku/fewest.md#fewest-candidates-first)";
        let indent = "        ";
        let text = nudge_literal(nudge, indent);
        assert!(text.lines().count() > 2, "{text}");
        for line in text.lines() {
            assert!(line.len() <= NUDGE_WIDTH, "{line:?} is too wide");
        }
        assert_eq!(message(&text), nudge);
    }
}
