//! The loop's language: the order of the choice, a catalogue's
//! translations, placeholders and Russian counts (core/src/lang.rs). These
//! live here, not beside the module, because the suites include that file
//! and would otherwise list these tests among the learner's.

use workbook_core::lang::*;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lang-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_environment_then_the_remembered_choice_then_the_locale_decide() {
    let dir = scratch("choice");
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(choice(&dir, env(&[])), "en");
    assert_eq!(choice(&dir, env(&[("LANG", "ja_JP.UTF-8")])), "ja");
    assert_eq!(
        choice(
            &dir,
            env(&[("LANG", "ja_JP.UTF-8"), ("LC_ALL", "ru_RU.UTF-8")])
        ),
        "ru"
    );
    assert_eq!(choice(&dir, env(&[("LC_MESSAGES", "zh_CN.utf8")])), "zh-CN");
    assert_eq!(choice(&dir, env(&[("LANG", "de_DE.UTF-8")])), "en");
    std::fs::create_dir_all(dir.join(".workbook")).unwrap();
    std::fs::write(dir.join(REMEMBERED), "ru\n").unwrap();
    assert_eq!(choice(&dir, env(&[("LANG", "ja_JP.UTF-8")])), "ru");
    assert_eq!(
        choice(
            &dir,
            env(&[("LANG", "ja_JP.UTF-8"), ("WORKBOOK_LANG", "zh-CN")])
        ),
        "zh-CN"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_catalogue_translates_fills_placeholders_and_counts_in_russian_forms() {
    let po = "msgid \"\"\nmsgstr \"\"\n\"Language: ru\\n\"\n\n\
              msgid \"{n} exercise has failing tests\"\n\
              msgid_plural \"{n} exercises have failing tests\"\n\
              msgstr[0] \"{n} упражнение\"\nmsgstr[1] \"{n} упражнения\"\nmsgstr[2] \"{n} упражнений\"\n\n\
              msgid \"Start with `{name}`\"\nmsgstr \"Начните с \"\n\"`{name}`\"\n\n\
              #, fuzzy\nmsgid \"stale\"\nmsgstr \"устарело\"\n";
    let root = scratch("ru");
    std::fs::create_dir_all(root.join("book/po/loop")).unwrap();
    std::fs::write(catalogue(&root, "ru"), po).unwrap();
    let lang = Lang::load(&root, "ru");
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(lang.code(), "ru");
    let one = "{n} exercise has failing tests";
    let many = "{n} exercises have failing tests";
    assert_eq!(lang.count(one, many, 1, &[]), "1 упражнение");
    assert_eq!(lang.count(one, many, 3, &[]), "3 упражнения");
    assert_eq!(lang.count(one, many, 11, &[]), "11 упражнений");
    assert_eq!(lang.count(one, many, 21, &[]), "21 упражнение");
    assert_eq!(lang.count(one, many, 12_345, &[]), "12\u{a0}345 упражнений");
    assert_eq!(
        lang.fill("Start with `{name}`", &[("name", &"naive")]),
        "Начните с `naive`"
    );
    assert_eq!(lang.tr("stale"), "stale", "a fuzzy translation is not used");
    let en = Lang::english();
    assert_eq!(en.count(one, many, 1, &[]), "1 exercise has failing tests");
    assert_eq!(
        en.count(one, many, 2, &[]),
        "2 exercises have failing tests"
    );
    assert_eq!(en.number(12_345), "12345");
}

#[test]
fn an_unknown_placeholder_or_brace_is_kept_as_written() {
    assert_eq!(substitute("{a} {b} {", &[("a", &1)]), "1 {b} {");
}

#[test]
fn an_unknown_language_or_a_missing_catalogue_is_english() {
    let root = scratch("none");
    assert!(Lang::load(&root, "ja").is_english());
    assert!(Lang::load(&root, "xx").is_english());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn every_exercise_title_reads_in_each_language_the_book_s_own_where_the_book_has_one() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let chapters = workbook_core::info::load_chapters(&root).expect("the chapters");
    for code in ["ja", "zh-CN", "ru"] {
        let lang = Lang::load(&root, code);
        assert_eq!(lang.code(), code, "{code}'s loop catalogue loads");
        let mut titles = 0;
        for exercise in chapters.iter().flat_map(|c| &c.exercises) {
            titles += 1;
            let shown = lang.title(&exercise.title);
            assert_ne!(
                shown, exercise.title,
                "{code}: exercise `{}` is titled in English",
                exercise.name
            );
            // A title that is also a heading of the book reads as the
            // reader's book prints it (the learner finds it there), and
            // the loop's catalogue agrees with the book.
            assert_eq!(
                lang.tr(&exercise.title),
                shown,
                "{code}: `{}` differs between the book and the loop",
                exercise.name
            );
        }
        assert!(titles >= 40, "only {titles} exercises");
    }
    // English keeps the title as written.
    assert_eq!(
        Lang::english().title("Overflow: u64 that says so"),
        "Overflow: u64 that says so"
    );
}
