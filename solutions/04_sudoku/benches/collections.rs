//! The fast solver on the public collections, against the chapter's
//! propagation stage in the same run.
//!
//! Files are read from `../shared/data/sudoku/` (relative to the repository
//! root) when present; a missing file is reported and skipped, and the data
//! is never copied into the repository. Each iteration parses the lines and
//! counts solutions up to 2 for every puzzle of a fixed slice of the file.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use sudoku_solution::{count_solutions, fast};

const FILES: [&str; 3] = [
    "puzzles2_17_clue",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles3_magictour_top1465",
];
/// Puzzles per iteration: enough to average, few enough for a short run.
const SLICE: usize = 2000;
const BASELINE_SLICE: usize = 100;

fn lines(text: &[u8], n: usize) -> Vec<&[u8]> {
    text.split(|&b| b == b'\n')
        .filter(|l| l.len() >= 81 && l[0] != b'#')
        .map(|l| &l[..81])
        .take(n)
        .collect()
}

fn collections(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku");
    for name in FILES {
        let Ok(text) = std::fs::read(dir.join(name)) else {
            eprintln!(
                "collections: {name} not found in {}, skipped",
                dir.display()
            );
            continue;
        };
        let mut group = c.benchmark_group(name);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        let fast_lines = lines(&text, SLICE);
        group.throughput(Throughput::Elements(fast_lines.len() as u64));
        group.bench_function("fast", |b| {
            b.iter(|| {
                fast_lines
                    .iter()
                    .filter_map(|l| fast::grid_from_bytes(black_box(l)))
                    .map(|g| fast::solve_count(&g).0)
                    .sum::<usize>()
            })
        });
        let base_lines = lines(&text, BASELINE_SLICE);
        group.throughput(Throughput::Elements(base_lines.len() as u64));
        group.bench_function("propagation (count_solutions)", |b| {
            b.iter(|| {
                base_lines
                    .iter()
                    .filter_map(|l| fast::grid_from_bytes(black_box(l)))
                    .map(|g| count_solutions(&g, 2))
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, collections);
criterion_main!(benches);
