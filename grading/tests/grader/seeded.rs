//! A table of the repository's hidden inputs earns, under the instructor's
//! secret seed, exactly what a table of the public answers earns.
//!
//! The problem: the hidden suites and their generator (`grading/hidden/`)
//! ship with the workbook, so a learner can draw every hidden input as the
//! repository draws it (the public seed, 0, what a suite run by hand uses),
//! compute the answers once and hand in a table of them (issue 32 scored
//! 22 of 25 with one, deserved 18). State: a workbook of chapter 0; two
//! learners made from `grading/tests/tables/00_intro` (each stub body a
//! table of the public suite's answers): `public_table` as it is, and
//! `seed_table` with the 600 hidden inputs of `dfs_recursive` and
//! `dfs_stack` under the public seed and their answers tabulated in front
//! of it. Graded twice: with the secret seed every run of this binary uses
//! (`tool::hidden_seed`), where `seed_table` must earn exactly
//! `public_table`'s points, and with the public seed, where the same table
//! must pass both hidden tests and earn more (so the table is real, and
//! the secret seed alone is what defeats it). Cost: two gradings of two
//! learners of chapter 0, about a minute each once prepared.

use crate::tool;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;
use workbook_core::testkit::{copy, mini_workbook, repo, write};

/// The hidden generator as `grading/hidden/rng.rs` has it, with the seed a
/// learner can know: 0, the repository's own.
struct Rng(u64);

impl Rng {
    fn stream(n: u64) -> Rng {
        let mut mix = Rng(n.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Rng(mix.next() ^ n)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `grading/hidden/intro.rs`'s random graph.
fn graph(rng: &mut Rng) -> Vec<Vec<usize>> {
    let n = 1 + rng.below(12);
    (0..n)
        .map(|_| (0..rng.below(4)).map(|_| rng.below(n + 2)).collect())
        .collect()
}

/// The order a depth-first search from `start` visits (the learner ran
/// the reference once to get these; here, the same walk).
fn answer(g: &[Vec<usize>], start: usize) -> Vec<usize> {
    fn visit(g: &[Vec<usize>], v: usize, seen: &mut [bool], order: &mut Vec<usize>) {
        if v >= g.len() || seen[v] {
            return;
        }
        seen[v] = true;
        order.push(v);
        for &w in &g[v] {
            visit(g, w, seen, order);
        }
    }
    let mut seen = vec![false; g.len()];
    let mut order = Vec::new();
    visit(g, start, &mut seen, &mut order);
    order
}

/// The learner's helper: the hidden inputs of streams 1 and 2 (the two
/// suites' 300 graphs each) under the public seed, and their answers.
fn hidden_table() -> String {
    let mut arms = std::collections::BTreeMap::new();
    for stream in [1, 2] {
        let mut rng = Rng::stream(stream);
        for _ in 0..300 {
            let g = graph(&mut rng);
            let start = rng.below(g.len() + 1);
            arms.insert(format!("{g:?} {start}"), answer(&g, start));
        }
    }
    let mut text = String::from(
        "\nfn hidden_answer(graph: &Graph, start: usize) -> Option<Vec<usize>> {\n    \
         match format!(\"{graph:?} {start}\").as_str() {\n",
    );
    for (key, order) in &arms {
        let _ = writeln!(text, "        {key:?} => Some(vec!{order:?}),");
    }
    text.push_str("        _ => None,\n    }\n}\n");
    text
}

/// The public table with the hidden table asked first in both searches.
fn seed_table(public: &str) -> String {
    let mut text = public.to_string();
    for f in ["dfs_recursive", "dfs_stack"] {
        let head = format!("pub fn {f}(graph: &Graph, start: usize) -> Vec<usize> {{");
        let at = text
            .find(&head)
            .unwrap_or_else(|| panic!("the public table has no `{head}`"));
        text.insert_str(
            at + head.len(),
            "\n    if let Some(a) = hidden_answer(graph, start) {\n        return a;\n    }",
        );
    }
    text + &hidden_table()
}

/// The total of `id`'s row in `out`'s `grades.csv`.
fn total(out: &Path, id: &str) -> f64 {
    let csv = std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
    csv.lines()
        .find(|l| l.starts_with(&format!("{id},")))
        .and_then(|l| l.rsplit(',').nth(1))
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no total for {id}:\n{csv}"))
}

/// The statuses of `id`'s hidden tests of `exercise` in `out`.
fn hidden_statuses(out: &Path, id: &str, exercise: &str) -> Vec<String> {
    let path = out.join("learners").join(id).join("results.json");
    let text = std::fs::read_to_string(&path).expect("results.json");
    let r: Value = serde_json::from_str(&text).expect("results.json is JSON");
    r["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["hidden"] == true)
        .filter(|t| {
            t["name"]
                .as_str()
                .is_some_and(|n| n.contains(&format!("{exercise}::agrees")))
        })
        .map(|t| t["status"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_table_of_the_repositorys_hidden_inputs_earns_only_what_a_public_table_earns() {
    if !tool::sandbox_or_skip(
        "a_table_of_the_repositorys_hidden_inputs_earns_only_what_a_public_table_earns",
    ) {
        return;
    }
    let turn = tool::turn();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    tool::open_to_all(tmp.path());
    let (root, subs) = (tmp.path().join("workbook"), tmp.path().join("submissions"));
    mini_workbook(&root, "build_limit_secs = 120\n");
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tables/00_intro/src");
    let stubs = repo().join("exercises/00_intro/src");
    for id in ["public_table", "seed_table"] {
        let to = subs.join(id).join("exercises/00_intro/src");
        copy(&stubs, &to);
        copy(&tables, &to);
    }
    let public = std::fs::read_to_string(tables.join("lib.rs")).expect("the public table");
    write(
        &subs.join("seed_table/exercises/00_intro/src/lib.rs"),
        &seed_table(&public),
    );

    // The instructor's secret seed: the hidden table meets none of its inputs.
    let secret = tmp.path().join("report-secret");
    turn.ok(&mut tool::grade(&root, &subs, &secret));
    assert_eq!(
        total(&secret, "seed_table"),
        total(&secret, "public_table"),
        "under the secret seed a table of the repository's hidden inputs earns more than a public table"
    );
    for f in ["dfs_recursive", "dfs_stack"] {
        let s = hidden_statuses(&secret, "seed_table", f);
        assert!(!s.is_empty() && s.iter().all(|s| s != "pass"), "{f}: {s:?}");
    }

    // The repository's seed: the same table passes both hidden tests.
    let seed = tmp.path().join("public-seed");
    write(&seed, "0\n");
    std::fs::set_permissions(&seed, std::os::unix::fs::PermissionsExt::from_mode(0o600))
        .expect("the seed closed");
    let public_seed = tmp.path().join("report-public-seed");
    turn.ok(tool::grade(&root, &subs, &public_seed).env("WORKBOOK_HIDDEN_SEED_FILE", &seed));
    for f in ["dfs_recursive", "dfs_stack"] {
        assert_eq!(
            hidden_statuses(&public_seed, "seed_table", f),
            ["pass"],
            "{f}: the table does not reproduce the repository's hidden inputs, so it proves nothing"
        );
    }
    assert!(
        total(&public_seed, "seed_table") > total(&public_seed, "public_table"),
        "under the public seed the hidden table earns nothing more"
    );
}
