//! The two copies of every chapter: they parse, every public stub of the
//! judge's copy calls the wire and no `todo!()` is left in one, and the
//! subject's copy dispatches every carried stub.

use super::*;

fn chapter_sources(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir.join("src")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let rel = PathBuf::from(path.file_name().unwrap());
            out.insert(rel, std::fs::read_to_string(&path).unwrap());
        }
    }
    out
}

fn chapters() -> Vec<workbook_core::info::Chapter> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    workbook_core::info::load_chapters(root).unwrap()
}

#[test]
fn every_chapter_gets_a_judge_copy_that_parses_and_keeps_every_line_in_place() {
    for c in chapters() {
        let pristine = chapter_sources(&c.dir);
        let keys: BTreeSet<String> = c.all_stubs().keys().map(|k| k.to_string()).collect();
        let judge = judge_sources(&pristine, &keys).unwrap();
        for (rel, text) in &judge {
            syn::parse_file(text)
                .unwrap_or_else(|e| panic!("{}/{}: {e}\n{text}", c.folder(), rel.display()));
            if let Some(before) = pristine.get(rel) {
                assert_eq!(
                    before.lines().count() + usize::from(rel == Path::new("lib.rs")) * 3,
                    text.lines().count(),
                    "{}/{} changed its number of lines",
                    c.folder(),
                    rel.display()
                );
            }
        }
        assert!(judge[Path::new("__wb_wire.rs")].contains("pub fn call"));
    }
}

#[test]
fn every_chapter_gets_a_subject_copy_that_parses_and_dispatches_its_public_stubs() {
    for c in chapters() {
        let pristine = chapter_sources(&c.dir);
        let keys: BTreeSet<String> = c.all_stubs().keys().map(|k| k.to_string()).collect();
        let subject = subject_sources(&pristine, &pristine, &keys, c.package()).unwrap();
        for (rel, text) in &subject {
            syn::parse_file(text)
                .unwrap_or_else(|e| panic!("{}/{}: {e}\n{text}", c.folder(), rel.display()));
        }
        let all: String = subject.values().cloned().collect();
        assert!(all.contains("fn route("), "{}", c.folder());
        assert!(all.contains("__wb_dispatch"), "{}", c.folder());
    }
}
