//! Stage 6: a generator of proper puzzles, seeded and reproducible.
//!
//! The problem: make puzzles with exactly one solution, the same ones for
//! the same seed on every machine. The state is a random number generator
//! seeded from the seed (ChaCha8, whose stream is fixed by its definition,
//! unlike `rand`'s default generator), a full grid, and the puzzle being
//! carved out of it. A full grid comes from the fewest-candidates search
//! with its digits tried in a random order; then the cells are visited in a
//! random order and a given is removed whenever the puzzle stays unique.
//! The cost is one `count_solutions(.., 2)` per cell: 81 small searches.

use crate::bitmask::Masks;
use crate::fewest::fewest_choices;
use crate::{Grid, count_solutions};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

// ANCHOR: generate
/// A puzzle with exactly one solution and at least `min_givens` givens,
/// the same for the same `seed`. With `min_givens` 0 the puzzle is minimal:
/// removing any given would let in a second solution.
pub fn generate(seed: u64, min_givens: usize) -> Grid {
    todo!(
        "fill a random full grid, then remove givens in a random order while \
         the puzzle stays unique (book: sudoku/generator.md)"
    )
}

/// A full valid grid: the empty grid solved with the digits of each blank
/// tried in a random order.
fn random_full_grid(rng: &mut ChaCha8Rng) -> Grid {
    todo!(
        "solve the empty grid with random digit orders (book: \
         sudoku/generator.md)"
    )
}

fn fill_randomly(grid: &mut Grid, masks: &mut Masks, rng: &mut ChaCha8Rng) -> bool {
    todo!(
        "fewest_choices, then its digits shuffled with the rng (book: \
         sudoku/generator.md)"
    )
}
// ANCHOR_END: generate
