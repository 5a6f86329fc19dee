//! Prints what the book shows of chapter 5 (the player's trace, figures and
//! a quiz) as the records `cargo xtask book build` reads; see
//! `knights_tour_solution::book`. Run by the book build, not by hand.

fn main() {
    print!("{}", knights_tour_solution::book::records());
}
