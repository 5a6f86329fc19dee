//! The real chapters: every reference, handed in as a learner would, is
//! taken whole and rebuilds the reference; random bytes and mutated
//! references never stop the intake with an internal error.

use super::*;
use std::collections::BTreeSet;
use syn::spanned::Spanned;
use syn::{Attribute, Item};

/// The text `workbook stubs` starts from: the solution without its
/// `#[cfg(test)]` and reference-only items, renamed to the learner's crate.
fn learner_copy(text: &str, package: &str) -> String {
    let Ok(file) = syn::parse_file(text) else {
        return text.to_string();
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut drop = BTreeSet::new();
    for item in &file.items {
        let attrs: &[Attribute] = match item {
            Item::Fn(i) => &i.attrs,
            Item::Mod(i) => &i.attrs,
            Item::Impl(i) => &i.attrs,
            Item::Struct(i) => &i.attrs,
            Item::Enum(i) => &i.attrs,
            Item::Use(i) => &i.attrs,
            Item::Const(i) => &i.attrs,
            Item::Static(i) => &i.attrs,
            Item::Type(i) => &i.attrs,
            _ => &[],
        };
        let start = attrs
            .first()
            .map_or(item.span().start().line, |a| a.span().start().line);
        let cfg_test = attrs.iter().any(|a| {
            a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
        });
        let marked = start > 1 && lines[start - 2].trim() == crate::stubs::REFERENCE_ONLY;
        if cfg_test || marked {
            drop.extend(start - usize::from(marked)..=item.span().end().line);
        }
    }
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(&(i + 1)))
        .map(|(_, l)| *l)
        .collect();
    (kept.join("\n") + "\n").replace(&format!("{package}_solution"), package)
}

fn rust_files(dir: &Path, base: &Path, out: &mut BTreeMap<PathBuf, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
            out.insert(rel, std::fs::read_to_string(&path).unwrap_or_default());
        }
    }
}

/// One chapter of the workbook: its pristine stubs, the reference as a
/// learner would hand it in (by path under `src/`), and its stub keys.
struct RealChapter {
    folder: String,
    pristine: BTreeMap<PathBuf, String>,
    solution: BTreeMap<PathBuf, String>,
    stubs: Vec<String>,
}

/// Every chapter: its pristine stubs and the reference as a learner would
/// hand it in.
fn real_chapters() -> Vec<RealChapter> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let chapters = crate::info::load_chapters(&root).unwrap_or_default();
    assert!(!chapters.is_empty(), "no chapters under {}", root.display());
    chapters
        .iter()
        .map(|c| {
            let mut pristine = BTreeMap::new();
            rust_files(&c.dir.join("src"), &c.dir.join("src"), &mut pristine);
            let sol = root.join("solutions").join(c.folder()).join("src");
            let mut solution = BTreeMap::new();
            rust_files(&sol, &sol, &mut solution);
            for text in solution.values_mut() {
                *text = learner_copy(text, c.package());
            }
            let stubs = c.all_stubs().keys().map(|k| k.to_string()).collect();
            RealChapter {
                folder: c.folder(),
                pristine,
                solution,
                stubs,
            }
        })
        .collect()
}

#[test]
fn every_reference_solution_is_accepted_and_rebuilds_the_reference() {
    for RealChapter {
        folder,
        pristine,
        solution,
        stubs,
    } in real_chapters()
    {
        let submitted = solution
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
            .collect();
        let i = take(&pristine, &submitted, &stubs, &[], &[]);
        assert!(i.refused.is_empty(), "{folder}: {:#?}", i.refused);
        for (rel, built) in &i.files {
            // Files without stubs are the pristine text by design; that
            // they match the reference is `workbook check`'s invariant.
            let Some(reference) = solution
                .get(rel)
                .filter(|_| pristine[rel].contains("todo!("))
            else {
                continue;
            };
            assert_eq!(
                canonical(built),
                canonical(reference),
                "{folder}/{}: the spliced file is not the reference",
                rel.display()
            );
        }
    }
}

/// SplitMix64: the fuzz below is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "!",
    "#[",
    "#![",
    "::",
    "r#",
    "unsafe",
    "mod m;",
    "\"",
    "'",
    "/*",
    "*/",
    "//",
    "\u{e9}",
    "std::fs",
    "impl",
    "pub ",
    "fn ",
    ";",
    ",",
    "=>",
    "macro_rules!",
    "b'",
    "r#\"",
    "\u{feff}",
    "\0",
    "\n",
];

/// One random edit of `text`: cut, duplicate or insert a piece.
fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        let len = rng.below(64).min(bytes.len() - at);
        match rng.below(3) {
            0 => {
                bytes.drain(at..at + len);
            }
            1 => {
                let copy = bytes[at..at + len].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => {
                let piece = PIECES[rng.below(PIECES.len())].as_bytes().to_vec();
                bytes.splice(at..at, piece);
            }
        }
    }
    bytes
}

#[test]
fn arbitrary_bytes_and_mutated_solutions_never_panic() {
    let mut rng = Rng(11);
    let chapters = real_chapters();
    for round in 0..300 {
        let RealChapter {
            folder,
            pristine,
            solution,
            stubs,
        } = &chapters[round % chapters.len()];
        let (rel, text) = solution
            .iter()
            .nth(rng.below(solution.len()))
            .unwrap_or_else(|| panic!("{folder} has no files"));
        let bytes = if round % 5 == 0 {
            (0..rng.below(400)).map(|_| rng.next() as u8).collect()
        } else {
            mutate(&mut rng, text)
        };
        let submitted = BTreeMap::from([(rel.clone(), bytes)]);
        let i = take(pristine, &submitted, stubs, &[], &[]);
        assert!(
            !rules(&i).contains(&"internal"),
            "{folder}/{} round {round}: {:?}",
            rel.display(),
            i.refused
        );
    }
}
