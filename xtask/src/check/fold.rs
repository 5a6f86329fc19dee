//! The rule "exercise first, answer folded", proven over the book.
//!
//! The problem: a page that includes a reference anchor containing the body
//! of a function the learner must write gives the answer away. The state:
//! for every stubbed function, where its body lies in the solution file and
//! where its signature lies in the exercise file; for every page, the
//! `{{#include}}` directives in order and how deep in `<details>` each one
//! sits. A reference body may only be included inside `<details>`, and only
//! after the page has shown the same function's stub from `exercises/`; each
//! exercise's own page shows every function it stubs. Cost: one syn parse
//! per source file and one pass over each page.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use workbook_core::info::Chapter;
use workbook_core::stubs::{StubbedFn, stubbed_fns};

/// One `{{#include file:anchor}}` (or `rustdoc_include`) of a page line.
pub struct Include {
    pub file: String,
    pub anchor: Option<String>,
}

/// The include directives on one line of Markdown.
pub fn includes_in(line: &str) -> Vec<Include> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("{{#") {
        let after = &rest[start + 3..];
        let Some(end) = after.find("}}") else { break };
        let directive = after[..end].trim();
        rest = &after[end + 2..];
        let Some(target) = directive
            .strip_prefix("include")
            .or_else(|| directive.strip_prefix("rustdoc_include"))
        else {
            continue;
        };
        let target = target.trim();
        let (file, anchor) = target
            .split_once(':')
            .map_or((target, None), |(f, a)| (f, Some(a.to_string())));
        found.push(Include {
            file: file.to_string(),
            anchor,
        });
    }
    found
}

/// The `// ANCHOR: name` ... `// ANCHOR_END: name` regions of a source, as
/// 1-based line ranges of the two marker lines.
pub fn anchors(source: &str) -> BTreeMap<String, (usize, usize)> {
    let mut open = BTreeMap::new();
    let mut done = BTreeMap::new();
    for (n, line) in source.lines().enumerate() {
        let t = line.trim().trim_start_matches("//").trim();
        if let Some(name) = t.strip_prefix("ANCHOR:") {
            open.insert(name.trim().to_string(), n + 1);
        } else if let Some(name) = t.strip_prefix("ANCHOR_END:")
            && let Some(start) = open.remove(name.trim())
        {
            done.insert(name.trim().to_string(), (start, n + 1));
        }
    }
    done
}

/// A source file that holds stubbed functions.
struct Source {
    /// Whether it is a reference file (else it is the learner's stub).
    reference: bool,
    fns: Vec<StubbedFn>,
    anchors: BTreeMap<String, (usize, usize)>,
    /// Chapter slug, for messages and for which exercise owns a key.
    chapter: String,
}

impl Source {
    /// The lines an include shows: an anchor's inside, or the whole file.
    fn range(&self, anchor: Option<&str>) -> Option<(usize, usize)> {
        match anchor {
            None => Some((1, usize::MAX)),
            Some(a) => self.anchors.get(a).map(|&(s, e)| (s + 1, e - 1)),
        }
    }
}

/// Every problem with folding in the book of `root`.
pub fn problems(root: &Path, chapters: &[Chapter]) -> Vec<String> {
    let sources = load_sources(chapters);
    let src = root.join("book/src");
    let pages = super::book_pages(root);
    let mut problems = Vec::new();
    let mut shown_on: BTreeMap<PathBuf, BTreeSet<(String, String)>> = BTreeMap::new();
    for page in &pages {
        let Ok(text) = std::fs::read_to_string(page) else {
            continue;
        };
        let name = page
            .strip_prefix(root)
            .unwrap_or(page)
            .display()
            .to_string();
        let shown = shown_on.entry(page.clone()).or_default();
        problems.extend(
            page_problems(page, &text, &sources, shown)
                .into_iter()
                .map(|p| format!("{name}: {p}")),
        );
    }
    for c in chapters {
        for e in &c.exercises {
            let file = e.book.split('#').next().unwrap_or_default();
            let page = src.join(file);
            let shown = shown_on.get(&page).cloned().unwrap_or_default();
            for key in e.stubs.keys() {
                if !shown.contains(&(c.chapter.slug.clone(), key.clone())) {
                    problems.push(format!(
                        "book/src/{file}: exercise {}/{} is explained here, but the page never includes the stub of `{key}` from exercises/ (what to write)",
                        c.chapter.slug, e.name
                    ));
                }
            }
        }
    }
    problems
}

