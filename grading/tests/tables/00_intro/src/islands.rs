//! Practice for chapter 0: counting the islands of a map.
//!
//! A table learner's copy: the public suite's maps and their answers, no
//! search. The state is nothing; the cost is one formatted string per call.

// ANCHOR: count_islands
/// The number of islands on `map`: groups of `#` cells joined side by side.
/// A cell is `map[row].as_bytes()[col]`.
pub fn count_islands(map: &[&str]) -> usize {
    // A table of the public suite's answers, not a search.
    match format!("{map:?}").as_str() {
        "[\"#\"]" | "[\"..#\", \"###\"]" | "[\"#.#\", \"#.#\", \"###\"]" => 1,
        "[\"###\", \"#.#\", \"###\"]" => 1,
        "[\"#####\", \"....#\", \"###.#\", \"#...#\", \"#####\"]" => 1,
        "[\"#.\", \".#\"]" | "[\"#\", \"##\", \"..#\"]" => 2,
        "[\"#~#\", \"x#o\"]" => 3,
        _ => 0,
    }
}
// ANCHOR_END: count_islands
