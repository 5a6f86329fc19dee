//! The rule "one name per exercise": the names the book and README give
//! exercises are the names `info.toml` gives them, and the functions an
//! exercise table says to write are in the stub.
//!
//! The problem: the book said exercise `traced_calls` while the stub's
//! function was `count_naive_traced`, and nothing noticed (issue 36); a
//! learner typing the book's `cargo workbook hint NAME` must get the hints,
//! and `cargo test NAME` that exercise's tests. The state: each chapter's
//! book pages (its folder of `book/src`), the other pages and `README.md`;
//! read from them are `Exercise `NAME``, every `workbook hint A [B]` (also
//! written `` `hint A` ``: a chapter slug, optionally an exercise of it, or an
//! exercise), and the rows of a table whose first header cell is
//! `exercise` (its first column an exercise, its second the functions to
//! write, each a function of the chapter's stub). A page in a chapter's
//! folder must name that chapter's exercises; other pages any chapter's.
//! Reported under rule 3 (hints), whose names these are. The cost: one
//! read of every page and one parse of each stub file.

use std::collections::BTreeSet;
use std::path::Path;
use workbook_core::info::Chapter;

/// Every name the book and README use for an exercise that no `info.toml`
/// lists where it should, and every function an exercise table names that
/// the stub lacks.
pub fn problems(root: &Path, chapters: &[Chapter]) -> Vec<String> {
    let mut pages = super::book_pages(root);
    pages.push(root.join("README.md"));
    let functions: Vec<BTreeSet<String>> = chapters.iter().map(stub_functions).collect();
    let mut problems = Vec::new();
    for page in &pages {
        let Ok(text) = std::fs::read_to_string(page) else {
            continue;
        };
        let shown = page
            .strip_prefix(root)
            .unwrap_or(page)
            .display()
            .to_string();
        let own = chapters
            .iter()
            .position(|c| page.starts_with(c.book_dir()) && c.book_dir() != root.join("book/src"));
        let scope: Vec<&Chapter> = match own {
            Some(i) => vec![&chapters[i]],
            None => chapters.iter().collect(),
        };
        let in_scope = |name: &str| {
            scope
                .iter()
                .any(|c| c.exercises.iter().any(|e| e.name == name))
        };
        let whose = match own {
            Some(i) => format!("exercises/{}/info.toml", chapters[i].folder()),
            None => "any chapter's info.toml".to_string(),
        };
        for (line, name) in exercise_headings(&text) {
            if !in_scope(&name) {
                problems.push(format!(
                    "{shown}:{line}: exercise `{name}` is not an exercise of {whose}"
                ));
            }
        }
        for (line, words) in hint_commands(&text) {
            let chapter = chapters.iter().find(|c| c.chapter.slug == words[0]);
            let wrong = match (chapter, words.get(1)) {
                (Some(c), Some(e)) => (!c.exercises.iter().any(|x| &x.name == e))
                    .then(|| format!("`{e}` is not an exercise of chapter {}", c.chapter.slug)),
                (Some(_), None) => None,
                (None, _) => (!in_scope(&words[0])).then(|| {
                    format!(
                        "`{}` is neither a chapter nor an exercise of {whose}",
                        words[0]
                    )
                }),
            };
            if let Some(wrong) = wrong {
                problems.push(format!(
                    "{shown}:{line}: `cargo workbook hint {}`: {wrong}",
                    words.join(" ")
                ));
            }
        }
        let Some(i) = own else { continue };
        let chapter = &chapters[i];
        for (line, exercise, written) in exercise_table(&text) {
            if !chapter.exercises.iter().any(|e| e.name == exercise) {
                problems.push(format!(
                    "{shown}:{line}: the exercise table names `{exercise}`, not an exercise of {whose}"
                ));
            }
            for function in written {
                if !functions[i].contains(&function) {
                    problems.push(format!(
                        "{shown}:{line}: the exercise table says to write `{function}`, which is not a function of {}",
                        chapter.shown(&chapter.stub_src())
                    ));
                }
            }
        }
    }
    problems
}

