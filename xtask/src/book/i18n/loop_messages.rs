//! The loop's messages (issue 36): what the learner's tool and the suites'
//! support print, extracted into `book/po/loop.pot` beside the book's
//! templates, so translators fill `book/po/loop/<lang>.po` in the same
//! place and `cargo xtask check` holds it to the same rules.
//!
//! The problem: the loop's words are format templates in Rust source, not
//! pages. The state: every string literal handed to the language module's
//! `tr(`, `fill(`, `count(` (two literals: one, many), or in the suites
//! `rule(` (a snapshot's rule) and `explain(` (its book section), `why(`
//! (a check's reason) and `say!(` (a check's message, its values filled by
//! name) in the learner's
//! tool (`workbook/src/`), the core it shares (`core/src/`) and the
//! suites (`tests/*.rs`); a
//! `{name}` in a message is a placeholder the code fills and a translation
//! keeps. Then what the chapters' `info.toml` files say to the learner:
//! each stub's `todo!()` text (the suites translate it when they report the
//! stub: the generated stubs stay one English source), the doc comment of
//! each function a stub hides (`workbook lang` rewrites it in the
//! learner's checkout: `core/src/comments.rs`) and every other doc comment
//! of a stub (its `//!` header, the docs of the items it gives), each
//! exercise's title (the suites' summary names it) and its hints
//! (`workbook hint` shows them translated). The cost: one scan of
//! those files.

use super::po::{Catalogue, Entry};
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The loop's template.
pub fn loop_template_path(root: &Path) -> PathBuf {
    super::po_dir(root).join("loop.pot")
}

/// Language `code`'s loop catalogue.
pub fn loop_catalogue(root: &Path, code: &str) -> PathBuf {
    super::po_dir(root).join("loop").join(format!("{code}.po"))
}

/// The files the loop's messages are written in: the suites' own files
/// (their support's words, each snapshot's `rule(...)`; `snapshots/` holds
/// no source), the learner's tool and the core it shares at every depth.
fn sources(root: &Path) -> Result<Vec<PathBuf>> {
    let rust = |p: &Path| p.extension().is_some_and(|e| e == "rs");
    let tests = root.join("tests");
    let (tool, core) = (root.join("workbook/src"), root.join("core/src"));
    for dir in [&tests, &tool, &core] {
        // `files_under` passes over a folder it cannot read: a missing one
        // would leave its messages out of the template unseen.
        anyhow::ensure!(dir.is_dir(), "cannot read {}", dir.display());
    }
    let mut files = super::files_under(&tests, |p| rust(p) && p.parent() == Some(&tests));
    files.extend(super::files_under(&tool, rust));
    files.extend(super::files_under(&core, rust));
    files.sort();
    Ok(files)
}

/// Every loop message, in the order of the files and of the text.
pub fn loop_template(root: &Path) -> Result<Catalogue> {
    let mut order: Vec<(String, Option<String>)> = Vec::new();
    let mut refs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut docs = std::collections::BTreeSet::new();
    // One place a message is said: the first sight of its text sets its
    // place in the template (and whether it is a stub's doc comment).
    let mut add = |msgid: String, plural: Option<String>, is_doc: bool, reference: String| {
        let r = refs.entry(msgid.clone()).or_default();
        if r.is_empty() {
            if is_doc {
                docs.insert(msgid.clone());
            }
            order.push((msgid, plural));
        }
        r.push(reference);
    };
    for path in sources(root)? {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let name = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (line, msgid, plural) in messages(&text) {
            add(msgid, plural, false, format!("{name}:{line}"));
        }
    }
    for chapter in workbook_core::info::load_chapters(root)? {
        let name = format!("exercises/{}/info.toml", chapter.folder());
        for exercise in &chapter.exercises {
            // Its title: the suites' summary and the tool name it.
            add(
                exercise.title.clone(),
                None,
                false,
                format!("{name} ({}: its title)", exercise.name),
            );
            for (function, nudge) in &exercise.stubs {
                add(
                    nudge.clone(),
                    None,
                    false,
                    format!("{name} ({}: the todo!() of {function})", exercise.name),
                );
            }
            // The doc comment of each function the stub hides: what the
            // learner reads where they write (`workbook lang` rewrites it).
            for (file, function, doc) in stubbed_docs_of(&chapter, exercise)? {
                add(
                    doc,
                    None,
                    true,
                    format!(
                        "exercises/{}/src/{file} ({}: the doc comment of {function})",
                        chapter.folder(),
                        exercise.name
                    ),
                );
            }
            // The hints `workbook hint` shows, one message each.
            for (i, hint) in exercise.hints.iter().enumerate() {
                add(
                    hint.clone(),
                    None,
                    false,
                    format!("{name} ({}: hint {})", exercise.name, i + 1),
                );
            }
        }
        // The rest a stub file says in doc comments: its header and the
        // docs of the items it gives (`workbook lang` rewrites them too).
        for (file, line, doc) in given_docs_of(&chapter)? {
            add(
                doc,
                None,
                true,
                format!(
                    "exercises/{}/src/{file}:{line} (a given doc comment)",
                    chapter.folder()
                ),
            );
        }
    }
    let entries = order
        .into_iter()
        .map(|(msgid, plural)| {
            let mut entry = Entry::new(&msgid);
            entry.references = refs.remove(&msgid).unwrap_or_default();
            if docs.contains(&msgid) {
                entry.comments = vec![
                    "A stub's doc comment, one line of the comment per line: break lines where they read well (about 70 columns, 35 characters in Chinese or Japanese); keep `code` and [links] as written."
                        .to_string(),
                ];
            } else if msgid.contains('{') {
                entry.comments = vec![
                    "{name}: filled by the program (a value, a name, a command); keep each, in any order."
                        .to_string(),
                ];
            }
            if plural.is_some() {
                entry.msgid_plural = plural;
                entry.msgstr = vec![String::new(), String::new()];
            }
            entry
        })
        .collect();
    Ok(Catalogue {
        header: super::template_header(),
        entries,
    })
}