fn load_sources(chapters: &[Chapter]) -> BTreeMap<PathBuf, Source> {
    let mut sources = BTreeMap::new();
    for c in chapters {
        let stubs = c.all_stubs();
        let keys: BTreeSet<&str> = stubs.keys().copied().collect();
        let learner_src = c.stub_src();
        let reference_src = c.reference_src();
        for (dir, reference) in [(&reference_src, true), (&learner_src, false)] {
            let mut files = Vec::new();
            rs_files(dir, &mut files);
            for path in files {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let Ok(canonical) = path.canonicalize() else {
                    continue;
                };
                let mut fns = stubbed_fns(&text, &keys);
                if reference {
                    // Only what the stubs hide counts: a reference-only file
                    // or item may reuse a stubbed name for other code.
                    let rel = path.strip_prefix(dir).unwrap_or(&path);
                    let stub = std::fs::read_to_string(learner_src.join(rel)).unwrap_or_default();
                    let hidden = stubbed_fns(&stub, &keys);
                    fns.retain(|f| hidden.iter().any(|h| h.key == f.key));
                }
                sources.insert(
                    canonical,
                    Source {
                        reference,
                        fns,
                        anchors: anchors(&text),
                        chapter: c.chapter.slug.clone(),
                    },
                );
            }
        }
    }
    sources
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Walks one page in order; `shown` collects the stubs it has included.
fn page_problems(
    page: &Path,
    text: &str,
    sources: &BTreeMap<PathBuf, Source>,
    shown: &mut BTreeSet<(String, String)>,
) -> Vec<String> {
    let dir = page.parent().unwrap_or(Path::new("."));
    let mut problems = Vec::new();
    let mut depth = 0usize;
    for (n, line) in text.lines().enumerate() {
        for inc in includes_in(line) {
            let Some(source) = dir
                .join(&inc.file)
                .canonicalize()
                .ok()
                .and_then(|p| sources.get(&p))
            else {
                continue;
            };
            let Some((first, last)) = source.range(inc.anchor.as_deref()) else {
                continue;
            };
            let what = || {
                inc.anchor
                    .as_ref()
                    .map_or(inc.file.clone(), |a| format!("{}:{a}", inc.file))
            };
            for f in &source.fns {
                let key = (source.chapter.clone(), f.key.clone());
                if !source.reference {
                    if (first..=last).contains(&f.sig) {
                        shown.insert(key);
                    }
                    continue;
                }
                if !f.body_within(first, last) {
                    continue;
                }
                if depth == 0 {
                    problems.push(format!(
                        "line {}: {} shows the reference body of `{}`, which learners write; put it inside <details><summary>Show the reference solution</summary> ... </details> after the exercise",
                        n + 1,
                        what(),
                        f.key
                    ));
                } else if !shown.contains(&key) {
                    problems.push(format!(
                        "line {}: the answer {} comes before the page shows the stub of `{}` from exercises/ (what to write)",
                        n + 1,
                        what(),
                        f.key
                    ));
                }
            }
        }
        depth += line.matches("<details").count();
        depth = depth.saturating_sub(line.matches("</details>").count());
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_read_as_line_ranges() {
        let a = anchors("// ANCHOR: x\nfn f() {}\n// ANCHOR_END: x\n// ANCHOR: y\n");
        assert_eq!(a.get("x"), Some(&(1, 3)));
        assert_eq!(a.get("y"), None, "an anchor with no end is no region");
    }

    #[test]
    fn a_line_may_hold_several_includes() {
        let found = includes_in("a {{#include a.rs:x}} b {{#include ../b.rs}}");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].anchor.as_deref(), Some("x"));
        assert_eq!(found[1].file, "../b.rs");
        assert_eq!(found[1].anchor, None);
    }

    #[test]
    fn a_body_counts_as_shown_only_inside_its_braces() {
        let f = StubbedFn {
            key: "f".into(),
            sig: 2,
            open: 2,
            close: 5,
        };
        assert!(
            !f.body_within(1, 2),
            "the signature line alone is not the body"
        );
        assert!(f.body_within(4, 9));
        assert!(
            !f.body_within(5, 9),
            "the closing brace alone is not the body"
        );
    }
}