/// Every function of the chapter's stub files (`name` and `Type::name`).
fn stub_functions(chapter: &Chapter) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for path in chapter.stub_files().unwrap_or_default() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (name, _) in workbook_core::stubs::item_ranges(&text).unwrap_or_default() {
            if let Some((_, method)) = name.split_once("::") {
                names.insert(method.to_string());
            }
            names.insert(name);
        }
    }
    names
}

/// `(line, NAME)` of each `Exercise `NAME`` (a paragraph's bold lead or a
/// heading).
fn exercise_headings(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("Exercise `") {
            rest = &rest[at + "Exercise `".len()..];
            if let Some(end) = rest.find('`') {
                found.push((i + 1, rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
    }
    found
}

/// `(line, words)` of each `workbook hint A [B]` and `` `hint A [B]` ``:
/// the lower-case names after `hint` (a placeholder such as `NAME` or an
/// option such as `--all` ends them).
fn hint_commands(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for lead in ["workbook hint ", "`hint "] {
            let mut rest = line;
            while let Some(at) = rest.find(lead) {
                rest = &rest[at + lead.len()..];
                let words: Vec<String> = rest
                    .split([' ', '`', '.', ',', ')', ';', ':'])
                    .take_while(|w| {
                        !w.is_empty()
                            && w.chars()
                                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                    })
                    .take(2)
                    .map(str::to_string)
                    .collect();
                if !words.is_empty() {
                    found.push((i + 1, words));
                }
            }
        }
    }
    found
}

/// `(line, exercise, functions)` of each row of a table whose first header
/// cell is `exercise`: the first cell's name and the second cell's
/// `code` names (a call's parentheses dropped).
fn exercise_table(text: &str) -> Vec<(usize, String, Vec<String>)> {
    let mut found = Vec::new();
    let mut inside = false;
    for (i, line) in text.lines().enumerate() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if !line.trim_start().starts_with('|') {
            inside = false;
            continue;
        }
        if cells.first() == Some(&"exercise") {
            inside = true;
            continue;
        }
        if !inside
            || cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        let code = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(|c| c.split('(').next().unwrap_or(c).trim().to_string())
                .collect()
        };
        let Some(exercise) = cells
            .first()
            .map(|c| code(c))
            .and_then(|c| c.into_iter().next())
        else {
            continue;
        };
        found.push((
            i + 1,
            exercise,
            cells.get(1).map(|c| code(c)).unwrap_or_default(),
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exercise_names_are_read_from_leads_and_headings() {
        let text = "**Exercise `traced_calls`.** Write it.\n### Exercise `count_beautiful`\n";
        assert_eq!(
            exercise_headings(text),
            [
                (1, "traced_calls".to_string()),
                (2, "count_beautiful".to_string())
            ]
        );
    }

    #[test]
    fn hint_commands_keep_names_and_stop_at_placeholders() {
        let text = "cargo workbook hint sudoku naive    # both\n`hint count_memo` for one; `cargo workbook hint NAME`; `cargo workbook hint --all`\n";
        assert_eq!(
            hint_commands(text),
            [
                (1, vec!["sudoku".to_string(), "naive".to_string()]),
                (2, vec!["count_memo".to_string()]),
            ]
        );
    }

    #[test]
    fn an_exercise_table_gives_each_rows_exercise_and_functions() {
        let text = "| exercise | what to write | book |\n|---|---|---|\n| `traced_calls` | `traced_calls` and its helper `traced` | [x](x.md) |\n\n| `other` | `table` |\n";
        assert_eq!(
            exercise_table(text),
            [(
                3,
                "traced_calls".to_string(),
                vec!["traced_calls".to_string(), "traced".to_string()]
            )]
        );
    }

    #[test]
    fn the_books_exercise_names_are_the_info_toml_names() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        let chapters = workbook_core::info::load_chapters(root).expect("the chapters load");
        let problems = problems(root, &chapters);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
