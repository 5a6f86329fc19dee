//! Practice for chapter 0: counting the islands of a map.
//!
//! A table learner's copy: the public suite's maps and their answers, no
//! search. The state is nothing; the cost is one formatted string per call.

// ANCHOR: count_islands
/// The number of islands on `map`: groups of `#` cells joined side by side.
/// One row per line of `map`; a cell is a byte of its row.
pub fn count_islands(map: &str) -> usize {
    // A table of the public suite's answers, not a search.
    match map {
        "#" | "..#\n###" | "#.#\n#.#\n###" | "###\n#.#\n###" => 1,
        "#####\n....#\n###.#\n#...#\n#####" => 1,
        "#.\n.#" | "#\n##\n..#" => 2,
        "#~#\nx#o" => 3,
        _ => 0,
    }
}
// ANCHOR_END: count_islands
