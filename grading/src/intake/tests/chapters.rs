//! The real chapters: every reference, handed in as a learner would, is
//! taken whole and rebuilds the reference; random bytes and mutated
//! references never stop the intake with an internal error.

use super::*;

#[test]
fn every_chapters_reference_is_taken_whole_and_rebuilds_the_reference() {
    let chapters = real_chapters();
    assert!(chapters.len() >= 6, "the workbook has six chapters");
    for RealChapter {
        folder,
        pristine,
        solution,
        stubs,
        crates,
    } in chapters
    {
        let submitted = solution
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
            .collect();
        let i = take(&pristine, &submitted, &stubs, &[], &crates);
        assert!(i.refused.is_empty(), "{folder}: {:#?}", i.refused);
        assert!(i.notes.is_empty(), "{folder}: {:#?}", i.notes);
        for (rel, built) in &i.files {
            // Files without stubs are the pristine text by design; that
            // they match the reference is `cargo xtask check`'s invariant.
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
            crates,
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
        let i = take(pristine, &submitted, stubs, &[], crates);
        assert!(
            !rules(&i).contains(&"internal"),
            "{folder}/{} round {round}: {:?}",
            rel.display(),
            i.refused
        );
    }
}

#[test]
fn every_reference_nests_far_below_the_budget() {
    // The budget's headroom, measured: a reference file that nears it means
    // the budget, not the reference, needs a look.
    for chapter in real_chapters() {
        for (rel, text) in &chapter.solution {
            let tokens = text.parse().unwrap_or_else(|e| panic!("{rel:?}: {e}"));
            let deepest = tokens::nesting(tokens).unwrap_or_else(|e| panic!("{rel:?}: {e:?}"));
            println!("{}/{}: {deepest}", chapter.folder, rel.display());
            assert!(
                deepest < MAX_NESTING / 8,
                "{}/{rel:?}: {deepest}",
                chapter.folder
            );
        }
    }
}
