//! The stubs' doc comments in the learner's language.
//!
//! The problem: a reader of the Japanese book opens a stub and reads what
//! the function must do in English, while the generated stubs must stay one
//! English source (`cargo xtask stubs` derives them, `cargo xtask check`
//! proves `exercises/` is exactly that). The choice made here: every doc
//! comment of a stub (the file's `//!` header, the doc of each function it
//! hides, and of each item it gives: types, fields, consts) is a
//! message of the loop's catalogue (`book/po/loop/<lang>.po`, extracted by
//! `cargo xtask book extract`), and `cargo workbook lang CODE` rewrites, in
//! the learner's checkout, each `///` or `//!` block that still reads as
//! generated (the English text, or its translation in one of the loop's
//! languages) into language `CODE`; `lang en` gives the English back byte
//! for byte. A block the learner edited matches no message and is left as
//! it is; code is never touched (only whole comment lines are replaced).
//! `reset` writes a pristine stub with the same comments. The state: the
//! catalogues, read once per call. The cost: one pass over each stub file.

use crate::lang::Lang;
use std::collections::{BTreeSet, HashMap};

/// A run of consecutive `///` (or `//!`) lines of one indentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocBlock {
    /// The byte range of its whole lines, final newline included.
    pub range: std::ops::Range<usize>,
    /// The blanks before the marker.
    pub indent: String,
    /// `///` or `//!`.
    pub marker: &'static str,
    /// The comment's text: each line without its indent, marker and the one
    /// space after it, joined by `\n` (an empty line of the comment is
    /// empty here).
    pub text: String,
}

/// Every doc comment block of a Rust file's text, in order.
pub fn doc_blocks(text: &str) -> Vec<DocBlock> {
    let mut blocks: Vec<DocBlock> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let bare = line.trim_end_matches(['\n', '\r']);
        let trimmed = bare.trim_start();
        let indent = &bare[..bare.len() - trimmed.len()];
        // `////` is an ordinary comment, not a doc comment.
        let marker = if trimmed.starts_with("///") && !trimmed.starts_with("////") {
            "///"
        } else if trimmed.starts_with("//!") {
            "//!"
        } else {
            continue;
        };
        let rest = &trimmed[3..];
        let words = rest.strip_prefix(' ').unwrap_or(rest);
        match blocks.last_mut() {
            Some(b) if b.range.end == start && b.marker == marker && b.indent == indent => {
                b.range.end = at;
                b.text.push('\n');
                b.text.push_str(words);
            }
            _ => blocks.push(DocBlock {
                range: start..at,
                indent: indent.to_string(),
                marker,
                text: words.to_string(),
            }),
        }
    }
    blocks
}

/// The doc comments of the functions `stubbed` names (`name` or
/// `Type::method`) in a stub file's text: the messages a learner reads
/// where they write, which the loop's catalogue translates. A file that
/// does not parse has none.
pub fn stubbed_docs(text: &str, stubbed: &BTreeSet<&str>) -> Vec<DocBlock> {
    let Ok(items) = crate::stubs::item_ranges(text) else {
        return Vec::new();
    };
    let starts: BTreeSet<usize> = items
        .iter()
        .filter(|(name, _)| stubbed.contains(name.as_str()))
        .map(|(_, range)| range.start)
        .collect();
    // A function's span starts at its first attribute: its doc comment,
    // after the indentation of that line.
    doc_blocks(text)
        .into_iter()
        .filter(|b| starts.contains(&(b.range.start + b.indent.len())))
        .collect()
}

/// The other doc comments of a stub file: its header (`//!`) and the docs
/// of the items it gives (types, fields, consts, the functions and methods
/// it keeps), every block that is not one of [`stubbed_docs`]. They are
/// messages of the loop's catalogue too, so a stub reads in the learner's
/// language from its first line, not only where they write.
pub fn given_docs(text: &str, stubbed: &BTreeSet<&str>) -> Vec<DocBlock> {
    let hidden: Vec<_> = stubbed_docs(text, stubbed)
        .into_iter()
        .map(|b| b.range)
        .collect();
    doc_blocks(text)
        .into_iter()
        .filter(|b| !hidden.contains(&b.range))
        .collect()
}

