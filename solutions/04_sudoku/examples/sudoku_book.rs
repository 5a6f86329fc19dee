//! Prints what the book shows of chapter 4 (the player's trace, figures and
//! a quiz) as the records `cargo xtask book build` reads; see
//! `sudoku_solution::book`. Run by the book build, not by hand.

fn main() {
    print!("{}", sudoku_solution::book::records());
}
