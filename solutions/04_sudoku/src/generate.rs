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
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut puzzle = random_full_grid(&mut rng);
    let mut order: Vec<usize> = (0..81).collect();
    order.shuffle(&mut rng);
    for cell in order {
        if puzzle.givens() <= min_givens {
            break;
        }
        let digit = std::mem::replace(&mut puzzle.cells[cell], 0);
        if count_solutions(&puzzle, 2) != 1 {
            puzzle.cells[cell] = digit;
        }
    }
    puzzle
}

/// A full valid grid: the empty grid solved with the digits of each blank
/// tried in a random order.
fn random_full_grid(rng: &mut ChaCha8Rng) -> Grid {
    let mut grid = Grid::EMPTY;
    let mut masks = Masks::default();
    let filled = fill_randomly(&mut grid, &mut masks, rng);
    debug_assert!(
        filled,
        "every partial grid of this search extends to a full one"
    );
    grid
}

fn fill_randomly(grid: &mut Grid, masks: &mut Masks, rng: &mut ChaCha8Rng) -> bool {
    let Some((cell, free)) = fewest_choices(grid, masks) else {
        return true;
    };
    let mut digits: Vec<u8> = (1..=9).filter(|d| free & 1 << d != 0).collect();
    digits.shuffle(rng);
    for digit in digits {
        grid.cells[cell] = digit;
        masks.toggle(cell, digit);
        if fill_randomly(grid, masks, rng) {
            return true;
        }
        masks.toggle(cell, digit);
    }
    grid.cells[cell] = 0;
    false
}
// ANCHOR_END: generate