/// What turns the loop's doc comments into one language: each known text
/// (English, or a translation in any of the loop's languages) to its
/// English original, and the chosen language's translations.
pub struct Localizer {
    to_english: HashMap<String, String>,
    target: Lang,
}

impl Localizer {
    /// Comments into `target`, recognising the texts of every language in
    /// `known` (the loop's catalogues).
    pub fn new(target: Lang, known: &[Lang]) -> Localizer {
        let mut to_english = HashMap::new();
        for lang in known.iter().chain(std::iter::once(&target)) {
            for (english, translated) in lang.translated() {
                // Only multi-word texts: a one-word message ("done") could
                // equal a comment that is not the stub's.
                if english.contains(' ') {
                    to_english.insert(english.to_string(), english.to_string());
                    to_english.insert(translated.to_string(), english.to_string());
                }
            }
        }
        Localizer { to_english, target }
    }

    /// For the repository at `root`: comments into language `code`, every
    /// loop language recognised.
    pub fn for_repository(root: &std::path::Path, code: &str) -> Localizer {
        let known: Vec<Lang> = crate::lang::LANGUAGES
            .iter()
            .map(|c| Lang::load(root, c))
            .collect();
        Localizer::new(Lang::load(root, code), &known)
    }

    /// `text` with each doc comment that still reads as generated written
    /// in the target language; every other byte as it was.
    pub fn localize(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + text.len() / 4);
        let mut at = 0;
        for block in doc_blocks(text) {
            let Some(english) = self.to_english.get(&block.text) else {
                continue;
            };
            let wanted = self.target.tr(english);
            if wanted == block.text {
                continue;
            }
            out.push_str(&text[at..block.range.start]);
            let newline = if text[..block.range.end].ends_with("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            let ends_with_newline = text[..block.range.end].ends_with('\n');
            let lines: Vec<&str> = wanted.split('\n').collect();
            for (i, line) in lines.iter().enumerate() {
                out.push_str(&block.indent);
                out.push_str(block.marker);
                if !line.is_empty() {
                    out.push(' ');
                    out.push_str(line);
                }
                if i + 1 < lines.len() || ends_with_newline {
                    out.push_str(newline);
                }
            }
            at = block.range.end;
        }
        out.push_str(&text[at..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STUB: &str = "//! A module.\n\n/// Counts the ways.\n///\n///  Two spaces stay.\npub fn f() -> u32 {\n    todo!(\"write it\")\n}\n\n    //// not a doc\n";

    #[test]
    fn doc_blocks_are_runs_of_one_marker_without_the_marker_and_one_space() {
        let blocks = doc_blocks(STUB);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].text, "A module.");
        assert_eq!(blocks[0].marker, "//!");
        assert_eq!(blocks[1].text, "Counts the ways.\n\n Two spaces stay.");
        assert_eq!(
            &STUB[blocks[1].range.clone()],
            "/// Counts the ways.\n///\n///  Two spaces stay.\n"
        );
    }

    #[test]
    fn only_the_stubbed_functions_docs_are_messages() {
        let text = "/// Hidden.\npub fn a() {}\n\nimpl T {\n    /// A method.\n    pub fn b(&self) {}\n}\n\n/// Given.\npub fn c() {}\n";
        let stubbed: BTreeSet<&str> = ["a", "T::b"].into();
        let texts: Vec<String> = stubbed_docs(text, &stubbed)
            .into_iter()
            .map(|b| b.text)
            .collect();
        assert_eq!(texts, ["Hidden.", "A method."]);
    }

    #[test]
    fn the_header_and_the_given_items_docs_are_the_other_messages() {
        let text = "//! The file.\n\n/// Hidden.\npub fn a() {}\n\n/// A type.\npub struct S {\n    /// A field.\n    pub x: u8,\n}\n\nimpl S {\n    /// Kept.\n    pub fn k(&self) {}\n}\n";
        let stubbed: BTreeSet<&str> = ["a"].into();
        let texts: Vec<String> = given_docs(text, &stubbed)
            .into_iter()
            .map(|b| b.text)
            .collect();
        assert_eq!(texts, ["The file.", "A type.", "A field.", "Kept."]);
    }

    /// The lines of `text` that are not doc comments: the code.
    fn code(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|l| {
                let t = l.trim_start();
                !(t.starts_with("///") || t.starts_with("//!"))
            })
            .collect()
    }