/// Each doc comment of a function `exercise` hides in the chapter's stub
/// files: `(file, function, text)`, read from `exercises/` (which `cargo
/// xtask check` proves are the generated stubs).
fn stubbed_docs_of(
    chapter: &workbook_core::info::Chapter,
    exercise: &workbook_core::info::Exercise,
) -> Result<Vec<(String, String, String)>> {
    let stubbed: std::collections::BTreeSet<&str> =
        exercise.stubs.keys().map(String::as_str).collect();
    let mut found = Vec::new();
    let files = chapter
        .stub_files()
        .with_context(|| format!("cannot read {}", chapter.stub_src().display()))?;
    for path in files {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let items = workbook_core::stubs::item_ranges(&text).unwrap_or_default();
        for block in workbook_core::comments::stubbed_docs(&text, &stubbed) {
            let function = items
                .iter()
                .find(|(_, r)| r.start == block.range.start + block.indent.len())
                .map(|(n, _)| n.clone())
                .unwrap_or_default();
            let file = path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push((file, function, block.text));
        }
    }
    Ok(found)
}

/// Each doc comment of the chapter's stub files that no exercise's stub
/// hides (`comments::given_docs`): `(file, line, text)`.
fn given_docs_of(chapter: &workbook_core::info::Chapter) -> Result<Vec<(String, usize, String)>> {
    let stubbed: std::collections::BTreeSet<&str> = chapter
        .exercises
        .iter()
        .flat_map(|e| e.stubs.keys().map(String::as_str))
        .collect();
    let files = chapter
        .stub_files()
        .with_context(|| format!("cannot read {}", chapter.stub_src().display()))?;
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        for block in workbook_core::comments::given_docs(&text, &stubbed) {
            let line = text[..block.range.start].matches('\n').count() + 1;
            found.push((file.clone(), line, block.text));
        }
    }
    Ok(found)
}

/// `(line, msgid, msgid_plural)` of each message in Rust source `text`.
pub fn messages(text: &str) -> Vec<(usize, String, Option<String>)> {
    let mut found = Vec::new();
    for call in [
        "tr(", "fill(", "count(", "rule(", "why(", "say!(", "explain(",
    ] {
        let mut from = 0;
        while let Some(at) = text[from..].find(call) {
            let start = from + at;
            from = start + call.len();
            // A method or function named exactly so, not `attr(` or `prefill(`.
            let before = text[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let Some((first, after)) = literal(&text[from..]) else {
                continue;
            };
            let line = text[..start].matches('\n').count() + 1;
            let plural = if call == "count(" {
                let rest = after.trim_start().strip_prefix(',');
                match rest.and_then(literal) {
                    Some((many, _)) => Some(many),
                    None => continue,
                }
            } else {
                None
            };
            found.push((line, first, plural));
        }
    }
    found.sort_by_key(|(line, _, _)| *line);
    found
}

/// The string literal `text` starts with (after blanks), its escapes and
/// line continuations undone, and what follows it.
fn literal(text: &str) -> Option<(String, &str)> {
    let body = text.trim_start().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                '\n' => {
                    // A continuation: the next line's leading blanks go too.
                    let rest = &body[i + 2..];
                    let skip = rest.len() - rest.trim_start().len();
                    for _ in 0..rest[..skip].chars().count() {
                        chars.next();
                    }
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_literals_given_to_tr_fill_count_why_and_say() {
        let src = r#"
            let a = lang.tr("Plain words.");
            let b = tr().fill("{n} of \
                 {all}", &[]);
            let c = lang.count("{n} test", "{n} tests", n, &[]);
            let d = attr("not this");
            let e = x.iter().count();
            const WHY: &str = why("a reason (book: \"The search\")");
            let f = say!("{call} returned {got}", call, ?got);
        "#;
        let found: Vec<_> = messages(src).into_iter().map(|(_, m, p)| (m, p)).collect();
        assert_eq!(
            found,
            [
                ("Plain words.".to_string(), None),
                ("{n} of {all}".to_string(), None),
                ("{n} test".to_string(), Some("{n} tests".to_string())),
                ("a reason (book: \"The search\")".to_string(), None),
                ("{call} returned {got}".to_string(), None),
            ]
        );
    }

    #[test]
    fn every_hint_of_every_chapter_is_a_message_naming_its_exercise() {
        // Rule 11 holds each language to the template; this holds the
        // template to the hints, so a hint the extractor missed cannot stay
        // English while every catalogue reads 100 %.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let template = loop_template(&root).expect("the loop template");
        let mut hints = 0;
        for chapter in workbook_core::info::load_chapters(&root).expect("the chapters") {
            for exercise in &chapter.exercises {
                for (i, hint) in exercise.hints.iter().enumerate() {
                    hints += 1;
                    let entry = template
                        .entries
                        .iter()
                        .find(|e| &e.msgid == hint)
                        .unwrap_or_else(|| {
                            panic!("hint {} of {} not extracted", i + 1, exercise.name)
                        });
                    let reference = format!("({}: hint {})", exercise.name, i + 1);
                    assert!(
                        entry.references.iter().any(|r| r.ends_with(&reference)),
                        "{reference} missing from {:?}",
                        entry.references
                    );
                }
            }
        }
        assert!(hints > 100, "only {hints} hints found");
    }
}
