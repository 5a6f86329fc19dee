//! Prints what the book shows of chapter 0 (the player's trace, figures and
//! a quiz) as the records `cargo xtask book build` reads; see
//! `intro_solution::book`. Run by the book build, not by hand.

fn main() {
    print!("{}", intro_solution::book::records());
}