    /// Every stub file of the repository's chapters, with its text.
    fn stub_files() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut out = Vec::new();
        for chapter in crate::info::load_chapters(&root).expect("the chapters") {
            for entry in std::fs::read_dir(chapter.stub_src()).expect("the stubs") {
                let path = entry.expect("an entry").path();
                if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("a stub");
                    out.push((path, text));
                }
            }
        }
        out
    }

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    #[test]
    fn each_language_rewrites_every_doc_comment_of_every_stub_and_not_one_byte_of_code() {
        let english = Localizer::for_repository(&root(), "en");
        let ru = Localizer::for_repository(&root(), "ru");
        let mut rewritten = 0;
        for code_name in ["ja", "zh-CN", "ru"] {
            let to = Localizer::for_repository(&root(), code_name);
            for (path, text) in stub_files() {
                let there = to.localize(&text);
                assert_eq!(
                    code(&there),
                    code(&text),
                    "{} in {code_name}",
                    path.display()
                );
                // Every doc comment of the stub now reads in the language:
                // its header, the docs of the functions it hides and of
                // the items it gives. The catalogue translates each one.
                let before = doc_blocks(&text);
                let after = doc_blocks(&there);
                assert_eq!(before.len(), after.len(), "{}", path.display());
                for (b, a) in before.iter().zip(&after) {
                    assert!(
                        english.to_english.contains_key(&b.text),
                        "{}: a doc comment is no loop message: {:?}",
                        path.display(),
                        b.text
                    );
                    assert_ne!(a.text, b.text, "{} left in English in {code_name}", b.text);
                    rewritten += 1;
                }
                // Back to English, byte for byte; and from one language
                // straight into another.
                assert_eq!(
                    english.localize(&there),
                    text,
                    "{} back from {code_name}",
                    path.display()
                );
                assert_eq!(
                    ru.localize(&there),
                    ru.localize(&text),
                    "{}",
                    path.display()
                );
            }
        }
        // About 90 stubbed functions' docs and 250 headers and given
        // items' docs per language.
        assert!(
            rewritten >= 3 * 330,
            "only {rewritten} doc comments rewritten"
        );
    }

    #[test]
    fn a_doc_comment_the_learner_edited_stays_as_they_wrote_it() {
        let (path, text) = stub_files()
            .into_iter()
            .find(|(p, _)| p.ends_with("01_apples/src/naive.rs"))
            .expect("apples' naive.rs");
        let english = Localizer::for_repository(&root(), "en");
        let block = doc_blocks(&text)
            .into_iter()
            .find(|b| english.to_english.contains_key(&b.text))
            .expect("a stubbed doc");
        let mut edited = text.clone();
        edited.insert_str(block.range.end - 1, " My note: memoize later.");
        let ja = Localizer::for_repository(&root(), "ja").localize(&edited);
        assert!(ja.contains("My note: memoize later."), "{}", path.display());
        assert!(
            ja.contains(text[block.range.clone()].trim_end()),
            "the edited block changed"
        );
        assert_ne!(ja, edited, "the other doc comments stayed English");
        assert_eq!(english.localize(&ja), edited);
    }
}
