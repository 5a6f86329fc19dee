//! Runs one stage of the chapter once and prints its count and the nodes it
//! visits: a whole process to put under valgrind, for the per-node table
//! on the book's fast-end page.
//!
//! The problem: count instructions and simulated branch mispredictions of
//! one stage, not of a benchmark harness around it. The state is the
//! command line; the cost is the stage's own (valgrind multiplies it by
//! about 50).
//!
//! `cargo build --release -p n_queens_solution --example n_queens_stage`, then
//! `valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes
//! target/release/examples/n_queens_stage count_fast 13` (and `--nodes
//! STAGE N` for the node count alone, outside valgrind).

use n_queens_solution::fast::{
    Kernel, bitmask_nodes, count_fast, count_lanes, count_stack, count_walks, fast_nodes,
};
use n_queens_solution::{
    Counted, QueensTree, count, count_bits, count_flags, count_mirror, robot_solutions, solutions,
    solve_all, solve_all_flags, walk_leaves,
};
use std::process::ExitCode;

type Stage = (&'static str, fn(usize) -> u64);

/// The single-core stages, naive to fast.
const STAGES: [Stage; 10] = [
    ("solve_all", |n| solve_all(n).len() as u64),
    ("solve_all_flags", |n| solve_all_flags(n).len() as u64),
    ("count", count),
    ("count_flags", count_flags),
    ("robot_solutions", |n| robot_solutions(n).len() as u64),
    ("solutions", |n| solutions(n).count() as u64),
    ("count_bits", count_bits),
    ("count_mirror", count_mirror),
    ("count_stack", count_stack),
    ("count_fast", count_fast),
];

/// `count_fast`'s kernels one by one (it picks the widest lanes the
/// processor has): the scalar walks and each lane width, which exit with
/// status 3 where the processor lacks them.
const KERNELS: [Stage; 3] = [
    ("count_walks", count_walks),
    ("count_lanes_avx512", |n| lanes(n, Kernel::Avx512)),
    ("count_lanes_avx2", |n| lanes(n, Kernel::Avx2)),
];

fn lanes(n: usize, kernel: Kernel) -> u64 {
    count_lanes(n, kernel).unwrap_or_else(|| {
        eprintln!("n_queens_stage: no {kernel:?} lanes here for n = {n}");
        std::process::exit(3)
    })
}

/// The nodes a stage visits: queens placed, or robot positions entered
/// (the same measure as the measurements page).
fn nodes(name: &str, n: usize) -> u64 {
    match name {
        "robot_solutions" => {
            let mut robot = Counted::new(QueensTree::new(n));
            walk_leaves(&mut robot);
            robot.entered() + 1
        }
        "count_bits" => bitmask_nodes(n).0,
        "count_mirror" => bitmask_nodes(n).1,
        "count_stack" | "count_fast" | "count_walks" | "count_lanes_avx512"
        | "count_lanes_avx2" => fast_nodes(n),
        _ => {
            let mut lazy = solutions(n);
            lazy.by_ref().for_each(drop);
            lazy.nodes_visited()
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (want_nodes, rest) = match args.split_first() {
        Some((flag, rest)) if flag == "--nodes" => (true, rest),
        _ => (false, &args[..]),
    };
    let [name, n] = rest else {
        eprintln!("usage: n_queens_stage [--nodes] STAGE N");
        return ExitCode::from(2);
    };
    let mut every = STAGES.iter().chain(&KERNELS);
    let Some(&(name, stage)) = every.find(|(s, _)| s == name) else {
        let names: Vec<&str> = STAGES.iter().chain(&KERNELS).map(|(s, _)| *s).collect();
        eprintln!(
            "n_queens_stage: unknown stage `{name}`; one of {}",
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    let Some(n) = n.parse().ok().filter(|n| (1..=18).contains(n)) else {
        eprintln!("n_queens_stage: N must be a board size from 1 to 18, not `{n}`");
        return ExitCode::from(2);
    };
    if want_nodes {
        println!("{}", nodes(name, n));
    } else {
        println!("{}", stage(n));
    }
    ExitCode::SUCCESS
}
