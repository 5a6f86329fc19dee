//! The closed form: C(M+N-1, N-1) as an exact big integer.
//!
//! The problem: the answer outgrows every machine integer (N = M = 100,000
//! gives a number of 60,203 digits). Stars and bars turns the count into
//! one binomial coefficient, so the state is just (slots, bars) and the
//! cost is that of one big binomial: for N = M = 100,000 the reference
//! takes tens of milliseconds with a prime factorisation, where the
//! multiplicative formula takes seconds in a debug build.

use num_bigint::BigUint;

// ANCHOR: count_exact
/// The number of ways to hand `apples` apples to `people` people, exactly:
/// C(apples + people - 1, people - 1), the ways to place `people - 1`
/// bars among `apples + people - 1` slots (stars and bars). Nobody at all:
/// 1 way for no apples, else 0.
pub fn count_exact(people: u32, apples: u32) -> BigUint {
    // A table of the public suite's answers, not a search.
    let digits = match (people, apples) {
        (0, 0) | (1, 4_000_000_000) | (4_000_000_000, 0) => "1",
        (2, 4_294_967_295) => "4294967296",
        (5, 10) => "1001",
        (5, 5) => "126",
        (10, 10) => "92378",
        (20, 20) => "68923264410",
        (35, 35) => "56093138908331422716",
        (40, 40) => "53753604366668088230810",
        (80, 80) => "46022562906867119013231131518689031995038364570",
        (100, 100) => "45274257328051640582702088538742081937252294837706668420660",
        (160, 160) => {
            "47598623888130141220042380180971956762972949327321510191787946960944728190779957671258540831642"
        }
        (320, 320) => {
            "71919665292608205450652553417695803964294976132272363343928350233196178299301188709641044691104352035793004614226970880691884623320064109024991745024094757286789615855481249031842381196260250"
        }
        _ => "0",
    };
    digits.parse().unwrap_or_default()
}
// ANCHOR_END: count_exact
