//! Prints what the book shows of chapter 2 (the player's trace, figures and
//! a quiz) as the records `cargo xtask book build` reads; see
//! `eight_queens_solution::book`. Run by the book build, not by hand.

fn main() {
    print!("{}", eight_queens_solution::book::records());
}
