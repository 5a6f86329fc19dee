//! Prints what the book shows of chapter 1 (the player's trace, figures and
//! a quiz) as the records `cargo xtask book build` reads; see
//! `apples_solution::book`. Run by the book build, not by hand.

fn main() {
    print!("{}", apples_solution::book::records());
}
