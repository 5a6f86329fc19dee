//! The seeded generator every hidden suite draws its inputs from.
//!
//! SplitMix64: a tiny generator whose quality is ample for test inputs, so
//! no extra crate is needed. Each suite draws from numbered streams
//! (`Rng::stream(n)`), each mixed with the run's secret seed, which the
//! grader gives the judge alone (`WORKBOOK_HIDDEN_SEED`; see
//! `grading/src/hidden_seed.rs`): every learner of a run meets the same
//! inputs, and no learner can compute them ahead from this file. Unset (a
//! suite run by hand), the seed is 0. A suite declares `mod rng;` (this
//! file sits beside it in `grading/hidden/`) and may add helpers of its
//! own in an `impl Rng` block.

pub struct Rng(pub u64);

impl Rng {
    /// Stream `n` of the run's inputs.
    pub fn stream(n: u64) -> Rng {
        let secret = std::env::var("WORKBOOK_HIDDEN_SEED")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(0);
        // Two mixing steps, so nearby streams and nearby seeds start far apart.
        let mut mix = Rng(secret ^ n.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Rng(mix.next() ^ n)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
